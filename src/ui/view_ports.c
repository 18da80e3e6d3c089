// SPDX-License-Identifier: GPL-2.0-or-later
/* The Ports pane: state, rate, LIDs, MTU, firmware, netdevs, with flags for common faults. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ui/mad_ui.h"
#include "ui/views.h"
#include "ui/widget/theme.h"

enum {
	C_DEV, C_PORT, C_STATE, C_PHYS, C_RATE, C_FLAGS, C_LINK, C_LID, C_SMLID, C_LMC,
	C_MTU, C_NETDEVS, C_FW, C_TYPE, C_GUID, C_SYSGUID, C_BOARD, NCOLS
};

static const struct table_col ports_cols[NCOLS] = {
	[C_DEV]     = { .title = "DEVICE",   .width = 10, .prio = 0 },
	[C_PORT]    = { .title = "PORT",     .width = 4,  .prio = 0, .right = true, .numeric = true },
	[C_STATE]   = { .title = "STATE",    .width = 7,  .prio = 0 },
	[C_PHYS]    = { .title = "PHYSICAL", .width = 9,  .prio = 3 },
	[C_RATE]    = { .title = "RATE",     .width = 19, .prio = 2 },
	[C_FLAGS]   = { .title = "FLAGS",    .width = 12, .prio = 1 },
	[C_LINK]    = { .title = "LINK",     .width = 10, .prio = 4 },
	[C_LID]     = { .title = "LID",      .width = 5,  .prio = 5, .right = true, .numeric = true },
	[C_SMLID]   = { .title = "SM",       .width = 5,  .prio = 5, .right = true, .numeric = true },
	[C_LMC]     = { .title = "LMC",      .width = 3,  .prio = 9, .right = true, .numeric = true },
	[C_MTU]     = { .title = "MTU/MAX",  .width = 9,  .prio = 7, .right = true, .numeric = true },
	[C_NETDEVS] = { .title = "NETDEVS",  .width = 12, .prio = 6 },
	[C_FW]      = { .title = "FIRMWARE", .width = 12, .prio = 8 },
	[C_TYPE]    = { .title = "TYPE",     .width = 6,  .prio = 10 },
	[C_GUID]    = { .title = "NODE GUID", .width = 19, .prio = 11 },
	[C_SYSGUID] = { .title = "SYSTEM GUID", .width = 19, .prio = 13 },
	[C_BOARD]   = { .title = "BOARD",    .width = 14, .prio = 12, .flex = true },
};

static void opt_cell(struct table_row *r, int col, const struct opt_u64 *v)
{
	if (v->known) {
		table_cell(r, col, 0, "%" PRIu64, v->value);
		table_cell_num(r, col, (double)v->value);
	} else {
		table_cell(r, col, ROLE_DIM, "-");
	}
}

static void ports_build(struct ui *ui, struct table *t)
{
	for (size_t i = 0; i < ui->live.host.ndevs; i++) {
		const struct fab_device *d = &ui->live.host.devs[i];

		for (size_t j = 0; j < d->nports; j++) {
			const struct fab_port *p = &d->ports[j];
			struct table_row *r = table_add(t, "%s/%u", d->name, p->num);
			char flags[64], nds[TABLE_CELL_LEN];
			size_t off = 0;

			if (!r)
				return;
			views_port_flags(d, p, flags, sizeof(flags));
			table_cell(r, C_DEV, 0, "%s", d->name);
			table_cell(r, C_PORT, 0, "%u", p->num);
			table_cell_num(r, C_PORT, p->num);
			table_cell(r, C_STATE, views_state_role(p), "%s",
				   p->state_raw[0] ? fab_port_state_str(p->state) : "-");
			table_cell_num(r, C_STATE, p->state);
			table_cell(r, C_PHYS, p->phys_state == PHYS_STATE_LINK_UP ? ROLE_OK :
				   p->phys_state == PHYS_STATE_UNKNOWN ? ROLE_DIM : ROLE_BAD, "%s",
				   p->phys_state_raw[0] ? fab_phys_state_str(p->phys_state) : "-");
			table_cell(r, C_RATE, p->rate[0] ? 0 : ROLE_DIM, "%s", p->rate[0] ? p->rate : "-");
			if (p->rate_known)
				table_cell_num(r, C_RATE, p->rate_gbps);
			table_cell(r, C_FLAGS, flags[0] ? ROLE_WARN : 0, "%s", flags);
			table_cell(r, C_LINK, 0, "%s", p->link_layer_raw[0] ? p->link_layer_raw : "-");
			opt_cell(r, C_LID, &p->lid);
			opt_cell(r, C_SMLID, &p->sm_lid);
			opt_cell(r, C_LMC, &p->lmc);
			/* active/max from verbs: a port below its max MTU is worth seeing. */
			if (p->active_mtu.known && p->max_mtu.known) {
				table_cell(r, C_MTU, p->active_mtu.value < p->max_mtu.value ? ROLE_WARN : 0,
					   "%" PRIu64 "/%" PRIu64, p->active_mtu.value, p->max_mtu.value);
				table_cell_num(r, C_MTU, (double)p->active_mtu.value);
			} else {
				opt_cell(r, C_MTU, &p->active_mtu);
			}
			nds[0] = '\0';
			for (unsigned int k = 0; k < p->nnetdevs && off < sizeof(nds); k++) {
				int n = snprintf(nds + off, sizeof(nds) - off, "%s%s%s", k ? "," : "",
						 p->netdevs[k].name, p->netdevs[k].in_ns ? "" : "!");

				if (n < 0)
					break;
				off += (size_t)n;
			}
			table_cell(r, C_NETDEVS, 0, "%s", nds[0] ? nds : "-");
			table_cell(r, C_FW, 0, "%s", d->fw_ver[0] ? d->fw_ver : "-");
			table_cell(r, C_TYPE, 0, "%s", d->node_type[0] ? d->node_type : "-");
			table_cell(r, C_GUID, 0, "%s", d->node_guid[0] ? d->node_guid : "-");
			table_cell(r, C_SYSGUID, 0, "%s", d->sys_image_guid[0] ? d->sys_image_guid : "-");
			table_cell(r, C_BOARD, 0, "%s", d->board_id[0] ? d->board_id : "-");
		}
	}
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static void opt_line(struct text *out, const char *origin, const char *attr, const struct opt_u64 *v)
{
	if (v->known)
		text_add(out, 0, "  %-16s %-22" PRIu64 " %s/%s", attr, v->value, origin, attr);
	else
		text_add(out, ROLE_DIM, "  %-16s %-22s %s/%s (absent or unreadable)", attr, "unknown", origin, attr);
}

