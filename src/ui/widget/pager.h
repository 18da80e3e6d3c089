/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A scrolled text box for overlays (help, details). */
#ifndef FABTOP_UI_WIDGET_PAGER_H
#define FABTOP_UI_WIDGET_PAGER_H

#include <curses.h>
#include <stddef.h>

#include "ui/widget/text.h"

/*
 * Draw lines from *top in the box (y, x, h, w) under a title line; *top is
 * clamped so the last page stays full. The footer says how to leave.
 */
void pager_draw(WINDOW *w, int y, int x, int h, int width, const char *title,
		const struct text *t, size_t *top, const char *footer);

#endif
