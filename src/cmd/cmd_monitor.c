// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop monitor (the default command): the interactive ncurses monitor. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "opts.h"
#include "ui/panes.h"
#include "ui/ui_run.h"

static void monitor_usage(FILE *f)
{
	char panes[128];

	panes_names(panes, sizeof(panes));
	fprintf(f, "Usage: fabtop [monitor] [--pane NAME] [--record FILE] [--demo] [--sysfs DIR] [--interval SECS]\n"
		   "                [--no-color] [--replay FILE [--at TIME]]\n"
		   "       fabtop monitor --panes\n\n"
		   "The interactive monitor. Panes: %s.\n"
		   "--panes prints the pane table and exits: key, name, tab label, short tab label\n"
		   "and column titles (separated by '|'), tab-separated, one pane a line.\n"
		   "--record FILE records the session from its first sample (R starts and stops one\n"
		   "later); --replay FILE plays a recording (doc/recording.md).\n"
		   "Press F1 or ? inside for the keys. Settings: $XDG_CONFIG_HOME/fabtop/fabtoprc (W saves).\n"
		   "Without RDMA devices it says so and offers the demo fabric (press d).\n", panes);
}

enum { OPT_PANE = OPT_FIRST_OWN, OPT_RECORD, OPT_PANES };

static const struct option own[] = {
	{ "pane", required_argument, NULL, OPT_PANE },
	{ "panes", no_argument, NULL, OPT_PANES },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ NULL, 0, NULL, 0 },
};

int cmd_monitor(struct fab_ctx *ctx, int argc, char **argv)
{
	struct option longopts[OPTS_MAX];
	const char *pane = NULL;
	int c, stop;
	char msg[256] = "";
	int rc;

	opts_merge(longopts, own);
	while ((c = opts_next(ctx, "monitor", argc, argv, ":hV", longopts, &stop)) != -1) {
		if (c == 'h') {
			monitor_usage(stdout);
			return EXIT_OK;
		}
		if (c == OPT_PANES) {
			panes_dump(stdout);
			return EXIT_OK;
		}
		if (c == OPT_RECORD)
			ctx->record_path = optarg;
		else
			pane = optarg;		/* OPT_PANE */
	}
	if (stop >= 0) {
		if (stop == EXIT_USAGE)
			monitor_usage(stderr);
		return stop;
	}
	if (optind < argc) {
		fprintf(stderr, "fabtop: monitor: unexpected argument '%s'\n", argv[optind]);
		monitor_usage(stderr);
		return EXIT_USAGE;
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
