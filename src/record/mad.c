// SPDX-License-Identifier: GPL-2.0-or-later
/* The MAD view as a record body and back (see mad.h and doc/recording.md). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record/mad.h"
#include "record/schema.h"

/* Field numbers of the MAD view message and its parts (doc/recording.md). */
enum {
	MAD_REASON = 1, MAD_NEWS = 2, MAD_PORT = 3,
	PORT_NODE = 10, PORT_PI = 11, PORT_SM = 12, PORT_PEER = 13, PORT_PEER_PI = 14, PORT_PMA = 15,
	PORT_PEER_PMA = 16, PORT_CHANGED = 17,
	PMA_COUNTER = 20,
	COUNTER_STATE = 10,
};

void rec_mad_encode_pma(struct rec_buf *b, unsigned int field, const struct ib_pma *pma)
{
	size_t m = rec_put_begin(b, field);

	rec_encode(b, &rec_ib_pma_table, pma);
	for (size_t i = 0; i < pma->n && i < IB_MAX_PMA_COUNTERS; i++) {
		size_t k = rec_put_begin(b, PMA_COUNTER);

		rec_encode(b, &rec_counter_table, &pma->c[i]);
		rec_encode_counter_state(b, COUNTER_STATE, &pma->c[i]);
		rec_put_end(b, k);
	}
	rec_put_end(b, m);
}

void rec_mad_encode(struct rec_buf *b, const struct rec_mad *m)
{
	if (m->reason[0])
		rec_put_str(b, MAD_REASON, m->reason);
	if (m->news)
		rec_put_uint(b, MAD_NEWS, m->news);
	for (size_t i = 0; i < m->nports; i++) {
		const struct ib_local_port *lp = &m->ports[i];
		size_t k = rec_put_begin(b, MAD_PORT);

		rec_encode(b, &rec_mad_port_table, lp);
		rec_put_msg(b, PORT_NODE, &rec_ib_node_table, &lp->node);
		rec_put_msg(b, PORT_PI, &rec_ib_port_table, &lp->pi);
		rec_put_msg(b, PORT_SM, &rec_ib_sm_table, &lp->sm);
		rec_put_msg(b, PORT_PEER, &rec_ib_node_table, &lp->peer);
		rec_put_msg(b, PORT_PEER_PI, &rec_ib_port_table, &lp->peer_pi);
		rec_mad_encode_pma(b, PORT_PMA, &lp->pma);
		rec_mad_encode_pma(b, PORT_PEER_PMA, &lp->peer_pma);
		if (m->changed && m->changed[i])
			rec_put_uint(b, PORT_CHANGED, 1);
		rec_put_end(b, k);
	}
}

void rec_mad_decode_pma(struct rec_cur *c, const struct rec_field *f, struct ib_pma *pma)
{
	struct rec_cur sub;
	struct rec_field g;

	if (f->wire != REC_WIRE_BYTES) {
		rec_fail(c, c->p, "a PMA message");
		return;
	}
	rec_cur_sub(&sub, c, f);
	while (rec_next(&sub, &g)) {
		struct rec_cur k;
		struct rec_field h;
		struct fab_counter *ctr;

		if (rec_decode_field(&sub, &rec_ib_pma_table, pma, &g) || g.num != PMA_COUNTER)
			continue;
		if (g.wire != REC_WIRE_BYTES) {
			rec_fail(&sub, sub.p, "a PMA counter message");
			break;
		}
		if (pma->n >= IB_MAX_PMA_COUNTERS)
			continue;	/* more than a PMA has: the rest is not this version's */
		ctr = &pma->c[pma->n++];
		ctr->fd = -1;
		rec_cur_sub(&k, &sub, &g);
		while (rec_next(&k, &h)) {
			if (rec_decode_field(&k, &rec_counter_table, ctr, &h))
				continue;
			if (h.num == COUNTER_STATE)
				rec_decode_counter_state(&k, &h, ctr);
		}
		if (k.err)
			rec_fail(&sub, k.base + k.err_off, k.err);
	}
	if (sub.err)
		rec_fail(c, sub.base + sub.err_off, sub.err);
}

static void decode_port(struct rec_cur *c, struct ib_local_port *lp, bool *changed)
{
	struct rec_field f;

	while (rec_next(c, &f)) {
		if (rec_decode_field(c, &rec_mad_port_table, lp, &f))
			continue;
		switch (f.num) {
		case PORT_NODE: rec_decode_msg(c, &f, &rec_ib_node_table, &lp->node); break;
		case PORT_PI: rec_decode_msg(c, &f, &rec_ib_port_table, &lp->pi); break;
		case PORT_SM: rec_decode_msg(c, &f, &rec_ib_sm_table, &lp->sm); break;
		case PORT_PEER: rec_decode_msg(c, &f, &rec_ib_node_table, &lp->peer); break;
		case PORT_PEER_PI: rec_decode_msg(c, &f, &rec_ib_port_table, &lp->peer_pi); break;
		case PORT_PMA: rec_mad_decode_pma(c, &f, &lp->pma); break;
		case PORT_PEER_PMA: rec_mad_decode_pma(c, &f, &lp->peer_pma); break;
		case PORT_CHANGED: *changed = f.u != 0; break;
		}
	}
}

int rec_mad_decode(struct rec_cur *c, struct rec_mad *m)
{
	struct rec_cur k = *c;
	struct rec_field f;
	size_t n = 0;

	while (rec_next(&k, &f))
		n += f.num == MAD_PORT;
	/* a port is ~9.5 KiB decoded and 2 bytes in a file: the count is believed within the budget */
	if (n > REC_DECODE_BUDGET / sizeof(*m->ports)) {
		rec_fail(c, c->p, REC_DECODE_BUDGET_TEXT);
		return -EINVAL;
	}
	if (n) {
		m->ports = calloc(n, sizeof(*m->ports));
		m->changed = calloc(n, sizeof(*m->changed));
		if (!m->ports || !m->changed) {
			rec_mad_free(m);
			return -ENOMEM;
		}
	}
	while (rec_next(c, &f)) {
		struct rec_cur sub;

		switch (f.num) {
		case MAD_REASON:
			rec_field_str(&f, m->reason, sizeof(m->reason));
			break;
		case MAD_NEWS:
			m->news = f.u == REC_MAD_SAMPLED ? REC_MAD_SAMPLED : f.u == REC_MAD_REQUERIED ?
				  REC_MAD_REQUERIED : REC_MAD_OPENED;
			break;
		case MAD_PORT:
			if (f.wire != REC_WIRE_BYTES || m->nports >= n) {
				rec_fail(c, c->p, "a local port message");
				break;
			}
			rec_cur_sub(&sub, c, &f);
			decode_port(&sub, &m->ports[m->nports], &m->changed[m->nports]);
			m->nports++;
			if (sub.err)
				rec_fail(c, sub.base + sub.err_off, sub.err);
			break;
		}
	}
	return c->err ? -EINVAL : 0;
}

void rec_mad_free(struct rec_mad *m)
{
	free(m->ports);
	free(m->changed);
	memset(m, 0, sizeof(*m));
}
