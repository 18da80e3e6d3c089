// SPDX-License-Identifier: GPL-2.0-or-later
/* Tracing the unicast path to a LID through the linear forwarding tables, and the PMA counters of every hop. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_port.h"
#include "mad/mad_trace.h"
#include "derive/mad_decode.h"
#include "util.h"

/*
 * The walk, one node at a time (each step waits for the answers of the
 * one before, as the path is only known hop by hop):
 *   TS_NODE     NodeInfo at the directed route so far
 *   TS_DETAILS  NodeDescription, PortInfo of the in port (a CA source: of
 *               the local port); a switch: PortInfo of port 0 (its LID),
 *               SwitchInfo and the LinearForwardingTable block of dlid
 *   TS_OUT      PortInfo of the switch's egress port, then one hop further
 */
enum trace_stage { TS_NODE, TS_DETAILS, TS_OUT, TS_WALKED };

enum trace_kind { TQ_NODE, TQ_DESC, TQ_PORT_IN, TQ_PORT_0, TQ_PORT_OUT, TQ_SWITCH, TQ_LFT, TQ_CPI, TQ_PC, TQ_PCE, TQ_PSC };

struct mad_trace {
	struct mad_session *s;
	struct ib_trace *t;
	unsigned int local_port;
	uint8_t path[MAD_DR_MAX_HOPS + 1];
	unsigned int hops;
	size_t cur;			/* the hop being walked: t->hops[cur] */
	enum trace_stage stage;
	unsigned int pending;		/* answers the current step waits for */
	unsigned int outstanding;	/* callbacks still to come (the block lives until 0) */
	bool freed;
	/* the current node's answers */
	struct mad_port_info pi_in, pi_0, pi_out;
	bool have_in, have_0, have_out, have_si, have_lft;
	struct mad_switch_info si;
	uint8_t lft_port;
	int fail;			/* the first query of this step that failed: its status */
	enum trace_kind fail_kind;
	/* PMA sampling */
	unsigned int pma_pending;
	bool pma_started;		/* a sample has been asked at least once */
};

struct trace_q {
	struct mad_trace *tr;
	enum trace_kind kind;
	size_t hop;
	struct ib_pma *pma;		/* TQ_PC, TQ_PCE */
};

static void trace_cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len);
static void trace_advance(struct mad_trace *tr);

static const char *kind_str(enum trace_kind k)
{
	static const char *const names[] = {
		[TQ_NODE] = "NodeInfo", [TQ_DESC] = "NodeDescription", [TQ_PORT_IN] = "PortInfo",
		[TQ_PORT_0] = "PortInfo", [TQ_PORT_OUT] = "PortInfo", [TQ_SWITCH] = "SwitchInfo",
		[TQ_LFT] = "LinearForwardingTable", [TQ_CPI] = "ClassPortInfo", [TQ_PC] = "PortCounters",
		[TQ_PCE] = "PortCountersExtended", [TQ_PSC] = "PortSamplesControl",
	};

	return k < ARRAY_SIZE(names) ? names[k] : "?";
}

static struct trace_q *q_new(struct mad_trace *tr, enum trace_kind kind, size_t hop, struct ib_pma *pma)
{
	struct trace_q *q = calloc(1, sizeof(*q));

	if (q)
		*q = (struct trace_q){ .tr = tr, .kind = kind, .hop = hop, .pma = pma };
	return q;
}

/* A directed-route SMP of the walk at the current path. */
static void ask_dr(struct mad_trace *tr, enum trace_kind kind, uint16_t attr, uint32_t mod)
{
	struct trace_q *q = q_new(tr, kind, tr->cur, NULL);

	if (!q || mad_get_dr(tr->s, tr->path, tr->hops, attr, mod, trace_cb, q)) {
		free(q);
		if (!tr->fail) {
			tr->fail = -ENOMEM;
			tr->fail_kind = kind;
		}
		return;
	}
	tr->pending++;
	tr->outstanding++;
}

static void stop(struct mad_trace *tr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void stop(struct mad_trace *tr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tr->t->error, sizeof(tr->t->error), fmt, ap);
	va_end(ap);
	tr->stage = TS_WALKED;
}

