// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-port memory of the monitor: bucketed rate history, error activity, carry-over. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive/track.h"

/* Ports gone this long lose their history (a driver reload is quicker). */
#define TRACK_FORGET_NS (15ull * 60 * 1000000000ull)

static void ring_init(struct hist_ring *r, unsigned int res_s, unsigned int n)
{
	memset(r, 0, sizeof(*r));
	r->res_s = res_s;
	r->n = n;
	r->last_b = -1;
}

void hist_init(struct hist *h)
{
	ring_init(&h->fine, HIST_FINE_RES_S, HIST_FINE_N);
	ring_init(&h->coarse, HIST_COARSE_RES_S, HIST_COARSE_N);
}

static void ring_add(struct hist_ring *r, uint64_t t0_ns, uint64_t t1_ns, double in, double out)
{
	/* The sample covers (t0, t1]: its last instant is just before t1. */
	int64_t b1 = (int64_t)((t1_ns - 1) / 1000000000ull / r->res_s);
	int64_t b0 = (int64_t)(t0_ns / 1000000000ull / r->res_s);
	int64_t n = (int64_t)r->n, b;

	if (r->last_b >= 0 && b1 < r->last_b)
		return;		/* monotonic time does not go back; be safe anyway */
	if (r->last_b < 0 || b1 - r->last_b >= n) {
		memset(r->cnt, 0, sizeof(r->cnt));
		r->last_b = b1 - n;
	}
	/* New buckets start empty; buckets the sample spans get its rate. */
	/* Early after boot the window reaches before time 0: no buckets there. */
	for (b = r->last_b + 1 > 0 ? r->last_b + 1 : 0; b <= b1; b++) {
		size_t s = (size_t)(b % n);

		r->cnt[s] = 0;
		r->sum_in[s] = r->sum_out[s] = 0;
	}
	r->last_b = b1;
	if (b0 < b1 - n + 1)
		b0 = b1 - n + 1;
	if (b0 < 0)
		b0 = 0;
	for (b = b0; b <= b1; b++) {
		size_t s = (size_t)(b % n);

		if (r->cnt[s] == UINT16_MAX)
			continue;
		r->sum_in[s] += (float)in;
		r->sum_out[s] += (float)out;
		r->cnt[s]++;
	}
}

void hist_add(struct hist *h, uint64_t t0_ns, uint64_t t1_ns, double in, double out)
{
	if (t1_ns <= t0_ns || isnan(in) || isnan(out))
		return;
	ring_add(&h->fine, t0_ns, t1_ns, in, out);
	ring_add(&h->coarse, t0_ns, t1_ns, in, out);
}

bool hist_series(const struct hist *h, unsigned int window_s, uint64_t end_ns, int ncols,
		 float *in, float *out, bool *known)
{
	const struct hist_ring *r = window_s <= HIST_FINE_N * HIST_FINE_RES_S ? &h->fine : &h->coarse;
	int64_t nb = (int64_t)(window_s / r->res_s), bend, bstart;
	bool any = false;

	if (ncols <= 0)
		return false;
	if (nb < 1)
		nb = 1;
	if (nb > (int64_t)r->n)
		nb = (int64_t)r->n;
	bend = end_ns ? (int64_t)((end_ns - 1) / 1000000000ull / r->res_s) : 0;
	bstart = bend - nb + 1;
	for (int c = 0; c < ncols; c++) {
		int64_t lo = bstart + (int64_t)c * nb / ncols;
		int64_t hi = bstart + (int64_t)(c + 1) * nb / ncols - 1;

		if (hi < lo)
			hi = lo;
		known[c] = false;
		in[c] = out[c] = 0;
		for (int64_t b = lo; b <= hi; b++) {
			size_t s;
			float vi, vo;

			if (r->last_b < 0 || b > r->last_b || b <= r->last_b - (int64_t)r->n || b < 0)
				continue;
			s = (size_t)(b % (int64_t)r->n);
			if (!r->cnt[s])
				continue;
			vi = r->sum_in[s] / r->cnt[s];
			vo = r->sum_out[s] / r->cnt[s];
			if (!known[c] || vi > in[c])
				in[c] = vi;
			if (!known[c] || vo > out[c])
				out[c] = vo;
			known[c] = true;
			any = true;
		}
	}
	return any;
}

