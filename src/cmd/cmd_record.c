// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop record: what the monitor would show, written into a recording without a terminal. */
#include "config.h"

#include <stdio.h>

#include "cmd/commands.h"
#include "opts.h"
#include "record/when.h"
#include "util.h"

enum { OPT_DURATION = OPT_FIRST_OWN, OPT_FABRIC };

static void record_usage(FILE *f)
{
	fprintf(f, "Usage: fabtop record FILE [--interval S] [--duration D | --count N] [--fabric] [--demo | --sysfs DIR]\n"
		   "Samples the host every interval (default 1 s) as the monitor does and writes\n"
		   "each sample, the network state and the InfiniBand ports' MAD view when they\n"
		   "change, every structure change and the events into FILE, until --duration\n"
		   "(90s, 5m, 1h) or --count samples, or SIGINT/SIGTERM. --fabric: the whole\n"
		   "subnet too, swept and sampled as the Fabric pane does.\n"
		   "Replay with 'fabtop --replay FILE' or 'fabtop show ... --replay FILE --at TIME'.\n"
		   "The format is in doc/recording.md.\n");
}

int cmd_record(struct fab_ctx *ctx, int argc, char **argv)
{
	static const struct option own[] = {
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "fabric", no_argument, NULL, OPT_FABRIC },
		{ NULL, 0, NULL, 0 },
	};
	struct option longopts[OPTS_MAX];
	struct events_watch_opts o = { .who = "record" };
	uint64_t duration_ns = 0;
	int c, stop;

	opts_merge(longopts, own);
	while ((c = opts_next(ctx, "record", argc, argv, ":h", longopts, &stop)) != -1) {
		if (c == 'h') {
			record_usage(stdout);
			return EXIT_OK;
		}
		if (c == OPT_FABRIC) {
			o.fabric = true;
			continue;
		}
		if (rec_duration_parse(optarg, &duration_ns) || !duration_ns) {
			fprintf(stderr, "fabtop record: --duration wants a time like 90s, 5m or 1h, not '%s'\n", optarg);
			return EXIT_USAGE;
		}
	}
	if (stop >= 0) {
		if (stop == EXIT_USAGE)
			record_usage(stderr);
		return stop;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "fabtop record: %s\n", optind >= argc ? "which FILE?" : "one FILE only");
		record_usage(stderr);
		return EXIT_USAGE;
	}
	if (ctx->replay) {
		fprintf(stderr, "fabtop record: a recording is not recorded again (--replay)\n");
		return EXIT_USAGE;
	}
	/* the watch `show events` uses, with every sample, network read and event written */
	o.record_path = argv[optind];
	o.duration_s = (double)duration_ns / 1e9;
	o.count = ctx->count;
	return events_watch(ctx, &o);
}
