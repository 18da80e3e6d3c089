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

#include "source/snapshot.h"
#include "source/source.h"
#include "derive/counters.h"
#include "derive/doctor.h"
#include "record/reader.h"
#include "report/escape.h"
#include "ui/action.h"
#include "ui/ui.h"
#include "ui/mad_ui.h"
#include "ui/panes.h"
#include "ui/screen.h"
#include "ui/settings.h"
#include "ui/ui_run.h"
#include "ui/views.h"
#include "ui/widget/term.h"
#include "ui/widget/theme.h"
#include "warn.h"
#include "util.h"

#define MAX_POLLFDS 16

/* What a step of the live core changed, on screen. */
static void ui_changed(struct ui *ui, unsigned int ch)
{
	if (!ch)
		return;
	if (ch & LIVE_NET)
		ui_net_changed(ui);
	mad_ui_announce(ui);
	views_rebuild(ui);
	ui->dirty = true;
}

/* The core's trouble goes to the status line. */
static void ui_said(void *arg, const char *msg)
{
	ui_status(arg, "%s", msg);
}

/*
 * Open the source and take the first look: devices and ports now, the
 * rest filled in between frames (live_fill()); -errno on failure.
 */
static int ui_open_source(struct ui *ui)
{
	const struct live_hooks hooks = { .say = ui_said, .arg = ui };
	int rc;

	live_close(&ui->live);		/* the empty host ui_init_views() made */
	rc = live_open(&ui->live, ui->ctx, LIVE_FILL_LATER | LIVE_HISTORY | LIVE_PMA_COUNTERS, &hooks, 0);
	if (rc)
		return rc;
	if (ui->live.net_ok)
		ui_net_changed(ui);
	views_rebuild(ui);
	return 0;
}

/* Switch to the demo fabric ('d' when no device is found). */
static void ui_start_demo(struct ui *ui)
{
	/* Another host: the log stays, the comparison starts again. */
	ui->ctx->demo = true;
	ui->mad_announced = false;
	if (live_reopen(&ui->live)) {
		ui_status(ui, "cannot start the demo: out of memory");
		return;
	}
	ui_changed(ui, ui->live.net_ok ? LIVE_NET : LIVE_STRUCTURE);
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

	if (n <= ui->msg.nwarn_seen)
		return;
	if (n - ui->msg.nwarn_seen == 1)
		ui_status(ui, "warning: %s (F1 lists all)", w[n - 1]);
	else
		ui_status(ui, "%u new warnings (F1 lists them)", n - ui->msg.nwarn_seen);
	ui->msg.nwarn_seen = n;
}

/* The status line's own deadline. */
static void ui_status_timeout(struct ui *ui, uint64_t now, int *timeout_ms)
{
	if (ui->msg.text[0] && ui->msg.until_ns > now) {
		int64_t s = (int64_t)((ui->msg.until_ns - now + 999999) / 1000000);

		if (*timeout_ms < 0 || s < *timeout_ms)
			*timeout_ms = (int)(s > 3600000 ? 3600000 : s);
	}
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
		ui->live.loading[0] ? ui->live.loading : "-");
	fflush(ui->frame_log);
}

