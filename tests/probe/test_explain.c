// SPDX-License-Identifier: GPL-2.0-or-later
/* A failed probe's why, from the attempt and a host's model: each cause at the edge where it starts to hold. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "demo/demo.h"
#include "derive/doctor.h"
#include "model/net.h"
#include "model/route.h"
#include "probe/explain.h"
#include "../unit/tap.h"

/* A client's failed attempt: ADDR_RESOLVED on dev/port from local (when given), then the failure. */
static void attempt(struct probe_status *st, struct probe_event *ev, const char *local, const char *dev,
		    unsigned int port, const char *fail, int status)
{
	memset(st, 0, sizeof(*st));
	memset(ev, 0, 2 * sizeof(*ev));
	st->state = PROBE_FAILED;
	st->sgid_index = -1;
	st->events = ev;
	if (local) {
		snprintf(st->local, sizeof(st->local), "%s:35346", local);
		snprintf(st->device, sizeof(st->device), "%s", dev);
		st->port_num = (uint8_t)port;
		snprintf(ev[st->n_events++].name, PROBE_EVENT_NAME_MAX, "ADDR_RESOLVED");
	}
	snprintf(ev[st->n_events].name, PROBE_EVENT_NAME_MAX, "%s", fail);
	ev[st->n_events].status = status;
	ev[st->n_events++].error = true;
	st->events_total = st->n_events;
}

static bool cited(const struct explain *ex, const char *code)
{
	for (unsigned int i = 0; i < ex->ncited; i++)
		if (!strcmp(ex->cited[i], code))
			return true;
	return false;
}

