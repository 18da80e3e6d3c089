// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop show events: watch the source and print what happens, as it happens. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_watch.h"
#include "source/snapshot.h"
#include "source/source.h"
#include "live/live.h"
#include "cmd/commands.h"
#include "derive/doctor.h"
#include "derive/events.h"
#include "report/escape.h"
#include "report/events.h"
#include "util.h"

/*
 * A live host has no past to show: nothing on it keeps one. So the live
 * `show events` watches: it samples the source every --interval (the
 * monitor's policy: counters, the structure when it changes, the network
 * on rtnetlink news), runs the doctor with each network read, listens to
 * the devices' own notifications between samples, and prints each event
 * as it is derived, for --duration seconds or until SIGINT/SIGTERM. With
 * --json the log is printed as one document at the end. A recording
 * brings its own past: the same printers take its log (report/events.h).
 */
struct show_watch {
	const struct fab_ctx *ctx;
	struct live lv;			/* the host, network, findings, events and MAD view kept current */
	uint64_t printed_seq;		/* text: the events up to here are out */
	const struct events_watch_opts *o;
};

static volatile sig_atomic_t show_stop;

static void show_on_signal(int sig)
{
	(void)sig;
	show_stop = 1;
}

/* The core's trouble, on stderr. */
static void watch_said(void *arg, const char *msg)
{
	const struct show_watch *w = arg;

	fprintf(stderr, "fabtop %s: %s\n", w->o->who, msg);
}

/* Text: what arrived since the last print, filtered by --since. */
static void watch_print(struct show_watch *w, uint64_t since_ns)
{
	const struct event_log *log = &w->lv.events;
	size_t n = event_log_count(log), i = n;
	struct event_log tail;

	while (i > 0 && event_log_at(log, i - 1)->seq > w->printed_seq)
		i--;
	if (i == n)
		return;
	/* A view of the new ones only: the ring indices are the log's own. */
	tail = *log;
	tail.first = (log->first + i) % log->cap;
	tail.n = n - i;
	events_report(stdout, false, &tail, since_ns);
	fflush(stdout);
	w->printed_seq = event_log_at(log, n - 1)->seq;
}

static int watch_loop(struct show_watch *w, double duration_s, uint64_t since_ns)
{
	uint64_t start = util_now_ns();
	uint64_t end = duration_s > 0 ? start + (uint64_t)(duration_s * 1e9) : UINT64_MAX;
	struct source_record_status st;

	while (!show_stop && (!w->o->count || w->lv.samples < (uint64_t)w->o->count)) {
		struct pollfd fds[16];
		uint64_t now = util_now_ns();
		int nfds, n, timeout = -1;

		if (now >= end)
			break;
		nfds = live_fds(&w->lv, fds, 16, &timeout);
		if (end != UINT64_MAX) {
			int to_end = (int)((end - now + 999999) / 1000000);

			if (timeout < 0 || to_end < timeout)
				timeout = to_end;
		}
		n = poll(fds, (nfds_t)nfds, timeout);
		if (n < 0 && errno != EINTR) {
			fprintf(stderr, "fabtop show events: poll: %s\n", strerror(errno));
			return EXIT_RUNTIME;
		}
		/* a recording that cannot be written ends the watch (a full disk) */
		if ((live_step(&w->lv) & LIVE_SAMPLED) && w->o->record_path && !source_record_status(w->lv.src, &st)) {
			escape_line(stderr, "fabtop %s: writing %s failed: %s", w->o->who, w->o->record_path,
				    strerror(-st.error));
			return EXIT_RUNTIME;
		}
		if (w->o->print && !w->ctx->json)
			watch_print(w, since_ns);
	}
	return EXIT_OK;
}

int show_events_watch(const struct fab_ctx *ctx, double duration_s, uint64_t since_ns)
{
	struct events_watch_opts o = { .duration_s = duration_s, .since_ns = since_ns, .print = true,
				       .who = "show events" };

	return events_watch(ctx, &o);
}

int events_watch(const struct fab_ctx *ctx, const struct events_watch_opts *o)
{
	struct show_watch w = { .ctx = ctx, .o = o };
	const struct live_hooks hooks = { .say = watch_said, .arg = &w };
	double duration_s = o->duration_s;
	uint64_t since_ns = o->since_ns;
	struct source_record_status st;
	char err[512];
	struct sigaction sa = { .sa_handler = show_on_signal };
	int rc;

	rc = live_open(&w.lv, ctx, 0, &hooks, 0);
	if (rc) {
		fprintf(stderr, "fabtop %s: cannot read the RDMA devices: %s\n", o->who, strerror(-rc));
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (w.lv.host.sysfs_missing)
		fprintf(stderr, "fabtop: no RDMA devices: %s/class/infiniband is absent "
			"(no RDMA driver loaded?); watching for them\n", ctx->sysfs_root);
	if (o->record_path) {
		/* the first look is the recording's first sample; every event after it goes in too */
		if (source_record_start(w.lv.src, o->record_path, &w.lv.host, w.lv.net_ok ? &w.lv.net : NULL, err,
					sizeof(err))) {
			escape_line(stderr, "fabtop %s: %s", o->who, err);
			rc = EXIT_RUNTIME;
			goto out;
		}
		/* the subnet too, as the Fabric pane keeps it (none on a simulated host; the reason on one without MADs) */
		if (o->fabric)
			live_want(&w.lv, LIVE_WANT_FABRIC);
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* The baseline is taken: from here on every change is told (scripts wait for this line). */
	{
		char from[256];

		source_describe(w.lv.src, from, sizeof(from));
		if (duration_s > 0)
			fprintf(stderr, "fabtop %s: watching %s every %g s for %g s%s\n", o->who, from,
				ctx->interval_s, duration_s, w.lv.async_fd >= 0 ? ", with the devices' notifications" : "");
		else
			fprintf(stderr, "fabtop %s: watching %s every %g s until interrupted%s\n", o->who,
				from, ctx->interval_s, w.lv.async_fd >= 0 ? ", with the devices' notifications" : "");
	}
	rc = watch_loop(&w, duration_s, since_ns);
	/* Notifications that came with the last moments still count. */
	if (w.lv.async_fd >= 0)
		source_async_events(w.lv.src, &w.lv.events);
	if (o->print && ctx->json)
		events_report(stdout, true, &w.lv.events, since_ns);
	else if (o->print)
		watch_print(&w, since_ns);
	if (o->record_path) {
		source_record_status(w.lv.src, &st);
		if (source_record_stop(w.lv.src)) {
			source_record_status(w.lv.src, &st);
			escape_line(stderr, "fabtop %s: writing %s failed: %s", o->who, o->record_path, strerror(-st.error));
			rc = EXIT_RUNTIME;
		} else if (rc == EXIT_OK) {
			escape_line(stderr, "fabtop %s: %" PRIu64 " samples, %" PRIu64 " bytes in %s", o->who, st.samples,
				st.bytes, o->record_path);
		}
	}
out:
	live_close(&w.lv);
	return rc;
}
