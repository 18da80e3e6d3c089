/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What keys do: overlays and line editing first, the pane's own keys, then the bindings table. */
#ifndef FABTOP_UI_ACTION_H
#define FABTOP_UI_ACTION_H

#include "ui/ui.h"

/*
 * One key (or KEY_MOUSE: the mouse event behind it). Each action is a
 * function returning its reaction; what the loop must do about it is left
 * in ui (dirty, quit, ui->react, the core's rescan).
 */
void action_key(struct ui *ui, int ch);

#endif
