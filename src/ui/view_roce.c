// SPDX-License-Identifier: GPL-2.0-or-later
/* The RoCE pane: per RoCE port and priority, PFC, where RDMA lands, pause, ECN/CNP and drops as rates. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive/roce_check.h"
#include "derive/roce_ctr.h"
#include "ui/views.h"
#include "ui/widget/theme.h"
#include "util.h"

enum { C_PORT, C_NETDEV, C_PRIO, C_PFC, C_RDMA, C_RXP, C_TXP, C_PAUSED, C_ECN, C_CNPS, C_CNPH, C_OOB,
       C_SEQ, C_SPARK, NCOLS };

static const struct table_col roce_cols[NCOLS] = {
	[C_PORT]   = { .title = "PORT",       .width = 10, .prio = 0 },
	[C_NETDEV] = { .title = "NETDEV",     .width = 10, .prio = 1 },
	[C_PRIO]   = { .title = "PRIO",       .width = 4,  .prio = 0, .right = true, .numeric = true },
	[C_PFC]    = { .title = "PFC",        .width = 3,  .prio = 0 },
	[C_RDMA]   = { .title = "RDMA",       .width = 8,  .prio = 0 },
	[C_RXP]    = { .title = "RX PAUSE/s", .width = 10, .prio = 1, .right = true, .numeric = true },
	[C_TXP]    = { .title = "TX PAUSE/s", .width = 10, .prio = 1, .right = true, .numeric = true },
	[C_PAUSED] = { .title = "PAUSED",     .width = 11, .prio = 0, .right = true, .numeric = true },
	[C_ECN]    = { .title = "ECN/s",      .width = 8,  .prio = 2, .right = true, .numeric = true },
	[C_CNPS]   = { .title = "CNP SENT/s", .width = 10, .prio = 2, .right = true, .numeric = true },
	[C_CNPH]   = { .title = "CNP HNDL/s", .width = 10, .prio = 2, .right = true, .numeric = true },
	[C_OOB]    = { .title = "OOB/s",      .width = 8,  .prio = 2, .right = true, .numeric = true },
	[C_SEQ]    = { .title = "SEQERR/s",   .width = 8,  .prio = 3, .right = true, .numeric = true },
	[C_SPARK]  = { .title = "PAUSED RX/TX", .width = 14, .prio = 4, .spark = true, .flex = true },
};

#define ROCE_PANE_ROWS 64

/* Each row's history of paused shares (rx "in", tx "out", percent), kept across samples. */
struct roce_pane {
	struct {
		char key[TABLE_KEY_LEN];
		struct hist h;
		uint64_t last_t;
	} rows[ROCE_PANE_ROWS];
	size_t nrows;
};

static void *roce_create(struct ui *ui)
{
	return calloc(1, sizeof(struct roce_pane));
}

static void roce_destroy(void *state)
{
	free(state);
}

static struct hist *row_hist(struct roce_pane *st, const char *key, uint64_t t, bool *fresh)
{
	for (size_t i = 0; i < st->nrows; i++)
		if (!strcmp(st->rows[i].key, key)) {
			*fresh = st->rows[i].last_t != t;
			st->rows[i].last_t = t;
			return &st->rows[i].h;
		}
	if (st->nrows >= ROCE_PANE_ROWS)
		return NULL;
	snprintf(st->rows[st->nrows].key, TABLE_KEY_LEN, "%s", key);
	hist_init(&st->rows[st->nrows].h);
	st->rows[st->nrows].last_t = t;
	*fresh = true;
	return &st->rows[st->nrows++].h;
}

static const struct roce_port *prev_of(struct ui *ui, const struct roce_port *b)
{
	for (size_t i = 0; i < ui->live.roce_prev.nports; i++)
		if (!strcmp(ui->live.roce_prev.ports[i].dev, b->dev) && ui->live.roce_prev.ports[i].port == b->port)
			return &ui->live.roce_prev.ports[i];
	return NULL;
}

