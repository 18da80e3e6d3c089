// SPDX-License-Identifier: GPL-2.0-or-later
/* The frame: summary header, tabs, the pane's body, and the function bar. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "derive/counters.h"
#include "derive/units.h"
#include "ui/keys.h"
#include "ui/replay_ui.h"
#include "ui/views.h"
#include "warn.h"
#include "util.h"

void ui_puts(WINDOW *w, int y, int x, int maxw, chtype attr, const char *s)
{
	int W = getmaxx(w), H = getmaxy(w);

	if (y < 0 || y >= H || x < 0 || x >= W || maxw <= 0)
		return;
	if (maxw > W - x)
		maxw = W - x;
	wattrset(w, attr);
	mvwaddnstr(w, y, x, s, maxw);
	wattrset(w, A_NORMAL);
}

void ui_fill(WINDOW *w, int y, int x, int n, chtype attr)
{
	int W = getmaxx(w), H = getmaxy(w);

	if (y < 0 || y >= H || x < 0 || x >= W || n <= 0)
		return;
	if (n > W - x)
		n = W - x;
	wattrset(w, attr);
	mvwhline(w, y, x, ' ', n);
	wattrset(w, A_NORMAL);
}

void ui_status(struct ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->msg.text, sizeof(ui->msg.text), fmt, ap);
	va_end(ap);
	ui->msg.until_ns = util_now_ns() + 3000000000ull;
}

/* Word-wrap text into r; returns the lines used. */
static int ui_wrap(WINDOW *w, struct ui_rect r, chtype attr, const char *s)
{
	int y = 0;

	while (*s && y < r.h) {
		int len = (int)strlen(s), cut = len;

		if (len > r.w) {
			cut = r.w;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = r.w;
		}
		wattrset(w, attr);
		mvwaddnstr(w, r.y + y, r.x, s, cut);
		s += cut;
		while (*s == ' ')
			s++;
		y++;
	}
	wattrset(w, A_NORMAL);
	return y;
}

void screen_rebuild(struct ui *ui)
{
	/* Only the pane on screen: the others are rebuilt when they are shown. */
	const struct ui_view *v = ui->views[ui->pane];
	struct table *t = ui_table(ui);

	if (!v->build)
		return;
	table_begin(t);
	v->build(ui, t);
	table_end(t);
}

int screen_draw_empty(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	const struct ui_view *v = ui->views[ui->pane];
	struct table_draw_opts o = { .utf8 = ui->utf8 };
	struct ui_rect m = { r.y + 1, r.x + 1, r.h - 1, r.w - 2 };

	if (r.h <= 0 || r.w <= 0)
		return 0;
	table_draw(ui_table(ui), w, r.y, r.x, 1, r.w, &o);
	if (m.w < 1) {
		m.w = r.w;
		m.x = r.x;
	}
	if (!v->empty)
		return 1;
	return 1 + ui_wrap(w, m, theme_attr(ui->live.host.ndevs ? ROLE_DIM : ROLE_WARN), v->empty(ui));
}

void screen_draw_body(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	const struct ui_view *v = ui->views[ui->pane];
	struct table *t = ui_table(ui);

	if (r.h <= 0 || r.w <= 0)
		return;
	ui->body = r;
	/* Views that draw themselves handle "no rows" too (the Network pane still has routes). */
	if (v->draw) {
		v->draw(ui, w, r);
	} else if (v->cols && !t->nview) {
		screen_draw_empty(ui, w, r);
	} else if (v->cols) {
		struct table_draw_opts o = {
			.utf8 = ui->utf8, .window_s = ui_windows_s[ui->window],
			.now_ns = ui->live.last_sample_ns, .focused = true,
		};

		table_draw(t, w, r.y, r.x, r.h, r.w, &o);
	}
}

static void draw_title(struct ui *ui, WINDOW *w, int W)
{
	char buf[768], in[32], out[32], find[32], rec[96], evs[40], rej[64] = "";
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
	/* Connections refused since the monitor started (the CM's own counts): who, in the Doctor pane. */
	if (host_cm_rejs(&ui->live.host, &rej_tx, &rej_rx))
		snprintf(rej, sizeof(rej), " | REJ sent %" PRIu64 " received %" PRIu64, rej_tx, rej_rx);
	warn_list(&nwarn);
	replay_ui_record_tag(ui, rec, sizeof(rec));
	if (ui->live.findings >= 0)
		snprintf(find, sizeof(find), "%d", ui->live.findings);
	else
		snprintf(find, sizeof(find), "n/a");
	/* What happened since the Events pane was last looked at. */
	evs[0] = '\0';
	if (event_log_unseen(&ui->live.events))
		snprintf(evs, sizeof(evs), " | events +%" PRIu64, event_log_unseen(&ui->live.events));
	snprintf(buf, sizeof(buf),
		 " fabtop %s%s| %zu device%s, ports %zu up %zu down | in %s out %s%s | findings %s | %gs%s%s%s%s",
		 ui->live.host.hostname[0] ? ui->live.host.hostname : "",
		 ui_simulated(ui) ? " DEMO " : ui_recorded(ui) ? " RECORDED " : " ",
		 ui->live.host.ndevs, ui->live.host.ndevs == 1 ? "" : "s", up, down,
		 kin ? units_bitrate(in, sizeof(in), tin * 1e9) : "n/a",
		 kout ? units_bitrate(out, sizeof(out), tout * 1e9) : "n/a", rej,
		 find, ui->live.interval_s, ui->live.paused ? " | PAUSED" : "", evs,
		 nwarn ? " | warnings (F1)" : "", rec);
	/* A big host shows before all of it is read: say what is still coming. */
	if (ui_loading(ui)) {
		size_t len = strlen(buf);

		snprintf(buf + len, sizeof(buf) - len, " | %s", ui_loading(ui));
	}
	ui_fill(w, 0, 0, W, theme_attr(ROLE_TITLE));
	ui_puts(w, 0, 0, W, theme_attr(ROLE_TITLE), buf);
}

static void draw_tabs(struct ui *ui, WINDOW *w, int y, int W)
{
	int x = 0, full = 0;
	bool compact;

	ui->tabs = (struct ui_rect){ y, 0, 1, W };
	ui_fill(w, y, 0, W, theme_attr(ROLE_TAB));
	/* A filter must stay in sight: when it and the full labels do not fit, numbers for the inactive tabs. */
	for (size_t i = 0; i < ui->nviews; i++)
		full += (int)strlen(ui->views[i]->title) + (i >= 10 ? 2 : 4);
	compact = W < 60 || (ui_table(ui)->filter[0] && !ui->edit.filter &&
			     full + 12 + (int)strlen(ui_table(ui)->filter) > W);
	for (size_t i = 0; i < ui->nviews; i++) {
		char label[48];
		int len;

		len = snprintf(label, sizeof(label), " %zu %s ", (i + 1) % 10, ui->views[i]->title);	/* key 0: the tenth */
		/* Past the tenth no number key: the title alone. */
		if (i >= 10)
			len = snprintf(label, sizeof(label), " %s ", ui->views[i]->title);
		if (compact && i != ui->pane)
			len = i >= 10 ? snprintf(label, sizeof(label), " %.1s ", ui->views[i]->title)
				      : snprintf(label, sizeof(label), " %zu ", (i + 1) % 10);
		ui->tab_x[i] = x;
		ui_puts(w, y, x, W - x, theme_attr(i == ui->pane ? ROLE_TAB_ACTIVE : ROLE_TAB), label);
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
