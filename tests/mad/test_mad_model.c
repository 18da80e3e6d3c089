// SPDX-License-Identifier: GPL-2.0-or-later
/* The IB model glue: PMA counters appended to the host model, rates across two samples, the notes for ports without an SM. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "../unit/tap.h"
#include "collect/mad_port.h"
#include "derive/counters.h"
#include "model/ibfabric.h"

static void test_append(void)
{
	struct fab_host h;
	struct fab_device dev;
	struct fab_port port;
	struct ib_local_port lp;
	struct fab_counter *c;
	double bps;

	memset(&h, 0, sizeof(h));
	memset(&dev, 0, sizeof(dev));
	memset(&port, 0, sizeof(port));
	memset(&lp, 0, sizeof(lp));
	snprintf(dev.name, sizeof(dev.name), "mlx5_0");
	port.num = 1;
	port.counters = calloc(1, sizeof(*port.counters));
	counter_define(&port.counters[0], "port_xmit_data", COUNTER_SRC_COUNTERS, false);
	port.ncounters = 1;
	dev.ports = &port;
	dev.nports = 1;
	h.devs = &dev;
	h.ndevs = 1;

	snprintf(lp.ca, sizeof(lp.ca), "mlx5_0");
	lp.port = 1;
	counter_define(&lp.pma.c[0], "port_xmit_data", COUNTER_SRC_PMA, true);
	counter_define(&lp.pma.c[1], "symbol_error", COUNTER_SRC_PMA, true);
	lp.pma.n = 2;
	counter_sample_value(&lp.pma.c[0], true, 1000);
	counter_sample_value(&lp.pma.c[0], true, 1000 + 25000000);
	counter_sample_value(&lp.pma.c[1], true, 65535);

	ASSERT_EQ_INT(mad_port_append_pma(&h, &lp), 0, "append succeeds");
	ASSERT_EQ_INT(port.ncounters, 3, "sysfs counter kept, 2 PMA counters added");
	ASSERT_EQ_INT(port.counters[1].source, COUNTER_SRC_PMA, "source is PMA");
	ASSERT_EQ_STR(fab_counter_source_str(port.counters[1].source), "pma", "named pma");
	c = &port.counters[1];
	bps = 0;
	TAP_OK(counter_bytes_rate(c, 100000000ull, &bps) && bps == 1e9,
	       "rate of the appended counter: 25M words in 0.1 s = 1 GB/s (got %.17g B/s)", bps);

	ASSERT_EQ_INT(port.counters[2].saturated, 1, "16-bit symbol_error at 65535 is saturated");
	ASSERT_EQ_INT(port.counters[2].fd, -1, "no fd to close");

	/* no matching port: nothing appended, no error */
	snprintf(lp.ca, sizeof(lp.ca), "mlx5_9");
	ASSERT_EQ_INT(mad_port_append_pma(&h, &lp), 0, "unknown device: 0");
	ASSERT_EQ_INT(port.ncounters, 3, "... and nothing appended");
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
	TAP_OK(strstr(lp.note, "no subnet manager") && strstr(lp.note, "opensm"), "INIT + LinkUp: no SM, start one: %s", lp.note);
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

int main(void)
{
	test_append();
	test_notes();
	return tap_done();
}
