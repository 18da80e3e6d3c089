// SPDX-License-Identifier: GPL-2.0-or-later
/* The demo host's IP side: memserver34 of doc/demo.md, same-subnet mistake included. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo/demo.h"
#include "demo/demo_int.h"
#include "demo/demo_scenario.h"
#include "derive/fix.h"
#include "model/net.h"
#include "util.h"

/* After net/if.h (via model/net.h): linux/libc-compat.h then keeps the two apart. */
#include <linux/fib_rules.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <net/if_arp.h>


/*
 * The host of doc/demo.md (memserver34, Ubuntu 18.04 with netplan): ib0 and
 * ib1 both in 172.16.0.0/16, so the kernel put two routes for the subnet in
 * main and no rule sends 172.16.34.2 to a table of its own. Ubuntu 18.04's
 * sysctl.d sets rp_filter=1 (all and default); ARP settings are the
 * kernel's defaults. Around it: the management NIC, the RoCE NIC with a
 * VLAN and the iWARP NIC of the demo's RDMA devices.
 */
struct demo_link_spec {
	int ifindex;
	const char *name;
	const char *kind;
	uint16_t type;
	uint32_t mtu;
	int link;			/* lower device of a VLAN */
	const char *hwaddr;		/* "aa:bb:..." */
	enum net_ipoib_mode ipoib;
	int32_t pkey;
	const char *v4;			/* "a.b.c.d/len", NULL if none */
	const char *v6ll;		/* link-local, NULL if none */
};

static const struct demo_link_spec demo_links[] = {
	{ 1, "lo", "", ARPHRD_LOOPBACK, 65536, 0, "00:00:00:00:00:00", NET_IPOIB_NONE, -1,
	  "127.0.0.1/8", NULL },
	{ 2, "enp49s0f1", "", ARPHRD_ETHER, 1500, 0, "0c:c4:7a:9e:51:d3", NET_IPOIB_NONE, -1,
	  "10.208.130.34/24", "fe80::ec4:7aff:fe9e:51d3" },
	{ 3, "ib0", "ipoib", ARPHRD_INFINIBAND, 2044, 0,
	  "00:00:10:49:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:65:4a:20", NET_IPOIB_DATAGRAM, 0xffff,
	  "172.16.34.1/16", "fe80::e42:a103:65:4a20" },
	{ 4, "ib1", "ipoib", ARPHRD_INFINIBAND, 2044, 0,
	  "00:00:10:89:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:65:4a:21", NET_IPOIB_DATAGRAM, 0xffff,
	  "172.16.34.2/16", "fe80::e42:a103:65:4a21" },
	{ 5, "enp65s0f0", "", ARPHRD_ETHER, 9000, 0, "0c:42:a1:5e:3b:70", NET_IPOIB_NONE, -1,
	  "10.20.0.1/24", "fe80::e42:a1ff:fe5e:3b70" },
	{ 6, "enp3s0f4", "", ARPHRD_ETHER, 9000, 0, "00:07:43:a1:b2:c0", NET_IPOIB_NONE, -1,
	  "10.30.0.1/24", "fe80::207:43ff:fea1:b2c0" },
	{ 7, "enp65s0f0.100", "vlan", ARPHRD_ETHER, 9000, 5, "0c:42:a1:5e:3b:70", NET_IPOIB_NONE, -1,
	  "10.100.0.1/24", "fe80::e42:a1ff:fe5e:3b70" },
};

/*
 * The container of the container scenario: its own veth (as Docker gives
 * one) and none of the host's netdevs; its fix moves the RoCE netdev in
 * (ip link set dev enp65s0f0 netns ...), with its address.
 */
