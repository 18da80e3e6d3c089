// SPDX-License-Identifier: GPL-2.0-or-later
/* The Connections pane: who holds RDMA resources (a process, a container, a job, the kernel), expandable to its QPs and cm_ids. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/source.h"
#include "model/res.h"
#include "report/res.h"
#include "ui/views.h"
#include "ui/widget/theme.h"
#include "util.h"

enum { C_WHO, C_PID, C_USER, C_QPS, C_CMS, C_STATES, C_PORTS, C_PEERS, NCOLS };

/*
 * Every column sorts by number: a group's rank for the text columns, so
 * the rows of an expanded group (which carry their group's numbers) stay
 * under it whatever the sort.
 */
static const struct table_col conn_cols[NCOLS] = {
	[C_WHO]    = { .title = "WHO",     .width = 30, .prio = 0, .numeric = true },
	[C_PID]    = { .title = "PID",     .width = 7,  .prio = 1, .right = true, .numeric = true },
	[C_USER]   = { .title = "USER",    .width = 8,  .prio = 3, .numeric = true },
	[C_QPS]    = { .title = "QPS",     .width = 4,  .prio = 0, .right = true, .numeric = true },
	[C_CMS]    = { .title = "CM",      .width = 3,  .prio = 2, .right = true, .numeric = true },
	[C_STATES] = { .title = "STATES",  .width = 14, .prio = 1, .numeric = true },
	[C_PORTS]  = { .title = "PORTS",   .width = 9,  .prio = 2, .numeric = true },
	[C_PEERS]  = { .title = "PEERS",   .width = 22, .prio = 1, .numeric = true, .flex = true },
};

#define CONN_MAX_EXPANDED 32

/* The resources are the live core's (LIVE_WANT_RES while this pane shows); the pane keeps what is open. */
struct conn_state {
	uint64_t shown_ns;		/* the core's reading last drawn (its res_ns) */
	char expanded[CONN_MAX_EXPANDED][TABLE_KEY_LEN];
	size_t nexpanded;
};

/* One row of the pane: the holders that are one process, container, job or kernel module. */
struct conn_group {
	char key[TABLE_KEY_LEN];
	char text[NCOLS][TABLE_CELL_LEN];
	double num[NCOLS];
	bool has_num[NCOLS];
	bool probe;
};

static struct conn_state *state_of(struct ui *ui)
{
	return ui_pane_state(ui, &view_conn);
}

/* The group a holder belongs to: its container or job, else its process (a thread's Tgid), else the kernel module. */
static void group_key(const struct res_state *rs, const struct res_holder *h, char *key, size_t size)
{
	const struct res_proc *p = res_proc_of(rs, h);

	if (h->kern)
		snprintf(key, size, "k:%s", h->kern_name);
	else if (p && p->unit.kind != RES_UNIT_NONE)
		snprintf(key, size, "u:%s:%.40s", res_unit_kind_name(p->unit.kind), p->unit.id);
	else
		snprintf(key, size, "p:%u", p && p->tgid ? p->tgid : h->pid);
}

static bool is_expanded(const struct conn_state *st, const char *key)
{
	for (size_t i = 0; i < st->nexpanded; i++)
		if (!strcmp(st->expanded[i], key))
			return true;
	return false;
}

/* Append " word" to a cell unless it is there already. */
static void cell_add(char *cell, const char *word)
{
	size_t n = strlen(cell);

	if (strstr(cell, word))
		return;
	snprintf(cell + n, TABLE_CELL_LEN - n, "%s%s", n ? " " : "", word);
}

/* Put word first in the cell: a peer the filter asks for must not be cut off the end. */
static void cell_add_first(char *cell, const char *word)
{
	char old[TABLE_CELL_LEN];

	snprintf(old, sizeof(old), "%s", cell);
	snprintf(cell, TABLE_CELL_LEN, "%.*s", TABLE_CELL_LEN - 1, word);
	if (old[0])
		cell_add(cell, old);
}

static void peer_str(const struct res_cm *c, char *buf, size_t size)
{
	char a[64];

	res_sockaddr_str(&c->dst, a, sizeof(a));
	if (c->state == 8) {	/* LISTEN */
		res_sockaddr_str(&c->src, a, sizeof(a));
		snprintf(buf, size, "listen %s:%u", a[0] ? a : "*", c->src.port);
	} else if (a[0]) {
		snprintf(buf, size, "%s:%u", a, c->dst.port);
	} else {
		snprintf(buf, size, "-");
	}
}