struct track_port *track_find(const struct track *tr, const char *dev, unsigned int port)
{
	for (size_t i = 0; i < tr->n; i++)
		if (tr->ports[i]->port == port && !strcmp(tr->ports[i]->dev, dev))
			return tr->ports[i];
	return NULL;
}

static struct track_port *track_get(struct track *tr, const char *dev, unsigned int port)
{
	struct track_port *tp = track_find(tr, dev, port);

	if (tp)
		return tp;
	if (tr->n == tr->cap) {
		size_t ncap = tr->cap ? tr->cap * 2 : 16;
		struct track_port **np = realloc(tr->ports, ncap * sizeof(*np));

		if (!np)
			return NULL;
		tr->ports = np;
		tr->cap = ncap;
	}
	tp = calloc(1, sizeof(*tp));
	if (!tp)
		return NULL;
	snprintf(tp->dev, sizeof(tp->dev), "%s", dev);
	tp->port = port;
	tr->ports[tr->n++] = tp;
	return tp;
}

static struct track_err *track_err_get(struct track_port *tp, const struct fab_counter *c, bool create)
{
	for (unsigned int i = 0; i < tp->nerrs; i++)
		if (tp->errs[i].source == c->source && !strcmp(tp->errs[i].name, c->name))
			return &tp->errs[i];
	if (!create || tp->nerrs >= TRACK_MAX_ERR)
		return NULL;
	if (!tp->errs && !(tp->errs = malloc(TRACK_MAX_ERR * sizeof(*tp->errs))))
		return NULL;	/* out of memory: this movement is not remembered */
	snprintf(tp->errs[tp->nerrs].name, sizeof(tp->errs[0].name), "%s", c->name);
	tp->errs[tp->nerrs].source = c->source;
	tp->errs[tp->nerrs].moved_ns = 0;
	return &tp->errs[tp->nerrs++];
}

uint64_t track_err_moved(const struct track_port *tp, const struct fab_counter *c)
{
	for (unsigned int i = 0; i < tp->nerrs; i++)
		if (tp->errs[i].source == c->source && !strcmp(tp->errs[i].name, c->name))
			return tp->errs[i].moved_ns;
	return 0;
}

/* Out of memory: the port's graph has a gap, nothing else. */
static void track_hist_add(struct track_port *tp, uint64_t t0_ns, uint64_t t1_ns, double in, double out)
{
	if (!tp->hist) {
		tp->hist = malloc(sizeof(*tp->hist));
		if (!tp->hist)
			return;
		hist_init(tp->hist);
	}
	hist_add(tp->hist, t0_ns, t1_ns, in, out);
}

static void track_port_free(struct track_port *tp)
{
	free(tp->hist);
	free(tp->errs);
	free(tp);
}

static void track_port_sample(struct track_port *tp, struct fab_port *p, uint64_t now_ns)
{
	uint64_t d;

	port_rates(p, &tp->rates);
	/* A paused replay or a source between samples shows the same sample again: it is in already. */
	if (p->prev_sample_ns && p->sample_ns > p->prev_sample_ns && p->sample_ns != tp->hist_until_ns) {
		tp->hist_until_ns = p->sample_ns;
		/* Only measured rates enter the history; unknown stays a gap. */
		if (tp->rates.rcv_known && tp->rates.xmit_known)
			track_hist_add(tp, p->prev_sample_ns, p->sample_ns,
				       tp->rates.rcv_gbps, tp->rates.xmit_gbps);
	}
	tp->err_interval = tp->err_total = 0;
	tp->err_interval_known = tp->err_total_known = false;
	for (size_t k = 0; k < p->ncounters; k++) {
		struct fab_counter *c = &p->counters[k];

		if (c->kind != COUNTER_KIND_ERROR)
			continue;
		if (counter_delta(c, &d)) {
			tp->err_interval += d;
			tp->err_interval_known = true;
			if (d) {
				struct track_err *e = track_err_get(tp, c, true);

				if (e)
					e->moved_ns = now_ns;
				tp->err_moved_ns = now_ns;
			}
		}
		if (counter_delta_since_start(c, &d)) {
			tp->err_total += d;
			tp->err_total_known = true;
		}
	}
}

