// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop show: one-shot reports of ports, counters, GIDs (and the sections other areas add). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel/host.h"
#include "mad/mad_lpma.h"
#include "source/snapshot.h"
#include "live/live.h"
#include "source/source.h"
#include "cmd/commands.h"
#include "kernel/roce.h"
#include "derive/gid_choice.h"
#include "derive/gid_route.h"
#include "derive/roce_check.h"
#include "opts.h"
#include "report/escape.h"
#include "record/reader.h"
#include "record/when.h"
#include "report/events.h"
#include "report/gid_advice.h"
#include "report/ibfabric.h"
#include "report/net.h"
#include "report/res.h"
#include "report/pci.h"
#include "report/roce.h"
#include "report/show.h"
#include "warn.h"
#include "util.h"

/* The options of `show` that belong to one section or another (struct show_section's takes). */
struct show_opts {
	const char *since;		/* events: --since */
	double duration_s;		/* events: --duration */
	const char *for_arg;		/* gids: --for */
	struct gid_want want;		/* ... parsed */
	enum res_part res_part;		/* res: the one table asked for (RES_PART_ALL: every table) */
	const char *dev;		/* ports, counters, gids: one device (NULL: all) */
	char dev_buf[64];		/* ... when it came as DEV/PORT */
	int port;			/* ... and one of its ports (-1: all) */
};

#define SHOW_TAKES_COUNT	(1u << 0)	/* --count (with --interval) */
#define SHOW_TAKES_SINCE	(1u << 1)	/* --since, --duration */
#define SHOW_TAKES_FOR		(1u << 2)	/* --for */
#define SHOW_TAKES_PART		(1u << 3)	/* a table name after the section: 'show res qp' */
#define SHOW_TAKES_DEV		(1u << 4)	/* DEV [PORT] or DEV/PORT after the section, as ibstat takes them */

/* watch()'s answer when the section is one look at a snapshot after all. */
#define SHOW_FROM_SNAPSHOT	(-1)

/*
 * A section of the report: one row owns its name, the options it takes,
 * what it needs collected and its output. emit() writes it, text or the
 * members of the open top-level JSON object (report/out.h), and returns
 * 0 or an exit code. A section that reads only the host gives host() (a
 * report/show.c function) instead. A section that reads the network
 * state or the fabric says so, and only then is it read. A section that
 * is not one look (a watch over time, samples with rates, an answer of
 * its own) has watch(), which runs instead of the snapshot unless it
 * answers SHOW_FROM_SNAPSHOT.
 */
struct show_section {
	const char *name;
	bool in_all;		/* part of "show all" */
	unsigned int needs;	/* SNAPSHOT_* parts beyond the host it reads */
	unsigned int takes;	/* SHOW_TAKES_* */
	int (*watch)(const struct fab_ctx *ctx, const struct show_opts *o);
	/* Why these options do not fit this section (a usage error), NULL when they do. */
	const char *(*refuse)(const struct fab_ctx *ctx, const struct show_opts *o);
	void (*host)(struct out *o, const struct fab_host *h);
	int (*emit)(const struct fab_ctx *ctx, const struct show_opts *o, struct snapshot *s, struct out *out);
};