static const struct demo_link_spec container_links[] = {
	{ 1, "lo", "", ARPHRD_LOOPBACK, 65536, 0, "00:00:00:00:00:00", NET_IPOIB_NONE, -1,
	  "127.0.0.1/8", NULL },
	{ 9, "eth0", "veth", ARPHRD_ETHER, 1500, 0, "02:42:ac:11:00:02", NET_IPOIB_NONE, -1,
	  "172.17.0.2/16", "fe80::42:acff:fe11:2" },
	{ 5, "enp65s0f0", "", ARPHRD_ETHER, 9000, 0, "0c:42:a1:5e:3b:70", NET_IPOIB_NONE, -1,
	  "10.20.0.1/24", "fe80::e42:a1ff:fe5e:3b70" },
	{ 7, "enp65s0f0.100", "vlan", ARPHRD_ETHER, 9000, 5, "0c:42:a1:5e:3b:70", NET_IPOIB_NONE, -1,
	  "10.100.0.1/24", "fe80::e42:a1ff:fe5e:3b70" },
};

/* Which host the network is: its links, its default route, its kernel subnet routes in dump order. */
struct demo_netspec {
	const struct demo_link_spec *links;
	size_t nlinks;
	const char *gateway;
	int gw_ifindex;
	const int *order;		/* indexes into links */
	size_t norder;
	bool neighs;
};

static const int host_order[] = { 4, 5, 6, 1, 2, 3 };
static const int container_order[] = { 2, 3, 1 };

static const struct demo_netspec host_spec = {
	demo_links, ARRAY_SIZE(demo_links), "10.208.130.254", 2, host_order, ARRAY_SIZE(host_order), true,
};
/* broken: the container's veth alone; fixed: the RoCE netdev and its VLAN moved in */
static const struct demo_netspec container_spec = {
	container_links, 2, "172.17.0.1", 9, container_order + 2, 1, false,
};
static const struct demo_netspec container_fixed_spec = {
	container_links, 4, "172.17.0.1", 9, container_order, 3, false,
};

/* Ubuntu 18.04: rp_filter=1 from /etc/sysctl.d/10-network-security.conf; the rest kernel defaults. */
static const int demo_sysctl_all[NET_SYSCTL_COUNT] = {
	[NET_SYSCTL_RP_FILTER] = 1,
	[NET_SYSCTL_ARP_IGNORE] = 0,
	[NET_SYSCTL_ARP_ANNOUNCE] = 0,
	[NET_SYSCTL_ARP_FILTER] = 0,
	[NET_SYSCTL_ACCEPT_LOCAL] = 0,
};

/* Growable arrays of the state being built. */
struct build {
	struct net_state *st;
	size_t cap_routes, cap_addrs;
	int err;
};

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *np;

	if (n < *cap)
		return p;
	ncap = *cap ? *cap * 2 : 16;
	np = realloc(p, ncap * size);
	if (!np)
		return NULL;
	*cap = ncap;
	return np;
}

static struct net_ip ip_of(const char *s)
{
	struct net_ip ip = { 0 };

	if (net_ip_parse(s, &ip))
		memset(&ip, 0, sizeof(ip));
	return ip;
}

/* "a.b.c.d/len" into the address and its prefix length. */
static struct net_ip ip_prefix_of(const char *s, uint8_t *len)
{
	char buf[INET6_ADDRSTRLEN + 8];
	char *slash;
	uint64_t v = 32;

	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = '\0';
		util_parse_u64(slash + 1, 10, 128, &v);
	}
	*len = (uint8_t)v;
	return ip_of(buf);
}

static struct net_route *route_add(struct build *b, uint32_t table, uint8_t type, uint8_t proto,
				   uint8_t scope, const struct net_ip *dst, uint8_t dst_len, int oif)
{
	struct net_state *st = b->st;
	struct net_route *r;
	void *np = grow(st->routes, &b->cap_routes, st->nroutes, sizeof(*st->routes));

	if (!np) {
		b->err = -ENOMEM;
		return NULL;
	}
	st->routes = np;
	r = &st->routes[st->nroutes++];
	memset(r, 0, sizeof(*r));
	r->table = table;
	r->family = dst && dst->family ? dst->family : AF_INET;
	r->type = type;
	r->protocol = proto;
	r->scope = scope;
	if (dst)
		r->dst = *dst;
	r->dst_len = dst_len;
	r->oif = oif;
	return r;
}

