// SPDX-License-Identifier: GPL-2.0-or-later
/* The frame: summary header, tabs, the pane's body, and the function bar. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "derive/counters.h"
#include "derive/units.h"
#include "source/source.h"
#include "ui/details.h"
#include "ui/help.h"
#include "ui/replay_ui.h"
#include "ui/screen.h"
#include "ui/views.h"
#include "ui/widget/table.h"
#include "ui/widget/theme.h"
#include "warn.h"
#include "util.h"

void screen_draw_body(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	const struct ui_view *v = ui->views[ui->pane];
	struct table *t = ui_table(ui);
	const char *note;
	char buf[160];

	if (r.h <= 0 || r.w <= 0)
		return;
	if (v->note && r.h > 3 && (note = v->note(ui, buf, sizeof(buf)))) {
		ui_puts(w, r.y++, r.x, r.w, theme_attr(ROLE_WARN), note);
		r.h--;
	}
	ui->body = r;			/* the table's rows, under the note (the mouse maps clicks on them) */
	/* Views that draw themselves handle "no rows" too (the Network pane still has routes). */
	if (v->draw) {
		v->draw(ui, w, r);
	} else if (v->cols && !t->nview) {
		views_draw_empty(ui, w, r);
	} else if (v->cols) {
		struct table_draw_opts o = {
			.utf8 = ui->utf8, .window_s = ui_windows_s[ui->window],
			.now_ns = ui->live.last_sample_ns, .focused = true,
		};

		table_draw(t, w, r.y, r.x, r.h, r.w, &o);
	}
}

/* One field of the title line: its text, a shorter form ("" if none), and how much it matters (0 most). */
struct title_field {
	char full[192];
	char brief[96];
	int prio;
	int shown;			/* 0 dropped, 1 brief, 2 full */
};

#define TITLE_MAX_PRIO 4

/* "75.8 Gb/s" -> "75.8G": the title's short form of a rate. */
static const char *brief_rate(const char *rate, char *buf, size_t size)
{
	size_t o = 0;

	for (const char *p = rate; *p && o + 1 < size; p++) {
		if (*p == ' ')
			continue;
		if (!strcmp(p, "b/s"))
			break;
		buf[o++] = *p;
	}
	buf[o] = '\0';
	return buf;
}

static int title_width(const struct title_field *f, size_t n)
{
	int w = 0, k = 0;

	for (size_t i = 0; i < n; i++) {
		if (!f[i].shown)
			continue;
		w += (int)strlen(f[i].shown == 2 || !f[i].brief[0] ? f[i].full : f[i].brief) + (k++ ? 3 : 1);
	}
	return w;
}

/*
 * Fit the fields into W, least important first: those of one importance
 * take their short form, then go, before the next are touched; what
 * matters most (the host, DEMO/RECORDED, PAUSED, a recording) stays.
 */
static void title_fit(struct title_field *f, size_t n, int W)
{
	for (size_t i = 0; i < n; i++)
		f[i].shown = f[i].full[0] ? 2 : 0;
	for (int p = TITLE_MAX_PRIO; p >= 0 && title_width(f, n) > W; p--) {
		for (size_t i = n; i-- > 0 && title_width(f, n) > W;)
			if (f[i].prio == p && f[i].shown && f[i].brief[0])
				f[i].shown = 1;
		for (size_t i = n; p > 0 && i-- > 0 && title_width(f, n) > W;)
			if (f[i].prio == p)
				f[i].shown = 0;
	}
}

