// SPDX-License-Identifier: GPL-2.0-or-later
/* The RoCE chain as a record body and back (see roce.h and doc/recording.md). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "derive/roce_ctr.h"
#include "record/roce.h"
#include "record/schema.h"

/* Field numbers of the chain's message and its parts (doc/recording.md). */
enum {
	ROCE_PORT = 1, ROCE_T_NS = 2,
	PORT_DCB = 10, PORT_ETHTOOL = 11, PORT_CC = 12, PORT_ECN = 13,
	DCB_APP = 20, DCB_PFC_REQUESTS = 21, DCB_PFC_INDICATIONS = 22,
	ETH_PRIO = 20, ETH_PORT = 21,
};

_Static_assert(ROCE_CC_ROLES == ROCE_CC_NROLES, "a port holds a counter of each role");
_Static_assert(ROCE_MAX_APPS == 128 && ROCE_MAX_TRUST == 8 && ROCE_PRIOS == 8,
	       "the limits in rec_roce_decode()'s messages");

static void put_ctr(struct rec_buf *b, unsigned int field, unsigned int id, unsigned int prio,
		    const struct roce_ctr *c)
{
	const struct rec_roce_ctr rc = { .id = id, .prio = prio, .value = c->value };

	/* the message is there for a known counter even when all of it is zero */
	if (c->known)
		rec_put_msg(b, field, &rec_roce_ctr_table, &rc);
}

/* A per-priority array of counts as packed varints, ROCE_PRIOS of them. */
static void put_prios(struct rec_buf *b, unsigned int field, const uint64_t *v)
{
	size_t m;
	bool any = false;

	for (int p = 0; p < ROCE_PRIOS; p++)
		any |= v[p] != 0;
	if (!any)
		return;
	m = rec_put_begin(b, field);
	for (int p = 0; p < ROCE_PRIOS; p++)
		rec_put_varint(b, v[p]);
	rec_put_end(b, m);
}

static void encode_dcb(struct rec_buf *b, const struct roce_dcb *d)
{
	size_t m = rec_put_begin(b, PORT_DCB);

	rec_encode(b, &rec_roce_dcb_table, d);
	for (unsigned int i = 0; i < d->napps && i < ROCE_MAX_APPS; i++)
		rec_put_msg(b, DCB_APP, &rec_roce_app_table, &d->apps[i]);
	put_prios(b, DCB_PFC_REQUESTS, d->pfc_requests);
	put_prios(b, DCB_PFC_INDICATIONS, d->pfc_indications);
	rec_put_end(b, m);
}

static void encode_ethtool(struct rec_buf *b, const struct roce_ethtool *e)
{
	size_t m = rec_put_begin(b, PORT_ETHTOOL);

	rec_encode(b, &rec_roce_ethtool_table, e);
	for (unsigned int k = 0; k < ROCE_PRIO_NCTRS; k++)
		for (unsigned int p = 0; p < ROCE_PRIOS; p++)
			put_ctr(b, ETH_PRIO, k, p, &e->prio[k][p]);
	for (unsigned int k = 0; k < ROCE_PORT_NCTRS; k++)
		put_ctr(b, ETH_PORT, k, 0, &e->port[k]);
	rec_put_end(b, m);
}

static void ecn_get(struct rec_roce_ecn *x, const struct roce_ecn *e)
{
	memset(x, 0, sizeof(*x));
	x->known = e->known;
	for (unsigned int p = 0; p < ROCE_PRIOS; p++) {
		x->np_known |= (unsigned int)e->np_known[p] << p;
		x->np |= (unsigned int)e->np[p] << p;
		x->rp_known |= (unsigned int)e->rp_known[p] << p;
		x->rp |= (unsigned int)e->rp[p] << p;
	}
}

static void ecn_set(struct roce_ecn *e, const struct rec_roce_ecn *x)
{
	e->known = x->known;
	for (unsigned int p = 0; p < ROCE_PRIOS; p++) {
		e->np_known[p] = x->np_known >> p & 1;
		e->np[p] = x->np >> p & 1;
		e->rp_known[p] = x->rp_known >> p & 1;
		e->rp[p] = x->rp >> p & 1;
	}
}

size_t rec_roce_encode(struct rec_buf *b, const struct roce_state *st)
{
	size_t start = b->len, chain;

	for (size_t i = 0; i < st->nports; i++) {
		const struct roce_port *rp = &st->ports[i];
		struct rec_roce_ecn ecn;
		size_t m = rec_put_begin(b, ROCE_PORT);

		rec_encode(b, &rec_roce_port_table, rp);
		encode_dcb(b, &rp->dcb);
		encode_ethtool(b, &rp->eth);
		for (unsigned int r = 0; r < ROCE_CC_ROLES; r++)
			put_ctr(b, PORT_CC, r, 0, &rp->cc[r]);
		ecn_get(&ecn, &rp->ecn);
		rec_put_msg(b, PORT_ECN, &rec_roce_ecn_table, &ecn);
		rec_put_end(b, m);
	}
	chain = b->len - start;
	if (st->t_ns)
		rec_put_uint(b, ROCE_T_NS, st->t_ns);
	return chain;
}

/* A roce_ctr message; false (c failed) when it is not one. */
static bool get_ctr(struct rec_cur *c, const struct rec_field *f, struct rec_roce_ctr *rc)
{
	memset(rc, 0, sizeof(*rc));
	rec_decode_msg(c, f, &rec_roce_ctr_table, rc);
	return !c->err;
}

/* A counter of another version (an id or priority this one does not know) is skipped, as a field would be. */
static void set_ctr(struct roce_ctr *c, const struct rec_roce_ctr *rc)
{
	c->known = true;
	c->value = rc->value;
}

