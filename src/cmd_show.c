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
#include "collect/mad_fabric.h"
#include "collect/mad_watch.h"
#include "collect/umad.h"
#include "collect/snapshot.h"
#include "collect/source.h"
#include "commands.h"
#include "collect/roce.h"
#include "derive/gid_choice.h"
#include "derive/roce_check.h"
#include "opts.h"
#include "report/escape.h"
#include "record/reader.h"
#include "record/when.h"
#include "report/events.h"
#include "report/gid_advice.h"
#include "report/ibfabric.h"
#include "report/json.h"
#include "report/net.h"
#include "report/res.h"
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

/* 'show res qp|cm|proc': the one table asked for (RES_PART_ALL: every table). */
static enum res_part res_part;

/* Why there are no resources to show, on stderr; 0 when there are (maybe in part). */
static int res_status(const struct snapshot *s)
{
	if (!s->has_res) {
		fprintf(stderr, "fabtop show res: the demo fabric is simulated: it has no processes "
			"holding RDMA resources (run it on a host with RDMA devices)\n");
		return EXIT_RUNTIME;
	}
	if (s->res.err)
		fprintf(stderr, "fabtop: %s\n", s->res.why);
	/* Nothing could be listed at all (no RDMA netlink): a failure, not an empty list. */
	return s->res.err && !s->res.ndevs ? EXIT_RUNTIME : EXIT_OK;
}

static int res_sec_text(const struct fab_ctx *ctx, struct snapshot *s, FILE *f)
{
	int rc = res_status(s);

	if (s->has_res && (!s->res.err || s->res.ndevs))
		res_report_text(f, &s->res, res_part);
	return rc;
}

static int res_sec_json(const struct fab_ctx *ctx, struct snapshot *s, struct json *j)
{
	int rc = res_status(s);

	if (s->has_res)
		res_report_json(j, &s->res, res_part);
	return rc;
}

static const struct show_section sections[] = {
	{ "ports", true, 0, show_ports_text, show_ports_json, NULL, NULL },
	{ "counters", true, 0, show_counters_text, show_counters_json, NULL, NULL },
	{ "gids", true, 0, show_gids_text, show_gids_json, NULL, NULL },
	{ "net", false, SNAPSHOT_NET, NULL, NULL, net_text, net_json },
	{ "fabric", false, SNAPSHOT_FABRIC, NULL, NULL, fabric_sec_text, fabric_sec_json },
	/* A watch over time, not one snapshot: show_events_watch() (cmd_show_events.c). */
	{ "events", false, 0, NULL, NULL, NULL, NULL },
	{ "res", false, SNAPSHOT_RES, NULL, NULL, res_sec_text, res_sec_json },
	{ "roce", false, 0, NULL, NULL, NULL, NULL },	/* show_roce(): it samples itself */
};

#define NSECTIONS (ARRAY_SIZE(sections))

void show_synopsis(FILE *f)
{
	fprintf(f, "show [");
	for (size_t i = 0; i < NSECTIONS; i++)
		fprintf(f, "%s|", sections[i].name);
	fprintf(f, "all]");
}

