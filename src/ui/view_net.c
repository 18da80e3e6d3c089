// SPDX-License-Identifier: GPL-2.0-or-later
/* The Network pane: RDMA netdevs with addresses and sysctls, then routes of all tables and rules. */
#include "config.h"

#include <net/if.h>
#include <linux/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "ui/views.h"
#include "ui/widget/theme.h"

enum { C_IFACE, C_PORT, C_STATE, C_MTU, C_MODE, C_PKEY, C_RP, C_ARPI, C_ARPA, C_ACCL, C_ADDRS, NCOLS };

static const struct table_col net_cols[NCOLS] = {
	[C_IFACE] = { .title = "IFACE",     .width = 14, .prio = 0 },
	[C_PORT]  = { .title = "RDMA PORT", .width = 11, .prio = 3 },
	[C_STATE] = { .title = "STATE",     .width = 7,  .prio = 1 },
	[C_MTU]   = { .title = "MTU",       .width = 5,  .prio = 4, .right = true, .numeric = true },
	[C_MODE]  = { .title = "IPOIB",     .width = 9,  .prio = 5 },
	[C_PKEY]  = { .title = "PKEY",      .width = 6,  .prio = 8 },
	[C_RP]    = { .title = "RP_FILTER", .width = 9,  .prio = 2, .right = true, .numeric = true },
	[C_ARPI]  = { .title = "ARP_IGN",   .width = 7,  .prio = 6, .right = true, .numeric = true },
	[C_ARPA]  = { .title = "ARP_ANN",   .width = 7,  .prio = 6, .right = true, .numeric = true },
	[C_ACCL]  = { .title = "ACC_LOCAL", .width = 9,  .prio = 7, .right = true, .numeric = true },
	[C_ADDRS] = { .title = "ADDRESSES", .width = 18, .prio = 0, .flex = true },
};

static void sysctl_cell(struct table_row *r, int col, const struct net_if_sysctls *sc, enum net_sysctl_id id)
{
	if (!sc || !sc->v[id].effective.known) {
		table_cell(r, col, ROLE_DIM, "-");
		return;
	}
	table_cell(r, col, 0, "%d", sc->v[id].effective.value);
	table_cell_num(r, col, sc->v[id].effective.value);
}

/* The RDMA port a netdev belongs to, from the host model. */
static void rdma_port_of(struct ui *ui, const char *ifname, char *buf, size_t size)
{
	snprintf(buf, size, "-");
	for (size_t i = 0; i < ui->live.host.ndevs; i++)
		for (size_t j = 0; j < ui->live.host.devs[i].nports; j++) {
			const struct fab_port *p = &ui->live.host.devs[i].ports[j];

			for (unsigned int k = 0; k < p->nnetdevs; k++)
				if (!strcmp(p->netdevs[k].name, ifname)) {
					snprintf(buf, size, "%s/%u", ui->live.host.devs[i].name, p->num);
					return;
				}
		}
}

static void net_build(struct ui *ui, struct table *t)
{
	if (!ui->live.net_ok)
		return;
	for (size_t i = 0; i < ui->live.net.nlinks; i++) {
		const struct net_link *l = &ui->live.net.links[i];
		const struct net_if_sysctls *sc = net_sysctls_of(&ui->live.net, l->name);
		const struct doctor_finding *f = ui->live.doctor_ok ? doctor_find(&ui->live.doctor, l->name) : NULL;
		struct table_row *r;
		char port[2 * FAB_NAME_LEN], addrs[TABLE_CELL_LEN] = "";
		size_t off = 0;

		if (!l->rdma)
			continue;
		r = table_add(t, "%s", l->name);
		if (!r)
			return;
		rdma_port_of(ui, l->name, port, sizeof(port));
		table_cell(r, C_IFACE, 0, "%s", l->name);
		table_cell(r, C_PORT, 0, "%s", port);
		table_cell(r, C_STATE, l->operstate == IF_OPER_UP ? ROLE_OK : ROLE_BAD, "%s",
			   net_operstate_str(l->operstate));
		if (l->mtu) {
			table_cell(r, C_MTU, 0, "%u", l->mtu);
			table_cell_num(r, C_MTU, l->mtu);
		} else {
			table_cell(r, C_MTU, ROLE_DIM, "-");
		}
		table_cell(r, C_MODE, 0, "%s", l->ipoib_mode != NET_IPOIB_NONE ? net_ipoib_mode_str(l->ipoib_mode) : "-");
		if (l->ipoib_pkey >= 0)
			table_cell(r, C_PKEY, 0, "0x%04x", (unsigned int)l->ipoib_pkey & 0xffff);
		else
			table_cell(r, C_PKEY, ROLE_DIM, "-");
		sysctl_cell(r, C_RP, sc, NET_SYSCTL_RP_FILTER);
		sysctl_cell(r, C_ARPI, sc, NET_SYSCTL_ARP_IGNORE);
		sysctl_cell(r, C_ARPA, sc, NET_SYSCTL_ARP_ANNOUNCE);
		sysctl_cell(r, C_ACCL, sc, NET_SYSCTL_ACCEPT_LOCAL);
		for (size_t a = 0; a < ui->live.net.naddrs && off < sizeof(addrs); a++) {
			const struct net_addr *ad = &ui->live.net.addrs[a];
			char ip[64];
			int n;

			if (ad->ifindex != l->ifindex || ad->local.family != AF_INET)
				continue;
			n = snprintf(addrs + off, sizeof(addrs) - off, "%s%s/%u", off ? " " : "",
				     net_ip_str(&ad->local, ip, sizeof(ip)), ad->prefixlen);
			if (n < 0)
				break;
			off += (size_t)n;
		}
		table_cell(r, C_ADDRS, 0, "%s", addrs[0] ? addrs : "no IPv4 address");
		if (f && f->severity == DOCTOR_ERROR)
			r->role = ROLE_BAD;
		else if (f && f->severity == DOCTOR_WARNING)
			r->role = ROLE_WARN;
	}
}

