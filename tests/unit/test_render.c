// SPDX-License-Identifier: GPL-2.0-or-later
/* Draws every pane of the monitor for a fixed model into an off-screen pad and compares with tests/data/render/. */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <net/if_arp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>

#include "derive/counters.h"
#include "model/net.h"
#include "net_fixture.h"
#include "tap.h"
#include "ui/widget/graph.h"
#include "ui/probe_ui.h"
#include "derive/track.h"
#include "ui/panes.h"
#include "ui/screen.h"
#include "ui/ui.h"
#include "ui/views.h"
#include "ui/widget/theme.h"

#define S(x) ((uint64_t)(x) * 1000000000ull)

static struct fab_counter *add_counter(struct fab_port *p, const char *name, enum fab_counter_source src,
				       bool ext, bool known0, uint64_t v0, bool known1, uint64_t v1)
{
	struct fab_counter *c;

	p->counters = realloc(p->counters, (p->ncounters + 1) * sizeof(*p->counters));
	if (!p->counters)
		abort();
	c = &p->counters[p->ncounters++];
	counter_define(c, name, src, ext);
	counter_sample_value(c, known0, v0);
	counter_sample_value(c, known1, v1);
	snprintf(c->raw, sizeof(c->raw), "%llu", (unsigned long long)v1);
	return c;
}

static void port_basics(struct fab_port *p, unsigned int num, enum fab_port_state st, const char *st_raw,
			const char *rate, double gbps, enum fab_link_layer ll)
{
	memset(p, 0, sizeof(*p));
	p->num = num;
	p->state = st;
	snprintf(p->state_raw, sizeof(p->state_raw), "%s", st_raw);
	p->phys_state = PHYS_STATE_LINK_UP;
	snprintf(p->phys_state_raw, sizeof(p->phys_state_raw), "5: LinkUp");
	snprintf(p->rate, sizeof(p->rate), "%s", rate);
	p->rate_known = true;
	p->rate_gbps = gbps;
	p->link_layer = ll;
	snprintf(p->link_layer_raw, sizeof(p->link_layer_raw), "%s", fab_link_layer_str(ll));
	p->first_sample_ns = p->prev_sample_ns = S(100);
	p->sample_ns = S(101);
}

static void add_gid(struct fab_port *p, unsigned int idx, const char *gid, enum fab_gid_type type,
		    const char *netdev, bool in_ns, const char *ipv4)
{
	struct fab_gid *g;

	p->gids = realloc(p->gids, (p->ngids + 1) * sizeof(*p->gids));
	if (!p->gids)
		abort();
	g = &p->gids[p->ngids++];
	memset(g, 0, sizeof(*g));
	g->index = idx;
	snprintf(g->gid, sizeof(g->gid), "%s", gid);
	g->type = type;
	snprintf(g->netdev, sizeof(g->netdev), "%s", netdev);
	g->netdev_in_ns = in_ns;
	if (ipv4) {
		g->has_ipv4 = true;
		snprintf(g->ipv4, sizeof(g->ipv4), "%s", ipv4);
	}
}

static void add_netdev(struct fab_port *p, const char *name, bool in_ns)
{
	struct fab_netdev *nd = &p->netdevs[p->nnetdevs++];

	memset(nd, 0, sizeof(*nd));
	snprintf(nd->name, sizeof(nd->name), "%s", name);
	nd->in_ns = in_ns;
}

/*
 * mlx5_0: a dual-port IB HCA, port 1 busy (25 Gb/s in, 50 Gb/s out over
 * one second; symbol_error moved by 2; port_xmit_wait latched at all-ones),
 * port 2 INIT with LinkUp. rxe0: Soft-RoCE without PMA counters, one GID
 * whose netdev is in another namespace.
 */
