// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe under the monitor's poll loop: start/stop from the pane, fds and deadlines, failure explained. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
	if (!pu->peer[0] || !ui->net_ok)
		return;
	q.peer = pu->peer;
	memset(&r, 0, sizeof(r));
	in = (struct doctor_input){ .host = &ui->host, .net = &ui->net, .routes = ui->routes };
	pu->whatif_rc = doctor_run(&in, &q, &r);
	if (pu->whatif_rc == 0) {
		pu->whatif = r;
		pu->whatif_ok = true;
	}
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
	event_set_what(&ev, "probe %s %s -> %s: %s", probe_mode_name(st->mode), st->local[0] ? st->local : "?",
		       pu->peer, ok ? "connected and done" : "failed");
	if (ok)
		event_set_evidence(&ev, "%" PRIu64 " messages, %" PRIu64 " bytes, %.3g Gb/s average; round trip "
				   "p50 %.1f us, p99 %.1f us", st->msgs, st->bytes, st->avg_gbps,
				   (double)st->lat.p50_ns / 1e3, (double)st->lat.p99_ns / 1e3);
	else
		event_set_evidence(&ev, "%s", st->error[0] ? st->error : "no reason given");
	event_log_append(&ui->events, &ev);
}

bool probe_ui_handle(struct ui *ui, struct ui_probe *pu)
{
	const struct probe_status *st;
	uint64_t now = util_now_ns();
	bool was_active;

	if (!pu || !pu->p)
		return false;
	was_active = probe_active(pu->p);
	if (was_active)
		probe_handle(pu->p, now);
	st = probe_status(pu->p);
	/* A failure is explained once, from the loop (it reads sysfs and asks the kernel). */
	if (st->state == PROBE_FAILED && !pu->explained) {
		pu->explained = true;
		memset(&pu->why, 0, sizeof(pu->why));
		if (!ui_simulated(ui) && !ui_recorded(ui))
			explain_failure(ui->ctx, &pu->opts, st, &pu->why);
	}
	if (was_active && !probe_active(pu->p))
		probe_ui_event(ui, pu, st);
	if (was_active && probe_active(pu->p) && now - pu->last_draw_ns < PROBE_DRAW_NS)
		return false;
	pu->last_draw_ns = now;
	return was_active;
}
