// SPDX-License-Identifier: GPL-2.0-or-later
/* Which GID index an application should use for an address or interface (doc/roce.md). */
#include "config.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "derive/gid_choice.h"
#include "util.h"

/* The kind of address a GID entry holds; the order is the preference for an interface. */
enum gid_kind {
	GID_KIND_V4 = 0,	/* ::ffff:a.b.c.d, from an IPv4 address */
	GID_KIND_V6_GLOBAL,	/* from an IPv6 address other than link-local */
	GID_KIND_LINK_LOCAL,	/* fe80::/10, from the MAC; always there */
};

static const struct {
	enum gid_choice_warn bit;
	const char *key;
	const char *text;
} warn_tab[] = {
	{ GID_WARN_INDEX_DIFFERS, "index_differs",
	  "the index differs between ports: one NCCL_IB_GID_INDEX/UCX_IB_GID_INDEX cannot fit them all; "
	  "give each job its port's index or make the GID tables alike" },
	{ GID_WARN_MAY_MOVE, "may_move",
	  "this entry exists because the IP address does: the kernel adds it when the address is added "
	  "and frees it when it goes, so re-adding addresses (DHCP, a VLAN recreated, a restart of the "
	  "network) can move it to another index; check again after such changes" },
	{ GID_WARN_NOT_IN_NS, "netdev_not_in_netns",
	  "its netdev is not in this network namespace: the address is not usable from here "
	  "(a container without the interface; give it the netdev, or use the host's namespace)" },
	{ GID_WARN_V1_ONLY, "roce_v1_only",
	  "only a RoCE v1 entry: v1 is a layer-2 protocol and does not cross an IP router; "
	  "RoCE v2 needs the port's RoCE v2 GIDs (is the driver forcing v1?)" },
	{ GID_WARN_LINK_LOCAL, "link_local_only",
	  "only the link-local (fe80::) entry: it reaches the same layer-2 segment only; "
	  "give the interface an IPv4 or IPv6 address for a routable RoCE v2 GID" },
	{ GID_WARN_SEVERAL_ADDRS, "several_addresses",
	  "the interface has several addresses of this kind: the lowest index is named; name the "
	  "address itself (--for ADDR) to be sure which one" },
	{ GID_WARN_LINK_LOCAL_ADDR, "link_local",
	  "this GID is IPv6 link-local (fe80::/10): it is not routed beyond one layer-2 segment, so "
	  "RoCE v2 with it reaches only peers on the same link, never across an IP router; use an "
	  "IPv4 or global IPv6 GID for those" },
	{ GID_WARN_TYPE_UNKNOWN, "type_unknown",
	  "the kernel gives no type for this entry (no gid_attrs/types: Linux before 4.5, where "
	  "RoCE GIDs are RoCE v1): check that both ends use the same RoCE version" },
};

const char *gid_choice_warn_str(enum gid_choice_warn bit)
{
	for (size_t i = 0; i < ARRAY_SIZE(warn_tab); i++)
		if (warn_tab[i].bit == bit)
			return warn_tab[i].text;
	return NULL;
}

const char *gid_choice_warn_key(enum gid_choice_warn bit)
{
	for (size_t i = 0; i < ARRAY_SIZE(warn_tab); i++)
		if (warn_tab[i].bit == bit)
			return warn_tab[i].key;
	return NULL;
}

bool gid_want_parse(const char *s, struct gid_want *w, char *why, size_t whylen)
{
	struct in_addr a4;
	size_t len = strlen(s);

	memset(w, 0, sizeof(*w));
	snprintf(w->text, sizeof(w->text), "%s", s);
	if (inet_pton(AF_INET, s, &a4) == 1) {
		w->is_addr = true;
		w->v4 = true;
		w->addr[10] = 0xff;
		w->addr[11] = 0xff;
		memcpy(&w->addr[12], &a4, 4);
		return true;
	}
	if (inet_pton(AF_INET6, s, w->addr) == 1) {
		w->is_addr = true;
		return true;
	}
	/* The kernel's rules for an interface name (dev_valid_name()). */
	if (!len || len >= FAB_IFNAMSIZ || !strcmp(s, ".") || !strcmp(s, "..") ||
	    strpbrk(s, "/: \t\n")) {
		snprintf(why, whylen, "'%s' is neither an IPv4/IPv6 address nor an interface name", s);
		return false;
	}
	snprintf(w->iface, sizeof(w->iface), "%s", s);
	return true;
}

bool gid_is_link_local(const uint8_t raw[16])
{
	/* the first 10 bits: fe80:: to febf:ffff:...; fec0:: (once site-local) is not */
	return raw[0] == 0xfe && (raw[1] & 0xc0) == 0x80;
}

static enum gid_kind gid_kind_of(const struct fab_gid *g)
{
	if (g->has_ipv4)
		return GID_KIND_V4;
	if (gid_is_link_local(g->raw))
		return GID_KIND_LINK_LOCAL;
	return GID_KIND_V6_GLOBAL;
}

/* RoCE v2 first; -1 for entries that are no RoCE GID at all. */
static int type_rank(enum fab_gid_type t)
{
	switch (t) {
	case GID_TYPE_ROCE_V2:
		return 0;
	case GID_TYPE_ROCE_V1:
		return 1;
	case GID_TYPE_UNKNOWN:
		return 2;	/* an Ethernet port of a kernel without types */
	default:
		return -1;
	}
}

/* The entry of the address the kernel sends a peer's packets from: rdma_cm binds to it too. */
static bool gid_is_src(const struct fab_gid *g, const struct gid_want *w)
{
	return w->by_route && w->has_src && !memcmp(g->raw, w->src, sizeof(g->raw));
}

