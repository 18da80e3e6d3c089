// SPDX-License-Identifier: GPL-2.0-or-later
/* The seams are real: a new source and a new pane, a few lines each, run through the same code as the real ones. */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/host.h"
#include "source/snapshot.h"
#include "source/source.h"
#include "derive/doctor.h"
#include "tap.h"
#include "ui/action.h"
#include "ui/help.h"
#include "ui/screen.h"
#include "ui/ui.h"
#include "ui/views.h"

/* ---- a source: one IB port, no network ---- */

static int toy_collect(struct source *s, struct fab_host *h, unsigned int what)
{
	memset(h, 0, sizeof(*h));
	h->devs = calloc(1, sizeof(*h->devs));
	if (!h->devs)
		return -1;
	h->ndevs = 1;
	snprintf(h->devs[0].name, sizeof(h->devs[0].name), "toy0");
	h->devs[0].ports = calloc(1, sizeof(*h->devs[0].ports));
	if (!h->devs[0].ports)
		return -1;
	h->devs[0].nports = 1;
	h->devs[0].ports[0] = (struct fab_port){ .num = 1, .state = PORT_STATE_INIT,
						 .phys_state = PHYS_STATE_LINK_UP,
						 .link_layer = LINK_LAYER_INFINIBAND };
	return 0;
}

static bool toy_refresh(struct source *s, struct fab_host *h, uint64_t now_ns)
{
	return false;
}

static int toy_net(struct source *s, struct net_state *st)
{
	memset(st, 0, sizeof(*st));
	return 0;
}

static const struct source_ops toy_source = {
	.name = "toy",
	.flags = SOURCE_SIMULATED,
	.collect = toy_collect,
	.refresh = toy_refresh,
	.net = toy_net,
};

/* ---- a pane: says hello, counts its key ---- */

static const struct ui_view hello_pane;

static void hello_draw(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	const int *presses = ui_pane_state(ui, &hello_pane);

	mvwprintw(w, r.y, r.x, "hello: %zu device(s), h pressed %d time(s)", ui->live.host.ndevs, *presses);
}

static void *hello_create(struct ui *ui)
{
	return calloc(1, sizeof(int));
}

static enum ui_key_result hello_key(struct ui *ui, void *state, int ch)
{
	if (ch != 'h')
		return UI_KEY_IGNORED;
	++*(int *)state;
	return UI_KEY_TAKEN;
}

static const struct ui_view hello_pane = {
	.id = "hello",
	.title = "Hello",
	.draw = hello_draw,
	.key = hello_key,
	.keys_help = "h says hello",
	.create = hello_create,
	.destroy = free,
};

static char *screen_text(struct ui *ui, int h, int w)
{
	WINDOW *pad = newpad(h, w);
	size_t size = (size_t)h * ((size_t)w + 1) + 1, off = 0;
	char *out = calloc(1, size), line[256];

	views_rebuild(ui);
	screen_draw(ui, pad);
	for (int y = 0; y < h && out; y++) {
		int n = mvwinnstr(pad, y, 0, line, w < 255 ? w : 255);

		line[n > 0 ? n : 0] = '\0';
		off += (size_t)snprintf(out + off, size - off, "%s\n", line);
	}
	delwin(pad);
	return out;
}

int main(void)
{
	static const struct ui_view *const panes[] = { &view_ports, &hello_pane };
	struct fab_ctx ctx;
	struct snapshot snap;
	struct doctor_report rep;
	struct source *src;
	struct ui ui;
	struct text help = { 0 };
	FILE *devnull = fopen("/dev/null", "w+");
	SCREEN *scr;
	char *txt;
	bool found = false;
	int rc;


	ctx_init(&ctx);
	ctx.color = false;
	src = source_open_ops(&ctx, &toy_source);
	rc = src ? snapshot_take(src, &snap, COLLECT_ALL | SNAPSHOT_NET) : -1;
	TAP_OK(src && rc == 0, "a new source: snapshot taken (source %s, rc %d)", src ? "opened" : "NULL", rc);
	ASSERT_EQ_INT(snap.host.ndevs, 1, "its host has the one device");
	TAP_OK(snap.has_net && snap.routes == &route_model_ops,
	       "its network is not this host's: the model answers routes (has_net %d, routes %p, the model's %p)",
	       snap.has_net, (const void *)snap.routes, (const void *)&route_model_ops);
	rc = doctor_run(&(struct doctor_input){ .host = &snap.host, .net = &snap.net, .routes = snap.routes },
			NULL, &rep);
	TAP_OK(rc == 0 && rep.nfindings == 1 && !strcmp(rep.findings[0].code, "port-no-sm"),
	       "the doctor reads it like any other: INIT with LinkUp is port-no-sm (rc %d, %zu findings, first %s)",
	       rc, rep.nfindings, rep.nfindings ? rep.findings[0].code : "-");
	doctor_report_free(&rep);

	scr = newterm("vt100", devnull, devnull);
	if (!scr) {
		printf("1..0 # SKIP no vt100 terminfo entry\n");
		return 0;
	}
	set_term(scr);
	memset(&ui, 0, sizeof(ui));
	ui_init_views(&ui, &ctx, panes, 2);
	ui.live.src = src;
	ui.live.host = snap.host;		/* the ui owns the host from here */
	memset(&snap.host, 0, sizeof(snap.host));
	snapshot_free(&snap);

	action_key(&ui, '2');
	ASSERT_EQ_INT((int)ui.pane, 1, "number key 2 picks the second pane of this table");
	action_key(&ui, 'h');
	action_key(&ui, 'h');
	txt = screen_text(&ui, 10, 80);
	ASSERT_CONTAINS(txt, "hello: 1 device(s), h pressed 2 time(s)", "the pane draws its own state");
	ASSERT_CONTAINS(txt, "1 Ports  2 Hello", "the tabs come from the pane table");
	free(txt);
	action_key(&ui, '3');
	ASSERT_EQ_INT((int)ui.pane, 1, "a number past the last pane does nothing");
	action_key(&ui, '1');
	txt = screen_text(&ui, 10, 100);
	ASSERT_CONTAINS(txt, "toy0", "the Ports pane shows the new source's port");
	ASSERT_CONTAINS(txt, "NO-SM", "flagged");
	free(txt);
	help_text(&ui, &help);
	for (size_t i = 0; i < help.n; i++)
		found |= strstr(help.lines[i].s, "1..2") && strstr(help.lines[i].s, "Ports, Hello");
	TAP_OK(found, "the help names the panes of this table");
	found = false;
	for (size_t i = 0; i < help.n; i++)
		found |= strstr(help.lines[i].s, "Hello pane") && strstr(help.lines[i].s, "h says hello");
	TAP_OK(found, "and the new pane's keys");
	text_free(&help);
	ui_free(&ui);
	endwin();
	delscreen(scr);
	fclose(devnull);
	return tap_done();
}
