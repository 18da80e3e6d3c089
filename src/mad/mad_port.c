// SPDX-License-Identifier: GPL-2.0-or-later
/* Queries about one local IB port, chained as answers arrive: self, SM, link partner, PMA counters. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mad/mad_port.h"
#include "derive/counters.h"
#include "derive/mad_decode.h"
#include "util.h"

/* What a reply is for; one small context per request, freed by its callback. */
enum port_q_kind {
	PQ_SELF_NODE,
	PQ_SELF_DESC,
	PQ_SELF_PORT,
	PQ_SM_INFO,
	PQ_PEER_NODE,
	PQ_PEER_DESC,
	PQ_PEER_PORT,
	PQ_PEER_PORT0,		/* a switch partner's port 0: its LID */
	PQ_PMA_CPI,
	PQ_PMA_PC,
	PQ_PMA_PCE,
};

struct port_q {
	enum port_q_kind kind;
	struct ib_local_port *lp;
	struct ib_pma *pma;	/* PQ_PMA_*: which end */
	uint64_t now_ns;
};

static void port_cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len);

static int port_ask(struct mad_session *s, struct ib_local_port *lp, enum port_q_kind kind,
		    struct ib_pma *pma, unsigned int hops, uint16_t attr, uint32_t mod, uint64_t now_ns)
{
	struct port_q *q = calloc(1, sizeof(*q));
	uint8_t path[2] = { 0, (uint8_t)lp->port };
	int rc;

	if (!q)
		return -ENOMEM;
	q->kind = kind;
	q->lp = lp;
	q->pma = pma;
	q->now_ns = now_ns;
	switch (kind) {
	case PQ_SM_INFO:
		rc = mad_get_smp_lid(s, lp->sm.lid, attr, mod, port_cb, q);
		break;
	case PQ_PMA_CPI:
	case PQ_PMA_PC:
	case PQ_PMA_PCE:
		rc = mad_get_pma(s, pma->lid, attr, pma->port_select, port_cb, q);
		break;
	default:
		rc = mad_get_dr(s, path, hops, attr, mod, port_cb, q);
		break;
	}
	if (rc)
		free(q);
	return rc;
}

/* The state a failed request leaves behind. */
static enum ib_query_state fail_state(int status)
{
	/* Cancelled: the caller's deadline passed first, which is a timeout to it. */
	return status == -ETIMEDOUT || status == -ECANCELED ? IBQ_TIMEOUT : IBQ_ERROR;
}

void mad_port_id_from(struct ib_port_id *p, const struct mad_port_info *pi, uint8_t num)
{
	p->num = num;
	p->lid = pi->lid;
	p->sm_lid = pi->sm_lid;
	p->sm_sl = pi->sm_sl;
	p->lmc = pi->lmc;
	p->state = pi->port_state;
	p->phys_state = pi->phys_state;
	p->width = pi->link_width_active;
	p->speed = pi->link_speed_active;
	p->speed_ext = pi->link_speed_ext_active;
	p->cap_mask = pi->cap_mask;
	p->width_sup = pi->link_width_supported;
	p->width_en = pi->link_width_enabled;
	p->speed_sup = pi->link_speed_supported;
	p->speed_en = pi->link_speed_enabled;
	p->speed_ext_sup = pi->link_speed_ext_supported;
}

static void node_id_from(struct ib_node_id *n, const struct mad_node_info *ni)
{
	n->node_guid = ni->node_guid;
	n->sys_image_guid = ni->sys_image_guid;
	n->port_guid = ni->port_guid;
	n->node_type = ni->node_type;
	n->num_ports = ni->num_ports;
	n->vendor_id = ni->vendor_id;
	n->device_id = ni->device_id;
	n->revision = ni->revision;
}

