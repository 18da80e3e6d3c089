// SPDX-License-Identifier: GPL-2.0-or-later
/* The monitor's state (struct ui): made and freed with its panes, what it says of the core, the status line and the drawing every part uses. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/net.h"
#include "ui/ui.h"
#include "util.h"

const unsigned int ui_windows_s[UI_NWINDOWS] = { 60, 600, 3600 };

/* Up to maxw characters of s (n bytes at most), cleaned: curses moves the cursor on \r, \n and \b. */
static void ui_addn(WINDOW *w, int y, int x, const char *s, int maxw)
{
	char buf[1024];
	size_t n = strnlen(s, sizeof(buf) - 1);

	memcpy(buf, s, n);
	buf[n] = '\0';
	mvwaddnstr(w, y, x, util_clean(buf), maxw);
}

void ui_puts(WINDOW *w, int y, int x, int maxw, chtype attr, const char *s)
{
	int W = getmaxx(w), H = getmaxy(w);

	if (y < 0 || y >= H || x < 0 || x >= W || maxw <= 0)
		return;
	if (maxw > W - x)
		maxw = W - x;
	wattrset(w, attr);
	ui_addn(w, y, x, s, maxw);
	wattrset(w, A_NORMAL);
}

void ui_fill(WINDOW *w, int y, int x, int n, chtype attr)
{
	int W = getmaxx(w), H = getmaxy(w);

	if (y < 0 || y >= H || x < 0 || x >= W || n <= 0)
		return;
	if (n > W - x)
		n = W - x;
	wattrset(w, attr);
	mvwhline(w, y, x, ' ', n);
	wattrset(w, A_NORMAL);
}

void ui_status(struct ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->msg.text, sizeof(ui->msg.text), fmt, ap);
	va_end(ap);
	ui->msg.until_ns = util_now_ns() + 3000000000ull;
}

int ui_wrap(WINDOW *w, struct ui_rect r, chtype attr, const char *s)
{
	int y = 0;

	while (*s && y < r.h) {
		int len = (int)strlen(s), cut = len;

		if (len > r.w) {
			cut = r.w;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = r.w;
		}
		wattrset(w, attr);
		ui_addn(w, r.y + y, r.x, s, cut);
		s += cut;
		while (*s == ' ')
			s++;
		y++;
	}
	wattrset(w, A_NORMAL);
	return y;
}

/* "IN Gb/s" -> "in_gb/s": how settings name a column. */
static void col_id(const char *title, char *buf, size_t size)
{
	size_t i;

	for (i = 0; title[i] && i + 1 < size; i++) {
		char c = title[i];

		buf[i] = c == ' ' ? '_' : (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
	}
	buf[i] = '\0';
}

/* Each pane's table, sorted as the settings say, and its own state. */
static void ui_panes_make(struct ui *ui)
{
	for (size_t i = 0; i < ui->nviews; i++) {
		const struct ui_view *v = ui->views[i];
		const struct settings_sort *ss = settings_get_sort(&ui->settings, v->id);
		int sort = v->default_sort;
		bool desc = v->default_desc;

		ui->pane_state[i] = v->create ? v->create(ui) : NULL;
		if (ss) {
			for (int c = 0; c < v->ncols; c++) {
				char id[SETTINGS_ID_LEN];

				col_id(v->cols[c].title, id, sizeof(id));
				if (!strcmp(id, ss->column)) {
					sort = c;
					desc = ss->desc;
				}
			}
		}
		table_init(&ui->tables[i], v->cols, v->ncols, sort, desc);
	}
}

void ui_save_sorts(struct ui *ui)
{
	for (size_t i = 0; i < ui->nviews; i++) {
		const struct ui_view *v = ui->views[i];
		const struct table *t = &ui->tables[i];
		char id[SETTINGS_ID_LEN];

		if (!v->ncols)
			continue;
		col_id(t->cols[t->sort_col].title, id, sizeof(id));	/* the columns shown (a pane may swap them) */
		settings_set_sort(&ui->settings, v->id, id, t->sort_desc);
	}
}

static void ui_panes_free(struct ui *ui)
{
	for (size_t i = 0; i < ui->nviews; i++) {
		table_free(&ui->tables[i]);
		if (ui->views[i]->destroy)
			ui->views[i]->destroy(ui->pane_state[i]);
		ui->pane_state[i] = NULL;
	}
}

void ui_init_views(struct ui *ui, struct fab_ctx *ctx, const struct ui_view *const *views, size_t nviews)
{
	ui->views = views;
	ui->nviews = nviews < UI_MAX_VIEWS ? nviews : UI_MAX_VIEWS;
	ui->ctx = ctx;
	/* Until a source is open, the core is an empty host (the render test draws it). */
	live_init(&ui->live, ctx, 0);
	ui->color = ctx->color;
	ui_panes_make(ui);
}

void ui_free(struct ui *ui)
{
	ui_panes_free(ui);
	live_close(&ui->live);
	text_free(&ui->net_text);
}

bool ui_simulated(const struct ui *ui)
{
	return live_simulated(&ui->live);
}

bool ui_recorded(const struct ui *ui)
{
	return live_recorded(&ui->live);
}

void *ui_pane_state(struct ui *ui, const struct ui_view *v)
{
	for (size_t i = 0; i < ui->nviews; i++)
		if (ui->views[i] == v)
			return ui->pane_state[i];
	return NULL;
}

/* The `show net` text of the state, line by line, for the Network pane. */
static void ui_net_text(struct ui *ui)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out o;

	text_clear(&ui->net_text);
	if (!f)
		return;
	out_init_text(&o, f);
	net_report(&o, &ui->live.host, &ui->live.net);
	if (fclose(f) || !buf) {
		free(buf);
		return;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (char *p = line; *p; p++)
			if (*p == '\t')
				*p = ' ';
		text_add(&ui->net_text, 0, "%s", line);
	}
	free(buf);
}

void ui_net_changed(struct ui *ui)
{
	ui_net_text(ui);
	for (size_t i = 0; i < ui->nviews; i++)
		if (ui->views[i]->net_changed)
			ui->views[i]->net_changed(ui, ui->pane_state[i]);
}

void ui_net_set(struct ui *ui, struct net_state *st, int err)
{
	live_net_take(&ui->live, st, err);
	ui_net_changed(ui);
}

const char *ui_loading(const struct ui *ui)
{
	return live_loading(&ui->live);
}
