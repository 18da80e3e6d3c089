// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop show gids --for: the GID index to use, text or JSON from one walk. */
#include "config.h"

#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "report/gid_advice.h"

static const enum gid_choice_warn warn_bits[] = {
	GID_WARN_INDEX_DIFFERS, GID_WARN_V1_ONLY, GID_WARN_LINK_LOCAL, GID_WARN_LINK_LOCAL_ADDR,
	GID_WARN_TYPE_UNKNOWN, GID_WARN_NOT_IN_NS, GID_WARN_SEVERAL_ADDRS, GID_WARN_MAY_MOVE,
};

#define NWARN (sizeof(warn_bits) / sizeof(warn_bits[0]))

/* A port and its GID entry: a line of text, an element of "ports". */
static void pick_out(struct out *o, const struct gid_pick *pk)
{
	const struct fab_gid *g = pk->gid;
	const char *type = fab_gid_type_str(g->type);

	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "device", pk->dev->name, "  %s", pk->dev->name);
	out_uint(o, PRINT_ANY, "port", pk->port->num, " port %u", pk->port->num);
	out_uint(o, PRINT_ANY, "index", g->index, ": GID index %u", g->index);
	out_str(o, PRINT_ANY, "type", type, ", %s", type);
	out_str(o, PRINT_ANY, "gid", g->gid, " %s", g->gid);
	out_str(o, PRINT_ANY, "ipv4", g->has_ipv4 ? g->ipv4 : NULL, g->has_ipv4 ? " (%s)" : NULL, g->ipv4);
	out_str_or_null(o, PRINT_ANY, "netdev", g->netdev, g->netdev[0] ? " on %s" : NULL, g->netdev);
	out_str(o, PRINT_ANY, "vlan_lower", pk->vlan_lower, pk->vlan_lower ? " (VLAN on %s: tagged traffic)" : NULL,
		pk->vlan_lower);
	out_printf(o, "\n");
	if (g->netdev[0])
		out_bool(o, PRINT_JSON, "netdev_in_netns", g->netdev_in_ns, NULL);
	else
		out_null(o, PRINT_JSON, "netdev_in_netns", NULL);
	out_obj_open(o, "env");
	out_uint(o, PRINT_JSON, "NCCL_IB_GID_INDEX", g->index, NULL);
	out_uint(o, PRINT_JSON, "UCX_IB_GID_INDEX", g->index, NULL);
	out_obj_close(o);
	out_obj_close(o);
}

/* The route to a peer, as `ip route get` says it: " via GW, source SRC, table T". */
static const char *route_words(const struct route_answer *a, char *buf, size_t size)
{
	char gw[INET6_ADDRSTRLEN], src[INET6_ADDRSTRLEN], t[16];
	size_t n = 0;

	buf[0] = '\0';
	if (a->gateway.family)
		n += (size_t)snprintf(buf + n, size - n, "via %s, ", net_ip_str(&a->gateway, gw, sizeof(gw)));
	else
		n += (size_t)snprintf(buf + n, size - n, "on-link, ");
	if (n < size && a->src.family)
		n += (size_t)snprintf(buf + n, size - n, "source %s, ", net_ip_str(&a->src, src, sizeof(src)));
	if (n < size)
		snprintf(buf + n, size - n, "table %s", net_table_str(a->table, t, sizeof(t)));
	return buf;
}

/* The route facts: a line of text before the answer, the "route" member (null when not routed). */
static void route_out(struct out *o, const struct gid_route *r)
{
	char peer[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN], words[160];
	bool ok = r && r->how == GID_ROUTE_OK;

	if (!r || r->how == GID_ROUTE_NONE) {
		out_null(o, PRINT_JSON, "route", NULL);
		return;
	}
	out_obj_open(o, "route");
	out_str(o, PRINT_JSON, "peer", net_ip_str(&r->peer, peer, sizeof(peer)), NULL);
	out_bool(o, PRINT_JSON, "local", r->how == GID_ROUTE_LOCAL, NULL);
	out_str(o, PRINT_JSON, "answered_by", r->asked, NULL);
	out_str(o, PRINT_JSON, "error", r->how == GID_ROUTE_FAILED ? strerror(r->ans.error) : NULL, NULL);
	out_str_or_null(o, PRINT_JSON, "dev", ok ? r->ans.oif_name : NULL, NULL);
	out_str_or_null(o, PRINT_JSON, "src", ok && r->ans.src.family ? net_ip_str(&r->ans.src, b, sizeof(b)) : NULL,
			NULL);
	out_str_or_null(o, PRINT_JSON, "gateway",
			ok && r->ans.gateway.family ? net_ip_str(&r->ans.gateway, b, sizeof(b)) : NULL, NULL);
	if (ok)
		out_uint(o, PRINT_JSON, "table", r->ans.table, NULL);
	else
		out_null(o, PRINT_JSON, "table", NULL);
	out_obj_close(o);
	if (ok)
		out_printf(o, "To reach %s: leaves by %s (route: %s; asked of the %s)\n", peer, r->ans.oif_name,
			   route_words(&r->ans, words, sizeof(words)), r->asked);
}

