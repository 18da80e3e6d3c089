// SPDX-License-Identifier: GPL-2.0-or-later
/* The monitor's loop: one poll() on the terminal, signals and timers; collect, derive, present. */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect/snapshot.h"
#include "collect/source.h"
#include "derive/counters.h"
#include "derive/doctor.h"
#include "record/reader.h"
#include "report/escape.h"
#include "report/net.h"
#include "ui/mad_ui.h"
#include "ui/probe_ui.h"
#include "ui/term.h"
#include "ui/ui_run.h"
#include "ui/views.h"
#include "warn.h"
#include "util.h"

#define MAX_POLLFDS 16

/* The `show net` text of the state, line by line, for the Network pane. */
static void ui_net_text(struct ui *ui)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	text_clear(&ui->net_text);
	if (!f)
		return;
	net_report_text(f, &ui->host, &ui->net);
	if (fclose(f) || !buf) {
		free(buf);
		return;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (char *p = line; *p; p++)
			if (*p == '\t')
				*p = ' ';
		text_add(&ui->net_text, 0, "%s", line);
	}
	free(buf);
}

/* Compare the parts just read with the previous look: what changed becomes events. */
static void ui_events_derive(struct ui *ui, bool host, bool net)
{
	struct events_input in = {
		.host = host ? &ui->host : NULL,
		.net = net && ui->net_ok ? &ui->net : NULL,
		.doctor = net && ui->doctor_ok ? &ui->doctor : NULL,
		.real_ns = util_wall_ns(),
		.mono_ns = ui->last_sample_ns ? ui->last_sample_ns : util_now_ns(),
	};

	/* A recording brings the events that were seen live (the devices' own among them): none are derived again. */
	if (ui_recorded(ui)) {
		source_recorded_events(ui->src, &ui->events, false);
		return;
	}
	if (events_derive(&ui->ev_mem, &in, &ui->events))
		ui_status(ui, "out of memory deriving events: some changes may go unreported");
}

/* The devices' notifications follow the devices (a re-collection may have changed them) after every sample. */
static void ui_async_open(struct ui *ui)
{
	int fd = source_async_fd(ui->src, &ui->host);

	ui->async_fd = fd >= 0 ? fd : -1;
}

void ui_net_set(struct ui *ui, struct net_state *st, int err)
{
	struct doctor_input in;
	struct doctor_report r;

	/* Nothing stale: a failed collection shows as unavailable, not as the old state. */
	if (ui->net_ok)
		net_state_free(&ui->net);
	if (ui->doctor_ok)
		doctor_report_free(&ui->doctor);
	ui->net_ok = ui->doctor_ok = false;
	ui->findings = -1;
	text_clear(&ui->net_text);
	if (err || !st) {
		ui->net_err = err;
		return;
	}
	ui->net = *st;
	ui->net_ok = true;
	ui->net_err = 0;
	memset(&r, 0, sizeof(r));
	ui->routes = snapshot_routes(&ui->net);
	in = (struct doctor_input){ .host = &ui->host, .net = &ui->net, .routes = ui->routes };
	if (doctor_run(&in, NULL, &r) == 0) {
		ui->doctor = r;
		ui->doctor_ok = true;
		ui->findings = 0;
		for (size_t i = 0; i < r.nfindings; i++)
			if (r.findings[i].severity != DOCTOR_INFO)
				ui->findings++;
	}
	ui_net_text(ui);
	ui_events_derive(ui, false, true);
	for (size_t i = 0; i < ui->nviews; i++)
		if (ui->views[i]->net_changed)
			ui->views[i]->net_changed(ui, ui->pane_state[i]);
}

/* Collect the network state again and re-run the doctor. */
static void ui_net_refresh(struct ui *ui)
{
	struct net_state st;
	int rc = -ENOMEM;

	ui->last_net_ns = util_now_ns();
	memset(&st, 0, sizeof(st));
	if (ui->src)
		rc = snapshot_net(ui->src, &ui->host, &st);
	ui_net_set(ui, &st, rc);
}

