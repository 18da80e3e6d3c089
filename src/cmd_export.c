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

#include "collect/mad_watch.h"
#include "collect/snapshot.h"
#include "collect/source.h"
#include "commands.h"
#include "derive/doctor.h"
#include "derive/events.h"
#include "export/httpd.h"
#include "export/probe_runs.h"
#include "export/textfile.h"
#include "opts.h"
#include "report/openmetrics.h"
#include "util.h"
#include "warn.h"

#define EXPORT_DEFAULT_LISTEN		"127.0.0.1:9879"
#define EXPORT_MAX_POLLFDS		16

enum { OPT_LISTEN = OPT_FIRST_OWN, OPT_TEXTFILE, OPT_NO_HTTP, OPT_PROBE, OPT_PROBE_INTERVAL };

static const struct option own[] = {
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "textfile", required_argument, NULL, OPT_TEXTFILE },
	{ "no-http", no_argument, NULL, OPT_NO_HTTP },
	{ "probe", required_argument, NULL, OPT_PROBE },
	{ "probe-interval", required_argument, NULL, OPT_PROBE_INTERVAL },
	{ NULL, 0, NULL, 0 },
};

/* The exporter's state: the kept snapshot, the MAD view, where it goes. */
struct exporter {
	struct fab_ctx *ctx;
	struct source *src;
	struct fab_host host;
	struct net_state net;
	int net_err;			/* 0 or -errno of the latest network read */
	bool net_ok;
	struct doctor_report doctor;
	bool doctor_ok;
	struct mad_watch *mad;		/* NULL: the source has no subnet to ask */
	struct httpd *httpd;		/* NULL: --textfile only */
	const char *textfile;
	struct openmetrics_self self;
	struct probe_runs probes;	/* --probe */
	struct snapshot_clock clock;	/* structure checks and full collections */
	uint64_t last_net_ns;
	bool net_wanted;
	int nl_fd, sig_fd;
	char last_error[256];		/* said once, until it changes */
	/* Events are only counted here (fabtop_events_total): a small log, its totals per kind. */
	struct events_memory ev_mem;
	struct event_log events;
	int async_fd;			/* the devices' notifications, -1: none */
};

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
		   "  --probe-interval S   seconds between probe runs (default 30)\n\n"
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

/* What changed since the previous look, counted by kind. */
static void export_events(struct exporter *e, bool host, bool net)
{
	struct events_input in = {
		.host = host ? &e->host : NULL,
		.net = net && e->net_ok ? &e->net : NULL,
		.doctor = net && e->doctor_ok ? &e->doctor : NULL,
		.real_ns = util_wall_ns(), .mono_ns = util_now_ns(),
	};

	if (events_derive(&e->ev_mem, &in, &e->events))
		export_error(e, "out of memory deriving events: some go uncounted");
}

/* The network state again, and the doctor over it; a failure leaves no stale findings. */
static void export_net(struct exporter *e, uint64_t now)
{
	struct net_state st;
	struct doctor_input in;

	e->last_net_ns = now;
	e->net_wanted = false;
	if (e->doctor_ok)
		doctor_report_free(&e->doctor);
	if (e->net_ok)
		net_state_free(&e->net);
	e->doctor_ok = e->net_ok = false;
	e->net_err = snapshot_net(e->src, &e->host, &st);
	if (e->net_err) {
		export_error(e, "reading the network state failed: %s (doctor findings left out)",
			     snapshot_net_error(e->net_err));
		return;
	}
	e->net = st;
	e->net_ok = true;
	memset(&e->doctor, 0, sizeof(e->doctor));
	in = (struct doctor_input){ .host = &e->host, .net = &e->net, .routes = snapshot_routes(&e->net) };
	if (doctor_run(&in, NULL, &e->doctor) == 0)
		e->doctor_ok = true;
	else
		export_error(e, "the doctor ran out of memory (findings left out)");
	export_events(e, false, true);
}

/* A new sample: counters, or the whole host when its structure changed (the monitor's policy). */
static void export_collect(struct exporter *e, uint64_t now)
{
	bool changed, nomem;

	changed = snapshot_host_sample(e->src, &e->host, &e->clock, now, NULL, &nomem);
	if (nomem)
		export_error(e, "out of memory while collecting: the previous snapshot is served");
	/* Sysctls have no notifications: the network is read with the structure. */
	if (changed || e->net_wanted || now - e->last_net_ns >= SNAPSHOT_RESCAN_NS)
		export_net(e, now);
	export_events(e, true, false);
	e->async_fd = source_async_fd(e->src, &e->host);
	/* IB ports that appeared, or access that was granted, get their MAD view (retries are spaced). */
	if (e->mad)
		mad_watch_open(e->mad, &e->host, e->ctx->interval_s, now);
}