static int net_sec(const struct fab_ctx *ctx, const struct show_opts *o, struct snapshot *s, struct out *out)
{
	net_report(out, &s->host, &s->net);
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

/*
 * With --count N, N more PMA samples --interval apart: rates of both ends
 * of each cable (JSON: "samples" in the "fabric" object, which ends here).
 */
static int fabric_sec(const struct fab_ctx *ctx, const struct show_opts *o, struct snapshot *s, struct out *out)
{
	int rc = fabric_status(s);

	/* text: the reason is on stderr when no port answered */
	if (s->fabric.nports || out_is_json(out))
		ibfabric_report(out, &s->fabric);
	if (ctx->count > 0)
		out_arr_open(out, "samples");
	for (long n = 1; s->mad && !rc && n <= ctx->count; n++) {
		if (n == 1)
			out_printf(out, "\nPMA rates, both ends of each cable, every %.3g s:\n", ctx->interval_s);
		fflush(out->f);
		snapshot_fabric_sample(s, ctx->interval_s);
		ibfabric_rates(out, &s->fabric, (unsigned int)n, ctx->interval_s);
		fflush(out->f);
	}
	if (ctx->count > 0)
		out_arr_close(out);
	out_obj_close(out);
	return rc;
}

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

static int res_sec(const struct fab_ctx *ctx, const struct show_opts *o, struct snapshot *s, struct out *out)
{
	int rc = res_status(s);

	/* text: nothing but the reason (on stderr) when nothing could be listed */
	if (s->has_res && (out_is_json(out) || !s->res.err || s->res.ndevs))
		res_report(out, &s->res, o->res_part);
	return rc;
}

/* The PCI side is read from sysfs with the host: a simulated host has none, a recording holds none yet. */
static int pci_sec(const struct fab_ctx *ctx, const struct show_opts *o, struct snapshot *s, struct out *out)
{
	if (ctx->demo || ctx->replay) {
		fprintf(stderr, "fabtop show pci: %s has no PCI side (run it on a host, or with --sysfs DIR)\n",
			ctx->demo ? "the demo fabric is simulated: it" : "a recording");
		return EXIT_RUNTIME;
	}
	pci_report(out, &s->host);
	return EXIT_OK;
}

static const struct show_section sections[];
static const size_t nsections;

void show_synopsis(FILE *f)
{
	fprintf(f, "show [");
	for (size_t i = 0; i < nsections; i++)
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
		   "       fabtop show ports|gids|counters [DEV [PORT] | DEV/PORT] [--json]\n"
		   "Sections:");
	for (size_t i = 0; i < nsections; i++)
		fprintf(f, " %s", sections[i].name);
	fprintf(f, " all (default: all)\n"
		   "'ports', 'gids' and 'counters' take a device and a port as ibstat, show_gids and\n"
		   "perfquery do: mlx5_0, mlx5_0 1 or mlx5_0/1 (exit 1 when there is no such one).\n"
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
		   "'pci' shows each device's PCIe link and every bridge up to the root port, what\n"
		   "they carry against the ports' rates, AER counts, NUMA node and CPUs, and the\n"
		   "GPUs with their distance to each device (PIX, PXB, PHB, NODE, SYS).\n"
		   "With --for, 'gids' names the GID index an application should use for that\n"
		   "address or interface (NCCL_IB_GID_INDEX, UCX_IB_GID_INDEX, ib_write_bw -x);\n"
		   "for a peer's address, the one of the netdev the route to the peer leaves by.\n");
}


#define ROCE_MAX_FINDINGS 64

static void roce_print(const struct fab_ctx *ctx, const struct roce_state *prev, const struct roce_state *cur,
		       unsigned int sample)
{
	struct doctor_finding *fs = calloc(ROCE_MAX_FINDINGS, sizeof(*fs));
	struct roce_gap *gaps = calloc(ROCE_MAX_FINDINGS, sizeof(*gaps));
	size_t nfs = fs ? roce_check(prev, cur, fs, ROCE_MAX_FINDINGS) : 0;
	size_t ngaps = gaps ? roce_gaps(prev, cur, gaps, ROCE_MAX_FINDINGS) : 0;
	struct out o;

	if (nfs > ROCE_MAX_FINDINGS)
		nfs = ROCE_MAX_FINDINGS;
	if (ngaps > ROCE_MAX_FINDINGS)
		ngaps = ROCE_MAX_FINDINGS;
	out_open(&o, stdout, ctx->json);
	if (sample)
		out_uint(&o, PRINT_ANY, "sample", sample, "%s== sample %u ==\n", sample > 1 ? "\n" : "", sample);
	roce_report(&o, prev, cur, fs, nfs, gaps, ngaps);
	out_close(&o);
	fflush(stdout);
	free(gaps);
	free(fs);
}