static void get_prios(struct rec_cur *c, const struct rec_field *f, uint64_t *v)
{
	struct rec_cur k;
	uint64_t x;
	int n = 0;

	if (f->wire != REC_WIRE_BYTES) {
		rec_fail(c, c->p, "the 8 priorities' counts, packed");
		return;
	}
	rec_cur_sub(&k, c, f);
	while (k.p < k.end && rec_get_varint(&k, &x)) {
		if (n == ROCE_PRIOS) {
			rec_fail(c, f->bytes, "at most 8 priorities' counts (IEEE 802.1Q has 8)");
			return;
		}
		v[n++] = x;
	}
	if (k.err)
		rec_fail(c, k.base + k.err_off, k.err);
}

static void decode_dcb(struct rec_cur *c, const struct rec_field *f, struct roce_dcb *d)
{
	struct rec_cur sub;
	struct rec_field g;

	if (f->wire != REC_WIRE_BYTES) {
		rec_fail(c, c->p, "a DCB message");
		return;
	}
	rec_cur_sub(&sub, c, f);
	while (rec_next(&sub, &g)) {
		if (rec_decode_field(&sub, &rec_roce_dcb_table, d, &g))
			continue;
		switch (g.num) {
		case DCB_APP:
			if (d->napps == ROCE_MAX_APPS) {
				rec_fail(&sub, g.bytes ? g.bytes : sub.p,
					 "at most 128 APP entries in a port's DCB (the most the collector keeps)");
				break;
			}
			rec_decode_msg(&sub, &g, &rec_roce_app_table, &d->apps[d->napps++]);
			break;
		case DCB_PFC_REQUESTS: get_prios(&sub, &g, d->pfc_requests); break;
		case DCB_PFC_INDICATIONS: get_prios(&sub, &g, d->pfc_indications); break;
		}
	}
	if (!sub.err && d->ntrust > ROCE_MAX_TRUST)
		rec_fail(&sub, sub.p, "at most 8 selectors in a port's DCB trust order (the most the collector keeps)");
	if (sub.err)
		rec_fail(c, sub.base + sub.err_off, sub.err);
}

static void decode_ethtool(struct rec_cur *c, const struct rec_field *f, struct roce_ethtool *e)
{
	struct rec_cur sub;
	struct rec_field g;
	struct rec_roce_ctr rc;

	if (f->wire != REC_WIRE_BYTES) {
		rec_fail(c, c->p, "an ethtool message");
		return;
	}
	rec_cur_sub(&sub, c, f);
	while (rec_next(&sub, &g)) {
		if (rec_decode_field(&sub, &rec_roce_ethtool_table, e, &g))
			continue;
		if (g.num == ETH_PRIO && get_ctr(&sub, &g, &rc) && rc.id < ROCE_PRIO_NCTRS && rc.prio < ROCE_PRIOS)
			set_ctr(&e->prio[rc.id][rc.prio], &rc);
		else if (g.num == ETH_PORT && get_ctr(&sub, &g, &rc) && rc.id < ROCE_PORT_NCTRS)
			set_ctr(&e->port[rc.id], &rc);
	}
	if (sub.err)
		rec_fail(c, sub.base + sub.err_off, sub.err);
}

static void decode_port(struct rec_cur *c, struct roce_port *rp)
{
	struct rec_field f;
	struct rec_roce_ctr rc;
	struct rec_roce_ecn ecn;

	while (rec_next(c, &f)) {
		if (rec_decode_field(c, &rec_roce_port_table, rp, &f))
			continue;
		switch (f.num) {
		case PORT_DCB:
			decode_dcb(c, &f, &rp->dcb);
			break;
		case PORT_ETHTOOL:
			decode_ethtool(c, &f, &rp->eth);
			break;
		case PORT_CC:
			if (get_ctr(c, &f, &rc) && rc.id < ROCE_CC_ROLES)
				set_ctr(&rp->cc[rc.id], &rc);
			break;
		case PORT_ECN:
			memset(&ecn, 0, sizeof(ecn));
			rec_decode_msg(c, &f, &rec_roce_ecn_table, &ecn);
			ecn_set(&rp->ecn, &ecn);
			break;
		}
	}
}

int rec_roce_decode(struct rec_cur *c, struct roce_state *st)
{
	struct rec_cur k = *c;
	struct rec_field f;
	size_t n = 0;

	while (rec_next(&k, &f))
		n += f.num == ROCE_PORT;
	/* a port is 1.9 KB decoded and a few bytes in a file: the count is believed within the budget */
	if (n > REC_DECODE_BUDGET / sizeof(*st->ports)) {
		rec_fail(c, c->p, REC_DECODE_BUDGET_TEXT);
		return -EINVAL;
	}
	if (n) {
		st->ports = calloc(n, sizeof(*st->ports));
		if (!st->ports)
			return -ENOMEM;
	}
	while (rec_next(c, &f)) {
		struct rec_cur sub;

		switch (f.num) {
		case ROCE_PORT:
			if (f.wire != REC_WIRE_BYTES || st->nports >= n) {
				rec_fail(c, c->p, "a RoCE port message");
				break;
			}
			rec_cur_sub(&sub, c, &f);
			decode_port(&sub, &st->ports[st->nports++]);
			if (sub.err)
				rec_fail(c, sub.base + sub.err_off, sub.err);
			break;
		case ROCE_T_NS:
			if (f.wire != REC_WIRE_VARINT)
				rec_fail(c, c->p, "the chain's time, a varint");
			else
				st->t_ns = f.u;
			break;
		}
	}
	if (c->err) {
		roce_state_free(st);
		return -EINVAL;
	}
	return 0;
}
