// SPDX-License-Identifier: GPL-2.0-or-later
/* What keys do: overlays and filter editing first, then the bindings table. */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "derive/counters.h"
#include "ui/action.h"
#include "ui/keys.h"
#include "ui/mouse.h"
#include "ui/replay_ui.h"
#include "ui/settings.h"
#include "ui/views.h"
#include "ui/widget/table.h"
#include "util.h"

/* Refresh intervals '+' and '-' step through (seconds). */
static const double intervals[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600 };
#define NINTERVALS (ARRAY_SIZE(intervals))

static void set_interval(struct ui *ui, int dir)
{
	double cur = ui->live.interval_s;
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
	ui->ctx->interval_s = next;	/* the demo source reads it live */
	live_set_interval(&ui->live, next);
	ui_status(ui, "refresh every %g s", next);
}

static void reset_deltas(struct ui *ui)
{
	live_reset(&ui->live);
	views_rebuild(ui);
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
	ui->settings.interval_s = ui->live.interval_s;
	snprintf(ui->settings.pane, sizeof(ui->settings.pane), "%s", ui->views[ui->pane]->id);
	ui->settings.have_color = true;
	ui->settings.color = ui->color;
	ui->settings.have_window = true;
	ui->settings.window_s = ui_windows_s[ui->window];
	ui_save_sorts(ui);
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
	ui->overlay.details = false;
	ui->edit.filter = false;
	views_rebuild(ui);
}

static void scroll_overlay(size_t *top, long delta)
{
	if (delta < 0 && (size_t)-delta > *top)
		*top = 0;
	else
		*top = (size_t)((long)*top + delta);	/* clamped when drawn */
}

/*
 * One function per action, each returning what the loop must do about it
 * (the reaction); do_action() looks the action up and acts on the reaction.
 */
enum ui_reaction {
	UI_REDRAW = 1 << 0,		/* the frame changed */
	UI_QUIT = 1 << 1,		/* the monitor ends */
};

/* The overlay being scrolled (help or details), NULL: the table is. */
static size_t *overlay_top(struct ui *ui)
{
	return ui->overlay.help ? &ui->overlay.help_top : ui->overlay.details ? &ui->overlay.details_top : NULL;
}

/* A page of the overlay or of the table. */
static long page_rows(struct ui *ui)
{
	const struct table *t = ui_table(ui);

	if (overlay_top(ui))
		return ui->body.h > 3 ? ui->body.h - 3 : 1;
	return t->page > 1 ? t->page - 1 : 1;
}

static int act_quit(struct ui *ui, int arg)
{
	return UI_QUIT;
}

static int act_help(struct ui *ui, int arg)
{
	ui->overlay.help = !ui->overlay.help;
	ui->overlay.help_top = 0;
	return UI_REDRAW;
}

static int act_pane_next(struct ui *ui, int arg)
{
	set_pane(ui, (ui->pane + 1) % ui->nviews);
	return UI_REDRAW;
}

static int act_pane_prev(struct ui *ui, int arg)
{
	set_pane(ui, (ui->pane + ui->nviews - 1) % ui->nviews);
	return UI_REDRAW;
}

static int act_pane(struct ui *ui, int arg)
{
	set_pane(ui, (size_t)arg);
	return UI_REDRAW;
}

/* Up and down by n rows: the overlay when one is open, else the table's cursor. */
static int move_by(struct ui *ui, long n)
{
	size_t *top = overlay_top(ui);

	if (top)
		scroll_overlay(top, n);
	else
		table_move(ui_table(ui), n);
	return UI_REDRAW;
}

static int act_up(struct ui *ui, int arg)
{
	return move_by(ui, -1);
}

static int act_down(struct ui *ui, int arg)
{
	return move_by(ui, 1);
}

static int act_pgup(struct ui *ui, int arg)
{
	return move_by(ui, -page_rows(ui));
}

static int act_pgdn(struct ui *ui, int arg)
{
	return move_by(ui, page_rows(ui));
}

static int act_home(struct ui *ui, int arg)
{
	size_t *top = overlay_top(ui);

	if (top)
		*top = 0;
	else
		table_home(ui_table(ui));
	return UI_REDRAW;
}