/* The RoCE chain costs a netlink request and ioctls per port: read only while its pane shows. */
static void ui_roce_sample(struct ui *ui)
{
	if (ui->pane >= ui->nviews || strcmp(ui->views[ui->pane]->id, "roce"))
		return;
	roce_state_free(&ui->roce_prev);
	ui->roce_prev = ui->roce;
	ui->roce_err = source_roce(ui->src, &ui->host, &ui->roce);
}

const char *ui_loading(const struct ui *ui)
{
	return ui->loading[0] ? ui->loading : NULL;
}

/* What is still being read, for the title bar and the panes that wait for it. */
static void ui_loading_update(struct ui *ui)
{
	size_t nports, nctr = snapshot_host_pending(&ui->host, COLLECT_COUNTERS, &nports);
	size_t ngid = snapshot_host_pending(&ui->host, COLLECT_GIDS, &nports);
	int off = 0;

	ui->loading[0] = '\0';
	if (nctr)
		off = snprintf(ui->loading, sizeof(ui->loading), "counters: reading %zu/%zu ports",
			       nports - nctr, nports);
	if (ngid && off >= 0 && (size_t)off < sizeof(ui->loading))
		off += snprintf(ui->loading + off, sizeof(ui->loading) - (size_t)off, "%sGIDs: reading %zu/%zu ports",
				off ? ", " : "", nports - ngid, nports);
	if (ui->net_after_fill && off >= 0 && (size_t)off < sizeof(ui->loading))
		snprintf(ui->loading + off, sizeof(ui->loading) - (size_t)off, "%snetwork next", off ? ", " : "");
}

/*
 * One step of filling in the host (snapshot_host_fill()) between frames;
 * the network follows the GID tables. True when the screen changed.
 */
static bool ui_fill_step(struct ui *ui)
{
	size_t nports;

	if (!ui->src || !ui->loading[0])
		return false;
	snapshot_host_fill(ui->src, &ui->host, SNAPSHOT_FILL_NS);
	if (ui->net_after_fill && !snapshot_host_pending(&ui->host, COLLECT_GIDS, &nports)) {
		ui->net_after_fill = false;
		ui_net_refresh(ui);
	}
	ui_loading_update(ui);
	screen_rebuild(ui);
	return true;
}

/* Sampling: collect or refresh, track, derive, rebuild the tables. */
static void ui_sample(struct ui *ui)
{
	uint64_t now = util_now_ns();
	bool changed, nomem;

	if (!ui->src)
		return;		/* switching to the demo ran out of memory */

	changed = snapshot_host_sample(ui->src, &ui->host, &ui->clock, now, track_carry, &nomem);
	if (nomem)
		ui_status(ui, "out of memory while collecting: showing the previous snapshot");
	mad_ui_counters(ui, ui->mad);
	ui->last_sample_ns = fab_host_model_now(&ui->host, now);
	/* REJs moved: the doctor's CM finding (7) must say so now, not at the next re-read. */
	{
		uint64_t tx, rx;

		host_cm_rejs(&ui->host, &tx, &rx);
		if (tx + rx != ui->cm_rejs) {
			ui->cm_rejs = tx + rx;
			ui->net_wanted = true;
		}
	}
	/* Sysctls have no notifications: the network is read with the structure. */
	if (!ui->net_after_fill && (changed || ui->net_wanted || now - ui->last_net_ns >= SNAPSHOT_RESCAN_NS)) {
		ui->net_wanted = false;
		ui_net_refresh(ui);
	}
	ui_events_derive(ui, true, false);
	ui_async_open(ui);
	ui_loading_update(ui);
	track_sample(&ui->track, &ui->host, ui->last_sample_ns);
	ui_roce_sample(ui);
	/* IB ports that appeared, or access that was granted, get their MAD view (retries are spaced). */
	mad_ui_open(ui, ui->mad);
	screen_rebuild(ui);
	ui->dirty = true;
}

void ui_after_jump(struct ui *ui)
{
	/* the events up to the new cursor, no more */
	event_log_free(&ui->events);
	event_log_init(&ui->events, 0);
	source_recorded_events(ui->src, &ui->events, true);
	track_free(&ui->track);
	ui->last_sample_ns = fab_host_model_now(&ui->host, util_now_ns());
	track_sample(&ui->track, &ui->host, ui->last_sample_ns);
	ui_net_refresh(ui);
	/* the MAD view recorded at the new cursor (other ports: the per-port state starts again) */
	mad_ui_open(ui, ui->mad);
	screen_rebuild(ui);
	ui->next_sample_ns = util_now_ns() + (uint64_t)(ui->interval_s * 1e9);
	ui->dirty = true;
}