static const char *hop_name(const struct ib_trace_hop *h)
{
	return h->id.desc[0] ? h->id.desc : "(no description)";
}

static void port_from(struct ib_trace_end *e, uint8_t num, const struct mad_port_info *pi)
{
	e->port = num;
	e->known = true;
	mad_port_id_from(&e->pi, pi, num);
}

static bool lid_covers(uint16_t lid, uint8_t lmc, uint16_t dlid)
{
	return lid && dlid >= lid && (uint32_t)dlid < (uint32_t)lid + (1u << (lmc & 7));
}

/* One hop further out of the current node's egress port. */
static void step_out(struct mad_trace *tr, uint8_t port)
{
	if (tr->hops + 1 > MAD_DR_MAX_HOPS || tr->cur + 1 >= IB_TRACE_MAX_HOPS) {
		stop(tr, "no destination within %d hops: a forwarding loop?", MAD_DR_MAX_HOPS);
		return;
	}
	tr->cur++;
	tr->path[++tr->hops] = port;
	tr->stage = TS_NODE;
	ask_dr(tr, TQ_NODE, MAD_ATTR_NODE_INFO, 0);
}

static void on_node(struct mad_trace *tr, const struct mad_node_info *ni)
{
	struct ib_trace *t = tr->t;
	struct ib_trace_hop *h = &t->hops[tr->cur];

	for (size_t k = 0; k < tr->cur; k++) {
		if (t->hops[k].id.node_guid == ni->node_guid) {
			stop(tr, "forwarding loop: node 0x%016" PRIx64 " (%s) is reached again at hop %zu",
			     ni->node_guid, hop_name(&t->hops[k]), tr->cur);
			return;
		}
	}
	memset(h, 0, sizeof(*h));
	t->nhops = tr->cur + 1;
	h->id.node_guid = ni->node_guid;
	h->id.sys_image_guid = ni->sys_image_guid;
	h->id.port_guid = ni->port_guid;
	h->id.node_type = ni->node_type;
	h->id.num_ports = ni->num_ports;
	h->id.vendor_id = ni->vendor_id;
	h->id.device_id = ni->device_id;
	h->id.revision = ni->revision;
	h->in.port = tr->hops ? ni->local_port_num : 0;
}

/* NodeInfo answered: ask what decides where to go from this node. */
static void ask_details(struct mad_trace *tr)
{
	struct ib_trace_hop *h = &tr->t->hops[tr->cur];

	tr->have_in = tr->have_0 = tr->have_out = tr->have_si = tr->have_lft = false;
	tr->stage = TS_DETAILS;
	ask_dr(tr, TQ_DESC, MAD_ATTR_NODE_DESC, 0);
	if (h->in.port)
		ask_dr(tr, TQ_PORT_IN, MAD_ATTR_PORT_INFO, h->in.port);
	if (h->id.node_type == 2) {
		ask_dr(tr, TQ_PORT_0, MAD_ATTR_PORT_INFO, 0);
		ask_dr(tr, TQ_SWITCH, MAD_ATTR_SWITCH_INFO, 0);
		ask_dr(tr, TQ_LFT, MAD_ATTR_LFT, tr->t->dlid / MAD_LFT_BLOCK);
	} else if (!tr->hops) {
		/* the source CA: its own port is the way out */
		ask_dr(tr, TQ_PORT_OUT, MAD_ATTR_PORT_INFO, tr->local_port);
	}
}

/* A CA (or router): the source steps out of the local port; elsewhere it must be the destination. */
static void ca_decide(struct mad_trace *tr, struct ib_trace_hop *h)
{
	struct ib_trace *t = tr->t;

	if (!tr->hops) {
		h->lid = tr->pi_out.lid;
		h->lmc = tr->pi_out.lmc;
		if (lid_covers(h->lid, h->lmc, t->dlid)) {
			t->complete = true;	/* the destination is this port itself */
			tr->stage = TS_WALKED;
			return;
		}
		port_from(&h->out, (uint8_t)tr->local_port, &tr->pi_out);
		if (tr->pi_out.port_state != PORT_STATE_ACTIVE) {
			stop(tr, "local port %u is %s: nothing is forwarded from it", tr->local_port,
			     mad_port_state_str(tr->pi_out.port_state));
			return;
		}
		step_out(tr, (uint8_t)tr->local_port);
		return;
	}
	h->lid = tr->pi_in.lid;
	h->lmc = tr->pi_in.lmc;
	if (lid_covers(h->lid, h->lmc, t->dlid)) {
		t->complete = true;
		tr->stage = TS_WALKED;
		return;
	}
	stop(tr, "the path ends at %s port %u (LID %u), not at LID %u: a %s does not forward",
	     hop_name(h), h->in.port, h->lid, t->dlid, mad_node_type_str(h->id.node_type));
}