/* What one holder adds to its group's row. */
static void group_add_holder(struct conn_group *g, const struct res_state *rs, const struct res_proc *p)
{
	char w[TABLE_CELL_LEN];

	if (!g->text[C_WHO][0]) {
		char unit[RES_ID_LEN + 16];

		res_unit_str(&p->unit, unit, sizeof(unit));
		res_holder_str(rs, &p->holder, w, sizeof(w));
		if (p->unit.kind != RES_UNIT_NONE)
			snprintf(g->text[C_WHO], TABLE_CELL_LEN, "%.30s (%.24s)", unit, w);
		else
			snprintf(g->text[C_WHO], TABLE_CELL_LEN, "%.60s", w);
		if (p->holder.kern || !p->holder.pid)
			snprintf(g->text[C_PID], TABLE_CELL_LEN, "-");
		else if (p->other_pidns)
			snprintf(g->text[C_PID], TABLE_CELL_LEN, "%u(%u)", p->tgid ? p->tgid : p->holder.pid, p->ns_pid);
		else
			snprintf(g->text[C_PID], TABLE_CELL_LEN, "%u", p->tgid ? p->tgid : p->holder.pid);
		g->num[C_PID] = p->holder.kern ? 1e12 : (double)(p->tgid ? p->tgid : p->holder.pid);
		g->has_num[C_PID] = true;
		if (p->holder.kern)
			snprintf(g->text[C_USER], TABLE_CELL_LEN, "kernel");
		else if (p->user[0])
			snprintf(g->text[C_USER], TABLE_CELL_LEN, "%s", p->user);
		else if (p->has_uid)
			snprintf(g->text[C_USER], TABLE_CELL_LEN, "%u", p->uid);
		else
			snprintf(g->text[C_USER], TABLE_CELL_LEN, "?");
	}
	g->probe |= res_proc_is_probe(p);
	g->num[C_QPS] += (double)p->nqp;
	g->num[C_CMS] += (double)p->ncm;
}

/* Fill the QP states, ports and peers of a group from the resources its holders hold. */
static void group_resources(struct conn_group *g, const struct res_state *rs, const char *filter)
{
	static const char *const states[] = { "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR" };
	size_t count[ARRAY_SIZE(states)] = { 0 };
	char key[TABLE_KEY_LEN], w[96];

	for (size_t i = 0; i < rs->nqps; i++) {
		const struct res_qp *q = &rs->qps[i];

		group_key(rs, &q->holder, key, sizeof(key));
		if (strcmp(key, g->key))
			continue;
		if (q->state < ARRAY_SIZE(states))
			count[q->state]++;
		if (q->port) {
			snprintf(w, sizeof(w), "%s/%u", q->dev, q->port);
			cell_add(g->text[C_PORTS], w);
		}
	}
	for (size_t i = 0; i < rs->ncms; i++) {
		const struct res_cm *c = &rs->cms[i];

		group_key(rs, &c->holder, key, sizeof(key));
		if (strcmp(key, g->key))
			continue;
		peer_str(c, w, sizeof(w));
		if (strcmp(w, "-") && filter[0] && strcasestr(w, filter))
			cell_add_first(g->text[C_PEERS], w);
		else if (strcmp(w, "-"))
			cell_add(g->text[C_PEERS], w);
		if (c->port) {
			snprintf(w, sizeof(w), "%s/%u", c->dev, c->port);
			cell_add(g->text[C_PORTS], w);
		}
	}
	for (size_t s = 0; s < ARRAY_SIZE(states); s++)
		if (count[s]) {
			snprintf(w, sizeof(w), "%s %zu", states[s], count[s]);
			cell_add(g->text[C_STATES], w);
		}
	/* Bad states first when sorting by STATES: errors, then anything not ready to send. */
	g->num[C_STATES] = (double)(count[6] * 1000 + count[5] * 100 + count[0] + count[1] + count[2]);
	g->has_num[C_STATES] = true;
}

/* The groups of rs, their cells filled; NULL when there are none or no memory. */
static struct conn_group *groups_build(const struct res_state *rs, const char *filter, size_t *n)
{
	struct conn_group *g = calloc(rs->nprocs ? rs->nprocs : 1, sizeof(*g));
	char key[TABLE_KEY_LEN];

