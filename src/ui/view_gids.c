// SPDX-License-Identifier: GPL-2.0-or-later
/* The GIDs pane: every non-empty GID with type, netdev and IPv4, netdev problems highlighted. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ui/views.h"
#include "ui/widget/theme.h"
#include "util.h"

enum { C_DEV, C_PORT, C_INDEX, C_GID, C_TYPE, C_NETDEV, C_IPV4, C_NOTE, NCOLS };

static const struct table_col gids_cols[NCOLS] = {
	[C_DEV]    = { .title = "DEVICE",  .width = 8,  .prio = 0 },
	[C_PORT]   = { .title = "PORT",    .width = 4,  .prio = 0, .right = true, .numeric = true },
	[C_INDEX]  = { .title = "INDEX",   .width = 5,  .prio = 0, .right = true, .numeric = true },
	[C_GID]    = { .title = "GID",     .width = 39, .prio = 2 },
	[C_TYPE]   = { .title = "TYPE",    .width = 7,  .prio = 1 },
	[C_NETDEV] = { .title = "NETDEV",  .width = 12, .prio = 1 },
	[C_IPV4]   = { .title = "IPV4",    .width = 15, .prio = 3 },
	[C_NOTE]   = { .title = "NOTE",    .width = 12, .prio = 5, .flex = true },
};

/* The netdev problem of a GID entry, if any: these break RoCE addressing. */
static const char *gid_problem(const struct fab_port *p, const struct fab_gid *g)
{
	if (g->netdev[0] && !g->netdev_in_ns)
		return "not in netns";
	/* IB GIDs need no netdev; a RoCE GID without one cannot be addressed. */
	if (!g->netdev[0] && p->link_layer == LINK_LAYER_ETHERNET)
		return "no netdev";
	return NULL;
}

static void gids_build(struct ui *ui, struct table *t)
{
	for (size_t i = 0; i < ui->live.host.ndevs; i++) {
		const struct fab_device *d = &ui->live.host.devs[i];

		for (size_t j = 0; j < d->nports; j++) {
			const struct fab_port *p = &d->ports[j];

			for (size_t k = 0; k < p->ngids; k++) {
				const struct fab_gid *g = &p->gids[k];
				const char *problem = gid_problem(p, g);
				struct table_row *r = table_add(t, "%s/%u/%u", d->name, p->num, g->index);

				if (!r)
					return;
				table_cell(r, C_DEV, 0, "%s", d->name);
				table_cell(r, C_PORT, 0, "%u", p->num);
				table_cell_num(r, C_PORT, p->num);
				table_cell(r, C_INDEX, 0, "%u", g->index);
				table_cell_num(r, C_INDEX, g->index);
				table_cell(r, C_GID, 0, "%s", g->gid);
				table_cell(r, C_TYPE, g->type == GID_TYPE_UNKNOWN ? ROLE_DIM : 0, "%s",
					   fab_gid_type_str(g->type));
				table_cell(r, C_NETDEV, problem ? ROLE_BAD : 0, "%s", g->netdev[0] ? g->netdev : "-");
				table_cell(r, C_IPV4, g->has_ipv4 ? 0 : ROLE_DIM, "%s", g->has_ipv4 ? g->ipv4 : "-");
				table_cell(r, C_NOTE, problem ? ROLE_BAD : 0, "%s", problem ? problem : "");
				if (problem)
					r->role = ROLE_WARN;
			}
		}
	}
}

static const struct fab_gid *gid_of_key(struct ui *ui, const char *key, struct fab_device **d,
					struct fab_port **p)
{
	const char *slash = strrchr(key, '/');
	uint64_t idx;

	*p = views_port_of_key(ui, key, d);
	if (!*p || !slash || util_parse_u64(slash + 1, 10, UINT32_MAX, &idx))
		return NULL;
	for (size_t k = 0; k < (*p)->ngids; k++)
		if ((*p)->gids[k].index == idx)
			return &(*p)->gids[k];
	return NULL;
}

static void gids_details(struct ui *ui, const char *key, struct text *out)
{
	struct fab_device *d = NULL;
	struct fab_port *p = NULL;
	const struct fab_gid *g = gid_of_key(ui, key, &d, &p);
	char origin[512], porig[600];
	const char *problem;

	if (!g) {
		text_add(out, ROLE_WARN, "%s: this GID entry is gone (address removed or device reloaded).", key);
		return;
	}
	views_origin(ui, d, origin, sizeof(origin));
	snprintf(porig, sizeof(porig), "%s/ports/%u", ui_simulated(ui) || ui_recorded(ui) ? d->name : origin, p->num);
	text_add(out, ROLE_HEADING, "GID %s/%u index %u", d->name, p->num, g->index);
	text_add(out, 0, "  %-10s %-40s %s/gids/%u", "gid", g->gid, porig, g->index);
	text_add(out, 0, "  %-10s %-40s %s/gid_attrs/types/%u", "type", fab_gid_type_str(g->type), porig, g->index);
	text_add(out, 0, "  %-10s %-40s %s/gid_attrs/ndevs/%u", "netdev", g->netdev[0] ? g->netdev : "(none)",
		 porig, g->index);
	if (g->has_ipv4)
		text_add(out, 0, "  %-10s %-40s the GID is IPv4-mapped (::ffff:a.b.c.d)", "ipv4", g->ipv4);
	else
		text_add(out, ROLE_DIM, "  %-10s %-40s not IPv4-mapped", "ipv4", "-");
	text_add(out, 0, "  %-10s %s", "port", p->link_layer_raw[0] ? p->link_layer_raw : "link layer unknown");
	problem = gid_problem(p, g);
	if (problem && !strcmp(problem, "no netdev"))
		text_add(out, ROLE_BAD, "  This RoCE GID has no netdev: rdma_cm cannot pick it for any IP address.");
	else if (problem)
		text_add(out, ROLE_BAD, "  netdev %s is not in this network namespace: the RDMA device is visible "
			 "but its interface lives elsewhere (a container without the netdev), so rdma_cm "
			 "cannot resolve addresses through it here.", g->netdev);
	if (g->type == GID_TYPE_ROCE_V2)
		text_add(out, ROLE_DIM, "  RoCE v2: routable (UDP port 4791); use this index for IP-routed RoCE.");
	else if (g->type == GID_TYPE_ROCE_V1)
		text_add(out, ROLE_DIM, "  RoCE v1: Ethernet link-local only; not routable across IP subnets.");
}

static const char *gids_empty(struct ui *ui)
{
	if (!ui->live.host.ndevs)
		return views_no_devices(ui);
	if (ui_table(ui)->filter[0])
		return "No GID matches the filter (Esc clears it).";
	return "No non-empty GID entries (ports without gids/ or all entries zero).";
}

const struct ui_view view_gids = {
	.id = "gids",
	.port_rows = true,
	.title = "GIDs",
	.tab = "GIDs",
	.cols = gids_cols,
	.ncols = NCOLS,
	.default_sort = C_DEV,
	.default_desc = false,
	.build = gids_build,
	.details = gids_details,
	.empty = gids_empty,
};
