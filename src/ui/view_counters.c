// SPDX-License-Identifier: GPL-2.0-or-later
/* The Counters pane: live rates per port, error deltas that light up, history graphs. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "derive/counters.h"
#include "derive/units.h"
#include "ui/widget/graph.h"
#include "ui/mad_ui.h"
#include "ui/views.h"
#include "ui/widget/theme.h"
#include "util.h"

enum {
	C_DEV, C_PORT, C_STATE, C_IN, C_OUT, C_INP, C_OUTP, C_ERRI, C_ERRT, C_FAR, C_HIST, NCOLS
};

static const struct table_col counters_cols[NCOLS] = {
	[C_DEV]   = { .title = "DEVICE",   .width = 10, .prio = 0 },
	[C_PORT]  = { .title = "PORT",     .width = 4,  .prio = 0, .right = true, .numeric = true },
	[C_STATE] = { .title = "STATE",    .width = 7,  .prio = 3 },
	[C_IN]    = { .title = "IN",       .width = 10, .prio = 0, .right = true, .numeric = true },
	[C_OUT]   = { .title = "OUT",      .width = 10, .prio = 0, .right = true, .numeric = true },
	[C_INP]   = { .title = "IN PKT/S", .width = 9,  .prio = 4, .right = true, .numeric = true },
	[C_OUTP]  = { .title = "OUT PKT/S", .width = 9, .prio = 4, .right = true, .numeric = true },
	[C_ERRI]  = { .title = "ERR/INT",  .width = 7,  .prio = 1, .right = true, .numeric = true },
	[C_ERRT]  = { .title = "ERRORS",   .width = 8,  .prio = 2, .right = true, .numeric = true },
	/* the link partner through MADs (mad_ui.c); dropped first on narrow screens */
	[C_FAR]   = { .title = "FAR END",  .width = 14, .prio = 6 },
	[C_HIST]  = { .title = "HISTORY",  .width = 12, .prio = 5, .spark = true, .flex = true },
};

/* Why a rate is not shown: the counter is missing, saturated, unreadable or new. */
static void rate_unknown(struct table_row *r, int col, const struct fab_counter *c)
{
	if (!c)
		table_cell(r, col, ROLE_DIM, "n/a");
	else if (c->saturated || c->prev_saturated)
		table_cell(r, col, ROLE_BAD, "saturated");
	else if (!c->known)
		table_cell(r, col, ROLE_DIM, "n/a");
	else
		table_cell(r, col, ROLE_DIM, "-");
}

static void trim_right(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
}

/* Load colour: share of the link's rate. */
static int load_role(double gbps, const struct fab_port *p)
{
	if (!p->rate_known || p->rate_gbps <= 0)
		return 0;
	if (gbps >= 0.9 * p->rate_gbps)
		return ROLE_BAD;
	if (gbps >= 0.5 * p->rate_gbps)
		return ROLE_WARN;
	return ROLE_OK;
}

static void rate_cell(struct table_row *r, int col, bool known, double gbps,
		      const struct fab_counter *c, const struct fab_port *p)
{
	char buf[32];

	if (!known) {
		rate_unknown(r, col, c);
		return;
	}
	units_bitrate(buf, sizeof(buf), gbps * 1e9);
	table_cell(r, col, load_role(gbps, p), "%s", buf);
	table_cell_num(r, col, gbps);
}

static void pps_cell(struct table_row *r, int col, bool known, double pps, const struct fab_counter *c)
{
	char buf[32];

	if (!known) {
		rate_unknown(r, col, c);
		return;
	}
	units_si(buf, sizeof(buf), pps, "");
	trim_right(buf);
	table_cell(r, col, 0, "%s", buf);
	table_cell_num(r, col, pps);
}