static void ui_loop(struct ui *ui)
{
	struct pollfd fds[MAX_POLLFDS];

	/* Time outside poll() since the last frame: how long a key may wait (frame_log). */
	uint64_t woke = util_now_ns(), busy = 0;

	ui->live.next_sample_ns = util_now_ns() + (uint64_t)(ui->live.interval_s * 1e9);
	ui->dirty = true;
	while (!ui->quit) {
		uint64_t now = util_now_ns(), rescans = ui->live.clock.recollections;
		int nfds = 0, n, ch, timeout = -1;

		ui_announce_warnings(ui);
		if (ui->msg.text[0] && now >= ui->msg.until_ns) {
			ui->msg.text[0] = '\0';
			ui->dirty = true;
		}
		if (ui->dirty) {
			ui->now_ns = now;
			screen_draw(ui, stdscr);
			wnoutrefresh(stdscr);
			doupdate();
			ui->dirty = false;
			if (ui->frame_log) {
				ui_frame_log(ui, busy + util_now_ns() - woke, rescans != ui->live.clock.recollections);
				busy = 0;
				woke = util_now_ns();
			}
		} else {
			/*
			 * After a frame is on screen, one step of reading what it
			 * still lacks (even paused: it completes the picture, it
			 * takes no new sample); poll() below only looks at the keys.
			 */
			ui_changed(ui, live_fill(&ui->live));
		}
		fds[nfds++] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		fds[nfds++] = (struct pollfd){ .fd = term_signal_fd(), .events = POLLIN };
		ui_status_timeout(ui, util_now_ns(), &timeout);
		for (size_t i = 0; i < ui->nviews; i++)
			if (ui->views[i]->fds)
				nfds += ui->views[i]->fds(ui, ui->pane_state[i], fds + nfds, MAX_POLLFDS - nfds, &timeout);
		/* The parts that cost I/O per sample are kept only while the pane that declares them shows. */
		live_want(&ui->live, ui->pane < ui->nviews ? ui->views[ui->pane]->wants : 0);
		nfds += live_fds(&ui->live, fds + nfds, MAX_POLLFDS - nfds, &timeout);
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
		/* MAD answers, the devices' notifications, network changes, and the sample when it is due. */
		ui_changed(ui, live_step(&ui->live));
		/* EINTR may be SIGWINCH: curses then has KEY_RESIZE queued. */
		while ((ch = getch()) != ERR && !ui->quit)
			action_key(ui, ch);
		/* What the keys asked the loop to do. */
		if (ui->react & UI_REACT_DEMO)
			ui_start_demo(ui);
		if (ui->react & UI_REACT_JUMPED)
			ui_changed(ui, LIVE_NET);
		ui->react = 0;
		/* Keys only ask; the loop computes (the probe's what-if may ask the kernel). */
		for (size_t i = 0; i < ui->nviews; i++)
			if (ui->views[i]->tick && ui->views[i]->tick(ui, ui->pane_state[i]))
				ui->dirty = true;
	}
}

/*
 * --device/--port: the panes whose rows are ports start with the filter a
 * user would type, so the filter line shows it and Esc clears it.
 * -ENODEV with msg when there is no such device or port in the first look.
 */
static int ui_start_filter(struct ui *ui, const struct ui_start *start, char *msg, int msgsize)
{
	char filter[TABLE_FILTER_LEN];

	if (!start->device)
		return 0;
	if (fab_host_has(&ui->live.host, start->device, start->port, msg, (size_t)msgsize))
		return -ENODEV;
	if (start->port >= 0)
		snprintf(filter, sizeof(filter), "%s/%d", start->device, start->port);
	else
		snprintf(filter, sizeof(filter), "%s/", start->device);
	for (size_t i = 0; i < ui->nviews; i++)
		if (ui->views[i]->port_rows)
			table_set_filter(&ui->tables[i], filter);
	return 0;
}

int ui_run(struct fab_ctx *ctx, const struct ui_start *start, char *msg, int msgsize)
{
	const char *pane = start->pane;
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
	panes_init(ui, ctx);
	ui->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	if (ui->settings.pane[0] && views_find(ui, ui->settings.pane) >= 0)
		ui->pane = (size_t)views_find(ui, ui->settings.pane);
	if (pane) {
		int p = views_find(ui, pane);

		if (p < 0) {
			char names[128];

			panes_names(names, sizeof(names));
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
			ctx->interval_s = ui->live.interval_s = ctx->replay->info.interval_s;
	}
	rc = ui_open_source(ui);
	if (rc) {
		snprintf(msg, (size_t)msgsize, "cannot collect the RDMA devices: %s", strerror(-rc));
		goto out;
	}
	if (ctx->record_path) {
		char err[512];

		if (source_record_start(ui->live.src, ctx->record_path, &ui->live.host,
					ui->live.net_ok ? &ui->live.net : NULL, err,
					sizeof(err))) {
			snprintf(msg, (size_t)msgsize, "--record: %s", err);
			rc = -EIO;
			goto out;
		}
	}
	rc = ui_start_filter(ui, start, msg, msgsize);
	if (rc)
		goto out;
	/* Nothing to show: start where the explanation and the demo offer are. */
	if (!ui->live.host.ndevs && !ui_simulated(ui) && !ui_recorded(ui) && !pane)
		ui->pane = 0;
	views_rebuild(ui);
	if (term_start(msg, msgsize)) {
		rc = -ENOTTY;
		goto out;
	}
	theme_init(ctx->color);
	{
		const char *log = getenv("FABTOP_FRAME_LOG");
		int fd = log && log[0] ? util_create_file(log) : -1;

		if (fd >= 0 && !(ui->frame_log = fdopen(fd, "w")))
			close(fd);
		if (log && log[0] && !ui->frame_log)
			warn_once("FABTOP_FRAME_LOG %s: %s", log, strerror(errno));
	}
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
