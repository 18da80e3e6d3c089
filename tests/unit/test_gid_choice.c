// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the GID choice: preference order, VLANs, each warning, bad input. */
#include "config.h"

#include <string.h>

#include "derive/gid.h"
#include "derive/gid_choice.h"
#include "tap.h"

static void add_gid(struct fab_port *p, unsigned int index, const char *gid, enum fab_gid_type t,
		    const char *netdev, bool in_ns)
{
	struct fab_gid *g = &p->gids[p->ngids++];

	memset(g, 0, sizeof(*g));
	g->index = index;
	gid_parse(gid, g->raw);
	gid_format(g);
	g->type = t;
	snprintf(g->netdev, sizeof(g->netdev), "%s", netdev);
	g->netdev_in_ns = in_ns;
}

static bool want(const char *s, struct gid_want *w)
{
	char why[160];

	return gid_want_parse(s, w, why, sizeof(why));
}

#define LL	"fe80:0000:0000:0000:5054:00ff:fe12:0001"
#define V4A	"0000:0000:0000:0000:0000:ffff:0a00:0001"	/* 10.0.0.1 */
#define V4B	"0000:0000:0000:0000:0000:ffff:0a00:0002"	/* 10.0.0.2 */
#define V6	"2001:0db8:0000:0000:0000:0000:0000:0001"
#define VLAN4	"0000:0000:0000:0000:0000:ffff:0a64:0001"	/* 10.100.0.1 */

