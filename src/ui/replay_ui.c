// SPDX-License-Identifier: GPL-2.0-or-later
/* The monitor's time: a recording's time bar and keys, and recording what is on screen. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "source/source.h"
#include "record/reader.h"
#include "record/when.h"
#include "ui/replay_ui.h"
#include "ui/ui.h"
#include "ui/widget/theme.h"
#include "util.h"

bool replay_ui_active(const struct ui *ui)
{
	struct source_timeline t;

	return source_timeline(ui->live.src, &t);
}

int replay_ui_draw(struct ui *ui, WINDOW *w, int y, int W)
{
	struct source_timeline t;
	char when[32], line[256], bar[128];
	double speed;
	int n, len, bw;

	if (!source_timeline(ui->live.src, &t))
		return 0;
	speed = ui->live.interval_s > 0 && t.interval_s > 0 ? t.interval_s / ui->live.interval_s : 1;
	len = snprintf(line, sizeof(line), " %s %s  #%zu/%zu  %.3gx%s ", ui->live.paused ? "PAUSED" : "REPLAY",
		       util_wall_str(t.wall_ns, when, sizeof(when)), t.pos, t.n - 1, speed,
		       t.pos + 1 == t.n ? (t.ended ? "  end" : "  end (not closed)") : "");
	ui_fill(w, y, 0, W, theme_attr(ROLE_TAB));
	ui_puts(w, y, 0, W, theme_attr(ROLE_TAB_ACTIVE), line);
	/* The bar: where the cursor is between the first and the last sample. */
	bw = W - len - 2 - 38;
	if (bw >= 10) {
		if (bw > (int)sizeof(bar) - 1)
			bw = (int)sizeof(bar) - 1;
		n = t.n > 1 ? (int)((double)t.pos / (double)(t.n - 1) * (bw - 1) + 0.5) : 0;
		for (int i = 0; i < bw; i++)
			bar[i] = i < n ? '=' : i == n ? '|' : '-';
		bar[bw] = '\0';
		ui_puts(w, y, len + 1, bw, theme_attr(ROLE_TAB), bar);
		ui_puts(w, y, len + 2 + bw, W - len - 2 - bw, theme_attr(ROLE_TAB), "< > step  [ ] 1 min  g go  n event");
	}
	return 1;
}

/* After the cursor moved: history, the network, the doctor and the tables follow. */
static void moved(struct ui *ui, int rc)
{
	if (rc) {
		ui_status(ui, "cannot move in the recording: %s", strerror(-rc));
		return;
	}
	/* the core followed the cursor; the panes follow at the loop's next turn */
	ui->react |= UI_REACT_JUMPED;
}

void replay_ui_step(struct ui *ui, int samples)
{
	if (!replay_ui_active(ui)) {
		ui_status(ui, "< > [ ] g move in a recording (fabtop --replay FILE)");
		return;
	}
	moved(ui, live_seek(&ui->live, SOURCE_SEEK_STEP, samples));
}

void replay_ui_jump(struct ui *ui, long long ns)
{
	if (!replay_ui_active(ui)) {
		ui_status(ui, "< > [ ] g move in a recording (fabtop --replay FILE)");
		return;
	}
	moved(ui, live_seek(&ui->live, SOURCE_SEEK_WALL_REL, ns));
}

void replay_ui_next_event(struct ui *ui)
{
	int rc;

	if (!replay_ui_active(ui)) {
		ui_status(ui, "< > [ ] g n move in a recording (fabtop --replay FILE)");
		return;
	}
	rc = live_seek(&ui->live, SOURCE_SEEK_NEXT_EVENT, 0);
	if (rc == -ENOENT)
		ui_status(ui, "no event after this sample");
	else
		moved(ui, rc);
}

void replay_ui_goto_prompt(struct ui *ui)
{
	if (!replay_ui_active(ui)) {
		ui_status(ui, "< > [ ] g move in a recording (fabtop --replay FILE)");
		return;
	}
	ui->edit.go = true;
	ui->edit.goto_buf[0] = '\0';
}

bool replay_ui_edit_key(struct ui *ui, int ch)
{
	size_t n = strlen(ui->edit.goto_buf);
	char err[256];
	size_t sample;

	if (!ui->edit.go)
		return false;
	if (ch == 27) {
		ui->edit.go = false;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		ui->edit.go = false;
		if (!ui->ctx->replay || !n)
			return true;
		if (rec_when_parse(ui->ctx->replay, ui->edit.goto_buf, &sample, err, sizeof(err)))
			ui_status(ui, "%s", err);
		else
			moved(ui, live_seek(&ui->live, SOURCE_SEEK_SAMPLE, (int64_t)sample));
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (n)
			ui->edit.goto_buf[n - 1] = '\0';
	} else if (ch >= 0x20 && ch < 0x7f && n + 1 < sizeof(ui->edit.goto_buf)) {
		ui->edit.goto_buf[n] = (char)ch;
		ui->edit.goto_buf[n + 1] = '\0';
	}
	return true;
}

bool replay_ui_draw_edit(struct ui *ui, WINDOW *w, int y, int W)
{
	char buf[160];

	if (!ui->edit.go)
		return false;
	snprintf(buf, sizeof(buf), " Go to: %s_   (13:05:10, +5m, -30s, #120, start, end; Esc cancels)",
		 ui->edit.goto_buf);
	ui_puts(w, y, 0, W, theme_attr(ROLE_FLABEL), buf);
	return true;
}

/* fabtop-HOST-YYYYmmdd-HHMMSS.ftrec in the working directory. */
static void record_path(struct ui *ui, char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;
	char when[32], host[sizeof(ui->live.host.hostname)];

	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	snprintf(host, sizeof(host), "%s", ui->live.host.hostname[0] ? ui->live.host.hostname : "host");
	for (char *p = host; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
	snprintf(buf, size, "fabtop-%s-%s.ftrec", host, when);
}

void replay_ui_record_toggle(struct ui *ui)
{
	struct source_record_status st;
	char path[320], err[512];
	int rc;

	if (source_record_status(ui->live.src, &st)) {
		rc = source_record_stop(ui->live.src);
		if (rc)
			ui_status(ui, "recording %s failed: %s", st.path, strerror(-rc));
		else
			ui_status(ui, "recorded %" PRIu64 " samples, %" PRIu64 " KiB in %s", st.samples,
				  (st.bytes + 1023) / 1024, st.path);
		return;
	}
	if (replay_ui_active(ui)) {
		ui_status(ui, "this is a recording already");
		return;
	}
	record_path(ui, path, sizeof(path));
	rc = source_record_start(ui->live.src, path, &ui->live.host, ui->live.net_ok ? &ui->live.net : NULL, err, sizeof(err));
	if (rc)
		ui_status(ui, "cannot record: %s", err);
	else
		ui_status(ui, "recording to %s: R stops", path);
}

const char *replay_ui_record_tag(struct ui *ui, char *buf, size_t size)
{
	struct source_record_status st;
	uint64_t s;

	buf[0] = '\0';
	if (source_record_status(ui->live.src, &st)) {
		s = (util_now_ns() - st.started_ns) / 1000000000u;
		snprintf(buf, size, " | REC %" PRIu64 ":%02" PRIu64 " %" PRIu64 " KiB", s / 60, s % 60,
			 (st.bytes + 1023) / 1024);
	} else if (st.error) {
		/* a recording that failed says so until another starts */
		snprintf(buf, size, " | REC failed: %s", strerror(-st.error));
	}
	return buf;
}
