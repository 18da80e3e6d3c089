// SPDX-License-Identifier: GPL-2.0-or-later
/* The Fabric pane: one row per link of the whole subnet, both ends named, rates each way, errors, trouble first. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive/counters.h"
#include "derive/fabric_links.h"
#include "derive/mad_decode.h"
#include "mad/mad_subnet.h"
#include "report/ibfabric.h"
#include "ui/views.h"
#include "ui/widget/theme.h"
#include "util.h"

enum { C_FLAGS, C_A, C_ALID, C_B, C_BLID, C_LINK, C_AB, C_BA, C_ERR, C_WAIT, C_WHY, NCOLS };

static const struct table_col fabric_cols[NCOLS] = {
	[C_FLAGS] = { .title = "FLAGS",     .width = 9,  .prio = 0, .numeric = true },
	[C_A]     = { .title = "END A",     .width = 22, .prio = 0 },
	[C_ALID]  = { .title = "LID A",     .width = 5,  .prio = 2, .right = true, .numeric = true },
	[C_B]     = { .title = "END B",     .width = 22, .prio = 0 },
	[C_BLID]  = { .title = "LID B",     .width = 5,  .prio = 2, .right = true, .numeric = true },
	[C_LINK]  = { .title = "LINK",      .width = 8,  .prio = 1 },
	[C_AB]    = { .title = "A>B Gb/s",  .width = 8,  .prio = 0, .right = true, .numeric = true },
	[C_BA]    = { .title = "B>A Gb/s",  .width = 8,  .prio = 0, .right = true, .numeric = true },
	[C_ERR]   = { .title = "ERRORS",    .width = 7,  .prio = 1, .right = true, .numeric = true },
	[C_WAIT]  = { .title = "XMITWAIT",  .width = 8,  .prio = 2, .right = true, .numeric = true },
	[C_WHY]   = { .title = "WHY",       .width = 24, .prio = 1, .flex = true },
};

/* The node view ('v'): one row per switch, CA or router; the same number of columns, ERRORS and XMITWAIT where the links have them. */
enum { N_FLAGS, N_NODE, N_GUID, N_LID, N_TYPE, N_PORTS, N_IN, N_OUT, N_ERR, N_WAIT, N_WHY, NNCOLS };
_Static_assert((int)NNCOLS == (int)NCOLS && (int)N_WAIT == (int)C_WAIT && (int)N_FLAGS == (int)C_FLAGS, "a toggle keeps the sort column's index");

static const struct table_col node_cols[NNCOLS] = {
	[N_FLAGS] = { .title = "FLAGS",     .width = 9,  .prio = 0, .numeric = true },
	[N_NODE]  = { .title = "NODE",      .width = 22, .prio = 0 },
	[N_GUID]  = { .title = "GUID",      .width = 19, .prio = 2 },
	[N_LID]   = { .title = "LID",       .width = 5,  .prio = 1, .right = true, .numeric = true },
	[N_TYPE]  = { .title = "TYPE",      .width = 6,  .prio = 1 },
	[N_PORTS] = { .title = "PORTS",     .width = 5,  .prio = 0, .right = true, .numeric = true },
	[N_IN]    = { .title = "IN Gb/s",   .width = 8,  .prio = 0, .right = true, .numeric = true },
	[N_OUT]   = { .title = "OUT Gb/s",  .width = 8,  .prio = 0, .right = true, .numeric = true },
	[N_ERR]   = { .title = "ERRORS",    .width = 7,  .prio = 1, .right = true, .numeric = true },
	[N_WAIT]  = { .title = "XMITWAIT",  .width = 8,  .prio = 2, .right = true, .numeric = true },
	[N_WHY]   = { .title = "WHY",       .width = 24, .prio = 1, .flex = true },
};

/* A node's ports summed: what its row shows. */
struct fabric_node_row {
	unsigned int flags;		/* FLINK_* of its ports and links */
	unsigned int up, total;		/* ports LinkUp, ports that answered PortInfo */
	unsigned int ndown, ndeg, nnoans;	/* its links down since the sweep before, degraded, far end silent */
	char deg_why[96];		/* the first degraded link's words */
	bool rates, pma_ok;
	double in_bps, out_bps;
	uint64_t errors, errors_now;
	struct fabric_end wait;		/* the port that waited most */
};

/* The rows of the last build (the details of a key are found among them). */
struct fabric_pane {
	struct fabric_link_row *rows;
	size_t nrows, cap;
	bool nodes;			/* the node view */
	struct fabric_node_row *nrow;	/* [f->nnodes] in the node view */
	size_t nrow_cap;
	char empty[900];		/* what the body says when there are no rows */
};

