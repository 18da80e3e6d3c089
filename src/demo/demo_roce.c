// SPDX-License-Identifier: GPL-2.0-or-later
/* The demo fabric's RoCE chain: DCB, ethtool statistics and TOS as closed forms of simulated time. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo/demo_roce.h"
#include "kernel/roce.h"
#include "derive/roce_ctr.h"

#define DEMO_ROCE_PRIO	3
#define DEMO_ROCE_TOS	106	/* DSCP 26, ECT(0): what NVIDIA's RoCE guides set */
#define DEMO_START_S	3600.0	/* counters start where an hour of traffic leaves them */

/* Seconds of storm in [0, t]: the episode of every whole cycle, and of the current one so far. */
static double storm_s(double t)
{
	double cycles = (double)(long)(t / DEMO_STORM_CYCLE_S), u = t - cycles * DEMO_STORM_CYCLE_S;
	double in = u - DEMO_STORM_START_S;

	if (in < 0)
		in = 0;
	if (in > DEMO_STORM_LEN_S)
		in = DEMO_STORM_LEN_S;
	return cycles * DEMO_STORM_LEN_S + in;
}

/* A counter moving at base per second, and at storm per second during the episodes. */
static uint64_t integral(double t, double base, double storm)
{
	double s = storm_s(t);

	return (uint64_t)(base * (t - s) + storm * s);
}

static void set(struct roce_ctr *c, uint64_t v)
{
	c->known = true;
	c->value = v;
}

static void fill_port(struct roce_port *rp, double t)
{
	struct roce_dcb *dcb = &rp->dcb;
	struct roce_ethtool *e = &rp->eth;
	int p = DEMO_ROCE_PRIO;

	/* The switch pauses priority 3 2 % of the time, 97 % in a storm (microseconds per second). */
	dcb->has_ets = dcb->has_pfc = dcb->has_dcbx = dcb->has_trust = true;
	dcb->ets_cap = 8;
	for (int i = 0; i < ROCE_PRIOS; i++)
		dcb->prio_tc[i] = (uint8_t)i;
	dcb->tc_tx_bw[0] = 50;
	dcb->tc_tx_bw[p] = 50;
	dcb->tc_tsa[0] = dcb->tc_tsa[p] = 2;	/* ETS */
	dcb->pfc_cap = 8;
	dcb->pfc_en = 1u << p;
	dcb->apps[0] = (struct roce_app){ .selector = ROCE_APP_SEL_DSCP, .priority = (uint8_t)p, .protocol = 26 };
	dcb->apps[1] = (struct roce_app){ .selector = ROCE_APP_SEL_DSCP, .priority = 6, .protocol = 48 };
	dcb->napps = 2;
	dcb->trust[0] = ROCE_APP_SEL_DSCP;
	dcb->ntrust = 1;
	dcb->dcbx = 0x02 | 0x08;	/* managed by the NIC, IEEE */
	rp->tos.known = true;
	rp->tos.value = DEMO_ROCE_TOS;

	e->nstats = 64;		/* the simulated driver's whole list; nmatched of them are the chain's */
	set(&e->prio[ROCE_PRIO_RX_PAUSE][p], integral(t, 150, 21000));
	set(&e->prio[ROCE_PRIO_TX_PAUSE][p], integral(t, 40, 40));
	set(&e->prio[ROCE_PRIO_RX_PAUSE_US][p], integral(t, 20000, 970000));
	set(&e->prio[ROCE_PRIO_TX_PAUSE_US][p], integral(t, 5000, 5000));
	set(&e->prio[ROCE_PRIO_RX_DISCARDS][p], 0);
	set(&e->prio[ROCE_PRIO_RX_ECN_MARKED][p], integral(t, 300, 300));
	for (int q = 0; q < ROCE_PRIOS; q++)
		if (q != p) {
			set(&e->prio[ROCE_PRIO_RX_PAUSE][q], 0);
			set(&e->prio[ROCE_PRIO_TX_PAUSE][q], 0);
		}
	set(&e->port[ROCE_PORT_RX_OUT_OF_BUFFER], 0);
	set(&e->port[ROCE_PORT_RX_DISCARDS_PHY], 0);
	set(&e->port[ROCE_PORT_PAUSE_STORM_WARN], 0);
	set(&e->port[ROCE_PORT_PAUSE_STORM_ERR], 0);
	/* the simulated NIC pauses per priority (PFC), not the whole link */
	e->pause_known = true;
	set(&e->port[ROCE_PORT_GLOBAL_RX_PAUSE], 0);
	set(&e->port[ROCE_PORT_GLOBAL_TX_PAUSE], 0);
	e->nmatched = 2 * ROCE_PRIOS + 4 + 6;
}

int demo_roce(const struct demo *d, const struct fab_host *h, struct roce_state *st)
{
	double t = DEMO_START_S + (double)demo_now_ns(d) / 1e9;
	int rc;

	memset(st, 0, sizeof(*st));
	st->t_ns = demo_now_ns(d);
	/* the ports and what the simulated host says of them, as on a live one */
	rc = roce_ports_of(h, st);
	for (size_t i = 0; !rc && i < st->nports; i++) {
		struct roce_port *rp = &st->ports[i];

		/* DCQCN on where the demo's RDMA lands (priority 3): its CNP traffic needs both ends */
		rp->ecn.known = true;
		for (int q = 0; q < ROCE_PRIOS; q++) {
			rp->ecn.np_known[q] = rp->ecn.rp_known[q] = true;
			rp->ecn.np[q] = rp->ecn.rp[q] = q == 3;
		}
		fill_port(rp, t);
	}
	return rc;
}
