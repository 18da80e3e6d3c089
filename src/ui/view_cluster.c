// SPDX-License-Identifier: GPL-2.0-or-later
/* The Cluster pane: every host's ports as a Prometheus that scrapes `fabtop export` knows them. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/prom_cluster.h"
#include "derive/units.h"
#include "ui/views.h"
#include "ui/widget/theme.h"
#include "util.h"

/*
 * Prometheus scrapes every 15-30 s and answers a refresh of thousands of
 * series in tens of milliseconds: asking more often than this only loads
 * it. The monitor's interval, when longer, is the period.
 */
#define CLUSTER_MIN_PERIOD_NS (2ull * 1000000000ull)

enum { C_HOST, C_DEV, C_PORT, C_STATE, C_RATE, C_IN, C_OUT, C_ERR, C_FAR, C_FIND, NCOLS };

static const struct table_col cluster_cols[NCOLS] = {
	[C_HOST]  = { .title = "HOST",     .width = 22, .prio = 0 },
	[C_DEV]   = { .title = "DEVICE",   .width = 8,  .prio = 0 },
	[C_PORT]  = { .title = "PORT",     .width = 4,  .prio = 0, .right = true, .numeric = true },
	[C_STATE] = { .title = "STATE",    .width = 12, .prio = 0 },
	[C_RATE]  = { .title = "RATE",     .width = 6,  .prio = 2, .right = true, .numeric = true },
	[C_IN]    = { .title = "IN Gb/s",  .width = 8,  .prio = 1, .right = true, .numeric = true },
	[C_OUT]   = { .title = "OUT Gb/s", .width = 8,  .prio = 1, .right = true, .numeric = true },
	[C_ERR]   = { .title = "ERR 5m",   .width = 7,  .prio = 1, .right = true, .numeric = true },
	[C_FAR]   = { .title = "FAR END",  .width = 24, .prio = 3, .flex = true },
	[C_FIND]  = { .title = "FINDINGS", .width = 8,  .prio = 2, .right = true, .numeric = true },
};

struct cluster_pane {
	struct prom_cluster *pc;	/* NULL: no URL, or it could not start (why) */
	char why[128];
	bool refresh_wanted;		/* r: ask now */
};

static const char *cluster_url(struct ui *ui)
{
	/* The command line wins over fabtoprc's [cluster] prometheus=. */
	if (ui->ctx->prometheus_url)
		return ui->ctx->prometheus_url;
	return ui->settings.prometheus[0] ? ui->settings.prometheus : NULL;
}

static void *cluster_create(struct ui *ui)
{
	struct cluster_pane *cp = calloc(1, sizeof(*cp));
	const char *url = cluster_url(ui);

	if (!cp || !url)
		return cp;
	cp->pc = prom_cluster_new(url);
	if (!cp->pc)
		snprintf(cp->why, sizeof(cp->why), "cannot set up the Cluster pane: out of memory");
	return cp;
}

static void cluster_destroy(void *state)
{
	struct cluster_pane *cp = state;

	if (!cp)
		return;
	prom_cluster_free(cp->pc);
	free(cp);
}

static bool cluster_shown(struct ui *ui)
{
	return ui->views[ui->pane] == &view_cluster;
}

static uint64_t cluster_period_ns(struct ui *ui)
{
	uint64_t p = (uint64_t)(ui->live.interval_s * 1e9);

	return p > CLUSTER_MIN_PERIOD_NS ? p : CLUSTER_MIN_PERIOD_NS;
}

/* A refresh is due: the pane is on screen, sampling runs, none in flight, the period is over (or r). */
static bool cluster_due(struct ui *ui, struct cluster_pane *cp, uint64_t now, uint64_t *when)
{
	uint64_t last = prom_cluster_last_ns(cp->pc);

	*when = last ? last + cluster_period_ns(ui) : now;
	if (cp->refresh_wanted)
		*when = now;
	return cluster_shown(ui) && !ui->live.paused && !prom_cluster_busy(cp->pc);
}

