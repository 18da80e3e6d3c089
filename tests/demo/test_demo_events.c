// SPDX-License-Identifier: GPL-2.0-or-later
/* The demo fabric's flapping port and error bursts as events: deterministic, compared with the expected text. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../unit/tap.h"
#include "demo/demo.h"
#include "kernel/host.h"
#include "source/snapshot.h"
#include "derive/doctor.h"
#include "derive/events.h"
#include "report/events.h"

#define TICK_NS		UINT64_C(1000000000)	/* the monitor's default interval */
#define NTICKS		180			/* three simulated minutes */
#define EPOCH_NS	(UINT64_C(1767225600) * TICK_NS)	/* 2026-01-01 00:00:00 UTC */

/* One look: the host as sampled, the network and the doctor over it, derived into log. */
static int look(struct demo *d, struct fab_host *h, uint64_t t0, struct events_memory *m, struct event_log *l)
{
	struct net_state st;
	struct doctor_report r;
	struct doctor_input din;
	struct events_input in;
	uint64_t now = demo_now_ns(d);
	int rc;

	memset(&st, 0, sizeof(st));
	memset(&r, 0, sizeof(r));
	if (demo_net(d, &st))
		return -1;
	net_mark_rdma(&st, h);
	din = (struct doctor_input){ .host = h, .net = &st, .routes = snapshot_routes(&st) };
	rc = doctor_run(&din, NULL, &r);
	in = (struct events_input){ .host = h, .net = &st, .doctor = rc ? NULL : &r,
				    .real_ns = EPOCH_NS + (now - t0), .mono_ns = now };
	rc |= events_derive(m, &in, l);
	doctor_report_free(&r);
	net_state_free(&st);
	return rc;
}

static size_t count(const struct event_log *l, int kind)
{
	size_t n = 0;

	for (size_t i = 0; i < event_log_count(l); i++)
		n += (int)event_log_at(l, i)->kind == kind;
	return n;
}

int main(int argc, char **argv)
{
	const char *top = getenv("TOP_SRCDIR");
	struct demo *d = demo_new(7);
	struct events_memory m;
	struct event_log l;
	struct fab_host h;
	char path[4096], *text = NULL, *want;
	size_t len = 0;
	FILE *f;
	uint64_t t0;
	int failed = 0;

	setenv("TZ", "UTC", 1);
	tzset();
	events_memory_init(&m);
	if (!d || event_log_init(&l, 0) || demo_collect(d, &h)) {
		printf("1..0 # SKIP out of memory\n");
		return 0;
	}
	t0 = demo_now_ns(d);
	failed |= look(d, &h, t0, &m, &l);
	ASSERT_EQ_U64(event_log_count(&l), 0, "the first look derives nothing");
	for (int i = 0; i < NTICKS; i++) {
		demo_tick(d, &h, TICK_NS);
		failed |= look(d, &h, t0, &m, &l);
	}
	ASSERT_EQ_INT(failed, 0, "every look derived");
	ASSERT_CMP_U64(count(&l, EVENT_LINK_FLAP), >=, 2, "the flapping port flaps (derived)");
	ASSERT_CMP_U64(count(&l, EVENT_PORT_STATE), >=, 4, "its state changes");
	ASSERT_CMP_U64(count(&l, EVENT_ERROR_BURST), >=, 2, "error bursts");
	ASSERT_CMP_U64(count(&l, EVENT_NETDEV), >=, 2, "ib1 follows its port: carrier lost and back");

	f = open_memstream(&text, &len);
	if (f) {
		events_report(f, false, &l, 0);
		fclose(f);
	}
	/* With an argument: write the text there (how the expected file was made; review the diff). */
	if (argc > 1) {
		f = fopen(argv[1], "w");
		if (f) {
			fputs(text ? text : "", f);
			fclose(f);
		}
	}
	snprintf(path, sizeof(path), "%s/tests/data/demo/seed7-events.txt", top ? top : ".");
	want = tap_slurp(path, NULL);
	ASSERT_NOT_NULL(want, "tests/data/demo/seed7-events.txt is there");
	ASSERT_EQ_STR(text ? text : "", want ? want : "", "seed 7, 180 one-second samples: the expected events");
	free(want);
	free(text);
	fab_host_free(&h);
	demo_free(d);
	events_memory_free(&m);
	event_log_free(&l);
	return tap_done();
}