static int act_end(struct ui *ui, int arg)
{
	size_t *top = overlay_top(ui);

	if (top)
		*top = (size_t)-1 / 2;
	else
		table_end_key(ui_table(ui));
	return UI_REDRAW;
}

static int act_filter(struct ui *ui, int arg)
{
	if (ui->views[ui->pane]->cols) {
		ui->edit.filter = true;
		ui->overlay.details = false;
	} else {
		ui_status(ui, "this pane has no rows to filter");
	}
	return UI_REDRAW;
}

static int act_sort_next(struct ui *ui, int arg)
{
	struct table *t = ui_table(ui);

	if (ui->views[ui->pane]->cols) {
		table_sort_next(t);
		ui_status(ui, "sorted by %s %s", t->cols[t->sort_col].title,
			  t->sort_desc ? "(descending)" : "(ascending)");
	}
	return UI_REDRAW;
}

static int act_sort_reverse(struct ui *ui, int arg)
{
	struct table *t = ui_table(ui);

	if (ui->views[ui->pane]->cols)
		table_sort_by(t, t->sort_col);
	return UI_REDRAW;
}

static int act_pause(struct ui *ui, int arg)
{
	live_pause(&ui->live, !ui->live.paused);
	if (!ui->live.paused)
		ui->live.next_sample_ns = util_now_ns();
	ui_status(ui, ui->live.paused ? "paused: p resumes" : "resumed");
	return UI_REDRAW;
}

static int act_slower(struct ui *ui, int arg)
{
	set_interval(ui, 1);
	return UI_REDRAW;
}

static int act_faster(struct ui *ui, int arg)
{
	set_interval(ui, -1);
	return UI_REDRAW;
}

static int act_reset(struct ui *ui, int arg)
{
	reset_deltas(ui);
	return UI_REDRAW;
}

/* Enter: the details of the selected row, or closing them; the title is the row's first cells. */
static int act_details(struct ui *ui, int arg)
{
	const struct table *t = ui_table(ui);
	const struct table_row *r = table_selected(t);
	size_t off = 0;

	if (ui->overlay.details) {
		ui->overlay.details = false;
		return UI_REDRAW;
	}
	if (!r)
		return UI_REDRAW;
	ui->overlay.details = true;
	ui->overlay.details_top = 0;
	snprintf(ui->overlay.details_key, sizeof(ui->overlay.details_key), "%s", r->key);
	ui->overlay.details_title[0] = '\0';
	for (int c = 0; c < t->ncols && c < 3 && off < sizeof(ui->overlay.details_title); c++) {
		int n = snprintf(ui->overlay.details_title + off, sizeof(ui->overlay.details_title) - off, "%s%s",
				 c ? "  " : "", r->cells[c].text);

		if (n < 0)
			break;
		off += (size_t)n;
	}
	return UI_REDRAW;
}

static int act_back(struct ui *ui, int arg)
{
	struct table *t = ui_table(ui);

	if (ui->overlay.help)
		ui->overlay.help = false;
	else if (ui->overlay.details)
		ui->overlay.details = false;
	else if (t->filter[0])
		table_set_filter(t, "");
	return UI_REDRAW;
}

static int act_window(struct ui *ui, int arg)
{
	ui->window = (ui->window + 1) % UI_NWINDOWS;
	ui_status(ui, "graph window %u s", ui_windows_s[ui->window]);
	return UI_REDRAW;
}

static int act_save(struct ui *ui, int arg)
{
	save_settings(ui);
	return UI_REDRAW;
}

static int act_demo(struct ui *ui, int arg)
{
	if (!ui_simulated(ui) && !ui->live.host.ndevs)
		ui->react |= UI_REACT_DEMO;
	return UI_REDRAW;
}

static int act_redraw(struct ui *ui, int arg)
{
	clearok(curscr, TRUE);
	return UI_REDRAW;
}

static int act_step_back(struct ui *ui, int arg)
{
	replay_ui_step(ui, -1);
	return UI_REDRAW;
}

static int act_step_fwd(struct ui *ui, int arg)
{
	replay_ui_step(ui, 1);
	return UI_REDRAW;
}

static int act_jump_back(struct ui *ui, int arg)
{
	replay_ui_jump(ui, -60 * 1000000000ll);
	return UI_REDRAW;
}

