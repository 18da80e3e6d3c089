// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of probe pieces that need no RDMA: options, failures before the network, timeline, statistics. */
#include "config.h"

#include <string.h>

#include "probe/probe.h"
#include "probe/probe_int.h"
#include "../unit/tap.h"
#include "util.h"

static void test_names(void)
{
	enum probe_mode m;

	ASSERT_EQ_INT(probe_mode_parse("lat", &m), 0, "mode lat parses");
	ASSERT_EQ_INT(m, PROBE_MODE_LAT, "mode lat");
	ASSERT_EQ_INT(probe_mode_parse("bw", &m), 0, "mode bw parses");
	ASSERT_EQ_INT(m, PROBE_MODE_BW, "mode bw");
	ASSERT_EQ_INT(probe_mode_parse("rping", &m), 0, "mode rping parses");
	ASSERT_EQ_INT(m, PROBE_MODE_RPING, "mode rping");
	ASSERT_EQ_INT(probe_mode_parse("ping", &m), -1, "an unknown mode is refused");
	ASSERT_EQ_INT(probe_mode_parse("", &m), -1, "an empty mode is refused");
	ASSERT_EQ_STR(probe_state_name(PROBE_RESOLVING_ROUTE), "resolving route", "state name");
	ASSERT_EQ_STR(probe_state_name((enum probe_state)77), "unknown", "state name out of range");
	ASSERT_EQ_STR(probe_mode_name((enum probe_mode)5), "unknown", "mode name out of range");
}

/* Bad options end in FAILED with a message, before any RDMA call. */
static void test_bad_opts(void)
{
	struct probe_opts o;
	struct probe *p;
	const struct probe_status *st;
	struct pollfd fds[4];

	probe_opts_init(&o);
	ASSERT_EQ_INT(o.port, 7174, "default port is rping's");
	ASSERT_EQ_INT(o.timeout_ms, 3000, "default step timeout");
	o.peer = "10.0.0.1";
	o.size = 10;
	p = probe_start(&o);
	st = probe_status(p);
	ASSERT_EQ_INT(st->state, PROBE_FAILED, "rping size 10 fails");
	ASSERT_CONTAINS(st->error, "rping size must be 26..65535 bytes, not 10", "... saying why");
	ASSERT_EQ_INT(probe_fds(p, fds, 4), 0, "a failed probe has no fds");
	ASSERT_EQ_INT(probe_timeout_ms(p, util_now_ns()), -1, "... and no deadline");
	ASSERT_EQ_INT(probe_handle(p, util_now_ns()), 0, "... and stays ended");
	probe_stop(p);
	probe_free(p);

	probe_opts_init(&o);
	o.peer = "not an address!";
	p = probe_start(&o);
	st = probe_status(p);
	TAP_OK(st->state == PROBE_FAILED && strstr(st->error, "cannot resolve"), "bad peer: %s", st->error);
	ASSERT_EQ_STR(st->n_events ? st->events[0].name : "", "ADDR_ERROR", "bad peer is an ADDR_ERROR event");
	probe_free(p);

	probe_opts_init(&o);
	o.peer = "10.0.0.1";
	o.from = "no-such-if0";
	p = probe_start(&o);
	st = probe_status(p);
	TAP_OK(st->state == PROBE_FAILED && strstr(st->error, "neither an address nor an interface"),
	       "bad --from: %s", st->error);
	probe_free(p);

	probe_opts_init(&o);
	o.peer = "10.0.0.1";
	o.from = "lo";
	o.mode = PROBE_MODE_LAT;
	o.size = 8;
	p = probe_start(&o);
	st = probe_status(p);
	TAP_OK(st->state == PROBE_FAILED && strstr(st->error, "lat size"), "lat size 8: %s", st->error);
	probe_free(p);

	probe_opts_init(&o);
	o.peer = "10.0.0.1";
	o.mode = PROBE_MODE_BW;
	o.depth = 65;
	p = probe_start(&o);
	ASSERT_EQ_STR(probe_state_name(probe_status(p)->state), "failed", "bw depth 65 fails");
	probe_free(p);

	probe_opts_init(&o);
	o.peer = "";
	p = probe_start(&o);
	ASSERT_EQ_STR(probe_state_name(probe_status(p)->state), "failed", "empty peer fails");
	probe_free(p);
	probe_free(NULL);	/* a no-op, as free(NULL) */
}

/* Whatever the machine (RDMA or not), a valid start never blocks and is freed cleanly. */
static void test_start_anywhere(void)
{
	struct probe_opts o;
	struct probe *p;
	const struct probe_status *st;
	uint64_t t0 = util_now_ns();

	probe_opts_init(&o);
	o.peer = "127.0.0.1";
	o.timeout_ms = 200;
	p = probe_start(&o);
	st = probe_status(p);
	TAP_OK(st->state == PROBE_FAILED || st->state == PROBE_RESOLVING_ADDR,
	       "start on this machine: %s %s", probe_state_name(st->state), st->error);
	probe_stop(p);
	st = probe_status(p);
	TAP_OK(!probe_active(p), "stopped: %s", probe_state_name(st->state));
	probe_free(p);
	TAP_OK(util_now_ns() - t0 < 2000000000ull, "start+stop returned within 2 s");
}

