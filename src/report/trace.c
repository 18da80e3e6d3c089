// SPDX-License-Identifier: GPL-2.0-or-later
/* `fabtop trace`: the path to a LID hop by hop, each port's link, rates and error deltas, as text or JSON. */
#include "config.h"

#include <inttypes.h>
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

static void end_text(FILE *out, const struct ib_trace *t, const char *dir, const struct ib_trace_end *e)
{
	struct end_rates r;
	bool any = false;

	if (!e->port)
		return;
	fprintf(out, "       %-3s port %-3u", dir, e->port);
	if (e->known)
		fprintf(out, " %-6s %s %-4s", mad_port_state_str(e->pi.state), mad_link_width_str(e->pi.width),
			mad_link_speed_str(e->pi.speed, e->pi.speed_ext));
	if (!t->sampled) {
		fprintf(out, "\n");
		return;
	}
	if (e->pma.state != IBQ_OK) {
		fprintf(out, "  counters: %s\n", ib_query_state_str(e->pma.state));
		return;
	}
	end_rates(t, e, &r);
	if (r.xmit_known)
		fprintf(out, "  xmit %.3f Gb/s", r.xmit_bps * 8 / 1e9);
	if (r.rcv_known)
		fprintf(out, "  rcv %.3f Gb/s", r.rcv_bps * 8 / 1e9);
	if (r.wait_known && r.wait_per_s > 0 && r.wait_how == XWAIT_SHARE)
		fprintf(out, "  xmit wait %.1f%%", r.wait_share * 100);
	else if (r.wait_known && r.wait_per_s > 0)
		fprintf(out, "  xmit wait %.0f ticks/s (no share: %s)", r.wait_per_s, xmit_wait_why(r.wait_how));
	fprintf(out, "  errors:");
	for (size_t i = 0; i < e->pma.n; i++) {
		uint64_t d;

		if (e->pma.c[i].kind == COUNTER_KIND_ERROR && counter_delta(&e->pma.c[i], &d) && d) {
			fprintf(out, " %s +%" PRIu64, e->pma.c[i].name, d);
			any = true;
		}
	}
	fprintf(out, "%s\n", any ? "" : " none");
}

void trace_text(FILE *out, const struct ib_trace *t)
{
	char guid[32];

	fprintf(out, "Trace from %s port %u to LID %u: %zu node%s, %s (walked in %.1f ms)\n", t->ca, t->port,
		t->dlid, t->nhops, t->nhops == 1 ? "" : "s", t->complete ? "complete" : "incomplete",
		(double)t->walk_ns / 1e6);
	for (size_t k = 0; k < t->nhops; k++) {
		const struct ib_trace_hop *h = &t->hops[k];

		ibfabric_guid_str(h->id.node_guid, guid, sizeof(guid));
		fprintf(out, "  %2zu  %-6s %-28s %s  LID %u\n", k, node_type(h),
			h->id.desc[0] ? h->id.desc : "(no description)", guid, h->lid);
		end_text(out, t, "in", &h->in);
		end_text(out, t, "out", &h->out);
	}
	if (!t->complete)
		fprintf(out, "The path stops: %s\n", t->error);
	if (t->sampled)
		fprintf(out, "Rates and error deltas: two PMA samples %.3g s apart.\n", t->interval_s);
}

static void json_rate(struct json *j, const char *key, bool known, double v)
{
	json_key(j, key);
	if (known)
		json_double(j, v, 1);
	else
		json_null(j);
}

static void end_json(struct json *j, const struct ib_trace *t, const struct ib_trace_end *e)
{
	struct end_rates r;

	if (!e->port) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_key(j, "port"); json_u64(j, e->port);
	json_key(j, "state"); json_str(j, e->known ? mad_port_state_str(e->pi.state) : NULL);
	json_key(j, "phys_state"); json_str(j, e->known ? mad_phys_state_str(e->pi.phys_state) : NULL);
	json_key(j, "width"); json_str(j, e->known ? mad_link_width_str(e->pi.width) : NULL);
	json_key(j, "speed"); json_str(j, e->known ? mad_link_speed_str(e->pi.speed, e->pi.speed_ext) : NULL);
	json_key(j, "rate_gbps");
	if (e->known)
		json_double(j, mad_link_gbps(e->pi.width, e->pi.speed, e->pi.speed_ext), 3);
	else
		json_null(j);
	json_key(j, "pma"); json_str(j, ib_query_state_str(e->pma.state));
	end_rates(t, e, &r);
	json_rate(j, "xmit_bytes_per_s", r.xmit_known, r.xmit_bps);
	json_rate(j, "rcv_bytes_per_s", r.rcv_known, r.rcv_bps);
	json_rate(j, "xmit_wait_per_s", r.wait_known, r.wait_per_s);
	json_key(j, "xmit_wait_share");
	if (r.wait_known && r.wait_how == XWAIT_SHARE)
		json_double(j, r.wait_share, 4);
	else
		json_null(j);
	json_key(j, "counters");
	json_obj_begin(j);
	for (size_t i = 0; i < e->pma.n; i++) {
		json_key(j, e->pma.c[i].name);
		if (e->pma.c[i].known)
			json_u64(j, e->pma.c[i].value);
		else
			json_null(j);
	}
	json_obj_end(j);
	json_key(j, "error_deltas");
	json_obj_begin(j);
	for (size_t i = 0; t->sampled && i < e->pma.n; i++) {
		uint64_t d;

		if (e->pma.c[i].kind == COUNTER_KIND_ERROR && counter_delta(&e->pma.c[i], &d)) {
			json_key(j, e->pma.c[i].name);
			json_u64(j, d);
		}
	}
	json_obj_end(j);
	json_obj_end(j);
}

void trace_json(struct json *j, const struct ib_trace *t)
{
	char guid[32];

	json_obj_begin(j);
	json_key(j, "device"); json_str(j, t->ca);
	json_key(j, "port"); json_u64(j, t->port);
	json_key(j, "dlid"); json_u64(j, t->dlid);
	json_key(j, "complete"); json_bool(j, t->complete);
	json_key(j, "walk_ms"); json_double(j, (double)t->walk_ns / 1e6, 3);
	json_key(j, "error"); json_str_or_null(j, t->error);
	json_key(j, "interval_s");
	if (t->sampled)
		json_double(j, t->interval_s, 3);
	else
		json_null(j);
	json_key(j, "hops");
	json_arr_begin(j);
	for (size_t k = 0; k < t->nhops; k++) {
		const struct ib_trace_hop *h = &t->hops[k];

		json_obj_begin(j);
		json_key(j, "hop"); json_u64(j, k);
		json_key(j, "node_type"); json_str(j, node_type(h));
		json_key(j, "node_desc"); json_str(j, h->id.desc);
		ibfabric_guid_str(h->id.node_guid, guid, sizeof(guid));
		json_key(j, "node_guid"); json_str(j, guid);
		ibfabric_guid_str(h->id.port_guid, guid, sizeof(guid));
		json_key(j, "port_guid"); json_str(j, guid);
		json_key(j, "lid"); json_u64(j, h->lid);
		json_key(j, "lmc"); json_u64(j, h->lmc);
		json_key(j, "in"); end_json(j, t, &h->in);
		json_key(j, "out"); end_json(j, t, &h->out);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}
