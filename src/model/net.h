/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host's IP side as plain structs: links, addresses, routes of all tables, rules, neighbours, sysctls. */
#ifndef FABTOP_MODEL_NET_H
#define FABTOP_MODEL_NET_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Everything here is plain data (no fds, no pointers into kernel buffers),
 * so a simulated host can fill a struct net_state by hand. Arrays are
 * malloc'd by netlink_collect() and released by net_state_free(); a hand-made
 * state with static arrays must simply not be passed to net_state_free().
 *
 * Addresses are raw bytes in network order: 4 used for AF_INET, 16 for
 * AF_INET6. Interfaces are referred to by ifindex; net_link_by_index()
 * turns one into a link.
 */

#define NET_HWADDR_MAX	32	/* IPoIB hardware addresses are 20 bytes */
#define NET_KIND_LEN	16

/* An IPv4 or IPv6 address; family 0 means "none". */
struct net_ip {
	uint8_t family;			/* AF_INET, AF_INET6 or 0 */
	uint8_t bytes[16];
};

/* IPoIB mode from IFLA_IPOIB_MODE (or sysfs "mode"). */
enum net_ipoib_mode {
	NET_IPOIB_NONE = 0,		/* not IPoIB, or unknown */
	NET_IPOIB_DATAGRAM,
	NET_IPOIB_CONNECTED,
};

struct net_link {
	int ifindex;
	char name[IFNAMSIZ];
	char kind[NET_KIND_LEN];	/* IFLA_INFO_KIND: "veth", "bridge", "ipoib", "vlan", "" */
	uint16_t type;			/* ARPHRD_ETHER, ARPHRD_INFINIBAND, ... */
	uint32_t flags;			/* IFF_UP, IFF_LOWER_UP, ... */
	uint8_t operstate;		/* IF_OPER_UP, ... (RFC 2863) */
	uint32_t mtu;			/* 0 when unknown */
	int master;			/* ifindex of the bridge/bond, 0 if none */
	int link;			/* IFLA_LINK: lower device (VLAN parent, veth peer), 0 if none */
	uint8_t hwaddr[NET_HWADDR_MAX];
	uint8_t hwaddr_len;
	enum net_ipoib_mode ipoib_mode;
	int32_t ipoib_pkey;		/* -1 when unknown */
	bool rdma;			/* a netdev of an RDMA port (see net_mark_rdma()) */
};

struct net_addr {
	int ifindex;
	uint8_t prefixlen;
	uint8_t scope;			/* RT_SCOPE_* */
	uint32_t flags;			/* IFA_F_* */
	struct net_ip local;		/* the interface's own address (IFA_LOCAL, else IFA_ADDRESS) */
	struct net_ip peer;		/* IFA_ADDRESS when it differs (point-to-point), else family 0 */
	char label[IFNAMSIZ];		/* IFA_LABEL, "" if none */
};

/* The size of net_route.metrics: RTAX_FASTOPEN_NO_COOKIE (17) is the last one in Linux 6.x. */
#define NET_RTAX_N 18
/* net_route.inexact: attributes a saved route had that its printed command does not carry. */
enum {
	NET_ROUTE_MULTIPATH = 1 << 0,	/* RTA_MULTIPATH */
	NET_ROUTE_ENCAP = 1 << 1,	/* RTA_ENCAP (lightweight tunnels) */
	NET_ROUTE_VIA = 1 << 2,		/* RTA_VIA, RTA_NEWDST (MPLS, IPv6 next hop of an IPv4 route) */
	NET_ROUTE_EXPIRES = 1 << 3,	/* an expiry in RTA_CACHEINFO */
	NET_ROUTE_METRIC = 1 << 4,	/* a metric unknown here, or features other than ecn */
	NET_ROUTE_DEV = 1 << 5,		/* its device is gone from the state it is printed with */
};

struct net_route {
	uint32_t table;			/* RTA_TABLE, else rtm_table: 254 main, 255 local */
	uint8_t family;
	uint8_t dst_len;
	uint8_t src_len;
	uint8_t tos;
	uint8_t type;			/* RTN_UNICAST, RTN_LOCAL, RTN_BROADCAST, ... */
	uint8_t protocol;		/* RTPROT_KERNEL, RTPROT_BOOT, RTPROT_STATIC, ... */
	uint8_t scope;			/* RT_SCOPE_LINK, RT_SCOPE_UNIVERSE, ... */
	struct net_ip dst;		/* family 0: the default route (dst_len 0) */
	struct net_ip src;		/* RTA_SRC (source-specific IPv6 routes) */
	struct net_ip prefsrc;		/* RTA_PREFSRC: the "src" of `ip route` */
	struct net_ip gateway;
	int oif;			/* 0 if none (multipath, blackhole) */
	bool has_priority;
	uint32_t priority;		/* the metric */
	/* The rest is what `ip route` can set besides, kept so a saved route prints whole (fix_route_restore_cmd()). */
	uint32_t flags;			/* rtm_flags: RTNH_F_ONLINK is "onlink" */
	uint32_t metrics_set;		/* bit n: RTAX n came in RTA_METRICS */
	uint32_t metrics[NET_RTAX_N];	/* by RTAX_*, as the kernel keeps them (RTAX_LOCK: the locked ones) */
	char congctl[16];		/* RTAX_CC_ALGO */
	bool has_pref;
	uint8_t pref;			/* RTA_PREF: IPv6 router preference */
	bool has_realms;
	uint32_t realms;		/* RTA_FLOW */
	uint32_t nhid;			/* RTA_NH_ID: a nexthop object, 0 if none */
	uint32_t inexact;		/* NET_ROUTE_* bits: what a command cannot give back */
};

