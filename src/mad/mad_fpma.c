// SPDX-License-Identifier: GPL-2.0-or-later
/* The PMA counters of a swept fabric's ports, asked node by node (mad/mad_fpma.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "derive/counters.h"
#include "derive/mad_decode.h"
#include "mad/mad_fpma.h"
#include "mad/mad_port.h"
#include "util.h"

/*
 * FQ_CPI_OWN: a node's own ClassPortInfo after it refused its model's.
 * FQ_PSC is asked once a node and is not pending: a PMA without it
 * (ibsim) never holds a round up.
 */
enum fpma_kind { FQ_CPI, FQ_CPI_OWN, FQ_PC, FQ_PCE, FQ_PSC };

/* One request; freed by its callback. */
struct fpma_q {
	struct mad_fpma *e;
	uint32_t gen;
	enum fpma_kind kind;
	size_t node;
	uint8_t port;
};

void mad_fpma_init(struct mad_fpma *e, struct ib_fabric *f)
{
	memset(e, 0, sizeof(*e));
	e->f = f;
}

void mad_fpma_forget(struct mad_fpma *e)
{
	mad_cpi_drop_waiting(&e->cpi);		/* node indices of the old sweep */
	e->gen++;
}

void mad_fpma_free(struct mad_fpma *e)
{
	mad_cpi_free(&e->cpi);
}

static void fpma_cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len);

static bool fpma_ask(struct mad_fpma *e, struct mad_session *s, enum fpma_kind kind, size_t node, uint8_t port,
		     uint16_t lid)
{
	static const uint16_t attrs[] = {
		[FQ_CPI] = MAD_ATTR_CLASS_PORT_INFO, [FQ_CPI_OWN] = MAD_ATTR_CLASS_PORT_INFO,
		[FQ_PC] = MAD_ATTR_PORT_COUNTERS, [FQ_PCE] = MAD_ATTR_PORT_COUNTERS_EXT,
		[FQ_PSC] = MAD_ATTR_PORT_SAMPLES_CONTROL,
	};
	struct fpma_q *q = calloc(1, sizeof(*q));

	if (!q)
		return false;
	*q = (struct fpma_q){ .e = e, .gen = e->gen, .kind = kind, .node = node, .port = port };
	if (mad_get_pma(s, lid, attrs[kind], port, fpma_cb, q)) {
		free(q);
		return false;
	}
	if (kind != FQ_PSC)
		e->pending++;
	return true;
}

/* The LID a node's port p answers PMA MADs at: a switch's port 0, a CA's own port. */
static uint16_t fpma_lid(const struct ib_fnode *n, unsigned int p)
{
	if (n->id.node_type == 2)
		return n->lid;
	return p <= n->id.num_ports && n->ports[p].known ? n->ports[p].pi.lid : 0;
}

/* A port whose counters are worth asking: physically up, with a LID to ask by. */
static bool fpma_wanted(const struct ib_fnode *n, unsigned int p)
{
	const struct ib_fport *fp = &n->ports[p];

	return p > 0 && fp->known && fp->pi.phys_state == PHYS_STATE_LINK_UP && fpma_lid(n, p);
}

/* The LID a node's PMA is asked ClassPortInfo at: a switch's, or a CA's first wanted port's (0: none). */
static uint16_t cpi_lid(const struct ib_fnode *n)
{
	uint16_t lid = n->id.node_type == 2 ? n->lid : 0;

	for (unsigned int p = 1; !lid && p <= n->id.num_ports; p++)
		if (fpma_wanted(n, p))
			lid = fpma_lid(n, p);
	return lid;
}

static void fpma_sample(struct mad_fpma *e, struct mad_session *s, size_t node, uint8_t p, uint64_t now)
{
	struct ib_pma *pma = e->f->nodes[node].ports[p].pma;

	pma->prev_sample_ns = pma->sample_ns;
	pma->sample_ns = now;
	pma->state = IBQ_PENDING;
	if (!pma->ext_only && !fpma_ask(e, s, FQ_PC, node, p, pma->lid))
		pma->state = IBQ_ERROR;
	if (pma->ext && !fpma_ask(e, s, FQ_PCE, node, p, pma->lid)) {
		pma->ext_failed = true;
		if (pma->ext_only)
			pma->state = IBQ_ERROR;
	}
}

/*
 * ClassPortInfo answered (cpi; NULL with IBQ_STATUS: an error status, so
 * PortCounters only), its model's did (shared), or it did not (st):
 * define the counters of every wanted port and take a sample, or record
 * why not (n stays 0: ClassPortInfo again at the next step).
 */
