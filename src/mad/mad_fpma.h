/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The PMA counters of a swept fabric's ports, asked node by node: one step for the one-shot sweep and the live rounds. */
#ifndef FABTOP_MAD_MAD_FPMA_H
#define FABTOP_MAD_MAD_FPMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/mad.h"
#include "mad/mad_cpi.h"
#include "model/ibfabric.h"

/*
 * A node's step (mad_fpma_node()): while one of its up ports has no
 * counters defined yet, its PMA's ClassPortInfo is asked (once per node
 * model, mad/mad_cpi.h) and the answer defines every up port and takes
 * their first sample; after that each step samples PortCounters (and
 * PortCountersExtended when advertised; only that when it carries every
 * counter) of each up port, and asks the node's PortSamplesControl once,
 * when a port's PortXmitWait first moves (the tick that turns it into a
 * share of the interval). Answers land in f's ports (ib_pma) as the
 * sessions step; nothing waits.
 *
 * `show fabric` takes one step per node (mad/mad_fabric.c); the live
 * subnet one per node each interval (mad/mad_subnet.c), and calls
 * mad_fpma_forget() when the nodes of f are replaced by a new sweep.
 */
struct mad_fpma {
	struct ib_fabric *f;		/* where the answers land; its address stays */
	struct mad_cpi_cache cpi;	/* ClassPortInfo by node model */
	uint32_t gen;			/* answers asked under another gen are dropped */
	unsigned int pending;		/* ClassPortInfo and counter requests in flight (PortSamplesControl: never) */
	bool rescan;			/* a port whose counters answered before timed out: the fabric changed */
};

void mad_fpma_init(struct mad_fpma *e, struct ib_fabric *f);
/* f's nodes were replaced: answers in flight are dropped, nodes waiting for their model's ClassPortInfo forgotten. */
void mad_fpma_forget(struct mad_fpma *e);
void mad_fpma_free(struct mad_fpma *e);
/*
 * Node node's step on session s (the session of the local port that
 * found it) at now: how many of its ports it sampled, 1 for a node whose
 * ClassPortInfo comes first, 0 when none is up or there is no LID to ask.
 */
size_t mad_fpma_node(struct mad_fpma *e, struct mad_session *s, size_t node, uint64_t now);
/* When the answers are in: f->pma_ports (ports defined), pma_answered and pma_cpi_shared. */
void mad_fpma_tally(const struct mad_fpma *e);

#endif