/* The counters of a PMA of one kind (extended set or not, IETF part or not, extended only), defined from scratch. */
static size_t pma_define_kind(struct fab_counter *c, bool ext, bool ietf, bool ext_only)
{
	size_t n = IB_PMA_SLOTS, k = 0;

	/* unicast/multicast exist only in the IETF-compatible extended set. */
	if (!ietf)
		n -= 4;
	for (size_t i = 0; i < n && i < IB_MAX_PMA_COUNTERS; i++, k++) {
		counter_define(&c[k], ib_pma_names[i], COUNTER_SRC_PMA, ext);
		/* Without PortCountersExtended, data and packets are PortCounters' 32 bits. */
		if (!ext && (c[k].kind == COUNTER_KIND_DATA || c[k].kind == COUNTER_KIND_PACKETS))
			c[k].bits = 32;
		/* The additional PortCountersExtended counters are all 64 bits. */
		if (ext_only)
			c[k].bits = 64;
	}
	return k;
}

void mad_port_pma_define(struct ib_pma *pma)
{
	/*
	 * Each kind's definitions made once per thread and copied: a sweep
	 * defines the counters of every port of the fabric (28,000 on the
	 * 10k tree), each a name looked up in the counter tables.
	 */
	static __thread struct { bool made; size_t n; struct fab_counter c[IB_MAX_PMA_COUNTERS]; } kinds[8];
	bool ietf = pma->cap_mask & MAD_PMA_CAP_EXT_WIDTH;
	unsigned int k;

	pma->ext = pma->cap_mask & (MAD_PMA_CAP_EXT_WIDTH | MAD_PMA_CAP_EXT_WIDTH_NOIETF);
	pma->ext_only = pma->ext && (pma->cap_mask2 & MAD_PMA_CAP2_ADDL_PORT_CTRS_EXT);
	k = (unsigned int)pma->ext | (unsigned int)ietf << 1 | (unsigned int)pma->ext_only << 2;
	if (!kinds[k].made) {
		kinds[k].n = pma_define_kind(kinds[k].c, pma->ext, ietf, pma->ext_only);
		kinds[k].made = true;
	}
	memcpy(pma->c, kinds[k].c, kinds[k].n * sizeof(pma->c[0]));
	pma->n = kinds[k].n;
}

void mad_port_pma_define_from(struct ib_pma *pma, const struct mad_class_port_info *cpi, bool shared)
{
	pma->cpi_known = cpi != NULL;
	pma->cpi_shared = cpi && shared;
	pma->cap_mask = cpi ? cpi->cap_mask : 0;
	pma->cap_mask2 = cpi ? cpi->cap_mask2 : 0;
	pma->ext_failed = false;
	mad_port_pma_define(pma);
}

/*
 * The counter called name, looked for first at *hint (where the one after
 * the last found is): a reply lists its counters in the order they were
 * defined, so a reply costs one comparison a counter, not a scan each.
 */
static struct fab_counter *pma_find(struct ib_pma *pma, const char *name, size_t *hint)
{
	if (*hint < pma->n && !strcmp(pma->c[*hint].name, name))
		return &pma->c[(*hint)++];
	for (size_t i = 0; i < pma->n; i++)
		if (!strcmp(pma->c[i].name, name)) {
			*hint = i + 1;
			return &pma->c[i];
		}
	return NULL;
}

/* Take the values of one reply; 'only_errors' leaves data/packets to the extended reply. */
static void pma_take(struct ib_pma *pma, const struct mad_pma_counters *v, bool only_errors)
{
	size_t hint = 0;

	for (unsigned int i = 0; i < v->n; i++) {
		struct fab_counter *c = pma_find(pma, v->v[i].name, &hint);

		if (!c)
			continue;
		if (only_errors && (c->kind == COUNTER_KIND_DATA || c->kind == COUNTER_KIND_PACKETS))
			continue;
		counter_sample_value(c, true, v->v[i].value);
	}
}