int main(void)
{
	struct demo *d = demo_new(7);
	struct fab_host h;
	struct net_state st;
	struct doctor_report rep;
	struct probe_status ps;
	struct probe_event ev[2];
	struct probe_opts o;
	struct explain ex, again, merged;
	struct explain_input in;
	struct fab_port *p1;

	demo_collect(d, &h);
	demo_net(d, &st);
	net_mark_rdma(&st, &h);
	ASSERT_EQ_INT(doctor_run(&(struct doctor_input){ .host = &h, .net = &st, .routes = &route_model_ops }, NULL, &rep),
		      0, "the doctor on the demo host");
	in = (struct explain_input){ .host = &h, .net = &st, .routes = &route_model_ops, .doctor = &rep };
	probe_opts_init(&o);
	o.peer = "172.16.16.1";

	/* not failed, or failed locally: nothing to explain */
	attempt(&ps, ev, "172.16.34.1", "mlx5_0", 1, "REJECTED", 8);
	ps.state = PROBE_DONE;
	ASSERT_EQ_INT((int)explain_attempt(&in, &o, &ps, &ex), 0, "a probe that did not fail has no why");
	attempt(&ps, ev, NULL, NULL, 0, "ERROR", 0);
	ASSERT_EQ_INT((int)explain_attempt(&in, &o, &ps, &ex), 0, "a local failure has no why of the path");

	/* REJECTED 8 from the first NIC: nothing listens; from the second: the wrong interface */
	o.port = 9999;
	attempt(&ps, ev, "172.16.34.1", "mlx5_0", 1, "REJECTED", 8);
	explain_attempt(&in, &o, &ps, &ex);
	ASSERT_EQ_STR(explain_cause_str(ex.cause), "no-listener", "REJECTED 8 on the right path: no listener");
	ASSERT_EQ_INT((int)ex.ncited, 0, "... and no finding cited");
	ASSERT_CONTAINS(ex.line[0], "nothing listens on port 9999 of 172.16.16.1", "... the cause line names the port");
	attempt(&ps, ev, "172.16.34.2", "mlx5_0", 1, "REJECTED", 8);
	explain_attempt(&in, &o, &ps, &ex);
	ASSERT_EQ_STR(explain_cause_str(ex.cause), "wrong-interface", "REJECTED 8 from ib1's address: the wrong interface");
	TAP_OK(cited(&ex, "same-subnet-route") && cited(&ex, "strict-rp-filter"), "... citing findings 1 and 3");
	/* the same mistake's other symptoms: a timeout, UNREACHABLE -110 */
	attempt(&ps, ev, "172.16.34.2", "mlx5_0", 1, "UNREACHABLE", -ETIMEDOUT);
	explain_attempt(&in, &o, &ps, &ex);
	ASSERT_EQ_STR(explain_cause_str(ex.cause), "wrong-interface", "UNREACHABLE -110 from ib1's address: the same cause");
	attempt(&ps, ev, "172.16.34.2", "mlx5_0", 1, "TIMEOUT", -ETIMEDOUT);
	explain_attempt(&in, &o, &ps, &ex);
	ASSERT_EQ_STR(explain_cause_str(ex.cause), "wrong-interface", "a timeout from ib1's address: the same cause");
	/* a timeout from the first NIC: this host is right, the rest not known */
	attempt(&ps, ev, "172.16.34.1", "mlx5_0", 1, "TIMEOUT", -ETIMEDOUT);
	explain_attempt(&in, &o, &ps, &ex);
	ASSERT_EQ_STR(explain_cause_str(ex.cause), "unknown-past-host", "a timeout on the right path: not known past it");
	/* another reject reason on the right path: the peer's own */
	attempt(&ps, ev, "172.16.34.1", "mlx5_0", 1, "REJECTED", 28);
	snprintf(ev[1].text, sizeof(ev[1].text), "reason 28 (consumer defined)");
	explain_attempt(&in, &o, &ps, &ex);
	ASSERT_EQ_STR(explain_cause_str(ex.cause), "refused-by-peer", "REJECTED 28 on the right path: the peer's reason");

	/* the port the CM used goes DOWN, then INIT: the port is the cause, before the path */
	p1 = fab_host_find_port(&h, "mlx5_0", 1);
	TAP_OK(p1 != NULL, "the demo has mlx5_0 port 1");
	if (p1) {
		enum fab_port_state was = p1->state;

		p1->state = PORT_STATE_DOWN;
		attempt(&ps, ev, "172.16.34.1", "mlx5_0", 1, "TIMEOUT", -ETIMEDOUT);
		explain_attempt(&in, &o, &ps, &ex);
		ASSERT_EQ_STR(explain_cause_str(ex.cause), "port-not-active", "the port DOWN: the port is the cause");
		ASSERT_CONTAINS(ex.line[0], "mlx5_0 port 1 is DOWN", "... named with its state");
		p1->state = PORT_STATE_ARMED;
		explain_attempt(&in, &o, &ps, &ex);
		ASSERT_EQ_STR(explain_cause_str(ex.cause), "port-not-active", "ARMED is not ACTIVE either");
		p1->state = PORT_STATE_ACTIVE;
		explain_attempt(&in, &o, &ps, &ex);
		ASSERT_EQ_STR(explain_cause_str(ex.cause), "unknown-past-host", "ACTIVE: the port is no longer the cause");
		p1->state = was;
	}

	/* the network changed after the failure: then's cause, now's route, never a claim about now */
	attempt(&ps, ev, "172.16.34.2", "mlx5_0", 1, "REJECTED", 8);
	explain_attempt(&in, &o, &ps, &ex);
	attempt(&ps, ev, "172.16.34.1", "mlx5_0", 1, "REJECTED", 8);
	explain_attempt(&in, &o, &ps, &again);
	explain_merge_again(&merged, &ex, &again);
	ASSERT_CONTAINS(merged.line[0], "the network changed after this attempt failed", "after a change: it says so");
	ASSERT_CONTAINS(merged.line[1], "then: cause: the request for 172.16.34.2 left by ib0", "... the cause then");
	{
		bool claims = false;

		for (unsigned int i = 0; i < merged.n; i++)
			claims |= strstr(merged.line[i], "cause: nothing listens") != NULL;
		TAP_OK(!claims, "... and no cause of now (what the old event means now is known only by trying)");
	}

	/* every line fits, the table of lines never overflows */
	TAP_OK(ex.n <= EXPLAIN_MAX_LINES && ex.ncited <= ex.n, "lines within EXPLAIN_MAX_LINES, citations among them");
	doctor_report_free(&rep);
	net_state_free(&st);
	fab_host_free(&h);
	demo_free(d);
	return tap_done();
}