/* A switch: its own LID ends the walk, else the forwarding table names the egress port. */
static void switch_decide(struct mad_trace *tr, struct ib_trace_hop *h)
{
	struct ib_trace *t = tr->t;

	h->lid = tr->pi_0.lid;
	h->lmc = tr->pi_0.lmc;
	h->lft_top = tr->si.linear_fdb_top;
	if (lid_covers(h->lid, h->lmc, t->dlid)) {
		t->complete = true;
		tr->stage = TS_WALKED;
		return;
	}
	if (t->dlid > tr->si.linear_fdb_top) {
		stop(tr, "switch %s has no route to LID %u: its forwarding table ends at LID %u "
		     "(LinearFDBTop; is the LID assigned, has the SM finished?)", hop_name(h), t->dlid,
		     tr->si.linear_fdb_top);
		return;
	}
	if (tr->lft_port == MAD_LFT_NO_PORT || tr->lft_port == 0 || tr->lft_port > h->id.num_ports) {
		stop(tr, "switch %s has no route to LID %u: its forwarding table says port %u",
		     hop_name(h), t->dlid, tr->lft_port);
		return;
	}
	tr->stage = TS_OUT;
	ask_dr(tr, TQ_PORT_OUT, MAD_ATTR_PORT_INFO, tr->lft_port);
}

/* Every answer of the current step is in: decide where to go. */
static void trace_advance(struct mad_trace *tr)
{
	struct ib_trace *t = tr->t;
	struct ib_trace_hop *h = &t->hops[tr->cur];

	if (tr->fail) {
		if (tr->fail == -ETIMEDOUT)
			stop(tr, "no answer to %s at hop %zu%s%s (directed route of %u hops)",
			     kind_str(tr->fail_kind), tr->cur, tr->stage == TS_NODE ? "" : ", ",
			     tr->stage == TS_NODE ? "" : hop_name(h), tr->hops);
		else
			stop(tr, "%s at hop %zu failed: %s", kind_str(tr->fail_kind), tr->cur,
			     tr->fail > 0 ? mad_status_str((uint16_t)tr->fail) : strerror(-tr->fail));
		return;
	}
	switch (tr->stage) {
	case TS_NODE:
		ask_details(tr);
		break;
	case TS_DETAILS:
		if (h->in.port) {
			port_from(&h->in, h->in.port, &tr->pi_in);
			if (tr->pi_in.port_state != PORT_STATE_ACTIVE) {
				stop(tr, "port %u of %s is %s: traffic does not pass it", h->in.port, hop_name(h),
				     mad_port_state_str(tr->pi_in.port_state));
				return;
			}
		}
		if (h->id.node_type == 2)
			switch_decide(tr, h);
		else
			ca_decide(tr, h);
		break;
	case TS_OUT:
		port_from(&h->out, tr->lft_port, &tr->pi_out);
		if (tr->pi_out.port_state != PORT_STATE_ACTIVE) {
			stop(tr, "switch %s forwards LID %u to port %u, which is %s/%s", hop_name(h), t->dlid,
			     tr->lft_port, mad_port_state_str(tr->pi_out.port_state),
			     mad_phys_state_str(tr->pi_out.phys_state));
			return;
		}
		step_out(tr, tr->lft_port);
		break;
	case TS_WALKED:
		break;
	}
}

