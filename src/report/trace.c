// SPDX-License-Identifier: GPL-2.0-or-later
/* `fabtop trace`: the path to a LID hop by hop, each port's link, rates and error deltas; text or JSON from one walk. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "derive/counters.h"
#include "derive/mad_decode.h"
#include "derive/xmit_wait.h"
#include "report/ibfabric.h"
#include "report/trace.h"

/* What one end of a hop did between the two samples. */
struct end_rates {
	bool xmit_known, rcv_known, wait_known;
	double xmit_bps, rcv_bps;	/* bytes per second */
	double wait_per_s;		/* PortXmitWait ticks per second */
	enum xmit_wait_how wait_how;	/* XWAIT_SHARE: wait_share is known */
	double wait_share;		/* ... as a share of the interval (derive/xmit_wait.h) */
};

static const struct fab_counter *end_counter(const struct ib_pma *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->c[i].name, name))
			return &p->c[i];
	return NULL;
}

static void end_rates(const struct ib_trace *t, const struct ib_trace_end *e, struct end_rates *r)
{
	const struct ib_pma *p = &e->pma;
	uint64_t dt = p->sample_ns - p->prev_sample_ns;
	const struct fab_counter *c;

	memset(r, 0, sizeof(*r));
	if (!t->sampled || !p->prev_sample_ns || p->state != IBQ_OK)
		return;
	if ((c = end_counter(p, "port_xmit_data")))
		r->xmit_known = counter_bytes_rate(c, dt, &r->xmit_bps);
	if ((c = end_counter(p, "port_rcv_data")))
		r->rcv_known = counter_bytes_rate(c, dt, &r->rcv_bps);
	if ((c = end_counter(p, "port_xmit_wait")))
		r->wait_known = counter_rate(c, dt, &r->wait_per_s);
	r->wait_how = xmit_wait_share(r->wait_per_s, p->tick_state == IBQ_OK, p->tick, e->pi.speed, e->pi.speed_ext,
				      &r->wait_share);
}

static const char *node_type(const struct ib_trace_hop *h)
{
	return h->id.node_type == 2 ? "Switch" : h->id.node_type == 3 ? "Router" : "CA";
}

/* The error counters that moved between the samples: " name +d" in text (or " none"), all deltas in JSON. */
static void deltas_out(struct out *o, const struct ib_trace *t, const struct ib_trace_end *e, bool text)
{
	bool any = false;

	if (text)
		out_printf(o, "  errors:");
	out_obj_open(o, "error_deltas");
	for (size_t i = 0; t->sampled && i < e->pma.n; i++) {
		const struct fab_counter *c = &e->pma.c[i];
		uint64_t d;

		if (c->kind != COUNTER_KIND_ERROR || !counter_delta(c, &d))
			continue;
		out_uint(o, text && d ? PRINT_ANY : PRINT_JSON, c->name, d, " %s +%" PRIu64, c->name, d);
		any |= d != 0;
	}
	out_obj_close(o);
	if (text)
		out_printf(o, "%s\n", any ? "" : " none");
}

