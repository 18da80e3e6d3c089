/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RoCE lossless chain as a recording keeps it: each port's DCB answer, ethtool counters, TOS, ECN. */
#ifndef FABTOP_RECORD_ROCE_H
#define FABTOP_RECORD_ROCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/roce.h"
#include "record/codec.h"

/*
 * One known counter of a port (struct roce_ctr with known set): what it
 * counts (enum roce_prio_ctr, roce_port_ctr or roce_cc_role, by the message
 * it is in), its priority for the per-priority ones, and its value. An
 * unknown counter is left out: its absence is its known flag.
 */
struct rec_roce_ctr {
	unsigned int id, prio;
	uint64_t value;
};

/* A port's ECN switches, as bit masks of priorities (struct roce_ecn holds bool arrays). */
struct rec_roce_ecn {
	bool known;
	unsigned int np_known, np, rp_known, rp;
};

/*
 * The chain's ports then its time. Returns how many of the bytes written
 * say what the chain is: all but the time, which comes last, so two reads
 * of an unchanged chain have those bytes equal (the recorder writes only
 * a chain that changed).
 */
size_t rec_roce_encode(struct rec_buf *b, const struct roce_state *st);
/*
 * Into a zeroed st (free it with roce_state_free()); 0, -ENOMEM, or -EINVAL
 * with c->err saying what was expected: also an APP table or trust order
 * longer than the collector keeps, or more ports than the budget allows.
 */
int rec_roce_decode(struct rec_cur *c, struct roce_state *st);

#endif
