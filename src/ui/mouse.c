// SPDX-License-Identifier: GPL-2.0-or-later
/* Mouse: tabs, rows (a second click opens details), column headers, function bar, wheel: actions a key would be. */
#include "config.h"

#include <curses.h>

#include "ui/mouse.h"
#include "ui/widget/table.h"

static bool in_rect(const struct ui_rect *r, int y, int x)
{
	return r->h > 0 && y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}

enum ui_action mouse_action(struct ui *ui, int *arg)
{
	MEVENT ev;

	*arg = 0;
	if (getmouse(&ev) != OK)
		return ACT_NONE;
#if NCURSES_MOUSE_VERSION > 1
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED))
		return (ev.bstate & BUTTON4_PRESSED) ? ACT_UP : ACT_DOWN;
#endif
	if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		return ACT_NONE;
	if (in_rect(&ui->tabs, ev.y, ev.x)) {
		for (size_t i = 0; i < ui->nviews; i++)
			if (ev.x >= ui->tab_x[i] && ev.x < ui->tab_x[i + 1]) {
				ui->overlay.help = false;
				*arg = (int)i;
				return ACT_PANE;
			}
		return ACT_NONE;
	}
	if (in_rect(&ui->fbar, ev.y, ev.x)) {
		for (int i = 0; i < ui->nfbar; i++) {
			int end = i + 1 < ui->nfbar ? ui->fbar_x[i + 1] : ui->fbar_x[i] + 12;

			if (ev.x >= ui->fbar_x[i] && ev.x < end)
				return keys_lookup(ui->fbar_key[i], arg);
		}
		return ACT_NONE;
	}
	if (ui->overlay.help || ui->overlay.details) {
		ui->overlay.help = ui->overlay.details = false;
		ui->dirty = true;
		return ACT_NONE;
	}
	if (ui->views[ui->pane]->cols && in_rect(&ui->body, ev.y, ev.x)) {
		enum table_hit h = table_click(ui_table(ui), ev.y, ev.x);

		ui->dirty = true;
		if (h == TABLE_HIT_ROW_AGAIN)
			return ACT_DETAILS;
	}
	return ACT_NONE;
}
