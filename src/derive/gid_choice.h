/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which GID index an application should use for an address or interface (doc/roce.md). */
#ifndef FABTOP_DERIVE_GID_CHOICE_H
#define FABTOP_DERIVE_GID_CHOICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/fabric.h"

/* What the user asked for: an IPv4/IPv6 address, or an interface name. */
struct gid_want {
	bool is_addr;
	bool v4;			/* is_addr: an IPv4 address (addr is ::ffff:a.b.c.d) */
	uint8_t addr[16];		/* is_addr: the GID an address becomes */
	char text[64];			/* as given, for messages */
	char iface[FAB_IFNAMSIZ];	/* !is_addr; by_route: the interface the route leaves by */
	/*
	 * addr is a peer's, not ours (derive/gid_route.h): the entries wanted
	 * are iface's of addr's family, the route's source address first.
	 */
	bool by_route;
	bool has_src;
	uint8_t src[16];		/* by_route: the route's source address as a GID */
};

/* Conditions worth a warning; bits of gid_choice.warn. */
enum gid_choice_warn {
	GID_WARN_INDEX_DIFFERS = 1u << 0,	/* ports that match disagree on the index */
	GID_WARN_MAY_MOVE = 1u << 1,		/* the entry exists because an IP address does */
	GID_WARN_NOT_IN_NS = 1u << 2,		/* its netdev is in another network namespace */
	GID_WARN_V1_ONLY = 1u << 3,		/* no RoCE v2 entry: v1 does not cross an IP router */
	GID_WARN_LINK_LOCAL = 1u << 4,		/* only the fe80:: entry: not routable */
	GID_WARN_SEVERAL_ADDRS = 1u << 5,	/* the interface has several addresses of the kind chosen */
	GID_WARN_LINK_LOCAL_ADDR = 1u << 6,	/* an fe80::/10 entry asked by address or route: one L2 segment */
	GID_WARN_TYPE_UNKNOWN = 1u << 7,	/* no gid_attrs/types: v1 and v2 cannot be told apart */
};

#define GID_CHOICE_MAX_PICKS	16

/* The entry chosen on one port. */
struct gid_pick {
	const struct fab_device *dev;
	const struct fab_port *port;
	const struct fab_gid *gid;
	const char *vlan_lower;		/* the GID's netdev is a VLAN on this device, else NULL */
	unsigned int same_kind;		/* entries of the chosen kind and type on that netdev */
};

struct gid_choice {
	struct gid_pick picks[GID_CHOICE_MAX_PICKS];
	size_t npicks;
	size_t nmatched_ports;		/* ports with a match, picks beyond the array included */
	int index;			/* the index to use; -1 when none or when ports disagree */
	unsigned int warn;		/* enum gid_choice_warn bits */
	/* Nothing matched: the InfiniBand port whose netdev (IPoIB) was named, if any. */
	const struct fab_device *ib_dev;
	const struct fab_port *ib_port;
};

/* "10.0.0.1", "2001:db8::1" or an interface name; false with why filled when neither. */
bool gid_want_parse(const char *s, struct gid_want *w, char *why, size_t whylen);

/*
 * The GID entry an application should use on each port that has one for
 * w: RoCE v2 before v1; for a peer (by_route), the route's source address
 * next; for an interface, its IPv4-mapped entry, else a global IPv6 one,
 * else the link-local one; the lowest index among equals.
 * Pure: reads h only. The picks point into h.
 */
void gid_choose(const struct fab_host *h, const struct gid_want *w, struct gid_choice *c);

/*
 * An entry an application in this network namespace can use: a RoCE
 * entry (v1, v2, or untyped) whose netdev is here, or that names none
 * (kernels before 4.5 have no gid_attrs/ndevs: it cannot be told).
 */
bool gid_usable_here(const struct fab_gid *g);
/* The entry of p to pin from here, in gid_choose()'s order for an interface; NULL when none is usable. */
const struct fab_gid *gid_best_here(const struct fab_port *p);

/* An IPv6 link-local GID (fe80::/10): not routed beyond one layer-2 segment. */
bool gid_is_link_local(const uint8_t raw[16]);

/* One line for a warning bit (NULL for a bit that is not one). */
const char *gid_choice_warn_str(enum gid_choice_warn bit);
/* A short name for the bit, for JSON ("index_differs"). */
const char *gid_choice_warn_key(enum gid_choice_warn bit);

#endif