static const struct ib_fabric *export_ib(const struct exporter *e)
{
	return e->mad && e->mad->v ? &e->mad->f : NULL;
}

/* Render the host in one format into a new buffer; 0 or -ENOMEM. */
static int export_render(const struct exporter *e, enum openmetrics_format fmt, bool with_self,
			 char **text, size_t *len, size_t *series)
{
	struct openmetrics_input in = {
		.host = &e->host, .doctor = e->doctor_ok ? &e->doctor : NULL, .ib = export_ib(e),
		.probes = probe_runs_results((struct probe_runs *)&e->probes), .nprobes = e->probes.n,
		.event_totals = e->events.total,
	};
	FILE *f = open_memstream(text, len);

	if (!f)
		return -ENOMEM;
	*series = openmetrics_write_host(f, fmt, &in);
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
	if (export_render(e, OPENMETRICS_PROM_0_0_4, true, &text, &len, &series)) {
		export_error(e, "out of memory rendering %s", e->textfile);
		return;
	}
	if (textfile_write(e->textfile, text, len, err, sizeof(err)))
		export_error(e, "%s", err);
	free(text);
}

static void export_publish(struct exporter *e)
{
	struct httpd_page *page = calloc(1, sizeof(*page));
	size_t series = 0;

	if (!page || export_render(e, OPENMETRICS_1_0, false, &page->text[0], &page->len[0], &series) ||
	    export_render(e, OPENMETRICS_PROM_0_0_4, false, &page->text[1], &page->len[1], &series)) {
		httpd_page_free(page);
		export_error(e, "out of memory rendering the metrics: the previous ones are served");
		return;
	}
	e->self.series = series;
	page->self = e->self;
	httpd_publish(e->httpd, page);
}

/* One collection, timed, then out to wherever it goes. */
static void export_sample(struct exporter *e)
{
	uint64_t t0 = util_now_ns();
	double cpu0 = cpu_now_s();

	export_collect(e, t0);
	e->self.collections++;
	if (e->httpd)
		export_publish(e);
	if (e->textfile)
		export_textfile(e);
	e->self.collect_s = (double)(util_now_ns() - t0) / 1e9;
	e->self.cpu_s += cpu_now_s() - cpu0;
	e->self.last_unix = unix_now_s();
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
	uint64_t step = (uint64_t)(e->ctx->interval_s * 1e9), next = util_now_ns() + step;
	long done = 1;		/* the first collection came before the loop */

	while (!e->ctx->count || done < e->ctx->count) {
		struct pollfd fds[EXPORT_MAX_POLLFDS];
		uint64_t now = util_now_ns();
		int nfds = 0, timeout, nl = -1, as = -1, n;

		timeout = next > now ? (int)((next - now + 999999) / 1000000) : 0;
		fds[nfds++] = (struct pollfd){ .fd = e->sig_fd, .events = POLLIN };
		if (e->nl_fd >= 0) {
			nl = nfds;
			fds[nfds++] = (struct pollfd){ .fd = e->nl_fd, .events = POLLIN };
		}
		if (e->async_fd >= 0) {
			as = nfds;
			fds[nfds++] = (struct pollfd){ .fd = e->async_fd, .events = POLLIN };
		}
		if (e->mad)
			nfds += mad_watch_fds(e->mad, false, fds + nfds, EXPORT_MAX_POLLFDS - nfds, &timeout, now);
		nfds += probe_runs_fds(&e->probes, fds + nfds, EXPORT_MAX_POLLFDS - nfds, &timeout, now);
		n = poll(fds, (nfds_t)nfds, timeout);
		if (n < 0 && errno != EINTR) {
			fprintf(stderr, "fabtop export: poll: %s\n", strerror(errno));
			return EXIT_RUNTIME;
		}
		if (n > 0 && fds[0].revents)
			return EXIT_OK;		/* a signal: a clean stop */
		/* A network change: the structure and the doctor at the next sample, at most every NET_GAP. */
		if (n > 0 && nl >= 0 && fds[nl].revents && source_events(e->src))
			e->clock.rescan_wanted = e->net_wanted = true;
		/* The devices' notifications count as they come (a flap between two collections). */
		if (n > 0 && as >= 0 && fds[as].revents)
			source_async_events(e->src, &e->events);
		/* MAD answers and deadlines: never blocks, whatever the fabric does. */
		if (e->mad && mad_watch_handle(e->mad, false, e->ctx->interval_s, util_now_ns()) == MAD_WATCH_REQUERIED &&
		    events_derive_far_end(&e->ev_mem, e->mad->f.ports, e->mad->f.nports, util_wall_ns(), util_now_ns(),
					  &e->events))
			export_error(e, "out of memory deriving events: some go uncounted");
		probe_runs_handle(&e->probes, util_now_ns());
		now = util_now_ns();
		if (now >= next) {
			export_sample(e);
			done++;
			next += step;
			if (next <= now)	/* stopped (SIGSTOP) or slow: no burst of catch-up samples */
				next = now + step;
		}
	}
	return EXIT_OK;
}