/* A rate cell: "-" when unknown; *v the number for sorting. */
static void rate_cell(struct table_row *r, int col, const struct roce_ctr *a, const struct roce_ctr *b, double dt,
		      bool bad_when_moving)
{
	double v;

	if (!a || dt <= 0 || !a->known || !b->known || b->value < a->value) {
		table_cell(r, col, ROLE_DIM, "-");
		return;
	}
	v = (double)(b->value - a->value) / dt;
	table_cell(r, col, bad_when_moving && v > 0 ? ROLE_BAD : 0, "%.0f", v);
	table_cell_num(r, col, v);
}

static bool prio_shown(const struct roce_port *b, const struct roce_tc *tc, int p)
{
	if (tc->prio == p || (b->dcb.has_pfc && (b->dcb.pfc_en & (1u << p))))
		return true;
	for (int k = 0; k < ROCE_PRIO_NCTRS; k++)
		if (b->eth.prio[k][p].known && b->eth.prio[k][p].value)
			return true;
	return false;
}

static void roce_build(struct ui *ui, struct table *t)
{
	int me = views_find(ui, "roce");
	struct roce_pane *st = me >= 0 ? ui->pane_state[me] : NULL;
	double dt = ui->live.roce.t_ns > ui->live.roce_prev.t_ns && ui->live.roce_prev.nports ?
		(double)(ui->live.roce.t_ns - ui->live.roce_prev.t_ns) / 1e9 : 0;

	for (size_t i = 0; i < ui->live.roce.nports; i++) {
		const struct roce_port *b = &ui->live.roce.ports[i], *a = prev_of(ui, b);
		struct roce_tc tc;
		bool first = true, any = false;

		roce_tc_of(b, &tc);
		for (int p = 0; p < ROCE_PRIOS; p++)
			any |= prio_shown(b, &tc, p);
		for (int p = 0; p < ROCE_PRIOS; p++) {
			bool rdma = tc.prio == p, cc_row, fresh = false;
			struct table_row *r;
			double rx, tx;

			/* a port with no priority to show still gets one row (0), for its congestion counters */
			if (any ? !prio_shown(b, &tc, p) : p > 0)
				continue;
			cc_row = rdma || (tc.prio < 0 && first);
			r = table_add(t, "%s/%u/%d", b->dev, b->port, p);
			if (!r)
				return;
			first = false;
			table_cell(r, C_PORT, 0, "%s/%u", b->dev, b->port);
			table_cell(r, C_NETDEV, b->netdev[0] ? 0 : ROLE_DIM, "%s", b->netdev[0] ? b->netdev : "-");
			table_cell(r, C_PRIO, 0, "%d", p);
			table_cell_num(r, C_PRIO, p);
			if (b->dcb.has_pfc)
				table_cell(r, C_PFC, rdma && !(b->dcb.pfc_en & (1u << p)) ? ROLE_BAD : 0, "%s",
					   b->dcb.pfc_en & (1u << p) ? "on" : "off");
			else
				table_cell(r, C_PFC, ROLE_DIM, "-");
			if (rdma)
				table_cell(r, C_RDMA, 0, "DSCP %d", tc.dscp);
			else
				table_cell(r, C_RDMA, ROLE_DIM, "%s", "");
			rate_cell(r, C_RXP, a ? &a->eth.prio[ROCE_PRIO_RX_PAUSE][p] : NULL,
				  &b->eth.prio[ROCE_PRIO_RX_PAUSE][p], dt, false);
			rate_cell(r, C_TXP, a ? &a->eth.prio[ROCE_PRIO_TX_PAUSE][p] : NULL,
				  &b->eth.prio[ROCE_PRIO_TX_PAUSE][p], dt, false);
			rx = a && dt > 0 ? roce_pause_share(&a->eth.prio[ROCE_PRIO_RX_PAUSE_US][p],
							     &b->eth.prio[ROCE_PRIO_RX_PAUSE_US][p], dt) : -1;
			tx = a && dt > 0 ? roce_pause_share(&a->eth.prio[ROCE_PRIO_TX_PAUSE_US][p],
							     &b->eth.prio[ROCE_PRIO_TX_PAUSE_US][p], dt) : -1;
			if (rx >= 0 || tx >= 0) {
				double m = rx > tx ? rx : tx;

				table_cell(r, C_PAUSED, m >= ROCE_PAUSE_STORM_SHARE ? ROLE_BAD : m > 0.2 ? ROLE_WARN : 0,
					   "%.0f%%/%.0f%%", 100 * (rx < 0 ? 0 : rx), 100 * (tx < 0 ? 0 : tx));
				table_cell_num(r, C_PAUSED, m);
			} else {
				table_cell(r, C_PAUSED, ROLE_DIM, "-");
			}
			rate_cell(r, C_ECN, a ? (cc_row ? &a->cc[ROCE_CC_ECN_MARKED] : &a->eth.prio[ROCE_PRIO_RX_ECN_MARKED][p]) : NULL,
				  cc_row ? &b->cc[ROCE_CC_ECN_MARKED] : &b->eth.prio[ROCE_PRIO_RX_ECN_MARKED][p], dt, false);
			if (cc_row) {
				rate_cell(r, C_CNPS, a ? &a->cc[ROCE_CC_CNP_SENT] : NULL, &b->cc[ROCE_CC_CNP_SENT], dt, false);
				rate_cell(r, C_CNPH, a ? &a->cc[ROCE_CC_CNP_HANDLED] : NULL, &b->cc[ROCE_CC_CNP_HANDLED], dt, false);
				rate_cell(r, C_OOB, a ? &a->cc[ROCE_CC_OUT_OF_BUFFER] : NULL, &b->cc[ROCE_CC_OUT_OF_BUFFER], dt, true);
				rate_cell(r, C_SEQ, a ? &a->cc[ROCE_CC_OUT_OF_SEQUENCE] : NULL,
					  &b->cc[ROCE_CC_OUT_OF_SEQUENCE], dt, true);
			} else {
				table_cell(r, C_CNPS, ROLE_DIM, "%s", "");
				table_cell(r, C_CNPH, ROLE_DIM, "%s", "");
				table_cell(r, C_OOB, ROLE_DIM, "%s", "");
				table_cell(r, C_SEQ, ROLE_DIM, "%s", "");
			}
			if (st) {
				struct hist *h = row_hist(st, r->key, ui->live.roce.t_ns, &fresh);

				if (h && fresh && dt > 0 && (rx >= 0 || tx >= 0))
					hist_add(h, ui->live.roce_prev.t_ns, ui->live.roce.t_ns, rx < 0 ? 0 : 100 * rx, tx < 0 ? 0 : 100 * tx);
				r->spark = h;
			}
			if (rdma && b->dcb.has_pfc && !(b->dcb.pfc_en & (1u << p)))
				r->role = ROLE_WARN;
		}
	}
}