	*n = 0;
	if (!g)
		return NULL;
	for (size_t i = 0; i < rs->nprocs; i++) {
		const struct res_proc *p = &rs->procs[i];
		size_t k;

		/* Holders of only CQs, MRs and PDs (rping's idle threads) are no connection. */
		if (!p->nqp && !p->ncm)
			continue;
		group_key(rs, &p->holder, key, sizeof(key));
		for (k = 0; k < *n && strcmp(g[k].key, key); k++)
			;
		if (k == *n)
			snprintf(g[(*n)++].key, TABLE_KEY_LEN, "%s", key);
		group_add_holder(&g[k], rs, p);
	}
	for (size_t k = 0; k < *n; k++) {
		group_resources(&g[k], rs, filter);
		if (g[k].probe && !strstr(g[k].text[C_WHO], "fabtop probe"))
			cell_add(g[k].text[C_WHO], "(fabtop probe)");
		g[k].has_num[C_QPS] = g[k].has_num[C_CMS] = true;
		snprintf(g[k].text[C_QPS], TABLE_CELL_LEN, "%.0f", g[k].num[C_QPS]);
		snprintf(g[k].text[C_CMS], TABLE_CELL_LEN, "%.0f", g[k].num[C_CMS]);
	}
	return g;
}

/* The rank of each group's text in column col, as its sort number. */
static void rank_texts(struct conn_group *g, size_t n, int col)
{
	for (size_t i = 0; i < n; i++) {
		size_t below = 0;

		for (size_t j = 0; j < n; j++)
			if (strcasecmp(g[j].text[col], g[i].text[col]) < 0)
				below++;
		g[i].num[col] = (double)below;
		g[i].has_num[col] = true;
	}
}

/* A row under a group: its cells' numbers are the group's, so it sorts with it. */
static struct table_row *child_row(struct table *t, const struct conn_group *g, const char *kind, const char *dev,
				   unsigned int id)
{
	struct table_row *r = table_add(t, "%s/%s/%s/%u", g->key, kind, dev, id);

	if (!r)
		return NULL;
	for (int c = 0; c < NCOLS; c++) {
		table_cell(r, c, 0, "%s", "");
		if (g->has_num[c])
			table_cell_num(r, c, g->num[c]);
	}
	r->role = ROLE_DIM;
	return r;
}

static void group_children(struct table *t, const struct conn_group *g, const struct res_state *rs)
{
	char key[TABLE_KEY_LEN], peer[96];

	for (size_t i = 0; i < rs->nqps; i++) {
		const struct res_qp *q = &rs->qps[i];
		struct table_row *r;

		group_key(rs, &q->holder, key, sizeof(key));
		if (strcmp(key, g->key) || !(r = child_row(t, g, "qp", q->dev, q->lqpn)))
			continue;
		table_cell(r, C_WHO, 0, "  QP %u %s", q->lqpn, res_qp_type_name(q->type));
		if (!q->holder.kern && q->holder.pid)
			table_cell(r, C_PID, 0, "%u", q->holder.pid);
		table_cell(r, C_STATES, q->state == 6 ? ROLE_BAD : 0, "%s", res_qp_state_name(q->state));
		if (q->port)
			table_cell(r, C_PORTS, 0, "%s/%u", q->dev, q->port);
		snprintf(peer, sizeof(peer), "%s", q->has_rqpn ? "" : "-");
		for (size_t k = 0; k < rs->ncms; k++)
			if (rs->cms[k].has_qp && rs->cms[k].lqpn == q->lqpn && !strcmp(rs->cms[k].dev, q->dev))
				peer_str(&rs->cms[k], peer, sizeof(peer));
		if (!peer[0])
			snprintf(peer, sizeof(peer), "remote QP %u", q->rqpn);
		table_cell(r, C_PEERS, 0, "%s", peer);
	}
	for (size_t i = 0; i < rs->ncms; i++) {
		const struct res_cm *c = &rs->cms[i];
		struct table_row *r;

		group_key(rs, &c->holder, key, sizeof(key));
		/* cm_ids with a QP are that QP's row */
		if (strcmp(key, g->key) || c->has_qp || !(r = child_row(t, g, "cm", c->dev, c->cm_idn)))
			continue;
		table_cell(r, C_WHO, 0, "  cm_id %s", res_ps_name(c->ps));
		if (!c->holder.kern && c->holder.pid)
			table_cell(r, C_PID, 0, "%u", c->holder.pid);
		table_cell(r, C_STATES, 0, "%s", res_cm_state_name(c->state));
		if (c->port)
			table_cell(r, C_PORTS, 0, "%s/%u", c->dev, c->port);
		peer_str(c, peer, sizeof(peer));
		table_cell(r, C_PEERS, 0, "%s", peer);
	}
}