/*
 * Open the source and take the first snapshot: devices and ports now, the
 * rest filled in by the loop (ui_fill()); -errno on failure.
 */
static int ui_open_source(struct ui *ui)
{
	size_t nports;
	int rc;

	ui->src = source_open(ui->ctx);
	if (ui->src)
		event_log_set_hook(&ui->events, source_record_event_hook, ui->src);
	if (!ui->src)
		return -ENOMEM;
	ui->clock.fills_between = true;		/* ui_fill_step() */
	rc = snapshot_host_start(ui->src, &ui->host, &ui->clock, util_now_ns());
	if (rc)
		return rc;
	ui->last_sample_ns = fab_host_model_now(&ui->host, ui->clock.last_rescan_ns);
	track_sample(&ui->track, &ui->host, ui->last_sample_ns);
	/* The doctor on half the GID tables would report netdevs as not RDMA's. */
	ui->net_after_fill = snapshot_host_pending(&ui->host, COLLECT_GIDS, &nports) != 0;
	if (!ui->net_after_fill)
		ui_net_refresh(ui);
	ui_loading_update(ui);
	/* The first look of this source: what later ones are compared with. */
	ui_events_derive(ui, true, false);
	ui_async_open(ui);
	screen_rebuild(ui);
	return 0;
}

/* Address, route, rule and link changes wake the loop (a source that has them says so). */
static void ui_netlink_open(struct ui *ui)
{
	ui->nl_fd = source_event_fd(ui->src);
	if (ui->nl_fd < 0) {
		if (ui->nl_fd != -EOPNOTSUPP)
			warn_once("rtnetlink monitor: %s; network changes show at the next re-read (5 s)",
				  strerror(-ui->nl_fd));
		ui->nl_fd = -1;
	}
}

void ui_start_demo(struct ui *ui)
{
	mad_ui_drop(ui->mad);
	fab_host_free(&ui->host);
	source_close(ui->src);
	track_free(&ui->track);
	/* Another host: the log stays, the comparison starts again. */
	events_memory_free(&ui->ev_mem);
	ui->async_fd = -1;		/* the old source's, closed with it */
	ui->ctx->demo = true;
	if (ui_open_source(ui)) {
		ui_status(ui, "cannot start the demo: out of memory");
		return;
	}
	ui_netlink_open(ui);
	ui->next_sample_ns = util_now_ns() + (uint64_t)(ui->interval_s * 1e9);
	ui_status(ui, "demo fabric: simulated devices, no hardware");
}

static void ui_apply_settings(struct ui *ui)
{
	char path[PATH_MAX];
	int rc;

	if (settings_path(path, sizeof(path)))
		return;
	rc = settings_read(&ui->settings, path);
	if (rc)
		warn_once("%s: unreadable (%s), defaults used", path, strerror(-rc));
	/* The command line wins: an --interval other than the default was given. */
	if (ui->settings.have_interval && ui->ctx->interval_s == 1.0)
		ui->ctx->interval_s = ui->settings.interval_s;
	/* --no-color and NO_COLOR always win; the file can only turn colours off. */
	if (ui->settings.have_color && !ui->settings.color)
		ui->ctx->color = false;
	if (ui->settings.counters[0] && !ui->ctx->counters_given)
		ui->ctx->counters = (enum fab_counters_mode)ctx_counters_mode(ui->settings.counters);
	if (ui->settings.have_window)
		for (unsigned int i = 0; i < UI_NWINDOWS; i++)
			if (ui_windows_s[i] == ui->settings.window_s)
				ui->window = i;
}

/* New warnings (odd sysfs values, ...) are announced once in the status line. */
static void ui_announce_warnings(struct ui *ui)
{
	unsigned int n;
	const char *const *w = warn_list(&n);

	if (n <= ui->nwarn_seen)
		return;
	if (n - ui->nwarn_seen == 1)
		ui_status(ui, "warning: %s (F1 lists all)", w[n - 1]);
	else
		ui_status(ui, "%u new warnings (F1 lists them)", n - ui->nwarn_seen);
	ui->nwarn_seen = n;
}

