/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The details overlay (Enter): the selected row's attributes, from the pane. */
#ifndef FABTOP_UI_DETAILS_H
#define FABTOP_UI_DETAILS_H

#include <curses.h>

#include "ui/ui.h"

/* The details of ui->overlay.details_key over r, scrolled to ui->overlay.details_top. */
void details_draw(struct ui *ui, WINDOW *w, struct ui_rect r);

#endif
