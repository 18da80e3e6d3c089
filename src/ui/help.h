/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The help overlay: keys from the bindings table, what the colours and flags mean, warnings. */
#ifndef FABTOP_UI_HELP_H
#define FABTOP_UI_HELP_H

#include <curses.h>

#include "ui/ui.h"
#include "ui/widget/text.h"

/* The help's lines into out. */
void help_text(struct ui *ui, struct text *out);
/* The help over r, scrolled to ui->overlay.help_top. */
void help_draw(struct ui *ui, WINDOW *w, struct ui_rect r);

#endif