/* A PMA sample failed: its counters become unknown for this sample. */
static void pma_unknown(struct ib_pma *pma, bool ext_part)
{
	for (size_t i = 0; i < pma->n; i++) {
		struct fab_counter *c = &pma->c[i];
		bool is_ext = c->kind == COUNTER_KIND_DATA || c->kind == COUNTER_KIND_PACKETS;

		if (!pma->ext || pma->ext_only || is_ext == ext_part)
			counter_sample_value(c, false, 0);
	}
}

/* A PortCounters (ext false) or PortCountersExtended answer in state st (data valid when IBQ_OK). */
static void pma_answer(struct ib_pma *pma, bool ext, enum ib_query_state st, const uint8_t *data, size_t dlen,
		       uint16_t status)
{
	struct mad_pma_counters pc;
	int rc = 0;

	if (st == IBQ_OK && ext)
		rc = pma->ext_only ? mad_decode_port_counters_ext_all(data, dlen, &pc)
				   : mad_decode_port_counters_ext(data, dlen, &pc);
	else if (st == IBQ_OK)
		rc = mad_decode_port_counters(data, dlen, &pc);
	if (rc)
		st = IBQ_BAD_REPLY;
	if (st == IBQ_OK) {
		pma_take(pma, &pc, !ext && pma->ext);
	} else {
		pma_unknown(pma, ext);
		if (ext)
			pma->ext_failed = true;
	}
	/* The reply that says whether the port answered: PortCounters, or the extended one alone. */
	if (ext == pma->ext_only) {
		pma->state = st;
		if (st == IBQ_STATUS)
			pma->status = status;
	}
}

void mad_port_pma_reply(struct ib_pma *pma, bool ext, int status, const uint8_t *mad, size_t len)
{
	enum ib_query_state st = IBQ_OK;
	const uint8_t *data = NULL;
	size_t dlen = 0;
	struct mad_hdr h;
	int rc;

	memset(&h, 0, sizeof(h));
	if (status) {
		st = fail_state(status);
	} else {
		rc = mad_decode_reply_data(mad, len, ext ? MAD_ATTR_PORT_COUNTERS_EXT : MAD_ATTR_PORT_COUNTERS,
					   &data, &dlen, &h);
		if (rc > 0)
			st = IBQ_STATUS;
		else if (rc < 0)
			st = IBQ_BAD_REPLY;
	}
	pma_answer(pma, ext, st, data, dlen, h.status);
}

static void pma_start_sample(struct mad_session *s, struct ib_local_port *lp, struct ib_pma *pma,
			     uint64_t now_ns)
{
	pma->prev_sample_ns = pma->sample_ns;
	pma->sample_ns = now_ns;
	pma->state = IBQ_PENDING;
	if (!pma->ext_only && port_ask(s, lp, PQ_PMA_PC, pma, 0, MAD_ATTR_PORT_COUNTERS, 0, now_ns))
		pma->state = IBQ_ERROR;
	if (pma->ext && port_ask(s, lp, PQ_PMA_PCE, pma, 0, MAD_ATTR_PORT_COUNTERS_EXT, 0, now_ns)) {
		pma->ext_failed = true;
		if (pma->ext_only)
			pma->state = IBQ_ERROR;
	}
}

static void pma_start(struct mad_session *s, struct ib_local_port *lp, struct ib_pma *pma,
		      uint16_t lid, uint8_t port_select, uint64_t now_ns)
{
	pma->lid = lid;
	pma->port_select = port_select;
	pma->state = IBQ_PENDING;
	if (port_ask(s, lp, PQ_PMA_CPI, pma, 0, MAD_ATTR_CLASS_PORT_INFO, 0, now_ns))
		pma->state = IBQ_ERROR;
}

/* The partner's PMA goes by LID, so it needs our port routable (ACTIVE) and its LID. */
static void peer_pma_maybe(struct mad_session *s, struct ib_local_port *lp, uint64_t now_ns)
{
	if (lp->peer_state != IBQ_OK || lp->pi.state != PORT_STATE_ACTIVE || !lp->peer_pi.num || lp->peer_pma.state != IBQ_NONE)
		return;
	if (lp->peer.node_type == 2 && !lp->peer_pi.lid)
		return;		/* waiting for port 0 */
	if (!lp->peer_pi.lid)
		return;
	pma_start(s, lp, &lp->peer_pma, lp->peer_pi.lid, lp->peer_pi.num, now_ns);
}

