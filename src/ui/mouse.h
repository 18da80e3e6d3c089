/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Mouse: a click or the wheel becomes the action a key would be. */
#ifndef FABTOP_UI_MOUSE_H
#define FABTOP_UI_MOUSE_H

#include "ui/keys.h"
#include "ui/ui.h"

/*
 * Read the mouse event and say which action it means (*arg its argument):
 * a tab, a function bar key, the wheel, a row clicked again (details);
 * ACT_NONE when it needs none (a first click selects the row itself).
 */
enum ui_action mouse_action(struct ui *ui, int *arg);

#endif
