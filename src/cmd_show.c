// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop show: one-shot reports of ports, counters, GIDs (and the sections other areas add). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "collect/host.h"
#include "collect/source.h"
#include "commands.h"
#include "report/fabric.h"
#include "report/json.h"
#include "report/net.h"
#include "report/show.h"
#include "warn.h"

/*
 * A section of the report. text() prints for people; json() writes its
 * members into the open top-level object. Both return 0 or an exit code.
 */
struct show_section {
	const char *name;
	bool in_all;		/* part of "show all" */
	int (*text)(const struct fab_ctx *ctx, struct fab_host *h, FILE *f);
	int (*json)(const struct fab_ctx *ctx, struct fab_host *h, struct json *j);
};

static int ports_text(const struct fab_ctx *ctx, struct fab_host *h, FILE *f)
{
	show_ports_text(f, h);
	return 0;
}

static int ports_json(const struct fab_ctx *ctx, struct fab_host *h, struct json *j)
{
	show_ports_json(j, h);
	return 0;
}

static int counters_text(const struct fab_ctx *ctx, struct fab_host *h, FILE *f)
{
	show_counters_text(f, h);
	return 0;
}

static int counters_json(const struct fab_ctx *ctx, struct fab_host *h, struct json *j)
{
	show_counters_json(j, h);
	return 0;
}

static int gids_text(const struct fab_ctx *ctx, struct fab_host *h, FILE *f)
{
	show_gids_text(f, h);
	return 0;
}

static int gids_json(const struct fab_ctx *ctx, struct fab_host *h, struct json *j)
{
	show_gids_json(j, h);
	return 0;
}

static const struct show_section sections[] = {
	{ "ports", true, ports_text, ports_json },
	{ "counters", true, counters_text, counters_json },
	{ "gids", true, gids_text, gids_json },
	{ "net", false, net_show_text, net_show_json },
	{ "fabric", false, fabric_section_text, fabric_section_json },
};

#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

static void show_usage(FILE *f)
{
	fprintf(f, "Usage: fabtop show [SECTION] [--json] [--sysfs DIR] [--interval S --count N]\n"
		   "Sections:");
	for (size_t i = 0; i < NSECTIONS; i++)
		fprintf(f, " %s", sections[i].name);
	fprintf(f, " all (default: all)\n"
		   "With --count N, 'counters' samples N+1 times, --interval seconds apart,\n"
		   "and prints rates and error deltas between samples.\n");
}

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Repeated counter samples: rates between consecutive ones. */
static int show_counter_rates(const struct fab_ctx *ctx, struct source *src, struct fab_host *h)
{
	for (long s = 1; s <= ctx->count; s++) {
		sleep_s(ctx->interval_s);
		source_refresh(src, h, clock_now_ns());
		if (ctx->json) {
			struct json j;

			json_init(&j, stdout);
			json_obj_begin(&j);
			json_key(&j, "sample"); json_u64(&j, (uint64_t)s);
			json_key(&j, "interval_s"); json_double(&j, ctx->interval_s, 3);
			show_counters_json(&j, h);
			json_obj_end(&j);
			json_end(&j);
		} else {
			show_rates_text(stdout, h, (unsigned int)s);
		}
		fflush(stdout);
	}
	return EXIT_OK;
}

int cmd_show(struct fab_ctx *ctx, int argc, char **argv)
{
	const struct show_section *only = NULL;
	struct source *src;
	struct fab_host h;
	int rc = EXIT_OK, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			show_usage(stdout);
			return EXIT_OK;
		}
		if (argv[i][0] == '-') {
			fprintf(stderr, "fabtop show: unknown option '%s'\n", argv[i]);
			show_usage(stderr);
			return EXIT_USAGE;
		}
		if (only || (i > 1 && !strcmp(argv[1], "all"))) {
			fprintf(stderr, "fabtop show: one section at a time ('%s' is extra)\n", argv[i]);
			return EXIT_USAGE;
		}
		if (!strcmp(argv[i], "all"))
			continue;
		for (size_t s = 0; s < NSECTIONS; s++)
			if (!strcmp(argv[i], sections[s].name))
				only = &sections[s];
		if (!only) {
			fprintf(stderr, "fabtop show: unknown section '%s'\n", argv[i]);
			show_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (ctx->count && (!only || (strcmp(only->name, "counters") && strcmp(only->name, "fabric")))) {
		fprintf(stderr, "fabtop show: --count goes with 'show counters' or 'show fabric'\n");
		return EXIT_USAGE;
	}

	/* The real sysfs or the demo fabric (--demo): the report does not care which. */
	src = source_open(ctx);
	if (!src || source_collect(src, &h)) {
		fprintf(stderr, "fabtop: out of memory while reading %s\n",
			ctx->demo ? "the demo fabric" : ctx->sysfs_root);
		source_close(src);
		return EXIT_RUNTIME;
	}
	if (h.sysfs_missing && !ctx->json)
		fprintf(stderr, "fabtop: no RDMA devices: %s/class/infiniband is absent "
			"(no RDMA driver loaded?). Try 'fabtop --demo'.\n", ctx->sysfs_root);

	if (ctx->count && strcmp(only->name, "fabric")) {	/* fabric samples PMA counters itself */
		rc = show_counter_rates(ctx, src, &h);
	} else if (ctx->json) {
		struct json j;

		json_init(&j, stdout);
		json_obj_begin(&j);
		for (size_t s = 0; s < NSECTIONS && !rc; s++)
			if (only ? only == &sections[s] : sections[s].in_all)
				rc = sections[s].json(ctx, &h, &j);
		json_obj_end(&j);
		json_end(&j);
	} else {
		bool first = true;

		for (size_t s = 0; s < NSECTIONS && !rc; s++) {
			if (only ? only != &sections[s] : !sections[s].in_all)
				continue;
			if (!only)
				printf("%s== %s ==\n", first ? "" : "\n", sections[s].name);
			first = false;
			rc = sections[s].text(ctx, &h, stdout);
		}
	}
	fab_host_free(&h);
	source_close(src);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "fabtop: writing output failed\n");
		rc = EXIT_RUNTIME;
	}
	return rc;
}
