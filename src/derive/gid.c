// SPDX-License-Identifier: GPL-2.0-or-later
/* Decoding GID table entries as the kernel prints them. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "derive/gid.h"

bool gid_parse(const char *s, uint8_t raw[16])
{
	unsigned int g[8];
	int used = 0;

	if (sscanf(s, "%4x:%4x:%4x:%4x:%4x:%4x:%4x:%4x%n",
		   &g[0], &g[1], &g[2], &g[3], &g[4], &g[5], &g[6], &g[7], &used) != 8 ||
	    s[used] != '\0')
		return false;
	/* sscanf accepts a sign; GIDs have none. */
	if (strpbrk(s, "+- "))
		return false;
	for (int i = 0; i < 8; i++) {
		raw[2 * i] = (uint8_t)(g[i] >> 8);
		raw[2 * i + 1] = (uint8_t)g[i];
	}
	return true;
}

bool gid_is_empty(const uint8_t raw[16], bool iwarp)
{
	/*
	 * IB and RoCE GIDs end in an interface ID, and that alone decides,
	 * whatever the prefix: kernels that show an IB port's whole hardware
	 * table (before the shared GID cache) read its unused entries as the
	 * subnet prefix and a zero GUID, fe80:0000:...:0000. rdma-core's tools
	 * skip those too (ibv_devinfo's null_gid()). An iWARP GID is the MAC
	 * address followed by zeros: there only all zeros is empty.
	 */
	for (int i = iwarp ? 0 : 8; i < 16; i++)
		if (raw[i])
			return false;
	return true;
}

void gid_format(struct fab_gid *g)
{
	static const uint8_t v4prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	const uint8_t *r = g->raw;

	snprintf(g->gid, sizeof(g->gid),
		 "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		 r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7],
		 r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]);
	g->has_ipv4 = !memcmp(r, v4prefix, sizeof(v4prefix));
	if (g->has_ipv4)
		snprintf(g->ipv4, sizeof(g->ipv4), "%u.%u.%u.%u", r[12], r[13], r[14], r[15]);
	else
		g->ipv4[0] = '\0';
}

enum fab_gid_type gid_type_parse(const char *s, enum fab_link_layer ll)
{
	if (!strcmp(s, "RoCE v2"))
		return GID_TYPE_ROCE_V2;
	if (!strcmp(s, "IB/RoCE v1"))
		return ll == LINK_LAYER_ETHERNET ? GID_TYPE_ROCE_V1 : GID_TYPE_IB;
	if (!*s)	/* kernels before 4.5 have no types: IB ports are IB */
		return ll == LINK_LAYER_INFINIBAND ? GID_TYPE_IB : GID_TYPE_UNKNOWN;
	return GID_TYPE_UNKNOWN;
}