static void counters_build(struct ui *ui, struct table *t)
{
	/* The first time, select a port that has traffic counters, so its graph shows at once. */
	if (!t->sel_key[0])
		for (size_t i = 0; i < ui->live.host.ndevs && !t->sel_key[0]; i++)
			for (size_t j = 0; j < ui->live.host.devs[i].nports; j++)
				if (port_data_counter(&ui->live.host.devs[i].ports[j], DIR_RCV) &&
				    ui->live.host.devs[i].ports[j].has_pma) {
					snprintf(t->sel_key, sizeof(t->sel_key), "%s/%u", ui->live.host.devs[i].name,
						 ui->live.host.devs[i].ports[j].num);
					break;
				}
	for (size_t i = 0; i < ui->live.host.ndevs; i++) {
		struct fab_device *d = &ui->live.host.devs[i];

		for (size_t j = 0; j < d->nports; j++) {
			struct fab_port *p = &d->ports[j];
			struct track_port *tp = track_find(&ui->live.track, d->name, p->num);
			struct table_row *r = table_add(t, "%s/%u", d->name, p->num);
			struct port_rates pr;

			if (!r)
				return;
			port_rates(p, &pr);
			table_cell(r, C_DEV, 0, "%s", d->name);
			table_cell(r, C_PORT, 0, "%u", p->num);
			table_cell_num(r, C_PORT, p->num);
			table_cell(r, C_STATE, views_state_role(p), "%s",
				   p->state_raw[0] ? fab_port_state_str(p->state) : "-");
			rate_cell(r, C_IN, pr.rcv_known, pr.rcv_gbps, port_data_counter(p, DIR_RCV), p);
			rate_cell(r, C_OUT, pr.xmit_known, pr.xmit_gbps, port_data_counter(p, DIR_XMIT), p);
			pps_cell(r, C_INP, pr.rcv_pkts_known, pr.rcv_pps, port_packets_counter(p, DIR_RCV));
			pps_cell(r, C_OUTP, pr.xmit_pkts_known, pr.xmit_pps, port_packets_counter(p, DIR_XMIT));
			if (tp && tp->err_interval_known) {
				table_cell(r, C_ERRI, tp->err_interval ? ROLE_BAD : 0, "%" PRIu64, tp->err_interval);
				table_cell_num(r, C_ERRI, (double)tp->err_interval);
			} else {
				table_cell(r, C_ERRI, ROLE_DIM, "-");
			}
			if (tp && tp->err_total_known) {
				table_cell(r, C_ERRT, tp->err_total ? ROLE_WARN : 0, "%" PRIu64, tp->err_total);
				table_cell_num(r, C_ERRT, (double)tp->err_total);
			} else {
				table_cell(r, C_ERRT, ROLE_DIM, "-");
			}
			{
				char far[TABLE_CELL_LEN];
				bool moving;

				if (mad_ui_far_cell(&ui->live, d->name, p->num, far, sizeof(far), &moving))
					table_cell(r, C_FAR, moving ? ROLE_BAD : 0, "%s", far);
				else
					table_cell(r, C_FAR, ROLE_DIM, "-");
			}
			r->spark = tp ? tp->hist : NULL;
			r->role = views_err_role(ui, tp);
		}
	}
}

/* Order of the per-port list: errors first, then congestion, traffic, the rest. */
static const enum fab_counter_kind list_order[] = {
	COUNTER_KIND_ERROR, COUNTER_KIND_WAIT, COUNTER_KIND_DATA, COUNTER_KIND_PACKETS, COUNTER_KIND_OTHER,
};

static void value_str(const struct fab_counter *c, char *buf, size_t size)
{
	if (c->saturated)
		snprintf(buf, size, "saturated");
	else if (c->known)
		snprintf(buf, size, "%" PRIu64, c->value);
	else
		snprintf(buf, size, "%s", c->raw[0] ? c->raw : "unreadable");
}

/* An exact number when it fits, else three significant digits with an SI prefix. */
static void fit_num(char *buf, size_t size, uint64_t v, int width)
{
	snprintf(buf, size, "%" PRIu64, v);
	if ((int)strlen(buf) > width) {
		units_si(buf, size, (double)v, "");
		trim_right(buf);
	}
}

