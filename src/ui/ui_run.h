/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The monitor's entry point, for cmd_monitor. */
#ifndef FABTOP_UI_UI_RUN_H
#define FABTOP_UI_UI_RUN_H

#include "ctx.h"

/*
 * Run the interactive monitor until the user quits or a terminating signal
 * arrives; the terminal is restored on every path. pane: the pane to start
 * on (NULL: settings or Ports). Returns 0, or -errno with a message in msg
 * (-EINVAL: bad pane name, a usage error).
 */
int ui_run(struct fab_ctx *ctx, const char *pane, char *msg, int msgsize);

#endif
