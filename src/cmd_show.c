// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop show: one-shot reports of ports, counters, GIDs (and the sections other areas add). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/host.h"
#include "collect/snapshot.h"
#include "collect/source.h"
#include "commands.h"
#include "collect/roce.h"
#include "derive/gid_choice.h"
#include "derive/roce_check.h"
#include "opts.h"
#include "report/escape.h"
#include "report/gid_advice.h"
#include "report/ibfabric.h"
#include "report/json.h"
#include "report/net.h"
#include "report/roce.h"
#include "report/show.h"
#include "warn.h"
#include "util.h"

/*
 * A section of the report. text() prints for people; json() writes its
 * members into the open top-level object; both return 0 or an exit code.
 * A section that reads only the host gives host_text()/host_json() (the
 * report/show.c functions) instead. A section that reads the network
 * state or the fabric says so, and only then is it read.
 */
struct show_section {
	const char *name;
	bool in_all;		/* part of "show all" */
	unsigned int needs;	/* SNAPSHOT_* parts beyond the host it reads */
	void (*host_text)(FILE *f, const struct fab_host *h);
	void (*host_json)(struct json *j, const struct fab_host *h);
	int (*text)(const struct fab_ctx *ctx, struct snapshot *s, FILE *f);
	int (*json)(const struct fab_ctx *ctx, struct snapshot *s, struct json *j);
};

static int net_text(const struct fab_ctx *ctx, struct snapshot *s, FILE *f)
{
	net_report_text(f, &s->host, &s->net);
	return 0;
}

static int net_json(const struct fab_ctx *ctx, struct snapshot *s, struct json *j)
{
	net_report_json(j, &s->host, &s->net);
	return 0;
}

/*
 * Whether the fabric could be asked at all: the reason on stderr when not.
 * Some port answered: a partial view is still a view.
 */
static int fabric_status(const struct snapshot *s)
{
	if (!s->has_fabric) {
		fprintf(stderr, "fabtop show fabric: the demo fabric is simulated: there is no subnet to "
			"send MADs to (run it on a host with InfiniBand ports)\n");
		return EXIT_RUNTIME;
	}
	if (s->fabric.error[0])
		fprintf(stderr, "fabtop: %s\n", s->fabric.error);
	for (size_t i = 0; i < s->fabric.nports; i++)
		if (s->fabric.ports[i].self_state == IBQ_OK)
			return EXIT_OK;
	return EXIT_RUNTIME;
}

/* With --count N, N more PMA samples --interval apart: rates of both ends of each cable. */
static int fabric_sec_text(const struct fab_ctx *ctx, struct snapshot *s, FILE *f)
{
	int rc = fabric_status(s);

	if (s->fabric.nports)
		ibfabric_text(f, &s->fabric);
	for (long n = 1; s->mad && !rc && n <= ctx->count; n++) {
		if (n == 1)
			fprintf(f, "\nPMA rates, both ends of each cable, every %.3g s:\n", ctx->interval_s);
		fflush(f);
		snapshot_fabric_sample(s, ctx->interval_s);
		ibfabric_rates_text(f, &s->fabric, (unsigned int)n);
	}
	return rc;
}

static int fabric_sec_json(const struct fab_ctx *ctx, struct snapshot *s, struct json *j)
{
	int rc = fabric_status(s);

	ibfabric_json_members(j, &s->fabric);
	if (ctx->count > 0) {
		json_key(j, "samples");
		json_arr_begin(j);
		for (long n = 1; s->mad && !rc && n <= ctx->count; n++) {
			snapshot_fabric_sample(s, ctx->interval_s);
			ibfabric_rates_json(j, &s->fabric, (unsigned int)n, ctx->interval_s);
			fflush(stdout);
		}
		json_arr_end(j);
	}
	json_obj_end(j);
	return rc;
}

static const struct show_section sections[] = {
	{ "ports", true, 0, show_ports_text, show_ports_json, NULL, NULL },
	{ "counters", true, 0, show_counters_text, show_counters_json, NULL, NULL },
	{ "gids", true, 0, show_gids_text, show_gids_json, NULL, NULL },
	{ "net", false, SNAPSHOT_NET, NULL, NULL, net_text, net_json },
	{ "fabric", false, SNAPSHOT_FABRIC, NULL, NULL, fabric_sec_text, fabric_sec_json },
	{ "roce", false, 0, NULL, NULL, NULL, NULL },	/* show_roce(): it samples itself */
};

#define NSECTIONS (ARRAY_SIZE(sections))