static void addr_add(struct build *b, int ifindex, const struct net_ip *ip, uint8_t len, uint8_t scope,
		     const char *label)
{
	struct net_state *st = b->st;
	struct net_addr *a;
	void *np = grow(st->addrs, &b->cap_addrs, st->naddrs, sizeof(*st->addrs));

	if (!np) {
		b->err = -ENOMEM;
		return;
	}
	st->addrs = np;
	a = &st->addrs[st->naddrs++];
	memset(a, 0, sizeof(*a));
	a->ifindex = ifindex;
	a->prefixlen = len;
	a->scope = scope;
	a->flags = IFA_F_PERMANENT;
	a->local = *ip;
	if (label)
		snprintf(a->label, sizeof(a->label), "%s", label);
}

static void hwaddr_parse(const char *s, uint8_t *out, uint8_t *len)
{
	unsigned int v;
	int used;

	*len = 0;
	while (*len < NET_HWADDR_MAX && sscanf(s, "%2x%n", &v, &used) == 1) {
		out[(*len)++] = (uint8_t)v;
		s += used;
		if (*s != ':')
			break;
		s++;
	}
}

static void links_fill(struct demo *d, struct build *b, const struct demo_netspec *ns)
{
	struct net_state *st = b->st;

	st->links = calloc(ns->nlinks, sizeof(*st->links));
	if (!st->links) {
		b->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < ns->nlinks; i++) {
		const struct demo_link_spec *ls = &ns->links[i];
		struct net_link *l = &st->links[st->nlinks++];
		bool lo = ls->type == ARPHRD_LOOPBACK;
		bool carrier = demo_link_up(d, ls->name);

		l->ifindex = ls->ifindex;
		snprintf(l->name, sizeof(l->name), "%s", ls->name);
		snprintf(l->kind, sizeof(l->kind), "%s", ls->kind);
		l->type = ls->type;
		l->flags = IFF_UP | (lo ? IFF_LOOPBACK : IFF_BROADCAST | IFF_MULTICAST);
		if (carrier)
			l->flags |= IFF_RUNNING | IFF_LOWER_UP;
		/* lo has no carrier to report (UNKNOWN); the others follow their port. */
		l->operstate = lo ? IF_OPER_UNKNOWN : carrier ? IF_OPER_UP : IF_OPER_DOWN;
		l->mtu = ls->mtu;
		l->link = ls->link;
		hwaddr_parse(ls->hwaddr, l->hwaddr, &l->hwaddr_len);
		l->ipoib_mode = ls->ipoib;
		l->ipoib_pkey = ls->pkey;
	}
}

/*
 * Addresses and the routes the kernel derives from them, table by table.
 * Long: the demo host's addresses and the routes the kernel makes from them, table by table, as data.
 */
