// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop show gids --for: the GID index to use, in text and JSON. */
#include "config.h"

#include <stdio.h>

#include "report/gid_advice.h"

static const enum gid_choice_warn warn_bits[] = {
	GID_WARN_INDEX_DIFFERS, GID_WARN_V1_ONLY, GID_WARN_LINK_LOCAL, GID_WARN_NOT_IN_NS,
	GID_WARN_SEVERAL_ADDRS, GID_WARN_MAY_MOVE,
};

#define NWARN (sizeof(warn_bits) / sizeof(warn_bits[0]))

static void pick_text(FILE *f, const struct gid_pick *pk)
{
	const struct fab_gid *g = pk->gid;

	fprintf(f, "  %s port %u: GID index %u, %s %s", pk->dev->name, pk->port->num, g->index,
		fab_gid_type_str(g->type), g->gid);
	if (g->has_ipv4)
		fprintf(f, " (%s)", g->ipv4);
	if (g->netdev[0])
		fprintf(f, " on %s", g->netdev);
	if (pk->vlan_lower)
		fprintf(f, " (VLAN on %s: tagged traffic)", pk->vlan_lower);
	fprintf(f, "\n");
}

void gid_advice_text(FILE *f, const struct gid_want *w, const struct gid_choice *c)
{
	if (!c->npicks) {
		if (c->ib_port)
			fprintf(f, "%s is an InfiniBand interface (%s port %u): applications use GID index 0, "
				"the port GID; no GID index needs setting.\n", w->text, c->ib_dev->name,
				c->ib_port->num);
		else
			fprintf(f, "No RoCE GID entry for %s: %s\n", w->text, w->is_addr ?
				"no RoCE port's netdev has that address (is it configured, and on the RDMA netdev?)" :
				"no RoCE port's GID table names that interface (is it the RDMA netdev, and up?)");
		return;
	}
	fprintf(f, "GID for %s:\n", w->text);
	for (size_t i = 0; i < c->npicks; i++)
		pick_text(f, &c->picks[i]);
	if (c->nmatched_ports > c->npicks)
		fprintf(f, "  (and %zu more ports)\n", c->nmatched_ports - c->npicks);
	if (c->index >= 0) {
		fprintf(f, "Use:\n  NCCL_IB_GID_INDEX=%d\n  UCX_IB_GID_INDEX=%d\n", c->index, c->index);
		fprintf(f, "  ib_write_bw -d %s -i %u -x %d\n", c->picks[0].dev->name, c->picks[0].port->num,
			c->index);
	} else {
		fprintf(f, "Use, per port:\n");
		for (size_t i = 0; i < c->npicks; i++)
			fprintf(f, "  %s:%u  NCCL_IB_GID_INDEX=%u UCX_IB_GID_INDEX=%u ib_write_bw -d %s -i %u -x %u\n",
				c->picks[i].dev->name, c->picks[i].port->num, c->picks[i].gid->index,
				c->picks[i].gid->index, c->picks[i].dev->name, c->picks[i].port->num,
				c->picks[i].gid->index);
	}
	for (size_t b = 0; b < NWARN; b++)
		if (c->warn & warn_bits[b])
			fprintf(f, "warning: %s\n", gid_choice_warn_str(warn_bits[b]));
}

void gid_advice_json(struct json *j, const struct gid_want *w, const struct gid_choice *c)
{
	json_key(j, "gid_choice");
	json_obj_begin(j);
	json_key(j, "for"); json_str(j, w->text);
	json_key(j, "for_kind"); json_str(j, w->is_addr ? (w->v4 ? "ipv4" : "ipv6") : "interface");
	json_key(j, "index");
	if (c->index >= 0)
		json_u64(j, (uint64_t)c->index);
	else
		json_null(j);
	json_key(j, "ports");
	json_arr_begin(j);
	for (size_t i = 0; i < c->npicks; i++) {
		const struct gid_pick *pk = &c->picks[i];

		json_obj_begin(j);
		json_key(j, "device"); json_str(j, pk->dev->name);
		json_key(j, "port"); json_u64(j, pk->port->num);
		json_key(j, "index"); json_u64(j, pk->gid->index);
		json_key(j, "type"); json_str(j, fab_gid_type_str(pk->gid->type));
		json_key(j, "gid"); json_str(j, pk->gid->gid);
		json_key(j, "ipv4"); json_str(j, pk->gid->has_ipv4 ? pk->gid->ipv4 : NULL);
		json_key(j, "netdev"); json_str_or_null(j, pk->gid->netdev);
		json_key(j, "vlan_lower"); json_str(j, pk->vlan_lower);
		json_key(j, "netdev_in_netns");
		if (pk->gid->netdev[0])
			json_bool(j, pk->gid->netdev_in_ns);
		else
			json_null(j);
		json_key(j, "env");
		json_obj_begin(j);
		json_key(j, "NCCL_IB_GID_INDEX"); json_u64(j, pk->gid->index);
		json_key(j, "UCX_IB_GID_INDEX"); json_u64(j, pk->gid->index);
		json_obj_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "more_ports"); json_u64(j, c->nmatched_ports - c->npicks);
	json_key(j, "infiniband_port");
	if (c->ib_port) {
		json_obj_begin(j);
		json_key(j, "device"); json_str(j, c->ib_dev->name);
		json_key(j, "port"); json_u64(j, c->ib_port->num);
		json_key(j, "index"); json_u64(j, 0);
		json_obj_end(j);
	} else {
		json_null(j);
	}
	json_key(j, "warnings");
	json_arr_begin(j);
	for (size_t b = 0; b < NWARN; b++)
		if (c->warn & warn_bits[b]) {
			json_obj_begin(j);
			json_key(j, "key"); json_str(j, gid_choice_warn_key(warn_bits[b]));
			json_key(j, "text"); json_str(j, gid_choice_warn_str(warn_bits[b]));
			json_obj_end(j);
		}
	json_arr_end(j);
	json_obj_end(j);
}
