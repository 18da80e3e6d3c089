// SPDX-License-Identifier: GPL-2.0-or-later
/* What the panes share: their table rebuilt and its "no rows" drawn, a row's port, colours and cells of ports and counters. */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "source/source.h"
#include "derive/counters.h"
#include "derive/port.h"
#include "derive/units.h"
#include "ui/views.h"
#include "ui/widget/theme.h"
#include "util.h"

/* How long a row stays lit after its error counters stopped moving. */
#define ERR_FADE_NS (10ull * 1000000000ull)

int views_find(const struct ui *ui, const char *id)
{
	for (size_t i = 0; i < ui->nviews; i++)
		if (!strcmp(ui->views[i]->id, id))
			return (int)i;
	return -1;
}

void views_rebuild(struct ui *ui)
{
	/* Only the pane on screen: the others are rebuilt when they are shown. */
	const struct ui_view *v = ui->views[ui->pane];
	struct table *t = ui_table(ui);

	if (!v->build)
		return;
	table_begin(t);
	v->build(ui, t);
	table_end(t);
}

int views_draw_empty(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	const struct ui_view *v = ui->views[ui->pane];
	struct table_draw_opts o = { .utf8 = ui->utf8 };
	struct ui_rect m = { r.y + 1, r.x + 1, r.h - 1, r.w - 2 };

	if (r.h <= 0 || r.w <= 0)
		return 0;
	table_draw(ui_table(ui), w, r.y, r.x, 1, r.w, &o);
	if (m.w < 1) {
		m.w = r.w;
		m.x = r.x;
	}
	if (!v->empty)
		return 1;
	return 1 + ui_wrap(w, m, theme_attr(ui->live.host.ndevs ? ROLE_DIM : ROLE_WARN), v->empty(ui));
}

struct fab_port *views_port_of_key(struct ui *ui, const char *key, struct fab_device **dev)
{
	for (size_t i = 0; i < ui->live.host.ndevs; i++) {
		struct fab_device *d = &ui->live.host.devs[i];
		size_t n = strlen(d->name);

		if (strncmp(key, d->name, n) || key[n] != '/')
			continue;
		for (size_t j = 0; j < d->nports; j++) {
			char num[16];

			snprintf(num, sizeof(num), "%u", d->ports[j].num);
			if (!strncmp(key + n + 1, num, strlen(num)) &&
			    (key[n + 1 + strlen(num)] == '\0' || key[n + 1 + strlen(num)] == '/')) {
				if (dev)
					*dev = d;
				return &d->ports[j];
			}
		}
	}
	return NULL;
}

void views_origin(struct ui *ui, const struct fab_device *d, char *buf, size_t size)
{
	char from[PATH_MAX];

	if ((ui_simulated(ui) || ui_recorded(ui)) && ui->live.src) {
		source_describe(ui->live.src, from, sizeof(from));
		snprintf(buf, size, "%s: %s", from, d->name);
	} else {
		snprintf(buf, size, "%s/class/infiniband/%s", ui->ctx->sysfs_root, d->name);
	}
}

int views_state_role(const struct fab_port *p)
{
	return views_port_state_role(p->state);
}

int views_port_state_role(enum fab_port_state s)
{
	switch (s) {
	case PORT_STATE_ACTIVE:
	case PORT_STATE_ACTIVE_DEFER:
		return ROLE_OK;
	case PORT_STATE_INIT:
	case PORT_STATE_ARMED:
		return ROLE_WARN;
	case PORT_STATE_DOWN:
		return ROLE_BAD;
	default:
		return ROLE_DIM;
	}
}

int views_err_role(struct ui *ui, const struct track_port *tp)
{
	if (!tp || !tp->err_moved_ns)
		return 0;
	if (tp->err_moved_ns == ui->live.last_sample_ns)
		return ROLE_ERR_MOVING;
	if (ui->live.last_sample_ns - tp->err_moved_ns < ERR_FADE_NS)
		return ROLE_ERR_FADING;
	return 0;
}

/* The port flags come from the rules the doctor uses (derive/port.h). */
void views_port_flags(const struct fab_device *d, const struct fab_port *p, char *buf, size_t size)
{
	port_flags_str(port_flags(d, p), buf, size);
}

const char *views_no_devices(struct ui *ui)
{
	static char msg[512];

	if (ui_simulated(ui))
		return "The demo fabric has no devices.";
	if (ui_recorded(ui))
		return "The recording has no RDMA devices at this time.";
	snprintf(msg, sizeof(msg),
		 "No RDMA devices found: %s/class/infiniband %s. "
		 "Load an RDMA driver (mlx5_ib, rdma_rxe, siw, ...) or press d to run the demo fabric; q quits.",
		 ui->ctx->sysfs_root, ui->live.host.sysfs_missing ? "does not exist" : "is empty");
	return msg;
}

void views_counter_cells(const struct fab_counter *c, uint64_t dt_ns, struct counter_cells *out)
{
	uint64_t d;
	double v;

	snprintf(out->interval, sizeof(out->interval), "-");
	snprintf(out->since_start, sizeof(out->since_start), "-");
	snprintf(out->rate, sizeof(out->rate), "-");
	if (counter_delta(c, &d))
		snprintf(out->interval, sizeof(out->interval), "%" PRIu64, d);
	if (counter_delta_since_start(c, &d))
		snprintf(out->since_start, sizeof(out->since_start), "%" PRIu64, d);
	/* The data counters count 4-octet words: bytes per second, whatever the link width. */
	if (counter_rate(c, dt_ns, &v))
		units_si(out->rate, sizeof(out->rate), c->kind == COUNTER_KIND_DATA ? v * IB_DATA_WORD_BYTES : v,
			 c->kind == COUNTER_KIND_DATA ? "B/s" : "/s");
}