static void build_host(struct fab_host *h)
{
	struct fab_device *d;
	struct fab_port *p;

	memset(h, 0, sizeof(*h));
	snprintf(h->hostname, sizeof(h->hostname), "testhost");
	h->ndevs = 2;
	h->devs = calloc(2, sizeof(*h->devs));
	d = &h->devs[0];
	snprintf(d->name, sizeof(d->name), "mlx5_0");
	snprintf(d->node_type, sizeof(d->node_type), "CA");
	d->node_type_num = 1;
	snprintf(d->node_guid, sizeof(d->node_guid), "0002:c903:0031:78f0");
	snprintf(d->fw_ver, sizeof(d->fw_ver), "16.35.1012");
	snprintf(d->board_id, sizeof(d->board_id), "MT_0000000010");
	d->nports = 2;
	d->ports = calloc(2, sizeof(*d->ports));
	p = &d->ports[0];
	port_basics(p, 1, PORT_STATE_ACTIVE, "4: ACTIVE", "100 Gb/sec (4X EDR)", 100, LINK_LAYER_INFINIBAND);
	p->lid = (struct opt_u64){ true, 2 };
	p->sm_lid = (struct opt_u64){ true, 1 };
	p->lmc = (struct opt_u64){ true, 0 };
	p->has_pma = true;
	add_netdev(p, "ib0", true);
	/* 25 Gb/s = 3.125e9 B/s = 781250000 words in 1 s; 50 Gb/s out. */
	add_counter(p, "port_rcv_data", COUNTER_SRC_COUNTERS, true, true, 1000000000, true, 1781250000);
	add_counter(p, "port_xmit_data", COUNTER_SRC_COUNTERS, true, true, 2000000000, true, 3562500000);
	add_counter(p, "port_rcv_packets", COUNTER_SRC_COUNTERS, true, true, 5000000, true, 5750000);
	add_counter(p, "port_xmit_packets", COUNTER_SRC_COUNTERS, true, true, 6000000, true, 7500000);
	add_counter(p, "symbol_error", COUNTER_SRC_COUNTERS, true, true, 3, true, 5);
	add_counter(p, "port_xmit_wait", COUNTER_SRC_COUNTERS, true, true, 4294967295u, true, 4294967295u);
	add_gid(p, 0, "fe80:0000:0000:0000:0002:c903:0031:78f1", GID_TYPE_IB, "", false, NULL);
	p = &d->ports[1];
	port_basics(p, 2, PORT_STATE_INIT, "2: INIT", "100 Gb/sec (4X EDR)", 100, LINK_LAYER_INFINIBAND);
	p->has_pma = true;
	add_netdev(p, "ib1", true);
	add_counter(p, "port_rcv_data", COUNTER_SRC_COUNTERS, true, true, 0, true, 0);
	add_counter(p, "port_xmit_data", COUNTER_SRC_COUNTERS, true, true, 0, true, 0);
	add_counter(p, "symbol_error", COUNTER_SRC_COUNTERS, true, true, 0, true, 0);

	d = &h->devs[1];
	snprintf(d->name, sizeof(d->name), "rxe0");
	snprintf(d->node_type, sizeof(d->node_type), "CA");
	d->nports = 1;
	d->ports = calloc(1, sizeof(*d->ports));
	p = &d->ports[0];
	port_basics(p, 1, PORT_STATE_ACTIVE, "4: ACTIVE", "10 Gb/sec (4X QDR)", 10, LINK_LAYER_ETHERNET);
	add_netdev(p, "eth1", true);
	add_gid(p, 0, "0000:0000:0000:0000:0000:ffff:0a14:0001", GID_TYPE_ROCE_V2, "eth1", true, "10.20.0.1");
	add_gid(p, 2, "0000:0000:0000:0000:0000:ffff:0a1e:0001", GID_TYPE_ROCE_V2, "eth9", false, "10.30.0.1");
}

static void *dup(const void *p, size_t n)
{
	void *q = malloc(n);

	if (!q)
		abort();
	memcpy(q, p, n);
	return q;
}