static void *fabric_create(struct ui *ui)
{
	(void)ui;
	return calloc(1, sizeof(struct fabric_pane));
}

static void fabric_destroy(void *state)
{
	struct fabric_pane *st = state;

	if (st) {
		free(st->rows);
		free(st->nrow);
	}
	free(st);
}

static struct fabric_pane *pane_state(struct ui *ui)
{
	int me = views_find(ui, "fabric");

	return me >= 0 ? ui->pane_state[me] : NULL;
}

static const char *node_name(const struct ib_node_id *id, char *buf, size_t size)
{
	if (id->desc[0])
		return id->desc;
	ibfabric_guid_str(id->node_guid, buf, size);
	return buf;
}

static void flags_str(unsigned int f, char *buf, size_t size)
{
	static const struct { unsigned int bit; const char *word; } words[] = {
		{ FLINK_DOWN, "DOWN" }, { FLINK_NO_ANSWER, "NOANS" }, { FLINK_ERRORS, "ERR" },
		{ FLINK_DEGRADED, "SLOW" }, { FLINK_SATURATED, "SAT" },
	};
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(words) && n < size; i++)
		if (f & words[i].bit)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "," : "", words[i].word);
	if (!n)
		snprintf(buf, size, "ok");
}

static void rate_cell(struct table_row *r, int col, bool known, double bps)
{
	if (!known) {
		table_cell(r, col, ROLE_DIM, "-");
		return;
	}
	table_cell(r, col, 0, "%.3f", bps * 8 / 1e9);
	table_cell_num(r, col, bps * 8 / 1e9);
}

/* A row of a lost link: both ends as the sweep before saw them. */
static void lost_row(struct table_row *r, const struct fabric_lost_link *l)
{
	char ga[32], gb[32];

	table_cell(r, C_A, 0, "%s/%u", node_name(&l->a, ga, sizeof(ga)), l->a_port);
	table_cell(r, C_ALID, 0, "%u", l->a_lid);
	table_cell_num(r, C_ALID, l->a_lid);
	table_cell(r, C_B, 0, "%s/%u", node_name(&l->b, gb, sizeof(gb)), l->b_port);
	table_cell(r, C_BLID, 0, "%u", l->b_lid);
	table_cell_num(r, C_BLID, l->b_lid);
	table_cell(r, C_LINK, ROLE_BAD, "down");
	for (int c = C_AB; c <= C_WAIT; c++)
		table_cell(r, c, ROLE_DIM, "-");
}

/*
 * PortXmitWait of the end that waited more: the share of the interval
 * when its tick is known (derive/xmit_wait.h), else ticks per second.
 */
static const struct fabric_end *wait_worst(const struct fabric_end *ea, const struct fabric_end *eb)
{
	const struct fabric_end *e = ea->wait_known ? ea : eb;

	if (ea->wait_known && eb->wait_known) {
		if (ea->wait_how == XWAIT_SHARE && eb->wait_how == XWAIT_SHARE)
			e = ea->wait_share >= eb->wait_share ? ea : eb;
		else
			e = ea->wait_per_s >= eb->wait_per_s ? ea : eb;
	}
	return e;
}

static void wait_cell(struct table_row *r, const struct fabric_end *ea, const struct fabric_end *eb)
{
	const struct fabric_end *e = wait_worst(ea, eb);

	if (!e->wait_known) {
		table_cell(r, C_WAIT, ROLE_DIM, "-");
	} else if (e->wait_how == XWAIT_SHARE) {
		table_cell(r, C_WAIT, e->wait_share >= 0.5 ? ROLE_BAD : e->wait_share > 0 ? ROLE_WARN : 0, "%.1f%%",
			   e->wait_share * 100);
		table_cell_num(r, C_WAIT, e->wait_share * 100);
	} else {
		double w = e->wait_per_s;

		table_cell(r, C_WAIT, w > 0 ? ROLE_WARN : 0, w >= 1e6 ? "%.1fM/s" : w >= 1e3 ? "%.1fk/s" : "%.0f/s",
			   w >= 1e6 ? w / 1e6 : w >= 1e3 ? w / 1e3 : w);
		table_cell_num(r, C_WAIT, e->wait_per_s);
	}
}

