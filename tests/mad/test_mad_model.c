// SPDX-License-Identifier: GPL-2.0-or-later
/* The IB model glue: PMA counters in place of the host model's sysfs ones, rates across two samples, the notes for ports without an SM. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "../unit/tap.h"
#include "mad/mad_port.h"
#include "derive/counters.h"
#include "model/ibfabric.h"

static void test_apply(void)
{
	struct fab_port port;
	struct ib_pma pma;
	struct fab_counter *c;
	double bps;

	memset(&port, 0, sizeof(port));
	memset(&pma, 0, sizeof(pma));
	port.num = 1;
	port.counters = calloc(3, sizeof(*port.counters));
	counter_define(&port.counters[0], "port_xmit_data", COUNTER_SRC_COUNTERS, false);
	counter_define(&port.counters[1], "rx_write_requests", COUNTER_SRC_HW_COUNTERS, false);
	counter_define(&port.counters[2], "port_xmit_data_64", COUNTER_SRC_COUNTERS_EXT, false);
	port.ncounters = 3;
	port.sample_ns = 5;

	counter_define(&pma.c[0], "port_xmit_data", COUNTER_SRC_PMA, true);
	counter_define(&pma.c[1], "symbol_error", COUNTER_SRC_PMA, true);
	pma.n = 2;
	pma.prev_sample_ns = 1000000000ull;
	pma.sample_ns = 1100000000ull;
	counter_sample_value(&pma.c[0], true, 1000);
	counter_sample_value(&pma.c[0], true, 1000 + 25000000);
	counter_sample_value(&pma.c[1], true, 65535);

	ASSERT_EQ_INT(mad_port_apply_pma(&port, &pma), 2, "the counters/ and counters_ext/ entries dropped");
	ASSERT_EQ_INT(port.ncounters, 3, "hw_counters kept, 2 PMA counters in");
	ASSERT_EQ_STR(port.counters[0].name, "rx_write_requests", "the driver's counter first");
	ASSERT_EQ_INT(port.counters[1].source, COUNTER_SRC_PMA, "source is PMA");
	ASSERT_EQ_STR(fab_counter_source_str(port.counters[1].source), "pma", "named pma");
	ASSERT_EQ_U64(port.sample_ns - port.prev_sample_ns, 100000000ull, "the port's times are the PMA's");
	c = port_data_counter(&port, DIR_XMIT);
	TAP_OK(c == &port.counters[1], "the port's data counter is the PMA's");
	bps = 0;
	TAP_OK(counter_bytes_rate(c, port.sample_ns - port.prev_sample_ns, &bps) && bps == 1e9,
	       "rate of the PMA counter: 25M words in 0.1 s = 1 GB/s (got %.17g B/s)", bps);
	ASSERT_EQ_INT(port.counters[2].saturated, 1, "16-bit symbol_error at 65535 is saturated");
	ASSERT_EQ_INT(port.counters[2].fd, -1, "no fd to close");
	ASSERT_EQ_INT(port.has_pma, 1, "the port has a PMA");

	/* The next sample replaces the PMA counters, it does not add to them. */
	counter_sample_value(&pma.c[0], true, 2000 + 25000000);
	ASSERT_EQ_INT(mad_port_apply_pma(&port, &pma), 0, "nothing from sysfs left to drop");
	ASSERT_EQ_INT(port.ncounters, 3, "still 3 counters");
	ASSERT_EQ_U64(port.counters[1].value, 2000 + 25000000ull, "the new value");

	pma.n = 0;
	ASSERT_EQ_INT(mad_port_apply_pma(&port, &pma), 0, "no PMA sample: nothing done");
	ASSERT_EQ_INT(port.ncounters, 3, "... and the counters kept");
	free(port.counters);
}

