/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What is derived per local IB port from the MAD view's PMA samples: both ends' rates, the partner's errors and history. */
#ifndef FABTOP_DERIVE_FAR_H
#define FABTOP_DERIVE_FAR_H

#include <stdbool.h>
#include <stdint.h>

#include "derive/counters.h"
#include "derive/track.h"
#include "model/ibfabric.h"

struct far_end {
	uint64_t seen_ns;		/* peer_pma.sample_ns already taken into the history */
	struct port_rates far, near;	/* Gb/s and pkt/s of both ends between the last two samples */
	uint64_t err_interval, err_total;	/* the partner's error counters: last interval, since start */
	bool err_interval_known, err_total_known;
	uint64_t near_err_interval;
	bool near_err_known;
	uint64_t err_moved_ns;		/* when a partner error counter last moved (0: never) */
	char err_names[160];		/* "symbol_error +10, ..." of the last interval */
	struct hist hist;		/* the partner's Gb/s in/out */
};

/* A fresh far end: no rates, an empty history (a new view, or another partner on the cable). */
void far_init(struct far_end *fr);

/* After a PMA sample of both ends of lp: rates, errors and (when history) the partner's history. */
void far_sample(struct far_end *fr, const struct ib_local_port *lp, uint64_t now_ns, bool history);

/* Rates of a PMA sample, by the same unit maths as a sysfs port's (port_rates()). */
void far_pma_rates(const struct ib_pma *pma, struct port_rates *r);

#endif