/* The core's reading (an empty one before the first, or after a failure: the pane says why). */
static const struct res_state *conn_res(struct ui *ui)
{
	static const struct res_state none;

	return ui->live.res_ok ? &ui->live.res : &none;
}

static void conn_build(struct ui *ui, struct table *t)
{
	struct conn_state *st = state_of(ui);
	struct conn_group *g;
	size_t n;

	if (!st)
		return;
	g = groups_build(conn_res(ui), t->filter, &n);
	if (!g)
		return;
	rank_texts(g, n, C_WHO);
	rank_texts(g, n, C_USER);
	rank_texts(g, n, C_PORTS);
	rank_texts(g, n, C_PEERS);
	for (size_t k = 0; k < n; k++) {
		struct table_row *r = table_add(t, "%s", g[k].key);
		bool open = is_expanded(st, g[k].key);

		if (!r)
			break;
		for (int c = 0; c < NCOLS; c++) {
			table_cell(r, c, 0, "%s", g[k].text[c][0] ? g[k].text[c] : "-");
			if (g[k].has_num[c])
				table_cell_num(r, c, g[k].num[c]);
		}
		table_cell(r, C_WHO, g[k].probe ? ROLE_OK : 0, "%s %s", open ? "-" : "+", g[k].text[C_WHO]);
		if (strstr(g[k].text[C_STATES], "ERR"))
			table_cell(r, C_STATES, ROLE_BAD, "%s", g[k].text[C_STATES]);
		if (open)
			group_children(t, &g[k], conn_res(ui));
	}
	free(g);
}

static void conn_details(struct ui *ui, const char *key, struct text *out)
{
	const struct res_state *rs = conn_res(ui);
	char gkey[TABLE_KEY_LEN], k2[TABLE_KEY_LEN], a[64], b[64];
	const char *slash;
	bool any = false;

	if (!rs)
		return;
	/* A child's key starts with its group's: "p:123/qp/rxe0/17". */
	snprintf(gkey, sizeof(gkey), "%s", key);
	slash = strchr(gkey, '/');
	if (slash)
		gkey[slash - gkey] = '\0';
	text_add(out, ROLE_HEADING, "Holders in %s", gkey);
	for (size_t i = 0; i < rs->nprocs; i++) {
		const struct res_proc *p = &rs->procs[i];
		char unit[RES_ID_LEN + 16];

		group_key(rs, &p->holder, k2, sizeof(k2));
		if (strcmp(k2, gkey))
			continue;
		any = true;
		res_unit_str(&p->unit, unit, sizeof(unit));
		res_holder_str(rs, &p->holder, a, sizeof(a));
		text_add(out, 0, "  %s pid %u%s  user %s  QPs %zu cm_ids %zu CQs %zu MRs %zu PDs %zu", a,
			 p->holder.pid, p->tgid && p->tgid != p->holder.pid ? " (a thread)" : "",
			 p->holder.kern ? "kernel" : p->user[0] ? p->user : "?", p->nqp, p->ncm,
			 p->nobj[RES_OBJ_CQ], p->nobj[RES_OBJ_MR], p->nobj[RES_OBJ_PD]);
		if (p->cgroup[0])
			text_add(out, ROLE_DIM, "    cgroup %s%s%s", p->cgroup, unit[0] ? " -> " : "", unit);
		if (p->other_pidns)
			text_add(out, ROLE_DIM, "    pid %u inside its own PID namespace", p->ns_pid);
		if (!p->holder.kern && !p->seen)
			text_add(out, ROLE_WARN, "    not visible in /proc (gone, or hidden from this user)");
	}
	if (!any) {
		text_add(out, ROLE_WARN, "%s: gone since the last reading.", gkey);
		return;
	}
	text_add(out, ROLE_HEADING, "QPs");
	for (size_t i = 0; i < rs->nqps; i++) {
		const struct res_qp *q = &rs->qps[i];

		group_key(rs, &q->holder, k2, sizeof(k2));
		if (strcmp(k2, gkey))
			continue;
		text_add(out, q->state == 6 ? ROLE_BAD : 0, "  %s/%u QP %u %s %s  remote QP %s  sq-psn %u rq-psn %u  pid %u",
			 q->dev, q->port, q->lqpn, res_qp_type_name(q->type), res_qp_state_name(q->state),
			 q->has_rqpn ? (snprintf(b, sizeof(b), "%u", q->rqpn), b) : "-", q->sq_psn, q->rq_psn,
			 q->holder.pid);
	}
	text_add(out, ROLE_HEADING, "cm_ids");
	for (size_t i = 0; i < rs->ncms; i++) {
		const struct res_cm *c = &rs->cms[i];

		group_key(rs, &c->holder, k2, sizeof(k2));
		if (strcmp(k2, gkey))
			continue;
		res_sockaddr_str(&c->src, a, sizeof(a));
		res_sockaddr_str(&c->dst, b, sizeof(b));
		text_add(out, 0, "  %s/%u %s %s  %s:%u -> %s:%u  QP %s", c->dev, c->port, res_cm_state_name(c->state),
			 res_ps_name(c->ps), a[0] ? a : "-", c->src.port, b[0] ? b : "-", c->dst.port,
			 c->has_qp ? (snprintf(k2, sizeof(k2), "%u", c->lqpn), k2) : "-");
	}
	text_add(out, ROLE_DIM, "From RDMA netlink (the kernel's resource tracker) and /proc: see 'fabtop show res'.");
}