static void counter_list(struct ui *ui, WINDOW *w, struct ui_rect r, struct fab_port *p,
			 const struct track_port *tp)
{
	/* Widths: value up to 20 digits, deltas 10; the name takes what is left. */
	int vw = 12, dw = r.w >= 60 ? 10 : 8, namew = r.w - vw - 2 * dw - 3, y = r.y;

	if (r.h < 2 || r.w < 20)
		return;
	if (namew < 10) {
		namew = 10;
		dw = (r.w - namew - vw - 3) / 2;
		if (dw < 5)
			dw = 5;
	}
	wattrset(w, theme_attr(ROLE_COL_HEADER));
	mvwhline(w, y, r.x, ' ', r.w);
	mvwprintw(w, y, r.x, "%-*.*s %*s %*s %*s", namew, namew, "COUNTER", vw, "VALUE", dw, "D/INT", dw, "D/START");
	y++;
	if (!p->ncounters) {
		ui_puts(w, y, r.x, r.w, theme_attr(ROLE_DIM), "no counters under this port");
		return;
	}
	for (size_t o = 0; o < ARRAY_SIZE(list_order); o++)
		for (size_t k = 0; k < p->ncounters && y < r.y + r.h; k++) {
			struct fab_counter *c = &p->counters[k];
			char val[64], di[24] = "-", ds[24] = "-", line[256];
			uint64_t d, moved = tp ? track_err_moved(tp, c) : 0;
			int role = 0;

			if (c->kind != list_order[o])
				continue;
			if (c->known && !c->saturated)
				fit_num(val, sizeof(val), c->value, vw);
			else
				value_str(c, val, sizeof(val));
			if (counter_delta(c, &d))
				fit_num(di, sizeof(di), d, dw);
			if (counter_delta_since_start(c, &d))
				fit_num(ds, sizeof(ds), d, dw);
			if (c->saturated)
				role = ROLE_BAD;
			else if (!c->known)
				role = ROLE_DIM;
			if (c->kind == COUNTER_KIND_ERROR && moved) {
				if (moved == ui->live.last_sample_ns)
					role = ROLE_ERR_MOVING;
				else if (ui->live.last_sample_ns - moved < 10ull * 1000000000ull)
					role = ROLE_ERR_FADING;
			}
			snprintf(line, sizeof(line), "%-*.*s %*.*s %*s %*s", namew, namew, c->name, vw, vw, val,
				 dw, di, dw, ds);
			ui_puts(w, y++, r.x, r.w, theme_attr(role), line);
		}
}

static const char *window_name(unsigned int s)
{
	return s >= 3600 ? "1 h" : s >= 600 ? "10 min" : "1 min";
}

/* One direction's graph with its peak as the scale on the left. */
static void graph_one(struct ui *ui, WINDOW *w, struct ui_rect r, const char *label,
		      const float *vals, const bool *known, int n, int role)
{
	double max = 0;
	char peak[32], top[40];
	int lw = 10;

	if (r.h <= 0 || r.w <= lw + 2)
		return;
	for (int c = 0; c < n; c++)
		if (known[c] && vals[c] > max)
			max = vals[c];
	units_bitrate(peak, sizeof(peak), max * 1e9);
	snprintf(top, sizeof(top), "%s", peak);
	ui_puts(w, r.y, r.x, lw, theme_attr(role) | A_BOLD, label);
	if (r.h > 1)
		ui_puts(w, r.y + 1, r.x, lw, theme_attr(ROLE_DIM), top);
	else
		ui_puts(w, r.y, r.x + 4, lw - 4, theme_attr(ROLE_DIM), top);
	wattrset(w, theme_attr(role));
	graph_bars(w, r.y, r.x + lw, r.h, n, vals, known, max, ui->utf8);
	wattrset(w, A_NORMAL);
}

