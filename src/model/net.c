// SPDX-License-Identifier: GPL-2.0-or-later
/* Names, address helpers, lookups and the destructor of the network model. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <linux/if.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fabric.h"
#include "model/net.h"
#include "util.h"


static const char *const sysctl_names[] = {
	[NET_SYSCTL_RP_FILTER] = "rp_filter",
	[NET_SYSCTL_ARP_IGNORE] = "arp_ignore",
	[NET_SYSCTL_ARP_ANNOUNCE] = "arp_announce",
	[NET_SYSCTL_ARP_FILTER] = "arp_filter",
	[NET_SYSCTL_ACCEPT_LOCAL] = "accept_local",
};

const char *net_sysctl_name(enum net_sysctl_id id)
{
	return util_name(sysctl_names, ARRAY_SIZE(sysctl_names), id, "?");
}

/*
 * include/linux/inetdevice.h: rp_filter, arp_ignore and arp_announce use
 * IN_DEV_MAXCONF (the larger of all and the interface wins), arp_filter and
 * accept_local use IN_DEV_ORCONF (either one set is enough).
 */
static const bool sysctl_is_max[] = {
	[NET_SYSCTL_RP_FILTER] = true,
	[NET_SYSCTL_ARP_IGNORE] = true,
	[NET_SYSCTL_ARP_ANNOUNCE] = true,
	[NET_SYSCTL_ARP_FILTER] = false,
	[NET_SYSCTL_ACCEPT_LOCAL] = false,
};

struct net_opt_int net_sysctl_combine(enum net_sysctl_id id, struct net_opt_int all,
				      struct net_opt_int iface)
{
	struct net_opt_int r = { 0 };

	if (!all.known || !iface.known || (unsigned int)id >= ARRAY_SIZE(sysctl_is_max))
		return r;
	r.known = true;
	if (sysctl_is_max[id])
		r.value = all.value > iface.value ? all.value : iface.value;
	else
		r.value = all.value || iface.value;
	return r;
}

static const char *const ipoib_mode_names[] = {
	[NET_IPOIB_NONE] = "",
	[NET_IPOIB_DATAGRAM] = "datagram",
	[NET_IPOIB_CONNECTED] = "connected",
};

const char *net_ipoib_mode_str(enum net_ipoib_mode m)
{
	return util_name(ipoib_mode_names, ARRAY_SIZE(ipoib_mode_names), m, "");
}

/* RFC 2863 operational states, as `ip link` prints them. */
static const char *const operstate_names[] = {
	[IF_OPER_UNKNOWN] = "UNKNOWN",
	[IF_OPER_NOTPRESENT] = "NOTPRESENT",
	[IF_OPER_DOWN] = "DOWN",
	[IF_OPER_LOWERLAYERDOWN] = "LOWERLAYERDOWN",
	[IF_OPER_TESTING] = "TESTING",
	[IF_OPER_DORMANT] = "DORMANT",
	[IF_OPER_UP] = "UP",
};

const char *net_operstate_str(uint8_t operstate)
{
	return util_name(operstate_names, ARRAY_SIZE(operstate_names), operstate, "UNKNOWN");
}

const char *net_table_str(uint32_t table, char *buf, size_t size)
{
	switch (table) {
	case RT_TABLE_MAIN: return "main";
	case RT_TABLE_LOCAL: return "local";
	case RT_TABLE_DEFAULT: return "default";
	default: snprintf(buf, size, "%u", table); return buf;
	}
}

static const char *const rtn_type_names[] = {
	[RTN_UNSPEC] = "none",
	[RTN_UNICAST] = "unicast",
	[RTN_LOCAL] = "local",
	[RTN_BROADCAST] = "broadcast",
	[RTN_ANYCAST] = "anycast",
	[RTN_MULTICAST] = "multicast",
	[RTN_BLACKHOLE] = "blackhole",
	[RTN_UNREACHABLE] = "unreachable",
	[RTN_PROHIBIT] = "prohibit",
	[RTN_THROW] = "throw",
	[RTN_NAT] = "nat",
	[RTN_XRESOLVE] = "xresolve",
};

const char *net_rtn_type_str(uint8_t type)
{
	return util_name(rtn_type_names, ARRAY_SIZE(rtn_type_names), type, "?");
}

/* /etc/iproute2/rt_protos, the well-known part. */
static const char *const rtprot_names[] = {
	[RTPROT_UNSPEC] = "unspec",
	[RTPROT_REDIRECT] = "redirect",
	[RTPROT_KERNEL] = "kernel",
	[RTPROT_BOOT] = "boot",
	[RTPROT_STATIC] = "static",
	[RTPROT_RA] = "ra",
	[RTPROT_DHCP] = "dhcp",
};

const char *net_rtprot_str(uint8_t proto, char *buf, size_t size)
{
	const char *s = util_name(rtprot_names, ARRAY_SIZE(rtprot_names), proto, NULL);

	if (s)
		return s;
	snprintf(buf, size, "%u", proto);
	return buf;
}

const char *net_scope_str(uint8_t scope, char *buf, size_t size)
{
	switch (scope) {
	case RT_SCOPE_UNIVERSE: return "global";
	case RT_SCOPE_SITE: return "site";
	case RT_SCOPE_LINK: return "link";
	case RT_SCOPE_HOST: return "host";
	case RT_SCOPE_NOWHERE: return "nowhere";
	default: snprintf(buf, size, "%u", scope); return buf;
	}
}