/* One end of a hop (dir "in" or "out"): its link, and with two samples its rates and error deltas. */
static void end_out(struct out *o, const struct ib_trace *t, const char *dir, const struct ib_trace_end *e)
{
	const char *state = mad_port_state_str(e->pi.state), *width = mad_link_width_str(e->pi.width);
	const char *speed = mad_link_speed_str(e->pi.speed, e->pi.speed_ext), *pma = ib_query_state_str(e->pma.state);
	bool k = e->known;
	struct end_rates r;

	if (!e->port) {
		out_null(o, PRINT_JSON, dir, NULL);
		return;
	}
	end_rates(t, e, &r);
	out_obj_open(o, dir);
	out_uint(o, PRINT_ANY, "port", e->port, "       %-3s port %-3u", dir, e->port);
	out_str(o, PRINT_ANY, "state", k ? state : NULL, k ? " %-6s" : NULL, state);
	out_str(o, PRINT_JSON, "phys_state", k ? mad_phys_state_str(e->pi.phys_state) : NULL, NULL);
	out_str(o, PRINT_ANY, "width", k ? width : NULL, k ? " %s" : NULL, width);
	out_str(o, PRINT_ANY, "speed", k ? speed : NULL, k ? " %-4s" : NULL, speed);
	if (k)
		out_float(o, PRINT_JSON, "rate_gbps", mad_link_gbps(e->pi.width, e->pi.speed, e->pi.speed_ext), 3, NULL);
	else
		out_null(o, PRINT_JSON, "rate_gbps", NULL);
	if (!t->sampled)
		out_printf(o, "\n");
	out_str(o, t->sampled && e->pma.state != IBQ_OK ? PRINT_ANY : PRINT_JSON, "pma", pma, "  counters: %s\n", pma);
	/* rates are known only with two samples of a PMA that answered */
	out_float(o, r.xmit_known ? PRINT_ANY : PRINT_JSON, "xmit_bytes_per_s", r.xmit_known ? r.xmit_bps : NAN, 1,
		  "  xmit %.3f Gb/s", r.xmit_bps * 8 / 1e9);
	out_float(o, r.rcv_known ? PRINT_ANY : PRINT_JSON, "rcv_bytes_per_s", r.rcv_known ? r.rcv_bps : NAN, 1,
		  "  rcv %.3f Gb/s", r.rcv_bps * 8 / 1e9);
	out_float(o, PRINT_JSON, "xmit_wait_per_s", r.wait_known ? r.wait_per_s : NAN, 1, NULL);
	/* a share of the interval where the tick's length is known, else ticks/s and why */
	if (r.wait_known && r.wait_per_s > 0 && r.wait_how == XWAIT_SHARE)
		out_printf(o, "  xmit wait %.1f%%", r.wait_share * 100);
	else if (r.wait_known && r.wait_per_s > 0)
		out_printf(o, "  xmit wait %.0f ticks/s (no share: %s)", r.wait_per_s, xmit_wait_why(r.wait_how));
	out_float(o, PRINT_JSON, "xmit_wait_share", r.wait_known && r.wait_how == XWAIT_SHARE ? r.wait_share : NAN, 4,
		  NULL);
	out_obj_open(o, "counters");
	for (size_t i = 0; i < e->pma.n; i++)
		out_opt_uint(o, PRINT_JSON, e->pma.c[i].name,
			     &(struct opt_u64){ .known = e->pma.c[i].known, .value = e->pma.c[i].value }, NULL);
	out_obj_close(o);
	deltas_out(o, t, e, t->sampled && e->pma.state == IBQ_OK);
	out_obj_close(o);
}

static void hop_out(struct out *o, const struct ib_trace *t, size_t k)
{
	const struct ib_trace_hop *h = &t->hops[k];
	char guid[32], pguid[32];

	ibfabric_guid_str(h->id.node_guid, guid, sizeof(guid));
	ibfabric_guid_str(h->id.port_guid, pguid, sizeof(pguid));
	out_obj_open(o, NULL);
	out_uint(o, PRINT_ANY, "hop", k, "  %2zu  ", k);
	out_str(o, PRINT_ANY, "node_type", node_type(h), "%-6s ", node_type(h));
	out_str(o, PRINT_ANY, "node_desc", h->id.desc, "%-28s ", h->id.desc[0] ? h->id.desc : "(no description)");
	out_str(o, PRINT_ANY, "node_guid", guid, "%s  ", guid);
	out_str(o, PRINT_JSON, "port_guid", pguid, NULL);
	out_uint(o, PRINT_ANY, "lid", h->lid, "LID %u\n", h->lid);
	out_uint(o, PRINT_JSON, "lmc", h->lmc, NULL);
	end_out(o, t, "in", &h->in);
	end_out(o, t, "out", &h->out);
	out_obj_close(o);
}

void trace_report(struct out *o, const struct ib_trace *t)
{
	double ms = (double)t->walk_ns / 1e6;

	out_obj_open(o, "trace");
	out_str(o, PRINT_ANY, "device", t->ca, "Trace from %s", t->ca);
	out_uint(o, PRINT_ANY, "port", t->port, " port %u", t->port);
	out_uint(o, PRINT_ANY, "dlid", t->dlid, " to LID %u: %zu node%s, ", t->dlid, t->nhops, t->nhops == 1 ? "" : "s");
	out_str_or_null(o, PRINT_JSON, "dlid_found_by", t->found_by, NULL);
	out_bool(o, PRINT_ANY, "complete", t->complete, "%s", t->complete ? "complete" : "incomplete");
	out_float(o, PRINT_ANY, "walk_ms", ms, 3, " (walked in %.1f ms)\n", ms);
	out_str_or_null(o, PRINT_JSON, "error", t->error, NULL);
	if (t->sampled)
		out_float(o, PRINT_JSON, "interval_s", t->interval_s, 3, NULL);
	else
		out_null(o, PRINT_JSON, "interval_s", NULL);
	out_arr_open(o, "hops");
	for (size_t k = 0; k < t->nhops; k++)
		hop_out(o, t, k);
	out_arr_close(o);
	if (!t->complete)
		out_printf(o, "The path stops: %s\n", t->error);
	if (t->sampled)
		out_printf(o, "Rates and error deltas: two PMA samples %.3g s apart.\n", t->interval_s);
	out_obj_close(o);
}
