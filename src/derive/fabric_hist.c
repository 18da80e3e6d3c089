// SPDX-License-Identifier: GPL-2.0-or-later
/* A ring of the last intervals per link of the subnet, carried from round to round by the ends' GUIDs and ports. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "derive/fabric_hist.h"
#include "derive/fabric_links.h"

static int key_cmp(uint64_t ga, uint8_t pa, uint64_t gb, uint8_t pb)
{
	if (ga != gb)
		return ga < gb ? -1 : 1;
	return pa < pb ? -1 : pa > pb;
}

static int link_cmp(const void *x, const void *y)
{
	const struct fhist_link *a = x, *b = y;

	return key_cmp(a->guid_a, a->port_a, b->guid_a, b->port_a);
}

static struct fhist_link *find(const struct fabric_hist *h, uint64_t guid, uint8_t port)
{
	size_t lo = 0, hi = h->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(h->links[mid].guid_a, h->links[mid].port_a, guid, port);

		if (!c)
			return &h->links[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct fhist_link *fabric_hist_find(const struct fabric_hist *h, uint64_t guid, uint8_t port,
					  uint64_t guid_b, uint8_t port_b)
{
	if (key_cmp(guid_b, port_b, guid, port) < 0)
		return find(h, guid_b, port_b);
	return find(h, guid, port);
}

const struct fhist_point *fabric_hist_point(const struct fhist_link *l, unsigned int i)
{
	return &l->pts[(l->head + i) % FHIST_N];
}

static float end_wait(const struct fabric_end *e)
{
	if (!e->wait_known)
		return NAN;
	return e->wait_how == XWAIT_SHARE ? (float)e->wait_share : -(float)e->wait_per_s;
}

/* The interval just sampled of link (a, pa)-(b, pb), a being the first end. */
static void point_of(const struct ib_fabric *f, size_t a, uint8_t pa, size_t b, uint8_t pb, struct fhist_point *pt)
{
	const struct ib_fport *fa = &f->nodes[a].ports[pa], *fb = &f->nodes[b].ports[pb];
	struct fabric_end ea, eb;
	float wa, wb;

	fabric_end_from(fa->pma, &ea);
	fabric_end_from(fb->pma, &eb);
	fabric_end_wait(&ea, fa->pma, &fa->pi);
	fabric_end_wait(&eb, fb->pma, &fb->pi);
	pt->ab_gbps = ea.rates ? (float)(ea.xmit_bps * 8 / 1e9) : NAN;
	pt->ba_gbps = eb.rates ? (float)(eb.xmit_bps * 8 / 1e9) : ea.rates ? (float)(ea.rcv_bps * 8 / 1e9) : NAN;
	pt->errors = (uint32_t)(ea.errors_now + eb.errors_now);
	wa = end_wait(&ea);
	wb = end_wait(&eb);
	/* a share over ticks/s; between two of a kind the larger */
	if (isnan(wa))
		pt->wait = wb;
	else if (isnan(wb))
		pt->wait = wa;
	else if ((wa >= 0) != (wb >= 0))
		pt->wait = wa >= 0 ? wa : wb;
	else
		pt->wait = (wa >= 0 ? wa >= wb : wa <= wb) ? wa : wb;
}

/* One link of f into nl: its ring carried over from h, and a point when the first end was sampled again. */
static void link_carry(const struct fabric_hist *h, const struct ib_fabric *f, const struct ib_link *l,
		       struct fhist_link *nl)
{
	uint64_t ga = f->nodes[l->a].id.node_guid, gb = f->nodes[l->b].id.node_guid;
	bool swap = key_cmp(gb, l->b_port, ga, l->a_port) < 0;
	size_t a = swap ? l->b : l->a, b = swap ? l->a : l->b;
	uint8_t pa = swap ? l->b_port : l->a_port, pb = swap ? l->a_port : l->b_port;
	const struct fhist_link *old = find(h, f->nodes[a].id.node_guid, pa);
	const struct ib_pma *pma = f->nodes[a].ports[pa].pma;

	if (old && old->guid_b == f->nodes[b].id.node_guid && old->port_b == pb) {
		*nl = *old;
	} else {
		memset(nl, 0, sizeof(*nl));
		nl->guid_a = f->nodes[a].id.node_guid;
		nl->guid_b = f->nodes[b].id.node_guid;
		nl->port_a = pa;
		nl->port_b = pb;
	}
	if (!pma || pma->state != IBQ_OK || !pma->prev_sample_ns || pma->sample_ns <= nl->last_ns)
		return;
	nl->last_ns = pma->sample_ns;
	if (nl->n == FHIST_N)
		nl->head = (nl->head + 1) % FHIST_N;
	else
		nl->n++;
	point_of(f, a, pa, b, pb, &nl->pts[(nl->head + nl->n - 1) % FHIST_N]);
}

int fabric_hist_add(struct fabric_hist *h, const struct ib_fabric *f)
{
	struct fhist_link *nw;
	size_t n = 0;

	if (!f->nlinks) {
		fabric_hist_free(h);
		return 0;
	}
	nw = calloc(f->nlinks, sizeof(*nw));
	if (!nw)
		return -ENOMEM;
	for (size_t i = 0; i < f->nlinks; i++) {
		const struct ib_link *l = &f->links[i];

		if (l->a >= f->nnodes || l->b >= f->nnodes)
			continue;
		link_carry(h, f, l, &nw[n++]);
	}
	qsort(nw, n, sizeof(*nw), link_cmp);
	free(h->links);
	h->links = nw;
	h->n = n;
	return 0;
}

void fabric_hist_free(struct fabric_hist *h)
{
	free(h->links);
	h->links = NULL;
	h->n = 0;
}
