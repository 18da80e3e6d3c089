/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The monitor's panes in tab order (the one place that names them all), and what is said of them. */
#ifndef FABTOP_UI_PANES_H
#define FABTOP_UI_PANES_H

#include <stddef.h>
#include <stdio.h>

#include "ctx.h"
#include "ui/ui.h"

/* The monitor's panes (ui->views points here). */
extern const struct ui_view *const panes_default[];
extern const size_t panes_ndefault;

/* The monitor's state for ctx with its panes: ui_init_views() with panes_default (ui_run() and the render test). */
void panes_init(struct ui *ui, struct fab_ctx *ctx);
/* "ports, counters, ...": the --pane names, for messages. */
void panes_names(char *buf, size_t size);
/* The pane table, one pane a line: KEY, id, title, short tab label, column titles joined by '|' (tab-separated). */
void panes_dump(FILE *f);

#endif
