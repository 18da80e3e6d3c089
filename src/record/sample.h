/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One counter sample of a host as a recording stores it: what differs from the steady-state prediction. */
#ifndef FABTOP_RECORD_SAMPLE_H
#define FABTOP_RECORD_SAMPLE_H

#include "model/fabric.h"
#include "record/codec.h"
#include "record/schema.h"

/*
 * A port's sample is predicted from the one before: every counter moved on
 * by the same amount as last time (its previous value is the old current
 * one), the sample time by the same step. Only what differs from that is
 * written, so a counter at a steady rate, an idle one and an unchanged port
 * cost nothing; a busy one costs the change in its rate. doc/recording.md
 * gives the rules; the writer and the reader share them here.
 */

/* What the writer remembers of the last written state of one port. */
struct rec_shadow_port {
	struct fab_port port;			/* scalars only: its arrays are not used */
	struct rec_counter_state *counters;
	size_t ncounters;
};

struct rec_shadow {
	struct rec_shadow_port *ports;
	size_t nports;
	/* the encoder's working buffers, kept from sample to sample: no allocation per counter or port */
	struct rec_buf packed, fields, diff;
};

/* The shadow of h as it is now (after a full host or a keyframe). 0 or -ENOMEM. */
int rec_shadow_set(struct rec_shadow *s, const struct fab_host *h);
/* Does h have the shadow's ports and counters (same names, same order)? */
bool rec_shadow_matches(const struct rec_shadow *s, const struct fab_host *h);
void rec_shadow_free(struct rec_shadow *s);

/* The SAMPLE body's port entries for h against s; s becomes h's state. */
void rec_sample_encode(struct rec_buf *b, struct rec_shadow *s, const struct fab_host *h);
/* Apply a SAMPLE body (its port entries, field REC_SAMPLE_PORT) to h. 0 or -EINVAL (c->err). */
int rec_sample_apply(struct rec_cur *c, struct fab_host *h);

/* A keyframe: every port's sample times and counter states (no structure). */
void rec_values_encode(struct rec_buf *b, const struct fab_host *h);
int rec_values_apply(struct rec_cur *c, struct fab_host *h);

/* Field numbers inside SAMPLE and VALUES records (the times are the record's). */
#define REC_SAMPLE_PORT	3

#endif
