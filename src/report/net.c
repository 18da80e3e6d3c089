// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop show net, text or JSON from one walk: RDMA netdevs with addresses, IPoIB and sysctls; routes of all tables; rules; RoCE modes. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/fib_rules.h>
#include <stdio.h>
#include <string.h>

#include "source/source.h"
#include "cmd/commands.h"
#include "report/net.h"

/* The RDMA device and port a netdev belongs to, if any. */
static bool netdev_owner(const struct fab_host *h, const char *name, const char **dev, unsigned int *port)
{
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			const struct fab_port *p = &h->devs[i].ports[j];

			for (unsigned int k = 0; k < p->nnetdevs; k++)
				if (!strcmp(p->netdevs[k].name, name)) {
					*dev = h->devs[i].name;
					*port = p->num;
					return true;
				}
		}
	return false;
}

/* IPoIB mode and P_Key from netlink, else from sysfs through the host model. */
static void ipoib_of(const struct fab_host *h, const struct net_link *l, const char **mode, int32_t *pkey)
{
	*mode = net_ipoib_mode_str(l->ipoib_mode);
	*pkey = l->ipoib_pkey;
	if (**mode)
		return;
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			const struct fab_port *p = &h->devs[i].ports[j];

			for (unsigned int k = 0; k < p->nnetdevs; k++)
				if (!strcmp(p->netdevs[k].name, l->name) && p->netdevs[k].ipoib_mode[0]) {
					*mode = p->netdevs[k].ipoib_mode;
					if (p->netdevs[k].pkey.known)
						*pkey = (int32_t)p->netdevs[k].pkey.value;
				}
		}
}

/* "ADDR/LEN" as text prints it, into buf; JSON takes it only when the address has a family. */
static const char *prefix_str(const struct net_ip *ip, unsigned int len, char *buf, size_t size)
{
	char b[INET6_ADDRSTRLEN];

	snprintf(buf, size, "%s/%u", net_ip_str(ip, b, sizeof(b)), len);
	return buf;
}

static const char *ip_or_null(const struct net_ip *ip, char *buf, size_t size)
{
	return ip->family ? net_ip_str(ip, buf, size) : NULL;
}

static void route_out(struct out *o, const struct net_state *st, const struct net_route *r)
{
	char b1[INET6_ADDRSTRLEN + 8], b2[16], b3[16], b4[16], gw[INET6_ADDRSTRLEN], ps[INET6_ADDRSTRLEN];
	const struct net_link *l = net_link_by_index(st, r->oif);
	const char *table = net_table_str(r->table, b2, sizeof(b2));
	const char *dst = r->dst.family ? prefix_str(&r->dst, r->dst_len, b1, sizeof(b1)) : "default";
	const char *via = ip_or_null(&r->gateway, gw, sizeof(gw)), *src = ip_or_null(&r->prefsrc, ps, sizeof(ps));
	const char *proto = net_rtprot_str(r->protocol, b3, sizeof(b3)), *scope = net_scope_str(r->scope, b4, sizeof(b4));

	out_obj_open(o, NULL);
	out_uint(o, PRINT_JSON, "table", r->table, NULL);
	out_str(o, PRINT_JSON, "table_name", table, NULL);
	out_str(o, PRINT_JSON, "family", r->family == AF_INET ? "inet" : "inet6", NULL);
	out_printf(o, "  ");
	out_str(o, PRINT_ANY, "type", net_rtn_type_str(r->type), r->type != RTN_UNICAST ? "%s " : NULL,
		net_rtn_type_str(r->type));
	out_str(o, PRINT_ANY, "dst", dst, "%s", dst);
	if (via)
		out_printf(o, " via %s", via);
	out_str_or_null(o, PRINT_ANY, "dev", l ? l->name : NULL, l ? " dev %s" : NULL, l ? l->name : "");
	out_str_or_null(o, PRINT_JSON, "gateway", via, NULL);
	out_str_or_null(o, PRINT_JSON, "prefsrc", src, NULL);
	out_str(o, PRINT_ANY, "protocol", proto, " table %s proto %s", table, proto);
	out_str(o, PRINT_ANY, "scope", scope, " scope %s", scope);
	if (src)
		out_printf(o, " src %s", src);
	if (r->has_priority)
		out_uint(o, PRINT_ANY, "metric", r->priority, " metric %u", r->priority);
	else
		out_null(o, PRINT_JSON, "metric", NULL);
	out_printf(o, "\n");
	out_obj_close(o);
}

static const char *rule_action_str(uint8_t a)
{
	switch (a) {
	case FR_ACT_TO_TBL: return "lookup";
	case FR_ACT_GOTO: return "goto";
	case FR_ACT_NOP: return "nop";
	case FR_ACT_BLACKHOLE: return "blackhole";
	case FR_ACT_UNREACHABLE: return "unreachable";
	case FR_ACT_PROHIBIT: return "prohibit";
	default: return "?";
	}
}

