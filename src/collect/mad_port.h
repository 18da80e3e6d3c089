/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the fabric says about one local IB port: itself, its SM, its link partner, PMA counters of both ends. */
#ifndef FABTOP_COLLECT_MAD_PORT_H
#define FABTOP_COLLECT_MAD_PORT_H

#include <stdint.h>

#include "collect/mad.h"
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

/*
 * A new PMA sample of both ends (the previous one becomes prev_*, so
 * counter_rate() gives rates). Needs a completed mad_port_query().
 */
int mad_port_pma_refresh(struct mad_session *s, struct ib_local_port *lp, uint64_t now_ns);

/*
 * Append lp's local PMA counters to the matching port (same device name and
 * port number) of the host model as COUNTER_SRC_PMA counters, under the
 * sysfs names (the source tells them apart). -ENOMEM, or 0 (also when no
 * port matches).
 */
int mad_port_append_pma(struct fab_host *h, const struct ib_local_port *lp);

/* Fill lp->note from what is known (INIT without SM, no LID, ...). */
void mad_port_explain(struct ib_local_port *lp);

#endif