static int act_jump_fwd(struct ui *ui, int arg)
{
	replay_ui_jump(ui, 60 * 1000000000ll);
	return UI_REDRAW;
}

static int act_goto(struct ui *ui, int arg)
{
	replay_ui_goto_prompt(ui);
	return UI_REDRAW;
}

static int act_next_event(struct ui *ui, int arg)
{
	replay_ui_next_event(ui);
	return UI_REDRAW;
}

static int act_record(struct ui *ui, int arg)
{
	replay_ui_record_toggle(ui);
	return UI_REDRAW;
}

static int (*const actions[])(struct ui *ui, int arg) = {
	[ACT_QUIT] = act_quit,
	[ACT_HELP] = act_help,
	[ACT_PANE_NEXT] = act_pane_next,
	[ACT_PANE_PREV] = act_pane_prev,
	[ACT_PANE] = act_pane,
	[ACT_UP] = act_up,
	[ACT_DOWN] = act_down,
	[ACT_PGUP] = act_pgup,
	[ACT_PGDN] = act_pgdn,
	[ACT_HOME] = act_home,
	[ACT_END] = act_end,
	[ACT_FILTER] = act_filter,
	[ACT_SORT_NEXT] = act_sort_next,
	[ACT_SORT_REVERSE] = act_sort_reverse,
	[ACT_PAUSE] = act_pause,
	[ACT_SLOWER] = act_slower,
	[ACT_FASTER] = act_faster,
	[ACT_RESET] = act_reset,
	[ACT_DETAILS] = act_details,
	[ACT_BACK] = act_back,
	[ACT_WINDOW] = act_window,
	[ACT_SAVE] = act_save,
	[ACT_DEMO] = act_demo,
	[ACT_REDRAW] = act_redraw,
	[ACT_STEP_BACK] = act_step_back,
	[ACT_STEP_FWD] = act_step_fwd,
	[ACT_JUMP_BACK] = act_jump_back,
	[ACT_JUMP_FWD] = act_jump_fwd,
	[ACT_GOTO] = act_goto,
	[ACT_NEXT_EVENT] = act_next_event,
	[ACT_RECORD] = act_record,
};

/* Look the action up and act on its reaction. */
static void do_action(struct ui *ui, int action, int arg)
{
	int r = UI_REDRAW;

	if (action > 0 && (size_t)action < ARRAY_SIZE(actions) && actions[action])
		r = actions[action](ui, arg);
	if (r & UI_REDRAW)
		ui->dirty = true;
	if (r & UI_QUIT)
		ui->quit = true;
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
		ui->edit.filter = false;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		ui->edit.filter = false;
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

void action_key(struct ui *ui, int ch)
{
	int arg;
	enum ui_action a;

	ui->dirty = true;
	if (ch == KEY_RESIZE)
		return;
	if (ch == KEY_MOUSE) {
		a = mouse_action(ui, &arg);
		if (a != ACT_NONE)
			do_action(ui, a, arg);
		return;
	}
	if (ui->edit.filter) {
		filter_key(ui, ch);
		return;
	}
	if (replay_ui_edit_key(ui, ch))
		return;
	if (!ui->overlay.help && !ui->overlay.details && ui->views[ui->pane]->key) {
		switch (ui->views[ui->pane]->key(ui, ui->pane_state[ui->pane], ch)) {
		case UI_KEY_IGNORED:
			break;
		case UI_KEY_TAKEN:
			return;
		case UI_KEY_RESCAN:
			live_rescan(&ui->live);
			return;
		case UI_KEY_QUIT:
			ui->quit = true;
			return;
		}
	}
	a = keys_lookup(ch, &arg);
	/* In the help, scrolling keys scroll and F10 quits; any other key closes it (its footer says so). */
	if (ui->overlay.help && a != ACT_UP && a != ACT_DOWN && a != ACT_PGUP && a != ACT_PGDN &&
	    a != ACT_HOME && a != ACT_END && ch != KEY_F(10)) {
		ui->overlay.help = false;
		return;
	}
	if (ui->overlay.details && (ch == 'q' || ch == KEY_BACKSPACE || ch == 127)) {
		ui->overlay.details = false;
		return;
	}
	do_action(ui, a, arg);
}