static void rule_out(struct out *o, const struct net_rule *r)
{
	char b[INET6_ADDRSTRLEN + 8], d[INET6_ADDRSTRLEN + 8], t[16];
	const char *fam = r->family == AF_INET ? "inet" : "inet6";
	const char *from = r->src_len ? prefix_str(&r->src, r->src_len, b, sizeof(b)) : "all";
	const char *to = r->dst_len ? prefix_str(&r->dst, r->dst_len, d, sizeof(d)) : NULL;

	out_obj_open(o, NULL);
	if (r->has_priority)
		out_uint(o, PRINT_ANY, "priority", r->priority, "  %u:\t", r->priority);
	else
		out_null(o, PRINT_ANY, "priority", "  0:\t");
	out_str(o, PRINT_JSON, "family", fam, NULL);
	out_str(o, PRINT_ANY, "from", r->src_len && !r->src.family ? NULL : from, "%sfrom %s", r->invert ? "not " : "",
		from);
	out_str(o, PRINT_ANY, "to", to && r->dst.family ? to : NULL, to ? " to %s" : NULL, to);
	if (r->has_fwmark)
		out_printf(o, " fwmark 0x%x/0x%x", r->fwmark, r->fwmask);
	out_str_or_null(o, PRINT_ANY, "iif", r->iifname, r->iifname[0] ? " iif %s" : NULL, r->iifname);
	out_str_or_null(o, PRINT_ANY, "oif", r->oifname, r->oifname[0] ? " oif %s" : NULL, r->oifname);
	out_str(o, PRINT_ANY, "action", rule_action_str(r->action), " %s", rule_action_str(r->action));
	out_uint(o, PRINT_ANY, "table", r->table, r->action == FR_ACT_TO_TBL ? " %s" : NULL,
		 net_table_str(r->table, t, sizeof(t)));
	out_bool(o, PRINT_JSON, "not", r->invert, NULL);
	out_printf(o, " (%s)\n", fam);
	out_obj_close(o);
}

/* A sysctl's value: the number, or "?" (null) when it could not be read. */
static void optint_out(struct out *o, const char *key, struct net_opt_int v)
{
	if (v.known)
		out_int(o, PRINT_ANY, key, v.value, "%d", v.value);
	else
		out_null(o, PRINT_ANY, key, "?");
}

static void sysctls_out(struct out *o, const struct net_if_sysctls *sc)
{
	if (!sc) {
		out_null(o, PRINT_JSON, "sysctls", NULL);
		return;
	}
	out_printf(o, "    sysctl (effective: all/default/iface):");
	out_obj_open(o, "sysctls");
	for (int id = 0; id < NET_SYSCTL_COUNT; id++) {
		const char *name = net_sysctl_name((enum net_sysctl_id)id);

		out_obj_open(o, name);
		out_printf(o, " %s=", name);
		optint_out(o, "effective", sc->v[id].effective);
		out_printf(o, "(");
		optint_out(o, "all", sc->v[id].all);
		out_printf(o, "/");
		optint_out(o, "default", sc->v[id].dflt);
		out_printf(o, "/");
		optint_out(o, "iface", sc->v[id].iface);
		out_printf(o, ")");
		out_obj_close(o);
	}
	out_obj_close(o);
	out_printf(o, "\n");
}

/* Text only: the netdev's neighbours (the JSON leaves them out). */
static void neighs_text(struct out *o, const struct net_state *st, const struct net_link *l)
{
	char b[INET6_ADDRSTRLEN];

	for (size_t k = 0; k < st->nneighs && out_text(o); k++) {
		const struct net_neigh *n = &st->neighs[k];

		if (n->ifindex != l->ifindex)
			continue;
		out_printf(o, "    neigh %s %s", net_ip_str(&n->dst, b, sizeof(b)), net_nud_str(n->state));
		if (n->lladdr_len) {
			out_printf(o, " lladdr ");
			for (unsigned int m = 0; m < n->lladdr_len; m++)
				out_printf(o, "%s%02x", m ? ":" : "", n->lladdr[m]);
		}
		out_printf(o, "\n");
	}
}

static void addrs_out(struct out *o, const struct net_state *st, const struct net_link *l)
{
	char b[INET6_ADDRSTRLEN + 8];

	out_arr_open(o, "addresses");
	for (size_t k = 0; k < st->naddrs; k++) {
		const struct net_addr *a = &st->addrs[k];
		const char *p;

		if (a->ifindex != l->ifindex)
			continue;
		p = prefix_str(&a->local, a->prefixlen, b, sizeof(b));
		out_str(o, PRINT_ANY, NULL, a->local.family ? p : NULL, "    %s %s\n",
			a->local.family == AF_INET ? "inet" : "inet6", p);
	}
	out_arr_close(o);
}