/* A walk answer into the current node's scratch; false when it did not decode. */
static bool take_walk(struct mad_trace *tr, const struct trace_q *q, const uint8_t *data, size_t dlen)
{
	struct ib_trace_hop *h = &tr->t->hops[tr->cur];
	struct mad_node_info ni;

	switch (q->kind) {
	case TQ_NODE:
		if (mad_decode_node_info(data, dlen, &ni))
			return false;
		on_node(tr, &ni);
		return true;
	case TQ_DESC:
		return !mad_decode_node_desc(data, dlen, h->id.desc, sizeof(h->id.desc));
	case TQ_PORT_IN:
		return (tr->have_in = !mad_decode_port_info(data, dlen, &tr->pi_in));
	case TQ_PORT_0:
		return (tr->have_0 = !mad_decode_port_info(data, dlen, &tr->pi_0));
	case TQ_PORT_OUT:
		return (tr->have_out = !mad_decode_port_info(data, dlen, &tr->pi_out));
	case TQ_SWITCH:
		return (tr->have_si = !mad_decode_switch_info(data, dlen, &tr->si));
	case TQ_LFT:
		return (tr->have_lft = !mad_decode_lft_port(data, dlen, tr->t->dlid, &tr->lft_port));
	default:
		return false;
	}
}

static const uint16_t attr_of[] = {
	[TQ_NODE] = MAD_ATTR_NODE_INFO, [TQ_DESC] = MAD_ATTR_NODE_DESC, [TQ_PORT_IN] = MAD_ATTR_PORT_INFO,
	[TQ_PORT_0] = MAD_ATTR_PORT_INFO, [TQ_PORT_OUT] = MAD_ATTR_PORT_INFO, [TQ_SWITCH] = MAD_ATTR_SWITCH_INFO,
	[TQ_LFT] = MAD_ATTR_LFT, [TQ_CPI] = MAD_ATTR_CLASS_PORT_INFO, [TQ_PC] = MAD_ATTR_PORT_COUNTERS,
	[TQ_PCE] = MAD_ATTR_PORT_COUNTERS_EXT, [TQ_PSC] = MAD_ATTR_PORT_SAMPLES_CONTROL,
};

static void pma_ends_ask(struct mad_trace *tr, size_t hop, const struct mad_class_port_info *cpi);

static void pma_answer(struct mad_trace *tr, struct trace_q *q, int status, const uint8_t *mad, size_t len)
{
	const uint8_t *data;
	size_t dlen;
	struct mad_hdr h;
	struct mad_class_port_info cpi;

	if (q->kind == TQ_CPI) {
		/* A PMA that does not answer ClassPortInfo still gets PortCounters asked. */
		if (status || mad_decode_reply_data(mad, len, MAD_ATTR_CLASS_PORT_INFO, &data, &dlen, &h) ||
		    mad_decode_class_port_info(data, dlen, &cpi))
			pma_ends_ask(tr, q->hop, NULL);
		else
			pma_ends_ask(tr, q->hop, &cpi);
		return;
	}
	if (q->kind == TQ_PSC) {
		/* the node's tick, for both ends' PortXmitWait */
		mad_port_psc_reply(&tr->t->hops[q->hop].in.pma, status, mad, len);
		tr->t->hops[q->hop].out.pma.tick_state = tr->t->hops[q->hop].in.pma.tick_state;
		tr->t->hops[q->hop].out.pma.tick = tr->t->hops[q->hop].in.pma.tick;
		return;
	}
	mad_port_pma_reply(q->pma, q->kind == TQ_PCE, status, mad, len);
}

static void trace_cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len)
{
	struct trace_q *q = arg;
	struct mad_trace *tr = q->tr;
	const uint8_t *data;
	size_t dlen;
	struct mad_hdr h;
	int rc;

	(void)s;
	tr->outstanding--;
	if (tr->freed) {
		if (!tr->outstanding)
			free(tr);
		free(q);
		return;
	}
	if (q->kind >= TQ_CPI) {
		if (status != -ECANCELED)
			pma_answer(tr, q, status, mad, len);
		tr->pma_pending--;
		free(q);
		return;
	}
	tr->pending--;
	if (!tr->fail) {
		rc = status ? status : mad_decode_reply_data(mad, len, attr_of[q->kind], &data, &dlen, &h);
		if (!status && rc < 0)
			rc = -EBADMSG;		/* a reply that does not decode */
		if (!rc && !take_walk(tr, q, data, dlen))
			rc = -EBADMSG;
		if (rc) {
			tr->fail = rc;
			tr->fail_kind = q->kind;
		}
	}
	free(q);
	if (!tr->pending && tr->stage != TS_WALKED)
		trace_advance(tr);
}