static void roce_details(struct ui *ui, const char *key, struct text *out)
{
	struct doctor_finding fs[16];
	size_t nfs;

	for (size_t i = 0; i < ui->live.roce.nports; i++) {
		const struct roce_port *b = &ui->live.roce.ports[i];
		char pre[96];
		struct roce_tc tc;

		snprintf(pre, sizeof(pre), "%s/%u/", b->dev, b->port);
		if (strncmp(key, pre, strlen(pre)))
			continue;
		roce_tc_of(b, &tc);
		text_add(out, ROLE_HEADING, "RoCE chain of %s port %u (netdev %s)", b->dev, b->port,
			 b->netdev[0] ? b->netdev : "-");
		if (b->dcb.err)
			text_add(out, ROLE_WARN, "  DCB: %s", roce_dcb_err_str(b->dcb.err));
		else
			text_add(out, 0, "  DCB (RTM_GETDCB IEEE): PFC bits %#04x, %u APP entries%s", b->dcb.pfc_en,
				 b->dcb.napps, b->dcb.has_trust ? ", trust order set" : "");
		for (unsigned int k = 0; k < b->dcb.napps && k < ROCE_MAX_APPS; k++)
			if (b->dcb.apps[k].selector == ROCE_APP_SEL_DSCP)
				text_add(out, 0, "    APP DSCP %u -> priority %u", b->dcb.apps[k].protocol, b->dcb.apps[k].priority);
		if (b->tos.known)
			text_add(out, 0, "  rdma_cm configfs ports/%u/default_roce_tos %u: DSCP %d%s", b->port, b->tos.value,
				 tc.dscp, tc.prio >= 0 ? "" : " (no APP entry: priority unknown)");
		else
			text_add(out, ROLE_DIM, "  rdma_cm default_roce_tos unknown (configfs rdma_cm not mounted?)");
		if (b->ecn.known) {
			char np[40] = "", rp[40] = "";
			size_t o1 = 0, o2 = 0;

			for (int p = 0; p < ROCE_PRIOS; p++) {
				if (b->ecn.np_known[p] && b->ecn.np[p] && o1 < sizeof(np))
					o1 += (size_t)snprintf(np + o1, sizeof(np) - o1, " %d", p);
				if (b->ecn.rp_known[p] && b->ecn.rp[p] && o2 < sizeof(rp))
					o2 += (size_t)snprintf(rp + o2, sizeof(rp) - o2, " %d", p);
			}
			text_add(out, 0, "  ECN (DCQCN, %s/ecn): notification point on%s, reaction point on%s", b->netdev,
				 o1 ? np : " none", o2 ? rp : " none");
		} else {
			text_add(out, ROLE_DIM, "  ECN enables: not shown by this driver (MLNX_OFED's mlx5 has %s/ecn)",
				 b->netdev[0] ? b->netdev : "IF");
		}
		if (b->eth.err)
			text_add(out, ROLE_DIM, "  ethtool statistics: %s", strerror(-b->eth.err));
		else
			text_add(out, 0, "  ethtool statistics: %u counters, %u of the chain (doc/roce.md names them)",
				 b->eth.nstats, b->eth.nmatched);
		for (int r = 0; r < ROCE_CC_NROLES; r++)
			text_add(out, b->cc[r].known ? 0 : ROLE_DIM, "  hw_counters %-16s %s", roce_cc_role_key((enum roce_cc_role)r),
				 b->cc[r].known ? "known" : "not exposed by this driver");
		nfs = roce_check(ui->live.roce_prev.nports ? &ui->live.roce_prev : NULL, &ui->live.roce, fs, 16);
		for (size_t k = 0; k < nfs && k < 16; k++)
			if (!strcmp(fs[k].device, b->dev) && fs[k].port == b->port) {
				text_add(out, fs[k].severity == DOCTOR_ERROR ? ROLE_BAD : ROLE_WARN, "  [%s] %s: %s",
					 doctor_severity_str(fs[k].severity), fs[k].code, fs[k].title);
				for (unsigned int x = 0; x < fs[k].nfix; x++)
					text_add(out, 0, "      fix: %s", fs[k].fix[x]);
			}
		return;
	}
	text_add(out, ROLE_WARN, "%s: this port is gone.", key);
}

