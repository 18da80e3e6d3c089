// SPDX-License-Identifier: GPL-2.0-or-later
/* The subnet as a record body and back (see subnet.h and doc/recording.md): nodes with their ports, links, lost links. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record/mad.h"
#include "record/schema.h"
#include "record/subnet.h"

/* Field numbers of the subnet message and its parts (doc/recording.md). */
enum {
	SN_REASON = 1, SN_STATUS = 2, SN_NEWS = 3, SN_SWEEPS = 4, SN_TRUNCATED = 5,
	SN_NODE = 10, SN_LINK = 11, SN_LOST = 12,
	NODE_ID = 1, NODE_LID = 2, NODE_PORT = 3,
	PORT_NUM = 1, PORT_PI = 2, PORT_KNOWN = 3, PORT_LINKED = 4, PORT_PEER = 5, PORT_PEER_PORT = 6, PORT_PMA = 7,
	LINK_A = 1, LINK_B = 2, LINK_A_PORT = 3, LINK_B_PORT = 4,
	LOST_A = 1, LOST_B = 2, LOST_A_PORT = 3, LOST_B_PORT = 4, LOST_A_LID = 5, LOST_B_LID = 6, LOST_WHY = 7,
};

static void encode_node(struct rec_buf *b, const struct ib_fnode *n)
{
	size_t m = rec_put_begin(b, SN_NODE);

	rec_put_msg(b, NODE_ID, &rec_ib_node_table, &n->id);
	rec_put_uint(b, NODE_LID, n->lid);
	for (unsigned int p = 0; n->ports && p <= n->id.num_ports; p++) {
		const struct ib_fport *fp = &n->ports[p];
		size_t k;

		if (!fp->known && !fp->linked && !fp->pma)
			continue;
		k = rec_put_begin(b, NODE_PORT);
		rec_put_uint(b, PORT_NUM, p);
		rec_put_msg(b, PORT_PI, &rec_ib_port_table, &fp->pi);
		rec_put_uint(b, PORT_KNOWN, fp->known);
		rec_put_uint(b, PORT_LINKED, fp->linked);
		if (fp->linked) {
			rec_put_uint(b, PORT_PEER, fp->peer);
			rec_put_uint(b, PORT_PEER_PORT, fp->peer_port);
		}
		if (fp->pma)
			rec_mad_encode_pma(b, PORT_PMA, fp->pma);
		rec_put_end(b, k);
	}
	rec_put_end(b, m);
}

void rec_subnet_encode(struct rec_buf *b, const struct rec_subnet *s)
{
	if (s->reason[0])
		rec_put_str(b, SN_REASON, s->reason);
	if (s->status[0])
		rec_put_str(b, SN_STATUS, s->status);
	rec_put_uint(b, SN_NEWS, s->news);
	rec_put_uint(b, SN_SWEEPS, s->sweeps);
	rec_put_uint(b, SN_TRUNCATED, s->f.truncated_nodes);
	for (size_t i = 0; i < s->f.nnodes; i++)
		encode_node(b, &s->f.nodes[i]);
	for (size_t i = 0; i < s->f.nlinks; i++) {
		const struct ib_link *l = &s->f.links[i];
		size_t k = rec_put_begin(b, SN_LINK);

		rec_put_uint(b, LINK_A, l->a);
		rec_put_uint(b, LINK_B, l->b);
		rec_put_uint(b, LINK_A_PORT, l->a_port);
		rec_put_uint(b, LINK_B_PORT, l->b_port);
		rec_put_end(b, k);
	}
	for (size_t i = 0; i < s->nlost; i++) {
		const struct fabric_lost_link *l = &s->lost[i];
		size_t k = rec_put_begin(b, SN_LOST);

		rec_put_msg(b, LOST_A, &rec_ib_node_table, &l->a);
		rec_put_msg(b, LOST_B, &rec_ib_node_table, &l->b);
		rec_put_uint(b, LOST_A_PORT, l->a_port);
		rec_put_uint(b, LOST_B_PORT, l->b_port);
		rec_put_uint(b, LOST_A_LID, l->a_lid);
		rec_put_uint(b, LOST_B_LID, l->b_lid);
		rec_put_str(b, LOST_WHY, l->why);
		rec_put_end(b, k);
	}
}

/* Decoding: what is allocated so far, against REC_SUBNET_BUDGET. */
struct dec {
	struct rec_subnet *s;
	size_t used;
};

static bool budget(struct dec *d, struct rec_cur *c, size_t more)
{
	if (more > REC_SUBNET_BUDGET - d->used) {
		rec_fail(c, c->p, "at most 256 MiB of decoded subnet in one record (the reader's budget)");
		return false;
	}
	d->used += more;
	return true;
}

