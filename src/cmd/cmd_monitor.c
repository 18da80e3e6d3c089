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
#include "ui/widget/term.h"
#include "util.h"

static void monitor_usage(FILE *f)
{
	char panes[128];

	panes_names(panes, sizeof(panes));
	fprintf(f, "Usage: fabtop [monitor] [--pane NAME] [--device DEV [--port N]] [--record FILE] [--demo]\n"
		   "                [--sysfs DIR] [--interval SECS] [--no-color] [--replay FILE [--at TIME]]\n"
		   "       fabtop monitor --panes\n\n"
		   "The interactive monitor. Panes: %s.\n"
		   "--panes prints the pane table and exits: key, name, tab label, short tab label\n"
		   "and column titles (separated by '|'), tab-separated, one pane a line.\n"
		   "--record FILE records the session from its first sample (R starts and stops one\n"
		   "later); --replay FILE plays a recording (doc/recording.md).\n"
		   "--device DEV [--port N] starts the panes of ports (ports, counters, gids, roce)\n"
		   "filtered to that device or port, as '/' would (Esc clears it).\n"
		   "Press F1 or ? inside for the keys. Settings: $XDG_CONFIG_HOME/fabtop/fabtoprc (W saves).\n"
		   "Without RDMA devices it says so and offers the demo fabric (press d).\n", panes);
}

enum { OPT_PANE = OPT_FIRST_OWN, OPT_RECORD, OPT_PANES, OPT_DEVICE, OPT_PORT };

static const struct option own[] = {
	{ "pane", required_argument, NULL, OPT_PANE },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "panes", no_argument, NULL, OPT_PANES },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ NULL, 0, NULL, 0 },
};

int cmd_monitor(struct fab_ctx *ctx, int argc, char **argv)
{
	struct option longopts[OPTS_MAX];
	struct ui_start start = { .port = -1 };
	uint64_t v;
	int c, stop;
	char msg[256] = "";
	int rc;

	/* no command word: messages name fabtop, and main prints the program's usage (commands.h) */
	const char *name = argv[0][0] ? argv[0] : NULL;
	FILE *usage_f = name ? stderr : NULL;

	opts_merge(longopts, own);
	while ((c = opts_next(ctx, name, argc, argv, ":hV", longopts, &stop)) != -1) {
		if (c == 'h') {
			monitor_usage(stdout);
			return EXIT_OK;
		}
		if (c == OPT_PANES) {
			panes_dump(stdout);
			return EXIT_OK;
		}
		switch (c) {
		case OPT_RECORD:
			ctx->record_path = optarg;
			break;
		case OPT_DEVICE:
			start.device = optarg;
			break;
		case OPT_PORT:
			if (util_parse_u64(optarg, 10, 255, &v)) {
				fprintf(stderr, "fabtop: monitor: --port wants a port number, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			start.port = (int)v;
			break;
		default:
			start.pane = optarg;	/* OPT_PANE */
		}
	}
	if (stop >= 0) {
		if (stop == EXIT_USAGE && usage_f)
			monitor_usage(usage_f);
		return stop;
	}
	if (optind < argc) {
		fprintf(stderr, "fabtop: monitor: unexpected argument '%s'\n", argv[optind]);
		if (usage_f)
			monitor_usage(usage_f);
		return EXIT_USAGE;
	}
	if (start.port >= 0 && !start.device) {
		fprintf(stderr, "fabtop: monitor: --port goes with --device (a port of which device?)\n");
		return EXIT_USAGE;
	}
	if (start.device && (!start.device[0] || strchr(start.device, '/'))) {
		fprintf(stderr, "fabtop: monitor: --device wants a device name such as mlx5_0, not '%s'\n", start.device);
		return EXIT_USAGE;
	}
	if (ctx->json) {
		fprintf(stderr, "fabtop: the monitor is interactive; for JSON use 'fabtop show --json'\n");
		return EXIT_USAGE;
	}
	/*
	 * A terminal that cannot place the cursor (TERM=dumb, an unknown or
	 * unset type: an editor's shell, a serial console) gets the report
	 * the monitor's panes would show, and the reason.
	 */
	if (term_usable(msg, sizeof(msg)) == TERM_USE_NO_CURSOR) {
		char *show_all[] = { (char *)"show", (char *)"all", NULL };

		fprintf(stderr, "fabtop: %s: showing 'fabtop show all' instead of the monitor\n", msg);
		opts_reset();
		return cmd_show(ctx, 2, show_all);
	}
	rc = ui_run(ctx, &start, msg, sizeof(msg));
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