/* Long: every attribute of a port with its raw value and origin, in the order the details overlay shows them. */
static void ports_details(struct ui *ui, const char *key, struct text *out)
{
	struct fab_device *d = NULL;
	struct fab_port *p = views_port_of_key(ui, key, &d);
	char origin[512], porig[600], flags[64];

	if (!p) {
		text_add(out, ROLE_WARN, "%s: this port is gone (device removed or renamed).", key);
		return;
	}
	views_origin(ui, d, origin, sizeof(origin));
	snprintf(porig, sizeof(porig), "%s/ports/%u", ui_simulated(ui) || ui_recorded(ui) ? d->name : origin, p->num);
	text_add(out, ROLE_HEADING, "Port %s/%u", d->name, p->num);
	text_add(out, ROLE_DIM, "  from %s", origin);
	text_add(out, 0, "  %-16s %-22s %s", "ATTRIBUTE", "VALUE (raw)", "SOURCE");
	text_add(out, 0, "  %-16s %-22s %s/state", "state", or_dash(p->state_raw), porig);
	text_add(out, 0, "  %-16s %-22s %s/phys_state", "phys_state", or_dash(p->phys_state_raw), porig);
	text_add(out, 0, "  %-16s %-22s %s/rate", "rate", or_dash(p->rate), porig);
	text_add(out, 0, "  %-16s %-22s %s/link_layer", "link_layer", or_dash(p->link_layer_raw), porig);
	opt_line(out, porig, "lid", &p->lid);
	opt_line(out, porig, "sm_lid", &p->sm_lid);
	opt_line(out, porig, "lid_mask_count", &p->lmc);
	opt_line(out, porig, "sm_sl", &p->sm_sl);
	if (p->cap_mask.known)
		text_add(out, 0, "  %-16s 0x%-20" PRIx64 " %s/cap_mask", "cap_mask", p->cap_mask.value, porig);
	else
		text_add(out, ROLE_DIM, "  %-16s %-22s %s/cap_mask", "cap_mask", "unknown", porig);
	if (p->active_mtu.known)
		text_add(out, 0, "  %-16s %" PRIu64 " (max %" PRIu64 ")%*s ibv_query_port()", "active_mtu",
			 p->active_mtu.value, p->max_mtu.value, 6, "");
	else
		text_add(out, ROLE_DIM, "  %-16s %-22s ibv_query_port() (device not opened: fixture tree or no access)",
			 "active_mtu", "unknown");
	text_add(out, 0, "  %-16s %-22s rdma_cm configfs ports/%u/default_roce_mode", "roce_mode",
		 or_dash(p->default_roce_mode), p->num);
	text_add(out, 0, "  %-16s %u non-empty entries of %u    %s/gids/", "gids", (unsigned int)p->ngids,
		 p->gid_tbl_len, porig);
	text_add(out, 0, "  %-16s %s", "counters", p->has_pma ? "PMA counters present" :
		 "no PMA counters (counters/ absent or \"N/A (no PMA)\")");
	if (p->npkeys) {
		char buf[TEXT_LINE_LEN];
		size_t off = 0;

		buf[0] = '\0';
		for (unsigned int k = 0; k < p->npkeys && off + 8 < sizeof(buf); k++)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s0x%04x", k ? " " : "", p->pkeys[k]);
		text_add(out, 0, "  %-16s %s", "pkeys", buf);
	}
	views_port_flags(d, p, flags, sizeof(flags));
	text_add(out, ROLE_HEADING, "Flags");
	if (!flags[0])
		text_add(out, ROLE_OK, "  none: the port looks healthy");
	if (strstr(flags, "NO-SM"))
		text_add(out, ROLE_WARN, "  NO-SM: state INIT with LinkUp, SM LID 0 - the cable is fine but no subnet manager configured the port (start opensm?)");
	if (strstr(flags, "SM-PENDING"))
		text_add(out, ROLE_WARN, "  SM-PENDING: state INIT with LinkUp, SM LID set - the SM reached the port but has not moved it to ACTIVE (sweep running or failed: sminfo, the SM's log)");
	if (strstr(flags, "NO-GUID"))
		text_add(out, ROLE_WARN, "  NO-GUID: state INIT with LinkUp, node GUID all zero - a VF whose GUIDs the PF's admin has not set (ip link set PF vf N node_guid/port_guid), or an SM without virtualization");
	/* The fabric's own view of the same port (it may be INIT even when sysfs is stale). */
	mad_ui_sm_explain(ui, d->name, p->num, out);
	if (strstr(flags, "NO-LINK"))
		text_add(out, ROLE_BAD, "  NO-LINK: %s/%s - no physical link (cable, peer port down or disabled)",
			 or_dash(p->state_raw), or_dash(p->phys_state_raw));
	if (strstr(flags, "SLOW"))
		text_add(out, ROLE_WARN, "  SLOW: rate %s is below this device's best port or a 1X link width (degraded cable?)", p->rate);
	if (strstr(flags, "NETNS"))
		text_add(out, ROLE_WARN, "  NETNS: a netdev of this port is not in this network namespace (container?)");

	text_add(out, ROLE_HEADING, "Device %s", d->name);
	text_add(out, 0, "  %-16s %-22s %s/node_type", "node_type", or_dash(d->node_type), origin);
	text_add(out, 0, "  %-16s %-22s %s/node_guid", "node_guid", or_dash(d->node_guid), origin);
	text_add(out, 0, "  %-16s %-22s %s/sys_image_guid", "sys_image_guid", or_dash(d->sys_image_guid), origin);
	text_add(out, 0, "  %-16s %-22s %s/fw_ver", "fw_ver", or_dash(d->fw_ver), origin);
	text_add(out, 0, "  %-16s %-22s %s/hca_type", "hca_type", or_dash(d->hca_type), origin);
	text_add(out, 0, "  %-16s %-22s %s/board_id", "board_id", or_dash(d->board_id), origin);
	text_add(out, 0, "  %-16s %-22s %s/hw_rev", "hw_rev", or_dash(d->hw_rev), origin);
	text_add(out, 0, "  %-16s %-22s %s/node_desc", "node_desc", or_dash(d->node_desc), origin);
	text_add(out, 0, "  %-16s %-22s %s/device/driver", "driver", or_dash(d->driver), origin);

	text_add(out, ROLE_HEADING, "Netdevs");
	if (!p->nnetdevs)
		text_add(out, ROLE_DIM, "  none found (device/net, parent, GID attributes)");
	for (unsigned int k = 0; k < p->nnetdevs; k++) {
		const struct fab_netdev *nd = &p->netdevs[k];
		char mtu[24] = "-", pkey[24] = "";

		if (nd->mtu.known)
			snprintf(mtu, sizeof(mtu), "%" PRIu64, nd->mtu.value);
		if (nd->pkey.known)
			snprintf(pkey, sizeof(pkey), " pkey 0x%04" PRIx64, nd->pkey.value);
		if (!nd->in_ns) {
			text_add(out, ROLE_WARN, "  %-16s not in this network namespace (no class/net/%s here)",
				 nd->name, nd->name);
			continue;
		}
		text_add(out, 0, "  %-16s mtu %s, %s%s%s%s%s%s", nd->name, mtu, or_dash(nd->operstate),
			 nd->ipoib_mode[0] ? ", IPoIB " : "", nd->ipoib_mode, pkey,
			 nd->parent[0] ? ", on " : "", nd->parent);
	}
}

static const char *ports_empty(struct ui *ui)
{
	if (!ui->live.host.ndevs)
		return views_no_devices(ui);
	return "No port matches the filter (Esc clears it).";
}

const struct ui_view view_ports = {
	.id = "ports",
	.port_rows = true,
	.title = "Ports",
	.tab = "Ports",
	.cols = ports_cols,
	.ncols = NCOLS,
	.default_sort = C_DEV,
	.default_desc = false,
	.build = ports_build,
	.details = ports_details,
	.empty = ports_empty,
};