static int ui_wait_ms(struct ui *ui, uint64_t now)
{
	int64_t ms = -1;

	if (!ui->paused)
		ms = ui->next_sample_ns > now ? (int64_t)((ui->next_sample_ns - now + 999999) / 1000000) : 0;
	if (ui->status[0] && ui->status_until_ns > now) {
		int64_t s = (int64_t)((ui->status_until_ns - now + 999999) / 1000000);

		if (ms < 0 || s < ms)
			ms = s;
	}
	if (ui->net_wanted && !ui->paused) {
		uint64_t due = ui->last_net_ns + SNAPSHOT_NET_GAP_NS;
		int64_t d = due > now ? (int64_t)((due - now + 999999) / 1000000) : 0;

		if (ms < 0 || d < ms)
			ms = d;
	}
	if (ms > 3600000)
		ms = 3600000;
	return (int)ms;
}

/*
 * FABTOP_FRAME_LOG=FILE (the benchmarks, doc/architecture.md): per frame,
 * CLOCK_MONOTONIC when it was on screen, the loop's time outside poll()
 * since the frame before (keys, sampling, filling in, drawing: how long a
 * key could have waited), the process's CPU so far,
 * whether a re-collection ran (of a device or the host), and what was still being read.
 */
static void ui_frame_log(struct ui *ui, uint64_t busy_ns, bool rescan)
{
	struct timespec cpu = { 0 };
	uint64_t now = util_now_ns();

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
	fprintf(ui->frame_log, "frame %" PRIu64 " %" PRIu64 " %" PRIu64 " %d %s\n", now, busy_ns,
		(uint64_t)cpu.tv_sec * 1000000000u + (uint64_t)cpu.tv_nsec, rescan,
		ui->loading[0] ? ui->loading : "-");
	fflush(ui->frame_log);
}

