/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The monitor's entry point, for cmd_monitor. */
#ifndef FABTOP_UI_UI_RUN_H
#define FABTOP_UI_UI_RUN_H

#include "ctx.h"

/* Where the monitor starts. */
struct ui_start {
	const char *pane;	/* the pane to start on (NULL: settings or Ports) */
	const char *device;	/* the panes of ports start filtered to it (NULL: every device) */
	int port;		/* ... and to this port of it (-1: every port) */
};

/*
 * Run the interactive monitor until the user quits or a terminating signal
 * arrives; the terminal is restored on every path. Returns 0, or -errno
 * with a message in msg (-EINVAL: bad pane name, a usage error; -ENODEV:
 * no such device or port, before the terminal is taken).
 */
int ui_run(struct fab_ctx *ctx, const struct ui_start *start, char *msg, int msgsize);

#endif