/*
 * show roce: the RoCE chain of every RoCE port as the live core reads it
 * (live, or a fixture tree's recordings), then --count more samples
 * --interval apart with rates. A fixture tree with a second recording
 * gives its rates without --count.
 */
static int roce_watch(const struct fab_ctx *ctx, const struct show_opts *o)
{
	struct live lv;
	bool live = !strcmp(ctx->sysfs_root, "/sys");
	int rc = live_open(&lv, ctx, LIVE_HOST_ONLY | (ctx->replay ? LIVE_NO_WAIT : 0), NULL, 0);

	if (!rc) {
		live_want(&lv, LIVE_WANT_ROCE);
		rc = lv.roce_err == -ENOMEM ? -ENOMEM : 0;
		/* the report alone would read as a host without RoCE ports */
		if (lv.roce_err == -EOPNOTSUPP)
			fprintf(stderr, "fabtop: %s\n", source_has(lv.src, SOURCE_RECORDED) ?
				"the recording holds no RoCE chain (made by a fabtop before recording format 1.3)" :
				"this source has no RoCE chain to read");
	}
	if (!rc && !live && !ctx->demo && !ctx->replay && !ctx->count) {
		/* a fixture tree: the core's second read is its recorded second sample, when it holds one */
		live_set_interval(&lv, 0);
		live_next_sample(&lv);
		if (lv.roce_err == -ENOMEM)
			rc = -ENOMEM;
		else if (lv.roce.next)
			roce_print(ctx, &lv.roce_prev, &lv.roce, 0);
		else
			roce_print(ctx, NULL, &lv.roce, 0);
	} else if (!rc && !ctx->count) {
		roce_print(ctx, NULL, &lv.roce, 0);
	}
	for (long n = 1; !rc && n <= ctx->count; n++) {
		live_next_sample(&lv);
		if (lv.roce_err == -ENOMEM)
			rc = -ENOMEM;
		else
			roce_print(ctx, &lv.roce_prev, &lv.roce, (unsigned int)n);
	}
	live_close(&lv);
	if (rc)
		fprintf(stderr, "fabtop: %s\n", strerror(-rc));
	return rc ? EXIT_RUNTIME : EXIT_OK;
}

/*
 * show gids --for: exit 0 with an index (or an InfiniBand port), 1 when
 * nothing fits. An address none of our GIDs carries is a peer's: the
 * entry is then the one of the netdev the route to it leaves by.
 */
static int gids_watch(const struct fab_ctx *ctx, const struct show_opts *o)
{
	const struct gid_want *w = &o->want;
	struct gid_route route = { 0 };
	struct gid_want peer;
	struct source *src;
	struct snapshot snap;
	struct gid_choice c;
	struct out out;

	if (!o->for_arg)
		return SHOW_FROM_SNAPSHOT;
	src = source_open(ctx);
	if (!src || snapshot_take(src, &snap, COLLECT_ALL | (w->is_addr ? SNAPSHOT_NET : 0))) {
		fprintf(stderr, "fabtop: out of memory while reading the RDMA devices\n");
		source_close(src);
		return EXIT_RUNTIME;
	}
	/* c points into the host: it is freed after the answer is out */
	gid_choose(&snap.host, w, &c);
	if (w->is_addr && !c.npicks && snap.net_err)
		fprintf(stderr, "fabtop: %s is no GID of this host, and the route to it cannot be asked: reading "
			"the network state failed: %s\n", w->text, snapshot_net_error(snap.net_err));
	else if (w->is_addr && !c.npicks && gid_route_want(&snap.net, snap.routes, w, &peer, &route)) {
		w = &peer;
		gid_choose(&snap.host, w, &c);
	}
	out_open(&out, stdout, ctx->json);
	gid_advice(&out, w, &c, &route);
	out_close(&out);
	snapshot_free(&snap);
	source_close(src);
	return c.npicks || c.ib_port ? EXIT_OK : EXIT_RUNTIME;
}