static void on_self_port(struct mad_session *s, struct ib_local_port *lp, const struct mad_port_info *pi,
			 uint64_t now_ns)
{
	mad_port_id_from(&lp->pi, pi, (uint8_t)lp->port);
	lp->sm.lid = pi->sm_lid;
	lp->sm.sl = pi->sm_sl;
	/* SMInfo by LID works once the SM made the port ACTIVE (or ARMED). */
	if ((pi->port_state == PORT_STATE_ACTIVE || pi->port_state == PORT_STATE_ARMED) && pi->sm_lid) {
		lp->sm.state = IBQ_PENDING;
		if (port_ask(s, lp, PQ_SM_INFO, NULL, 0, MAD_ATTR_SM_INFO, 0, now_ns))
			lp->sm.state = IBQ_ERROR;
	}
	if (pi->port_state == PORT_STATE_ACTIVE && pi->lid)
		pma_start(s, lp, &lp->pma, pi->lid, (uint8_t)lp->port, now_ns);
	/*
	 * Directed routes cross a link that is physically up, even without an
	 * SM. A switch's port 0 has no link: one hop out of it would be a hop
	 * out of whatever port the switch picks, so nothing is asked.
	 */
	if (pi->phys_state == PHYS_STATE_LINK_UP && !ib_local_port_is_management(lp)) {
		lp->peer_state = IBQ_PENDING;
		if (port_ask(s, lp, PQ_PEER_NODE, NULL, 1, MAD_ATTR_NODE_INFO, 0, now_ns))
			lp->peer_state = IBQ_ERROR;
	}
}

static void on_peer_node(struct mad_session *s, struct ib_local_port *lp, const struct mad_node_info *ni,
			 uint64_t now_ns)
{
	node_id_from(&lp->peer, ni);
	lp->peer_pi.num = ni->local_port_num;
	port_ask(s, lp, PQ_PEER_DESC, NULL, 1, MAD_ATTR_NODE_DESC, 0, now_ns);
	port_ask(s, lp, PQ_PEER_PORT, NULL, 1, MAD_ATTR_PORT_INFO, ni->local_port_num, now_ns);
	/* A switch has one LID, on its management port 0. */
	if (ni->node_type == 2)
		port_ask(s, lp, PQ_PEER_PORT0, NULL, 1, MAD_ATTR_PORT_INFO, 0, now_ns);
}

/* Long: one MAD reply handler for every step of a port's query (self, SM, partner, PMA of both ends), so the order of the steps reads in one place. */
/* SMInfo of the port's SM: who it is and what state it says it is in. */
static void sm_answer(struct ib_local_port *lp, enum ib_query_state st, const uint8_t *data, size_t dlen)
{
	struct mad_sm_info si;

	if (st == IBQ_OK && mad_decode_sm_info(data, dlen, &si))
		st = IBQ_BAD_REPLY;
	if (st == IBQ_OK) {
		lp->sm.guid = si.guid;
		lp->sm.priority = si.priority;
		lp->sm.sm_state = si.state;
		lp->sm.act_count = si.act_count;
	}
	lp->sm.state = st;
}

/* PortInfo of the partner's port (or its port 0, for a switch's LID). */
static void peer_port_answer(struct mad_session *s, struct port_q *q, enum ib_query_state st, const uint8_t *data,
			     size_t dlen)
{
	struct ib_local_port *lp = q->lp;
	struct mad_port_info pi;
	uint16_t lid = lp->peer_pi.lid;

	if (st == IBQ_OK && mad_decode_port_info(data, dlen, &pi))
		st = IBQ_BAD_REPLY;
	if (st != IBQ_OK)
		return;
	if (q->kind == PQ_PEER_PORT) {
		mad_port_id_from(&lp->peer_pi, &pi, lp->peer_pi.num);
		/* a switch port's LID field is not its LID: keep port 0's */
		if (lp->peer.node_type == 2)
			lp->peer_pi.lid = lid;
	} else {
		lp->peer_pi.lid = pi.lid;
	}
	peer_pma_maybe(s, lp, q->now_ns);
}

