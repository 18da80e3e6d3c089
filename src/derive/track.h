/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the monitor remembers per port across samples and re-collections: history, error activity. */
#ifndef FABTOP_DERIVE_TRACK_H
#define FABTOP_DERIVE_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "derive/counters.h"
#include "model/fabric.h"

/*
 * Rates are kept in time buckets, not per sample, so the graph windows
 * (1 min, 10 min, 1 h) mean the same whatever the refresh interval:
 * 1 s buckets for 10 minutes and 10 s buckets for an hour.
 */
#define HIST_SLOTS	600
#define HIST_FINE_RES_S	1
#define HIST_FINE_N	600
#define HIST_COARSE_RES_S 10
#define HIST_COARSE_N	360

struct hist_ring {
	unsigned int res_s, n;
	int64_t last_b;			/* newest bucket number (time / res), -1: empty */
	float sum_in[HIST_SLOTS], sum_out[HIST_SLOTS];
	uint16_t cnt[HIST_SLOTS];	/* samples in the bucket; 0: no data */
};

struct hist {
	struct hist_ring fine, coarse;
};

void hist_init(struct hist *h);
/* A rate (Gb/s) measured over (t0_ns, t1_ns]: fills every bucket it covers. */
void hist_add(struct hist *h, uint64_t t0_ns, uint64_t t1_ns, double in, double out);
/*
 * The window ending at end_ns cut into ncols columns: the peak of each
 * column (in and out), known[] false where no sample fell. Returns false
 * when the window has no data at all.
 */
bool hist_series(const struct hist *h, unsigned int window_s, uint64_t end_ns, int ncols,
		 float *in, float *out, bool *known);

#define TRACK_MAX_ERR 64

struct track_err {
	char name[FAB_NAME_LEN];
	enum fab_counter_source source;
	uint64_t moved_ns;		/* when it last moved, 0: never */
};

struct track_port {
	char dev[FAB_NAME_LEN];
	unsigned int port;
	uint64_t last_seen_ns;
	bool present;			/* in the latest snapshot */
	struct port_rates rates;
	uint64_t hist_until_ns;		/* the latest sample in hist: a sample seen again is not added twice */
	uint64_t err_moved_ns;		/* any error counter, 0: never */
	uint64_t err_interval;		/* sum of error deltas in the last interval */
	bool err_interval_known;
	uint64_t err_total;		/* sum of error deltas since start (or 'r') */
	bool err_total_known;
	/*
	 * 12 KiB of history and 5 KiB of error names a port, allocated when
	 * first written: a host's first frame (64 ports) faults in no page for them.
	 */
	struct hist *hist;		/* NULL until the port's first rate */
	struct track_err *errs;		/* TRACK_MAX_ERR of them, NULL until the first error moves */
	unsigned int nerrs;
};

struct track {
	struct track_port **ports;
	size_t n, cap;
};

/* Record the latest sample of every port of h (rates, history, error movement). */
void track_sample(struct track *tr, struct fab_host *h, uint64_t now_ns);
struct track_port *track_find(const struct track *tr, const char *dev, unsigned int port);
/* When did this error counter of the port last move (0: never)? */
uint64_t track_err_moved(const struct track_port *tp, const struct fab_counter *c);
/* Forget error activity (with 'r', together with counter_reset_delta). */
void track_reset(struct track *tr);
void track_free(struct track *tr);

/*
 * After a fresh collection, carry each counter's previous and first sample
 * over from the old snapshot (matched by device, port and counter name), so
 * rates and deltas since start continue across re-collections.
 */
void track_carry(struct fab_host *now, const struct fab_host *old);

#endif