static void addrs_routes_fill(struct build *b, const struct demo_netspec *ns)
{
	struct net_ip gw = ip_of(ns->gateway), any = { 0 };
	struct net_route *r;

	/* main: the default route first, then the subnets in address order (as the FIB dumps them). */
	r = route_add(b, RT_TABLE_MAIN, RTN_UNICAST, RTPROT_STATIC, RT_SCOPE_UNIVERSE, &any, 0, ns->gw_ifindex);
	if (r) {
		r->family = AF_INET;
		r->gateway = gw;
	}
	{
		/* Kernel subnet routes, in address order; on the host two for 172.16.0.0/16: the mistake. */
		for (size_t k = 0; k < ns->norder; k++) {
			const struct demo_link_spec *ls = &ns->links[ns->order[k]];
			uint8_t len;
			struct net_ip ip = ip_prefix_of(ls->v4, &len), net = net_ip_network(&ip, len);

			r = route_add(b, RT_TABLE_MAIN, RTN_UNICAST, RTPROT_KERNEL, RT_SCOPE_LINK, &net, len,
				      ls->ifindex);
			if (r)
				r->prefsrc = ip;
		}
	}
	/* IPv6 link-local subnets of the up links, metric 256. */
	for (size_t i = 0; i < ns->nlinks; i++) {
		struct net_ip fe80 = ip_of("fe80::");

		if (!ns->links[i].v6ll)
			continue;
		r = route_add(b, RT_TABLE_MAIN, RTN_UNICAST, RTPROT_KERNEL, RT_SCOPE_UNIVERSE, &fe80, 64,
			      ns->links[i].ifindex);
		if (r) {
			r->has_priority = true;
			r->priority = 256;
		}
	}

	/* Addresses, and the local table's host and broadcast routes for each. */
	for (size_t i = 0; i < ns->nlinks; i++) {
		const struct demo_link_spec *ls = &ns->links[i];
		bool lo = ls->type == ARPHRD_LOOPBACK;
		uint8_t len;
		struct net_ip ip = ip_prefix_of(ls->v4, &len);

		addr_add(b, ls->ifindex, &ip, len, lo ? RT_SCOPE_HOST : RT_SCOPE_UNIVERSE, ls->name);
		if (lo) {
			struct net_ip net = net_ip_network(&ip, len);

			r = route_add(b, RT_TABLE_LOCAL, RTN_LOCAL, RTPROT_KERNEL, RT_SCOPE_HOST, &net, len, 1);
			if (r)
				r->prefsrc = ip;
		}
		r = route_add(b, RT_TABLE_LOCAL, RTN_LOCAL, RTPROT_KERNEL, RT_SCOPE_HOST, &ip, 32, ls->ifindex);
		if (r)
			r->prefsrc = ip;
		{
			uint32_t a, mask = len ? ~0u << (32 - len) : 0;
			struct net_ip bc = ip;

			memcpy(&a, ip.bytes, 4);
			a = htonl((ntohl(a) & mask) | ~mask);
			memcpy(bc.bytes, &a, 4);
			r = route_add(b, RT_TABLE_LOCAL, RTN_BROADCAST, RTPROT_KERNEL, RT_SCOPE_LINK, &bc, 32,
				      ls->ifindex);
			if (r)
				r->prefsrc = ip;
		}
		if (ls->v6ll) {
			struct net_ip ll = ip_of(ls->v6ll);

			addr_add(b, ls->ifindex, &ll, 64, RT_SCOPE_LINK, NULL);
			r = route_add(b, RT_TABLE_LOCAL, RTN_LOCAL, RTPROT_KERNEL, RT_SCOPE_UNIVERSE, &ll, 128,
				      ls->ifindex);
		}
	}
	{
		struct net_ip v6lo = ip_of("::1");

		addr_add(b, 1, &v6lo, 128, RT_SCOPE_HOST, NULL);
		route_add(b, RT_TABLE_LOCAL, RTN_LOCAL, RTPROT_KERNEL, RT_SCOPE_UNIVERSE, &v6lo, 128, 1);
	}
}

/* The kernel's default rules and nothing else: no "from 172.16.34.2 lookup ...". */
static void rules_fill(struct build *b)
{
	static const struct {
		uint8_t family;
		uint32_t priority, table;
	} rules[] = {
		{ AF_INET, 0, RT_TABLE_LOCAL },
		{ AF_INET, 32766, RT_TABLE_MAIN },
		{ AF_INET, 32767, RT_TABLE_DEFAULT },
		{ AF_INET6, 0, RT_TABLE_LOCAL },
		{ AF_INET6, 32766, RT_TABLE_MAIN },
	};
	struct net_state *st = b->st;

	st->rules = calloc(ARRAY_SIZE(rules), sizeof(*st->rules));
	if (!st->rules) {
		b->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
		struct net_rule *r = &st->rules[st->nrules++];

		r->family = rules[i].family;
		r->action = FR_ACT_TO_TBL;
		r->table = rules[i].table;
		r->has_priority = true;
		r->priority = rules[i].priority;
	}
}