/* A row's key: its names when they fit, else a hash of them (names up to 272 bytes do not fit 96). */
static void port_key(const struct cluster *c, const struct cluster_port *p, char *buf, size_t size)
{
	const char *inst = cluster_port_instance(c, p);
	uint64_t h = 1469598103934665603ull;
	int n = snprintf(buf, size, "%s/%s/%s", inst, p->device, p->port);

	if (n >= 0 && (size_t)n < size)
		return;
	for (const char *parts[3] = { inst, p->device, p->port }, **q = parts; q < parts + 3; q++)
		for (const unsigned char *s = (const unsigned char *)*q; ; s++) {
			h = (h ^ *s) * 1099511628211ull;
			if (!*s)
				break;
		}
	snprintf(buf, size, "#%016llx", (unsigned long long)h);
}

static const struct cluster_port *port_of_key(const struct cluster *c, const char *key)
{
	char k[TABLE_KEY_LEN];

	for (size_t i = 0; c && i < c->nports; i++) {
		port_key(c, &c->ports[i], k, sizeof(k));
		if (!strcmp(k, key))
			return &c->ports[i];
	}
	return NULL;
}

/* A Gb/s cell from bits per second; "-" when unknown. */
static void gbps_cell(struct table_row *r, int col, double bits_per_s)
{
	if (isnan(bits_per_s)) {
		table_cell(r, col, ROLE_DIM, "-");
		return;
	}
	table_cell(r, col, 0, "%.2f", bits_per_s / 1e9);
	table_cell_num(r, col, bits_per_s);
}

static void cluster_build(struct ui *ui, struct table *t)
{
	struct cluster_pane *cp = ui_pane_state(ui, &view_cluster);
	const struct cluster *c = cp && cp->pc ? prom_cluster_model(cp->pc, NULL) : NULL;
	bool stale = c && prom_cluster_error(cp->pc);
	char key[TABLE_KEY_LEN];
	double num;

	for (size_t i = 0; c && i < c->nports; i++) {
		const struct cluster_port *p = &c->ports[i];
		const struct cluster_host *h = &c->hosts[p->host];
		struct table_row *r;

		port_key(c, p, key, sizeof(key));
		r = table_add(t, "%s", key);
		if (!r)
			return;
		table_cell(r, C_HOST, 0, "%s", h->instance);
		table_cell(r, C_DEV, 0, "%s", p->device);
		table_cell(r, C_PORT, 0, "%s", p->port);
		/* a port the Prometheus named oddly sorts as unknown, not as 0 */
		table_cell_num(r, C_PORT, util_num_double(p->port, 0, 0, 1e9, &num, NULL) ? NAN : num);
		table_cell(r, C_STATE, views_port_state_role(p->state), "%s",
			   p->state == PORT_STATE_UNKNOWN ? "?" : fab_port_state_str(p->state));
		/* Sorted by state: the broken ones first in ascending order. */
		table_cell_num(r, C_STATE, p->state == PORT_STATE_UNKNOWN ? NAN : p->state);
		if (isnan(p->rate_bytes_per_s)) {
			table_cell(r, C_RATE, ROLE_DIM, "-");
		} else {
			table_cell(r, C_RATE, 0, "%g", p->rate_bytes_per_s * 8 / 1e9);
			table_cell_num(r, C_RATE, p->rate_bytes_per_s);
		}
		gbps_cell(r, C_IN, p->in_bits_per_s);
		gbps_cell(r, C_OUT, p->out_bits_per_s);
		if (isnan(p->err_delta)) {
			table_cell(r, C_ERR, ROLE_DIM, "-");
		} else {
			table_cell(r, C_ERR, p->err_delta > 0 ? ROLE_BAD : 0, "%.0f", p->err_delta);
			table_cell_num(r, C_ERR, p->err_delta);
		}
		if (p->partner_desc[0] || p->partner_port[0])
			table_cell(r, C_FAR, 0, "%s%s%s", p->partner_desc, p->partner_port[0] ? " port " : "",
				   p->partner_port);
		else
			table_cell(r, C_FAR, ROLE_DIM, "-");
		if (h->findings < 0) {
			table_cell(r, C_FIND, ROLE_DIM, "?");
		} else {
			table_cell(r, C_FIND, h->findings ? ROLE_WARN : 0, "%d", h->findings);
			table_cell_num(r, C_FIND, h->findings);
		}
		if (stale)
			r->role = ROLE_DIM;
		else if (p->state == PORT_STATE_DOWN || (!isnan(p->err_delta) && p->err_delta > 0))
			r->role = ROLE_WARN;
	}
}

