// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop show net: RDMA netdevs with addresses, IPoIB and sysctls; routes of all tables; rules; RoCE modes. */
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

static void route_text(FILE *f, const struct net_state *st, const struct net_route *r)
{
	char b1[INET6_ADDRSTRLEN], b2[16], b3[16], b4[16];
	const struct net_link *l = net_link_by_index(st, r->oif);

	fprintf(f, "  ");
	if (r->type != RTN_UNICAST)
		fprintf(f, "%s ", net_rtn_type_str(r->type));
	if (r->dst.family)
		fprintf(f, "%s/%u", net_ip_str(&r->dst, b1, sizeof(b1)), r->dst_len);
	else
		fprintf(f, "default");
	if (r->gateway.family)
		fprintf(f, " via %s", net_ip_str(&r->gateway, b1, sizeof(b1)));
	if (l)
		fprintf(f, " dev %s", l->name);
	fprintf(f, " table %s proto %s scope %s", net_table_str(r->table, b2, sizeof(b2)),
		net_rtprot_str(r->protocol, b3, sizeof(b3)), net_scope_str(r->scope, b4, sizeof(b4)));
	if (r->prefsrc.family)
		fprintf(f, " src %s", net_ip_str(&r->prefsrc, b1, sizeof(b1)));
	if (r->has_priority)
		fprintf(f, " metric %u", r->priority);
	fprintf(f, "\n");
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

static void rule_text(FILE *f, const struct net_rule *r)
{
	char b[INET6_ADDRSTRLEN], t[16];

	fprintf(f, "  %u:\t%sfrom ", r->has_priority ? r->priority : 0, r->invert ? "not " : "");
	if (r->src_len)
		fprintf(f, "%s/%u", net_ip_str(&r->src, b, sizeof(b)), r->src_len);
	else
		fprintf(f, "all");
	if (r->dst_len)
		fprintf(f, " to %s/%u", net_ip_str(&r->dst, b, sizeof(b)), r->dst_len);
	if (r->has_fwmark)
		fprintf(f, " fwmark 0x%x/0x%x", r->fwmark, r->fwmask);
	if (r->iifname[0])
		fprintf(f, " iif %s", r->iifname);
	if (r->oifname[0])
		fprintf(f, " oif %s", r->oifname);
	fprintf(f, " %s", rule_action_str(r->action));
	if (r->action == FR_ACT_TO_TBL)
		fprintf(f, " %s", net_table_str(r->table, t, sizeof(t)));
	fprintf(f, " (%s)\n", r->family == AF_INET ? "inet" : "inet6");
}

static void opt_text(FILE *f, struct net_opt_int v)
{
	if (v.known)
		fprintf(f, "%d", v.value);
	else
		fprintf(f, "?");
}

/* Long: the `show net` report section by section, in the order doc/show.md documents. */
void net_report_text(FILE *f, const struct fab_host *h, const struct net_state *st)
{
	char b[INET6_ADDRSTRLEN];
	size_t nrdma = 0;

	fprintf(f, "RDMA netdevs:\n");
	for (size_t i = 0; i < st->nlinks; i++) {
		const struct net_link *l = &st->links[i];
		const struct net_if_sysctls *sc = net_sysctls_of(st, l->name);
		const char *dev = NULL, *mode;
		unsigned int port = 0;
		int32_t pkey;

		if (!l->rdma)
			continue;
		nrdma++;
		fprintf(f, "  %s", l->name);
		if (netdev_owner(h, l->name, &dev, &port))
			fprintf(f, " (%s/%u)", dev, port);
		fprintf(f, ": %s, mtu %u%s%s", net_operstate_str(l->operstate), l->mtu,
			l->kind[0] ? ", " : "", l->kind);
		if (l->master && net_link_by_index(st, l->master))
			fprintf(f, ", master %s", net_link_by_index(st, l->master)->name);
		if (l->link && l->link != l->ifindex && net_link_by_index(st, l->link))
			fprintf(f, ", lower %s", net_link_by_index(st, l->link)->name);
		fprintf(f, "\n");
		ipoib_of(h, l, &mode, &pkey);
		if (mode[0] || pkey >= 0) {
			fprintf(f, "    IPoIB: mode %s", mode[0] ? mode : "unknown");
			if (pkey >= 0)
				fprintf(f, ", P_Key 0x%04x", (unsigned int)pkey);
			fprintf(f, "\n");
		}
		for (size_t k = 0; k < st->naddrs; k++)
			if (st->addrs[k].ifindex == l->ifindex)
				fprintf(f, "    %s %s/%u\n", st->addrs[k].local.family == AF_INET ? "inet" : "inet6",
					net_ip_str(&st->addrs[k].local, b, sizeof(b)), st->addrs[k].prefixlen);
		if (sc) {
			fprintf(f, "    sysctl (effective: all/default/iface):");
			for (int id = 0; id < NET_SYSCTL_COUNT; id++) {
				const struct net_sysctl_val *v = &sc->v[id];

				fprintf(f, " %s=", net_sysctl_name((enum net_sysctl_id)id));
				opt_text(f, v->effective);
				fprintf(f, "(");
				opt_text(f, v->all);
				fprintf(f, "/");
				opt_text(f, v->dflt);
				fprintf(f, "/");
				opt_text(f, v->iface);
				fprintf(f, ")");
			}
			fprintf(f, "\n");
		}
		for (size_t k = 0; k < st->nneighs; k++) {
			const struct net_neigh *n = &st->neighs[k];

			if (n->ifindex != l->ifindex)
				continue;
			fprintf(f, "    neigh %s %s", net_ip_str(&n->dst, b, sizeof(b)), net_nud_str(n->state));
			if (n->lladdr_len) {
				fprintf(f, " lladdr ");
				for (unsigned int m = 0; m < n->lladdr_len; m++)
					fprintf(f, "%s%02x", m ? ":" : "", n->lladdr[m]);
			}
			fprintf(f, "\n");
		}
	}
	if (!nrdma)
		fprintf(f, "  (none: no netdev of an RDMA port in this network namespace)\n");
	fprintf(f, "Routes (all tables):\n");
	for (size_t i = 0; i < st->nroutes; i++)
		route_text(f, st, &st->routes[i]);
	fprintf(f, "Rules:\n");
	for (size_t i = 0; i < st->nrules; i++)
		rule_text(f, &st->rules[i]);
	fprintf(f, "rdma_cm default_roce_mode:\n");
	{
		size_t shown = 0;

		for (size_t i = 0; i < h->ndevs; i++)
			for (size_t j = 0; j < h->devs[i].nports; j++) {
				const struct fab_port *p = &h->devs[i].ports[j];

				if (p->link_layer != LINK_LAYER_ETHERNET)
					continue;
				fprintf(f, "  %s/%u: %s\n", h->devs[i].name, p->num,
					p->default_roce_mode[0] ? p->default_roce_mode : "unknown (configfs rdma_cm not mounted or no entry)");
				shown++;
			}
		if (!shown)
			fprintf(f, "  (no RoCE ports)\n");
	}
}

static void ip_json(struct json *j, const struct net_ip *ip)
{
	char b[INET6_ADDRSTRLEN];

	json_str_or_null(j, ip->family ? net_ip_str(ip, b, sizeof(b)) : NULL);
}

static void prefix_json(struct json *j, const struct net_ip *ip, unsigned int len)
{
	char b[INET6_ADDRSTRLEN], s[INET6_ADDRSTRLEN + 8];

	if (!ip->family) {
		json_null(j);
		return;
	}
	snprintf(s, sizeof(s), "%s/%u", net_ip_str(ip, b, sizeof(b)), len);
	json_str(j, s);
}

static void optint_json(struct json *j, struct net_opt_int v)
{
	if (v.known)
		json_i64(j, v.value);
	else
		json_null(j);
}

/* One RDMA netdev: its device and port, IPoIB mode and P_Key, addresses, sysctls. */
static void netdev_json(struct json *j, const struct fab_host *h, const struct net_state *st,
			const struct net_link *l)
{
	const struct net_if_sysctls *sc = net_sysctls_of(st, l->name);
	const char *dev = NULL, *mode;
	unsigned int port = 0;
	int32_t pkey;

	json_obj_begin(j);
	json_key(j, "name"); json_str(j, l->name);
	json_key(j, "ifindex"); json_i64(j, l->ifindex);
	if (netdev_owner(h, l->name, &dev, &port)) {
		json_key(j, "device"); json_str(j, dev);
		json_key(j, "port"); json_u64(j, port);
	} else {
		json_key(j, "device"); json_null(j);
		json_key(j, "port"); json_null(j);
	}
	json_key(j, "kind"); json_str_or_null(j, l->kind);
	json_key(j, "operstate"); json_str(j, net_operstate_str(l->operstate));
	{
		const struct net_link *m = l->master ? net_link_by_index(st, l->master) : NULL;
		const struct net_link *lo = l->link && l->link != l->ifindex ? net_link_by_index(st, l->link) : NULL;

		json_key(j, "master"); json_str_or_null(j, m ? m->name : NULL);
		json_key(j, "lower"); json_str_or_null(j, lo ? lo->name : NULL);
	}
	json_key(j, "mtu"); json_u64(j, l->mtu);
	ipoib_of(h, l, &mode, &pkey);
	json_key(j, "ipoib_mode"); json_str_or_null(j, mode);
	json_key(j, "pkey");
	if (pkey >= 0)
		json_i64(j, pkey);
	else
		json_null(j);
	json_key(j, "addresses");
	json_arr_begin(j);
	for (size_t k = 0; k < st->naddrs; k++)
		if (st->addrs[k].ifindex == l->ifindex)
			prefix_json(j, &st->addrs[k].local, st->addrs[k].prefixlen);
	json_arr_end(j);
	json_key(j, "sysctls");
	if (sc) {
		json_obj_begin(j);
		for (int id = 0; id < NET_SYSCTL_COUNT; id++) {
			json_key(j, net_sysctl_name((enum net_sysctl_id)id));
			json_obj_begin(j);
			json_key(j, "effective"); optint_json(j, sc->v[id].effective);
			json_key(j, "all"); optint_json(j, sc->v[id].all);
			json_key(j, "default"); optint_json(j, sc->v[id].dflt);
			json_key(j, "iface"); optint_json(j, sc->v[id].iface);
			json_obj_end(j);
		}
		json_obj_end(j);
	} else {
		json_null(j);
	}
	json_obj_end(j);
}

static void route_json(struct json *j, const struct net_state *st, const struct net_route *r)
{
	const struct net_link *l = net_link_by_index(st, r->oif);
	char b[16];

	json_obj_begin(j);
	json_key(j, "table"); json_u64(j, r->table);
	json_key(j, "table_name"); json_str(j, net_table_str(r->table, b, sizeof(b)));
	json_key(j, "family"); json_str(j, r->family == AF_INET ? "inet" : "inet6");
	json_key(j, "type"); json_str(j, net_rtn_type_str(r->type));
	json_key(j, "dst"); r->dst.family ? prefix_json(j, &r->dst, r->dst_len) : json_str(j, "default");
	json_key(j, "dev"); json_str_or_null(j, l ? l->name : NULL);
	json_key(j, "gateway"); ip_json(j, &r->gateway);
	json_key(j, "prefsrc"); ip_json(j, &r->prefsrc);
	json_key(j, "protocol"); json_str(j, net_rtprot_str(r->protocol, b, sizeof(b)));
	json_key(j, "scope"); json_str(j, net_scope_str(r->scope, b, sizeof(b)));
	json_key(j, "metric");
	if (r->has_priority)
		json_u64(j, r->priority);
	else
		json_null(j);
	json_obj_end(j);
}

static void rule_json(struct json *j, const struct net_rule *r)
{
	json_obj_begin(j);
	json_key(j, "priority");
	if (r->has_priority)
		json_u64(j, r->priority);
	else
		json_null(j);
	json_key(j, "family"); json_str(j, r->family == AF_INET ? "inet" : "inet6");
	json_key(j, "from"); r->src_len ? prefix_json(j, &r->src, r->src_len) : json_str(j, "all");
	json_key(j, "to"); r->dst_len ? prefix_json(j, &r->dst, r->dst_len) : json_null(j);
	json_key(j, "iif"); json_str_or_null(j, r->iifname);
	json_key(j, "oif"); json_str_or_null(j, r->oifname);
	json_key(j, "action"); json_str(j, rule_action_str(r->action));
	json_key(j, "table"); json_u64(j, r->table);
	json_key(j, "not"); json_bool(j, r->invert);
	json_obj_end(j);
}

void net_report_json(struct json *j, const struct fab_host *h, const struct net_state *st)
{
	json_key(j, "netdevs");
	json_arr_begin(j);
	for (size_t i = 0; i < st->nlinks; i++)
		if (st->links[i].rdma)
			netdev_json(j, h, st, &st->links[i]);
	json_arr_end(j);
	json_key(j, "routes");
	json_arr_begin(j);
	for (size_t i = 0; i < st->nroutes; i++)
		route_json(j, st, &st->routes[i]);
	json_arr_end(j);
	json_key(j, "rules");
	json_arr_begin(j);
	for (size_t i = 0; i < st->nrules; i++)
		rule_json(j, &st->rules[i]);
	json_arr_end(j);

	json_key(j, "roce_modes");
	json_arr_begin(j);
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t k = 0; k < h->devs[i].nports; k++) {
			const struct fab_port *p = &h->devs[i].ports[k];

			if (p->link_layer != LINK_LAYER_ETHERNET)
				continue;
			json_obj_begin(j);
			json_key(j, "device"); json_str(j, h->devs[i].name);
			json_key(j, "port"); json_u64(j, p->num);
			json_key(j, "default_roce_mode"); json_str_or_null(j, p->default_roce_mode);
			json_obj_end(j);
		}
	json_arr_end(j);
}