/* A device and a port of one look, or all of them: what `show ports DEV PORT` reports. */
struct show_scope {
	struct fab_host host;		/* the look's, narrowed: devs points at dev */
	struct fab_device dev;		/* the device asked for, ports narrowed to the one asked for */
};

/*
 * h narrowed to o's device and port into sc, its reports reading sc->host;
 * h itself when no device was asked for. NULL (said on stderr, exit 1)
 * when the device or port does not exist, naming those that do.
 */
static struct fab_host *show_scope(struct fab_host *h, const struct show_opts *o, const char *sec,
				    struct show_scope *sc)
{
	char why[512];

	if (!o->dev)
		return h;
	if (fab_host_has(h, o->dev, o->port, why, sizeof(why))) {
		escape_line(stderr, "fabtop show %s: %s", sec, why);
		return NULL;
	}
	sc->host = *h;
	sc->host.devs = &sc->dev;
	sc->host.ndevs = 1;
	for (size_t i = 0; i < h->ndevs; i++)
		if (!strcmp(h->devs[i].name, o->dev))
			sc->dev = h->devs[i];
	for (size_t j = 0; o->port >= 0 && j < sc->dev.nports; j++)
		if (sc->dev.ports[j].num == (unsigned int)o->port) {
			sc->dev.ports += j;
			sc->dev.nports = 1;
			break;
		}
	return &sc->host;
}

/* The core's words (a PMA that cannot be asked, out of memory) go to stderr. */
static void show_said(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "fabtop: %s\n", msg);
}

/* Repeated counter samples (--count): the live core's, with rates between consecutive ones. */
static int counters_watch(const struct fab_ctx *ctx, const struct show_opts *o)
{
	const struct live_hooks hooks = { .say = show_said };
	struct live lv;
	struct out out;
	int rc;

	if (!ctx->count)
		return SHOW_FROM_SNAPSHOT;
	/* the core asks the local PMA with each sample (--counters pma|auto), so every line is of one source */
	rc = live_open(&lv, ctx, LIVE_HOST_ONLY | LIVE_PMA_COUNTERS | (ctx->replay ? LIVE_NO_WAIT : 0), &hooks, 0);
	for (long s = 1; !rc && s <= ctx->count; s++) {
		struct show_scope sc;
		struct fab_host *h;

		live_next_sample(&lv);
		h = show_scope(&lv.host, o, "counters", &sc);
		if (!h) {
			rc = -ENODEV;
			break;
		}
		out_open(&out, stdout, ctx->json);
		out_uint(&out, PRINT_JSON, "sample", (uint64_t)s, NULL);
		out_float(&out, PRINT_JSON, "interval_s", ctx->interval_s, 3, NULL);
		/* a table of rates for people; for programs the counters with their rates */
		if (out_is_json(&out))
			show_counters(&out, h);
		else
			show_rates_text(out_text(&out), h, (unsigned int)s);
		out_close(&out);
		fflush(stdout);
	}
	live_close(&lv);
	if (rc == -ENODEV)
		return EXIT_RUNTIME;	/* said by show_scope() */
	if (rc) {
		fprintf(stderr, "fabtop: cannot read the RDMA devices: %s\n", strerror(-rc));
		return EXIT_RUNTIME;
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
	} else {
		events_report(stdout, ctx->json, &log, since_ns);
	}
	event_log_free(&log);
	return rc;
}

/* show events: a watch of the live host, or a recording's own past. */
static int events_sec_watch(const struct fab_ctx *ctx, const struct show_opts *o)
{
	uint64_t since_ns = 0;

	if (ctx->replay)
		return show_events_recorded(ctx, o->since, o->duration_s);
	if (o->since && events_parse_since(o->since, util_wall_ns(), &since_ns)) {
		fprintf(stderr, "fabtop show events: --since wants 90s, 5m, 2h, 1d (ago), @UNIXTIME or "
			"'YYYY-MM-DD HH:MM[:SS]', not '%s'\n", o->since);
		return EXIT_USAGE;
	}
	return show_events_watch(ctx, o->duration_s, since_ns);
}