static void show_usage(FILE *f)
{
	fprintf(f, "Usage: fabtop show [SECTION] [--json] [--sysfs DIR] [--interval S --count N]\n"
		   "                   [--replay FILE [--at TIME]]\n"
		   "       fabtop show events [--since T] [--duration D] [--interval S] [--json]\n"
		   "       fabtop show events --replay FILE [--since T] [--at T] [--json]\n"
		   "       fabtop show gids --for ADDR|IFACE [--json]\n"
		   "Sections:");
	for (size_t i = 0; i < NSECTIONS; i++)
		fprintf(f, " %s", sections[i].name);
	fprintf(f, " all (default: all)\n"
		   "'res' takes one of qp, cm, proc to show only that table.\n"
		   "With --count N, 'counters' samples N+1 times, --interval seconds apart,\n"
		   "and prints rates and error deltas between samples.\n"
		   "With --replay, the report is of the recording as it was --at TIME (default: its\n"
		   "end; TIME: HH:MM[:SS], +5m, -30s, #N, start, end); --count N then plays the N\n"
		   "samples after it.\n"
		   "'events' watches for D seconds (default: until Ctrl-C), sampling every\n"
		   "--interval, and prints each event as it happens (--json: one document at the\n"
		   "end); --since T keeps those at or after T: 90s, 5m, 2h, 1d ago, @UNIXTIME, or\n"
		   "'YYYY-MM-DD HH:MM[:SS]' local time. doc/events.md lists the events.\n"
		   "'roce' reads DCB (PFC, ETS, APP, trust) and the ethtool and RDMA congestion\n"
		   "counters of each RoCE port; with --count N it samples N more times and adds\n"
		   "rates and the rate findings (pause storm, ECN without CNP, ...).\n"
		   "With --for, 'gids' names the GID index an application should use for that\n"
		   "address or interface (NCCL_IB_GID_INDEX, UCX_IB_GID_INDEX, ib_write_bw -x).\n");
}


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

/* The PMA view of `show counters` (--counters pma|auto): local ports only. */
struct show_pma {
	struct ib_fabric f;
	struct mad_fabric *v;		/* NULL: counters from sysfs */
};

/* How long the first answers (the port, ClassPortInfo, both counter sets) may take. */
#define SHOW_PMA_DEADLINE_NS	(3ull * 1000000000ull)

/* The local ports' latest PMA samples into h, in place of their counters/ files. */
static void show_pma_apply(struct show_pma *pm, struct fab_host *h)
{
	for (size_t i = 0; pm->v && i < pm->f.nports; i++) {
		const struct ib_local_port *lp = &pm->f.ports[i];
		struct fab_port *p = fab_host_find_port(h, lp->ca, lp->port);

		if (p && lp->pma.state == IBQ_OK && mad_port_apply_pma(p, &lp->pma) < 0)
			fprintf(stderr, "fabtop: out of memory taking the PMA counters of %s/%u\n", lp->ca, lp->port);
	}
}

/*
 * --counters pma or auto on a host with InfiniBand ports: ask each local
 * port's PMA (PortCounters, and PortCountersExtended when ClassPortInfo
 * advertises it). A port whose PMA cannot be asked keeps its sysfs
 * counters, and stderr says why (with pma; with auto only when some umad
 * device exists but refused).
 */
static void show_pma_open(const struct fab_ctx *ctx, struct show_pma *pm, struct fab_host *h)
{
	struct fab_ctx c = *ctx;

	memset(pm, 0, sizeof(*pm));
	if (ctx->counters == COUNTERS_SYSFS || ctx->counters == COUNTERS_NETLINK || ctx->demo ||
	    !mad_watch_host_has_ib(h))
		return;
	if (!c.live_sysfs && umad_tree_is_live(&c))
		c.live_sysfs = true;
	if (mad_fabric_take(&c, &pm->f, MADF_PORTS, NULL, util_now_ns() + SHOW_PMA_DEADLINE_NS, &pm->v) < 0)
		pm->v = NULL;
	if (!pm->v || pm->f.error[0]) {
		if (ctx->counters == COUNTERS_PMA || pm->f.nports)
			fprintf(stderr, "fabtop: --counters %s: %s; counters from sysfs\n",
				ctx_counters_mode_str(ctx->counters),
				pm->f.error[0] ? pm->f.error : "the PMA cannot be asked");
		if (!pm->v)
			return;
	}
	for (size_t i = 0; i < pm->f.nports; i++) {
		const struct ib_local_port *lp = &pm->f.ports[i];

		/* auto stays quiet about a port with no LID yet (down, no SM): sysfs is all there is. */
		if (lp->pma.state == IBQ_OK || lp->self_state == IBQ_ERROR ||
		    (ctx->counters == COUNTERS_AUTO && lp->pma.state == IBQ_NONE))
			continue;
		fprintf(stderr, "fabtop: --counters %s: %s/%u: no PMA answer (%s); counters from sysfs\n",
			ctx_counters_mode_str(ctx->counters), lp->ca, lp->port,
			lp->note[0] ? lp->note : ib_query_state_str(lp->pma.state));
	}
	show_pma_apply(pm, h);
}