/* The same-subnet mistake (doc/doctor.md, finding 1): ib0 and ib1 in one /16, the main table routes it by both. */
static void build_net(struct net_state *st)
{
	struct net_link links[] = {
		{ .ifindex = 2, .name = "ib0", .type = ARPHRD_INFINIBAND, .operstate = 6, .mtu = 2044,
		  .ipoib_mode = NET_IPOIB_DATAGRAM, .ipoib_pkey = 0xffff },
		{ .ifindex = 3, .name = "ib1", .type = ARPHRD_INFINIBAND, .operstate = 6, .mtu = 2044,
		  .ipoib_mode = NET_IPOIB_DATAGRAM, .ipoib_pkey = 0xffff },
		{ .ifindex = 4, .name = "eth1", .type = ARPHRD_ETHER, .operstate = 6, .mtu = 1500, .ipoib_pkey = -1 },
	};
	struct net_addr addrs[] = {
		{ .ifindex = 2, .prefixlen = 16, .local = ip4("172.16.34.1") },
		{ .ifindex = 3, .prefixlen = 16, .local = ip4("172.16.34.2") },
		{ .ifindex = 4, .prefixlen = 24, .local = ip4("10.20.0.1") },
	};
	struct net_route routes[] = {
		{ .table = 254, .family = AF_INET, .dst_len = 16, .type = 1, .protocol = 2, .scope = 253,
		  .dst = ip4("172.16.0.0"), .prefsrc = ip4("172.16.34.1"), .oif = 2 },
		{ .table = 254, .family = AF_INET, .dst_len = 16, .type = 1, .protocol = 2, .scope = 253,
		  .dst = ip4("172.16.0.0"), .prefsrc = ip4("172.16.34.2"), .oif = 3 },
		{ .table = 254, .family = AF_INET, .dst_len = 24, .type = 1, .protocol = 2, .scope = 253,
		  .dst = ip4("10.20.0.0"), .prefsrc = ip4("10.20.0.1"), .oif = 4 },
	};
	struct net_rule rules[] = {
		{ .family = AF_INET, .action = 1, .table = 255, .has_priority = true, .priority = 0 },
		{ .family = AF_INET, .action = 1, .table = 254, .has_priority = true, .priority = 32766 },
	};
	struct net_if_sysctls sc[2];

	memset(st, 0, sizeof(*st));
	memset(sc, 0, sizeof(sc));
	for (int i = 0; i < 2; i++) {
		snprintf(sc[i].ifname, sizeof(sc[i].ifname), "ib%d", i);
		for (int k = 0; k < NET_SYSCTL_COUNT; k++) {
			int v = k == NET_SYSCTL_RP_FILTER ? 1 : 0;

			sc[i].v[k].all = sc[i].v[k].dflt = sc[i].v[k].iface = sc[i].v[k].effective =
				(struct net_opt_int){ true, v };
		}
	}
	st->links = dup(links, sizeof(links));
	st->nlinks = 3;
	st->addrs = dup(addrs, sizeof(addrs));
	st->naddrs = 3;
	st->routes = dup(routes, sizeof(routes));
	st->nroutes = 3;
	st->rules = dup(rules, sizeof(rules));
	st->nrules = 2;
	st->sysctls = dup(sc, sizeof(sc));
	st->nsysctls = 2;
}

/* The pad as text, trailing blanks removed. */
static char *pad_text(WINDOW *w, int h, int width)
{
	size_t size = (size_t)h * ((size_t)width + 2) + 1, off = 0;
	char *out = calloc(1, size), line[1024];

	for (int y = 0; y < h; y++) {
		int n = mvwinnstr(w, y, 0, line, width);

		if (n < 0)
			n = 0;
		line[n] = '\0';
		while (n > 0 && line[n - 1] == ' ')
			line[--n] = '\0';
		off += (size_t)snprintf(out + off, size - off, "%s\n", line);
	}
	return out;
}