static void link_row(struct table_row *r, const struct ib_fabric *f, const struct fabric_link_row *lr)
{
	const struct ib_fnode *na = &f->nodes[lr->a];
	const struct ib_port_id *pa = &na->ports[lr->a_port].pi;
	char g[32];

	table_cell(r, C_A, 0, "%s/%u", node_name(&na->id, g, sizeof(g)), lr->a_port);
	/* a switch's external ports have no LID of their own: its port 0's is the one */
	table_cell(r, C_ALID, 0, "%u", na->id.node_type == 2 ? na->lid : pa->lid);
	table_cell_num(r, C_ALID, na->id.node_type == 2 ? na->lid : pa->lid);
	if (lr->half) {
		table_cell(r, C_B, ROLE_DIM, "?");
		table_cell(r, C_BLID, ROLE_DIM, "-");
	} else {
		const struct ib_fnode *nb = &f->nodes[lr->b];

		table_cell(r, C_B, 0, "%s/%u", node_name(&nb->id, g, sizeof(g)), lr->b_port);
		uint16_t lid = nb->id.node_type == 2 ? nb->lid : nb->ports[lr->b_port].pi.lid;

		table_cell(r, C_BLID, 0, "%u", lid);
		table_cell_num(r, C_BLID, lid);
	}
	table_cell(r, C_LINK, lr->flags & FLINK_DEGRADED ? ROLE_WARN : 0, "%s %s", mad_link_width_str(pa->width),
		   mad_link_speed_str(pa->speed, pa->speed_ext));
	rate_cell(r, C_AB, lr->ea.rates, lr->ea.xmit_bps);
	/* B's transmit, or what A received when B's counters are unknown */
	if (lr->eb.rates)
		rate_cell(r, C_BA, true, lr->eb.xmit_bps);
	else
		rate_cell(r, C_BA, lr->ea.rates, lr->ea.rcv_bps);
	if (lr->ea.pma == IBQ_OK || lr->eb.pma == IBQ_OK) {
		table_cell(r, C_ERR, lr->ea.errors_now + lr->eb.errors_now ? ROLE_BAD : lr->flags & FLINK_ERRORS ? ROLE_WARN : 0,
			   "%" PRIu64, lr->ea.errors + lr->eb.errors);
		table_cell_num(r, C_ERR, (double)(lr->ea.errors + lr->eb.errors));
	} else {
		table_cell(r, C_ERR, ROLE_DIM, "-");
	}
	wait_cell(r, &lr->ea, &lr->eb);
}

/* The ports of node i summed into nr (its links' trouble is added by nodes_from_links()). */
static void node_sum(const struct ib_fabric *f, size_t i, struct fabric_node_row *nr)
{
	const struct ib_fnode *n = &f->nodes[i];

	memset(nr, 0, sizeof(*nr));
	for (unsigned int p = 1; n->ports && p <= n->id.num_ports; p++) {
		const struct ib_fport *fp = &n->ports[p];
		struct fabric_end e;

		if (!fp->known)
			continue;
		nr->total++;
		nr->up += fp->pi.phys_state == PHYS_STATE_LINK_UP;
		if (!fp->pma)
			continue;
		fabric_end_from(fp->pma, &e);
		fabric_end_wait(&e, fp->pma, &fp->pi);
		if (e.rates) {
			nr->rates = true;
			nr->in_bps += e.rcv_bps;
			nr->out_bps += e.xmit_bps;
		}
		nr->pma_ok |= e.pma == IBQ_OK;
		nr->errors += e.errors;
		nr->errors_now += e.errors_now;
		nr->flags |= (e.saturated ? FLINK_SATURATED : 0) | (e.errors ? FLINK_ERRORS : 0) |
			     (e.pma == IBQ_TIMEOUT ? FLINK_NO_ANSWER : 0) | (e.link_downed ? FLINK_DOWN : 0);
		nr->wait = *wait_worst(&nr->wait, &e);
	}
}

static void node_link_end(struct fabric_node_row *nr, const struct fabric_link_row *lr)
{
	if (lr->flags & FLINK_DEGRADED) {
		if (!nr->ndeg++)
			snprintf(nr->deg_why, sizeof(nr->deg_why), "%s", lr->why);
		nr->flags |= FLINK_DEGRADED;
	}
	if (lr->flags & FLINK_DOWN) {
		nr->ndown++;
		nr->flags |= FLINK_DOWN;
	}
}