/* fabric --count samples the PMA counters live: a recording has only the rates of its own samples. */
static const char *fabric_refuse(const struct fab_ctx *ctx, const struct show_opts *o)
{
	if (ctx->count && ctx->replay)
		return "--count samples the PMA counters live; a recording has the rates of its samples: "
		       "'show fabric --replay FILE --at T' for each, or the monitor";
	return NULL;
}

static const char *events_refuse(const struct fab_ctx *ctx, const struct show_opts *o)
{
	if (ctx->count)
		return "--count has no meaning here (use --duration)";
	if (ctx->replay && o->duration_s > 0)
		return "--duration watches a live host; a recording has its own";
	return NULL;
}

static const struct show_section sections[] = {
	{ .name = "ports", .in_all = true, .takes = SHOW_TAKES_DEV, .host = show_ports },
	{ .name = "counters", .in_all = true, .takes = SHOW_TAKES_COUNT | SHOW_TAKES_DEV, .watch = counters_watch,
	  .host = show_counters },
	{ .name = "gids", .in_all = true, .takes = SHOW_TAKES_FOR | SHOW_TAKES_DEV, .watch = gids_watch, .host = show_gids },
	{ .name = "net", .needs = SNAPSHOT_NET, .emit = net_sec },
	{ .name = "fabric", .needs = SNAPSHOT_FABRIC, .takes = SHOW_TAKES_COUNT, .refuse = fabric_refuse,
	  .emit = fabric_sec },
	{ .name = "events", .takes = SHOW_TAKES_SINCE, .refuse = events_refuse, .watch = events_sec_watch },
	{ .name = "res", .needs = SNAPSHOT_RES, .takes = SHOW_TAKES_PART, .emit = res_sec },
	{ .name = "roce", .takes = SHOW_TAKES_COUNT, .watch = roce_watch },
	{ .name = "pci", .emit = pci_sec },
};

static const size_t nsections = ARRAY_SIZE(sections);

static const struct show_section *section_find(const char *name)
{
	for (size_t i = 0; i < nsections; i++)
		if (!strcmp(name, sections[i].name))
			return &sections[i];
	return NULL;
}

/* An option given for a section that does not take it: which ones do, in one message. */
static int option_misplaced(const char *opt, unsigned int takes)
{
	const char *names[ARRAY_SIZE(sections)];
	size_t n = 0;

	for (size_t i = 0; i < nsections; i++)
		if (sections[i].takes & takes)
			names[n++] = sections[i].name;
	fprintf(stderr, "fabtop show: %s go%s with ", opt, strchr(opt, ' ') ? "" : "es");
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s'show %s'", i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
	fprintf(stderr, "\n");
	return EXIT_USAGE;
}

/* The options given against what the section takes; 0 or EXIT_USAGE with the message printed. */
static int options_check(const struct fab_ctx *ctx, const struct show_opts *o, const struct show_section *only)
{
	unsigned int takes = only ? only->takes : 0;
	const char *why;

	if ((o->since || o->duration_s > 0) && !(takes & SHOW_TAKES_SINCE))
		return option_misplaced("--since and --duration", SHOW_TAKES_SINCE);
	if (o->for_arg && !(takes & SHOW_TAKES_FOR))
		return option_misplaced("--for", SHOW_TAKES_FOR);
	if (o->for_arg && o->dev) {
		fprintf(stderr, "fabtop show %s: --for chooses among every device's GIDs; give it without %s\n",
			only->name, o->dev);
		return EXIT_USAGE;
	}
	if (only && (why = only->refuse ? only->refuse(ctx, o) : NULL)) {
		fprintf(stderr, "fabtop show %s: %s\n", only->name, why);
		return EXIT_USAGE;
	}
	if (ctx->count && (!(takes & SHOW_TAKES_COUNT) || o->for_arg))
		return option_misplaced("--count", SHOW_TAKES_COUNT);
	return 0;
}

