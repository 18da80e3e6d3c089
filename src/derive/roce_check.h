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

/* How much of the interval a microsecond pause counter moved: 0..1+, or -1 when unknown. */
double roce_pause_share(const struct roce_ctr *a, const struct roce_ctr *b, double dt_s);

#endif