struct net_rule {
	uint8_t family;
	uint8_t action;			/* FR_ACT_TO_TBL (1), FR_ACT_GOTO, ... */
	uint8_t src_len;
	uint8_t dst_len;
	uint8_t tos;
	uint32_t table;			/* FRA_TABLE, else the header's */
	bool has_priority;
	uint32_t priority;
	struct net_ip src;		/* "from" (family 0: all) */
	struct net_ip dst;		/* "to" */
	bool has_fwmark;
	uint32_t fwmark, fwmask;
	char iifname[IFNAMSIZ];		/* "" when any */
	char oifname[IFNAMSIZ];
	bool invert;			/* FIB_RULE_INVERT: "not" */
};

struct net_neigh {
	int ifindex;
	uint8_t family;
	uint16_t state;			/* NUD_REACHABLE, NUD_STALE, NUD_PERMANENT, ... */
	struct net_ip dst;
	uint8_t lladdr[NET_HWADDR_MAX];
	uint8_t lladdr_len;
};

/* The IPv4 per-interface settings that decide ARP and reverse-path behaviour. */
enum net_sysctl_id {
	NET_SYSCTL_RP_FILTER = 0,
	NET_SYSCTL_ARP_IGNORE,
	NET_SYSCTL_ARP_ANNOUNCE,
	NET_SYSCTL_ARP_FILTER,
	NET_SYSCTL_ACCEPT_LOCAL,
	NET_SYSCTL_COUNT
};

struct net_opt_int {
	bool known;
	int value;
};

/*
 * One setting of one interface as the kernel applies it: conf/all and
 * conf/IFACE combine by max or by or (see net_sysctl_combine()); conf/default
 * is only what new interfaces start with, shown for context.
 */
struct net_sysctl_val {
	struct net_opt_int all, dflt, iface, effective;
};

struct net_if_sysctls {
	char ifname[IFNAMSIZ];
	struct net_sysctl_val v[NET_SYSCTL_COUNT];
};

struct net_state {
	struct net_link *links;
	size_t nlinks;
	struct net_addr *addrs;
	size_t naddrs;
	struct net_route *routes;	/* every table, in the kernel's dump order */
	size_t nroutes;
	struct net_rule *rules;		/* in priority order, as dumped */
	size_t nrules;
	struct net_neigh *neighs;
	size_t nneighs;
	struct net_if_sysctls *sysctls;	/* one per link that has conf/IFACE */
	size_t nsysctls;
	/*
	 * true when filled from this host's kernel (netlink_collect()): route
	 * decisions may then be asked of the kernel itself; false for a
	 * replayed or simulated state, where they are computed from the model.
	 */
	bool live;
};

/* Names as the kernel's tools print them. */
const char *net_sysctl_name(enum net_sysctl_id id);	/* "rp_filter", ... */
const char *net_ipoib_mode_str(enum net_ipoib_mode m);	/* "datagram", "connected", "" */
const char *net_operstate_str(uint8_t operstate);	/* "UP", "DOWN", "UNKNOWN", ... */
const char *net_table_str(uint32_t table, char *buf, size_t size);	/* "main", "local", "942" */
const char *net_rtn_type_str(uint8_t type);		/* "unicast", "local", ... */
const char *net_rtprot_str(uint8_t proto, char *buf, size_t size);	/* "kernel", "static", "42" */
const char *net_scope_str(uint8_t scope, char *buf, size_t size);	/* "link", "host", "global" */
const char *net_nud_str(uint16_t state);		/* "REACHABLE", ... */

/* "172.16.34.2" or "fe80::1"; "" for family 0. Returns buf. */
const char *net_ip_str(const struct net_ip *ip, char *buf, size_t size);
/* Parse a literal IPv4/IPv6 address; 0 or -EINVAL. */
int net_ip_parse(const char *s, struct net_ip *out);
bool net_ip_eq(const struct net_ip *a, const struct net_ip *b);
/* Does a's first len bits equal b's (same family)? len 0 matches everything. */
bool net_ip_prefix_eq(const struct net_ip *a, const struct net_ip *b, unsigned int len);
/* addr with the host bits cleared. */
struct net_ip net_ip_network(const struct net_ip *addr, unsigned int len);

/* The effective value from all/iface as the kernel combines them (max or or). */
struct net_opt_int net_sysctl_combine(enum net_sysctl_id id, struct net_opt_int all,
				      struct net_opt_int iface);

struct net_link *net_link_by_index(const struct net_state *st, int ifindex);
/*
 * Is l a VRF device or enslaved to one? A VRF is a routing domain of its own
 * (its table, reached by the l3mdev rule): the doctor's same-subnet reasoning
 * is about the main routing domain and leaves such links out (doc/lab.md).
 */
bool net_link_in_vrf(const struct net_state *st, const struct net_link *l);
struct net_link *net_link_by_name(const struct net_state *st, const char *name);
/* The sysctls of an interface, NULL if not collected. */
const struct net_if_sysctls *net_sysctls_of(const struct net_state *st, const char *ifname);
/* The address entry holding ip, NULL if ip is not local. */
const struct net_addr *net_addr_find(const struct net_state *st, const struct net_ip *ip);

/*
 * Mark the links that are netdevs of RDMA ports (fab_port.netdevs and the
 * netdevs GIDs name) as rdma. Returns how many links are marked.
 */
struct fab_host;
size_t net_mark_rdma(struct net_state *st, const struct fab_host *h);
/* Mark one link by name; false if no such link here. */
bool net_mark_rdma_name(struct net_state *st, const char *name);
/* How many links are marked rdma. */
size_t net_count_rdma(const struct net_state *st);

void net_state_free(struct net_state *st);

#endif