/* Routes (minus the local table's host/broadcast entries) and rules under the table. */
static void net_draw(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	struct table *t = ui_table(ui);
	struct table_draw_opts o = { .utf8 = ui->utf8, .focused = true };
	int th = (int)t->nview + 1, y;
	bool on = false;
	unsigned int hidden = 0;

	if (!t->nview) {
		th = views_draw_empty(ui, w, r);
	} else {
		if (th > r.h / 2 && r.h >= 8)
			th = r.h / 2;
		if (th > r.h)
			th = r.h;
		table_draw(t, w, r.y, r.x, th, r.w, &o);
	}
	y = r.y + th + 1;
	for (size_t i = 0; i < ui->net_text.n; i++) {
		const char *l = ui->net_text.lines[i].s;
		int role = 0;

		if (!strncmp(l, "Routes", 6))
			on = true;
		if (!on)
			continue;
		if (strstr(l, " table local ")) {
			hidden++;
			continue;
		}
		if (l[0] != ' ')
			role = ROLE_HEADING;
		if (y < r.y + r.h)
			ui_puts(w, y++, r.x, r.w, theme_attr(role), l);
	}
	if (hidden && y < r.y + r.h) {
		char buf[96];

		snprintf(buf, sizeof(buf), "  (%u routes of the local table not shown; Enter on a netdev shows them)", hidden);
		ui_puts(w, y, r.x, r.w, theme_attr(ROLE_DIM), buf);
	}
}

/* Is name a whole word of line (so ib1 does not match ib10)? */
static bool has_word(const char *line, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(line, name); p; p = strstr(p + 1, name)) {
		bool start = p == line || !((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.');
		char e = p[n];
		bool end = !((e >= 'a' && e <= 'z') || (e >= '0' && e <= '9') || e == '.');

		if (start && end)
			return true;
	}
	return false;
}

static void net_details(struct ui *ui, const char *key, struct text *out)
{
	bool in_dev = false;

	if (!ui->live.net_ok || !net_link_by_name(&ui->live.net, key)) {
		text_add(out, ROLE_WARN, "%s: this interface is gone.", key);
		return;
	}
	text_add(out, ROLE_HEADING, "%s", key);
	if (ui_simulated(ui))
		text_add(out, ROLE_DIM, "  from the demo fabric's simulated network (demo_net())");
	else if (ui_recorded(ui))
		text_add(out, ROLE_DIM, "  from the recording (the network state as it was recorded)");
	else
		text_add(out, ROLE_DIM, "  from rtnetlink (links, addresses, routes, rules) and %s/sys/net/ipv4/conf/",
			 ui->ctx->proc_root);
	/* The netdev's own block of the report, then every route and rule line naming it. */
	for (size_t i = 0; i < ui->net_text.n; i++) {
		const char *l = ui->net_text.lines[i].s;

		if (!strncmp(l, "  ", 2) && l[2] != ' ')
			in_dev = has_word(l, key) && strstr(l, "(") && !strstr(l, " dev ");
		if (in_dev)
			text_add(out, 0, "%s", l);
	}
	text_add(out, ROLE_HEADING, "Routes and rules naming %s (all tables)", key);
	for (size_t i = 0; i < ui->net_text.n; i++) {
		const char *l = ui->net_text.lines[i].s;

		if (strstr(l, " dev ") && has_word(l, key))
			text_add(out, 0, "%s", l);
	}
	if (ui->live.doctor_ok) {
		text_add(out, ROLE_HEADING, "Doctor findings about %s", key);
		for (size_t i = 0; i < ui->live.doctor.nfindings; i++) {
			const struct doctor_finding *f = &ui->live.doctor.findings[i];

			if (strcmp(f->ifname, key))
				continue;
			text_add(out, f->severity == DOCTOR_ERROR ? ROLE_BAD : ROLE_WARN, "  [%s] %s",
				 doctor_severity_str(f->severity), f->title);
		}
	}
}

static const char *net_empty(struct ui *ui)
{
	static char msg[256];

	if (ui->live.net_after_fill) {
		snprintf(msg, sizeof(msg), "The network state is read once the GID tables are in (%s).",
			 ui_loading(ui) ? ui_loading(ui) : "");
		return msg;
	}
	if (!ui->live.net_ok) {
		snprintf(msg, sizeof(msg), "The network state could not be read: %s.",
			 strerror(ui->live.net_err < 0 ? -ui->live.net_err : ui->live.net_err));
		return msg;
	}
	if (ui_table(ui)->filter[0])
		return "No netdev matches the filter (Esc clears it).";
	return "No RDMA netdev in this network namespace (see the GIDs and Ports panes for netdevs elsewhere).";
}

const struct ui_view view_net = {
	.id = "net",
	.title = "Network",
	.tab = "Net",
	.cols = net_cols,
	.ncols = NCOLS,
	.default_sort = C_IFACE,
	.build = net_build,
	.draw = net_draw,
	.details = net_details,
	.empty = net_empty,
};