/* One RDMA netdev: its device and port, state, IPoIB mode and P_Key, addresses, sysctls, neighbours. */
static void netdev_out(struct out *o, const struct fab_host *h, const struct net_state *st, const struct net_link *l)
{
	const struct net_link *m = l->master ? net_link_by_index(st, l->master) : NULL;
	const struct net_link *lo = l->link && l->link != l->ifindex ? net_link_by_index(st, l->link) : NULL;
	const char *state = net_operstate_str(l->operstate), *dev = NULL, *mode;
	unsigned int port = 0;
	bool owned = netdev_owner(h, l->name, &dev, &port);
	int32_t pkey;

	ipoib_of(h, l, &mode, &pkey);
	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "name", l->name, "  %s", l->name);
	out_int(o, PRINT_JSON, "ifindex", l->ifindex, NULL);
	out_str(o, PRINT_ANY, "device", owned ? dev : NULL, owned ? " (%s/%u)" : NULL, dev, port);
	if (owned)
		out_uint(o, PRINT_JSON, "port", port, NULL);
	else
		out_null(o, PRINT_JSON, "port", NULL);
	out_str_or_null(o, PRINT_JSON, "kind", l->kind, NULL);
	out_str(o, PRINT_ANY, "operstate", state, ": %s, mtu %u%s%s", state, l->mtu, l->kind[0] ? ", " : "", l->kind);
	out_str_or_null(o, PRINT_ANY, "master", m ? m->name : NULL, m ? ", master %s" : NULL, m ? m->name : "");
	out_str_or_null(o, PRINT_ANY, "lower", lo ? lo->name : NULL, lo ? ", lower %s" : NULL, lo ? lo->name : "");
	out_printf(o, "\n");
	out_uint(o, PRINT_JSON, "mtu", l->mtu, NULL);
	out_str_or_null(o, PRINT_ANY, "ipoib_mode", mode, mode[0] || pkey >= 0 ? "    IPoIB: mode %s" : NULL,
			mode[0] ? mode : "unknown");
	if (pkey >= 0)
		out_int(o, PRINT_ANY, "pkey", pkey, ", P_Key 0x%04x", (unsigned int)pkey);
	else
		out_null(o, PRINT_JSON, "pkey", NULL);
	if (mode[0] || pkey >= 0)
		out_printf(o, "\n");
	addrs_out(o, st, l);
	sysctls_out(o, net_sysctls_of(st, l->name));
	neighs_text(o, st, l);
	out_obj_close(o);
}

static void roce_modes_out(struct out *o, const struct fab_host *h)
{
	size_t shown = 0;

	out_printf(o, "rdma_cm default_roce_mode:\n");
	out_arr_open(o, "roce_modes");
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t k = 0; k < h->devs[i].nports; k++) {
			const struct fab_port *p = &h->devs[i].ports[k];

			if (p->link_layer != LINK_LAYER_ETHERNET)
				continue;
			out_obj_open(o, NULL);
			out_str(o, PRINT_ANY, "device", h->devs[i].name, "  %s/", h->devs[i].name);
			out_uint(o, PRINT_ANY, "port", p->num, "%u: ", p->num);
			out_str_or_null(o, PRINT_ANY, "default_roce_mode", p->default_roce_mode, "%s\n",
					p->default_roce_mode[0] ? p->default_roce_mode :
					"unknown (configfs rdma_cm not mounted or no entry)");
			out_obj_close(o);
			shown++;
		}
	out_arr_close(o);
	if (!shown)
		out_printf(o, "  (no RoCE ports)\n");
}

void net_report(struct out *o, const struct fab_host *h, const struct net_state *st)
{
	size_t nrdma = 0;

	out_printf(o, "RDMA netdevs:\n");
	out_arr_open(o, "netdevs");
	for (size_t i = 0; i < st->nlinks; i++)
		if (st->links[i].rdma) {
			netdev_out(o, h, st, &st->links[i]);
			nrdma++;
		}
	out_arr_close(o);
	if (!nrdma)
		out_printf(o, "  (none: no netdev of an RDMA port in this network namespace)\n");
	out_printf(o, "Routes (all tables):\n");
	out_arr_open(o, "routes");
	for (size_t i = 0; i < st->nroutes; i++)
		route_out(o, st, &st->routes[i]);
	out_arr_close(o);
	out_printf(o, "Rules:\n");
	out_arr_open(o, "rules");
	for (size_t i = 0; i < st->nrules; i++)
		rule_out(o, &st->rules[i]);
	out_arr_close(o);
	roce_modes_out(o, h);
}
