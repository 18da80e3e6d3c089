/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about the RoCE lossless chain, from one or two samples of it (doc/roce.md). */
#ifndef FABTOP_DERIVE_ROCE_CHECK_H
#define FABTOP_DERIVE_ROCE_CHECK_H

#include <stddef.h>

#include "derive/doctor.h"
#include "model/roce.h"

/* Pause time over this share of an interval on one priority is a storm. */
#define ROCE_PAUSE_STORM_SHARE	0.9

/* What a port's traffic class comes to, from the TOS and the APP table. */
struct roce_tc {
	int dscp;		/* default_roce_tos >> 2; -1 unknown */
	int prio;		/* the priority that DSCP maps to; -1 unknown (no APP entry, no DCB) */
	bool dscp_trusted;	/* the port classifies by DSCP (trust order or DSCP APP entries) */
};

void roce_tc_of(const struct roce_port *rp, struct roce_tc *tc);

/*
 * Findings (DOCTOR_ROCE_CHAIN, each with its code) for every port of cur;
 * prev, when not NULL, is an earlier sample of the same ports (matched by
 * device and port) and gives the rate findings. Fills at most cap
 * findings into out and returns how many there were in all.
 */
size_t roce_check(const struct roce_state *prev, const struct roce_state *cur,
		  struct doctor_finding *out, size_t cap);

/*
 * A check of the chain that could not run, and why: a report that finds
 * nothing says what it could not look at instead of "no problems".
 */
#define ROCE_GAP_CODES	2

struct roce_gap {
	const char *check;		/* "pfc", "pause-storm", ... (JSON) */
	const char *what;		/* "PFC", "pause storms", ... */
	const char *codes[ROCE_GAP_CODES];	/* the findings it would have given (NULL-padded) */
	char dev[64];			/* "" for the whole report (one sample: no rates) */
	unsigned int port;
	char netdev[16];
	int err;			/* the -errno of the read that failed, 0 when the data is just absent */
	char reason[160];
};

/*
 * The checks of roce_check() that could not run on cur (prev: as there),
 * at most cap into out; returns how many in all.
 */
size_t roce_gaps(const struct roce_state *prev, const struct roce_state *cur, struct roce_gap *out, size_t cap);

/* How much of the interval a microsecond pause counter moved: 0..1+, or -1 when unknown. */
double roce_pause_share(const struct roce_ctr *a, const struct roce_ctr *b, double dt_s);

#endif
