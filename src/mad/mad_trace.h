/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The path to a LID hop by hop, read from the switches' linear forwarding tables (as ibtracert), and its counters. */
#ifndef FABTOP_MAD_MAD_TRACE_H
#define FABTOP_MAD_MAD_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "mad/mad.h"
#include "model/ibfabric.h"

struct mad_trace;

/*
 * Start tracing on session s (the local port local_port) towards dlid:
 * directed-route SMPs walk out hop by hop, each switch's
 * LinearForwardingTable block naming the next egress port. Results land
 * in t (which must stay put) while mad_step() runs; the walk is over when
 * mad_trace_walked(). NULL when out of memory.
 */
struct mad_trace *mad_trace_start(struct mad_session *s, struct ib_trace *t, unsigned int local_port,
				  uint16_t dlid);
bool mad_trace_walked(const struct mad_trace *tr);

/*
 * A PMA sample of both ends of every hop (ClassPortInfo first, once per
 * node, then PortCounters and PortCountersExtended when advertised); the
 * second one gives rates. Over when mad_trace_sampled().
 */
void mad_trace_sample(struct mad_trace *tr, uint64_t now_ns);
bool mad_trace_sampled(const struct mad_trace *tr);

/* Frees the control block once its requests are done (t keeps the results). */
void mad_trace_free(struct mad_trace *tr);

#endif