/* A port number as ibstat and perfquery take it; -1 when it is none. */
static int port_parse(const char *s)
{
	uint64_t v;

	return util_parse_u64(s, 10, 255, &v) ? -1 : (int)v;
}

/*
 * The words after a section that takes a device: DEV, DEV PORT or DEV/PORT
 * (ibstat mlx5_0 1, show_gids mlx5_0, perfquery's DEV/PORT habit). Returns
 * how many words it took, or -1 (EXIT_USAGE) with the message printed.
 */
static int select_device(const struct show_section *sec, int argc, char **argv, int i, struct show_opts *o)
{
	const char *slash = strchr(argv[i], '/');
	int n = 1;

	o->dev = argv[i];
	o->port = -1;
	if (slash) {
		snprintf(o->dev_buf, sizeof(o->dev_buf), "%.*s", (int)(slash - argv[i]), argv[i]);
		o->dev = o->dev_buf;
		o->port = port_parse(slash + 1);
		if (o->port < 0 || !o->dev[0] || (size_t)(slash - argv[i]) >= sizeof(o->dev_buf)) {
			fprintf(stderr, "fabtop show %s: '%s' is not DEV/PORT (a device name and a port number: "
				"mlx5_0/1)\n", sec->name, argv[i]);
			return -1;
		}
	} else if (i + 1 < argc) {
		o->port = port_parse(argv[i + 1]);
		if (o->port < 0) {
			fprintf(stderr, "fabtop show %s: '%s' is not a port number (%s PORT: 1, 2, ...)\n", sec->name,
				argv[i + 1], argv[i]);
			return -1;
		}
		n = 2;
	}
	if (i + n < argc) {
		fprintf(stderr, "fabtop show %s: one device and port at a time ('%s' is extra)\n", sec->name, argv[i + n]);
		return -1;
	}
	if (!o->dev[0] || strlen(o->dev) >= FAB_NAME_LEN) {
		fprintf(stderr, "fabtop show %s: '%s' is no device name\n", sec->name, o->dev);
		return -1;
	}
	return n;
}

