// SPDX-License-Identifier: GPL-2.0-or-later
/* Far-end rates, errors and history from the MAD view's PMA samples (pure: no MAD is sent here). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "derive/far.h"

void far_init(struct far_end *fr)
{
	memset(fr, 0, sizeof(*fr));
	hist_init(&fr->hist);
}

void far_pma_rates(const struct ib_pma *pma, struct port_rates *r)
{
	struct fab_port p;

	/* A fab_port over the PMA counters, so port_rates() does the unit maths as for sysfs. */
	memset(&p, 0, sizeof(p));
	p.counters = (struct fab_counter *)pma->c;
	p.ncounters = pma->n;
	p.sample_ns = pma->sample_ns;
	p.prev_sample_ns = pma->prev_sample_ns;
	p.has_pma = true;
	port_rates(&p, r);
}

/* Error counters of a PMA sample: sum of the last interval's deltas and since start. */
static void pma_errors(const struct ib_pma *pma, uint64_t *interval, bool *ik, uint64_t *total, bool *tk,
		       char *names, size_t nsize)
{
	size_t off = 0;

	*interval = *total = 0;
	*ik = *tk = pma->n > 0;
	if (names)
		names[0] = '\0';
	for (size_t i = 0; i < pma->n; i++) {
		const struct fab_counter *c = &pma->c[i];
		uint64_t d;

		if (c->kind != COUNTER_KIND_ERROR)
			continue;
		if (counter_delta(c, &d)) {
			*interval += d;
			if (d && names && off < nsize) {
				int k = snprintf(names + off, nsize - off, "%s%s +%" PRIu64, off ? ", " : "",
						 c->name, d);

				if (k > 0)
					off += (size_t)k;
			}
		} else {
			*ik = false;
		}
		if (counter_delta_since_start(c, &d))
			*total += d;
		else
			*tk = false;
	}
}

void far_sample(struct far_end *fr, const struct ib_local_port *lp, uint64_t now_ns, bool history)
{
	uint64_t t;
	bool tk;

	far_pma_rates(&lp->pma, &fr->near);
	pma_errors(&lp->pma, &fr->near_err_interval, &fr->near_err_known, &t, &tk, NULL, 0);
	if (lp->peer_pma.state == IBQ_NONE || !lp->peer_pma.n) {
		memset(&fr->far, 0, sizeof(fr->far));
		fr->err_interval_known = fr->err_total_known = false;
		return;
	}
	far_pma_rates(&lp->peer_pma, &fr->far);
	pma_errors(&lp->peer_pma, &fr->err_interval, &fr->err_interval_known, &fr->err_total, &fr->err_total_known,
		   fr->err_names, sizeof(fr->err_names));
	if (fr->err_interval_known && fr->err_interval)
		fr->err_moved_ns = now_ns;
	if (history && lp->peer_pma.sample_ns != fr->seen_ns && lp->peer_pma.prev_sample_ns &&
	    (fr->far.rcv_known || fr->far.xmit_known))
		hist_add(&fr->hist, lp->peer_pma.prev_sample_ns, lp->peer_pma.sample_ns,
			 fr->far.rcv_known ? fr->far.rcv_gbps : 0, fr->far.xmit_known ? fr->far.xmit_gbps : 0);
	fr->seen_ns = lp->peer_pma.sample_ns;
}