static const struct {
	uint16_t bit;
	const char *name;
} nud_names[] = {
	{ NUD_INCOMPLETE, "INCOMPLETE" }, { NUD_REACHABLE, "REACHABLE" },
	{ NUD_STALE, "STALE" }, { NUD_DELAY, "DELAY" }, { NUD_PROBE, "PROBE" },
	{ NUD_FAILED, "FAILED" }, { NUD_NOARP, "NOARP" }, { NUD_PERMANENT, "PERMANENT" },
};

const char *net_nud_str(uint16_t state)
{
	for (size_t i = 0; i < ARRAY_SIZE(nud_names); i++)
		if (state & nud_names[i].bit)
			return nud_names[i].name;
	return "NONE";
}

static size_t ip_len(uint8_t family)
{
	return family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
}

const char *net_ip_str(const struct net_ip *ip, char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	if (!ip_len(ip->family) || !inet_ntop(ip->family, ip->bytes, buf, (socklen_t)size)) {
		if (size)
			buf[0] = '\0';
	}
	return buf;
}

int net_ip_parse(const char *s, struct net_ip *out)
{
	memset(out, 0, sizeof(*out));
	if (!s)
		return -EINVAL;
	if (inet_pton(AF_INET, s, out->bytes) == 1) {
		out->family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, out->bytes) == 1) {
		out->family = AF_INET6;
		return 0;
	}
	memset(out, 0, sizeof(*out));
	return -EINVAL;
}

bool net_ip_eq(const struct net_ip *a, const struct net_ip *b)
{
	size_t n = ip_len(a->family);

	return a->family == b->family && !memcmp(a->bytes, b->bytes, n);
}

bool net_ip_prefix_eq(const struct net_ip *a, const struct net_ip *b, unsigned int len)
{
	size_t n = ip_len(a->family);
	unsigned int full, rem;

	if (a->family != b->family || len > n * 8)
		return false;
	full = len / 8;
	rem = len % 8;
	if (memcmp(a->bytes, b->bytes, full))
		return false;
	if (rem) {
		uint8_t mask = (uint8_t)(0xff << (8 - rem));

		if ((a->bytes[full] & mask) != (b->bytes[full] & mask))
			return false;
	}
	return true;
}

struct net_ip net_ip_network(const struct net_ip *addr, unsigned int len)
{
	struct net_ip r = *addr;
	size_t n = ip_len(addr->family);

	for (size_t i = 0; i < n; i++) {
		if (len >= 8) {
			len -= 8;
			continue;
		}
		r.bytes[i] &= (uint8_t)(0xff << (8 - len));
		len = 0;
	}
	return r;
}

struct net_link *net_link_by_index(const struct net_state *st, int ifindex)
{
	for (size_t i = 0; i < st->nlinks; i++)
		if (st->links[i].ifindex == ifindex)
			return &st->links[i];
	return NULL;
}

bool net_link_in_vrf(const struct net_state *st, const struct net_link *l)
{
	const struct net_link *m;

	if (!strcmp(l->kind, "vrf"))
		return true;
	m = l->master ? net_link_by_index(st, l->master) : NULL;
	return m && !strcmp(m->kind, "vrf");
}

struct net_link *net_link_by_name(const struct net_state *st, const char *name)
{
	if (!name || !name[0])
		return NULL;
	for (size_t i = 0; i < st->nlinks; i++)
		if (!strcmp(st->links[i].name, name))
			return &st->links[i];
	return NULL;
}

const struct net_if_sysctls *net_sysctls_of(const struct net_state *st, const char *ifname)
{
	for (size_t i = 0; i < st->nsysctls; i++)
		if (!strcmp(st->sysctls[i].ifname, ifname))
			return &st->sysctls[i];
	return NULL;
}

const struct net_addr *net_addr_find(const struct net_state *st, const struct net_ip *ip)
{
	for (size_t i = 0; i < st->naddrs; i++)
		if (net_ip_eq(&st->addrs[i].local, ip))
			return &st->addrs[i];
	return NULL;
}

bool net_mark_rdma_name(struct net_state *st, const char *name)
{
	struct net_link *l = net_link_by_name(st, name);

	if (!l)
		return false;
	l->rdma = true;
	return true;
}

size_t net_mark_rdma(struct net_state *st, const struct fab_host *h)
{
	for (size_t d = 0; d < h->ndevs; d++)
		for (size_t p = 0; p < h->devs[d].nports; p++) {
			const struct fab_port *port = &h->devs[d].ports[p];

			for (unsigned int k = 0; k < port->nnetdevs; k++)
				net_mark_rdma_name(st, port->netdevs[k].name);
			for (size_t k = 0; k < port->ngids; k++)
				net_mark_rdma_name(st, port->gids[k].netdev);
		}
	return net_count_rdma(st);
}

size_t net_count_rdma(const struct net_state *st)
{
	size_t n = 0;

	for (size_t i = 0; i < st->nlinks; i++)
		n += st->links[i].rdma;
	return n;
}

void net_state_free(struct net_state *st)
{
	free(st->links);
	free(st->addrs);
	free(st->routes);
	free(st->rules);
	free(st->neighs);
	free(st->sysctls);
	memset(st, 0, sizeof(*st));
}
