// SPDX-License-Identifier: GPL-2.0-or-later
/* What keys do: overlays and filter editing first, then the bindings table. */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "derive/counters.h"
#include "ui/keys.h"
#include "ui/mad_ui.h"
#include "ui/replay_ui.h"
#include "ui/views.h"
#include "util.h"

/* Refresh intervals '+' and '-' step through (seconds). */
static const double intervals[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600 };
#define NINTERVALS (ARRAY_SIZE(intervals))

static void set_interval(struct ui *ui, int dir)
{
	double cur = ui->interval_s;
	double next = cur;

	if (dir > 0) {
		for (size_t i = 0; i < NINTERVALS; i++)
			if (intervals[i] > cur + 1e-9) {
				next = intervals[i];
				break;
			}
	} else {
		for (size_t i = NINTERVALS; i-- > 0;)
			if (intervals[i] < cur - 1e-9) {
				next = intervals[i];
				break;
			}
	}
	ui->interval_s = next;
	ui->ctx->interval_s = next;	/* the demo source reads it live */
	ui->next_sample_ns = util_now_ns() + (uint64_t)(next * 1e9);
	ui_status(ui, "refresh every %g s", next);
}

static void reset_deltas(struct ui *ui)
{
	for (size_t i = 0; i < ui->host.ndevs; i++)
		for (size_t j = 0; j < ui->host.devs[i].nports; j++) {
			struct fab_port *p = &ui->host.devs[i].ports[j];

			for (size_t k = 0; k < p->ncounters; k++)
				counter_reset_delta(&p->counters[k]);
		}
	track_reset(&ui->track);
	track_sample(&ui->track, &ui->host, ui->last_sample_ns);
	/* track_sample counted this interval's movement again: it is history now. */
	track_reset(&ui->track);
	mad_ui_reset(ui->mad);
	screen_rebuild(ui);
	ui_status(ui, "deltas reset: error counts start from now");
}

static void save_settings(struct ui *ui)
{
	char path[PATH_MAX];
	int rc;

	if (settings_path(path, sizeof(path))) {
		ui_status(ui, "cannot save: neither XDG_CONFIG_HOME nor HOME is set");
		return;
	}
	ui->settings.have_interval = true;
	ui->settings.interval_s = ui->interval_s;
	snprintf(ui->settings.pane, sizeof(ui->settings.pane), "%s", ui->views[ui->pane]->id);
	ui->settings.have_color = true;
	ui->settings.color = ui->color;
	ui->settings.have_window = true;
	ui->settings.window_s = ui_windows_s[ui->window];
	views_save_sorts(ui);
	rc = settings_write(&ui->settings, path);
	if (rc == -EPERM)
		ui_status(ui, "cannot save %s: its directory belongs to another user: not written there", path);
	else if (rc == -ELOOP)
		ui_status(ui, "cannot save %s: its directory is a symbolic link: not written through it", path);
	else if (rc)
		ui_status(ui, "cannot save %s: %s", path, strerror(-rc));
	else
		ui_status(ui, "settings saved to %s", path);
}

static void set_pane(struct ui *ui, size_t pane)
{
	if (pane >= ui->nviews)
		return;
	ui->pane = pane;
	ui->details = false;
	ui->filter_edit = false;
	screen_rebuild(ui);
}

static void scroll_overlay(size_t *top, long delta)
{
	if (delta < 0 && (size_t)-delta > *top)
		*top = 0;
	else
		*top = (size_t)((long)*top + delta);	/* clamped when drawn */
}