static void draw_title(struct ui *ui, WINDOW *w, int W)
{
	char buf[1024], in[32], out[32], bin[32], bout[32], rec[96];
	struct title_field f[10];
	size_t n = 0, o = 0;
	uint64_t rej_tx, rej_rx;
	size_t up = 0, down = 0;
	double tin = 0, tout = 0;
	bool kin = false, kout = false;
	unsigned int nwarn;

	for (size_t i = 0; i < ui->live.host.ndevs; i++)
		for (size_t j = 0; j < ui->live.host.devs[i].nports; j++) {
			struct fab_port *p = &ui->live.host.devs[i].ports[j];
			struct port_rates pr;

			if (p->state == PORT_STATE_ACTIVE || p->state == PORT_STATE_ACTIVE_DEFER)
				up++;
			else
				down++;
			port_rates(p, &pr);
			if (pr.rcv_known) {
				tin += pr.rcv_gbps;
				kin = true;
			}
			if (pr.xmit_known) {
				tout += pr.xmit_gbps;
				kout = true;
			}
		}
	memset(f, 0, sizeof(f));
	snprintf(f[n].full, sizeof(f[n].full), "fabtop%s%s%s", ui->live.host.hostname[0] ? " " : "", ui->live.host.hostname,
		 ui_simulated(ui) ? " DEMO" : ui_recorded(ui) ? " RECORDED" : "");
	f[n++].prio = 0;
	snprintf(f[n].full, sizeof(f[n].full), "%zu device%s, ports %zu up %zu down", ui->live.host.ndevs,
		 ui->live.host.ndevs == 1 ? "" : "s", up, down);
	snprintf(f[n].brief, sizeof(f[n].brief), "ports %zu up %zu down", up, down);
	f[n++].prio = 2;
	units_bitrate(in, sizeof(in), tin * 1e9);
	units_bitrate(out, sizeof(out), tout * 1e9);
	snprintf(f[n].full, sizeof(f[n].full), "in %s out %s", kin ? in : "n/a", kout ? out : "n/a");
	snprintf(f[n].brief, sizeof(f[n].brief), "in %s out %s", kin ? brief_rate(in, bin, sizeof(bin)) : "n/a",
		 kout ? brief_rate(out, bout, sizeof(bout)) : "n/a");
	f[n++].prio = 2;
	/* Connections refused since the monitor started (the CM's own counts): who, in the Doctor pane. */
	if (host_cm_rejs(&ui->live.host, &rej_tx, &rej_rx)) {
		snprintf(f[n].full, sizeof(f[n].full), "REJ sent %" PRIu64 " received %" PRIu64, rej_tx, rej_rx);
		snprintf(f[n].brief, sizeof(f[n].brief), "REJ %" PRIu64 "/%" PRIu64, rej_tx, rej_rx);
		f[n++].prio = 2;
	}
	if (ui->live.findings >= 0)
		snprintf(f[n].full, sizeof(f[n].full), "findings %d", ui->live.findings);
	else
		snprintf(f[n].full, sizeof(f[n].full), "findings n/a");
	f[n++].prio = 1;
	snprintf(f[n].full, sizeof(f[n].full), "%gs", ui->live.interval_s);
	f[n++].prio = 4;
	if (ui->live.paused) {
		snprintf(f[n].full, sizeof(f[n].full), "PAUSED");
		f[n++].prio = 0;
	}
	/* What happened since the Events pane was last looked at. */
	if (event_log_unseen(&ui->live.events)) {
		snprintf(f[n].full, sizeof(f[n].full), "events +%" PRIu64, event_log_unseen(&ui->live.events));
		f[n++].prio = 2;
	}
	warn_list(&nwarn);
	if (nwarn) {
		snprintf(f[n].full, sizeof(f[n].full), "warnings (F1)");
		f[n++].prio = 3;
	}
	replay_ui_record_tag(ui, rec, sizeof(rec));
	if (rec[0]) {
		snprintf(f[n].full, sizeof(f[n].full), "%s", !strncmp(rec, " | ", 3) ? rec + 3 : rec);
		f[n++].prio = 0;
	}
	/* A big host shows before all of it is read: say what is still coming. */
	if (ui_loading(ui)) {
		snprintf(f[n].full, sizeof(f[n].full), "%s", ui_loading(ui));
		f[n++].prio = 3;
	}
	title_fit(f, n, W);
	buf[0] = '\0';
	for (size_t i = 0; i < n && o < sizeof(buf); i++) {
		if (!f[i].shown)
			continue;
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", o ? " | " : " ",
				      f[i].shown == 2 || !f[i].brief[0] ? f[i].full : f[i].brief);
	}
	ui_fill(w, 0, 0, W, theme_attr(ROLE_TITLE));
	ui_puts(w, 0, 0, W, theme_attr(ROLE_TITLE), buf);
}

