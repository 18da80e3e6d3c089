// SPDX-License-Identifier: GPL-2.0-or-later
/* The Probe pane: pick a peer, a source and a mode; start an RDMA CM probe; timeline and live stats. */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "source/source.h"
#include "derive/fabric_links.h"
#include "derive/mad_decode.h"
#include "derive/units.h"
#include "record/schema.h"
#include "ui/probe_ui.h"
#include "ui/views.h"
#include "ui/widget/theme.h"

/* The i-th IPv4 address of an RDMA netdev: the sources worth picking. */
static bool from_candidate(struct ui *ui, int i, char *addr, size_t asize, char *ifname, size_t isize)
{
	int k = 0;

	if (!ui->live.net_ok)
		return false;
	for (size_t a = 0; a < ui->live.net.naddrs; a++) {
		const struct net_addr *ad = &ui->live.net.addrs[a];
		const struct net_link *l = net_link_by_index(&ui->live.net, ad->ifindex);

		if (!l || !l->rdma || ad->local.family != AF_INET)
			continue;
		if (k++ == i) {
			net_ip_str(&ad->local, addr, asize);
			snprintf(ifname, isize, "%s", l->name);
			return true;
		}
	}
	return false;
}

static void probe_start_ui(struct ui *ui, struct ui_probe *pu)
{
	int err;

	if (ui_recorded(ui)) {
		ui_status(ui, "this is a recording: the probe needs the live host");
		return;
	}
	if (!pu->peer[0]) {
		ui_status(ui, "type a peer first (e)");
		return;
	}
	if (pu->p && probe_active(pu->p)) {
		ui_status(ui, "a probe is running: x stops it");
		return;
	}
	probe_free(pu->p);
	probe_opts_init(&pu->opts);
	pu->opts.peer = pu->peer;
	pu->opts.from = pu->from_addr[0] ? pu->from_addr : NULL;
	pu->opts.mode = pu->mode;
	/* a new attempt is explained by its own failure, if it fails: the last one's why goes */
	pu->explained = false;
	memset(&pu->why, 0, sizeof(pu->why));
	/* the source's probe: the host's RDMA CM, or the demo's simulated exchange */
	pu->p = source_probe_start(ui->live.src, &pu->opts, &err);
	if (!pu->p)
		ui_status(ui, "cannot start the probe: %s", err == -EOPNOTSUPP ? "this source cannot probe" :
			  "out of memory");
	else
		probe_ui_started(pu);
}

static enum ui_key_result probe_key(struct ui *ui, void *state, int ch)
{
	struct ui_probe *pu = state;
	size_t n;

	if (!pu)
		return UI_KEY_IGNORED;
	if (pu->editing) {
		n = strlen(pu->peer);
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER || ch == 27) {
			pu->editing = false;
			pu->whatif_wanted = true;
		} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
			if (n)
				pu->peer[n - 1] = '\0';
		} else if (ch > 0x20 && ch < 0x7f && n + 1 < sizeof(pu->peer)) {
			pu->peer[n] = (char)ch;
			pu->peer[n + 1] = '\0';
		}
		return UI_KEY_TAKEN;
	}
	switch (ch) {
	case 'e':
		pu->editing = true;
		return UI_KEY_TAKEN;
	case 'f': {
		char addr[64], ifname[16];

		pu->from++;
		if (!from_candidate(ui, pu->from, addr, sizeof(addr), ifname, sizeof(ifname))) {
			pu->from = -1;
			pu->from_addr[0] = pu->from_ifname[0] = '\0';
		} else {
			snprintf(pu->from_addr, sizeof(pu->from_addr), "%s", addr);
			snprintf(pu->from_ifname, sizeof(pu->from_ifname), "%s", ifname);
		}
		return UI_KEY_TAKEN;
	}
	case 'm':
		pu->mode = pu->mode == PROBE_MODE_RPING ? PROBE_MODE_BW :
			   pu->mode == PROBE_MODE_BW ? PROBE_MODE_LAT : PROBE_MODE_RPING;
		return UI_KEY_TAKEN;
	case '\n':
	case '\r':
	case KEY_ENTER:
	case 'g':
		probe_start_ui(ui, pu);
		return UI_KEY_TAKEN;
	case 'x':
		if (pu->p && probe_active(pu->p))
			probe_stop(pu->p);
		return UI_KEY_TAKEN;
	default:
		return UI_KEY_IGNORED;
	}
}

