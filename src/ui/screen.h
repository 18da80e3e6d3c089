/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The frame: the title, a recording's time bar, the tabs, the pane or an overlay over it, the function bar. */
#ifndef FABTOP_UI_SCREEN_H
#define FABTOP_UI_SCREEN_H

#include <curses.h>

#include "ui/ui.h"

/* The whole frame into w (its layout is kept in ui for mouse clicks). */
void screen_draw(struct ui *ui, WINDOW *w);
/* Draw the current pane's body into r (also used by the render test). */
void screen_draw_body(struct ui *ui, WINDOW *w, struct ui_rect r);

#endif