/* The line above the table: where the rows come from, how fresh they are, or why they are not. */
static void cluster_status(struct ui *ui, struct cluster_pane *cp, char *buf, size_t size, int *role)
{
	const struct prom_cluster_stats *st = prom_cluster_stats(cp->pc);
	const char *err = prom_cluster_error(cp->pc);
	uint64_t when, now = util_now_ns();
	const struct cluster *c = prom_cluster_model(cp->pc, &when);
	int n;

	*role = ROLE_DIM;
	if (err) {
		*role = ROLE_BAD;
		snprintf(buf, size, "Prometheus %s %s", prom_cluster_url(cp->pc), err);
		return;
	}
	if (!c) {
		snprintf(buf, size, "Prometheus %s: asking...", prom_cluster_url(cp->pc));
		return;
	}
	n = snprintf(buf, size, "Prometheus %s: %zu hosts, %zu ports, %d queries in %.0f ms, %.0f s ago",
		     prom_cluster_url(cp->pc), c->nhosts, c->nports, PROM_CLUSTER_NFAMILIES,
		     (double)st->refresh_ns / 1e6, (double)(now - when) / 1e9);
	if (c->ignored && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "; %zu series without instance/device/port ignored", c->ignored);
	if (ui->live.paused && n >= 0 && (size_t)n < size)
		snprintf(buf + strlen(buf), size - strlen(buf), " (paused)");
}

static void cluster_draw(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	struct cluster_pane *cp = ui_pane_state(ui, &view_cluster);
	struct table *t = ui_table(ui);
	struct table_draw_opts o = { .utf8 = ui->utf8, .focused = true };
	struct ui_rect body = r;
	char status[768];
	int role;

	if (cp && cp->pc && r.h > 3) {
		uint64_t when;

		cluster_status(ui, cp, status, sizeof(status), &role);
		ui_puts(w, body.y++, r.x, r.w, theme_attr(role), status);
		body.h--;
		/* Rows of an earlier refresh stay (dimmed) rather than vanish while the Prometheus is away. */
		if (prom_cluster_error(cp->pc) && prom_cluster_model(cp->pc, &when)) {
			snprintf(status, sizeof(status), "The rows below are from %.0f s ago; asking again every %.0f s.",
				 (double)(util_now_ns() - when) / 1e9, (double)cluster_period_ns(ui) / 1e9);
			ui_puts(w, body.y++, r.x, r.w, theme_attr(ROLE_DIM), status);
			body.h--;
		}
	}
	if (!t->nview)
		views_draw_empty(ui, w, body);
	else
		table_draw(t, w, body.y, body.x, body.h, body.w, &o);
}