static void line(WINDOW *w, struct ui_rect r, int *y, int role, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void line(WINDOW *w, struct ui_rect r, int *y, int role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (*y >= r.y + r.h)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ui_puts(w, (*y)++, r.x, r.w, theme_attr(role), buf);
}

static void draw_run(WINDOW *w, struct ui_rect r, int *yp, const struct probe_status *st, const struct ui_probe *pu,
		     bool live);

/* One end of a hop: its port, link, Gb/s each way, xmit wait and the error deltas of the last interval. */
static void path_end(WINDOW *w, struct ui_rect r, int *y, const struct ib_trace *t, const char *dir,
		     const struct ib_trace_end *e)
{
	struct fabric_end fe;
	char rates[96] = "", wait[32] = "";

	if (!e->port)
		return;
	fabric_end_from(&e->pma, &fe);
	fabric_end_wait(&fe, &e->pma, &e->pi);
	if (t->sampled && fe.rates)
		snprintf(rates, sizeof(rates), "  xmit %.3f rcv %.3f Gb/s  errors +%" PRIu64, fe.xmit_bps * 8 / 1e9,
			 fe.rcv_bps * 8 / 1e9, fe.errors_now);
	if (t->sampled && fe.wait_known)
		snprintf(wait, sizeof(wait), fe.wait_how == XWAIT_SHARE ? "  wait %.1f%%" : "  wait %.0f/s",
			 fe.wait_how == XWAIT_SHARE ? fe.wait_share * 100 : fe.wait_per_s);
	line(w, r, y, fe.errors_now ? ROLE_BAD : 0, "        %-3s port %-3u %-6s %s %-4s%s%s", dir, e->port,
	     e->known ? mad_port_state_str(e->pi.state) : "?", e->known ? mad_link_width_str(e->pi.width) : "",
	     e->known ? mad_link_speed_str(e->pi.speed, e->pi.speed_ext) : "", rates, wait);
}

/* The InfiniBand path to the peer, hop by hop with each end's live rates (the core's mad/mad_path.c). */
static void path_lines(struct ui *ui, WINDOW *w, struct ui_rect r, int *y)
{
	const char *why;
	const struct ib_trace *t = live_path_trace(&ui->live, &why);

	(*y)++;
	if (!t) {
		line(w, r, y, ROLE_DIM, "InfiniBand path: %s", why[0] ? why : "not traced yet");
		return;
	}
	line(w, r, y, ROLE_HEADING, "InfiniBand path to LID %u from %s port %u: %zu node%s, %s%s", t->dlid, t->ca,
	     t->port, t->nhops, t->nhops == 1 ? "" : "s", t->complete ? "complete" : "stops: ",
	     t->complete ? "" : t->error);
	for (size_t k = 0; k < t->nhops; k++) {
		const struct ib_trace_hop *h = &t->hops[k];

		line(w, r, y, 0, "  %2zu  %-6s %-28s LID %u", k, h->id.node_type == 2 ? "Switch" : "CA",
		     h->id.desc[0] ? h->id.desc : "(no description)", h->lid);
		path_end(w, r, y, t, "in", &h->in);
		path_end(w, r, y, t, "out", &h->out);
	}
	if (!t->sampled)
		line(w, r, y, ROLE_DIM, "  (the rates come with the second sample of every hop)");
}

/* Long: the Probe pane's lines top to bottom: the choices, the what-if, the timeline, the live numbers. */
static void probe_draw(struct ui *ui, WINDOW *w, struct ui_rect r)
{
	struct ui_probe *pu = ui_pane_state(ui, &view_probe);
	const struct probe_status *st;
	int y = r.y;

	if (!pu) {
		line(w, r, &y, ROLE_BAD, "The probe is not available: out of memory.");
		return;
	}
	line(w, r, &y, ROLE_HEADING, "RDMA CM probe (rping-style): does a connection from this source to that peer work?");
	line(w, r, &y, 0, "  peer  %s%s", pu->peer[0] ? pu->peer : "(none)", pu->editing ? "_   typing: Enter accepts" : "");
	line(w, r, &y, 0, "  from  %s%s%s", pu->from_addr[0] ? pu->from_addr : "the kernel's choice",
	     pu->from_ifname[0] ? " on " : "", pu->from_ifname);
	line(w, r, &y, 0, "  mode  %s", probe_mode_name(pu->mode));
	line(w, r, &y, ROLE_DIM, "  e edit peer   f next source address   m mode   Enter/g start   x stop");
	if (pu->peer[0] && !pu->editing) {
		y++;
		if (pu->whatif_rc == -EINVAL)
			line(w, r, &y, ROLE_WARN, "What-if: '%s' is not an IP address here.", pu->peer);
		else if (pu->whatif_ok && pu->whatif.nroutes) {
			line(w, r, &y, ROLE_HEADING, "What-if: where traffic to %s leaves, per source (ip route get %s from SRC)",
			     pu->peer, pu->peer);
			for (size_t i = 0; i < pu->whatif.nroutes; i++) {
				const struct doctor_route *rt = &pu->whatif.routes[i];
				char src[64], tbl[24];

				enum doctor_route_verdict v = doctor_route_verdict(rt);

				if (v == DOCTOR_ROUTE_NONE) {
					line(w, r, &y, ROLE_BAD, "  from %-15s (%s): %s (%s)", rt->src[0] ? rt->src : "-",
					     rt->src_ifname, rt->src[0] ? "no route" : "no address of the peer's family",
					     strerror(-rt->rc));
					continue;
				}
				/* the doctor's verdict, in the doctor's words */
				line(w, r, &y, v == DOCTOR_ROUTE_WRONG_IFACE ? ROLE_BAD : ROLE_OK,
				     "  from %-15s (%s): leaves by %s, src %s, table %s -> %s%s", rt->src, rt->src_ifname,
				     rt->ans.oif_name[0] ? rt->ans.oif_name : "?",
				     net_ip_str(&rt->ans.src, src, sizeof(src))[0] ? src : "?",
				     net_table_str(rt->ans.table, tbl, sizeof(tbl)), doctor_route_verdict_str(v),
				     rt->ans.from_model ? "  (computed from the model)" : "");
			}
		} else if (pu->whatif_ok) {
			line(w, r, &y, ROLE_DIM, "What-if: no RDMA source address to ask about.");
		}
	}
	if (pu->peer[0] && !pu->editing)
		path_lines(ui, w, r, &y);
	if (ui_recorded(ui)) {
		y++;
		line(w, r, &y, ROLE_WARN, "This is a recording: a probe needs the live host and a real peer.");
		probe_ui_replayed(ui, pu);
		if (!pu->shown) {
			line(w, r, &y, ROLE_DIM, "No probe was recorded up to this point.");
			return;
		}
		line(w, r, &y, ROLE_HEADING, "Recorded probe run %" PRIu64 ": %s to %s%s%s", pu->rec->run,
		     probe_mode_name(pu->rec->st.mode), pu->rec->peer[0] ? pu->rec->peer : "?",
		     pu->rec->from_ifname[0] ? " from " : "", pu->rec->from_ifname);
		draw_run(w, r, &y, &pu->rec->st, pu, false);
		return;
	}
	if (ui_simulated(ui)) {
		y++;
		line(w, r, &y, ROLE_WARN, "SIMULATED: the demo fabric's probe is a simulated CM exchange on its routes; "
		     "no packet leaves this machine.");
	}
	if (!pu->p) {
		y++;
		char peers[256];

		if (source_probe_peers(ui->live.src, peers, sizeof(peers)))
			line(w, r, &y, ROLE_DIM, "No probe started yet. Peers that listen here: %s.", peers);
		else
			line(w, r, &y, ROLE_DIM, "No probe started yet. A peer needs 'fabtop probe --listen' (or rping -s) running.");
		return;
	}
	st = probe_status(pu->p);
	y++;
	draw_run(w, r, &y, st, pu, true);
}

/* A run: its state, numbers, timeline of points and CM events (live, or as recorded). */
static void draw_run(WINDOW *w, struct ui_rect r, int *yp, const struct probe_status *st, const struct ui_probe *pu,
		     bool live)
{
	const struct explain *why;
	int y = *yp;
	char a[32], b[32];

	line(w, r, &y, st->state == PROBE_FAILED ? ROLE_BAD : st->state == PROBE_DONE ? ROLE_OK : ROLE_WARN,
	     "%sstate %s   %s -> %s   %s%s", st->simulated ? "SIMULATED " : "", probe_state_name(st->state), st->local[0] ? st->local : "?",
	     st->remote[0] ? st->remote : "?", st->device[0] ? st->device : "", st->error[0] ? "" : "");
	if (st->sgid_index >= 0)
		line(w, r, &y, 0, "  %s port %u, GID index %d%s%s (NCCL_IB_GID_INDEX=%d for the same path)",
		     st->device, st->port_num, st->sgid_index, st->sgid_type[0] ? ", " : "", st->sgid_type,
		     st->sgid_index);
	if (st->error[0])
		line(w, r, &y, ROLE_BAD, "  %s", st->error);
	if (st->msgs || st->state == PROBE_RUNNING) {
		line(w, r, &y, 0, "  throughput %s (avg %s)   %.0f msg/s   %" PRIu64 " messages, %" PRIu64 " payload errors",
		     units_bitrate(a, sizeof(a), st->gbps * 1e9), units_bitrate(b, sizeof(b), st->avg_gbps * 1e9),
		     st->msgs_per_s, st->msgs, st->payload_errors);
		if (st->lat.n)
			line(w, r, &y, 0, "  latency min %.1f us  p50 %.1f us  p99 %.1f us  max %.1f us  (%" PRIu64 " samples)",
			     st->lat.min_ns / 1e3, st->lat.p50_ns / 1e3, st->lat.p99_ns / 1e3, st->lat.max_ns / 1e3, st->lat.n);
	}
	if (pu->npoints) {
		line(w, r, &y, ROLE_HEADING, "Timeline (a point per interval, the newest %d)", PROBE_UI_POINTS);
		for (unsigned int i = 0; i < pu->npoints; i++) {
			const struct probe_ui_point *pt = &pu->points[i];
			char lat[64] = "";

			if (pt->p50_ns)
				snprintf(lat, sizeof(lat), "   p50 %.1f us  p99 %.1f us", pt->p50_ns / 1e3, pt->p99_ns / 1e3);
			line(w, r, &y, 0, "  +%8.1f s  %12s  %10.0f msg/s%s", pt->t_ns / 1e9,
			     units_bitrate(a, sizeof(a), pt->gbps * 1e9), pt->msgs_per_s, lat);
		}
	}
	why = live ? &pu->why : &pu->rec->why;
	if (why->n) {
		line(w, r, &y, ROLE_HEADING, "Why (the doctor's evidence%s)", live ? "" : ", as explained then");
		for (unsigned int i = 0; i < why->n && i < EXPLAIN_MAX_LINES; i++)
			line(w, r, &y, ROLE_WARN, "  %s", why->line[i]);
	}
	line(w, r, &y, ROLE_HEADING, "CM event timeline (%s%" PRIu64 " events)", st->simulated ? "SIMULATED, " : "",
	     st->events_total);
	for (unsigned int i = 0; i < st->n_events; i++) {
		const struct probe_event *e = &st->events[i];

		line(w, r, &y, e->error ? ROLE_BAD : 0, "  +%9.3f ms  %-18s %s", e->t_ns / 1e6, e->name, e->text);
	}
	*yp = y;
}

static void *probe_create(struct ui *ui)
{
	return probe_ui_new();
}

static void probe_destroy(void *state)
{
	probe_ui_free(state);
}

static int probe_pane_fds(struct ui *ui, void *state, struct pollfd *fds, int max, int *timeout_ms)
{
	return probe_ui_fds(state, fds, max, timeout_ms);
}

static bool probe_pane_handle(struct ui *ui, void *state)
{
	return probe_ui_handle(ui, state);
}

/* The what-if asks the kernel: done here, once per loop, never inside a key handler. */
static bool probe_tick(struct ui *ui, void *state)
{
	struct ui_probe *pu = state;

	if (!pu || !pu->whatif_wanted)
		return false;
	probe_ui_whatif(ui, pu);
	/* the core keeps the InfiniBand path to the peer while this pane shows */
	live_path(&ui->live, pu->editing ? "" : pu->peer);
	return true;
}

static void probe_net_changed(struct ui *ui, void *state)
{
	struct ui_probe *pu = state;

	if (!pu)
		return;
	if (pu->peer[0])
		pu->whatif_wanted = true;
	/* a fix applied or undone, a route changed: a failed attempt is explained by the network as it is now */
	if (pu->explained)
		probe_ui_explain(ui, pu);
}

const struct ui_view view_probe = {
	.id = "probe",
	.wants = LIVE_WANT_PATH,
	.title = "Probe",
	.tab = "Prb",
	.draw = probe_draw,
	.key = probe_key,
	.keys_help = "e peer, f source address, m mode, Enter/g start, x stop",
	.create = probe_create,
	.destroy = probe_destroy,
	.fds = probe_pane_fds,
	.handle = probe_pane_handle,
	.tick = probe_tick,
	.net_changed = probe_net_changed,
};