#define GRAPH_COLS 512

/* Long: the table, the graph and the far-end block laid out in one body, each given the space left. */
static void counters_draw(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	struct table *t = ui_table(ui);
	struct table_draw_opts o = {
		.utf8 = ui->utf8, .window_s = ui_windows_s[ui->window],
		.now_ns = ui->live.last_sample_ns, .focused = true,
	};
	const struct table_row *sel;
	struct fab_device *d = NULL;
	struct fab_port *p;
	struct track_port *tp;
	int th, gy, gh, gw, lw;
	char title[256], in[32], out[32];

	if (!t->nview) {
		views_draw_empty(ui, w, r);
		return;
	}
	if (r.h < 10) {
		table_draw(t, w, r.y, r.x, r.h, r.w, &o);
		return;
	}
	/* The table gets what its rows need, up to half; the selected port the rest. */
	th = (int)t->nview + 1;
	if (th > r.h / 2)
		th = r.h / 2;
	if (th < 3)
		th = 3;
	table_draw(t, w, r.y, r.x, th, r.w, &o);
	sel = table_selected(t);
	p = sel ? views_port_of_key(ui, sel->key, &d) : NULL;
	if (!p)
		return;
	tp = track_find(&ui->live.track, d->name, p->num);
	gy = r.y + th;
	gh = r.h - th - 1;
	{
		struct port_rates pr;

		port_rates(p, &pr);
		snprintf(title, sizeof(title), " %s/%u  %s  in %s  out %s   window %s (w) ",
			 d->name, p->num, p->rate[0] ? p->rate : "rate unknown",
			 pr.rcv_known ? units_bitrate(in, sizeof(in), pr.rcv_gbps * 1e9) : "n/a",
			 pr.xmit_known ? units_bitrate(out, sizeof(out), pr.xmit_gbps * 1e9) : "n/a",
			 window_name(ui_windows_s[ui->window]));
	}
	wattrset(w, theme_attr(ROLE_BORDER));
	mvwhline(w, gy, r.x, ui->utf8 ? ACS_HLINE : '-', r.w);
	ui_puts(w, gy, r.x + 1, r.w - 2, theme_attr(ROLE_HEADING), title);
	gy++;
	/* The other end of the cable (MADs), under the graphs when there is room. */
	{
		int fh = mad_ui_far_height(ui, d->name, p->num);

		if (fh && gh - fh >= 3) {
			mad_ui_far_draw(ui, w, (struct ui_rect){ gy + gh - fh, r.x, fh, r.w }, d->name, p->num);
			gh -= fh;
		}
	}
	/* Narrow screens give the counter list more room than the graph. */
	gw = r.w >= 120 ? r.w / 2 : r.w >= 70 ? r.w * 2 / 5 : r.w;
	lw = 10;
	if (tp && gw > lw + 4) {
		static float vin[GRAPH_COLS], vout[GRAPH_COLS];
		static bool kn[GRAPH_COLS];
		int n = gw - lw - 1;
		int axis = gh >= 8;	/* a time axis under the graphs when there is room */
		struct ui_rect gi = { gy, r.x, (gh - axis) / 2, gw - 1 };
		struct ui_rect go = { gy + gi.h, r.x, gh - axis - gi.h, gw - 1 };

		if (n > GRAPH_COLS)
			n = GRAPH_COLS;
		if (axis && n >= 12) {
			char left[16];
			int ay = gy + gh - 1;

			snprintf(left, sizeof(left), "-%s", window_name(ui_windows_s[ui->window]));
			ui_puts(w, ay, r.x + lw, n, theme_attr(ROLE_DIM), left);
			ui_puts(w, ay, r.x + lw + n - 3, 3, theme_attr(ROLE_DIM), "now");
		}
		if (tp->hist && hist_series(tp->hist, ui_windows_s[ui->window], ui->live.last_sample_ns, n, vin, vout, kn)) {
			graph_one(ui, w, gi, "in", vin, kn, n, ROLE_GRAPH_IN);
			graph_one(ui, w, go, "out", vout, kn, n, ROLE_GRAPH_OUT);
		} else {
			ui_puts(w, gy, r.x, gw - 1, theme_attr(ROLE_DIM),
				p->has_pma ? "collecting history..." : "no traffic counters on this port (no PMA)");
		}
	}
	if (gw < r.w) {
		struct ui_rect lr = { gy, r.x + gw, gh, r.w - gw };

		counter_list(ui, w, lr, p, tp);
	}
}