/*
 * The tab labels in the widest form that fits W: " 1 Ports " for all;
 * then " 1 Ports" (one space apart); then the current tab in full and
 * the others by their short label (ui_view.tab); then the others by
 * their key alone. Returns the width; the labels go into label[].
 */
enum { TABS_FULL, TABS_TIGHT, TABS_SHORT, TABS_KEYS, TABS_NFORMS };

static int tab_labels(const struct ui *ui, int form, char label[][48])
{
	int width = 0;

	for (size_t i = 0; i < ui->nviews; i++) {
		const struct ui_view *v = ui->views[i];
		unsigned int key = (unsigned int)((i + 1) % 10);	/* key 0: the tenth */

		/* Past the tenth no number key: the title alone (its initial when only keys fit). */
		if (i >= 10 && (form == TABS_FULL || i == ui->pane))
			snprintf(label[i], 48, " %s ", v->title);
		else if (i >= 10)
			snprintf(label[i], 48, form == TABS_KEYS ? " %.1s" : " %s",
				 form == TABS_TIGHT ? v->title : v->tab ? v->tab : v->title);
		else if (form == TABS_FULL || i == ui->pane)
			snprintf(label[i], 48, " %u %s ", key, v->title);
		else if (form == TABS_TIGHT)
			snprintf(label[i], 48, " %u %s", key, v->title);
		else if (form == TABS_SHORT)
			snprintf(label[i], 48, " %u %s", key, v->tab ? v->tab : v->title);
		else
			snprintf(label[i], 48, " %u", key);
		width += (int)strlen(label[i]);
	}
	return width;
}

/* A scenario of the demo: its story and where to look, or FIXED; lines drawn (0: no story). */
static int draw_story(struct ui *ui, WINDOW *w, int y, int W, int H)
{
	char story[512], hint[512];
	bool fixed;

	if (!source_story(ui->live.src, story, sizeof(story), hint, sizeof(hint), &fixed))
		return 0;
	ui_fill(w, y, 0, W, theme_attr(fixed ? ROLE_OK : ROLE_WARN));
	ui_puts(w, y, 0, W, theme_attr(fixed ? ROLE_OK : ROLE_WARN), story);
	if (H < 12)
		return 1;
	ui_puts(w, y + 1, 0, W, theme_attr(ROLE_DIM), hint);
	return 2;
}

static void draw_tabs(struct ui *ui, WINDOW *w, int y, int W)
{
	char label[UI_MAX_VIEWS][48];
	int x = 0, form, first = 0, room = W;

	ui->tabs = (struct ui_rect){ y, 0, 1, W };
	ui_fill(w, y, 0, W, theme_attr(ROLE_TAB));
	/* A filter must stay in sight: the tabs take a shorter form to leave it room. */
	if (ui_table(ui)->filter[0] && !ui->edit.filter)
		room -= 12 + (int)strlen(ui_table(ui)->filter);
	for (form = TABS_FULL; form < TABS_NFORMS - 1; form++)
		if (tab_labels(ui, form, label) <= room)
			break;
	if (tab_labels(ui, form, label) > W) {
		/* Not even the keys fit: scroll, so that the current tab is on screen (htop does). */
		int need = 0;

		for (size_t i = 0; i <= ui->pane; i++)
			need += (int)strlen(label[i]);
		while (first < (int)ui->pane && need > W) {
			need -= (int)strlen(label[first]);
			first++;
		}
	}
	for (size_t i = 0; i < ui->nviews; i++) {
		int len = (int)strlen(label[i]);

		ui->tab_x[i] = x;
		if ((int)i < first)
			continue;	/* scrolled off: no width, so no click lands on it */
		ui_puts(w, y, x, W - x, theme_attr(i == ui->pane ? ROLE_TAB_ACTIVE : ROLE_TAB), label[i]);
		x += len;
	}
	ui->tab_x[ui->nviews] = x;
	if (ui_table(ui)->filter[0] && !ui->edit.filter && x + 4 < W) {
		char f[TABLE_FILTER_LEN + 16];

		snprintf(f, sizeof(f), " filter: %s ", ui_table(ui)->filter);
		ui_puts(w, y, x + 2, W - x - 2, theme_attr(ROLE_STATUS), f);
		x += 2 + (int)strlen(f);
	}
	/* Where the selection is when the rows do not all fit (the last frame's page). */
	{
		const struct table *t = ui_table(ui);
		char pos[48];
		int len;

		if (!ui->views[ui->pane]->cols || t->nview <= (size_t)t->page || t->page <= 1)
			return;
		len = snprintf(pos, sizeof(pos), " %zu/%zu ", t->sel + 1, t->nview);
		if (W - len > x)
			ui_puts(w, y, W - len, len, theme_attr(ROLE_TAB), pos);
	}
}

