// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsers of the PCI attributes of sysfs (kernel/pci_parse.h): text in, numbers out. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "kernel/pci_parse.h"
#include "util.h"

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

int pci_parse_speed(const char *s, unsigned int *mts)
{
	const char *end;
	double gts;

	s = skip_blanks(s);
	/* "Unknown" (pci_speed_string()) and "Unknown speed" (before Linux 5.1) */
	if (!strncmp(s, "Unknown", 7))
		return -ENOENT;
	/* a rate no PCIe generation has yet (PCIe 7.0 is 128 GT/s) is still a rate */
	if (util_num_double(s, UTIL_NUM_PREFIX, 0.1, 1000, &gts, &end))
		return -EINVAL;
	if (strncmp(end, " GT/s", 5))
		return -EINVAL;
	end = skip_blanks(end + 5);
	if (!strncmp(end, "PCIe", 4))
		end = skip_blanks(end + 4);
	if (*end)
		return -EINVAL;
	*mts = (unsigned int)(gts * 1000 + 0.5);
	return 0;
}

int pci_parse_width(const char *s, int *lanes)
{
	uint64_t v;

	s = skip_blanks(s);
	if (*s == 'x' || *s == 'X')
		s++;
	if (util_num_u64(s, UTIL_NUM_BLANKS, 10, 32, &v, NULL))
		return -EINVAL;
	*lanes = (int)v;
	return 0;
}

int pci_parse_aer_total(const char *text, const char *key, uint64_t *out)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char num[32];

		if (len > 6 + klen + 1 && !strncmp(line, "TOTAL_", 6) && !strncmp(line + 6, key, klen) &&
		    line[6 + klen] == ' ') {
			len -= 6 + klen + 1;
			if (len >= sizeof(num))
				return -EINVAL;
			memcpy(num, line + 6 + klen + 1, len);
			num[len] = '\0';
			return util_num_u64(num, UTIL_NUM_BLANKS, 10, UINT64_MAX, out, NULL) ? -EINVAL : 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}

int pci_parse_numa(const char *s, int *node)
{
	uint64_t v;

	s = skip_blanks(s);
	if (!strncmp(s, "-1", 2) && !*skip_blanks(s + 2)) {
		*node = -1;
		return 0;
	}
	/* MAX_NUMNODES is 1 << CONFIG_NODES_SHIFT, at most 1024 */
	if (util_num_u64(s, UTIL_NUM_BLANKS, 10, 1023, &v, NULL))
		return -EINVAL;
	*node = (int)v;
	return 0;
}

static int parse_hex(const char *s, uint64_t max, uint64_t *v)
{
	s = skip_blanks(s);
	if (strncmp(s, "0x", 2))
		return -EINVAL;
	return util_num_u64(s, UTIL_NUM_BLANKS | UTIL_NUM_0X, 0, max, v, NULL) ? -EINVAL : 0;
}

int pci_parse_class(const char *s, uint32_t *cls)
{
	uint64_t v;

	if (parse_hex(s, 0xffffff, &v))
		return -EINVAL;
	*cls = (uint32_t)v;
	return 0;
}

int pci_parse_id(const char *s, uint16_t *id)
{
	uint64_t v;

	if (parse_hex(s, 0xffff, &v))
		return -EINVAL;
	*id = (uint16_t)v;
	return 0;
}
