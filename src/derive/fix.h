/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fix generation: per-interface tables + `ip rule from ADDR`, and sysctls, in seven output formats. */
#ifndef FABTOP_DERIVE_FIX_H
#define FABTOP_DERIVE_FIX_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/net.h"

enum fix_format {
	FIX_IP = 0,			/* runtime `ip`/`sysctl` commands (doctor finding 1) */
	FIX_NETWORKD_DISPATCHER,	/* /etc/networkd-dispatcher/routable.d script (netplan hosts) */
	FIX_NM_DISPATCHER,		/* /etc/NetworkManager/dispatcher.d script */
	FIX_IFUPDOWN,			/* /etc/network/if-up.d script */
	FIX_NETPLAN,			/* routing-policy YAML */
	FIX_NMCLI,			/* `nmcli connection modify` per interface's connection, a sysctl.d file */
	FIX_NM_KEYFILE,			/* [ipv4]/[ipv6] route and routing-rule entries of NetworkManager keyfiles */
	FIX_FORMAT_COUNT
};

/*
 * What keeps a host's network configuration, and so the format its fix
 * persists in (collect/netconf.h finds it; FIX_HOST_UNKNOWN names them all).
 */
enum fix_host {
	FIX_HOST_UNKNOWN = 0,
	FIX_HOST_NETWORKMANAGER,	/* NetworkManager runs: nmcli */
	FIX_HOST_NETPLAN,		/* netplan YAML in /etc/netplan: netplan */
	FIX_HOST_IFUPDOWN,		/* /etc/network/interfaces configures an interface: ifupdown */
	FIX_HOST_NETWORKD,		/* systemd-networkd runs without netplan: networkd-dispatcher */
};

/* Keyfile entries are numbered from here: appended to a connection, they replace none it has. */
#define FIX_KEYFILE_FIRST	1000
/* Where the ARP sysctls persist for the formats that have no keys for them. */
#define FIX_SYSCTL_D		"/etc/sysctl.d/90-fabtop-rdma.conf"

/* Rules fabtop writes sit at this priority: before main (32766), after local (0). */
#define FIX_RULE_PRIORITY	1000
/* Per-interface tables are chosen in [FIX_TABLE_BASE, FIX_TABLE_BASE + FIX_TABLE_SPAN). */
#define FIX_TABLE_BASE		1000
#define FIX_TABLE_SPAN		9000

/* One interface's share: its subnet routed through its own table. */
struct fix_route {
	char ifname[IFNAMSIZ];
	struct net_ip addr;		/* the interface's address K */
	uint8_t prefixlen;
	struct net_ip subnet;		/* K's network */
	uint32_t table;			/* stable per interface (fix_table_for()) */
	uint32_t priority;
	bool route_ok;			/* table already routes the subnet by ifname */
	bool rule_ok;			/* "from K lookup table" already present */
};

struct fix_sysctl {
	char ifname[IFNAMSIZ];
	enum net_sysctl_id id;
	int value;			/* the value to set */
	struct net_opt_int old;		/* the interface value now */
	bool ok;			/* the effective value is already at least value */
};

struct fix_plan {
	struct fix_route *routes;
	size_t nroutes;
	struct fix_sysctl *sysctls;
	size_t nsysctls;
};

/*
 * Build the plan from the state: every IPv4 address of an rdma link whose
 * subnet is shared with another rdma link gets a table and a rule (kept
 * even when present, marked *_ok, so persistent scripts stay complete);
 * arp_ignore=1, arp_announce=2 on those links where lower, rp_filter=2
 * where strict. Returns 0 (an empty plan when nothing is shared) or -ENOMEM.
 */
int fix_plan_build(const struct net_state *st, struct fix_plan *plan);
void fix_plan_free(struct fix_plan *plan);
/* Does the plan change anything on this host right now? */
bool fix_plan_needed(const struct fix_plan *plan);

/*
 * The table for ifname: an existing "from ADDR lookup T" rule's T when the
 * state has one for this interface's address, else a hash of the name in
 * [FIX_TABLE_BASE, +SPAN), stepped past tables in use by other interfaces.
 */
uint32_t fix_table_for(const struct net_state *st, const char *ifname, const struct net_ip *addr);

int fix_format_parse(const char *s, enum fix_format *out);
const char *fix_format_name(enum fix_format f);
/* Where the output goes on a host ("" for ip and nmcli). */
const char *fix_format_path(enum fix_format f);

/* The persistent format that fits host (FIX_IP when unknown). */
enum fix_format fix_host_format(enum fix_host host);
/* Why: "NetworkManager runs here" ("" when unknown). */
const char *fix_host_str(enum fix_host host);
/*
 * "to keep it across reboots (WHY): fabtop doctor --fix FORMAT", or every
 * persistent format when host is unknown, into buf. Returns buf.
 */
const char *fix_persist_hint(char *buf, size_t size, enum fix_host host);

/*
 * Is ifname safe to put in a script or YAML? Interface names may hold any
 * byte but '/', ':' and whitespace; fabtop also refuses control bytes and
 * non-ASCII, and quotes everything else. Returns true when acceptable.
 */
bool fix_ifname_ok(const char *ifname);

/* ifname quoted for sh when it needs quoting ('it'\''s'), else as is. Returns buf. */
const char *fix_sh_quote(const char *s, char *buf, size_t size);
/* "ip route VERB DST dev IFACE ... table T" for r, the interface shell-quoted, into buf. */
void fix_route_cmd(char *buf, size_t size, const char *verb, const struct net_route *r, const struct net_state *st);

/*
 * The `ip route VERB ...` that gives a saved route back with every
 * attribute it carries that `ip route` can set: type, tos, source prefix,
 * next-hop object, gateway, device, onlink, table, metric, protocol,
 * scope, preferred source, realms, each RTA_METRICS value (locked ones
 * with "lock", rtt/rttvar/rto_min in the kernel's own units), IPv6
 * preference. Returns the NET_ROUTE_* bits of what it could not say (0:
 * exact); the caller labels such a line as approximate.
 */
uint32_t fix_route_restore_cmd(char *buf, size_t size, const char *verb, const struct net_route *r,
			       const struct net_state *st);
/* "sysctl -w net.ipv4.conf.IFACE.NAME=VALUE", shell-quoted, into buf. */
void fix_sysctl_cmd(char *buf, size_t size, const char *ifname, enum net_sysctl_id id, int value);

/*
 * Write the plan as format to f: idempotent commands/scripts (safe to run
 * twice, safe at every interface up). Returns 0, or -EINVAL when an
 * interface name is refused (nothing is written then).
 */
int fix_write(FILE *f, enum fix_format format, const struct fix_plan *plan);

#endif
