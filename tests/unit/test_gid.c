// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of GID decoding: text form, empty entries, IPv4-mapped, types. */
#include "config.h"

#include "derive/gid.h"
#include "tap.h"

int main(void)
{
	struct fab_gid g = { 0 };
	uint8_t raw[16];
	bool ok;


	TAP_OK(gid_parse("fe80:0000:0000:0000:0002:c903:0031:78f1", raw), "link-local GID parses");
	ASSERT_EQ_INT(raw[0], 0xfe, "first byte");
	ASSERT_EQ_INT(raw[15], 0xf1, "last byte");
	TAP_OK(gid_parse("0:0:0:0:0:ffff:a14:1", raw), "short groups parse");
	TAP_OK(!gid_parse("fe80::1", raw), "compressed IPv6 form is not the kernel's");
	TAP_OK(!gid_parse("fe80:0000:0000:0000:0000:0000:0000:0001:0000", raw), "nine groups rejected");
	TAP_OK(!gid_parse("fe80:0000:0000:0000:0000:0000:0000", raw), "seven groups rejected");
	TAP_OK(!gid_parse("fe80:0000:0000:0000:0000:0000:0000:00012", raw), "5-digit group rejected");
	TAP_OK(!gid_parse("fe80:-001:0000:0000:0000:0000:0000:0001", raw), "sign rejected");
	TAP_OK(!gid_parse("", raw), "empty rejected");

	ok = gid_parse("0000:0000:0000:0000:0000:0000:0000:0000", raw);
	TAP_OK(ok && gid_is_empty(raw, false), "all zero is empty (parsed %d, empty %d)", ok, gid_is_empty(raw, false));
	/* older kernels show an IB port's whole table: its unused entries are the prefix and a zero GUID */
	ok = gid_parse("fe80:0000:0000:0000:0000:0000:0000:0000", raw);
	TAP_OK(ok && gid_is_empty(raw, false), "subnet prefix with interface ID zero is empty (parsed %d, empty %d)",
	       ok, gid_is_empty(raw, false));
	ok = gid_parse("fec0:0000:0000:0001:0000:0000:0000:0000", raw);
	TAP_OK(ok && gid_is_empty(raw, false), "a site prefix with interface ID zero is empty (parsed %d, empty %d)",
	       ok, gid_is_empty(raw, false));
	/* an iWARP GID: the MAC, then zeros */
	ok = gid_parse("0007:4305:6e2c:0000:0000:0000:0000:0000", raw);
	TAP_OK(ok && !gid_is_empty(raw, true) && gid_is_empty(raw, false),
	       "a MAC and zeros: an iWARP GID, an empty IB entry (iwarp %d, IB %d)", gid_is_empty(raw, true),
	       gid_is_empty(raw, false));
	ok = gid_parse("0000:0000:0000:0000:0000:0000:0000:0000", raw);
	TAP_OK(ok && gid_is_empty(raw, true), "all zeros is empty on iWARP too");
	ok = gid_parse("fe80:0000:0000:0000:0000:0000:0000:0001", raw);
	TAP_OK(ok && !gid_is_empty(raw, false), "interface ID 1 is not empty (parsed %d, empty %d)", ok, gid_is_empty(raw, false));
	ok = gid_parse("0000:0000:0000:0000:0000:ffff:0a14:0001", g.raw);
	TAP_OK(ok && !gid_is_empty(g.raw, false), "mapped is not empty (parsed %d, empty %d)", ok, gid_is_empty(g.raw, false));
	gid_format(&g);
	ASSERT_EQ_STR(g.gid, "0000:0000:0000:0000:0000:ffff:0a14:0001", "formatted back");
	TAP_OK(g.has_ipv4, "IPv4-mapped recognised");
	ASSERT_EQ_STR(g.ipv4, "10.20.0.1", "IPv4 decoded");
	gid_parse("2001:0db8:0000:0000:0000:0000:0000:0001", g.raw);
	gid_format(&g);
	TAP_OK(!g.has_ipv4 && !g.ipv4[0], "IPv6 global has no IPv4 (has_ipv4 %d, ipv4 \"%s\")", g.has_ipv4, g.ipv4);
	gid_parse("0000:0000:0000:0000:0000:fffe:0a14:0001", g.raw);
	gid_format(&g);
	TAP_OK(!g.has_ipv4, "almost-mapped (fffe) is not IPv4 (ipv4 \"%s\")", g.ipv4);

	ASSERT_EQ_INT(gid_type_parse("RoCE v2", LINK_LAYER_ETHERNET), GID_TYPE_ROCE_V2, "RoCE v2");
	ASSERT_EQ_INT(gid_type_parse("IB/RoCE v1", LINK_LAYER_ETHERNET), GID_TYPE_ROCE_V1, "v1 on Ethernet is RoCE v1");
	ASSERT_EQ_INT(gid_type_parse("IB/RoCE v1", LINK_LAYER_INFINIBAND), GID_TYPE_IB, "v1 on IB is IB");
	ASSERT_EQ_INT(gid_type_parse("", LINK_LAYER_INFINIBAND), GID_TYPE_IB, "old kernel, IB port");
	ASSERT_EQ_INT(gid_type_parse("", LINK_LAYER_ETHERNET), GID_TYPE_UNKNOWN, "old kernel, Ethernet: unknown");
	ASSERT_EQ_INT(gid_type_parse("RoCE v9", LINK_LAYER_ETHERNET), GID_TYPE_UNKNOWN, "unknown text");
	ASSERT_EQ_STR(fab_gid_type_str(GID_TYPE_ROCE_V1), "RoCE v1", "type name");
	ASSERT_EQ_STR(fab_gid_type_str((enum fab_gid_type)99), "unknown", "out-of-range type name is bounded");
	return tap_done();
}
