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

#include "collect/mad_watch.h"
#include "collect/snapshot.h"
#include "collect/source.h"
#include "commands.h"
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
	struct source *src;
	struct snapshot snap;
	bool net_ok;
	struct doctor_report doctor;
	bool doctor_ok;
	struct snapshot_clock clock;
	struct events_memory mem;
	struct event_log log;
	uint64_t last_net_ns;
	bool net_wanted;
	int nl_fd, async_fd;
	uint64_t printed_seq;		/* text: the events up to here are out */
	const struct events_watch_opts *o;
	struct mad_watch *mad;		/* the far ends through MADs; NULL: the source has no subnet */
};

static volatile sig_atomic_t show_stop;

static void show_on_signal(int sig)
{
	(void)sig;
	show_stop = 1;
}

/* The network again and the doctor over it; NULL parts when they could not be had. */
static void watch_net(struct show_watch *w, uint64_t now)
{
	struct net_state st;
	struct doctor_input in;

	w->last_net_ns = now;
	w->net_wanted = false;
	if (w->doctor_ok)
		doctor_report_free(&w->doctor);
	if (w->net_ok)
		net_state_free(&w->snap.net);
	w->doctor_ok = w->net_ok = false;
	if (snapshot_net(w->src, &w->snap.host, &st))
		return;
	w->snap.net = st;
	w->net_ok = true;
	memset(&w->doctor, 0, sizeof(w->doctor));
	in = (struct doctor_input){ .host = &w->snap.host, .net = &w->snap.net, .routes = snapshot_routes(&w->snap.net) };
	w->doctor_ok = doctor_run(&in, NULL, &w->doctor) == 0;
}

static void watch_derive(struct show_watch *w, bool host, bool net)
{
	struct events_input in = {
		.host = host ? &w->snap.host : NULL,
		.net = net && w->net_ok ? &w->snap.net : NULL,
		.doctor = net && w->doctor_ok ? &w->doctor : NULL,
		.real_ns = util_wall_ns(),
		.mono_ns = fab_host_model_now(&w->snap.host, util_now_ns()),
	};

	if (events_derive(&w->mem, &in, &w->log))
		fprintf(stderr, "fabtop show events: out of memory: some changes may go unreported\n");
}

static void watch_sample(struct show_watch *w)
{
	uint64_t now = util_now_ns();
	bool changed, nomem, net = false;

	changed = snapshot_host_sample(w->src, &w->snap.host, &w->clock, now, NULL, &nomem);
	if (changed || w->net_wanted || now - w->last_net_ns >= SNAPSHOT_RESCAN_NS) {
		watch_net(w, now);
		net = true;
	}
	/* Devices may have come or gone: their notifications follow (and contexts are renewed). */
	w->async_fd = source_async_fd(w->src, &w->snap.host);
	watch_derive(w, true, net);
	/* IB ports that appeared, or access that was granted, get their MAD view (retries are spaced). */
	if (w->mad)
		mad_watch_open(w->mad, &w->snap.host, w->ctx->interval_s, now);
}

/* MAD answers: a partner replaced or an SM moved is an event, as in the monitor. */
static void watch_mad(struct show_watch *w)
{
	if (mad_watch_handle(w->mad, false, w->ctx->interval_s, util_now_ns()) != MAD_WATCH_REQUERIED)
		return;
	if (events_derive_far_end(&w->mem, w->mad->f.ports, w->mad->f.nports, util_wall_ns(), util_now_ns(),
				  &w->log))
		fprintf(stderr, "fabtop %s: out of memory: some changes may go unreported\n", w->o->who);
}

/* Text: what arrived since the last print, filtered by --since. */
static void watch_print(struct show_watch *w, uint64_t since_ns)
{
	size_t n = event_log_count(&w->log), i = n;
	struct event_log tail;

	while (i > 0 && event_log_at(&w->log, i - 1)->seq > w->printed_seq)
		i--;
	if (i == n)
		return;
	/* A view of the new ones only: the ring indices are the log's own. */
	tail = w->log;
	tail.first = (w->log.first + i) % w->log.cap;
	tail.n = n - i;
	events_report_text(stdout, &tail, since_ns);
	fflush(stdout);
	w->printed_seq = event_log_at(&w->log, n - 1)->seq;
}