static void test_timeline(void)
{
	struct probe_opts o;
	struct probe *p;
	const struct probe_status *st;
	int i;

	probe_opts_init(&o);
	o.peer = "10.0.0.1";
	o.size = 1;	/* fails at once: a quiet probe to write events into */
	p = probe_start(&o);
	for (i = 0; i < 100; i++)
		probe_event_add(p, p->t0_ns + (uint64_t)i * 1000, "X", i, false, "event %d", i);
	st = probe_status(p);
	ASSERT_EQ_INT(st->events_total, 101, "101 events recorded");
	ASSERT_EQ_INT(st->n_events, PROBE_MAX_EVENTS, "the newest 64 kept");
	ASSERT_EQ_STR(st->events[st->n_events - 1].text, "event 99", "newest last");
	ASSERT_EQ_INT(st->events[0].status, 100 - PROBE_MAX_EVENTS, "oldest kept first");
	ASSERT_EQ_U64(st->events[st->n_events - 1].t_ns, 99000, "timestamps relative to the start");
	probe_free(p);
}

static void test_stats(void)
{
	struct stats s;
	struct probe_latency l;
	uint64_t t = 1000000000ull;
	int i;

	stats_init(&s, 1000);
	stats_latency(&s, &l);
	ASSERT_EQ_U64(l.n, 0, "no samples");
	ASSERT_EQ_U64(l.p50_ns, 0, "no samples: p50 0");
	stats_start(&s, t);
	for (i = 1; i <= 100; i++)
		stats_lat(&s, (uint64_t)i * 1000);
	stats_latency(&s, &l);
	ASSERT_EQ_U64(l.min_ns, 1000, "min");
	ASSERT_EQ_U64(l.p50_ns, 50000, "p50 is the 50th of 100 (nearest rank)");
	ASSERT_EQ_U64(l.p99_ns, 99000, "p99 is the 99th of 100");
	ASSERT_EQ_U64(l.max_ns, 100000, "max");
	stats_add(&s, t + 500000000ull, 10, 125000000);	/* 1 Gbit in 0.5 s */
	ASSERT_NEAR(s.gbps, 0, 1e-9, "no rate before a full second");
	stats_add(&s, t + 1000000000ull, 10, 125000000);
	ASSERT_NEAR(s.gbps, 2.0, 1e-9, "2 Gbit in the first second: 2 Gb/s");
	ASSERT_NEAR(s.msgs_per_s, 20, 1e-9, "20 msg/s");
	ASSERT_NEAR(stats_avg_gbps(&s), 2.0, 1e-9, "average over the data phase");
	stats_free(&s);

	/* the ring keeps the newest samples; min/max cover all */
	stats_init(&s, 10);
	for (i = 1; i <= 25; i++)
		stats_lat(&s, (uint64_t)i);
	stats_latency(&s, &l);
	TAP_OK(l.n == 25 && l.min_ns == 1 && l.max_ns == 25 && l.p50_ns == 20,
	       "ring of 10: n %llu min %llu p50 %llu max %llu", (unsigned long long)l.n,
	       (unsigned long long)l.min_ns, (unsigned long long)l.p50_ns, (unsigned long long)l.max_ns);
	stats_free(&s);
}

/*
 * The deadlines of the state machine, without RDMA: a probe that failed
 * early holds no resources, so it can be put in any state by hand and
 * driven with a made-up clock.
 */
static void test_deadlines(void)
{
	static const struct {
		enum probe_state state;
		enum probe_state after;
		const char *event, *text;
	} cases[] = {
		{ PROBE_RESOLVING_ADDR, PROBE_FAILED, "TIMEOUT", "no ADDR_RESOLVED within 1500 ms" },
		{ PROBE_RESOLVING_ROUTE, PROBE_FAILED, "TIMEOUT", "no ROUTE_RESOLVED within 1500 ms" },
		{ PROBE_CONNECTING, PROBE_FAILED, "TIMEOUT", "no answer to the connection request within 1500 ms" },
		{ PROBE_RUNNING, PROBE_FAILED, "TIMEOUT", "no completion for 700 ms after 0 messages" },
		{ PROBE_DISCONNECTING, PROBE_DONE, "TIMEOUT", "no DISCONNECTED within 1500 ms; closing anyway" },
	};
	struct probe_opts o;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct probe *p;
		const struct probe_status *st;
		uint64_t t0;

		probe_opts_init(&o);
		o.peer = "10.0.0.1";
		o.size = 1;
		o.timeout_ms = 1500;
		o.idle_ms = 700;
		p = probe_start(&o);
		/* back to a live state, as if the step had been issued at t0 */
		t0 = util_now_ns();
		p->state = cases[i].state;
		probe_set_deadline(p, t0, cases[i].state == PROBE_RUNNING ? o.idle_ms : o.timeout_ms, "x");
		ASSERT_EQ_INT(probe_timeout_ms(p, t0 + 200000000ull),
			      cases[i].state == PROBE_RUNNING ? 500 : 1300,
			      "poll timeout counts down to the deadline");
		ASSERT_EQ_INT(probe_handle(p, t0 + 100000000ull), 1, "before the deadline the probe stays");
		ASSERT_EQ_INT(probe_status(p)->state, cases[i].state, "... in its state");
		probe_handle(p, t0 + 1600000000ull);
		st = probe_status(p);
		ASSERT_EQ_INT(st->state, cases[i].after, probe_state_name(cases[i].state));
		TAP_OK(st->n_events && !strcmp(st->events[st->n_events - 1].name, cases[i].event) &&
		       strstr(st->events[st->n_events - 1].text, cases[i].text),
		       "%s -> %s: %s", probe_state_name(cases[i].state), st->n_events ?
		       st->events[st->n_events - 1].name : "", st->n_events ? st->events[st->n_events - 1].text : "");
		TAP_OK(!probe_active(p) && probe_timeout_ms(p, t0) == -1, "ended: no more deadlines");
		probe_free(p);
	}
}

int main(void)
{
	test_names();
	test_bad_opts();
	test_start_anywhere();
	test_timeline();
	test_stats();
	test_deadlines();
	return tap_done();
}