/* The PMA's ClassPortInfo: which counter sets it has; then the first sample. */
static void pma_cpi_answer(struct mad_session *s, struct port_q *q, enum ib_query_state st, const uint8_t *data,
			   size_t dlen)
{
	struct mad_class_port_info cpi;

	if (st == IBQ_OK && mad_decode_class_port_info(data, dlen, &cpi))
		st = IBQ_BAD_REPLY;
	if (st == IBQ_OK) {
		q->pma->cpi_known = true;
		q->pma->cap_mask = cpi.cap_mask;
		q->pma->cap_mask2 = cpi.cap_mask2;
	} else {
		/* No ClassPortInfo: assume the mandatory PortCounters only. */
		q->pma->cap_mask = 0;
		q->pma->cap_mask2 = 0;
	}
	if (st == IBQ_OK || st == IBQ_STATUS) {
		mad_port_pma_define(q->pma);
		pma_start_sample(s, q->lp, q->pma, q->now_ns);
	} else {
		q->pma->state = st;
	}
}

/* NodeInfo of the port itself or of its partner. */
static enum ib_query_state node_answer(enum ib_query_state st, const uint8_t *data, size_t dlen,
				       struct mad_node_info *ni)
{
	return st == IBQ_OK && mad_decode_node_info(data, dlen, ni) ? IBQ_BAD_REPLY : st;
}

static void port_cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len)
{
	struct port_q *q = arg;
	struct ib_local_port *lp = q->lp;
	const uint16_t attrs[] = {
		[PQ_SELF_NODE] = MAD_ATTR_NODE_INFO, [PQ_SELF_DESC] = MAD_ATTR_NODE_DESC,
		[PQ_SELF_PORT] = MAD_ATTR_PORT_INFO, [PQ_SM_INFO] = MAD_ATTR_SM_INFO,
		[PQ_PEER_NODE] = MAD_ATTR_NODE_INFO, [PQ_PEER_DESC] = MAD_ATTR_NODE_DESC,
		[PQ_PEER_PORT] = MAD_ATTR_PORT_INFO, [PQ_PEER_PORT0] = MAD_ATTR_PORT_INFO,
		[PQ_PMA_CPI] = MAD_ATTR_CLASS_PORT_INFO, [PQ_PMA_PC] = MAD_ATTR_PORT_COUNTERS,
		[PQ_PMA_PCE] = MAD_ATTR_PORT_COUNTERS_EXT,
	};
	enum ib_query_state st = IBQ_OK;
	const uint8_t *data = NULL;
	size_t dlen = 0;
	struct mad_hdr h = { 0 };
	struct mad_node_info ni;
	struct mad_port_info pi;
	int rc;

	if (status) {
		st = fail_state(status);
	} else {
		rc = mad_decode_reply_data(mad, len, attrs[q->kind], &data, &dlen, &h);
		if (rc > 0)
			st = IBQ_STATUS;
		else if (rc < 0)
			st = IBQ_BAD_REPLY;
	}

	switch (q->kind) {
	case PQ_SELF_NODE:
		st = node_answer(st, data, dlen, &ni);
		if (st == IBQ_OK)
			node_id_from(&lp->node, &ni);
		lp->self_state = st;
		break;
	case PQ_SELF_DESC:
		if (st == IBQ_OK)
			mad_decode_node_desc(data, dlen, lp->node.desc, sizeof(lp->node.desc));
		break;
	case PQ_SELF_PORT:
		if (st == IBQ_OK && mad_decode_port_info(data, dlen, &pi))
			st = IBQ_BAD_REPLY;
		if (st == IBQ_OK)
			on_self_port(s, lp, &pi, q->now_ns);
		else
			lp->self_state = st;
		break;
	case PQ_SM_INFO:
		sm_answer(lp, st, data, dlen);
		break;
	case PQ_PEER_NODE:
		st = node_answer(st, data, dlen, &ni);
		lp->peer_state = st;
		if (st == IBQ_OK)
			on_peer_node(s, lp, &ni, q->now_ns);
		break;
	case PQ_PEER_DESC:
		if (st == IBQ_OK)
			mad_decode_node_desc(data, dlen, lp->peer.desc, sizeof(lp->peer.desc));
		break;
	case PQ_PEER_PORT:
	case PQ_PEER_PORT0:
		peer_port_answer(s, q, st, data, dlen);
		break;
	case PQ_PMA_CPI:
		pma_cpi_answer(s, q, st, data, dlen);
		break;
	case PQ_PMA_PC:
	case PQ_PMA_PCE:
		pma_answer(q->pma, q->kind == PQ_PMA_PCE, st, data, dlen, h.status);
		break;
	}
	free(q);
}