/* Each link's trouble on both its ends: degraded, down, a far end that does not answer. */
static void nodes_from_links(const struct ib_fabric *f, struct fabric_node_row *nrow, const struct fabric_link_row *rows,
			     size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct fabric_link_row *lr = &rows[i];

		if (lr->lost) {
			for (size_t k = 0; k < f->nnodes; k++)
				if (f->nodes[k].id.node_guid == lr->lost->a.node_guid ||
				    f->nodes[k].id.node_guid == lr->lost->b.node_guid) {
					nrow[k].ndown++;
					nrow[k].flags |= FLINK_DOWN;
				}
			continue;
		}
		node_link_end(&nrow[lr->a], lr);
		if (lr->half) {
			nrow[lr->a].nnoans++;
			nrow[lr->a].flags |= FLINK_NO_ANSWER;
		} else {
			node_link_end(&nrow[lr->b], lr);
		}
	}
}

/* What is wrong with a node, in words ("" when nothing). */
static void node_why(const struct fabric_node_row *nr, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	if (nr->ndown)
		n += (size_t)snprintf(buf + n, size - n, "%u link%s down", nr->ndown, nr->ndown == 1 ? "" : "s");
	if (nr->nnoans && n < size)
		n += (size_t)snprintf(buf + n, size - n, "%s%u far end%s silent", n ? ", " : "", nr->nnoans,
				      nr->nnoans == 1 ? "" : "s");
	if ((nr->flags & FLINK_NO_ANSWER) && !nr->nnoans && n < size)
		n += (size_t)snprintf(buf + n, size - n, "%sits PMA does not answer", n ? ", " : "");
	if (nr->ndeg && n < size)
		n += (size_t)snprintf(buf + n, size - n, "%s%u degraded (%s)", n ? ", " : "", nr->ndeg, nr->deg_why);
	if (nr->errors && n < size)
		n += (size_t)snprintf(buf + n, size - n, "%s+%" PRIu64 " errors", n ? ", " : "", nr->errors);
	if ((nr->flags & FLINK_SATURATED) && n < size)
		snprintf(buf + n, size - n, "%sa counter saturated", n ? ", " : "");
}

static void node_row(struct table_row *r, const struct ib_fnode *n, const struct fabric_node_row *nr)
{
	char g[32], why[200];

	table_cell(r, N_NODE, 0, "%s", node_name(&n->id, g, sizeof(g)));
	ibfabric_guid_str(n->id.node_guid, g, sizeof(g));
	table_cell(r, N_GUID, 0, "%s", g);
	table_cell(r, N_LID, 0, "%u", n->lid);
	table_cell_num(r, N_LID, n->lid);
	table_cell(r, N_TYPE, 0, "%s", mad_node_type_str(n->id.node_type));
	table_cell(r, N_PORTS, nr->up < nr->total && n->id.node_type != 2 ? ROLE_WARN : 0, "%u/%u", nr->up, nr->total);
	table_cell_num(r, N_PORTS, nr->up);
	rate_cell(r, N_IN, nr->rates, nr->in_bps);
	rate_cell(r, N_OUT, nr->rates, nr->out_bps);
	if (nr->pma_ok) {
		table_cell(r, N_ERR, nr->errors_now ? ROLE_BAD : nr->errors ? ROLE_WARN : 0, "%" PRIu64, nr->errors);
		table_cell_num(r, N_ERR, (double)nr->errors);
	} else {
		table_cell(r, N_ERR, ROLE_DIM, "-");
	}
	wait_cell(r, &nr->wait, &nr->wait);
	node_why(nr, why, sizeof(why));
	table_cell(r, N_WHY, why[0] ? 0 : ROLE_DIM, "%s", why);
}

/* The node view: one row per node of the sweep, from its ports and the link rows just built. */
static void nodes_build(struct fabric_pane *st, const struct ib_fabric *f, struct table *t)
{
	if (f->nnodes > st->nrow_cap) {
		struct fabric_node_row *nr = realloc(st->nrow, f->nnodes * sizeof(*nr));

		if (!nr)
			return;
		st->nrow = nr;
		st->nrow_cap = f->nnodes;
	}
	for (size_t i = 0; i < f->nnodes; i++)
		node_sum(f, i, &st->nrow[i]);
	nodes_from_links(f, st->nrow, st->rows, st->nrows);
	for (size_t i = 0; i < f->nnodes; i++) {
		const struct fabric_node_row *nr = &st->nrow[i];
		struct table_row *r = table_add(t, "node/%016" PRIx64, f->nodes[i].id.node_guid);
		char flags[48];

		if (!r)
			return;
		node_row(r, &f->nodes[i], nr);
		flags_str(nr->flags, flags, sizeof(flags));
		table_cell(r, N_FLAGS, nr->flags & (FLINK_DOWN | FLINK_NO_ANSWER | FLINK_ERRORS) ? ROLE_BAD :
				       nr->flags ? ROLE_WARN : ROLE_OK, "%s", flags);
		table_cell_num(r, N_FLAGS, nr->flags);
		if (nr->flags & (FLINK_DOWN | FLINK_NO_ANSWER | FLINK_ERRORS))
			r->role = ROLE_BAD;
	}
}

