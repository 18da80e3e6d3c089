// SPDX-License-Identifier: GPL-2.0-or-later
/* From a swept fabric and its PMA samples to one row per link: rates each way, error deltas, trouble first. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "derive/counters.h"
#include "derive/fabric_links.h"
#include "derive/mad_decode.h"

unsigned int fabric_width_lanes(unsigned int width_bits)
{
	unsigned int best = 0;

	for (unsigned int bit = 1; bit <= 0x80; bit <<= 1) {
		unsigned int l = (width_bits & bit) ? mad_link_width_lanes(bit) : 0;

		if (l > best)
			best = l;
	}
	return best;
}

/* The widest width enabled on any known port of the node: what the device really drives. */
static unsigned int node_lanes(const struct ib_fnode *n)
{
	unsigned int best = 0;

	for (unsigned int p = 1; n->ports && p <= n->id.num_ports; p++)
		if (n->ports[p].known && fabric_width_lanes(n->ports[p].pi.width_en) > best)
			best = fabric_width_lanes(n->ports[p].pi.width_en);
	return best;
}

/* The widest supported width of a port, no wider than its node enables anywhere. */
static unsigned int port_lanes(const struct ib_fnode *n, const struct ib_port_id *p)
{
	unsigned int cap = node_lanes(n), best = 0;

	for (unsigned int bit = 1; bit <= 0x80; bit <<= 1) {
		unsigned int l = (p->width_sup & bit) ? mad_link_width_lanes(bit) : 0;

		if (l > best && (!cap || l <= cap))
			best = l;
	}
	return best;
}

static unsigned int top_bit(unsigned int v)
{
	unsigned int b = 0;

	for (unsigned int bit = 1; bit && bit <= v; bit <<= 1)
		if (v & bit)
			b = bit;
	return b;
}

bool fabric_link_degraded(const struct ib_fnode *na, const struct ib_port_id *pa, const struct ib_fnode *nb,
			  const struct ib_port_id *pb, char *why, size_t whysz)
{
	unsigned int la = port_lanes(na, pa), lb = port_lanes(nb, pb), want = la < lb ? la : lb;
	unsigned int act = mad_link_width_lanes(pa->width);
	unsigned int ext = top_bit(pa->speed_ext_sup & pb->speed_ext_sup & 0x1f);
	unsigned int base = top_bit(pa->speed_sup & pb->speed_sup & 0x0f);

	why[0] = '\0';
	if (want && act && act < want) {
		snprintf(why, whysz, "%uX, both ends do %uX", act, want);
		return true;
	}
	/* Extended speeds (FDR and up) when both ends have them, else the base ones. */
	if (ext && pa->speed_ext < ext) {
		snprintf(why, whysz, "%s, both ends do %s", mad_link_speed_str(pa->speed, pa->speed_ext),
			 mad_link_speed_str(0, ext));
		return true;
	}
	if (!ext && base && !pa->speed_ext && pa->speed && pa->speed < base) {
		snprintf(why, whysz, "%s, both ends do %s", mad_link_speed_str(pa->speed, 0), mad_link_speed_str(base, 0));
		return true;
	}
	return false;
}

void fabric_end_from(const struct ib_pma *pma, struct fabric_end *e)
{
	const struct fab_counter *c;
	uint64_t dt, d;

	memset(e, 0, sizeof(*e));
	if (!pma)
		return;
	e->pma = pma->state;
	for (size_t i = 0; i < pma->n; i++)
		e->saturated |= pma->c[i].known && pma->c[i].saturated;
	if (pma->state != IBQ_OK || !pma->prev_sample_ns || pma->sample_ns <= pma->prev_sample_ns)
		return;
	dt = pma->sample_ns - pma->prev_sample_ns;
	c = ib_pma_counter(pma, IB_PMA_XMIT_DATA);
	e->rates = c && counter_bytes_rate(c, dt, &e->xmit_bps);
	c = ib_pma_counter(pma, IB_PMA_RCV_DATA);
	e->rates = e->rates && c && counter_bytes_rate(c, dt, &e->rcv_bps);
	c = ib_pma_counter(pma, IB_PMA_XMIT_WAIT);
	e->wait_known = c && counter_rate(c, dt, &e->wait_per_s);
	for (size_t i = 0; i < pma->n; i++) {
		if (pma->c[i].kind != COUNTER_KIND_ERROR)
			continue;
		if (counter_delta(&pma->c[i], &d))
			e->errors_now += d;
		if (counter_delta_since_start(&pma->c[i], &d))
			e->errors += d;
	}
	c = ib_pma_counter(pma, IB_PMA_LINK_DOWNED);
	if (c && counter_delta(c, &d))
		e->link_downed_now = d;
	if (c && counter_delta_since_start(c, &d))
		e->link_downed = d;
}

void fabric_end_wait(struct fabric_end *e, const struct ib_pma *pma, const struct ib_port_id *pi)
{
	e->wait_how = XWAIT_NO_TICK;
	e->wait_share = 0;
	if (!pma || !e->wait_known)
		return;
	e->wait_how = xmit_wait_share(e->wait_per_s, pma->tick_state == IBQ_OK, pma->tick, pi->speed, pi->speed_ext,
				      &e->wait_share);
	if (e->wait_how == XWAIT_NO_TICK && (pma->tick_state == IBQ_NONE || pma->tick_state == IBQ_PENDING))
		e->wait_how = XWAIT_ASKING;
}