int mad_port_query(struct mad_session *s, struct ib_local_port *lp, uint64_t now_ns)
{
	int rc;

	lp->self_state = IBQ_PENDING;
	rc = port_ask(s, lp, PQ_SELF_NODE, NULL, 0, MAD_ATTR_NODE_INFO, 0, now_ns);
	if (!rc)
		rc = port_ask(s, lp, PQ_SELF_DESC, NULL, 0, MAD_ATTR_NODE_DESC, 0, now_ns);
	if (!rc)
		rc = port_ask(s, lp, PQ_SELF_PORT, NULL, 0, MAD_ATTR_PORT_INFO, lp->port, now_ns);
	if (rc)
		lp->self_state = IBQ_ERROR;
	return rc;
}

int mad_port_pma_refresh(struct mad_session *s, struct ib_local_port *lp, unsigned int ends, uint64_t now_ns)
{
	struct ib_pma *pmas[2] = { &lp->pma, &lp->peer_pma };
	const unsigned int which[2] = { MAD_PMA_LOCAL, MAD_PMA_PEER };

	for (int i = 0; i < 2; i++) {
		struct ib_pma *pma = pmas[i];

		if (!(ends & which[i]) || !pma->lid || pma->state == IBQ_NONE || pma->state == IBQ_PENDING)
			continue;
		if (!pma->n)
			pma_start(s, lp, pma, pma->lid, pma->port_select, now_ns);
		else
			pma_start_sample(s, lp, pma, now_ns);
	}
	return 0;
}

/* The sysfs files the PMA answers for: the kernel sends a MAD per read of each. */
static bool from_sysfs_pma(const struct fab_counter *c)
{
	return c->source == COUNTER_SRC_COUNTERS || c->source == COUNTER_SRC_COUNTERS_EXT;
}

int mad_port_apply_pma(struct fab_port *p, const struct ib_pma *pma)
{
	struct fab_counter *nc;
	size_t kept = 0, dropped = 0;
	bool any = false;

	if (!pma->n)
		return 0;
	for (size_t i = 0; i < p->ncounters; i++) {
		struct fab_counter *c = &p->counters[i];

		if (from_sysfs_pma(c) || c->source == COUNTER_SRC_PMA) {
			if (c->fd >= 0)
				close(c->fd);
			dropped += c->source != COUNTER_SRC_PMA;
			continue;
		}
		p->counters[kept++] = *c;
	}
	nc = realloc(p->counters, (kept + pma->n) * sizeof(*nc));
	if (!nc) {
		p->ncounters = kept;
		return -ENOMEM;
	}
	p->counters = nc;
	memcpy(&p->counters[kept], pma->c, pma->n * sizeof(*nc));
	p->ncounters = kept + pma->n;
	for (size_t i = 0; i < pma->n; i++) {
		p->counters[kept + i].fd = -1;
		p->counters[kept + i].reopen = false;
		any |= pma->c[i].known;
	}
	p->has_pma = any;
	/* Rates of the PMA's counters go by the PMA's own sample times. */
	p->sample_ns = pma->sample_ns;
	p->prev_sample_ns = pma->prev_sample_ns;
	return (int)dropped;
}