static void test_notes(void)
{
	struct ib_local_port lp;

	memset(&lp, 0, sizeof(lp));
	lp.self_state = IBQ_OK;
	lp.pi.state = 2;		/* INIT */
	lp.pi.phys_state = 5;		/* LinkUp */
	mad_port_explain(&lp);
	TAP_OK(strstr(lp.note, "all-zero GUID") != NULL, "INIT + LinkUp, GUIDs all zero: a VF the SM cannot address: %s",
	       lp.note);
	lp.node.port_guid = 1;		/* one bit is not zero */
	mad_port_explain(&lp);
	TAP_OK(strstr(lp.note, "no subnet manager") && strstr(lp.note, "opensm"), "INIT + LinkUp: no SM, start one: %s", lp.note);
	lp.pi.sm_lid = 1;		/* the first unicast LID: an SM has reached it */
	mad_port_explain(&lp);
	TAP_OK(strstr(lp.note, "naming SM LID 1: that subnet manager has not made it ACTIVE") &&
	       !strstr(lp.note, "no subnet manager"), "INIT, SM LID 1: an SM, not ACTIVE yet: %s", lp.note);
	lp.pi.sm_lid = 0xbfff;		/* the last unicast LID */
	mad_port_explain(&lp);
	TAP_OK(strstr(lp.note, "naming SM LID 49151") != NULL, "INIT, SM LID 0xbfff: still an SM: %s", lp.note);
	lp.pi.sm_lid = 0xc000;		/* the first multicast LID: no SM's address */
	mad_port_explain(&lp);
	TAP_OK(strstr(lp.note, "no subnet manager") != NULL, "INIT, SM LID 0xc000: no SM: %s", lp.note);
	lp.pi.sm_lid = 0;
	lp.pi.phys_state = 2;		/* Polling */
	lp.pi.state = 1;
	mad_port_explain(&lp);
	TAP_OK(strstr(lp.note, "link is not up") != NULL, "Polling: the link: %s", lp.note);
	lp.pi.state = 4;
	lp.pi.phys_state = 5;
	lp.sm.lid = 1;
	lp.sm.state = IBQ_TIMEOUT;
	mad_port_explain(&lp);
	TAP_OK(strstr(lp.note, "did not answer SMInfo") != NULL, "SM silent: %s", lp.note);
	lp.sm.state = IBQ_OK;
	lp.pma.state = IBQ_OK;
	lp.peer_pma.state = IBQ_TIMEOUT;
	mad_port_explain(&lp);
	ASSERT_EQ_STR(lp.note, "partner PMA: timeout", "partner PMA silent");
	lp.self_state = IBQ_TIMEOUT;
	mad_port_explain(&lp);
	TAP_OK(strstr(lp.note, "local SMA did not answer (timeout)") != NULL, "own SMA silent: %s", lp.note);
	ASSERT_EQ_STR(ib_query_state_str((enum ib_query_state)99), "unknown", "out-of-range state named unknown");
}

/*
 * A port's counters found by slot: at their place when defined in order
 * (one comparison), by name when a recording lists them otherwise, NULL
 * when the port has no such counter (no IETF extended set).
 */
static void test_slots(void)
{
	struct ib_pma *pma = calloc(1, sizeof(*pma));
	const struct fab_counter *c;

	pma->cap_mask = 0x0400;		/* PortCountersExtended without the IETF-compatible unicast/multicast */
	mad_port_pma_define(pma);
	ASSERT_EQ_INT(pma->n, IB_PMA_SLOTS - 4, "defined: every counter but the IETF four");
	for (int s = 0; s < IB_PMA_SLOTS - 4; s++) {
		c = ib_pma_counter(pma, (enum ib_pma_slot)s);
		if (!c || c != &pma->c[s] || strcmp(c->name, ib_pma_names[s])) {
			TAP_OK(0, "slot %d (%s) is at its place", s, ib_pma_names[s]);
			break;
		}
		if (s == IB_PMA_SLOTS - 5)
			TAP_OK(1, "every slot is at its place, named as in ib_pma_names");
	}
	ASSERT_EQ_STR(ib_pma_counter(pma, IB_PMA_XMIT_WAIT)->name, "port_xmit_wait", "IB_PMA_XMIT_WAIT");
	ASSERT_EQ_STR(ib_pma_counter(pma, IB_PMA_LINK_DOWNED)->name, "link_downed", "IB_PMA_LINK_DOWNED");
	TAP_OK(ib_pma_counter(pma, IB_PMA_UNICAST_XMIT_PACKETS) == NULL, "no IETF set: unicast_xmit_packets is NULL");
	TAP_OK(ib_pma_counter(pma, IB_PMA_SLOTS) == NULL, "a slot past the table: NULL");
	/* A recording's order: the first two swapped. */
	{
		struct fab_counter t = pma->c[0];

		pma->c[0] = pma->c[2];
		pma->c[2] = t;
	}
	c = ib_pma_counter(pma, IB_PMA_LINK_DOWNED);
	TAP_OK(c == &pma->c[0] && !strcmp(c->name, "link_downed"), "out of order: link_downed found by name at 0");
	c = ib_pma_counter(pma, IB_PMA_SYMBOL_ERROR);
	TAP_OK(c == &pma->c[2] && !strcmp(c->name, "symbol_error"), "... and symbol_error at 2");
	free(pma);
}

int main(void)
{
	test_slots();
	test_apply();
	test_notes();
	return tap_done();
}