static bool gid_matches(const struct fab_gid *g, const struct gid_want *w)
{
	/*
	 * A peer: the outgoing netdev's entries of the peer's family
	 * (IPv4-mapped or not). Kernels before 4.5 name no netdev: there the
	 * entry of the route's source address is the one on that netdev.
	 */
	if (w->by_route)
		return (!strcmp(g->netdev, w->iface) || (!g->netdev[0] && gid_is_src(g, w))) &&
		       g->has_ipv4 == w->v4;
	if (w->is_addr)
		return !memcmp(g->raw, w->addr, sizeof(g->raw));
	return !strcmp(g->netdev, w->iface);
}

/* a before b in preference: type, then (for a peer) the route's source, then kind, then index. */
static bool gid_better(const struct fab_gid *a, const struct fab_gid *b, const struct gid_want *w)
{
	int ta = type_rank(a->type), tb = type_rank(b->type);
	enum gid_kind ka = gid_kind_of(a), kb = gid_kind_of(b);
	bool sa = gid_is_src(a, w), sb = gid_is_src(b, w);

	if (ta != tb)
		return ta < tb;
	if (sa != sb)
		return sa;
	if (ka != kb)
		return ka < kb;
	return a->index < b->index;
}

bool gid_usable_here(const struct fab_gid *g)
{
	return type_rank(g->type) >= 0 && (!g->netdev[0] || g->netdev_in_ns);
}

const struct fab_gid *gid_best_here(const struct fab_port *p)
{
	/* no want: the order alone (type, then kind, then index) */
	static const struct gid_want any;
	const struct fab_gid *best = NULL;

	for (size_t g = 0; g < p->ngids; g++)
		if (gid_usable_here(&p->gids[g]) && (!best || gid_better(&p->gids[g], best, &any)))
			best = &p->gids[g];
	return best;
}

static const char *vlan_lower_of(const struct fab_port *p, const char *netdev)
{
	for (unsigned int i = 0; i < p->nnetdevs && i < FAB_MAX_NETDEVS; i++)
		if (!strcmp(p->netdevs[i].name, netdev) && p->netdevs[i].parent[0])
			return p->netdevs[i].parent;
	return NULL;
}

static bool port_has_netdev(const struct fab_port *p, const char *name)
{
	for (unsigned int i = 0; i < p->nnetdevs && i < FAB_MAX_NETDEVS; i++)
		if (!strcmp(p->netdevs[i].name, name))
			return true;
	return false;
}

/* The best entry of one port for w, NULL if none; *same: entries alike in type, kind and netdev. */
static const struct fab_gid *port_choose(const struct fab_port *p, const struct gid_want *w,
					 unsigned int *same)
{
	const struct fab_gid *best = NULL;

	*same = 0;
	for (size_t g = 0; g < p->ngids; g++) {
		const struct fab_gid *e = &p->gids[g];

		if (type_rank(e->type) < 0 || !gid_matches(e, w))
			continue;
		if (!best || gid_better(e, best, w))
			best = e;
	}
	for (size_t g = 0; best && g < p->ngids; g++) {
		const struct fab_gid *e = &p->gids[g];

		if (e->type == best->type && gid_kind_of(e) == gid_kind_of(best) &&
		    !strcmp(e->netdev, best->netdev))
			(*same)++;
	}
	return best;
}

void gid_choose(const struct fab_host *h, const struct gid_want *w, struct gid_choice *c)
{
	memset(c, 0, sizeof(*c));
	c->index = -1;
	for (size_t i = 0; i < h->ndevs; i++) {
		const struct fab_device *d = &h->devs[i];

		for (size_t k = 0; k < d->nports; k++) {
			const struct fab_port *p = &d->ports[k];
			const struct fab_gid *g;
			struct gid_pick *pk;
			unsigned int same;

			if (p->link_layer == LINK_LAYER_INFINIBAND) {
				/* IPoIB: the port GID (index 0) is what applications use. */
				if ((!w->is_addr || w->by_route) && !c->ib_port && port_has_netdev(p, w->iface)) {
					c->ib_dev = d;
					c->ib_port = p;
				}
				continue;
			}
			g = port_choose(p, w, &same);
			if (!g)
				continue;
			c->nmatched_ports++;
			if (c->npicks >= GID_CHOICE_MAX_PICKS)
				continue;
			pk = &c->picks[c->npicks++];
			pk->dev = d;
			pk->port = p;
			pk->gid = g;
			pk->vlan_lower = vlan_lower_of(p, g->netdev);
			pk->same_kind = same;
		}
	}
	for (size_t i = 0; i < c->npicks; i++) {
		const struct gid_pick *pk = &c->picks[i];
		enum gid_kind kind = gid_kind_of(pk->gid);

		if (pk->gid->index != c->picks[0].gid->index)
			c->warn |= GID_WARN_INDEX_DIFFERS;
		if (kind != GID_KIND_LINK_LOCAL)
			c->warn |= GID_WARN_MAY_MOVE;
		else if (!w->is_addr)
			c->warn |= GID_WARN_LINK_LOCAL;
		else
			c->warn |= GID_WARN_LINK_LOCAL_ADDR;
		if (pk->gid->type == GID_TYPE_UNKNOWN)
			c->warn |= GID_WARN_TYPE_UNKNOWN;
		if (pk->gid->netdev[0] && !pk->gid->netdev_in_ns)
			c->warn |= GID_WARN_NOT_IN_NS;
		if (pk->gid->type == GID_TYPE_ROCE_V1)
			c->warn |= GID_WARN_V1_ONLY;
		if (!w->is_addr && pk->same_kind > 1)
			c->warn |= GID_WARN_SEVERAL_ADDRS;
	}
	if (c->npicks && !(c->warn & GID_WARN_INDEX_DIFFERS))
		c->index = (int)c->picks[0].gid->index;
}