static void fabric_build(struct ui *ui, struct table *t)
{
	struct fabric_pane *st = pane_state(ui);
	const struct ib_fabric *f;
	const struct fabric_lost_link *lost;
	size_t nlost, total, n;

	if (!st || !ui->live.subnet)
		return;
	f = mad_subnet_fabric(ui->live.subnet);
	lost = mad_subnet_lost(ui->live.subnet, &nlost);
	fabric_links_build(f, lost, nlost, NULL, 0, &total);
	if (total > st->cap) {
		struct fabric_link_row *nr = realloc(st->rows, total * sizeof(*nr));

		if (!nr)
			return;
		st->rows = nr;
		st->cap = total;
	}
	n = fabric_links_build(f, lost, nlost, st->rows, st->cap, &total);
	st->nrows = n;
	if (st->nodes) {
		nodes_build(st, f, t);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct fabric_link_row *lr = &st->rows[i];
		struct table_row *r;
		char flags[48];

		if (lr->lost)
			r = table_add(t, "lost/%016" PRIx64 "/%u/%016" PRIx64 "/%u", lr->lost->a.node_guid,
				      lr->lost->a_port, lr->lost->b.node_guid, lr->lost->b_port);
		else
			r = table_add(t, "%016" PRIx64 "/%u", f->nodes[lr->a].id.node_guid, lr->a_port);
		if (!r)
			return;
		if (lr->lost)
			lost_row(r, lr->lost);
		else
			link_row(r, f, lr);
		flags_str(lr->flags, flags, sizeof(flags));
		table_cell(r, C_FLAGS, lr->flags & (FLINK_DOWN | FLINK_NO_ANSWER | FLINK_ERRORS) ? ROLE_BAD :
				       lr->flags ? ROLE_WARN : ROLE_OK, "%s", flags);
		table_cell_num(r, C_FLAGS, lr->flags);
		table_cell(r, C_WHY, lr->flags ? 0 : ROLE_DIM, "%s", lr->why);
		if (lr->flags & (FLINK_DOWN | FLINK_NO_ANSWER | FLINK_ERRORS))
			r->role = ROLE_BAD;
	}
}

/* PortXmitWait of one end: its share of the interval and how it was made, or why only ticks per second. */
static void wait_details(struct text *out, const struct ib_pma *pma, const struct ib_port_id *pi)
{
	struct fabric_end e;

	fabric_end_from(pma, &e);
	fabric_end_wait(&e, pma, pi);
	if (!e.wait_known)
		return;
	if (e.wait_how == XWAIT_SHARE)
		text_add(out, 0, "  xmit wait: %.1f%% of the interval (%.0f ticks/s x (Tick %u + 1) x %.3f ns a byte at %s)",
			 e.wait_share * 100, e.wait_per_s, pma->tick, xmit_wait_byte_ns(pi->speed, pi->speed_ext),
			 mad_link_speed_str(pi->speed, pi->speed_ext));
	else
		text_add(out, 0, "  xmit wait: %.0f ticks/s, no share: %s", e.wait_per_s, xmit_wait_why(e.wait_how));
}

/* Every counter of one end, with its delta over the last interval. */
static void end_details(struct text *out, const struct ib_fabric *f, size_t node, uint8_t port)
{
	const struct ib_fnode *n = &f->nodes[node];
	const struct ib_fport *fp = &n->ports[port];
	const struct ib_pma *pma = fp->pma;
	char g[32];

	ibfabric_guid_str(n->id.node_guid, g, sizeof(g));
	text_add(out, ROLE_HEADING, "%s port %u  (%s %s, LID %u)", n->id.desc[0] ? n->id.desc : "?", port,
		 mad_node_type_str(n->id.node_type), g, n->lid);
	if (fp->known)
		text_add(out, 0, "  %s/%s  %s %s  (supported %uX, enabled %uX)", mad_port_state_str(fp->pi.state),
			 mad_phys_state_str(fp->pi.phys_state), mad_link_width_str(fp->pi.width),
			 mad_link_speed_str(fp->pi.speed, fp->pi.speed_ext), fabric_width_lanes(fp->pi.width_sup),
			 fabric_width_lanes(fp->pi.width_en));
	if (!pma) {
		text_add(out, ROLE_DIM, "  counters: not asked yet");
		return;
	}
	text_add(out, pma->state == IBQ_OK ? 0 : ROLE_WARN, "  counters (PMA at LID %u): %s%s", pma->lid,
		 ib_query_state_str(pma->state), pma->ext ? ", 64-bit data" : "");
	wait_details(out, pma, &fp->pi);
	for (size_t i = 0; i < pma->n; i++) {
		const struct fab_counter *c = &pma->c[i];
		struct counter_cells cc;

		char val[24];

		views_counter_cells(c, pma->sample_ns - pma->prev_sample_ns, &cc);
		if (!c->known)
			snprintf(val, sizeof(val), "unknown");
		else if (c->saturated)
			snprintf(val, sizeof(val), "saturated");
		else
			snprintf(val, sizeof(val), "%" PRIu64, c->value);
		text_add(out, c->kind == COUNTER_KIND_ERROR && strcmp(cc.interval, "0") && strcmp(cc.interval, "-") ?
			 ROLE_BAD : 0, "    %-34s %20s  +%-10s %14s", c->name, val, cc.interval, cc.rate);
	}
}