int main(void)
{
	struct fab_gid g0[16], g1[16], g2[4];
	struct fab_port ports[3];
	struct fab_device devs[2];
	struct fab_host h;
	struct gid_want w;
	struct gid_choice c;
	char why[160];

	memset(ports, 0, sizeof(ports));
	memset(devs, 0, sizeof(devs));
	memset(&h, 0, sizeof(h));
	ports[0].num = 1; ports[0].link_layer = LINK_LAYER_ETHERNET; ports[0].gids = g0;
	ports[1].num = 2; ports[1].link_layer = LINK_LAYER_ETHERNET; ports[1].gids = g1;
	ports[2].num = 1; ports[2].link_layer = LINK_LAYER_INFINIBAND; ports[2].gids = g2;
	snprintf(ports[0].netdevs[0].name, FAB_IFNAMSIZ, "eth0");
	snprintf(ports[0].netdevs[1].name, FAB_IFNAMSIZ, "eth0.100");
	snprintf(ports[0].netdevs[1].parent, FAB_IFNAMSIZ, "eth0");
	ports[0].nnetdevs = 2;
	snprintf(ports[2].netdevs[0].name, FAB_IFNAMSIZ, "ib0");
	ports[2].nnetdevs = 1;
	snprintf(devs[0].name, sizeof(devs[0].name), "mlx5_0");
	devs[0].ports = ports; devs[0].nports = 2;
	snprintf(devs[1].name, sizeof(devs[1].name), "mlx5_1");
	devs[1].ports = &ports[2]; devs[1].nports = 1;
	h.devs = devs; h.ndevs = 2;

	/* Port 1: v1/v2 pairs as mlx5 lays them out, IPv6 first, two IPv4 addresses, a VLAN. */
	add_gid(&ports[0], 0, LL, GID_TYPE_ROCE_V1, "eth0", true);
	add_gid(&ports[0], 1, LL, GID_TYPE_ROCE_V2, "eth0", true);
	add_gid(&ports[0], 2, V6, GID_TYPE_ROCE_V1, "eth0", true);
	add_gid(&ports[0], 3, V6, GID_TYPE_ROCE_V2, "eth0", true);
	add_gid(&ports[0], 4, V4A, GID_TYPE_ROCE_V1, "eth0", true);
	add_gid(&ports[0], 5, V4A, GID_TYPE_ROCE_V2, "eth0", true);
	add_gid(&ports[0], 6, VLAN4, GID_TYPE_ROCE_V2, "eth0.100", true);
	add_gid(&ports[0], 8, V4B, GID_TYPE_ROCE_V2, "eth0", true);

	TAP_OK(want("eth0", &w) && !w.is_addr, "an interface name parses as one");
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.index, 5, "interface: IPv4-mapped RoCE v2 before IPv6 and link-local");
	ASSERT_EQ_INT(c.npicks, 1, "one port carries eth0");
	TAP_OK(c.warn & GID_WARN_SEVERAL_ADDRS, "two IPv4 addresses on eth0 are warned (warn %#x)", c.warn);
	TAP_OK(c.warn & GID_WARN_MAY_MOVE, "an address-made entry may move (warn %#x)", c.warn);
	TAP_OK(!(c.warn & GID_WARN_V1_ONLY), "v2 exists: no v1 warning (warn %#x)", c.warn);

	TAP_OK(want("10.0.0.2", &w) && w.is_addr && w.v4, "IPv4 address parses");
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.index, 8, "the address's own entry, not the interface's first");
	TAP_OK(!(c.warn & GID_WARN_SEVERAL_ADDRS), "an address names one entry (warn %#x)", c.warn);

	TAP_OK(want("2001:db8::1", &w) && w.is_addr && !w.v4, "IPv6 address parses");
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.index, 3, "IPv6: its RoCE v2 entry");

	want("10.100.0.1", &w);
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.index, 6, "VLAN address: the VLAN's entry");
	ASSERT_EQ_STR(c.picks[0].vlan_lower ? c.picks[0].vlan_lower : "(null)", "eth0", "VLAN's lower device named");
	want("eth0.100", &w);
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.index, 6, "VLAN interface: its own entry");

	/* Port 2 carries eth0 too (LAG kept per port), the address at another index. */
	add_gid(&ports[1], 0, LL, GID_TYPE_ROCE_V2, "eth0", true);
	add_gid(&ports[1], 3, V4A, GID_TYPE_ROCE_V2, "eth0", true);
	want("10.0.0.1", &w);
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.npicks, 2, "both ports named");
	ASSERT_EQ_INT(c.index, -1, "ports disagree: no single index");
	TAP_OK(c.warn & GID_WARN_INDEX_DIFFERS, "index differs is warned (warn %#x)", c.warn);
	ports[1].ngids = 0;

	/* Only v1, in another namespace. */
	ports[1].ngids = 0;
	add_gid(&ports[1], 0, LL, GID_TYPE_ROCE_V1, "eth9", false);
	add_gid(&ports[1], 1, "0000:0000:0000:0000:0000:ffff:0a09:0001", GID_TYPE_ROCE_V1, "eth9", false);
	want("eth9", &w);
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.index, 1, "v1 only: the v1 IPv4 entry is still named");
	TAP_OK(c.warn & GID_WARN_V1_ONLY, "RoCE v1 only is warned (warn %#x)", c.warn);
	TAP_OK(c.warn & GID_WARN_NOT_IN_NS, "netdev in another namespace is warned (warn %#x)", c.warn);

	/* Only link-local: named, warned, and not said to move. */
	ports[1].ngids = 0;
	add_gid(&ports[1], 0, LL, GID_TYPE_ROCE_V1, "eth7", true);
	add_gid(&ports[1], 1, LL, GID_TYPE_ROCE_V2, "eth7", true);
	want("eth7", &w);
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.index, 1, "link-local RoCE v2");
	TAP_OK((c.warn & GID_WARN_LINK_LOCAL) && !(c.warn & GID_WARN_MAY_MOVE),
	       "link-local only warned, not may-move (warn %#x)", c.warn);

	/* InfiniBand: IPoIB names the port; index 0, no RoCE pick. */
	add_gid(&ports[2], 0, "fe80:0000:0000:0000:0002:c903:0031:78f1", GID_TYPE_IB, "", true);
	want("ib0", &w);
	gid_choose(&h, &w, &c);
	TAP_OK(c.npicks == 0 && c.ib_port == &ports[2], "IPoIB: the IB port, no RoCE pick (picks %zu)", c.npicks);
	want("10.200.0.1", &w);
	gid_choose(&h, &w, &c);
	TAP_OK(c.npicks == 0 && !c.ib_port && c.index == -1, "unknown address: nothing (picks %zu)", c.npicks);

	/* fe80::/10 asked by address: warned whichever edge of the prefix; fec0:: is not link-local. */
	ports[1].ngids = 0;
	add_gid(&ports[1], 0, "fe80:0000:0000:0000:5054:00ff:fe12:0002", GID_TYPE_ROCE_V2, "eth8", true);
	add_gid(&ports[1], 1, "febf:ffff:ffff:ffff:5054:00ff:fe12:0002", GID_TYPE_ROCE_V2, "eth8", true);
	add_gid(&ports[1], 2, "fec0:0000:0000:0000:5054:00ff:fe12:0002", GID_TYPE_ROCE_V2, "eth8", true);
	add_gid(&ports[1], 3, "fe7f:ffff:ffff:ffff:5054:00ff:fe12:0002", GID_TYPE_ROCE_V2, "eth8", true);
	want("fe80::5054:ff:fe12:2", &w);
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.index, 0, "fe80:: by address: named");
	TAP_OK((c.warn & GID_WARN_LINK_LOCAL_ADDR) && !(c.warn & GID_WARN_MAY_MOVE),
	       "fe80:: by address: link-local warned, not may-move (warn %#x)", c.warn);
	want("febf:ffff:ffff:ffff:5054:ff:fe12:2", &w);
	gid_choose(&h, &w, &c);
	TAP_OK(c.index == 1 && (c.warn & GID_WARN_LINK_LOCAL_ADDR),
	       "febf:ffff:: (last of fe80::/10) is link-local (index %d, warn %#x)", c.index, c.warn);
	want("fec0::5054:ff:fe12:2", &w);
	gid_choose(&h, &w, &c);
	TAP_OK(c.index == 2 && !(c.warn & (GID_WARN_LINK_LOCAL_ADDR | GID_WARN_LINK_LOCAL)),
	       "fec0:: (first past fe80::/10) is not link-local (index %d, warn %#x)", c.index, c.warn);
	want("fe7f:ffff:ffff:ffff:5054:ff:fe12:2", &w);
	gid_choose(&h, &w, &c);
	TAP_OK(c.index == 3 && !(c.warn & GID_WARN_LINK_LOCAL_ADDR),
	       "fe7f:ffff:: (just below fe80::/10) is not link-local (index %d, warn %#x)", c.index, c.warn);
	TAP_OK(want("eth8", &w), "eth8 parses");
	gid_choose(&h, &w, &c);
	TAP_OK(c.index == 2 && !(c.warn & (GID_WARN_LINK_LOCAL | GID_WARN_LINK_LOCAL_ADDR)),
	       "by interface: the non-link-local IPv6 entry before fe80::/febf:: (index %d, warn %#x)",
	       c.index, c.warn);

	/* A kernel without gid_attrs/types: the entry is kept, named, and its type said unknown. */
	ports[1].ngids = 0;
	add_gid(&ports[1], 0, LL, GID_TYPE_UNKNOWN, "eth4", true);
	add_gid(&ports[1], 1, "0000:0000:0000:0000:0000:ffff:0a04:0001", GID_TYPE_UNKNOWN, "eth4", true);
	want("10.4.0.1", &w);
	gid_choose(&h, &w, &c);
	TAP_OK(c.index == 1 && (c.warn & GID_WARN_TYPE_UNKNOWN),
	       "type unknown: named and warned (index %d, warn %#x)", c.index, c.warn);
	want("10.0.0.1", &w);
	gid_choose(&h, &w, &c);
	TAP_OK(c.index == 5 && !(c.warn & GID_WARN_TYPE_UNKNOWN), "a typed entry: no type warning (warn %#x)", c.warn);

	/* A peer, by route: the outgoing netdev's entries of the peer's family, v2, the route's source first. */
	memset(&w, 0, sizeof(w));
	w.is_addr = w.v4 = w.by_route = true;
	snprintf(w.iface, sizeof(w.iface), "eth0");
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.index, 5, "peer, IPv4, no source: eth0's lowest IPv4 RoCE v2 entry");
	w.has_src = true;
	gid_parse(V4B, w.src);
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.index, 8, "peer, IPv4: the entry of the route's source address");
	gid_parse(V4B, w.src);
	w.src[15] = 9;	/* a source with no entry: the usual order */
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.index, 5, "peer, IPv4, source without entry: lowest IPv4 v2");
	w.v4 = false;
	w.has_src = false;
	gid_choose(&h, &w, &c);
	TAP_OK(c.index == 3 && !(c.warn & GID_WARN_LINK_LOCAL_ADDR),
	       "peer, IPv6: the global IPv6 v2 entry, not link-local, not IPv4 (index %d, warn %#x)", c.index, c.warn);
	snprintf(w.iface, sizeof(w.iface), "eth0.100");
	gid_choose(&h, &w, &c);
	TAP_OK(c.npicks == 0 && c.index == -1, "peer, IPv6, by a netdev with IPv4 entries only: none (picks %zu)",
	       c.npicks);
	w.v4 = true;
	gid_choose(&h, &w, &c);
	ASSERT_EQ_INT(c.index, 6, "peer, IPv4, by the VLAN: the VLAN's entry");
	snprintf(w.iface, sizeof(w.iface), "eth7");
	gid_choose(&h, &w, &c);
	TAP_OK(c.npicks == 0, "peer by a netdev no table names: none (picks %zu)", c.npicks);
	snprintf(w.iface, sizeof(w.iface), "eth8");
	w.v4 = false;
	w.has_src = true;
	gid_parse("fe80:0000:0000:0000:5054:00ff:fe12:0002", w.src);
	ports[1].ngids = 0;
	add_gid(&ports[1], 0, "fe80:0000:0000:0000:5054:00ff:fe12:0002", GID_TYPE_ROCE_V2, "eth8", true);
	gid_choose(&h, &w, &c);
	TAP_OK(c.index == 0 && (c.warn & GID_WARN_LINK_LOCAL_ADDR) && !(c.warn & GID_WARN_LINK_LOCAL),
	       "peer reached by a link-local source: link-local warned (index %d, warn %#x)", c.index, c.warn);

	/* Input that is neither. */
	TAP_OK(!gid_want_parse("", &w, why, sizeof(why)), "empty rejected");
	ASSERT_CONTAINS(why, "neither", "the reason says what was expected");
	TAP_OK(!gid_want_parse("a/b", &w, why, sizeof(why)), "slash rejected");
	TAP_OK(!gid_want_parse("..", &w, why, sizeof(why)), "'..' rejected");
	TAP_OK(!gid_want_parse("abcdefghijklmnop", &w, why, sizeof(why)), "16 characters rejected (IFNAMSIZ)");
	TAP_OK(gid_want_parse("abcdefghijklmno", &w, why, sizeof(why)), "15 characters accepted");
	TAP_OK(!gid_want_parse("10.0.0.1:80", &w, why, sizeof(why)), "address with port rejected");
	ASSERT_EQ_STR(gid_choice_warn_key(GID_WARN_MAY_MOVE), "may_move", "warning key");
	ASSERT_EQ_STR(gid_choice_warn_key(GID_WARN_LINK_LOCAL_ADDR), "link_local", "link-local warning key");
	ASSERT_EQ_STR(gid_choice_warn_key(GID_WARN_TYPE_UNKNOWN), "type_unknown", "unknown type warning key");
	ASSERT_NULL(gid_choice_warn_str((enum gid_choice_warn)(1u << 30)), "unknown bit has no text");
	return tap_done();
}
