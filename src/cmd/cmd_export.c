// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop export: collect on an interval, render OpenMetrics, serve it over HTTP and/or write it for node_exporter's textfile collector. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "mad/mad_subnet.h"
#include "mad/mad_trap.h"
#include "mad/mad_watch.h"
#include "source/snapshot.h"
#include "source/source.h"
#include "live/live.h"
#include "cmd/commands.h"
#include "derive/doctor.h"
#include "derive/events.h"
#include "export/gzip.h"
#include "export/httpd.h"
#include "export/probe_runs.h"
#include "export/textfile.h"
#include "opts.h"
#include "report/openmetrics.h"
#include "util.h"
#include "warn.h"

#define EXPORT_DEFAULT_LISTEN		"127.0.0.1:9879"
#define EXPORT_MAX_POLLFDS		16

enum { OPT_LISTEN = OPT_FIRST_OWN, OPT_TEXTFILE, OPT_NO_HTTP, OPT_PROBE, OPT_PROBE_INTERVAL, OPT_FABRIC,
       OPT_FABRIC_INTERVAL };

static const struct option own[] = {
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "textfile", required_argument, NULL, OPT_TEXTFILE },
	{ "no-http", no_argument, NULL, OPT_NO_HTTP },
	{ "probe", required_argument, NULL, OPT_PROBE },
	{ "probe-interval", required_argument, NULL, OPT_PROBE_INTERVAL },
	{ "fabric", no_argument, NULL, OPT_FABRIC },
	{ "fabric-interval", required_argument, NULL, OPT_FABRIC_INTERVAL },
	{ NULL, 0, NULL, 0 },
};

/* The exporter: a view of the live core, and where its pages go. */
struct exporter {
	struct fab_ctx *ctx;
	struct live lv;			/* the host, network, findings, events and MAD view kept current */
	struct httpd *httpd;		/* NULL: --textfile only */
	const char *textfile;
	struct openmetrics_self self;
	struct probe_runs probes;	/* --probe */
	int sig_fd;
	char last_error[256];		/* said once, until it changes */
	bool fabric;			/* --fabric: every port of the subnet too */
	double fabric_interval_s;
	/* the fabric's part of the page per format, rendered again only when the subnet changed */
	struct {
		struct httpd_shared *sh;	/* the text, shared with the pages that end with it */
		size_t series;
		struct gzip_part gz;	/* text deflated, made when a scrape wants the format gzip'ed */
	} fab[2];
	bool fab_stale;
	char fab_note[256];		/* what the subnet's sweep left out, as last said */
};

/* --fabric: the subnet's counters are sampled every this many seconds unless told. */
#define EXPORT_FABRIC_INTERVAL_S	10.0

/*
 * deflate's level for the pages served gzip'ed: on the 1,016-node fabric's
 * 27 MB page, 1 takes a quarter of 6's CPU for a page 1.3 times the size
 * (doc/export.md).
 */
#define EXPORT_GZIP_LEVEL		1

/* Events kept: the exporter serves their counts, not the events themselves. */
#define EXPORT_EVENT_LOG	64

static void export_usage(FILE *f)
{
	fprintf(f, "Usage: fabtop export [--listen ADDR:PORT] [--textfile FILE [--no-http]] [--interval S] [--count N]\n"
		   "Serve the RDMA ports, counters, GIDs, link partners and doctor findings as\n"
		   "OpenMetrics (Prometheus) metrics at http://ADDR:PORT/metrics.\n\n"
		   "  --listen ADDR:PORT   where to serve (default " EXPORT_DEFAULT_LISTEN ": this host only);\n"
		   "                       ':PORT' is every address, '[::1]:PORT' IPv6, port 0 any free one\n"
		   "  --textfile FILE      also write FILE (atomically) for node_exporter's textfile\n"
		   "                       collector after every collection; name it *.prom\n"
		   "  --no-http            only the textfile: serve nothing\n"
		   "  --interval S         collect every S seconds (default 1); a scrape reads the\n"
		   "                       latest collection, it never collects, so rate() over a\n"
		   "                       window W is off by at most S/W (doc/export.md)\n"
		   "  --count N            stop after N collections (a cron job writing a textfile)\n"
		   "  --probe PEER[,from=ADDR|IFACE][,port=N][,mode=rping|lat][,count=N]\n"
		   "                       also connect to PEER over RDMA CM and ping it (10 pings,\n"
		   "                       rping's protocol: a stock rping -s or fabtop probe --listen\n"
		   "                       answers) every --probe-interval; up to 8 probes\n"
		   "  --probe-interval S   seconds between probe runs (default 30)\n"
		   "  --fabric             also every port of the InfiniBand subnet (swept from this\n"
		   "                       host's ports, each port's PMA counters sampled every\n"
		   "                       --fabric-interval; a scrape never sweeps)\n"
		   "  --fabric-interval S  seconds between samples of the subnet (default 10)\n\n"
		   "It prints where it listens on stdout, runs until SIGINT/SIGTERM and exits 0.\n"
		   "Metrics and their node_exporter equivalents: doc/export.md.\n");
}