static const char *roce_empty(struct ui *ui)
{
	if (!ui->live.host.ndevs)
		return views_no_devices(ui);
	if (ui->live.roce_err == -EOPNOTSUPP && ui_recorded(ui))
		return "The recording holds no RoCE chain (recordings before format 1.3 have none: doc/recording.md).";
	if (ui->live.roce_err == -EOPNOTSUPP)
		return "This source has no RoCE chain to read.";
	if (ui->live.roce_err)
		return "Reading the RoCE chain failed (out of memory).";
	if (ui_table(ui)->filter[0])
		return "No row matches the filter (Esc clears it).";
	for (size_t i = 0; i < ui->live.host.ndevs; i++)
		for (size_t k = 0; k < ui->live.host.devs[i].nports; k++)
			if (ui->live.host.devs[i].ports[k].link_layer == LINK_LAYER_ETHERNET)
				return "Reading DCB and the ethtool statistics at the next sample...";
	return "No RoCE ports: the RoCE pane shows Ethernet link-layer ports only.";
}

const struct ui_view view_roce = {
	.id = "roce",
	.port_rows = true,
	.wants = LIVE_WANT_ROCE,
	.title = "RoCE",
	.tab = "RoCE",
	.cols = roce_cols,
	.ncols = NCOLS,
	.default_sort = C_PORT,
	.default_desc = false,
	.build = roce_build,
	.details = roce_details,
	.empty = roce_empty,
	.create = roce_create,
	.destroy = roce_destroy,
};
