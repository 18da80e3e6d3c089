/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The whole subnet kept current under a poll loop: swept at start and when it changes, every port's PMA counters each interval. */
#ifndef FABTOP_MAD_MAD_SUBNET_H
#define FABTOP_MAD_MAD_SUBNET_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "ctx.h"
#include "derive/fabric_links.h"
#include "model/ibfabric.h"

/*
 * The sweep runs again when a port's LinkDownedCounter moves, when a port
 * whose counters answered stops answering, when asked (mad_subnet_rescan:
 * a local port changed state, the SM reported a trap: mad/mad_trap.h), and at least every SUBNET_RESWEEP_NS (or
 * 20 sweeps' time on a fabric that takes long to sweep). Each answer lands
 * as it comes; nothing ever waits.
 */
#define SUBNET_RESWEEP_NS	(10ull * 1000000000ull)
#define SUBNET_RETRY_NS		(30ull * 1000000000ull)

/* What mad_subnet_step() brought. */
#define SUBNET_SWEPT	(1u << 0)	/* a new sweep is shown */
#define SUBNET_SAMPLED	(1u << 1)	/* a round of PMA samples of every port is in */
#define SUBNET_STATE	(1u << 2)	/* opened, failed, or a sweep started: the reason or the status changed */
#define SUBNET_PARTIAL	(1u << 3)	/* what the first sweep found so far is shown (ib_fabric.partial) */

/*
 * The first sweep of a big subnet takes seconds: while no whole sweep is
 * shown, what it found so far (its nodes and links, no counters) is shown
 * every SUBNET_PARTIAL_NS from SUBNET_PARTIAL_NS on, marked partial
 * (ib_fabric.partial, the status "sweeping: N nodes so far"), and
 * replaced by the whole sweep when it is done. Later sweeps run behind
 * the last whole one.
 */
#define SUBNET_PARTIAL_NS	(500ull * 1000000ull)

struct mad_subnet;

/* NULL when out of memory; ctx must outlive it. Nothing is sent before the first step. */
struct mad_subnet *mad_subnet_new(const struct fab_ctx *ctx);
void mad_subnet_free(struct mad_subnet *sn);
/* When and how often a first sweep shows what it found so far (SUBNET_PARTIAL_NS unless set: the tests' small fabrics sweep faster). */
void mad_subnet_set_partial_ns(struct mad_subnet *sn, uint64_t ns);

/*
 * The last whole sweep, its ports' counters sampled in place since (no
 * nodes before the first; while the first runs, what it found so far,
 * ->partial set).
 */
const struct ib_fabric *mad_subnet_fabric(const struct mad_subnet *sn);
/* Links up at a sweep before that are not up now (they stay until they come back). */
const struct fabric_lost_link *mad_subnet_lost(const struct mad_subnet *sn, size_t *n);
/* Why there is nothing to show ("" when there is, or when it is still being asked). */
const char *mad_subnet_reason(const struct mad_subnet *sn);
/* What the shown sweep left out and why ("" when it is whole): the memory bound, GUIDs that contradict it. */
const char *mad_subnet_note(const struct mad_subnet *sn);
/* What it is doing, for a status line: "sweeping", "sweeping: 4,096 nodes so far", "sampling 2,688 ports", "" when idle. */
const char *mad_subnet_status(const struct mad_subnet *sn);
/* The wall time of the last whole round of PMA samples (0: none yet), and how many ports (or nodes' ClassPortInfo) it asked. */
uint64_t mad_subnet_round_ns(const struct mad_subnet *sn, size_t *ports);
/* ClassPortInfo MADs not sent so far: nodes that took their model's answer (mad/mad_cpi.h). */
uint64_t mad_subnet_cpi_shared(const struct mad_subnet *sn);
/* MADs sent so far, sweeps and rounds. */
uint64_t mad_subnet_mads(const struct mad_subnet *sn);
/* Sweeps taken so far (1 after the first is shown). */
uint64_t mad_subnet_sweeps(const struct mad_subnet *sn);

/* The fds to poll (POLLIN) into fds; lower *timeout_ms to the next deadline (paused: no new work). */
int mad_subnet_fds(const struct mad_subnet *sn, bool paused, struct pollfd *fds, int max, int *timeout_ms,
		   uint64_t now_ns);
/* Serve answers and deadlines, start what is due; SUBNET_* bits. Never blocks. */
unsigned int mad_subnet_step(struct mad_subnet *sn, bool paused, double interval_s, uint64_t now_ns);
/*
 * A recording's subnet (record/subnet.h) in place of the shown one: f's
 * arrays and lost become sn's (f is zeroed); from then on sn sends nothing
 * and its step and fds do nothing, as the MAD view fed by a replay.
 */
void mad_subnet_take(struct mad_subnet *sn, struct ib_fabric *f, struct fabric_lost_link *lost, size_t nlost,
		     const char *reason, const char *status, uint64_t sweeps);
/* Sweep again as soon as the running sweep (if any) is done. */
void mad_subnet_rescan(struct mad_subnet *sn);

#endif
