// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading an IPoIB neighbour's port GUID out of /proc/net/arp (the kernel's arp_seq_show() format). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/ipoib_arp.h"

#define ARP_HW_INFINIBAND	0x20	/* ARPHRD_INFINIBAND */
#define ARP_FLAG_COMPLETE	0x2	/* ATF_COM: the hardware address is known */
#define IPOIB_HW_LEN		20

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "80:00:00:48:fe:80:...": exactly IPOIB_HW_LEN hex bytes. */
static int hw_parse(const char *s, uint8_t *hw)
{
	for (int i = 0; i < IPOIB_HW_LEN; i++) {
		int hi = hex_digit(s[0]), lo = hi < 0 ? -1 : hex_digit(s[1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		hw[i] = (uint8_t)(hi << 4 | lo);
		s += 2;
		if (i < IPOIB_HW_LEN - 1 && *s++ != ':')
			return -EINVAL;
	}
	return *s ? -EINVAL : 0;
}

int ipoib_arp_parse(const char *text, const char *ip, uint64_t *guid, char *dev, size_t devsz)
{
	const char *line = text;
	int rc = -ENOENT;

	while (line && *line) {
		const char *start = line, *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[256], a[64], hw[80], mask[16], d[64];
		unsigned int type, flags;
		uint8_t bytes[IPOIB_HW_LEN];

		line = end ? end + 1 : NULL;
		if (len >= sizeof(buf))
			continue;
		memcpy(buf, start, len);
		buf[len] = '\0';
		if (sscanf(buf, "%63s %x %x %79s %15s %63s", a, &type, &flags, hw, mask, d) != 6 || strcmp(a, ip))
			continue;
		if (!(flags & ARP_FLAG_COMPLETE)) {
			rc = -ENOENT;
			continue;
		}
		if (type != ARP_HW_INFINIBAND)
			return -EPROTOTYPE;
		if (hw_parse(hw, bytes))
			return -EINVAL;
		*guid = 0;
		for (int i = 12; i < IPOIB_HW_LEN; i++)
			*guid = *guid << 8 | bytes[i];
		snprintf(dev, devsz, "%s", d);
		return 0;
	}
	return rc;
}

int ipoib_arp_guid(const struct fab_ctx *ctx, const char *ip, uint64_t *guid, char *dev, size_t devsz,
		   char *why, size_t whysz)
{
	char path[512], *text = NULL;
	size_t cap = 0, n = 0;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/net/arp", ctx->proc_root);
	f = fopen(path, "re");
	if (!f) {
		rc = -errno;
		snprintf(why, whysz, "cannot read %s: %s", path, strerror(-rc));
		return rc;
	}
	/* The table is small; bounded all the same (1 MiB). */
	for (;;) {
		size_t got;

		if (n + 4096 + 1 > cap) {
			char *t;

			if (cap >= (1u << 20))
				break;
			t = realloc(text, cap + 8192);
			if (!t) {
				free(text);
				fclose(f);
				return -ENOMEM;
			}
			text = t;
			cap += 8192;
		}
		got = fread(text + n, 1, cap - n - 1, f);
		n += got;
		if (!got)
			break;
	}
	fclose(f);
	if (!text)
		return -ENOENT;
	text[n] = '\0';
	rc = ipoib_arp_parse(text, ip, guid, dev, devsz);
	free(text);
	if (rc == -ENOENT)
		snprintf(why, whysz, "%s is not in the ARP table (%s): reach it over IPoIB once (ping) so the "
			 "kernel learns its port, or give its LID, GUID or node description", ip, path);
	else if (rc == -EPROTOTYPE)
		snprintf(why, whysz, "%s is reached over Ethernet, not IPoIB (its ARP entry in %s): there is no "
			 "InfiniBand path to trace", ip, path);
	else if (rc == -EINVAL)
		snprintf(why, whysz, "the ARP entry of %s in %s is not a 20-byte IPoIB address", ip, path);
	return rc;
}