/* What the ARP/ND caches would hold: the gateway, and the cpu server's ib0 seen from ib0. */
static void neighs_fill(struct build *b)
{
	static const struct {
		int ifindex;
		const char *ip, *lladdr;
		uint16_t state;
	} neighs[] = {
		{ 2, "10.208.130.254", "00:1c:73:00:00:99", NUD_REACHABLE },
		{ 3, "172.16.16.1", "00:00:10:49:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:65:1a:30", NUD_REACHABLE },
		{ 3, "172.16.16.2", "00:00:10:89:fe:80:00:00:00:00:00:00:0c:42:a1:03:00:65:1a:31", NUD_STALE },
	};
	struct net_state *st = b->st;

	st->neighs = calloc(ARRAY_SIZE(neighs), sizeof(*st->neighs));
	if (!st->neighs) {
		b->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(neighs); i++) {
		struct net_neigh *n = &st->neighs[st->nneighs++];

		n->ifindex = neighs[i].ifindex;
		n->dst = ip_of(neighs[i].ip);
		n->family = n->dst.family;
		n->state = neighs[i].state;
		hwaddr_parse(neighs[i].lladdr, n->lladdr, &n->lladdr_len);
	}
}

static void sysctls_fill(struct build *b, const struct demo_netspec *ns)
{
	struct net_state *st = b->st;

	st->sysctls = calloc(ns->nlinks, sizeof(*st->sysctls));
	if (!st->sysctls) {
		b->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < ns->nlinks; i++) {
		struct net_if_sysctls *s = &st->sysctls[st->nsysctls++];

		snprintf(s->ifname, sizeof(s->ifname), "%s", ns->links[i].name);
		for (int id = 0; id < NET_SYSCTL_COUNT; id++) {
			struct net_sysctl_val *v = &s->v[id];
			/* default.rp_filter is 1 too, so every interface was created with 1. */
			struct net_opt_int val = { .known = true, .value = demo_sysctl_all[id] };

			v->all = v->dflt = v->iface = val;
			v->effective = net_sysctl_combine((enum net_sysctl_id)id, v->all, v->iface);
		}
	}
}

static int ifindex_of(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(demo_links); i++)
		if (!strcmp(demo_links[i].name, name))
			return demo_links[i].ifindex;
	for (size_t i = 0; i < ARRAY_SIZE(container_links); i++)
		if (!strcmp(container_links[i].name, name))
			return container_links[i].ifindex;
	return 0;
}

/* A rule in its place: the dump lists IPv4 rules by priority, then IPv6. */
static void rule_insert(struct build *b, const struct net_rule *nr)
{
	struct net_state *st = b->st;
	struct net_rule *np = realloc(st->rules, (st->nrules + 1) * sizeof(*st->rules));
	size_t at = 0;

	if (!np) {
		b->err = -ENOMEM;
		return;
	}
	st->rules = np;
	while (at < st->nrules && st->rules[at].family == nr->family && st->rules[at].priority <= nr->priority)
		at++;
	memmove(&st->rules[at + 1], &st->rules[at], (st->nrules - at) * sizeof(*st->rules));
	st->rules[at] = *nr;
	st->nrules++;
}

/* The fix applied to the simulated host, as the kernel would then show it. */
static void netfix_fill(struct demo *d, struct build *b)
{
	const struct demo_netfix *f = demo_netfix_get(d);
	struct net_state *st = b->st;

	for (size_t i = 0; i < f->nroutes && !b->err; i++) {
		struct net_rule nr = { .family = AF_INET, .action = FR_ACT_TO_TBL, .src_len = 32,
				       .table = f->routes[i].table, .has_priority = true,
				       .priority = f->routes[i].priority, .src = f->routes[i].addr };
		struct net_route *r = route_add(b, f->routes[i].table, RTN_UNICAST, RTPROT_BOOT, RT_SCOPE_LINK,
						&f->routes[i].subnet, f->routes[i].prefixlen,
						ifindex_of(f->routes[i].ifname));

		if (r)
			r->prefsrc = f->routes[i].addr;
		rule_insert(b, &nr);
	}
	for (size_t i = 0; i < f->nsysctls; i++)
		for (size_t k = 0; k < st->nsysctls; k++) {
			struct net_sysctl_val *v = &st->sysctls[k].v[f->sysctls[i].id];

			if (strcmp(st->sysctls[k].ifname, f->sysctls[i].ifname))
				continue;
			v->iface = (struct net_opt_int){ .known = true, .value = f->sysctls[i].value };
			v->effective = net_sysctl_combine(f->sysctls[i].id, v->all, v->iface);
		}
}

