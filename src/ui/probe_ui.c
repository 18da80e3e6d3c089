// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe under the monitor's poll loop: start/stop from the pane, fds and deadlines, failure explained. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "source/source.h"
#include "record/file.h"
#include "record/probe.h"
#include "ui/probe_ui.h"
#include "ui/ui.h"
#include "util.h"

/* The pane is redrawn at most this often while data moves. */
#define PROBE_DRAW_NS 250000000ull

struct ui_probe *probe_ui_new(void)
{
	struct ui_probe *pu = calloc(1, sizeof(*pu));

	if (pu) {
		pu->from = -1;
		pu->mode = PROBE_MODE_RPING;
		pu->shown_rec = (size_t)-1;
		pu->rec = calloc(1, sizeof(*pu->rec));
		if (!pu->rec) {
			free(pu);
			return NULL;
		}
	}
	return pu;
}

void probe_ui_free(struct ui_probe *pu)
{
	if (!pu)
		return;
	probe_free(pu->p);
	if (pu->whatif_ok)
		doctor_report_free(&pu->whatif);
	free(pu->rec);
	free(pu);
}

void probe_ui_whatif(struct ui *ui, struct ui_probe *pu)
{
	struct doctor_query q = { 0 };
	struct doctor_input in;
	struct doctor_report r;

	if (!pu)
		return;
	pu->whatif_wanted = false;
	if (pu->whatif_ok)
		doctor_report_free(&pu->whatif);
	pu->whatif_ok = false;
	pu->whatif_rc = 0;
	if (!pu->peer[0] || !ui->live.net_ok)
		return;
	q.peer = pu->peer;
	memset(&r, 0, sizeof(r));
	in = (struct doctor_input){ .host = &ui->live.host, .net = &ui->live.net, .routes = ui->live.routes };
	pu->whatif_rc = doctor_routes(&in, &q, &r);
	if (pu->whatif_rc == 0) {
		pu->whatif = r;
		pu->whatif_ok = true;
	}
}

void probe_ui_explain(struct ui *ui, struct ui_probe *pu)
{
	/* the core's host, network and findings: the demo's with its fixes, the live one as read */
	struct explain_input in = { .host = &ui->live.host, .net = &ui->live.net, .routes = ui->live.routes,
				    .doctor = ui->live.doctor_ok ? &ui->live.doctor : NULL };
	const struct probe_status *st;
	struct explain now, then = pu->why;
	bool again = pu->explained && then.n;

	memset(&pu->why, 0, sizeof(pu->why));
	pu->explained = true;
	pu->why_gen++;
	if (!pu->p || ui_recorded(ui))
		return;
	st = probe_status(pu->p);
	if (st->state != PROBE_FAILED)
		return;
	if (!ui->live.net_ok) {
		/* the core could not read the network: nothing is explained from a read of the pane's own */
		snprintf(pu->why.line[pu->why.n++], sizeof(pu->why.line[0]),
			 "not explained: the network state could not be read (%s); see the Network pane",
			 ui->live.net_err ? strerror(-ui->live.net_err) : "not read yet");
		return;
	}
	explain_attempt(&in, &pu->opts, st, &now);
	if (!again || (now.cause == then.cause && now.ncited == then.ncited)) {
		pu->why = now;
		return;
	}
	/*
	 * The network changed after the attempt failed: its cause then is not
	 * claimed of the network now. Say both, and that Enter tries again.
	 */
	explain_merge_again(&pu->why, &then, &now);
}

int probe_ui_fds(struct ui_probe *pu, struct pollfd *fds, int max, int *timeout_ms)
{
	int n, t;

	if (!pu || !pu->p || !probe_active(pu->p) || max <= 0)
		return 0;
	n = probe_fds(pu->p, fds, max);
	t = probe_timeout_ms(pu->p, util_now_ns());
	if (t >= 0 && (*timeout_ms < 0 || t < *timeout_ms))
		*timeout_ms = t;
	/* Live numbers need a redraw now and then even when no fd wakes us. */
	if (*timeout_ms < 0 || *timeout_ms > 250)
		*timeout_ms = 250;
	return n < 0 ? 0 : n;
}

/* A probe run that ended is an event: what it connected to, and how it went. */
static void probe_ui_event(struct ui *ui, const struct ui_probe *pu, const struct probe_status *st)
{
	struct fab_event ev = { .kind = EVENT_PROBE };
	bool ok = st->state == PROBE_DONE;

	ev.real_ns = util_wall_ns();
	ev.mono_ns = util_now_ns();
	ev.severity = ok ? EVENT_INFO : EVENT_ERROR;
	snprintf(ev.device, sizeof(ev.device), "%s", st->device);
	ev.port = st->port_num;
	snprintf(ev.iface, sizeof(ev.iface), "%s", pu->from_ifname);
	event_set_what(&ev, "%sprobe %s %s -> %s: %s", st->simulated ? "SIMULATED " : "", probe_mode_name(st->mode), st->local[0] ? st->local : "?",
		       pu->peer, ok ? "connected and done" : "failed");
	if (ok)
		event_set_evidence(&ev, "%" PRIu64 " messages, %" PRIu64 " bytes, %.3g Gb/s average; round trip "
				   "p50 %.1f us, p99 %.1f us", st->msgs, st->bytes, st->avg_gbps,
				   (double)st->lat.p50_ns / 1e3, (double)st->lat.p99_ns / 1e3);
	else
		event_set_evidence(&ev, "%s", st->error[0] ? st->error : "no reason given");
	event_log_append(&ui->live.events, &ev);
}