/* Text: no RoCE GID to name (an InfiniBand interface, or nothing matched). */
static void none_text(struct out *o, const struct gid_want *w, const struct gid_choice *c,
		      const struct gid_route *r)
{
	if (c->ib_port && w->by_route)
		out_printf(o, "%s is reached over %s, an InfiniBand interface (%s port %u): applications use "
			   "GID index 0, the port GID; no GID index needs setting.\n", w->text, w->iface,
			   c->ib_dev->name, c->ib_port->num);
	else if (c->ib_port)
		out_printf(o, "%s is an InfiniBand interface (%s port %u): applications use GID index 0, "
			   "the port GID; no GID index needs setting.\n", w->text, c->ib_dev->name, c->ib_port->num);
	else if (w->by_route)
		out_printf(o, "No RoCE GID entry for %s: it is reached by %s, and no RoCE port's GID table has an "
			   "%s entry of %s (is %s an RDMA netdev, with an address of that family?)\n", w->text,
			   w->iface, w->v4 ? "IPv4" : "IPv6", w->iface, w->iface);
	else if (r && r->how == GID_ROUTE_FAILED)
		out_printf(o, "No RoCE GID entry for %s: it is not one of this host's addresses, and there is no "
			   "route to it (%s; asked of the %s)\n", w->text, strerror(r->ans.error), r->asked);
	else
		out_printf(o, "No RoCE GID entry for %s: %s\n", w->text, w->is_addr ?
			   "no RoCE port's netdev has that address (is it configured, and on the RDMA netdev?)" :
			   "no RoCE port's GID table names that interface (is it the RDMA netdev, and up?)");
}

/* Text: the settings that carry the index (one for all ports, or per port). */
static void use_text(struct out *o, const struct gid_choice *c)
{
	if (c->index >= 0) {
		out_printf(o, "Use:\n  NCCL_IB_GID_INDEX=%d\n  UCX_IB_GID_INDEX=%d\n", c->index, c->index);
		out_printf(o, "  ib_write_bw -d %s -i %u -x %d\n", c->picks[0].dev->name, c->picks[0].port->num,
			   c->index);
		return;
	}
	out_printf(o, "Use, per port:\n");
	for (size_t i = 0; i < c->npicks; i++)
		out_printf(o, "  %s:%u  NCCL_IB_GID_INDEX=%u UCX_IB_GID_INDEX=%u ib_write_bw -d %s -i %u -x %u\n",
			   c->picks[i].dev->name, c->picks[i].port->num, c->picks[i].gid->index,
			   c->picks[i].gid->index, c->picks[i].dev->name, c->picks[i].port->num,
			   c->picks[i].gid->index);
}

void gid_advice(struct out *o, const struct gid_want *w, const struct gid_choice *c, const struct gid_route *r)
{
	/* the text says only why there is no pick when there is none */
	bool picked = c->npicks > 0;

	out_obj_open(o, "gid_choice");
	out_str(o, PRINT_JSON, "for", w->text, NULL);
	out_str(o, PRINT_JSON, "for_kind", w->is_addr ? (w->v4 ? "ipv4" : "ipv6") : "interface", NULL);
	if (c->index >= 0)
		out_uint(o, PRINT_JSON, "index", (uint64_t)c->index, NULL);
	else
		out_null(o, PRINT_JSON, "index", NULL);
	route_out(o, r);
	if (picked)
		out_printf(o, w->by_route ? "GID to reach %s:\n" : "GID for %s:\n", w->text);
	else
		none_text(o, w, c, r);
	out_arr_open(o, "ports");
	for (size_t i = 0; i < c->npicks; i++)
		pick_out(o, &c->picks[i]);
	out_arr_close(o);
	out_uint(o, PRINT_ANY, "more_ports", c->nmatched_ports - c->npicks,
		 picked && c->nmatched_ports > c->npicks ? "  (and %zu more ports)\n" : NULL,
		 c->nmatched_ports - c->npicks);
	if (picked)
		use_text(o, c);
	if (c->ib_port) {
		out_obj_open(o, "infiniband_port");
		out_str(o, PRINT_JSON, "device", c->ib_dev->name, NULL);
		out_uint(o, PRINT_JSON, "port", c->ib_port->num, NULL);
		out_uint(o, PRINT_JSON, "index", 0, NULL);
		out_obj_close(o);
	} else {
		out_null(o, PRINT_JSON, "infiniband_port", NULL);
	}
	out_arr_open(o, "warnings");
	for (size_t b = 0; b < NWARN; b++) {
		if (!(c->warn & warn_bits[b]))
			continue;
		out_obj_open(o, NULL);
		out_str(o, PRINT_JSON, "key", gid_choice_warn_key(warn_bits[b]), NULL);
		out_str(o, PRINT_ANY, "text", gid_choice_warn_str(warn_bits[b]), picked ? "warning: %s\n" : NULL,
			gid_choice_warn_str(warn_bits[b]));
		out_obj_close(o);
	}
	out_arr_close(o);
	out_obj_close(o);
}