static void show_usage(FILE *f)
{
	fprintf(f, "Usage: fabtop show [SECTION] [--json] [--sysfs DIR] [--interval S --count N]\n"
		   "       fabtop show gids --for ADDR|IFACE [--json]\n"
		   "Sections:");
	for (size_t i = 0; i < NSECTIONS; i++)
		fprintf(f, " %s", sections[i].name);
	fprintf(f, " all (default: all)\n"
		   "With --count N, 'counters' samples N+1 times, --interval seconds apart,\n"
		   "and prints rates and error deltas between samples.\n"
		   "'roce' reads DCB (PFC, ETS, APP, trust) and the ethtool and RDMA congestion\n"
		   "counters of each RoCE port; with --count N it samples N more times and adds\n"
		   "rates and the rate findings (pause storm, ECN without CNP, ...).\n"
		   "With --for, 'gids' names the GID index an application should use for that\n"
		   "address or interface (NCCL_IB_GID_INDEX, UCX_IB_GID_INDEX, ib_write_bw -x).\n");
}

enum { OPT_FOR = OPT_FIRST_OWN };

#define ROCE_MAX_FINDINGS 64

static void sleep_s(double s);

static void roce_print(const struct fab_ctx *ctx, const struct roce_state *prev, const struct roce_state *cur,
		       unsigned int sample)
{
	struct doctor_finding *fs = calloc(ROCE_MAX_FINDINGS, sizeof(*fs));
	size_t nfs = fs ? roce_check(prev, cur, fs, ROCE_MAX_FINDINGS) : 0;

	if (nfs > ROCE_MAX_FINDINGS)
		nfs = ROCE_MAX_FINDINGS;
	if (ctx->json) {
		struct json j;

		json_init(&j, stdout);
		json_obj_begin(&j);
		if (sample) {
			json_key(&j, "sample");
			json_u64(&j, sample);
		}
		roce_report_json(&j, prev, cur, fs, nfs);
		json_obj_end(&j);
		json_end(&j);
	} else {
		FILE *esc = escape_open(stdout);

		if (sample)
			fprintf(esc ? esc : stdout, "%s== sample %u ==\n", sample > 1 ? "\n" : "", sample);
		roce_report_text(esc ? esc : stdout, prev, cur, fs, nfs);
		escape_close(esc);
	}
	fflush(stdout);
	free(fs);
}

/*
 * show roce: one sample of every RoCE port's chain (live, or a fixture
 * tree's recordings), then --count more --interval apart with rates. A
 * fixture tree with a second recording gives its rates without --count.
 */
static int show_roce(const struct fab_ctx *ctx, struct source *src, struct fab_host *h)
{
	struct roce_state a, b;
	bool live = !strcmp(ctx->sysfs_root, "/sys");

	if (source_roce(src, h, &a) == -ENOMEM) {
		fprintf(stderr, "fabtop: out of memory\n");
		return EXIT_RUNTIME;
	}
	if (!live && !ctx->demo && !roce_collect_next(ctx->sysfs_root, &a, &b)) {
		roce_print(ctx, &a, &b, 0);
		roce_state_free(&b);
	} else if (!ctx->count) {
		roce_print(ctx, NULL, &a, 0);
	}
	for (long s = 1; s <= ctx->count; s++) {
		sleep_s(ctx->interval_s);
		source_refresh(src, h, util_now_ns());
		if (source_roce(src, h, &b) == -ENOMEM) {
			roce_state_free(&a);
			return EXIT_RUNTIME;
		}
		roce_print(ctx, &a, &b, (unsigned int)s);
		roce_state_free(&a);
		a = b;
	}
	roce_state_free(&a);
	return EXIT_OK;
}

/* show gids --for: exit 0 with an index (or an InfiniBand port), 1 when nothing fits. */
static int show_gid_choice(const struct fab_ctx *ctx, const struct fab_host *h, const struct gid_want *w)
{
	struct gid_choice c;

	gid_choose(h, w, &c);
	if (ctx->json) {
		struct json j;

		json_init(&j, stdout);
		json_obj_begin(&j);
		gid_advice_json(&j, w, &c);
		json_obj_end(&j);
		json_end(&j);
	} else {
		FILE *esc = escape_open(stdout);

		gid_advice_text(esc ? esc : stdout, w, &c);
		escape_close(esc);
	}
	return c.npicks || c.ib_port ? EXIT_OK : EXIT_RUNTIME;
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
		source_refresh(src, h, util_now_ns());
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
			FILE *esc = escape_open(stdout);

			show_rates_text(esc ? esc : stdout, h, (unsigned int)s);
			escape_close(esc);
		}
		fflush(stdout);
	}
	return EXIT_OK;
}