static void export_free(struct exporter *e)
{
	httpd_stop(e->httpd);
	probe_runs_free(&e->probes);
	mad_watch_free(e->mad);
	if (e->doctor_ok)
		doctor_report_free(&e->doctor);
	if (e->net_ok)
		net_state_free(&e->net);
	fab_host_free(&e->host);
	source_close(e->src);
	events_memory_free(&e->ev_mem);
	event_log_free(&e->events);
	if (e->sig_fd >= 0)
		close(e->sig_fd);
}

/* Options; 0 to go on, else the exit code. */
static int export_args(struct fab_ctx *ctx, int argc, char **argv, const char **listen, const char **textfile,
		       bool *no_http, struct probe_runs *probes)
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
	struct exporter e = { .ctx = ctx, .nl_fd = -1, .sig_fd = -1, .async_fd = -1 };
	const char *listen = NULL;
	bool no_http = false;
	char err[512], where[96], from[256];
	int rc;

	probe_runs_init(&e.probes);
	events_memory_init(&e.ev_mem);
	rc = export_args(ctx, argc, argv, &listen, &e.textfile, &no_http, &e.probes);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;

	e.sig_fd = export_signals();
	if (e.sig_fd < 0) {
		fprintf(stderr, "fabtop export: cannot watch signals: %s\n", strerror(-e.sig_fd));
		return EXIT_RUNTIME;
	}
	e.src = source_open(ctx);
	if (!e.src || event_log_init(&e.events, EXPORT_EVENT_LOG) || source_collect(e.src, &e.host, COLLECT_ALL)) {
		fprintf(stderr, "fabtop export: cannot collect the RDMA devices: out of memory\n");
		rc = EXIT_RUNTIME;
		goto out;
	}
	source_describe(e.src, from, sizeof(from));
	if (e.probes.n && source_has(e.src, SOURCE_SIMULATED)) {
		fprintf(stderr, "fabtop export: --probe needs real RDMA devices: the %s has none to connect with\n", from);
		rc = EXIT_USAGE;
		goto out;
	}
	if (e.host.sysfs_missing)
		fprintf(stderr, "fabtop export: no RDMA devices: %s/class/infiniband is absent "
			"(no RDMA driver loaded?); serving the exporter's own metrics\n", ctx->sysfs_root);
	e.clock.last_rescan_ns = e.clock.last_watch_ns = util_now_ns();
	export_net(&e, e.clock.last_rescan_ns);
	export_events(&e, true, false);		/* the first look: compared with from now on */
	e.async_fd = source_async_fd(e.src, &e.host);
	e.nl_fd = source_event_fd(e.src);
	if (e.nl_fd < 0) {
		if (e.nl_fd != -EOPNOTSUPP)
			fprintf(stderr, "fabtop export: rtnetlink monitor: %s; network changes show within %llu s\n",
				strerror(-e.nl_fd), SNAPSHOT_RESCAN_NS / 1000000000ull);
		e.nl_fd = -1;
	}
	e.mad = source_mad_watch(e.src);
	if (e.mad)
		mad_watch_open(e.mad, &e.host, ctx->interval_s, util_now_ns());

	if (!no_http) {
		rc = httpd_start(&e.httpd, listen ? listen : EXPORT_DEFAULT_LISTEN, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "fabtop export: %s\n", err);
			rc = rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;	/* not an address at all: usage */
			goto out;
		}
	}
	/* The first page before anyone is told where to scrape: no 503 for a scraper that was quick. */
	export_sample(&e);
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