struct fbar_item {
	const char *key;
	const char *label;
	int code;
};

static const struct fbar_item fbar_items[] = {
	{ "F1", "Help", KEY_F(1) },
	{ "/", "Filter", '/' },
	{ "s", "Sort", 's' },
	{ "p", "Pause", 'p' },
	{ "+-", "Interval", '+' },
	{ "r", "Reset", 'r' },
	{ "w", "Window", 'w' },
	{ "Enter", "Details", '\n' },
	{ "F10", "Quit", KEY_F(10) },
};

static void draw_fbar(struct ui *ui, WINDOW *w, int y, int W)
{
	int x = 0;

	ui->fbar = (struct ui_rect){ y, 0, 1, W };
	ui->nfbar = 0;
	ui_fill(w, y, 0, W, theme_attr(ROLE_FLABEL));
	if (replay_ui_draw_edit(ui, w, y, W))
		return;
	if (ui->edit.filter) {
		char buf[TABLE_FILTER_LEN + 64];

		snprintf(buf, sizeof(buf), " Filter: %s_   (Enter keeps it, Esc clears)", ui_table(ui)->filter);
		ui_puts(w, y, 0, W, theme_attr(ROLE_FLABEL), buf);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(fbar_items) && ui->nfbar < 16; i++) {
		int kl = (int)strlen(fbar_items[i].key), ll = (int)strlen(fbar_items[i].label);

		if (x + kl + ll > W)
			break;
		ui->fbar_x[ui->nfbar] = x;
		ui->fbar_key[ui->nfbar++] = fbar_items[i].code;
		ui_fill(w, y, x, kl, theme_attr(ROLE_FKEY));
		ui_puts(w, y, x, kl, theme_attr(ROLE_FKEY), fbar_items[i].key);
		ui_puts(w, y, x + kl, ll, theme_attr(ROLE_FLABEL), fbar_items[i].label);
		x += kl + ll + 1;
	}
	if (ui->nfbar < 16)
		ui->fbar_x[ui->nfbar] = x;
	if (ui->msg.text[0] && ui->now_ns < ui->msg.until_ns) {
		int len = (int)strlen(ui->msg.text);
		int sx = W - len - 1;

		if (sx < x)
			sx = x < W ? x : 0;
		ui_fill(w, y, sx, W - sx, theme_attr(ROLE_FLABEL));
		ui_puts(w, y, sx, W - sx, theme_attr(ROLE_STATUS) | A_REVERSE, ui->msg.text);
	}
}

void screen_draw(struct ui *ui, WINDOW *w)
{
	int H, W, y = 0, bottom;
	struct ui_rect body;

	getmaxyx(w, H, W);
	werase(w);
	if (H <= 0 || W <= 0)
		return;
	/* Small screens lose the chrome before the data: title, then tabs, then the bar. */
	memset(&ui->tabs, 0, sizeof(ui->tabs));
	memset(&ui->fbar, 0, sizeof(ui->fbar));
	ui->nfbar = 0;
	if (H >= 3)
		draw_title(ui, w, W), y++;
	if (H >= 6)
		y += replay_ui_draw(ui, w, y, W);
	if (H >= 8)
		y += draw_story(ui, w, y, W, H);
	if (H >= 5)
		draw_tabs(ui, w, y++, W);
	bottom = H >= 2 ? H - 1 : H;
	body = (struct ui_rect){ y, 0, bottom - y, W };
	if (ui->overlay.help)
		help_draw(ui, w, body);
	else if (ui->overlay.details)
		details_draw(ui, w, body);
	else
		screen_draw_body(ui, w, body);
	if (H >= 2)
		draw_fbar(ui, w, H - 1, W);
}