struct mad_trace *mad_trace_start(struct mad_session *s, struct ib_trace *t, unsigned int local_port,
				  uint16_t dlid)
{
	struct mad_trace *tr = calloc(1, sizeof(*tr));

	if (!tr)
		return NULL;
	tr->s = s;
	tr->t = t;
	tr->local_port = local_port;
	t->dlid = dlid;
	t->port = local_port;
	t->nhops = 0;
	t->complete = false;
	t->error[0] = '\0';
	tr->stage = TS_NODE;
	ask_dr(tr, TQ_NODE, MAD_ATTR_NODE_INFO, 0);
	if (tr->fail)
		stop(tr, "cannot send MADs: %s", strerror(-tr->fail));
	return tr;
}

bool mad_trace_walked(const struct mad_trace *tr)
{
	return tr->stage == TS_WALKED;
}

/* ---- the PMA counters of every hop's ends ---- */

static bool pma_ask(struct mad_trace *tr, enum trace_kind kind, size_t hop, struct ib_pma *pma, uint16_t lid,
		    uint8_t port)
{
	struct trace_q *q = q_new(tr, kind, hop, pma);

	if (!q || mad_get_pma(tr->s, lid, attr_of[kind], port, trace_cb, q)) {
		free(q);
		return false;
	}
	tr->pma_pending++;
	tr->outstanding++;
	return true;
}

/* PortCounters (+ Extended) of one end: a new sample. */
static void pma_end_sample(struct mad_trace *tr, size_t hop, struct ib_pma *pma, uint64_t now_ns)
{
	pma->prev_sample_ns = pma->sample_ns;
	pma->sample_ns = now_ns;
	pma->state = IBQ_PENDING;
	if (!pma->ext_only && !pma_ask(tr, TQ_PC, hop, pma, pma->lid, pma->port_select))
		pma->state = IBQ_ERROR;
	if (pma->ext && !pma_ask(tr, TQ_PCE, hop, pma, pma->lid, pma->port_select)) {
		pma->ext_failed = true;
		if (pma->ext_only)
			pma->state = IBQ_ERROR;
	}
}

/* ClassPortInfo answered (cpi) or not (NULL): define both ends' counters and take their first sample. */
static void pma_ends_ask(struct mad_trace *tr, size_t hop, const struct mad_class_port_info *cpi)
{
	struct ib_trace_hop *h = &tr->t->hops[hop];
	struct ib_trace_end *ends[2] = { &h->in, &h->out };

	for (int i = 0; i < 2; i++) {
		struct ib_pma *pma = &ends[i]->pma;

		if (!ends[i]->port)
			continue;
		pma->lid = h->lid;
		pma->port_select = ends[i]->port;
		mad_port_pma_define_from(pma, cpi, false);
		pma_end_sample(tr, hop, pma, util_now_ns());
	}
}

void mad_trace_sample(struct mad_trace *tr, uint64_t now_ns)
{
	struct ib_trace *t = tr->t;

	for (size_t k = 0; k < t->nhops; k++) {
		struct ib_trace_hop *h = &t->hops[k];

		if (!h->lid || (!h->in.port && !h->out.port))
			continue;
		if (!tr->pma_started) {
			/* The node's PMA capabilities first (64-bit counters or not). */
			if (!pma_ask(tr, TQ_CPI, k, NULL, h->lid, 0))
				pma_ends_ask(tr, k, NULL);
			/* and its tick, answered (or not) within the interval */
			pma_ask(tr, TQ_PSC, k, NULL, h->lid, h->out.port ? h->out.port : h->in.port);
			continue;
		}
		if (h->in.port)
			pma_end_sample(tr, k, &h->in.pma, now_ns);
		if (h->out.port)
			pma_end_sample(tr, k, &h->out.pma, now_ns);
	}
	if (tr->pma_started)
		t->sampled = true;
	tr->pma_started = true;
}

bool mad_trace_sampled(const struct mad_trace *tr)
{
	return !tr->pma_pending;
}

void mad_trace_free(struct mad_trace *tr)
{
	if (!tr)
		return;
	tr->freed = true;
	if (!tr->outstanding)
		free(tr);
}