static void ui_loop(struct ui *ui)
{
	struct pollfd fds[MAX_POLLFDS];

	/* Time outside poll() since the last frame: how long a key may wait (frame_log). */
	uint64_t woke = util_now_ns(), busy = 0;

	ui->next_sample_ns = util_now_ns() + (uint64_t)(ui->interval_s * 1e9);
	ui->dirty = true;
	while (!ui->quit) {
		uint64_t now = util_now_ns(), rescans = ui->clock.recollections;
		int nfds = 0, n, ch, nl, as, timeout;

		if (!ui->paused && now >= ui->next_sample_ns) {
			ui_sample(ui);
			ui->next_sample_ns += (uint64_t)(ui->interval_s * 1e9);
			if (ui->next_sample_ns <= now)	/* we were stopped (Ctrl-Z) or slow */
				ui->next_sample_ns = now + (uint64_t)(ui->interval_s * 1e9);
		}
		ui_announce_warnings(ui);
		if (ui->status[0] && now >= ui->status_until_ns) {
			ui->status[0] = '\0';
			ui->dirty = true;
		}
		if (ui->dirty) {
			ui->now_ns = now;
			screen_draw(ui, stdscr);
			wnoutrefresh(stdscr);
			doupdate();
			ui->dirty = false;
			if (ui->frame_log) {
				ui_frame_log(ui, busy + util_now_ns() - woke, rescans != ui->clock.recollections);
				busy = 0;
				woke = util_now_ns();
			}
		} else if (ui_fill_step(ui)) {
			/*
			 * After a frame is on screen, one step of reading what it
			 * still lacks (even paused: it completes the picture, it
			 * takes no new sample); poll() below only looks at the keys.
			 */
			ui->dirty = true;
		}
		fds[nfds++] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		fds[nfds++] = (struct pollfd){ .fd = term_signal_fd(), .events = POLLIN };
		nl = -1;
		if (ui->nl_fd >= 0) {
			nl = nfds;
			fds[nfds++] = (struct pollfd){ .fd = ui->nl_fd, .events = POLLIN };
		}
		as = -1;
		if (ui->async_fd >= 0) {
			as = nfds;
			fds[nfds++] = (struct pollfd){ .fd = ui->async_fd, .events = POLLIN };
		}
		timeout = ui_wait_ms(ui, util_now_ns());
		for (size_t i = 0; i < ui->nviews; i++)
			if (ui->views[i]->fds)
				nfds += ui->views[i]->fds(ui, ui->pane_state[i], fds + nfds, MAX_POLLFDS - nfds, &timeout);
		nfds += mad_ui_fds(ui, ui->mad, fds + nfds, MAX_POLLFDS - nfds, &timeout);
		/* Parts still to read: look at the keys, then read on. */
		if (ui->loading[0])
			timeout = 0;
		busy += util_now_ns() - woke;
		n = poll(fds, (nfds_t)nfds, timeout);
		woke = util_now_ns();
		if (n < 0 && errno != EINTR)
			break;
		if (term_signal_take()) {
			ui->quit = true;
			break;
		}
		if (n > 0 && (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)))
			break;	/* the terminal went away */
		for (size_t i = 0; i < ui->nviews; i++)
			if (ui->views[i]->handle && ui->views[i]->handle(ui, ui->pane_state[i]) && i == ui->pane)
				ui->dirty = true;
		/* MAD answers and deadlines: never blocks, whatever the fabric does. */
		if (mad_ui_handle(ui, ui->mad)) {
			screen_rebuild(ui);
			ui->dirty = true;
		}
		/* A device's notification (a flap shorter than the interval) is logged as it comes. */
		if (n > 0 && as >= 0 && fds[as].revents && source_async_events(ui->src, &ui->events)) {
			screen_rebuild(ui);
			ui->dirty = true;
		}
		/* A network change shows now; the sysfs side (GIDs) at the next sample. */
		if (n > 0 && nl >= 0 && fds[nl].revents && source_events(ui->src)) {
			ui->clock.rescan_wanted = true;
			ui->clock.roce_event = true;
			/* Paused means frozen: the change is read when sampling resumes. */
			ui->net_wanted = true;
		}
		if (ui->net_wanted && !ui->paused && util_now_ns() - ui->last_net_ns >= SNAPSHOT_NET_GAP_NS) {
			ui->net_wanted = false;
			ui_net_refresh(ui);
			screen_rebuild(ui);
			ui->dirty = true;
		}
		/* EINTR may be SIGWINCH: curses then has KEY_RESIZE queued. */
		while ((ch = getch()) != ERR && !ui->quit)
			ui_key(ui, ch);
		/* Keys only ask; the loop computes (the probe's what-if may ask the kernel). */
		for (size_t i = 0; i < ui->nviews; i++)
			if (ui->views[i]->tick && ui->views[i]->tick(ui, ui->pane_state[i]))
				ui->dirty = true;
	}
}

void ui_init(struct ui *ui, struct fab_ctx *ctx)
{
	ui_init_views(ui, ctx, ui_default_views, ui_default_nviews);
}

void ui_init_views(struct ui *ui, struct fab_ctx *ctx, const struct ui_view *const *views, size_t nviews)
{
	ui->views = views;
	ui->nviews = nviews < UI_MAX_VIEWS ? nviews : UI_MAX_VIEWS;
	ui->ctx = ctx;
	ui->findings = -1;
	ui->nl_fd = -1;
	ui->async_fd = -1;
	/* Out of memory leaves a log of no room: appends are then dropped, nothing breaks. */
	event_log_init(&ui->events, 0);
	events_memory_init(&ui->ev_mem);
	ui->interval_s = ctx->interval_s;
	ui->color = ctx->color;
	ui->mad = mad_ui_new();
	views_init(ui);
}

void ui_free(struct ui *ui)
{
	views_free(ui);
	ui->nl_fd = -1;		/* the source's, closed with it */
	ui->async_fd = -1;
	events_memory_free(&ui->ev_mem);
	event_log_free(&ui->events);
	if (ui->net_ok)
		net_state_free(&ui->net);
	ui->net_ok = false;
	if (ui->doctor_ok)
		doctor_report_free(&ui->doctor);
	ui->doctor_ok = false;
	text_free(&ui->net_text);
	mad_ui_free(ui->mad);
	ui->mad = NULL;
	roce_state_free(&ui->roce);
	roce_state_free(&ui->roce_prev);
	track_free(&ui->track);
	fab_host_free(&ui->host);
	source_close(ui->src);
	ui->src = NULL;
}