static double cpu_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double unix_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A problem that repeats every collection is said once, and again when it changes. */
static void export_error(struct exporter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void export_error(struct exporter *e, const char *fmt, ...)
{
	char msg[sizeof(e->last_error)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	e->self.collect_errors++;
	if (strcmp(msg, e->last_error)) {
		fprintf(stderr, "fabtop export: %s\n", msg);
		snprintf(e->last_error, sizeof(e->last_error), "%s", msg);
	}
}

/* The core's trouble is the exporter's: counted, said once. */
static void export_said(void *arg, const char *msg)
{
	export_error(arg, "%s", msg);
}

/* After a network read: a failure is said (the findings are left out, never stale). */
static void export_net_check(struct exporter *e)
{
	if (e->lv.net_err)
		export_error(e, "reading the network state failed: %s (doctor findings left out)",
			     snapshot_net_error(e->lv.net_err));
}

static const struct ib_fabric *export_ib(const struct exporter *e)
{
	return e->lv.mad && e->lv.mad->v ? &e->lv.mad->f : NULL;
}

/* The subnet's part of the page in one format, from the cache unless the subnet changed; 0 or -ENOMEM. */
static int export_fabric_part(struct exporter *e, enum openmetrics_format fmt, const struct openmetrics_input *in)
{
	char *text = NULL;
	size_t len = 0, series;
	FILE *f;

	if (e->fab[fmt].sh && !e->fab_stale)
		return 0;
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	series = openmetrics_write_fabric(f, fmt, in);
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	httpd_shared_unref(e->fab[fmt].sh);
	gzip_part_free(&e->fab[fmt].gz);
	e->fab[fmt].sh = httpd_shared_new(text, len);
	e->fab[fmt].series = series;
	return e->fab[fmt].sh ? 0 : -ENOMEM;
}

/*
 * Render the host in one format into a new buffer, and with --fabric the
 * subnet's part: copied in when fab_inline (the textfile), else left in
 * e->fab[fmt].sh for the page to end with by reference; 0 or -ENOMEM.
 */
static int export_render(struct exporter *e, enum openmetrics_format fmt, bool with_self, bool fab_inline,
			 char **text, size_t *len, size_t *series)
{
	struct openmetrics_input in = {
		.host = &e->lv.host, .doctor = e->lv.doctor_ok ? &e->lv.doctor : NULL, .ib = export_ib(e),
		.probes = probe_runs_results((struct probe_runs *)&e->probes), .nprobes = e->probes.n,
		.event_totals = e->lv.events.total,
	};
	static const struct ib_fabric none;
	FILE *f;

	if (e->fabric && e->lv.subnet) {
		size_t ports;

		in.fabric = mad_subnet_fabric(e->lv.subnet);
		in.lost = mad_subnet_lost(e->lv.subnet, &in.nlost);
		in.fabric_sweeps = mad_subnet_sweeps(e->lv.subnet);
		in.fabric_round_s = (double)mad_subnet_round_ns(e->lv.subnet, &ports) / 1e9;
		in.fabric_traps = e->lv.trap ? mad_trap_stats(e->lv.trap) : NULL;
	} else if (e->fabric) {
		in.fabric = &none;
	}
	if (e->fabric && export_fabric_part(e, fmt, &in))
		return -ENOMEM;
	f = open_memstream(text, len);
	if (!f)
		return -ENOMEM;
	*series = openmetrics_write_host(f, fmt, &in);
	if (e->fabric) {
		if (fab_inline)
			fwrite(e->fab[fmt].sh->text, 1, e->fab[fmt].sh->len, f);
		*series += e->fab[fmt].series;
	}
	if (with_self) {
		openmetrics_write_self(f, fmt, &e->self);
		openmetrics_write_end(f, fmt);
	}
	if (fclose(f)) {
		free(*text);
		*text = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void export_textfile(struct exporter *e)
{
	char *text = NULL, err[512];
	size_t len = 0, series;

	/* node_exporter's textfile collector parses the 0.0.4 format. */
	if (export_render(e, OPENMETRICS_PROM_0_0_4, true, true, &text, &len, &series)) {
		export_error(e, "out of memory rendering %s", e->textfile);
		return;
	}
	if (textfile_write(e->textfile, text, len, err, sizeof(err)))
		export_error(e, "%s", err);
	free(text);
}

/*
 * The page's text in fmt deflated, in the collector's thread: the host's
 * part each page, the subnet's (the page's end) once per change of it.
 * 0 or -ENOMEM (the page is served as text alone).
 */
static int export_gzip(struct exporter *e, enum openmetrics_format fmt, struct httpd_page *page)
{
	struct gzip_part host;
	int rc;

	if (e->fabric && !e->fab[fmt].gz.data &&
	    gzip_part_make(&e->fab[fmt].gz, e->fab[fmt].sh->text, e->fab[fmt].sh->len, EXPORT_GZIP_LEVEL))
		return -ENOMEM;
	if (gzip_part_make(&host, page->text[fmt], page->len[fmt], EXPORT_GZIP_LEVEL))
		return -ENOMEM;
	if (!e->fabric) {
		page->gz[fmt] = host;
		return 0;
	}
	rc = gzip_part_join(&page->gz[fmt], &host, &e->fab[fmt].gz);
	gzip_part_free(&host);
	return rc;
}

static void export_publish(struct exporter *e)
{
	struct httpd_page *page = calloc(1, sizeof(*page));
	size_t series = 0;

	if (!page || export_render(e, OPENMETRICS_1_0, false, false, &page->text[0], &page->len[0], &series) ||
	    export_render(e, OPENMETRICS_PROM_0_0_4, false, false, &page->text[1], &page->len[1], &series)) {
		httpd_page_free(page);
		export_error(e, "out of memory rendering the metrics: the previous ones are served");
		return;
	}
	for (int fmt = 0; fmt < 2; fmt++) {
		if (e->fabric)
			page->end[fmt] = httpd_shared_ref(e->fab[fmt].sh);
		if (httpd_gzip_wanted(e->httpd, fmt) && export_gzip(e, fmt, page))
			export_error(e, "out of memory compressing the metrics: they are served uncompressed");
	}
	e->self.series = series;
	page->self = e->self;
	httpd_publish(e->httpd, page);
}

/* The latest look out to wherever it goes. */
static void export_out(struct exporter *e)
{
	if (e->httpd)
		export_publish(e);
	if (e->textfile)
		export_textfile(e);
	/* Every format in use has its fabric part from the subnet as it is now. */
	e->fab_stale = false;
}

/* One step of the core, timed: a new sample or network read goes out at once. */
static bool export_step(struct exporter *e)
{
	uint64_t t0 = util_now_ns();
	double cpu0 = cpu_now_s();
	unsigned int ch = live_step(&e->lv);

	if (ch & LIVE_NET)
		export_net_check(e);
	if (ch & LIVE_SAMPLED)
		e->self.collections++;
	if (ch & LIVE_FABRIC)
		e->fab_stale = true;
	if ((ch & LIVE_FABRIC) && e->lv.subnet && mad_subnet_reason(e->lv.subnet)[0])
		export_error(e, "the fabric: %s", mad_subnet_reason(e->lv.subnet));
	/* What a sweep left out is said when it changes, not counted as an error. */
	if ((ch & LIVE_FABRIC) && e->lv.subnet && strcmp(mad_subnet_note(e->lv.subnet), e->fab_note)) {
		snprintf(e->fab_note, sizeof(e->fab_note), "%s", mad_subnet_note(e->lv.subnet));
		if (e->fab_note[0])
			fprintf(stderr, "fabtop export: the fabric: %s\n", e->fab_note);
	}
	/* A subnet round is published once all its answers are in, not per answer. */
	if (!(ch & (LIVE_SAMPLED | LIVE_NET | LIVE_FABRIC)))
		return false;
	export_out(e);
	e->self.collect_s = (double)(util_now_ns() - t0) / 1e9;
	e->self.cpu_s += cpu_now_s() - cpu0;
	e->self.last_unix = unix_now_s();
	return (ch & LIVE_SAMPLED) != 0;
}

/* SIGINT/SIGTERM/SIGHUP end the exporter through the poll loop (blocked before any thread starts). */
static int export_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	/* A scraper that hangs up mid-response must not kill us (MHD sends with MSG_NOSIGNAL; belt and braces). */
	signal(SIGPIPE, SIG_IGN);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static int export_loop(struct exporter *e)
{
	long done = 1;		/* the first collection came before the loop */

	while (!e->ctx->count || done < e->ctx->count) {
		struct pollfd fds[EXPORT_MAX_POLLFDS];
		uint64_t now = util_now_ns();
		int nfds = 0, timeout = -1, n;

		fds[nfds++] = (struct pollfd){ .fd = e->sig_fd, .events = POLLIN };
		nfds += live_fds(&e->lv, fds + nfds, EXPORT_MAX_POLLFDS - nfds, &timeout);
		nfds += probe_runs_fds(&e->probes, fds + nfds, EXPORT_MAX_POLLFDS - nfds, &timeout, now);
		n = poll(fds, (nfds_t)nfds, timeout);
		if (n < 0 && errno != EINTR) {
			fprintf(stderr, "fabtop export: poll: %s\n", strerror(errno));
			return EXIT_RUNTIME;
		}
		if (n > 0 && fds[0].revents)
			return EXIT_OK;		/* a signal: a clean stop */
		if (export_step(e))
			done++;
		probe_runs_handle(&e->probes, util_now_ns());
	}
	return EXIT_OK;
}

static void export_free(struct exporter *e)
{
	for (size_t i = 0; i < ARRAY_SIZE(e->fab); i++) {
		httpd_shared_unref(e->fab[i].sh);
		gzip_part_free(&e->fab[i].gz);
	}
	httpd_stop(e->httpd);
	probe_runs_free(&e->probes);
	live_close(&e->lv);
	if (e->sig_fd >= 0)
		close(e->sig_fd);
}

/* Options; 0 to go on, else the exit code. */
static int export_args(struct fab_ctx *ctx, int argc, char **argv, const char **listen, const char **textfile,
		       bool *no_http, struct probe_runs *probes, struct exporter *e)
{
	struct option longopts[OPTS_MAX];
	char err[512];
	int c, stop;

	opts_merge(longopts, own);
	while ((c = opts_next(ctx, "export", argc, argv, ":hV", longopts, &stop)) != -1) {
		switch (c) {
		case 'h':
			export_usage(stdout);
			return -1;
		case OPT_LISTEN:
			*listen = optarg;
			break;
		case OPT_TEXTFILE:
			*textfile = optarg;
			break;
		case OPT_NO_HTTP:
			*no_http = true;
			break;
		case OPT_PROBE:
			if (probe_runs_add(probes, optarg, err, sizeof(err))) {
				fprintf(stderr, "fabtop export: %s\n", err);
				return EXIT_USAGE;
			}
			break;
		case OPT_FABRIC:
			e->fabric = true;
			break;
		case OPT_FABRIC_INTERVAL:
			if (util_parse_double(optarg, 0.1, 86400, &e->fabric_interval_s)) {
				fprintf(stderr, "fabtop export: --fabric-interval wants seconds from 0.1 to 86400, not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_PROBE_INTERVAL:
			if (util_parse_double(optarg, 1, 86400, &probes->every_s)) {
				fprintf(stderr, "fabtop export: --probe-interval wants seconds from 1 to 86400, not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		}
	}
	if (stop >= 0) {
		if (stop == EXIT_USAGE)
			export_usage(stderr);
		return stop;
	}
	if (optind < argc) {
		fprintf(stderr, "fabtop export: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (*no_http && !*textfile) {
		fprintf(stderr, "fabtop export: --no-http goes with --textfile (there would be nothing to export)\n");
		return EXIT_USAGE;
	}
	if (*no_http && *listen) {
		fprintf(stderr, "fabtop export: --listen and --no-http contradict each other\n");
		return EXIT_USAGE;
	}
	if (*listen) {
		if (httpd_listen_check(*listen, err, sizeof(err))) {
			fprintf(stderr, "fabtop export: %s\n", err);
			return EXIT_USAGE;
		}
	}
	if (ctx->json) {
		fprintf(stderr, "fabtop export: --json has no meaning here (the output is OpenMetrics)\n");
		return EXIT_USAGE;
	}
	return 0;
}

int cmd_export(struct fab_ctx *ctx, int argc, char **argv)
{
	struct exporter e = { .ctx = ctx, .sig_fd = -1 };
	const struct live_hooks hooks = { .say = export_said, .arg = &e };
	const char *listen = NULL;
	bool no_http = false;
	char err[512], where[96], from[256];
	int rc;

	probe_runs_init(&e.probes);
	e.fabric_interval_s = EXPORT_FABRIC_INTERVAL_S;
	rc = export_args(ctx, argc, argv, &listen, &e.textfile, &no_http, &e.probes, &e);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;

	e.sig_fd = export_signals();
	if (e.sig_fd < 0) {
		fprintf(stderr, "fabtop export: cannot watch signals: %s\n", strerror(-e.sig_fd));
		return EXIT_RUNTIME;
	}
	/* Events are only counted here (fabtop_events_total): a small log, its totals per kind. */
	rc = live_open(&e.lv, ctx, 0, &hooks, EXPORT_EVENT_LOG);
	if (rc) {
		fprintf(stderr, "fabtop export: cannot collect the RDMA devices: %s\n", strerror(-rc));
		rc = EXIT_RUNTIME;
		goto out;
	}
	export_net_check(&e);
	if (e.fabric) {
		e.lv.fabric_interval_s = e.fabric_interval_s;
		live_want(&e.lv, LIVE_WANT_FABRIC);
		if (!e.lv.subnet)
			fprintf(stderr, "fabtop export: --fabric: %s\n", live_fabric_reason(&e.lv));
	}
	source_describe(e.lv.src, from, sizeof(from));
	if (e.probes.n && live_simulated(&e.lv)) {
		fprintf(stderr, "fabtop export: --probe needs real RDMA devices: the %s has none to connect with\n", from);
		rc = EXIT_USAGE;
		goto out;
	}
	if (e.lv.host.sysfs_missing)
		fprintf(stderr, "fabtop export: no RDMA devices: %s/class/infiniband is absent "
			"(no RDMA driver loaded?); serving the exporter's own metrics\n", ctx->sysfs_root);

	if (!no_http) {
		rc = httpd_start(&e.httpd, listen ? listen : EXPORT_DEFAULT_LISTEN, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "fabtop export: %s\n", err);
			rc = rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;	/* not an address at all: usage */
			goto out;
		}
	}
	/* The first page before anyone is told where to scrape: no 503 for a scraper that was quick. */
	e.self.collections++;
	e.self.last_unix = unix_now_s();
	export_out(&e);
	if (e.httpd) {
		httpd_address(e.httpd, where, sizeof(where));
		printf("fabtop export: listening on %s (http://%s/metrics), %s, every %g s\n", where, where, from,
		       ctx->interval_s);
	} else {
		printf("fabtop export: writing %s, %s, every %g s\n", e.textfile, from, ctx->interval_s);
	}
	fflush(stdout);
	rc = export_loop(&e);
out:
	export_free(&e);
	return rc;
}