static int watch_loop(struct show_watch *w, double duration_s, uint64_t since_ns)
{
	uint64_t step = (uint64_t)(w->ctx->interval_s * 1e9), start = util_now_ns(), next = start + step;
	uint64_t end = duration_s > 0 ? start + (uint64_t)(duration_s * 1e9) : UINT64_MAX;
	long samples = 1;	/* the first look came before the loop */
	struct source_record_status st;

	while (!show_stop && (!w->o->count || samples < w->o->count)) {
		struct pollfd fds[2 + 16];
		uint64_t now = util_now_ns(), wake = next < end ? next : end;
		int nfds = 0, nl = -1, as = -1, n, timeout;

		if (now >= end)
			break;
		if (w->nl_fd >= 0) {
			nl = nfds;
			fds[nfds++] = (struct pollfd){ .fd = w->nl_fd, .events = POLLIN };
		}
		if (w->async_fd >= 0) {
			as = nfds;
			fds[nfds++] = (struct pollfd){ .fd = w->async_fd, .events = POLLIN };
		}
		timeout = wake > now ? (int)((wake - now + 999999) / 1000000) : 0;
		nfds += mad_watch_fds(w->mad, false, fds + nfds, 16, &timeout, now);
		n = poll(fds, (nfds_t)nfds, timeout);
		if (n < 0 && errno != EINTR) {
			fprintf(stderr, "fabtop show events: poll: %s\n", strerror(errno));
			return EXIT_RUNTIME;
		}
		if (n > 0 && as >= 0 && fds[as].revents)
			source_async_events(w->src, &w->log);
		if (w->mad)
			watch_mad(w);
		if (n > 0 && nl >= 0 && fds[nl].revents && source_events(w->src))
			w->clock.rescan_wanted = w->net_wanted = true;
		/* A network change is read at most every NET_GAP, not only at the next sample. */
		now = util_now_ns();
		if (w->net_wanted && now - w->last_net_ns >= SNAPSHOT_NET_GAP_NS) {
			watch_net(w, now);
			watch_derive(w, false, true);
		}
		if (now >= next) {
			watch_sample(w);
			samples++;
			/* a recording that cannot be written ends the watch (a full disk) */
			if (w->o->record_path && !source_record_status(w->src, &st)) {
				escape_line(stderr, "fabtop %s: writing %s failed: %s", w->o->who, w->o->record_path,
					strerror(-st.error));
				return EXIT_RUNTIME;
			}
			next += step;
			if (next <= now)
				next = now + step;
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
	struct show_watch w = { .ctx = ctx, .nl_fd = -1, .async_fd = -1, .o = o };
	double duration_s = o->duration_s;
	uint64_t since_ns = o->since_ns;
	struct source_record_status st;
	char err[512];
	struct sigaction sa = { .sa_handler = show_on_signal };
	int rc;

	events_memory_init(&w.mem);
	if (event_log_init(&w.log, 0)) {
		fprintf(stderr, "fabtop show events: out of memory\n");
		return EXIT_RUNTIME;
	}
	w.src = source_open(ctx);
	if (!w.src || snapshot_take(w.src, &w.snap, COLLECT_ALL)) {
		fprintf(stderr, "fabtop show events: out of memory while reading the RDMA devices\n");
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (w.snap.host.sysfs_missing)
		fprintf(stderr, "fabtop: no RDMA devices: %s/class/infiniband is absent "
			"(no RDMA driver loaded?); watching for them\n", ctx->sysfs_root);
	w.clock.last_rescan_ns = w.clock.last_watch_ns = util_now_ns();
	watch_net(&w, w.clock.last_rescan_ns);
	/* The first look is what later ones are compared with: it derives nothing by itself. */
	watch_derive(&w, true, true);
	/* the far ends, as the monitor has them: asked under the loop, never blocking it */
	w.mad = source_mad_watch(w.src);
	if (w.mad)
		mad_watch_open(w.mad, &w.snap.host, ctx->interval_s, util_now_ns());
	if (o->record_path) {
		/* the first look is the recording's first sample; every event after it goes in too */
		if (source_record_start(w.src, o->record_path, &w.snap.host, w.net_ok ? &w.snap.net : NULL, err,
					sizeof(err))) {
			escape_line(stderr, "fabtop %s: %s", o->who, err);
			rc = EXIT_RUNTIME;
			goto out;
		}
		event_log_set_hook(&w.log, source_record_event_hook, w.src);
	}
	w.nl_fd = source_event_fd(w.src);
	w.async_fd = source_async_fd(w.src, &w.snap.host);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* The baseline is taken: from here on every change is told (scripts wait for this line). */
	{
		char from[256];

		source_describe(w.src, from, sizeof(from));
		if (duration_s > 0)
			fprintf(stderr, "fabtop %s: watching %s every %g s for %g s%s\n", o->who, from,
				ctx->interval_s, duration_s, w.async_fd >= 0 ? ", with the devices' notifications" : "");
		else
			fprintf(stderr, "fabtop %s: watching %s every %g s until interrupted%s\n", o->who,
				from, ctx->interval_s, w.async_fd >= 0 ? ", with the devices' notifications" : "");
	}
	rc = watch_loop(&w, duration_s, since_ns);
	/* Notifications that came with the last moments still count. */
	if (w.async_fd >= 0)
		source_async_events(w.src, &w.log);
	if (o->print && ctx->json)
		events_report_json(stdout, &w.log, since_ns);
	else if (o->print)
		watch_print(&w, since_ns);
	if (o->record_path) {
		source_record_status(w.src, &st);
		if (source_record_stop(w.src)) {
			source_record_status(w.src, &st);
			escape_line(stderr, "fabtop %s: writing %s failed: %s", o->who, o->record_path, strerror(-st.error));
			rc = EXIT_RUNTIME;
		} else if (rc == EXIT_OK) {
			escape_line(stderr, "fabtop %s: %" PRIu64 " samples, %" PRIu64 " bytes in %s", o->who, st.samples,
				st.bytes, o->record_path);
		}
	}
out:
	if (w.doctor_ok)
		doctor_report_free(&w.doctor);
	if (!w.net_ok)
		memset(&w.snap.net, 0, sizeof(w.snap.net));
	snapshot_free(&w.snap);
	mad_watch_free(w.mad);
	source_close(w.src);
	events_memory_free(&w.mem);
	event_log_free(&w.log);
	return rc;
}