/* A wait as the history keeps it: a share, -(ticks/s), or NaN. */
static void wait_str(float w, char *buf, size_t size)
{
	if (isnan(w))
		snprintf(buf, size, "-");
	else if (w >= 0)
		snprintf(buf, size, "%.1f%%", w * 100);
	else
		snprintf(buf, size, "%.0f/s", -w);
}

static void gbps_str(float v, char *buf, size_t size)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.3f", v);
}

/* The link's last intervals, oldest first, from the core's history (derive/fabric_hist.c). */
static void hist_details(struct text *out, const struct live *lv, const struct ib_fabric *f,
			 const struct fabric_link_row *lr)
{
	const struct fhist_link *l = fabric_hist_find(&lv->fhist, f->nodes[lr->a].id.node_guid, lr->a_port,
						      f->nodes[lr->b].id.node_guid, lr->b_port);
	bool flip;

	if (!l || !l->n) {
		text_add(out, ROLE_DIM, "History: none yet (a point each round of counters).");
		return;
	}
	/* the history's first end is the lower GUID: say it from this row's A */
	flip = l->guid_a != f->nodes[lr->a].id.node_guid || l->port_a != lr->a_port;
	text_add(out, ROLE_HEADING, "History, the last %u interval%s (oldest first)", l->n, l->n == 1 ? "" : "s");
	text_add(out, 0, "  %4s %10s %10s %8s %10s", "#", "A>B Gb/s", "B>A Gb/s", "errors", "xmit wait");
	for (unsigned int i = 0; i < l->n; i++) {
		const struct fhist_point *pt = fabric_hist_point(l, i);
		char ab[16], ba[16], w[24];

		gbps_str(flip ? pt->ba_gbps : pt->ab_gbps, ab, sizeof(ab));
		gbps_str(flip ? pt->ab_gbps : pt->ba_gbps, ba, sizeof(ba));
		wait_str(pt->wait, w, sizeof(w));
		text_add(out, pt->errors ? ROLE_BAD : 0, "  %4d %10s %10s %8" PRIu32 " %10s", (int)i - (int)l->n + 1, ab, ba,
			 pt->errors, w);
	}
}

/* A port's link: "4X QDR", and in *why how it trained below what both ends do ("" when it did not). */
static void port_link(const struct ib_fabric *f, const struct ib_fnode *n, const struct ib_fport *fp, char *link,
		      size_t lsize, char *why, size_t wsize)
{
	why[0] = '\0';
	if (fp->pi.phys_state != PHYS_STATE_LINK_UP) {
		snprintf(link, lsize, "-");
		return;
	}
	snprintf(link, lsize, "%s %s", mad_link_width_str(fp->pi.width), mad_link_speed_str(fp->pi.speed, fp->pi.speed_ext));
	if (fp->linked && fp->peer < f->nnodes) {
		const struct ib_fnode *p = &f->nodes[fp->peer];

		if (p->ports && fp->peer_port <= p->id.num_ports && p->ports[fp->peer_port].known &&
		    !fabric_link_degraded(n, &fp->pi, p, &p->ports[fp->peer_port].pi, why, wsize))
			why[0] = '\0';
	}
}