static void show_pma_close(struct show_pma *pm)
{
	mad_fabric_close(pm->v);
	ib_fabric_free(&pm->f);
}

/* Repeated counter samples: rates between consecutive ones. */
static int show_counter_rates(const struct fab_ctx *ctx, struct source *src, struct fab_host *h,
			      struct show_pma *pm)
{
	for (long s = 1; s <= ctx->count; s++) {
		/* a recording's samples are there already: no waiting */
		if (!source_has(src, SOURCE_RECORDED))
			sleep_s(ctx->interval_s);
		source_refresh(src, h, util_now_ns());
		if (pm->v) {
			mad_fabric_sample(pm->v, MAD_PMA_LOCAL, 0);
			show_pma_apply(pm, h);
		}
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

/*
 * A recording's events up to --at (default: all of them), --since any time
 * form --at takes, or a duration before the recording's end ("90s"). The
 * printers are those of the live watch.
 */
static int show_events_recorded(const struct fab_ctx *ctx, const char *since, double duration_s)
{
	const struct rec_reader *r = ctx->replay;
	struct event_log log;
	uint64_t since_ns = 0, end = r->recs[r->samples[r->nsamples - 1]].wall_ns;
	size_t from = 0;
	char err[512];
	int rc = EXIT_OK;

	if (duration_s > 0) {
		fprintf(stderr, "fabtop show events: --duration watches a live host; a recording has its own\n");
		return EXIT_USAGE;
	}
	if (since && rec_when_wall(r, since, &since_ns, err, sizeof(err)) &&
	    events_parse_since(since, end, &since_ns)) {
		fprintf(stderr, "fabtop show events: --since %s\n", err);
		return EXIT_USAGE;
	}
	if (event_log_init(&log, 1u << 20)) {
		fprintf(stderr, "fabtop show events: out of memory\n");
		return EXIT_RUNTIME;
	}
	if (rec_reader_events(r, ctx->replay_pos, &from, &log, err, sizeof(err))) {
		fprintf(stderr, "fabtop show events: %s\n", err);
		rc = EXIT_RUNTIME;
	} else if (ctx->json) {
		events_report_json(stdout, &log, since_ns);
	} else {
		FILE *esc = escape_open(stdout);

		events_report_text(esc ? esc : stdout, &log, since_ns);
		escape_close(esc);
	}
	event_log_free(&log);
	return rc;
}

/* The section named after the options (NULL: all); 0 or EXIT_USAGE with the message printed. */
static int select_section(int argc, char **argv, const struct show_section **only)
{
	*only = NULL;
	res_part = RES_PART_ALL;
	for (int i = optind; i < argc; i++) {
		int part;

		if (*only && !strcmp((*only)->name, "res") && i == optind + 1 && (part = res_part_parse(argv[i])) > 0) {
			res_part = (enum res_part)part;
			continue;
		}
		if (*only && !strcmp((*only)->name, "res") && i == optind + 1) {
			fprintf(stderr, "fabtop show res: unknown table '%s' (qp, cm or proc)\n", argv[i]);
			return EXIT_USAGE;
		}
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

enum { OPT_SINCE = OPT_FIRST_OWN, OPT_DURATION, OPT_FOR };

static const struct option show_own[] = {
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "for", required_argument, NULL, OPT_FOR },
	{ NULL, 0, NULL, 0 },
};

/* Long: options, the section, the snapshot parts it needs, and the text or JSON walk over the sections. */
int cmd_show(struct fab_ctx *ctx, int argc, char **argv)
{
	const struct show_section *only = NULL;
	const char *for_arg = NULL;
	struct gid_want want;
	unsigned int what = COLLECT_ALL;
	struct source *src;
	struct option longopts[OPTS_MAX];
	struct snapshot snap;
	const char *since = NULL;
	double duration_s = 0;
	uint64_t since_ns = 0;
	struct show_pma pm;
	int rc = EXIT_OK, c, stop;

	memset(&pm, 0, sizeof(pm));
	opts_merge(longopts, show_own);
	while ((c = opts_next(ctx, "show", argc, argv, ":hV", longopts, &stop)) != -1) {
		switch (c) {
		case OPT_SINCE:
			since = optarg;
			break;
		case OPT_FOR:
			for_arg = optarg;
			break;
		case OPT_DURATION:
			if (util_parse_double(optarg, 0.1, 31 * 86400.0, &duration_s)) {
				fprintf(stderr, "fabtop show: --duration wants seconds from 0.1 to 2678400, not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		default:	/* 'h' */
			show_usage(stdout);
			return EXIT_OK;
		}
	}
	if (stop >= 0) {
		if (stop == EXIT_USAGE)
			show_usage(stderr);
		return stop;
	}
	rc = select_section(argc, argv, &only);
	if (rc)
		return rc;
	if ((since || duration_s > 0) && (!only || strcmp(only->name, "events"))) {
		fprintf(stderr, "fabtop show: --since and --duration go with 'show events'\n");
		return EXIT_USAGE;
	}
	if (only && !strcmp(only->name, "events")) {
		if (ctx->count) {
			fprintf(stderr, "fabtop show events: --count has no meaning here (use --duration)\n");
			return EXIT_USAGE;
		}
		if (ctx->replay)
			return show_events_recorded(ctx, since, duration_s);
		if (since && events_parse_since(since, util_wall_ns(), &since_ns)) {
			fprintf(stderr, "fabtop show events: --since wants 90s, 5m, 2h, 1d (ago), @UNIXTIME or "
				"'YYYY-MM-DD HH:MM[:SS]', not '%s'\n", since);
			return EXIT_USAGE;
		}
		return show_events_watch(ctx, duration_s, since_ns);
	}
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
	/* A recording keeps the PMA samples the monitor took, not new ones to take between --count rounds. */
	if (ctx->count && ctx->replay && !strcmp(only->name, "fabric")) {
		fprintf(stderr, "fabtop show fabric: --count samples the PMA counters live; a recording has the "
			"rates of its samples: 'show fabric --replay FILE --at T' for each, or the monitor\n");
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
	if (ctx->replay && !ctx->json) {
		struct source_timeline t;
		char when[64];

		source_timeline(src, &t);
		fprintf(stderr, "fabtop: from the recording %s as at %s (sample #%zu of %zu)\n", ctx->replay_path,
			util_wall_str(t.wall_ns, when, sizeof(when)), t.pos, t.n);
	}
	if (snap.host.sysfs_missing && !ctx->json && !ctx->replay)
		fprintf(stderr, "fabtop: no RDMA devices: %s/class/infiniband is absent "
			"(no RDMA driver loaded?). Try 'fabtop --demo'.\n", ctx->sysfs_root);
	if (!only || !strcmp(only->name, "counters"))
		show_pma_open(ctx, &pm, &snap.host);

	if (for_arg) {
		rc = show_gid_choice(ctx, &snap.host, &want);
	} else if (only && !strcmp(only->name, "roce")) {
		rc = show_roce(ctx, src, &snap.host);
	} else if (ctx->count && strcmp(only->name, "fabric")) {	/* fabric samples PMA counters itself */
		rc = show_counter_rates(ctx, src, &snap.host, &pm);
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
	show_pma_close(&pm);
	snapshot_free(&snap);
	source_close(src);
	return rc;
}