/* The section named after the options (NULL: all); 0 or EXIT_USAGE with the message printed. */
static int select_section(int argc, char **argv, const struct show_section **only, struct show_opts *o)
{
	*only = NULL;
	o->res_part = RES_PART_ALL;
	o->port = -1;
	for (int i = optind; i < argc; i++) {
		int part;

		if (*only && ((*only)->takes & SHOW_TAKES_DEV) && i == optind + 1) {
			part = select_device(*only, argc, argv, i, o);
			if (part < 0)
				return EXIT_USAGE;
			i += part - 1;
			continue;
		}
		if (*only && ((*only)->takes & SHOW_TAKES_PART) && i == optind + 1) {
			part = res_part_parse(argv[i]);
			if (part <= 0) {
				fprintf(stderr, "fabtop show %s: unknown table '%s' (qp, cm or proc)\n", (*only)->name,
					argv[i]);
				return EXIT_USAGE;
			}
			o->res_part = (enum res_part)part;
			continue;
		}
		if (*only || (i > optind && !strcmp(argv[optind], "all"))) {
			fprintf(stderr, "fabtop show: one section at a time ('%s' is extra)\n", argv[i]);
			return EXIT_USAGE;
		}
		if (!strcmp(argv[i], "all"))
			continue;
		*only = section_find(argv[i]);
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

/* The command line into o and the section; -1 to go on, else the exit code. */
static int show_args(struct fab_ctx *ctx, int argc, char **argv, struct show_opts *o,
		     const struct show_section **only)
{
	struct option longopts[OPTS_MAX];
	int c, stop, rc;

	opts_merge(longopts, show_own);
	while ((c = opts_next(ctx, "show", argc, argv, ":hV", longopts, &stop)) != -1) {
		switch (c) {
		case OPT_SINCE:
			o->since = optarg;
			break;
		case OPT_FOR:
			o->for_arg = optarg;
			break;
		case OPT_DURATION:
			if (util_parse_double(optarg, 0.1, 31 * 86400.0, &o->duration_s)) {
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
	rc = select_section(argc, argv, only, o);
	if (rc)
		return rc;
	if (o->for_arg) {
		char why[160];

		if (!*only)
			*only = section_find("gids");
		if (*only && ((*only)->takes & SHOW_TAKES_FOR) && !gid_want_parse(o->for_arg, &o->want, why, sizeof(why))) {
			fprintf(stderr, "fabtop show %s: --for: %s\n", (*only)->name, why);
			return EXIT_USAGE;
		}
	}
	rc = options_check(ctx, o, *only);
	return rc ? rc : -1;
}

/* The sections of one snapshot, as text or JSON. */
static int show_snapshot(const struct fab_ctx *ctx, const struct show_opts *o, const struct show_section *only,
			 struct snapshot *snap)
{
	struct fab_host *h = &snap->host;
	struct show_scope sc;
	struct out out;
	int rc = 0;

	/* a device that is not there is said before anything is printed */
	if (only && !(h = show_scope(&snap->host, o, only->name, &sc)))
		return EXIT_RUNTIME;
	/* Names from sysfs and netlink must not drive the terminal: the text is escaped on the way out. */
	out_open(&out, stdout, ctx->json);
	for (size_t i = 0; i < nsections && !rc; i++) {
		const struct show_section *sec = &sections[i];

		if (only ? only != sec : !sec->in_all)
			continue;
		if (!only)
			out_printf(&out, "%s== %s ==\n", i ? "\n" : "", sec->name);
		if (sec->host)
			sec->host(&out, h);
		else if (sec->emit)
			rc = sec->emit(ctx, o, snap, &out);
	}
	out_close(&out);
	return rc;
}

/* Options, the section (its own watch, or the snapshot parts it needs), and the report. */
int cmd_show(struct fab_ctx *ctx, int argc, char **argv)
{
	const struct show_section *only = NULL;
	struct show_opts o = { 0 };
	unsigned int what = COLLECT_ALL;
	struct source *src;
	struct snapshot snap;
	struct mad_lpma pm;
	int rc;

	rc = show_args(ctx, argc, argv, &o, &only);
	if (rc >= 0)
		return rc;
	if (only && only->watch && (rc = only->watch(ctx, &o)) != SHOW_FROM_SNAPSHOT)
		return rc;

	/* The real sysfs or the demo fabric (--demo): the report does not care which. */
	for (size_t i = 0; i < nsections; i++)
		if (only ? only == &sections[i] : sections[i].in_all)
			what |= sections[i].needs;
	src = source_open(ctx);
	if (!src || snapshot_take(src, &snap, what)) {
		char from[PATH_MAX];

		if (src)
			source_describe(src, from, sizeof(from));
		fprintf(stderr, "fabtop: out of memory while reading %s\n", src ? from : ctx->sysfs_root);
		source_close(src);
		return EXIT_RUNTIME;
	}
	memset(&pm, 0, sizeof(pm));
	rc = EXIT_OK;
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
		escape_line(stderr, "fabtop: from the recording %s as at %s (sample #%zu of %zu)", ctx->replay_path,
			util_wall_str(t.wall_ns, when, sizeof(when)), t.pos, t.n);
	}
	if (snap.host.sysfs_missing && !ctx->json && !ctx->replay)
		fprintf(stderr, "fabtop: no RDMA devices: %s/class/infiniband is absent "
			"(no RDMA driver loaded?). Try 'fabtop --demo'.\n", ctx->sysfs_root);
	if (!only || !strcmp(only->name, "counters"))
		mad_lpma_open(&pm, ctx, &snap.host, show_said, NULL);
	rc = show_snapshot(ctx, &o, only, &snap);
out:
	mad_lpma_close(&pm);
	snapshot_free(&snap);
	source_close(src);
	return rc;
}