/* A node's ports, one line each: state, link (degraded said), the remote end, rates, error deltas, xmit wait. */
static void node_ports(struct text *out, const struct ib_fabric *f, size_t node)
{
	const struct ib_fnode *n = &f->nodes[node];
	char g[32];

	text_add(out, ROLE_HEADING, "%s: its %u ports", node_name(&n->id, g, sizeof(g)), n->id.num_ports);
	text_add(out, 0, "  %4s %-16s %-10s %-24s %9s %9s %8s %9s  %s", "port", "state", "link", "remote", "xmit Gb/s",
		 "rcv Gb/s", "errors", "xmit wait", "degraded");
	for (unsigned int p = 1; n->ports && p <= n->id.num_ports; p++) {
		const struct ib_fport *fp = &n->ports[p];
		struct fabric_end e;
		char st[40], link[24], why[96], remote[IB_DESC_LEN + 8] = "-", tx[16], rx[16], w[24];

		if (!fp->known) {
			text_add(out, ROLE_DIM, "  %4u (PortInfo did not answer)", p);
			continue;
		}
		fabric_end_from(fp->pma, &e);
		fabric_end_wait(&e, fp->pma, &fp->pi);
		snprintf(st, sizeof(st), "%s/%s", mad_port_state_str(fp->pi.state), mad_phys_state_str(fp->pi.phys_state));
		port_link(f, n, fp, link, sizeof(link), why, sizeof(why));
		if (fp->linked && fp->peer < f->nnodes)
			snprintf(remote, sizeof(remote), "%s/%u", node_name(&f->nodes[fp->peer].id, g, sizeof(g)),
				 fp->peer_port);
		gbps_str(e.rates ? (float)(e.xmit_bps * 8 / 1e9) : NAN, tx, sizeof(tx));
		gbps_str(e.rates ? (float)(e.rcv_bps * 8 / 1e9) : NAN, rx, sizeof(rx));
		wait_str(!e.wait_known ? NAN : e.wait_how == XWAIT_SHARE ? (float)e.wait_share : -(float)e.wait_per_s,
			 w, sizeof(w));
		text_add(out, e.errors_now ? ROLE_BAD : why[0] ? ROLE_WARN : fp->pi.phys_state == PHYS_STATE_LINK_UP ? 0 :
			 ROLE_DIM, "  %4u %-16.16s %-10s %-24.24s %9s %9s %8" PRIu64 " %9s  %s", p, st, link, remote, tx, rx,
			 e.errors, w, why[0] ? why : "");
	}
}

/* Below both ends: the link's history, then the ports of each end that is a switch. */
static void link_more(struct text *out, const struct live *lv, const struct ib_fabric *f,
		      const struct fabric_link_row *lr)
{
	if (!lr->half) {
		text_add(out, 0, "%s", "");
		hist_details(out, lv, f, lr);
	}
	if (f->nodes[lr->a].id.node_type == 2) {
		text_add(out, 0, "%s", "");
		node_ports(out, f, lr->a);
	}
	if (!lr->half && f->nodes[lr->b].id.node_type == 2) {
		text_add(out, 0, "%s", "");
		node_ports(out, f, lr->b);
	}
}

/* Enter on a node: what it is, what is wrong with it, then every port. */
static bool node_details(const struct fabric_pane *st, const struct ib_fabric *f, const char *key, struct text *out)
{
	uint64_t guid;
	char g[32], why[200];

	if (strncmp(key, "node/", 5) || sscanf(key + 5, "%" SCNx64, &guid) != 1)
		return false;
	for (size_t i = 0; i < f->nnodes; i++) {
		const struct ib_fnode *n = &f->nodes[i];

		if (n->id.node_guid != guid)
			continue;
		ibfabric_guid_str(guid, g, sizeof(g));
		text_add(out, ROLE_HEADING, "%s  (%s %s, LID %u, %u ports)", n->id.desc[0] ? n->id.desc : "?",
			 mad_node_type_str(n->id.node_type), g, n->lid, n->id.num_ports);
		if (st->nrow && i < st->nrow_cap) {
			node_why(&st->nrow[i], why, sizeof(why));
			if (why[0])
				text_add(out, st->nrow[i].flags & (FLINK_DOWN | FLINK_NO_ANSWER | FLINK_ERRORS) ? ROLE_BAD :
					 ROLE_WARN, "%s", why);
		}
		text_add(out, 0, "%s", "");
		node_ports(out, f, i);
		return true;
	}
	text_add(out, ROLE_WARN, "%s: this node is gone from the last sweep.", key);
	return true;
}

