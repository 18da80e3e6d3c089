/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why a probe failed, in the doctor's words: the kernel's route for this source and peer, and the findings. */
#ifndef FABTOP_PROBE_EXPLAIN_H
#define FABTOP_PROBE_EXPLAIN_H

#include "ctx.h"
#include "probe/probe.h"

#define EXPLAIN_MAX_LINES 6

struct explain {
	unsigned int n;
	char line[EXPLAIN_MAX_LINES][PROBE_EVENT_TEXT_MAX];
};

/*
 * For a failed client probe: reads the host (sysfs) and the network state
 * (rtnetlink), asks the kernel which interface traffic from the probe's
 * source to its peer leaves by, and runs the doctor for that pair. Lines
 * such as "traffic from 172.16.34.2 to 172.16.34.10 leaves by eth0, not by
 * eth1 which holds 172.16.34.2" and "see doctor finding 1 (same-subnet-route):
 * ...". Not for a hot path (a few hundred ms on a big host). Returns the
 * number of lines (0: nothing to add, or the probe did not fail).
 */
unsigned int explain_failure(const struct fab_ctx *ctx, const struct probe_opts *o,
			     const struct probe_status *st, struct explain *out);

/* The same from a source the caller holds (the demo's simulated host, with its fixes). */
struct source;
unsigned int explain_failure_src(struct source *src, const struct probe_opts *o, const struct probe_status *st,
				 struct explain *out);

/* The same from a host and network the caller already has (the monitor's), asking routes. */
struct fab_host;
struct net_state;
struct route_ops;
unsigned int explain_failure_in(const struct fab_host *h, const struct net_state *net, const struct route_ops *routes,
				const struct probe_opts *o, const struct probe_status *st, struct explain *out);

#endif