/* Compare with tests/data/render/NAME.txt; FABTOP_RENDER_UPDATE=1 rewrites it. */
static void compare(const char *name, const char *got)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[4096];
	char *want;

	snprintf(path, sizeof(path), "%s/tests/data/render/%s.txt", top ? top : ".", name);
	if (getenv("FABTOP_RENDER_UPDATE")) {
		FILE *f = fopen(path, "w");

		if (f) {
			fputs(got, f);
			fclose(f);
		}
	}
	want = tap_slurp(path, NULL);
	TAP_OK(want && !strcmp(want, got), "%s matches %s", name, path);
	if (!want || strcmp(want, got)) {
		printf("# got:\n");
		for (const char *l = got; *l;) {
			const char *e = strchr(l, '\n');

			printf("# |%.*s\n", (int)(e ? e - l : (long)strlen(l)), l);
			l = e ? e + 1 : l + strlen(l);
		}
	}
	free(want);
}

static void render(struct ui *ui, const char *name, size_t pane, int h, int w)
{
	WINDOW *pad = newpad(h, w);
	char *txt;

	ui->pane = pane;
	views_rebuild(ui);
	screen_draw(ui, pad);
	txt = pad_text(pad, h, w);
	compare(name, txt);
	free(txt);
	delwin(pad);
}

