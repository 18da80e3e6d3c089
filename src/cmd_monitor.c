// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop monitor (the default command): the interactive ncurses monitor. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "ui/ui.h"
#include "ui/ui_run.h"

static void monitor_usage(FILE *f)
{
	char panes[128];

	views_names(panes, sizeof(panes));
	fprintf(f, "Usage: fabtop [monitor] [--pane NAME] [--demo] [--sysfs DIR] [--interval SECS] [--no-color]\n\n"
		   "The interactive monitor. Panes: %s.\n"
		   "Press F1 or ? inside for the keys. Settings: $XDG_CONFIG_HOME/fabtop/fabtoprc (W saves).\n"
		   "Without RDMA devices it says so and offers the demo fabric (press d).\n", panes);
}

int cmd_monitor(struct fab_ctx *ctx, int argc, char **argv)
{
	const char *pane = NULL;
	char msg[256] = "";
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			monitor_usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--pane") && i + 1 < argc) {
			pane = argv[++i];
		} else if (!strncmp(argv[i], "--pane=", 7)) {
			pane = argv[i] + 7;
		} else {
			fprintf(stderr, "fabtop: monitor: unexpected argument '%s'\n", argv[i]);
			monitor_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (ctx->json) {
		fprintf(stderr, "fabtop: the monitor is interactive; for JSON use 'fabtop show --json'\n");
		return EXIT_USAGE;
	}
	rc = ui_run(ctx, pane, msg, sizeof(msg));
	if (rc == -EINVAL) {
		fprintf(stderr, "fabtop: %s\n", msg);
		return EXIT_USAGE;
	}
	if (rc) {
		fprintf(stderr, "fabtop: %s\n", msg[0] ? msg : strerror(-rc));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}