/* One port message into fp (its PMA allocated); *num gets its number. */
static void decode_port(struct dec *d, struct rec_cur *c, struct ib_fport *fp, unsigned int *num)
{
	struct rec_field f;

	while (rec_next(c, &f)) {
		switch (f.num) {
		case PORT_NUM: *num = f.u > 255 ? 256 : (unsigned int)f.u; break;
		case PORT_PI: rec_decode_msg(c, &f, &rec_ib_port_table, &fp->pi); break;
		case PORT_KNOWN: fp->known = f.u != 0; break;
		case PORT_LINKED: fp->linked = f.u != 0; break;
		case PORT_PEER: fp->peer = f.u > SIZE_MAX ? SIZE_MAX : (size_t)f.u; break;
		case PORT_PEER_PORT: fp->peer_port = f.u > 255 ? 255 : (uint8_t)f.u; break;
		case PORT_PMA:
			if (fp->pma || !budget(d, c, sizeof(*fp->pma)))
				break;
			fp->pma = calloc(1, sizeof(*fp->pma));
			if (!fp->pma) {
				rec_fail(c, c->p, "memory for a PMA");
				break;
			}
			rec_mad_decode_pma(c, &f, fp->pma);
			break;
		}
	}
}

/* The node's id, and the highest port number among its port messages (0 when it has none), in one pass. */
static unsigned int node_id(struct rec_cur *c, struct ib_fnode *n)
{
	struct rec_cur k = *c, sub;
	struct rec_field f, g;
	unsigned int top = 0;

	while (rec_next(&k, &f)) {
		if (f.num == NODE_ID) {
			rec_decode_msg(&k, &f, &rec_ib_node_table, &n->id);
			continue;
		}
		if (f.num != NODE_PORT || f.wire != REC_WIRE_BYTES)
			continue;
		rec_cur_sub(&sub, &k, &f);
		while (rec_next(&sub, &g))
			if (g.num == PORT_NUM && g.u > top)
				top = g.u > 255 ? 256 : (unsigned int)g.u;
	}
	if (k.err)
		rec_fail(c, k.base + k.err_off, k.err);
	return top;
}

static void decode_node(struct dec *d, struct rec_cur *c, struct ib_fnode *n)
{
	struct rec_cur sub;
	struct rec_field f;
	/* the node's id first: its port count bounds the ports */
	unsigned int top = node_id(c, n);

	if (c->err)
		return;
	/*
	 * The ports are those the record holds, up to the highest one: a port
	 * written with nothing in it is not written at all, so a node that
	 * claims 255 ports in 7 bytes gets one, not 16 KiB of them. A replay
	 * shows a node's ports up to the last one recorded.
	 */
	if (top > n->id.num_ports) {
		rec_fail(c, c->p, "a port number the node has, once");
		return;
	}
	n->id.num_ports = (uint8_t)top;
	if (!budget(d, c, (n->id.num_ports + 1u) * sizeof(*n->ports)))
		return;
	n->ports = calloc(n->id.num_ports + 1u, sizeof(*n->ports));
	if (!n->ports) {
		rec_fail(c, c->p, "memory for a node's ports");
		return;
	}
	while (rec_next(c, &f)) {
		struct ib_fport fp = { 0 };
		unsigned int num = 256;

		if (f.num == NODE_LID) {
			n->lid = (uint16_t)f.u;
			continue;
		}
		if (f.num != NODE_PORT)
			continue;
		if (f.wire != REC_WIRE_BYTES) {
			rec_fail(c, c->p, "a port message");
			return;
		}
		rec_cur_sub(&sub, c, &f);
		decode_port(d, &sub, &fp, &num);
		if (!sub.err && (num > n->id.num_ports || n->ports[num].known || n->ports[num].pma))
			rec_fail(&sub, sub.p, "a port number the node has, once");
		if (sub.err) {
			free(fp.pma);
			rec_fail(c, sub.base + sub.err_off, sub.err);
			return;
		}
		n->ports[num] = fp;
	}
}

static void decode_link(struct rec_cur *c, struct ib_link *l)
{
	struct rec_field f;

	while (rec_next(c, &f)) {
		uint64_t v = f.u;

		switch (f.num) {
		case LINK_A: l->a = v > SIZE_MAX ? SIZE_MAX : (size_t)v; break;
		case LINK_B: l->b = v > SIZE_MAX ? SIZE_MAX : (size_t)v; break;
		case LINK_A_PORT: l->a_port = v > 255 ? 255 : (uint8_t)v; break;
		case LINK_B_PORT: l->b_port = v > 255 ? 255 : (uint8_t)v; break;
		}
	}
}

static void decode_lost(struct rec_cur *c, struct fabric_lost_link *l)
{
	struct rec_field f;

	while (rec_next(c, &f)) {
		switch (f.num) {
		case LOST_A: rec_decode_msg(c, &f, &rec_ib_node_table, &l->a); break;
		case LOST_B: rec_decode_msg(c, &f, &rec_ib_node_table, &l->b); break;
		case LOST_A_PORT: l->a_port = (uint8_t)f.u; break;
		case LOST_B_PORT: l->b_port = (uint8_t)f.u; break;
		case LOST_A_LID: l->a_lid = (uint16_t)f.u; break;
		case LOST_B_LID: l->b_lid = (uint16_t)f.u; break;
		case LOST_WHY: rec_field_str(&f, l->why, sizeof(l->why)); break;
		}
	}
}