static void fpma_define(struct mad_fpma *e, struct mad_session *s, size_t node,
			const struct mad_class_port_info *cpi, enum ib_query_state st, bool shared)
{
	struct ib_fnode *n = &e->f->nodes[node];

	for (unsigned int p = 1; p <= n->id.num_ports; p++) {
		struct ib_pma *pma;

		if (!fpma_wanted(n, p))
			continue;
		if (!n->ports[p].pma && !(n->ports[p].pma = calloc(1, sizeof(*pma))))
			return;
		pma = n->ports[p].pma;
		pma->lid = fpma_lid(n, p);
		pma->port_select = (uint8_t)p;
		if (st != IBQ_OK && st != IBQ_STATUS) {
			pma->state = st;
			continue;
		}
		mad_port_pma_define_from(pma, cpi, shared);
		fpma_sample(e, s, node, (uint8_t)p, util_now_ns());
	}
}

/* PortSamplesControl's answer: the tick of every port of the node's PMA. */
static void psc_reply(struct ib_fnode *n, int status, const uint8_t *mad, size_t len)
{
	struct ib_pma got = { 0 };

	mad_port_psc_reply(&got, status, mad, len);
	for (unsigned int p = 1; p <= n->id.num_ports; p++)
		if (n->ports[p].pma) {
			n->ports[p].pma->tick_state = got.tick_state;
			n->ports[p].pma->tick = got.tick;
		}
}

static bool wait_moved(const struct ib_pma *pma)
{
	uint64_t d;

	for (size_t i = 0; i < pma->n; i++)
		if (!strcmp(pma->c[i].name, "port_xmit_wait"))
			return counter_delta(&pma->c[i], &d) && d > 0;
	return false;
}

/*
 * Ask a node's PortSamplesControl once, when a port's PortXmitWait first
 * moves: only then is the tick needed, and a PMA that does not answer it
 * (ibsim) costs a timeout in the session's window, never one per node.
 */
static void psc_ask(struct mad_fpma *e, struct mad_session *s, size_t node)
{
	struct ib_fnode *n = &e->f->nodes[node];

	for (unsigned int p = 1; p <= n->id.num_ports; p++)
		if (n->ports[p].pma && n->ports[p].pma->tick_state == IBQ_NONE && wait_moved(n->ports[p].pma)) {
			if (fpma_ask(e, s, FQ_PSC, node, (uint8_t)p, n->ports[p].pma->lid))
				for (unsigned int k = 1; k <= n->id.num_ports; k++)
					if (n->ports[k].pma)
						n->ports[k].pma->tick_state = IBQ_PENDING;
			return;
		}
}

/* The nodes that waited for their model's ClassPortInfo: they take it, or each asks its own. */
static void cpi_waiters(struct mad_fpma *e, struct mad_session *s, size_t node, const struct mad_class_port_info *cpi)
{
	size_t *w, nw;

	mad_cpi_answer(&e->cpi, &e->f->nodes[node].id, cpi, &w, &nw);
	for (size_t i = 0; i < nw; i++) {
		uint16_t lid = w[i] < e->f->nnodes ? cpi_lid(&e->f->nodes[w[i]]) : 0;

		if (!lid)
			continue;
		if (cpi)
			fpma_define(e, s, w[i], cpi, IBQ_OK, true);
		else if (!fpma_ask(e, s, FQ_CPI, w[i], 0, lid))
			fpma_define(e, s, w[i], NULL, IBQ_ERROR, false);
	}
	free(w);
}

/* A ClassPortInfo answer (FQ_CPI: the node's model's too). */
static void cpi_reply(struct mad_fpma *e, struct mad_session *s, const struct fpma_q *q, int status,
		      const uint8_t *mad, size_t len)
{
	struct mad_class_port_info cpi;
	const struct mad_class_port_info *got = NULL;
	enum ib_query_state st = IBQ_OK;
	const uint8_t *data;
	size_t dlen;
	struct mad_hdr h;
	int rc;

	if (status) {
		st = status == -ETIMEDOUT ? IBQ_TIMEOUT : IBQ_ERROR;
	} else {
		rc = mad_decode_reply_data(mad, len, MAD_ATTR_CLASS_PORT_INFO, &data, &dlen, &h);
		if (rc > 0)
			st = IBQ_STATUS;
		else if (rc < 0 || mad_decode_class_port_info(data, dlen, &cpi))
			st = IBQ_BAD_REPLY;
		else
			got = &cpi;
	}
	fpma_define(e, s, q->node, got, st, false);
	if (q->kind == FQ_CPI)
		cpi_waiters(e, s, q->node, got);
}