/* Every output line of fn(f, arg) with "[SIMULATED] " in front, into log. */
static void simulated_lines(FILE *log, const char *text)
{
	const char *s = text;

	while (*s) {
		const char *nl = strchr(s, '\n');
		int len = nl ? (int)(nl - s) : (int)strlen(s);

		fprintf(log, "[SIMULATED] %.*s\n", len, s);
		s += len + (nl ? 1 : 0);
	}
}

/* The plan's routes, rules and sysctls into f (what is already right stays out). */
static void netfix_add(struct demo_netfix *f, const struct fix_plan *plan)
{
	for (size_t i = 0; i < plan->nroutes && f->nroutes < DEMO_FIX_ROUTES; i++) {
		const struct fix_route *r = &plan->routes[i];

		if (r->route_ok && r->rule_ok)
			continue;
		snprintf(f->routes[f->nroutes].ifname, IFNAMSIZ, "%s", r->ifname);
		f->routes[f->nroutes].addr = r->addr;
		f->routes[f->nroutes].subnet = r->subnet;
		f->routes[f->nroutes].prefixlen = r->prefixlen;
		f->routes[f->nroutes].table = r->table;
		f->routes[f->nroutes].priority = r->priority;
		f->nroutes++;
	}
	for (size_t i = 0; i < plan->nsysctls && f->nsysctls < DEMO_FIX_SYSCTLS; i++) {
		if (plan->sysctls[i].ok)
			continue;
		snprintf(f->sysctls[f->nsysctls].ifname, IFNAMSIZ, "%s", plan->sysctls[i].ifname);
		f->sysctls[f->nsysctls].id = plan->sysctls[i].id;
		f->sysctls[f->nsysctls].value = plan->sysctls[i].value;
		f->nsysctls++;
	}
}

/* The doctor's plan for the simulated network as it is now, its RDMA netdevs marked as the doctor marks them. */
static int demo_plan(struct demo *d, struct fix_plan *plan)
{
	struct fab_host h;
	struct net_state st;
	int rc;

	if (demo_collect(d, &h))
		return -ENOMEM;
	rc = demo_net(d, &st);
	if (!rc) {
		net_mark_rdma(&st, &h);
		rc = fix_plan_build(&st, plan);
		net_state_free(&st);
	}
	fab_host_free(&h);
	return rc;
}

int demo_netfix_base(struct demo *d)
{
	struct fix_plan plan;
	int rc = demo_plan(d, &plan);

	if (!rc) {
		netfix_add(demo_netfix_of(d), &plan);
		fix_plan_free(&plan);
	}
	*demo_netfix_base_of(d) = *demo_netfix_of(d);
	return rc;
}