static void point_of(struct probe_ui_point *pt, uint64_t t_ns, const struct probe_status *st)
{
	pt->t_ns = t_ns;
	pt->gbps = st->gbps;
	pt->msgs_per_s = st->msgs_per_s;
	pt->p50_ns = st->lat.n ? st->lat.p50_ns : 0;
	pt->p99_ns = st->lat.n ? st->lat.p99_ns : 0;
}

static void point_add(struct ui_probe *pu, const struct probe_ui_point *pt)
{
	if (pu->npoints == PROBE_UI_POINTS) {
		memmove(pu->points, pu->points + 1, (PROBE_UI_POINTS - 1) * sizeof(pu->points[0]));
		pu->npoints--;
	}
	pu->points[pu->npoints++] = *pt;
}

void probe_ui_started(struct ui_probe *pu)
{
	pu->run++;
	pu->started_ns = util_now_ns();
	pu->next_point_ns = pu->started_ns;
	pu->npoints = 0;
}

/*
 * While the monitor records: the run's state with every point of its
 * timeline and every change (state, a CM event), and once into a new
 * recording, so a replay shows the Probe pane as it was (doc/recording.md).
 */
static void probe_ui_record(struct ui *ui, struct ui_probe *pu, const struct probe_status *st, bool point,
			    uint64_t now)
{
	struct source_record_status rs;
	struct rec_buf b = { 0 };

	if (!source_record_status(ui->live.src, &rs))
		return;
	/* a simulated run is not a probe of anything: it never goes into a recording as one */
	if (st->simulated)
		return;
	if (rs.started_ns != pu->rec_file_ns) {
		pu->rec_file_ns = rs.started_ns;
		pu->rec_run = 0;
	}
	if (!point && pu->rec_run == pu->run && pu->rec_state == st->state && pu->rec_events == st->events_total &&
	    pu->rec_why_gen == pu->why_gen)
		return;
	rec_probe_from(pu->rec, pu->run, now - pu->started_ns, pu->peer, pu->from_ifname, st);
	pu->rec->point = point;
	if (st->state == PROBE_FAILED && pu->explained)
		pu->rec->why = pu->why;
	rec_probe_encode(&b, pu->rec);
	if (b.oom)
		ui_status(ui, "out of memory recording the probe");
	else if (source_record_add(ui->live.src, REC_PROBE, b.data, b.len) == 0) {
		pu->rec_run = pu->run;
		pu->rec_state = st->state;
		pu->rec_events = st->events_total;
		pu->rec_why_gen = pu->why_gen;
	}
	rec_buf_free(&b);
}

void probe_ui_replayed(struct ui *ui, struct ui_probe *pu)
{
	struct source_rec r;
	struct rec_cur c;
	struct probe_ui_point pts[PROBE_UI_POINTS];
	unsigned int n = 0;
	uint64_t run;
	struct source_timeline tl;

	/* looked up again only when the cursor moved (the pane is drawn far more often) */
	if (source_timeline(ui->live.src, &tl)) {
		if (pu->shown_looked && pu->shown_pos == tl.pos)
			return;
		pu->shown_looked = true;
		pu->shown_pos = tl.pos;
	}
	if (!source_recorded(ui->live.src, REC_PROBE, (size_t)-1, &r)) {
		pu->shown = false;
		pu->shown_rec = (size_t)-1;
		return;
	}
	if (r.index == pu->shown_rec)
		return;
	pu->shown_rec = r.index;
	rec_cur_init(&c, r.body, r.len, NULL);
	pu->shown = rec_probe_decode(&c, pu->rec) == 0;
	if (!pu->shown) {
		ui_status(ui, "the recorded probe does not read: %s", c.err ? c.err : "out of memory");
		return;
	}
	/* the run's points up to here, walking back through its records (the newest PROBE_UI_POINTS) */
	run = pu->rec->run;
	pu->npoints = 0;
	for (size_t before = (size_t)-1; n < PROBE_UI_POINTS && source_recorded(ui->live.src, REC_PROBE, before, &r);
	     before = r.index) {
		struct rec_probe *p = malloc(sizeof(*p));
		bool same;

		if (!p)
			break;
		rec_cur_init(&c, r.body, r.len, NULL);
		same = rec_probe_decode(&c, p) == 0 && p->run == run;
		if (same && p->point)
			point_of(&pts[n++], p->elapsed_ns, &p->st);
		free(p);
		if (!same)
			break;
	}
	while (n)
		pu->points[pu->npoints++] = pts[--n];
}

bool probe_ui_handle(struct ui *ui, struct ui_probe *pu)
{
	const struct probe_status *st;
	uint64_t now = util_now_ns();
	bool was_active, point;

	if (!pu || !pu->p)
		return false;
	was_active = probe_active(pu->p);
	if (was_active)
		probe_handle(pu->p, now);
	st = probe_status(pu->p);
	/* A failure is explained from the loop (routes are asked of the kernel), again after the network changed. */
	if (st->state == PROBE_FAILED && !pu->explained)
		probe_ui_explain(ui, pu);
	if (was_active && !probe_active(pu->p))
		probe_ui_event(ui, pu, st);
	/* a point of the timeline per interval while it runs */
	point = was_active && now >= pu->next_point_ns;
	if (point) {
		struct probe_ui_point pt;

		point_of(&pt, now - pu->started_ns, st);
		point_add(pu, &pt);
		pu->next_point_ns = now + (uint64_t)(ui->live.interval_s * 1e9);
	}
	probe_ui_record(ui, pu, st, point, now);
	if (was_active && probe_active(pu->p) && now - pu->last_draw_ns < PROBE_DRAW_NS)
		return false;
	pu->last_draw_ns = now;
	return was_active;
}
