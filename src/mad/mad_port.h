/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the fabric says about one local IB port: itself, its SM, its link partner, PMA counters of both ends. */
#ifndef FABTOP_MAD_MAD_PORT_H
#define FABTOP_MAD_MAD_PORT_H

#include <stdint.h>

#include "mad/mad.h"
#include "derive/mad_decode.h"
#include "model/fabric.h"
#include "model/ibfabric.h"

/*
 * Queue the queries about lp on s: NodeInfo/NodeDescription/PortInfo of the
 * local node (directed route, 0 hops) and, as answers arrive, the SM's
 * SMInfo, the partner one hop out, and ClassPortInfo + PortCounters
 * (+ PortCountersExtended when advertised) at both ends. Results land in
 * lp while mad_step() runs; lp must stay put until s is idle.
 */
int mad_port_query(struct mad_session *s, struct ib_local_port *lp, uint64_t now_ns);

/* Which ends of the cable a PMA sample asks. */
#define MAD_PMA_LOCAL	(1u << 0)
#define MAD_PMA_PEER	(1u << 1)

/*
 * A new PMA sample of the ends named (MAD_PMA_*): PortCounters, and
 * PortCountersExtended when ClassPortInfo advertised it, so two MADs per
 * end (the previous sample becomes prev_*, so counter_rate() gives rates).
 * Needs a completed mad_port_query().
 */
int mad_port_pma_refresh(struct mad_session *s, struct ib_local_port *lp, unsigned int ends, uint64_t now_ns);

/*
 * Make pma's counters the host port's PMA counters (--counters pma): the
 * port's counters/ and counters_ext/ entries are dropped (their files
 * closed, so refreshes no longer read them) and lp's COUNTER_SRC_PMA
 * counters, under the sysfs names, take their place; hw_counters stay.
 * The port's sample times become the PMA's. Returns how many sysfs
 * counters were dropped, or -ENOMEM.
 */
int mad_port_apply_pma(struct fab_port *p, const struct ib_pma *pma);

/*
 * The counters of a PMA whose ClassPortInfo:CapabilityMask is in
 * pma->cap_mask (0 when ClassPortInfo did not answer: PortCounters only):
 * 64-bit data and packets when PortCountersExtended is advertised, and the
 * unicast/multicast packets only with the IETF-compatible set. With
 * CapabilityMask2's IsAdditionalPortCountersExtendedSupported
 * (pma->cap_mask2) every counter comes from PortCountersExtended, 64 bits
 * (pma->ext_only): one MAD a port, PortCounters is not asked.
 */
void mad_port_pma_define(struct ib_pma *pma);
/* The same from a ClassPortInfo answer (NULL: none), its own or its model's (shared, see mad/mad_cpi.h). */
void mad_port_pma_define_from(struct ib_pma *pma, const struct mad_class_port_info *cpi, bool shared);
/*
 * A PortCounters (ext false) or PortCountersExtended reply, as a mad_cb
 * gets it, into pma's counters: the values, or unknown for this sample.
 * PortCounters' answer sets pma->state (PortCountersExtended's when
 * pma->ext_only).
 */
void mad_port_pma_reply(struct ib_pma *pma, bool ext, int status, const uint8_t *mad, size_t len);
/* A PortSamplesControl answer (status, mad, len as the engine gives it) into pma's tick_state and tick. */
void mad_port_psc_reply(struct ib_pma *pma, int status, const uint8_t *mad, size_t len);

/* A decoded PortInfo of port num as the model keeps it. */
void mad_port_id_from(struct ib_port_id *p, const struct mad_port_info *pi, uint8_t num);

/* Fill lp->note from what is known (INIT without SM, no LID, ...). */
void mad_port_explain(struct ib_local_port *lp);

#endif