/* Long: one switch from actions to what they do, a case per binding of keys.c. */
void ui_do(struct ui *ui, int action, int arg)
{
	struct table *t = ui_table(ui);
	long page = t->page > 1 ? t->page - 1 : 1;
	size_t *otop = ui->help ? &ui->help_top : ui->details ? &ui->details_top : NULL;

	ui->dirty = true;
	switch ((enum ui_action)action) {
	case ACT_NONE:
		break;
	case ACT_QUIT:
		ui->quit = true;
		break;
	case ACT_HELP:
		ui->help = !ui->help;
		ui->help_top = 0;
		break;
	case ACT_PANE_NEXT:
		set_pane(ui, (ui->pane + 1) % ui->nviews);
		break;
	case ACT_PANE_PREV:
		set_pane(ui, (ui->pane + ui->nviews - 1) % ui->nviews);
		break;
	case ACT_PANE:
		set_pane(ui, (size_t)arg);
		break;
	case ACT_UP:
		otop ? scroll_overlay(otop, -1) : table_move(t, -1);
		break;
	case ACT_DOWN:
		otop ? scroll_overlay(otop, 1) : table_move(t, 1);
		break;
	case ACT_PGUP:
		otop ? scroll_overlay(otop, -(long)(ui->body.h > 3 ? ui->body.h - 3 : 1)) : table_move(t, -page);
		break;
	case ACT_PGDN:
		otop ? scroll_overlay(otop, ui->body.h > 3 ? ui->body.h - 3 : 1) : table_move(t, page);
		break;
	case ACT_HOME:
		otop ? (void)(*otop = 0) : table_home(t);
		break;
	case ACT_END:
		otop ? (void)(*otop = (size_t)-1 / 2) : table_end_key(t);
		break;
	case ACT_FILTER:
		if (ui->views[ui->pane]->cols) {
			ui->filter_edit = true;
			ui->details = false;
		} else {
			ui_status(ui, "this pane has no rows to filter");
		}
		break;
	case ACT_SORT_NEXT:
		if (ui->views[ui->pane]->cols) {
			table_sort_next(t);
			ui_status(ui, "sorted by %s %s", t->cols[t->sort_col].title,
				  t->sort_desc ? "(descending)" : "(ascending)");
		}
		break;
	case ACT_SORT_REVERSE:
		if (ui->views[ui->pane]->cols)
			table_sort_by(t, t->sort_col);
		break;
	case ACT_PAUSE:
		ui->paused = !ui->paused;
		if (!ui->paused)
			ui->next_sample_ns = util_now_ns();
		ui_status(ui, ui->paused ? "paused: p resumes" : "resumed");
		break;
	case ACT_SLOWER:
		set_interval(ui, 1);
		break;
	case ACT_FASTER:
		set_interval(ui, -1);
		break;
	case ACT_RESET:
		reset_deltas(ui);
		break;
	case ACT_DETAILS:
		if (ui->details) {
			ui->details = false;
		} else if (table_selected(t)) {
			const struct table_row *r = table_selected(t);
			size_t off = 0;

			ui->details = true;
			ui->details_top = 0;
			snprintf(ui->details_key, sizeof(ui->details_key), "%s", r->key);
			ui->details_title[0] = '\0';
			for (int c = 0; c < t->ncols && c < 3 && off < sizeof(ui->details_title); c++) {
				int n = snprintf(ui->details_title + off, sizeof(ui->details_title) - off, "%s%s",
						 c ? "  " : "", r->cells[c].text);

				if (n < 0)
					break;
				off += (size_t)n;
			}
		}
		break;
	case ACT_BACK:
		if (ui->help)
			ui->help = false;
		else if (ui->details)
			ui->details = false;
		else if (t->filter[0])
			table_set_filter(t, "");
		break;
	case ACT_WINDOW:
		ui->window = (ui->window + 1) % UI_NWINDOWS;
		ui_status(ui, "graph window %u s", ui_windows_s[ui->window]);
		break;
	case ACT_SAVE:
		save_settings(ui);
		break;
	case ACT_DEMO:
		if (!ui_simulated(ui) && !ui->host.ndevs)
			ui_start_demo(ui);
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case ACT_STEP_BACK:
	case ACT_STEP_FWD:
		replay_ui_step(ui, action == ACT_STEP_BACK ? -1 : 1);
		break;
	case ACT_JUMP_BACK:
	case ACT_JUMP_FWD:
		replay_ui_jump(ui, (action == ACT_JUMP_BACK ? -60 : 60) * 1000000000ll);
		break;
	case ACT_GOTO:
		replay_ui_goto_prompt(ui);
		break;
	case ACT_NEXT_EVENT:
		replay_ui_next_event(ui);
		break;
	case ACT_RECORD:
		replay_ui_record_toggle(ui);
		break;
	}
}

static void filter_key(struct ui *ui, int ch)
{
	struct table *t = ui_table(ui);
	char f[TABLE_FILTER_LEN];
	size_t n;

	snprintf(f, sizeof(f), "%s", t->filter);
	n = strlen(f);
	if (ch == 27) {
		f[0] = '\0';
		ui->filter_edit = false;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		ui->filter_edit = false;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (n)
			f[n - 1] = '\0';
	} else if (ch == KEY_UP || ch == KEY_DOWN) {
		table_move(t, ch == KEY_UP ? -1 : 1);
		return;
	} else if (ch >= 0x20 && ch < 0x7f && n + 1 < sizeof(f)) {
		f[n] = (char)ch;
		f[n + 1] = '\0';
	} else {
		return;
	}
	table_set_filter(t, f);
}

void ui_key(struct ui *ui, int ch)
{
	int arg;
	enum ui_action a;

	ui->dirty = true;
	if (ch == KEY_RESIZE)
		return;
	if (ch == KEY_MOUSE) {
		ui_mouse(ui);
		return;
	}
	if (ui->filter_edit) {
		filter_key(ui, ch);
		return;
	}
	if (replay_ui_edit_key(ui, ch))
		return;
	if (!ui->help && !ui->details && ui->views[ui->pane]->key) {
		switch (ui->views[ui->pane]->key(ui, ui->pane_state[ui->pane], ch)) {
		case UI_KEY_IGNORED:
			break;
		case UI_KEY_TAKEN:
			return;
		case UI_KEY_RESCAN:
			ui->clock.rescan_wanted = true;
			return;
		case UI_KEY_QUIT:
			ui->quit = true;
			return;
		}
	}
	a = keys_lookup(ch, &arg);
	/* Overlays: scrolling keys scroll, closing keys close, the rest as usual. */
	/* In the help, scrolling keys scroll and F10 quits; any other key closes it. */
	if (ui->help && a != ACT_UP && a != ACT_DOWN && a != ACT_PGUP && a != ACT_PGDN &&
	    a != ACT_HOME && a != ACT_END && ch != KEY_F(10)) {
		ui->help = false;
		return;
	}
	if (ui->details && (ch == 'q' || ch == KEY_BACKSPACE || ch == 127)) {
		ui->details = false;
		return;
	}
	ui_do(ui, a, arg);
}