void track_sample(struct track *tr, struct fab_host *h, uint64_t now_ns)
{
	size_t i, j;

	for (i = 0; i < tr->n; i++)
		tr->ports[i]->present = false;
	for (i = 0; i < h->ndevs; i++)
		for (j = 0; j < h->devs[i].nports; j++) {
			struct fab_port *p = &h->devs[i].ports[j];
			struct track_port *tp = track_get(tr, h->devs[i].name, p->num);

			if (!tp)
				continue;	/* out of memory: no history for this port */
			tp->present = true;
			tp->last_seen_ns = now_ns;
			track_port_sample(tp, p, now_ns);
		}
	for (i = 0; i < tr->n;) {
		struct track_port *tp = tr->ports[i];

		if (!tp->present && now_ns - tp->last_seen_ns > TRACK_FORGET_NS) {
			track_port_free(tp);
			tr->ports[i] = tr->ports[--tr->n];
			continue;
		}
		i++;
	}
}

void track_reset(struct track *tr)
{
	for (size_t i = 0; i < tr->n; i++) {
		struct track_port *tp = tr->ports[i];

		tp->err_moved_ns = 0;
		tp->err_total = 0;
		tp->nerrs = 0;
	}
}

void track_free(struct track *tr)
{
	for (size_t i = 0; i < tr->n; i++)
		track_port_free(tr->ports[i]);
	free(tr->ports);
	memset(tr, 0, sizeof(*tr));
}

static const struct fab_counter *find_counter(const struct fab_port *p, const struct fab_counter *like)
{
	for (size_t k = 0; k < p->ncounters; k++)
		if (p->counters[k].source == like->source && !strcmp(p->counters[k].name, like->name))
			return &p->counters[k];
	return NULL;
}

void track_carry(struct fab_host *now, const struct fab_host *old)
{
	for (size_t i = 0; i < now->ndevs; i++) {
		struct fab_device *d = &now->devs[i];

		for (size_t j = 0; j < d->nports; j++) {
			struct fab_port *p = &d->ports[j];
			const struct fab_port *op = NULL;

			for (size_t oi = 0; oi < old->ndevs && !op; oi++) {
				if (strcmp(old->devs[oi].name, d->name))
					continue;
				for (size_t oj = 0; oj < old->devs[oi].nports; oj++)
					if (old->devs[oi].ports[oj].num == p->num)
						op = &old->devs[oi].ports[oj];
			}
			if (!op || !op->sample_ns || op->sample_ns >= p->sample_ns)
				continue;
			p->prev_sample_ns = op->sample_ns;
			if (op->first_sample_ns)
				p->first_sample_ns = op->first_sample_ns;
			for (size_t k = 0; k < p->ncounters; k++) {
				struct fab_counter *c = &p->counters[k];
				const struct fab_counter *oc = find_counter(op, c);

				if (!oc)
					continue;
				if (oc->bits > c->bits)
					c->bits = oc->bits;
				c->prev_known = oc->known;
				c->prev_saturated = oc->saturated;
				c->prev_value = oc->value;
				/* A counter that went backwards was reset: its old start means nothing. */
				if (oc->first_known && (!c->known || c->value >= oc->first_value)) {
					c->first_known = true;
					c->first_value = oc->first_value;
				}
			}
		}
	}
}
