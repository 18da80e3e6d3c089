/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fabric view: local IB ports and everything reachable from them, swept by directed route within limits. */
#ifndef FABTOP_MAD_MAD_FABRIC_H
#define FABTOP_MAD_MAD_FABRIC_H

#include <stdbool.h>
#include <stdint.h>

#include "mad/mad.h"
#include "mad/mad_port.h"
#include "ctx.h"
#include "model/ibfabric.h"

/* Bounds of a sweep: a big or broken fabric must not hold the caller. */
struct mad_sweep_limits {
	size_t max_nodes;		/* stop discovering past this many nodes */
	uint64_t max_ns;		/* stop issuing new queries after this long */
	size_t max_bytes;		/* the tables' memory bound (ib_fabric_mem_bytes; 0: the view's, from --fabric-mem) */
};
/*
 * The node limit is past what a subnet's 48K unicast LIDs address; the
 * memory bound (--fabric-mem) is the guard that bites first on a big one.
 */
#define MAD_SWEEP_DEFAULT_NODES	65536
#define MAD_SWEEP_DEFAULT_NS	(10ull * 1000000000ull)

struct mad_sweep;

/*
 * Go on from another local port of a node f already holds (by its GUID):
 * one hop out of local_port, and on from there if it leads to new nodes.
 * NULL when that port's cable is known already (or out of memory).
 */
struct mad_sweep *mad_sweep_start_more(struct mad_session *s, struct ib_fabric *f, uint64_t local_guid,
				       unsigned int local_port, const struct mad_sweep_limits *lim,
				       uint64_t now_ns);
/* Record the elapsed time and free the sweep (f keeps the results). */
void mad_sweep_finish(struct mad_sweep *sw, uint64_t now_ns);

/*
 * The IB view for a live loop (the TUI, repeated samples): a session per
 * local IB port, results in f. mad_fabric_open() fills f->ports (and f->error
 * when no port can be used: then *out may be NULL). Drive it with the fds
 * (POLLIN) and the timeout, calling mad_fabric_step() when either fires.
 */
struct mad_fabric;
int mad_fabric_open(const struct fab_ctx *ctx, struct ib_fabric *f, struct mad_fabric **out);
void mad_fabric_query_ports(struct mad_fabric *v, uint64_t now_ns);
/* A PMA sample of the ends named (MAD_PMA_LOCAL, MAD_PMA_PEER of mad/mad_port.h) of every port. */
void mad_fabric_pma_refresh(struct mad_fabric *v, unsigned int ends, uint64_t now_ns);
int mad_fabric_step(struct mad_fabric *v, uint64_t now_ns);
bool mad_fabric_idle(const struct mad_fabric *v);
/* -1 when idle; short (2 ms) while a session has no pollable fd (ibsim). */
int mad_fabric_timeout_ms(const struct mad_fabric *v, uint64_t now_ns);
int mad_fabric_fds(const struct mad_fabric *v, int *fds, int max);
/* The session of local port i (index into f->ports), NULL when it could not be opened. */
struct mad_session *mad_fabric_session(const struct mad_fabric *v, size_t i);
/* Every request queued or in flight is dropped; each callback gets -ECANCELED. */
void mad_fabric_cancel(struct mad_fabric *v);
/*
 * The sweep for a poll loop: from the first local port that can send (its
 * link up when known), into f, bounded by lim. 0, -EBUSY (one is running),
 * -ENODEV (no port can sweep) or -ENOMEM. It runs while
 * mad_fabric_sweeping(); then mad_fabric_sweep_end() (also to cut it short).
 */
int mad_fabric_sweep_begin(struct mad_fabric *v, const struct mad_sweep_limits *lim, uint64_t now_ns);
bool mad_fabric_sweeping(const struct mad_fabric *v);
void mad_fabric_sweep_end(struct mad_fabric *v, uint64_t now_ns);
/* Tallies, closes everything; f stays valid. */
void mad_fabric_close(struct mad_fabric *v);

/* What mad_fabric_collect() does. */
#define MADF_PORTS	(1u << 0)	/* local ports: self, SM, partner, PMA of both ends */
#define MADF_SWEEP	(1u << 1)	/* the fabric reachable from the first active port */
#define MADF_PMA	(1u << 2)	/* with MADF_SWEEP: the PMA counters of every port found */

/*
 * The synchronous collector for the CLI: finds local IB ports, opens each,
 * runs the queries until done or deadline_ns. Returns 0 (f->error says
 * why when nothing could be asked: no devices, no permission), or -ENOMEM.
 * Needs the live system (libibumad reads /sys itself): with --sysfs it
 * leaves a note in f->error.
 */
int mad_fabric_collect(const struct fab_ctx *ctx, struct ib_fabric *f, unsigned int what,
		       const struct mad_sweep_limits *lim, uint64_t deadline_ns);
/* The same, leaving the view open in *vp (NULL when none) for more PMA samples; tallies f. */
int mad_fabric_take(const struct fab_ctx *ctx, struct ib_fabric *f, unsigned int what,
		    const struct mad_sweep_limits *lim, uint64_t deadline_ns, struct mad_fabric **vp);

/* Wait interval_s, then the next PMA sample of the ends named of every port (bounded: 5 s). */
void mad_fabric_sample(struct mad_fabric *v, unsigned int ends, double interval_s);

#endif