static const char *cluster_empty(struct ui *ui)
{
	struct cluster_pane *cp = ui_pane_state(ui, &view_cluster);
	static char msg[768];
	const struct cluster *c;

	if (!cp)
		return "The Cluster pane is not available: out of memory.";
	if (!cp->pc && cp->why[0])
		return cp->why;
	if (!cp->pc)
		return "No Prometheus is set. Start with --prometheus http://HOST:9090, or write "
		       "prometheus=http://HOST:9090 under [cluster] in $XDG_CONFIG_HOME/fabtop/fabtoprc; "
		       "the pane then lists every host whose `fabtop export` that Prometheus scrapes.";
	if (ui_table(ui)->filter[0])
		return "No port matches the filter (Esc clears it).";
	c = prom_cluster_model(cp->pc, NULL);
	if (prom_cluster_error(cp->pc) && !c)
		return "No rows: the Prometheus could not be asked (above). The pane asks again every few seconds.";
	if (!c)
		return "Asking the Prometheus...";
	snprintf(msg, sizeof(msg), "The Prometheus at %s knows no fabtop_port_* series%s: is `fabtop export` "
		 "running on the hosts, and in its scrape_configs?", prom_cluster_url(cp->pc),
		 c->ignored ? " with instance, device and port labels" : "");
	return msg;
}

