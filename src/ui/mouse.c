// SPDX-License-Identifier: GPL-2.0-or-later
/* Mouse: tabs, rows (a second click opens details), column headers, function bar, wheel. */
#include "config.h"

#include <curses.h>

#include "ui/keys.h"
#include "ui/views.h"

static bool in_rect(const struct ui_rect *r, int y, int x)
{
	return r->h > 0 && y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}

void ui_mouse(struct ui *ui)
{
	MEVENT ev;
	int arg;

	if (getmouse(&ev) != OK)
		return;
#if NCURSES_MOUSE_VERSION > 1
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		ui_do(ui, (ev.bstate & BUTTON4_PRESSED) ? ACT_UP : ACT_DOWN, 0);
		return;
	}
#endif
	if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		return;
	if (in_rect(&ui->tabs, ev.y, ev.x)) {
		for (size_t i = 0; i < ui->nviews; i++)
			if (ev.x >= ui->tab_x[i] && ev.x < ui->tab_x[i + 1]) {
				ui->overlay.help = false;
				ui_do(ui, ACT_PANE, (int)i);
			}
		return;
	}
	if (in_rect(&ui->fbar, ev.y, ev.x)) {
		for (int i = 0; i < ui->nfbar; i++) {
			int end = i + 1 < ui->nfbar ? ui->fbar_x[i + 1] : ui->fbar_x[i] + 12;

			if (ev.x >= ui->fbar_x[i] && ev.x < end) {
				int a = keys_lookup(ui->fbar_key[i], &arg);

				ui_do(ui, a, arg);
				return;
			}
		}
		return;
	}
	if (ui->overlay.help || ui->overlay.details) {
		ui->overlay.help = ui->overlay.details = false;
		ui->dirty = true;
		return;
	}
	if (ui->views[ui->pane]->cols && in_rect(&ui->body, ev.y, ev.x)) {
		enum table_hit h = table_click(ui_table(ui), ev.y, ev.x);

		if (h == TABLE_HIT_ROW_AGAIN)
			ui_do(ui, ACT_DETAILS, 0);
		ui->dirty = true;
	}
}