static void fabric_details(struct ui *ui, const char *key, struct text *out)
{
	struct fabric_pane *st = pane_state(ui);
	const struct ib_fabric *f = ui->live.subnet ? mad_subnet_fabric(ui->live.subnet) : NULL;

	if (st && f && node_details(st, f, key, out))
		return;
	for (size_t i = 0; st && f && i < st->nrows; i++) {
		const struct fabric_link_row *lr = &st->rows[i];
		char k[TABLE_KEY_LEN];

		if (lr->lost) {
			snprintf(k, sizeof(k), "lost/%016" PRIx64 "/%u/%016" PRIx64 "/%u", lr->lost->a.node_guid,
				 lr->lost->a_port, lr->lost->b.node_guid, lr->lost->b_port);
			if (strcmp(k, key))
				continue;
			text_add(out, ROLE_BAD, "A link that was up at a sweep before and is not now: %s", lr->lost->why);
			text_add(out, 0, "  %s port %u (LID %u)  <->  %s port %u (LID %u)", lr->lost->a.desc, lr->lost->a_port,
				 lr->lost->a_lid, lr->lost->b.desc, lr->lost->b_port, lr->lost->b_lid);
			return;
		}
		snprintf(k, sizeof(k), "%016" PRIx64 "/%u", f->nodes[lr->a].id.node_guid, lr->a_port);
		if (strcmp(k, key))
			continue;
		if (lr->why[0])
			text_add(out, lr->flags & (FLINK_DOWN | FLINK_NO_ANSWER | FLINK_ERRORS) ? ROLE_BAD : ROLE_WARN,
				 "%s", lr->why);
		end_details(out, f, lr->a, lr->a_port);
		text_add(out, 0, "%s", "");
		if (lr->half)
			text_add(out, ROLE_WARN, "The far end did not answer the sweep.");
		else
			end_details(out, f, lr->b, lr->b_port);
		link_more(out, &ui->live, f, lr);
		return;
	}
	text_add(out, ROLE_WARN, "%s: this link is gone from the last sweep.", key);
}

static const char *fabric_empty(struct ui *ui)
{
	const char *why = live_fabric_reason(&ui->live);
	struct fabric_pane *st = pane_state(ui);

	if (why && why[0]) {
		if (!st)
			return "No fabric view.";
		snprintf(st->empty, sizeof(st->empty), "No fabric view: %s.", why);
		return st->empty;
	}
	if (ui_table(ui)->filter[0])
		return st && st->nodes ? "No node matches the filter (Esc clears it)." :
					 "No link matches the filter (Esc clears it).";
	if (st && ui->live.subnet && mad_subnet_status(ui->live.subnet)[0]) {
		snprintf(st->empty, sizeof(st->empty), "The fabric: %s...", mad_subnet_status(ui->live.subnet));
		return st->empty;
	}
	if (ui->live.subnet && mad_subnet_sweeps(ui->live.subnet))
		return "The sweep found no link.";
	return "Sweeping the fabric...";
}

/*
 * While the first sweep of a big subnet runs, its rows so far are shown
 * under a line that says they are partial (mad/mad_subnet.h).
 */
static const char *fabric_note(struct ui *ui, char *buf, size_t size)
{
	if (!ui->live.subnet || !mad_subnet_fabric(ui->live.subnet)->partial)
		return NULL;
	snprintf(buf, size, "Partial: %s; the first sweep is still running (no counters yet).",
		 mad_subnet_status(ui->live.subnet));
	return buf;
}

/* v: links or nodes. The columns are swapped under the same table (the same count: the sort column stays). */
static enum ui_key_result fabric_key(struct ui *ui, void *state, int ch)
{
	struct fabric_pane *st = state;
	struct table *t = ui_table(ui);

	if (ch != 'v' || !st)
		return UI_KEY_IGNORED;
	st->nodes = !st->nodes;
	t->cols = st->nodes ? node_cols : fabric_cols;
	/* the other view's rows have other keys: start at the top, trouble first */
	t->sel_key[0] = '\0';
	t->sel = t->top = 0;
	ui_status(ui, "%s", st->nodes ? "nodes: a row per switch, CA or router (v: links)" : "links: a row per cable (v: nodes)");
	views_rebuild(ui);
	return UI_KEY_TAKEN;
}

const struct ui_view view_fabric = {
	.id = "fabric",
	.wants = LIVE_WANT_FABRIC,
	.title = "Fabric",
	.tab = "Fab",
	.cols = fabric_cols,
	.ncols = NCOLS,
	.default_sort = C_FLAGS,
	.default_desc = true,
	.build = fabric_build,
	.note = fabric_note,
	.details = fabric_details,
	.empty = fabric_empty,
	.key = fabric_key,
	.keys_help = "v links / nodes; Enter a link: both ends' counters, its last 20 intervals, each switch end's ports (End); Enter a node: its ports",
	.create = fabric_create,
	.destroy = fabric_destroy,
};