/* The flags and the worst trouble's words of a row whose ends are filled in. */
static void row_judge(const struct ib_fabric *f, struct fabric_link_row *r)
{
	const struct ib_fnode *na = &f->nodes[r->a];
	char deg[64] = "";

	if (r->half) {
		r->flags |= FLINK_NO_ANSWER;
		snprintf(r->why, sizeof(r->why), f->truncated_mem ? "far end not swept (memory bound, --fabric-mem)" :
						 f->truncated_nodes ? "far end not swept (node limit)"
								     : "far end does not answer the sweep");
	} else if (fabric_link_degraded(na, &na->ports[r->a_port].pi, &f->nodes[r->b],
					&f->nodes[r->b].ports[r->b_port].pi, deg, sizeof(deg))) {
		r->flags |= FLINK_DEGRADED;
	}
	if (r->ea.saturated || r->eb.saturated)
		r->flags |= FLINK_SATURATED;
	if (r->ea.errors || r->eb.errors)
		r->flags |= FLINK_ERRORS;
	if (r->ea.pma == IBQ_TIMEOUT || r->eb.pma == IBQ_TIMEOUT)
		r->flags |= FLINK_NO_ANSWER;
	if (r->ea.link_downed || r->eb.link_downed)
		r->flags |= FLINK_DOWN;
	if (r->why[0])
		return;
	if (r->flags & FLINK_DOWN)
		snprintf(r->why, sizeof(r->why), "went down %llu time%s",
			 (unsigned long long)(r->ea.link_downed + r->eb.link_downed),
			 r->ea.link_downed + r->eb.link_downed == 1 ? "" : "s");
	else if (r->flags & FLINK_NO_ANSWER)
		snprintf(r->why, sizeof(r->why), "%s's counters do not answer",
			 r->ea.pma == IBQ_TIMEOUT ? (na->id.desc[0] ? na->id.desc : "an end")
						   : (f->nodes[r->b].id.desc[0] ? f->nodes[r->b].id.desc : "an end"));
	else if (r->flags & FLINK_ERRORS)
		snprintf(r->why, sizeof(r->why), "+%llu errors%s", (unsigned long long)(r->ea.errors + r->eb.errors),
			 r->ea.errors_now + r->eb.errors_now ? ", moving" : "");
	else if (r->flags & FLINK_DEGRADED)
		snprintf(r->why, sizeof(r->why), "%s", deg);
	else if (r->flags & FLINK_SATURATED)
		snprintf(r->why, sizeof(r->why), "a counter is saturated");
}

static bool port_up(const struct ib_fport *fp)
{
	return fp->known && fp->pi.phys_state == PHYS_STATE_LINK_UP;
}

size_t fabric_links_build(const struct ib_fabric *f, const struct fabric_lost_link *lost, size_t nlost,
			  struct fabric_link_row *rows, size_t max, size_t *total)
{
	size_t n = 0;

	*total = 0;
	for (size_t i = 0; i < f->nlinks; i++) {
		const struct ib_link *l = &f->links[i];
		struct fabric_link_row *r;

		++*total;
		if (n >= max)
			continue;
		r = &rows[n++];
		memset(r, 0, sizeof(*r));
		r->a = l->a;
		r->b = l->b;
		r->a_port = l->a_port;
		r->b_port = l->b_port;
		fabric_end_from(f->nodes[l->a].ports[l->a_port].pma, &r->ea);
		fabric_end_from(f->nodes[l->b].ports[l->b_port].pma, &r->eb);
		fabric_end_wait(&r->ea, f->nodes[l->a].ports[l->a_port].pma, &f->nodes[l->a].ports[l->a_port].pi);
		fabric_end_wait(&r->eb, f->nodes[l->b].ports[l->b_port].pma, &f->nodes[l->b].ports[l->b_port].pi);
		row_judge(f, r);
	}
	/* Ports that are up but lead to no node the sweep found. */
	for (size_t i = 0; i < f->nnodes; i++) {
		const struct ib_fnode *nd = &f->nodes[i];

		for (unsigned int p = 1; nd->ports && p <= nd->id.num_ports; p++) {
			struct fabric_link_row *r;

			if (!port_up(&nd->ports[p]) || nd->ports[p].linked)
				continue;
			++*total;
			if (n >= max)
				continue;
			r = &rows[n++];
			memset(r, 0, sizeof(*r));
			r->a = i;
			r->a_port = (uint8_t)p;
			r->half = true;
			fabric_end_from(nd->ports[p].pma, &r->ea);
			fabric_end_wait(&r->ea, nd->ports[p].pma, &nd->ports[p].pi);
			row_judge(f, r);
		}
	}
	for (size_t i = 0; i < nlost; i++) {
		struct fabric_link_row *r;

		++*total;
		if (n >= max)
			continue;
		r = &rows[n++];
		memset(r, 0, sizeof(*r));
		r->lost = &lost[i];
		r->flags = FLINK_DOWN;
		snprintf(r->why, sizeof(r->why), "down since the last sweep: %s", lost[i].why);
	}
	return n;
}
