// SPDX-License-Identifier: GPL-2.0-or-later
/* The Events pane: what happened (flaps, state changes, bursts, network and doctor changes), newest first. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/events.h"
#include "ui/views.h"
#include "ui/widget/theme.h"

enum { C_TIME, C_SEV, C_KIND, C_WHERE, C_IFACE, C_WHAT, NCOLS };

static const struct table_col events_cols[NCOLS] = {
	[C_TIME]  = { .title = "TIME",     .width = 12, .prio = 0, .numeric = true },
	[C_SEV]   = { .title = "SEVERITY", .width = 8,  .prio = 1, .numeric = true },
	[C_KIND]  = { .title = "KIND",     .width = 15, .prio = 2 },
	[C_WHERE] = { .title = "PORT",     .width = 10, .prio = 0 },
	[C_IFACE] = { .title = "IFACE",    .width = 8,  .prio = 3 },
	[C_WHAT]  = { .title = "WHAT HAPPENED", .width = 24, .prio = 0, .flex = true },
};

static const int sev_role[] = {
	[EVENT_INFO] = ROLE_DIM,
	[EVENT_WARNING] = ROLE_WARN,
	[EVENT_ERROR] = ROLE_BAD,
};

static int event_role(const struct fab_event *ev)
{
	return ev->severity < ARRAY_SIZE(sev_role) ? sev_role[ev->severity] : 0;
}

static void events_build(struct ui *ui, struct table *t)
{
	const struct event_log *l = &ui->live.events;

	for (size_t i = 0; i < event_log_count(l); i++) {
		const struct fab_event *ev = event_log_at(l, i);
		const char *kind = event_kind_str(ev->kind);
		char when[48];
		struct table_row *r = table_add(t, "%" PRIu64, ev->seq);

		if (!r)
			break;
		events_time_str(ev->real_ns, when, sizeof(when));
		/* Today's events need no date: the clock time to the millisecond. */
		table_cell(r, C_TIME, 0, "%s", strlen(when) > 11 ? when + 11 : when);
		/* Sorted by time, the order they happened in (seq breaks ties, and survives clock steps). */
		table_cell_num(r, C_TIME, (double)ev->seq);
		table_cell(r, C_SEV, event_role(ev), "%s", event_severity_str(ev->severity));
		table_cell_num(r, C_SEV, ev->severity);
		table_cell(r, C_KIND, 0, "%s", kind ? kind : "?");
		if (ev->device[0] && ev->port)
			table_cell(r, C_WHERE, 0, "%s/%u", ev->device, ev->port);
		else
			table_cell(r, C_WHERE, 0, "%s", ev->device[0] ? ev->device : "-");
		table_cell(r, C_IFACE, 0, "%s", ev->iface[0] ? ev->iface : "-");
		table_cell(r, C_WHAT, event_role(ev), "%s", ev->what);
	}
	/* Built while shown: everything in it has been seen (the header counter starts again). */
	if (ui->views[ui->pane]->build == events_build)
		event_log_mark_seen(&ui->live.events);
}

static const struct fab_event *event_of_key(struct ui *ui, const char *key)
{
	uint64_t seq;

	if (util_parse_u64(key, 10, UINT64_MAX, &seq))
		return NULL;
	for (size_t i = 0; i < event_log_count(&ui->live.events); i++)
		if (event_log_at(&ui->live.events, i)->seq == seq)
			return event_log_at(&ui->live.events, i);
	return NULL;
}

static void event_text(const struct fab_event *ev, struct text *out)
{
	char when[48];
	const char *kind = event_kind_str(ev->kind);

	events_time_str(ev->real_ns, when, sizeof(when));
	text_add(out, event_role(ev), "[%s] %s: %s", event_severity_str(ev->severity), kind ? kind : "?", ev->what);
	text_add(out, 0, "  when     %s (event %" PRIu64 ")", when, ev->seq);
	if (ev->device[0])
		text_add(out, 0, "  port     %s%s%.0u", ev->device, ev->port ? "/" : "", ev->port);
	if (ev->iface[0])
		text_add(out, 0, "  iface    %s", ev->iface);
	text_add(out, ROLE_HEADING, "evidence");
	text_add(out, 0, "  %s", ev->evidence[0] ? ev->evidence : "-");
}

static void events_draw(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	struct table *t = ui_table(ui);
	struct table_draw_opts o = { .utf8 = ui->utf8, .focused = true };
	const struct table_row *sel;
	const struct fab_event *ev;
	struct text tx = { 0 };
	int th = (int)t->nview + 1, y;

	if (!t->nview) {
		views_draw_empty(ui, w, r);
		return;
	}
	/* The table above, the selected event's evidence below (as the Doctor pane). */
	if (r.h >= 10 && th > r.h - 6)
		th = r.h - 6;
	if (th > r.h)
		th = r.h;
	table_draw(t, w, r.y, r.x, th, r.w, &o);
	sel = table_selected(t);
	ev = sel ? event_of_key(ui, sel->key) : NULL;
	if (!ev)
		return;
	event_text(ev, &tx);
	y = r.y + th + 1;
	for (size_t i = 0; i < tx.n && y < r.y + r.h; i++)
		ui_puts(w, y++, r.x, r.w, theme_attr(tx.lines[i].role), tx.lines[i].s);
	text_free(&tx);
}

static void events_details(struct ui *ui, const char *key, struct text *out)
{
	const struct fab_event *ev = event_of_key(ui, key);

	if (!ev) {
		text_add(out, ROLE_WARN, "This event has left the log (it keeps the newest %zu).", ui->live.events.cap);
		return;
	}
	event_text(ev, out);
	text_add(out, ROLE_DIM, "The same in a shell: fabtop show events%s  (doc/events.md explains each kind)",
		 ui_simulated(ui) ? " --demo" : "");
}

static const char *events_empty(struct ui *ui)
{
	static char msg[256];

	if (ui_table(ui)->filter[0])
		return "No event matches the filter (Esc clears it).";
	snprintf(msg, sizeof(msg), "Nothing has happened since fabtop started: link flaps, port state changes, "
		 "error bursts, GID, address, route and rule changes and doctor findings show here as they come%s.",
		 ui->live.async_fd >= 0 ? " (device notifications too)" : "");
	return msg;
}

const struct ui_view view_events = {
	.id = "events",
	.title = "Events",
	.tab = "Evts",
	.cols = events_cols,
	.ncols = NCOLS,
	.default_sort = C_TIME,
	.default_desc = true,
	.build = events_build,
	.draw = events_draw,
	.details = events_details,
	.empty = events_empty,
};