static void counters_details(struct ui *ui, const char *key, struct text *out)
{
	struct fab_device *d = NULL;
	struct fab_port *p = views_port_of_key(ui, key, &d);
	struct track_port *tp;
	char origin[512];

	if (!p) {
		text_add(out, ROLE_WARN, "%s: this port is gone (device removed or renamed).", key);
		return;
	}
	tp = track_find(&ui->live.track, d->name, p->num);
	views_origin(ui, d, origin, sizeof(origin));
	text_add(out, ROLE_HEADING, "Counters of %s/%u", d->name, p->num);
	text_add(out, ROLE_DIM, "  from %s/ports/%u/{counters,counters_ext,hw_counters,cm_*}/", origin, p->num);
	text_add(out, ROLE_DIM, "  data counters count 4-octet words: bytes = value x 4 (whatever the link width)");
	if (!p->has_pma)
		text_add(out, ROLE_WARN, "  no PMA counters: traffic rates are unknown on this port");
	{
		uint64_t bx, br;
		char xb[32], rb[32];

		text_add(out, 0, "  xmit %s, rcv %s since the counters were cleared",
			 port_bytes(p, DIR_XMIT, &bx) ? units_bytes(xb, sizeof(xb), bx) : "unknown",
			 port_bytes(p, DIR_RCV, &br) ? units_bytes(rb, sizeof(rb), br) : "unknown");
	}
	if (tp)
		text_add(out, 0, "  errors: %" PRIu64 " in the last interval, %" PRIu64 " since start (r resets)",
			 tp->err_interval, tp->err_total);
	text_add(out, 0, "  %-32s %-12s %4s %-20s %10s %10s %12s", "COUNTER", "SOURCE", "BITS", "RAW",
		 "D/INT", "D/START", "PER SECOND");
	for (size_t k = 0; k < p->ncounters; k++) {
		const struct fab_counter *c = &p->counters[k];
		uint64_t dt = p->prev_sample_ns && p->sample_ns > p->prev_sample_ns ?
			      p->sample_ns - p->prev_sample_ns : 0;
		int role = c->saturated ? ROLE_BAD : !c->known ? ROLE_DIM : 0;
		struct counter_cells cc;

		views_counter_cells(c, dt, &cc);
		text_add(out, role, "  %-32s %-12s %4u %-20s %10s %10s %12s%s", c->name,
			 fab_counter_source_str(c->source), c->bits, c->raw[0] ? c->raw : "(unreadable)",
			 cc.interval, cc.since_start, cc.rate, c->saturated ? "  SATURATED: latched at all-ones, true value unknown" : "");
	}
	/* The other end of the cable and the PMA of both ends, when MADs can be sent. */
	mad_ui_details(ui, d->name, p->num, out);
}

static const char *counters_empty(struct ui *ui)
{
	if (!ui->live.host.ndevs)
		return views_no_devices(ui);
	return "No port matches the filter (Esc clears it).";
}

const struct ui_view view_counters = {
	.id = "counters",
	.port_rows = true,
	.title = "Counters",
	.tab = "Ctrs",
	.cols = counters_cols,
	.ncols = NCOLS,
	.default_sort = C_DEV,
	.default_desc = false,
	.build = counters_build,
	.draw = counters_draw,
	.details = counters_details,
	.empty = counters_empty,
};
