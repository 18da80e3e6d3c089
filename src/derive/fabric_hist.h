/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each link's last intervals (rates each way, error deltas, xmit wait), kept across PMA rounds and sweeps. */
#ifndef FABTOP_DERIVE_FABRIC_HIST_H
#define FABTOP_DERIVE_FABRIC_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/ibfabric.h"

/* Intervals kept per link: 16 bytes each, so 30,000 links (a 10,000-node fat tree) keep about 10 MB. */
#define FHIST_N	20

/* One interval of a link, seen from its first end (the lower GUID and port). */
struct fhist_point {
	float ab_gbps, ba_gbps;		/* the first end's transmit, the other's (NaN: unknown) */
	uint32_t errors;		/* both ends' error counters' deltas */
	float wait;			/* the larger xmit wait: a share 0..1, or -(ticks/s) when no share is known; NaN: unknown */
};

struct fhist_link {
	uint64_t guid_a, guid_b;	/* the ends, the lower (GUID, port) first */
	uint8_t port_a, port_b;
	uint64_t last_ns;		/* the first end's sample time of the newest point */
	unsigned int head, n;		/* the ring: pts[(head + n - 1) % FHIST_N] is the newest */
	struct fhist_point pts[FHIST_N];
};

struct fabric_hist {
	struct fhist_link *links;	/* sorted by (guid_a, port_a) */
	size_t n;
};

/* After a PMA round of f: a point for every link whose counters were sampled again; links gone are dropped. 0 or -ENOMEM. */
int fabric_hist_add(struct fabric_hist *h, const struct ib_fabric *f);
/* The link with an end at (guid, port), NULL when none is kept. */
const struct fhist_link *fabric_hist_find(const struct fabric_hist *h, uint64_t guid, uint8_t port,
					  uint64_t guid_b, uint8_t port_b);
/* The i-th point, oldest first (i < l->n). */
const struct fhist_point *fabric_hist_point(const struct fhist_link *l, unsigned int i);
void fabric_hist_free(struct fabric_hist *h);

#endif