/*
 * A node that took its model's ClassPortInfo refused PortCountersExtended
 * with a MAD status: it is not what its model promised. Its own
 * ClassPortInfo is asked, once, and its ports redefined from that.
 */
static void cpi_refused(struct mad_fpma *e, struct mad_session *s, size_t node)
{
	struct ib_fnode *n = &e->f->nodes[node];
	uint16_t lid = cpi_lid(n);

	for (unsigned int p = 1; p <= n->id.num_ports; p++)
		if (n->ports[p].pma)
			n->ports[p].pma->cpi_shared = false;
	if (lid)
		fpma_ask(e, s, FQ_CPI_OWN, node, 0, lid);
}

/* A counter answer for port q->port. */
static void pc_reply(struct mad_fpma *e, struct mad_session *s, const struct fpma_q *q, int status,
		     const uint8_t *mad, size_t len)
{
	struct ib_fnode *n = &e->f->nodes[q->node];
	struct ib_pma *pma = q->port <= n->id.num_ports ? n->ports[q->port].pma : NULL;
	bool was_ok;

	if (!pma)
		return;
	if (q->kind == FQ_PCE && mad_cpi_refused(pma, status, mad, len)) {
		cpi_refused(e, s, q->node);
		return;
	}
	was_ok = pma->state == IBQ_PENDING && pma->prev_sample_ns;
	mad_port_pma_reply(pma, q->kind == FQ_PCE, status, mad, len);
	if ((q->kind == FQ_PCE) == pma->ext_only && was_ok && pma->state == IBQ_TIMEOUT)
		e->rescan = true;
}

static void fpma_cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len)
{
	struct fpma_q *q = arg;
	struct mad_fpma *e = q->e;
	/* cancelled: past a deadline or closing, nothing more is asked */
	bool current = q->gen == e->gen && status != -ECANCELED && q->node < e->f->nnodes;

	if (q->kind != FQ_PSC)
		e->pending--;
	if (current) {
		switch (q->kind) {
		case FQ_CPI:
		case FQ_CPI_OWN:
			cpi_reply(e, s, q, status, mad, len);
			break;
		case FQ_PC:
		case FQ_PCE:
			pc_reply(e, s, q, status, mad, len);
			break;
		case FQ_PSC:
			psc_reply(&e->f->nodes[q->node], status, mad, len);
			break;
		}
	}
	free(q);
}

size_t mad_fpma_node(struct mad_fpma *e, struct mad_session *s, size_t node, uint64_t now)
{
	struct ib_fnode *n = &e->f->nodes[node];
	struct mad_class_port_info cpi;
	bool need_cpi = false;
	size_t ports = 0;
	uint16_t lid;

	for (unsigned int p = 1; p <= n->id.num_ports; p++)
		if (fpma_wanted(n, p) && (!n->ports[p].pma || !n->ports[p].pma->n))
			need_cpi = true;
	if (need_cpi) {
		if (!(lid = cpi_lid(n)))
			return 0;
		switch (mad_cpi_look(&e->cpi, &n->id, node, &cpi)) {
		case MAD_CPI_KNOWN:
			fpma_define(e, s, node, &cpi, IBQ_OK, true);
			return 1;
		case MAD_CPI_WAIT:
			return 1;
		case MAD_CPI_ASK:
			if (fpma_ask(e, s, FQ_CPI, node, 0, lid))
				return 1;
			fpma_define(e, s, node, NULL, IBQ_ERROR, false);
			return 0;
		}
	}
	for (unsigned int p = 1; p <= n->id.num_ports; p++) {
		if (!fpma_wanted(n, p) || !n->ports[p].pma)
			continue;
		fpma_sample(e, s, node, (uint8_t)p, now);
		ports++;
	}
	psc_ask(e, s, node);
	return ports;
}

void mad_fpma_tally(const struct mad_fpma *e)
{
	struct ib_fabric *f = e->f;

	f->pma_ports = f->pma_answered = 0;
	for (size_t k = 0; k < f->nnodes; k++)
		for (unsigned int p = 1; f->nodes[k].ports && p <= f->nodes[k].id.num_ports; p++) {
			const struct ib_pma *pma = f->nodes[k].ports[p].pma;

			f->pma_ports += pma != NULL;
			f->pma_answered += pma && pma->state == IBQ_OK;
		}
	f->pma_cpi_shared = e->cpi.shared;
}