bool ui_simulated(const struct ui *ui)
{
	/* No source (switching to the demo ran out of memory): what was asked for. */
	return ui->src ? source_has(ui->src, SOURCE_SIMULATED) : ui->ctx->demo;
}

bool ui_recorded(const struct ui *ui)
{
	return ui->src && source_has(ui->src, SOURCE_RECORDED);
}

void *ui_pane_state(struct ui *ui, const struct ui_view *v)
{
	for (size_t i = 0; i < ui->nviews; i++)
		if (ui->views[i] == v)
			return ui->pane_state[i];
	return NULL;
}

int ui_run(struct fab_ctx *ctx, const char *pane, char *msg, int msgsize)
{
	struct ui *ui = calloc(1, sizeof(*ui));
	unsigned int nwarn;
	const char *const *warns;
	int rc = 0;

	if (!ui) {
		snprintf(msg, (size_t)msgsize, "out of memory");
		return -ENOMEM;
	}
	ui->ctx = ctx;
	setlocale(LC_ALL, "");
	/* Warnings are kept while curses owns the terminal (help shows them). */
	warn_set_quiet(true);
	ui_apply_settings(ui);
	ui_init(ui, ctx);
	ui->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	if (ui->settings.pane[0] && views_find(ui, ui->settings.pane) >= 0)
		ui->pane = (size_t)views_find(ui, ui->settings.pane);
	if (pane) {
		int p = views_find(ui, pane);

		if (p < 0) {
			char names[128];

			views_names(names, sizeof(names));
			snprintf(msg, (size_t)msgsize, "unknown pane '%s' (%s)", pane, names);
			rc = -EINVAL;
			goto out;
		}
		ui->pane = (size_t)p;
	}
	/* A recording plays from its start unless --at says where; its interval is its speed 1x. */
	if (ctx->replay) {
		if (!ctx->replay_at)
			ctx->replay_pos = 0;
		if (ctx->interval_s == 1.0 && ctx->replay->info.interval_s >= 0.1 && ctx->replay->info.interval_s <= 3600)
			ctx->interval_s = ui->interval_s = ctx->replay->info.interval_s;
	}
	rc = ui_open_source(ui);
	if (rc) {
		snprintf(msg, (size_t)msgsize, "cannot collect the RDMA devices: %s", strerror(-rc));
		goto out;
	}
	if (ctx->record_path) {
		char err[512];

		if (source_record_start(ui->src, ctx->record_path, &ui->host, ui->net_ok ? &ui->net : NULL, err,
					sizeof(err))) {
			snprintf(msg, (size_t)msgsize, "--record: %s", err);
			rc = -EIO;
			goto out;
		}
	}
	/* Nothing to show: start where the explanation and the demo offer are. */
	if (!ui->host.ndevs && !ui_simulated(ui) && !ui_recorded(ui) && !pane)
		ui->pane = 0;
	screen_rebuild(ui);
	if (term_start(msg, msgsize)) {
		rc = -ENOTTY;
		goto out;
	}
	theme_init(ctx->color);
	{
		const char *log = getenv("FABTOP_FRAME_LOG");

		if (log && log[0] && !(ui->frame_log = fopen(log, "we")))
			warn_once("FABTOP_FRAME_LOG %s: %s", log, strerror(errno));
	}
	ui_netlink_open(ui);
	mad_ui_open(ui, ui->mad);
	ui_loop(ui);
	term_stop();
out:
	warn_set_quiet(false);
	warns = warn_list(&nwarn);
	for (unsigned int i = 0; i < nwarn && i < 10 && rc != -EINVAL; i++)
		escape_line(stderr, "fabtop: warning: %s", warns[i]);
	if (nwarn > 10)
		fprintf(stderr, "fabtop: ... and %u more warnings\n", nwarn - 10);
	if (ui->frame_log)
		fclose(ui->frame_log);
	ui_free(ui);
	free(ui);
	return rc;
}