static const char *conn_empty(struct ui *ui)
{
	const struct res_state *rs = conn_res(ui);

	if (ui_simulated(ui))
		return "The demo fabric is simulated: it has no processes holding RDMA resources.";
	if (ui->live.res_err == -EOPNOTSUPP)
		return "This source has no processes holding RDMA resources.";
	if (ui->live.res_err)
		return "RDMA resources could not be read: out of memory.";
	if (!ui->live.res_ns && ui->live.src)
		return "Reading the RDMA resources ...";
	if (rs->err && !rs->ndevs)
		return rs->why;
	if (!ui->live.host.ndevs)
		return views_no_devices(ui);
	return "No process holds a QP or a cm_id (a filter may hide them).";
}

static enum ui_key_result conn_key(struct ui *ui, void *state, int ch)
{
	struct conn_state *st = state;
	const struct table_row *r;
	char gkey[TABLE_KEY_LEN];
	char *slash;

	if (ch != 'x' || !st)
		return UI_KEY_IGNORED;
	r = table_selected(ui_table(ui));
	if (!r)
		return UI_KEY_TAKEN;
	snprintf(gkey, sizeof(gkey), "%s", r->key);
	if ((slash = strchr(gkey, '/')))
		*slash = '\0';
	for (size_t i = 0; i < st->nexpanded; i++)
		if (!strcmp(st->expanded[i], gkey)) {
			memmove(st->expanded[i], st->expanded[i + 1], (st->nexpanded - i - 1) * sizeof(st->expanded[0]));
			st->nexpanded--;
			snprintf(ui_table(ui)->sel_key, TABLE_KEY_LEN, "%s", gkey);
			views_rebuild(ui);
			return UI_KEY_TAKEN;
		}
	if (st->nexpanded < CONN_MAX_EXPANDED)
		snprintf(st->expanded[st->nexpanded++], TABLE_KEY_LEN, "%s", gkey);
	views_rebuild(ui);
	return UI_KEY_TAKEN;
}

/* While the pane is shown, the core reads the resources with its samples: a new reading is drawn. */
static bool conn_tick(struct ui *ui, void *state)
{
	struct conn_state *st = state;

	if (!st || ui->views[ui->pane] != &view_conn || st->shown_ns == ui->live.res_ns)
		return false;
	st->shown_ns = ui->live.res_ns;
	views_rebuild(ui);
	return true;
}

static void *conn_create(struct ui *ui)
{
	return calloc(1, sizeof(struct conn_state));
}

static void conn_destroy(void *state)
{
	free(state);
}

const struct ui_view view_conn = {
	.id = "connections",
	.wants = LIVE_WANT_RES,
	.title = "Connections",
	.tab = "Conn",
	.cols = conn_cols,
	.ncols = NCOLS,
	.default_sort = C_QPS,
	.default_desc = true,
	.build = conn_build,
	.details = conn_details,
	.empty = conn_empty,
	.key = conn_key,
	.keys_help = "x expand/collapse a holder's QPs and cm_ids, / filters (a peer address too)",
	.create = conn_create,
	.destroy = conn_destroy,
	.tick = conn_tick,
};