/* The labels that say which series it is, past the row's own (instance, device, port) and job. */
static void series_line(const struct prom_sample *s, char *buf, size_t size)
{
	const char *name = prom_sample_label(s, "__name__");
	size_t n = 0;
	bool first = true;
	int k;

	k = snprintf(buf, size, "%s", name ? name : "(no name)");
	n = k > 0 ? (size_t)k : 0;
	for (size_t i = 0; i < s->nlabels && n < size; i++) {
		const char *l = s->labels[i].name;

		if (!strcmp(l, "__name__") || !strcmp(l, "instance") || !strcmp(l, "device") ||
		    !strcmp(l, "port") || !strcmp(l, "job"))
			continue;
		k = snprintf(buf + n, size - n, "%s%s=\"%s\"", first ? "{" : ",", l, s->labels[i].value);
		n += k > 0 ? (size_t)k : 0;
		first = false;
	}
	if (!first && n < size)
		snprintf(buf + n, size - n, "}");
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void cluster_details(struct ui *ui, const char *key, struct text *out)
{
	struct cluster_pane *cp = ui_pane_state(ui, &view_cluster);
	const struct cluster *c = cp && cp->pc ? prom_cluster_model(cp->pc, NULL) : NULL;
	const struct cluster_port *p = c ? port_of_key(c, key) : NULL;
	const struct prom_vector *v;
	const char *err, *inst;
	enum prom_details_state st;
	char **lines;
	uint64_t when;

	if (!p) {
		text_add(out, ROLE_WARN, "This port is gone from the Prometheus's answer.");
		return;
	}
	inst = cluster_port_instance(c, p);
	text_add(out, ROLE_HEADING, "%s %s port %s, as %s knows it", inst, p->device, p->port,
		 prom_cluster_url(cp->pc));
	st = prom_cluster_details_get(cp->pc, inst, p->device, p->port, &v, &err, &when);
	if (st == PROM_DETAILS_NONE || st == PROM_DETAILS_BUSY) {
		text_add(out, ROLE_DIM, "  asking for its fabtop_port_* and fabtop_link_partner_* series...");
		return;
	}
	if (st == PROM_DETAILS_FAILED) {
		text_add(out, ROLE_BAD, "  %s", err);
		return;
	}
	text_add(out, ROLE_DIM, "  %zu series of {instance=\"%s\", device=\"%s\", port=\"%s\"}, %.0f s ago",
		 v->nsamples, inst, p->device, p->port, (double)(util_now_ns() - when) / 1e9);
	/* Sorted by name and labels: the same series stay on the same lines from one look to the next. */
	lines = calloc(v->nsamples ? v->nsamples : 1, sizeof(*lines));
	if (!lines) {
		text_add(out, ROLE_BAD, "  out of memory");
		return;
	}
	for (size_t i = 0; i < v->nsamples; i++) {
		char buf[TEXT_LINE_LEN];

		series_line(&v->samples[i], buf, sizeof(buf));
		if (asprintf(&lines[i], "  %-*s %.12g", 60, buf, v->samples[i].value) < 0)
			lines[i] = NULL;
	}
	qsort(lines, v->nsamples, sizeof(*lines), line_cmp);
	for (size_t i = 0; i < v->nsamples; i++) {
		if (lines[i])
			text_add(out, 0, "%s", lines[i]);
		free(lines[i]);
	}
	free(lines);
}

static enum ui_key_result cluster_key(struct ui *ui, void *state, int ch)
{
	struct cluster_pane *cp = state;

	if (ch != 'r' || !cp || !cp->pc)
		return UI_KEY_IGNORED;
	cp->refresh_wanted = true;
	ui_status(ui, "asking %s now", prom_cluster_url(cp->pc));
	return UI_KEY_TAKEN;
}

static int cluster_fds(struct ui *ui, void *state, struct pollfd *fds, int max, int *timeout_ms)
{
	struct cluster_pane *cp = state;
	uint64_t when, now = util_now_ns();

	if (!cp || !cp->pc)
		return 0;
	if (cluster_due(ui, cp, now, &when)) {
		int t = when > now ? (int)((when - now + 999999) / 1000000) : 0;

		if (*timeout_ms < 0 || t < *timeout_ms)
			*timeout_ms = t;
	}
	/* The status line counts seconds: tick it while shown. */
	if (cluster_shown(ui) && (*timeout_ms < 0 || *timeout_ms > 1000))
		*timeout_ms = 1000;
	return prom_cluster_fds(cp->pc, fds, max, timeout_ms);
}

/* After every poll: answers in, refreshes and details out. Never blocks: libcurl does the waiting in our poll. */
static bool cluster_handle(struct ui *ui, void *state)
{
	struct cluster_pane *cp = state;
	uint64_t when, now = util_now_ns();
	bool changed;

	if (!cp || !cp->pc)
		return false;
	changed = prom_cluster_handle(cp->pc);
	if (cluster_due(ui, cp, now, &when) && now >= when) {
		cp->refresh_wanted = false;
		prom_cluster_refresh(cp->pc);
		prom_cluster_handle(cp->pc);
	}
	if (changed && cluster_shown(ui))
		views_rebuild(ui);
	/* The status line's age moves every second. */
	return changed || cluster_shown(ui);
}

/* After the keys: Enter opened the overlay on a row; ask for that port's series (and again each period). */
static bool cluster_tick(struct ui *ui, void *state)
{
	struct cluster_pane *cp = state;
	const struct cluster *c;
	const struct cluster_port *p;
	const struct prom_vector *v;
	enum prom_details_state st;
	const char *err;
	uint64_t at, now = util_now_ns();

	if (!cp || !cp->pc || !cluster_shown(ui) || !ui->overlay.details)
		return false;
	c = prom_cluster_model(cp->pc, NULL);
	p = c ? port_of_key(c, ui->overlay.details_key) : NULL;
	if (!p)
		return false;
	st = prom_cluster_details_get(cp->pc, cluster_port_instance(c, p), p->device, p->port, &v, &err, &at);
	if (st == PROM_DETAILS_BUSY || (st != PROM_DETAILS_NONE && (ui->live.paused || now - at < cluster_period_ns(ui))))
		return false;
	prom_cluster_details(cp->pc, cluster_port_instance(c, p), p->device, p->port);
	prom_cluster_handle(cp->pc);
	return true;
}

const struct ui_view view_cluster = {
	.id = "cluster",
	.title = "Cluster",
	.tab = "Clus",
	.cols = cluster_cols,
	.ncols = NCOLS,
	.default_sort = C_HOST,
	.default_desc = false,
	.build = cluster_build,
	.draw = cluster_draw,
	.details = cluster_details,
	.empty = cluster_empty,
	.key = cluster_key,
	.keys_help = "r ask the Prometheus now",
	.create = cluster_create,
	.destroy = cluster_destroy,
	.fds = cluster_fds,
	.handle = cluster_handle,
	.tick = cluster_tick,
};