/* The section named after the options (NULL: all); 0 or EXIT_USAGE with the message printed. */
static int select_section(int argc, char **argv, const struct show_section **only)
{
	*only = NULL;
	for (int i = optind; i < argc; i++) {
		if (*only || (i > optind && !strcmp(argv[optind], "all"))) {
			fprintf(stderr, "fabtop show: one section at a time ('%s' is extra)\n", argv[i]);
			return EXIT_USAGE;
		}
		if (!strcmp(argv[i], "all"))
			continue;
		for (size_t s = 0; s < NSECTIONS; s++)
			if (!strcmp(argv[i], sections[s].name))
				*only = &sections[s];
		if (!*only) {
			fprintf(stderr, "fabtop show: unknown section '%s'\n", argv[i]);
			show_usage(stderr);
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* Long: options, the section, the snapshot parts it needs, and the text or JSON walk over the sections. */
int cmd_show(struct fab_ctx *ctx, int argc, char **argv)
{
	static const struct option own[] = {
		{ "for", required_argument, NULL, OPT_FOR },
		{ 0 },
	};
	const struct show_section *only = NULL;
	const char *for_arg = NULL;
	struct gid_want want;
	unsigned int what = COLLECT_ALL;
	struct source *src;
	struct option longopts[OPTS_MAX];
	struct snapshot snap;
	int rc = EXIT_OK, c, stop;

	opts_merge(longopts, own);
	while ((c = opts_next(ctx, "show", argc, argv, ":hV", longopts, &stop)) != -1) {
		if (c == OPT_FOR) {
			for_arg = optarg;
			continue;
		}
		show_usage(stdout);
		return EXIT_OK;
	}
	if (stop >= 0) {
		if (stop == EXIT_USAGE)
			show_usage(stderr);
		return stop;
	}
	rc = select_section(argc, argv, &only);
	if (rc)
		return rc;
	if (for_arg) {
		char why[160];

		if (only && strcmp(only->name, "gids")) {
			fprintf(stderr, "fabtop show: --for goes with 'show gids'\n");
			return EXIT_USAGE;
		}
		if (!gid_want_parse(for_arg, &want, why, sizeof(why))) {
			fprintf(stderr, "fabtop show gids: --for: %s\n", why);
			return EXIT_USAGE;
		}
		for (size_t s = 0; s < NSECTIONS; s++)
			if (!strcmp(sections[s].name, "gids"))
				only = &sections[s];
		if (ctx->count) {
			fprintf(stderr, "fabtop show: --count goes with 'show counters' or 'show fabric'\n");
			return EXIT_USAGE;
		}
	}
	if (ctx->count && (!only || (strcmp(only->name, "counters") && strcmp(only->name, "fabric") &&
				     strcmp(only->name, "roce")))) {
		fprintf(stderr, "fabtop show: --count goes with 'show counters', 'show fabric' or 'show roce'\n");
		return EXIT_USAGE;
	}

	/* The real sysfs or the demo fabric (--demo): the report does not care which. */
	for (size_t s = 0; s < NSECTIONS; s++)
		if (only ? only == &sections[s] : sections[s].in_all)
			what |= sections[s].needs;
	src = source_open(ctx);
	if (!src || snapshot_take(src, &snap, what)) {
		char from[PATH_MAX];

		if (src)
			source_describe(src, from, sizeof(from));
		fprintf(stderr, "fabtop: out of memory while reading %s\n", src ? from : ctx->sysfs_root);
		source_close(src);
		return EXIT_RUNTIME;
	}
	if ((what & SNAPSHOT_NET) && snap.net_err) {
		fprintf(stderr, "fabtop: reading the network state over rtnetlink failed: %s\n",
			snapshot_net_error(snap.net_err));
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (snap.host.sysfs_missing && !ctx->json)
		fprintf(stderr, "fabtop: no RDMA devices: %s/class/infiniband is absent "
			"(no RDMA driver loaded?). Try 'fabtop --demo'.\n", ctx->sysfs_root);

	if (for_arg) {
		rc = show_gid_choice(ctx, &snap.host, &want);
	} else if (only && !strcmp(only->name, "roce")) {
		rc = show_roce(ctx, src, &snap.host);
	} else if (ctx->count && strcmp(only->name, "fabric")) {	/* fabric samples PMA counters itself */
		rc = show_counter_rates(ctx, src, &snap.host);
	} else if (ctx->json) {
		struct json j;

		json_init(&j, stdout);
		json_obj_begin(&j);
		for (size_t s = 0; s < NSECTIONS && !rc; s++) {
			if (!(only ? only == &sections[s] : sections[s].in_all))
				continue;
			if (sections[s].host_json)
				sections[s].host_json(&j, &snap.host);
			else
				rc = sections[s].json(ctx, &snap, &j);
		}
		json_obj_end(&j);
		json_end(&j);
	} else {
		bool first = true;

		for (size_t s = 0; s < NSECTIONS && !rc; s++) {
			FILE *esc, *out;

			if (only ? only != &sections[s] : !sections[s].in_all)
				continue;
			if (!only)
				printf("%s== %s ==\n", first ? "" : "\n", sections[s].name);
			first = false;
			/* Names from sysfs and netlink must not drive the terminal: escaped on the way out. */
			esc = escape_open(stdout);
			out = esc ? esc : stdout;
			if (sections[s].host_text)
				sections[s].host_text(out, &snap.host);
			else
				rc = sections[s].text(ctx, &snap, out);
			escape_close(esc);
		}
	}
out:
	snapshot_free(&snap);
	source_close(src);
	return rc;
}