/* Long: the doctor's routing fix, then the scenario's own, each said as a real host would do it. */
int demo_fix(struct demo *d, const struct fix_plan *plan, FILE *log)
{
	const struct demo_scenario *sc = demo_scenario_of(d);
	bool route = fix_plan_needed(plan), own = sc->fix_cmd && !demo_sc_fixed(d);
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	if (!route && !own)
		return 1;
	if (route)
		netfix_add(demo_netfix_of(d), plan);
	if (own)
		demo_sc_fix(d);
	if (!log)
		return 0;
	fprintf(log, "[SIMULATED] applying the fix to the simulated host memserver34; nothing on this "
		"machine changes:\n");
	if (route) {
		m = open_memstream(&text, &len);
		if (m) {
			fix_write(m, FIX_IP, plan);
			fclose(m);
			simulated_lines(log, text ? text : "");
			free(text);
		}
	}
	if (own)
		fprintf(log, "[SIMULATED] %s\n", sc->fix_cmd);
	fprintf(log, "[SIMULATED] applied to the simulated host, until this machine reboots%s\n",
		route ? " (undo: doctor --undo, or u in the monitor's Doctor pane)" : "");
	return 0;
}

int demo_unfix(struct demo *d, FILE *log)
{
	struct demo_netfix *f = demo_netfix_of(d);
	const struct demo_netfix *base = demo_netfix_base_of(d);

	if (!memcmp(f, base, sizeof(*f)))
		return 1;
	*f = *base;
	if (log)
		fprintf(log, "[SIMULATED] the simulated host's routing is back as it was: its fix is undone\n");
	return 0;
}

/* A saved fix put back at start (doc/lab.md): the doctor's routing fix if route, the scenario's if own. */
int demo_refix(struct demo *d, bool route, bool own)
{
	struct fix_plan plan;
	int rc = 0;

	if (route && !(rc = demo_plan(d, &plan))) {
		if (fix_plan_needed(&plan))
			netfix_add(demo_netfix_of(d), &plan);
		fix_plan_free(&plan);
	}
	if (own && demo_scenario_of(d)->fix_cmd && !demo_sc_fixed(d))
		demo_sc_fix(d);
	return rc;
}

void demo_fix_parts(const struct demo *d, bool *route, bool *own)
{
	*route = !!memcmp(demo_netfix_get(d), demo_netfix_base_of((struct demo *)d), sizeof(struct demo_netfix));
	*own = demo_sc_fixed(d);
}

bool demo_fixed(const struct demo *d)
{
	const struct demo_netfix *f = demo_netfix_get(d);

	return memcmp(f, demo_netfix_base_of((struct demo *)d), sizeof(*f)) || demo_sc_fixed(d);
}

bool demo_story(const struct demo *d, char *story, size_t ssize, char *hint, size_t hsize, bool *fixed)
{
	const struct demo_scenario *sc = demo_scenario_of(d);

	if (!sc->name)
		return false;
	/* fixed: the scenario's own fix is in, and (the routing lesson) the routing fix */
	*fixed = (sc->fix_cmd ? demo_sc_fixed(d) : true) &&
		 (sc->breaks & DS_SAME_SUBNET ? demo_fixed(d) : true);
	if (*fixed) {
		snprintf(story, ssize, "SIMULATED scenario %s: FIXED: %s", sc->name, sc->fixed);
		snprintf(hint, hsize, "%sfabtop --demo list: the other scenarios",
			 sc->breaks & DS_SAME_SUBNET ? "u in the Doctor pane breaks it again; " : "");
	} else {
		snprintf(story, ssize, "SIMULATED scenario %s: %s", sc->name, sc->story);
		snprintf(hint, hsize, "look: %s", sc->hint);
	}
	return true;
}

int demo_net(struct demo *d, struct net_state *st)
{
	struct build b = { .st = st };
	const struct demo_netspec *ns = !(demo_scenario_of(d)->breaks & DS_CONTAINER) ? &host_spec :
					demo_broken(d, DS_CONTAINER) ? &container_spec : &container_fixed_spec;

	memset(st, 0, sizeof(*st));
	links_fill(d, &b, ns);
	if (!b.err)
		addrs_routes_fill(&b, ns);
	if (!b.err)
		rules_fill(&b);
	if (!b.err && ns->neighs)
		neighs_fill(&b);
	if (!b.err)
		sysctls_fill(&b, ns);
	if (!b.err)
		netfix_fill(d, &b);
	st->live = false;
	if (b.err)
		net_state_free(st);
	return b.err;
}