void mad_port_explain(struct ib_local_port *lp)
{
	const char *what = NULL;
	char buf[sizeof(lp->note)];

	if (lp->self_state != IBQ_OK) {
		snprintf(lp->note, sizeof(lp->note), "the local SMA did not answer (%s)",
			 ib_query_state_str(lp->self_state));
		return;
	}
	if (lp->pi.phys_state != PHYS_STATE_LINK_UP)
		what = "the link is not up (no cable, or the other end is down): no partner, no SM";
	else if (lp->pi.state == PORT_STATE_INIT && !lp->node.node_guid && !lp->node.port_guid)
		/* the same causes, in the same order, as derive/port.c's rules for the sysfs side */
		what = "port INIT with the link up and an all-zero GUID: a virtual function the SM cannot address "
		       "(the PF's admin sets its GUIDs: ip link set PF vf N node_guid/port_guid; opensm needs "
		       "virtualization on)";
	else if (lp->pi.state == PORT_STATE_INIT && fab_lid_is_unicast(lp->pi.sm_lid)) {
		snprintf(lp->note, sizeof(lp->note), "port INIT with the link up, naming SM LID %u: that subnet manager "
			 "has not made it ACTIVE: it is still sweeping, failed on this port, or no longer runs (a port "
			 "keeps the last SM's LID). Check it (sminfo) and its log, or start one (opensm)",
			 (unsigned int)lp->pi.sm_lid);
		return;
	} else if (lp->pi.state == PORT_STATE_INIT)
		what = "port INIT with the link up: no subnet manager has configured it. "
		       "Start one on this subnet (opensm, or enable the switch's SM); "
		       "until then there is no LID, no SM LID and no LID-routed traffic (PMA, IPoIB)";
	else if (lp->pi.state == PORT_STATE_ARMED)
		what = "port ARMED: the SM is still bringing it up";
	else if (!lp->sm.lid)
		what = "the port names no SM (SM LID 0)";
	else if (lp->sm.state == IBQ_TIMEOUT)
		what = "the SM LID did not answer SMInfo: the SM may have died or moved";
	if (what) {
		snprintf(lp->note, sizeof(lp->note), "%s", what);
		return;
	}
	buf[0] = '\0';
	if (lp->pma.state != IBQ_OK && lp->pma.state != IBQ_NONE)
		snprintf(buf, sizeof(buf), "local PMA: %s", ib_query_state_str(lp->pma.state));
	else if (lp->peer_pma.state != IBQ_OK && lp->peer_pma.state != IBQ_NONE)
		snprintf(buf, sizeof(buf), "partner PMA: %s", ib_query_state_str(lp->peer_pma.state));
	snprintf(lp->note, sizeof(lp->note), "%s", buf);
}

void mad_port_psc_reply(struct ib_pma *pma, int status, const uint8_t *mad, size_t len)
{
	const uint8_t *data;
	struct mad_hdr h;
	size_t dlen;
	int rc = status ? status : mad_decode_reply_data(mad, len, MAD_ATTR_PORT_SAMPLES_CONTROL, &data, &dlen, &h);

	pma->tick = 0;
	if (status)
		pma->tick_state = status == -ETIMEDOUT ? IBQ_TIMEOUT : IBQ_ERROR;
	else if (rc > 0)
		pma->tick_state = IBQ_STATUS;
	else if (rc < 0 || mad_decode_psc_tick(data, dlen, &pma->tick))
		pma->tick_state = IBQ_BAD_REPLY;
	else
		pma->tick_state = IBQ_OK;
}