/* Every port's peer and every link's ends name a node and a port of this record. */
static bool refs_ok(const struct ib_fabric *f)
{
	for (size_t i = 0; i < f->nlinks; i++) {
		const struct ib_link *l = &f->links[i];

		if (l->a >= f->nnodes || l->b >= f->nnodes || !l->a_port || !l->b_port ||
		    l->a_port > f->nodes[l->a].id.num_ports || l->b_port > f->nodes[l->b].id.num_ports)
			return false;
	}
	for (size_t i = 0; i < f->nnodes; i++)
		for (unsigned int p = 0; p <= f->nodes[i].id.num_ports; p++) {
			const struct ib_fport *fp = &f->nodes[i].ports[p];

			if (fp->linked && (fp->peer >= f->nnodes || fp->peer_port > f->nodes[fp->peer].id.num_ports))
				return false;
		}
	return true;
}

/* How many nodes, links and lost links the message holds, and the arrays for them (within the budget). */
static int decode_alloc(struct dec *d, struct rec_cur *c, size_t *nn, size_t *nl, size_t *nlost)
{
	struct rec_cur k = *c;
	struct rec_field f;

	*nn = *nl = *nlost = 0;
	while (rec_next(&k, &f)) {
		*nn += f.num == SN_NODE;
		*nl += f.num == SN_LINK;
		*nlost += f.num == SN_LOST;
	}
	if (*nn > REC_SUBNET_BUDGET / sizeof(struct ib_fnode) || *nl > REC_SUBNET_BUDGET / sizeof(struct ib_link) ||
	    *nlost > REC_SUBNET_BUDGET / sizeof(struct fabric_lost_link) ||
	    !budget(d, c, *nn * sizeof(struct ib_fnode) + *nl * sizeof(struct ib_link) +
			  *nlost * sizeof(struct fabric_lost_link)))
		return -EINVAL;
	d->s->f.nodes = *nn ? calloc(*nn, sizeof(struct ib_fnode)) : NULL;
	d->s->f.links = *nl ? calloc(*nl, sizeof(struct ib_link)) : NULL;
	d->s->lost = *nlost ? calloc(*nlost, sizeof(struct fabric_lost_link)) : NULL;
	if ((*nn && !d->s->f.nodes) || (*nl && !d->s->f.links) || (*nlost && !d->s->lost))
		return -ENOMEM;
	return 0;
}

int rec_subnet_decode(struct rec_cur *c, struct rec_subnet *s)
{
	struct dec d = { .s = s };
	struct rec_field f;
	size_t nn, nl, nlost;
	int rc = decode_alloc(&d, c, &nn, &nl, &nlost);

	if (rc) {
		rec_subnet_free(s);
		return rc;
	}
	while (!c->err && rec_next(c, &f)) {
		struct rec_cur sub;

		switch (f.num) {
		case SN_REASON: rec_field_str(&f, s->reason, sizeof(s->reason)); continue;
		case SN_STATUS: rec_field_str(&f, s->status, sizeof(s->status)); continue;
		case SN_NEWS: s->news = f.u == REC_SUBNET_SWEPT ? REC_SUBNET_SWEPT : f.u == REC_SUBNET_SAMPLED ?
				       REC_SUBNET_SAMPLED : REC_SUBNET_STATE; continue;
		case SN_SWEEPS: s->sweeps = f.u; continue;
		case SN_TRUNCATED: s->f.truncated_nodes = f.u != 0; continue;
		case SN_NODE: case SN_LINK: case SN_LOST: break;
		default: continue;
		}
		if (f.wire != REC_WIRE_BYTES) {
			rec_fail(c, c->p, "a node, link or lost link message");
			break;
		}
		rec_cur_sub(&sub, c, &f);
		if (f.num == SN_NODE && s->f.nnodes < nn)
			decode_node(&d, &sub, &s->f.nodes[s->f.nnodes++]);
		else if (f.num == SN_LINK && s->f.nlinks < nl)
			decode_link(&sub, &s->f.links[s->f.nlinks++]);
		else if (f.num == SN_LOST && s->nlost < nlost)
			decode_lost(&sub, &s->lost[s->nlost++]);
		if (sub.err)
			rec_fail(c, sub.base + sub.err_off, sub.err);
	}
	if (!c->err && !refs_ok(&s->f))
		rec_fail(c, c->p, "links and ports naming nodes and ports of the record");
	if (c->err) {
		rec_subnet_free(s);
		return -EINVAL;
	}
	return 0;
}

void rec_subnet_free(struct rec_subnet *s)
{
	ib_fabric_free(&s->f);
	free(s->lost);
	memset(s, 0, sizeof(*s));
}