int main(void)
{
	struct fab_ctx ctx;
	struct ui ui;
	struct net_state st;
	struct track_port *tp;
	FILE *devnull = fopen("/dev/null", "w+");
	SCREEN *scr;

	ctx_init(&ctx);
	ctx.color = false;
	memset(&ui, 0, sizeof(ui));
	ctx.interval_s = 1;
	scr = newterm("vt100", devnull, devnull);
	if (!scr) {
		printf("1..0 # SKIP no vt100 terminfo entry\n");
		return 0;
	}
	set_term(scr);
	theme_init(false);
	panes_init(&ui, &ctx);
	build_host(&ui.live.host);
	ui.live.last_sample_ns = ui.now_ns = S(101);
	track_sample(&ui.live.track, &ui.live.host, S(101));
	/* A minute of history: in rises 1..10 Gb/s in steps, out stays at 5. */
	tp = track_find(&ui.live.track, "mlx5_0", 1);
	if (!tp->hist)		/* track_sample() allocates it at a port's first rate */
		tp->hist = malloc(sizeof(*tp->hist));
	if (!tp->hist) {
		printf("Bail out! out of memory\n");
		return 1;
	}
	hist_init(tp->hist);
	for (int t = 42; t <= 101; t++)
		hist_add(tp->hist, S(t - 1), S(t), (t % 10) + 1, 5);
	build_net(&st);
	net_mark_rdma(&st, &ui.live.host);
	ui_net_set(&ui, &st, 0);

	ASSERT_CMP_INT(ui.live.findings, >=, 1, "the doctor finds the same-subnet mistake in the fixed net state");
	/* Two events at fixed times for the Events pane (and the header's counter until it is shown). */
	setenv("TZ", "UTC", 1);
	tzset();
	{
		struct fab_event ev = { .kind = EVENT_LINK_FLAP, .severity = EVENT_WARNING, .port = 2,
					.real_ns = UINT64_C(1767225600000000000) + S(100), .mono_ns = S(100) };

		snprintf(ev.device, sizeof(ev.device), "mlx5_0");
		event_set_what(&ev, "link went down 1 time and came back between samples");
		event_set_evidence(&ev, "link_downed 2 -> 3 (+1) since the previous sample");
		event_log_append(&ui.live.events, &ev);
		ev = (struct fab_event){ .kind = EVENT_ASYNC, .severity = EVENT_ERROR, .port = 1,
					 .real_ns = UINT64_C(1767225600000000000) + S(101), .mono_ns = S(101) };
		snprintf(ev.device, sizeof(ev.device), "rxe0");
		event_set_what(&ev, "port left ACTIVE (device notification)");
		event_set_evidence(&ev, "ibv_get_async_event: port error (10)");
		event_log_append(&ui.live.events, &ev);
	}

	for (size_t i = 0; i < ui.nviews; i++)
		TAP_OK(ui.views[i]->ncols <= TABLE_MAX_COLS, "%s: %d columns fit a table row (%d)",
		       ui.views[i]->id, ui.views[i]->ncols, TABLE_MAX_COLS);
	for (size_t i = 0; i < ui.nviews; i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s-100x30", ui.views[i]->id);
		render(&ui, name, i, 30, 100);
	}
	render(&ui, "counters-40x12", 1, 12, 40);
	render(&ui, "ports-80x24", 0, 24, 80);
	/* A row lights up while its error counters move, fades, then goes back to normal. */
	{
		WINDOW *pad = newpad(30, 100);
		chtype moving, fading, normal;

		ui.pane = 1;
		views_rebuild(&ui);
		table_end_key(ui_table(&ui));	/* the selection bar elsewhere: rxe0 */
		screen_draw(&ui, pad);
		moving = mvwinch(pad, 3, 0) & A_ATTRIBUTES;
		ui.live.last_sample_ns = S(106);
		views_rebuild(&ui);
		screen_draw(&ui, pad);
		fading = mvwinch(pad, 3, 0) & A_ATTRIBUTES;
		ui.live.last_sample_ns = S(112);
		views_rebuild(&ui);
		screen_draw(&ui, pad);
		normal = mvwinch(pad, 3, 0) & A_ATTRIBUTES;
		ASSERT_EQ_U64(moving, theme_attr(ROLE_ERR_MOVING) & A_ATTRIBUTES, "error counters moving: the row is lit");
		ASSERT_EQ_U64(fading, theme_attr(ROLE_ERR_FADING) & A_ATTRIBUTES, "5 s later: fading");
		ASSERT_EQ_U64(normal, theme_attr(ROLE_NORMAL) & A_ATTRIBUTES, "11 s later: back to normal");
		ui.live.last_sample_ns = S(101);
		table_home(ui_table(&ui));
		delwin(pad);
	}
	/* Details overlay and help of the selected port. */
	ui.pane = 0;
	views_rebuild(&ui);
	table_home(ui_table(&ui));
	ui.overlay.details = true;
	snprintf(ui.overlay.details_key, sizeof(ui.overlay.details_key), "mlx5_0/2");
	render(&ui, "ports-details-100x30", 0, 30, 100);
	ui.overlay.details = false;
	/*
	 * Tiny sizes: every pane draws, and the chrome goes before the data as
	 * doc/monitor.md says: the header stays from 3 lines up, clipped to the
	 * width, and nothing is drawn past the last column.
	 */
	{
		int bad = 0;

		for (int h = 1; h <= 6; h++)
			for (int w = 1; w <= 24; w += 3)
				for (size_t i = 0; i < ui.nviews; i++) {
					WINDOW *pad = newpad(h, w);
					char *txt;

					ui.pane = i;
					screen_draw(&ui, pad);
					txt = pad_text(pad, h, w);
					char want[20];
					size_t n = (size_t)(w < 16 ? w : 16);

					/* the header clipped to w, as pad_text() gives it: trailing blanks trimmed */
					snprintf(want, sizeof(want), "%.*s", (int)n, " fabtop testhost");
					while (n && want[n - 1] == ' ')
						want[--n] = '\0';
					if (h >= 3 && strncmp(txt, want, n)) {
						bad++;
						printf("# %dx%d %s: first line '%.*s'\n", w, h, ui.views[i]->id, w, txt);
					}
					free(txt);
					delwin(pad);
				}
		ASSERT_EQ_INT(bad, 0, "every pane at 1x1 .. 22x6: the header line from 3 lines up, clipped");
	}

	/* Units: data counters x 4, whatever the width: 781250000 words/s = 25 Gb/s. */
	{
		struct port_rates pr;

		port_rates(&ui.live.host.devs[0].ports[0], &pr);
		ASSERT_NEAR(pr.rcv_gbps, 25.0, 1e-9, "25 Gb/s in from 781250000 words in one second");
		ASSERT_NEAR(pr.xmit_gbps, 50.0, 1e-9, "50 Gb/s out");
	}

	/* History buckets: a rate over (t0, t1] fills the buckets it covers, gaps stay unknown. */
	{
		struct hist h;
		float in[6], out[6];
		bool known[6];

		hist_init(&h);
		hist_add(&h, S(1000), S(1001), 1, 2);	/* bucket 1000 */
		hist_add(&h, S(1003), S(1005), 3, 4);	/* buckets 1003, 1004; 1001-1002 no data */
		TAP_OK(hist_series(&h, 60, S(1005), 6, in, out, known), "a window with samples has data");
		/* 60 s in 6 columns of 10 buckets: all samples fall in the last column. */
		ASSERT_NEAR(in[5], 3, 1e-6, "the last column holds the peak in rate");
		ASSERT_NEAR(out[5], 4, 1e-6, "... and the peak out rate");
		ASSERT_EQ_INT(known[0], 0, "columns without samples are unknown, not zero");
		TAP_OK(!hist_series(&h, 60, S(2000), 6, in, out, known), "a window past the history has no data");
	}
	/* Carry-over: a fresh collection continues rates and deltas since start. */
	{
		struct fab_host old, now;
		struct fab_port *op, *np;
		struct fab_counter *nc;
		uint64_t d;

		memset(&old, 0, sizeof(old));
		memset(&now, 0, sizeof(now));
		old.ndevs = now.ndevs = 1;
		old.devs = calloc(1, sizeof(*old.devs));
		now.devs = calloc(1, sizeof(*now.devs));
		snprintf(old.devs[0].name, sizeof(old.devs[0].name), "mlx4_0");
		snprintf(now.devs[0].name, sizeof(now.devs[0].name), "mlx4_0");
		old.devs[0].nports = now.devs[0].nports = 1;
		old.devs[0].ports = calloc(1, sizeof(struct fab_port));
		now.devs[0].ports = calloc(1, sizeof(struct fab_port));
		op = &old.devs[0].ports[0];
		np = &now.devs[0].ports[0];
		port_basics(op, 1, PORT_STATE_ACTIVE, "4: ACTIVE", "56 Gb/sec (4X FDR)", 56, LINK_LAYER_INFINIBAND);
		port_basics(np, 1, PORT_STATE_DOWN, "1: DOWN", "56 Gb/sec (4X FDR)", 56, LINK_LAYER_INFINIBAND);
		add_counter(op, "symbol_error", COUNTER_SRC_COUNTERS, false, true, 10, true, 12);
		/* the new collection has one sample only, taken 2 s after the old one */
		np->counters = calloc(1, sizeof(*np->counters));
		np->ncounters = 1;
		nc = &np->counters[0];
		counter_define(nc, "symbol_error", COUNTER_SRC_COUNTERS, false);
		counter_sample_value(nc, true, 15);
		np->prev_sample_ns = 0;
		np->first_sample_ns = np->sample_ns = S(103);
		track_carry(&now, &old);
		TAP_OK(counter_delta(nc, &d) && d == 3, "carried: delta per interval 15 - 12 = 3 (got %" PRIu64 ")", d);
		TAP_OK(counter_delta_since_start(nc, &d) && d == 5, "carried: delta since start 15 - 10 = 5 (got %" PRIu64 ")",
		       d);
		ASSERT_EQ_U64(np->prev_sample_ns, S(101), "carried: the previous sample time");
		fab_host_free(&old);
		fab_host_free(&now);
	}

	ui_free(&ui);
	endwin();
	delscreen(scr);
	fclose(devnull);
	return tap_done();
}
