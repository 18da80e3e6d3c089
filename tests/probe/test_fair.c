// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the probe server's fairness rules (no RDMA): useful work in bytes, eviction, the per-/24 cap, claims, saturation. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>

#include "probe/fair.h"
#include "probe/probe_int.h"
#include "../unit/tap.h"

#define MS 1000000ull
#define S (1000 * MS)

/* Useful work is bytes on the wire against the port's rate; a message count alone earns nothing. */
static void test_meter(void)
{
	struct fair_meter m;
	uint64_t t = 100 * S;
	int i;

	ASSERT_EQ_U64(fair_port_rate_mbps(32, 2), 103124, "EDR 4x");
	ASSERT_EQ_U64(fair_port_rate_mbps(1, 1), 2500, "SDR 1x");
	ASSERT_EQ_U64(fair_port_rate_mbps(3, 2), 0, "an unknown speed: rate unknown");
	ASSERT_EQ_U64(fair_min_bytes(0), FAIR_MIN_BYTES, "rate unknown: the floor");
	ASSERT_EQ_U64(fair_min_bytes(10000), 12500, "10 Gb/s: 12.5 kB a window");
	ASSERT_EQ_U64(fair_min_bytes(100000), 125000, "100 Gb/s: 125 kB a window");
	ASSERT_EQ_U64(fair_min_bytes(2500), FAIR_MIN_BYTES, "2.5 Gb/s: the floor");
	ASSERT_EQ_U64(fair_min_bytes(UINT64_MAX), UINT64_MAX, "an absurd rate saturates, no overflow");

	fair_meter_init(&m, t, 0);
	ASSERT_EQ_U64(m.min_bytes, FAIR_MIN_BYTES, "min_bytes 0 is the floor");
	TAP_OK(!fair_idle(&m, t + 999 * MS), "a newcomer is not idle inside its first window");
	TAP_OK(fair_idle(&m, t + 1000 * MS), "a newcomer that did nothing for a window is idle");
	/* the loophole of a message count: two 64-byte pings (and their echoes) a second */
	for (i = 1; i <= 20; i++)
		fair_meter_add(&m, t + (uint64_t)i * 500 * MS, 1, 128);
	TAP_OK(fair_idle(&m, t + 10000 * MS + 1), "two 64-byte pings a second are not useful work");
	ASSERT_EQ_U64(m.t_useful, t, "... they never met the minimum: idle since the start");
	TAP_OK(fair_recent_bytes(&m, t + 10000 * MS + 1) > 0, "... but they moved something lately");
	/* back-to-back pings: useful */
	for (i = 0; i < 30; i++)
		fair_meter_add(&m, t + 11 * S + (uint64_t)i * MS, 1, 128);
	TAP_OK(!fair_idle(&m, t + 11 * S + 900 * MS), "thirty pings inside a window are useful work");
	TAP_OK(fair_idle(&m, t + 12 * S + 29 * MS), "... for one window after the last of them");
	/* a bw stream: one PROGRESS moves megabytes */
	fair_meter_init(&m, t, fair_min_bytes(10000));
	fair_meter_add(&m, t + 500 * MS, 0, 40000);
	TAP_OK(!fair_idle(&m, t + 1400 * MS), "40 kB inside a window on a 10 Gb/s port is useful work");
	fair_meter_init(&m, t, fair_min_bytes(100000));
	fair_meter_add(&m, t + 500 * MS, 0, 40000);
	TAP_OK(fair_idle(&m, t + 1400 * MS), "... on a 100 Gb/s port it is not");
	/* a clock that goes backwards is never a reason to evict */
	TAP_OK(!fair_idle(&m, t - S), "a time before the last useful work is not idle");
	fair_meter_add(&m, t - S, 1, 1);
	TAP_OK(!fair_idle(&m, t - S), "... nor does work from before it break the meter");
}

/* The per-source cap's key: /24 for IPv4 (and IPv4-mapped IPv6), /64 for IPv6. */
static void test_src_key(void)
{
	struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_port = htons(7174) };
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct sockaddr sx = { .sa_family = AF_UNIX };
	char k[PROBE_ADDR_MAX];

	inet_pton(AF_INET, "10.9.0.201", &s4.sin_addr);
	fair_src_key((struct sockaddr *)&s4, k, sizeof(k));
	ASSERT_EQ_STR(k, "10.9.0.0/24", "IPv4: its /24");
	inet_pton(AF_INET6, "2001:db8:1:2:aaaa:bbbb:cccc:dddd", &s6.sin6_addr);
	fair_src_key((struct sockaddr *)&s6, k, sizeof(k));
	ASSERT_EQ_STR(k, "2001:db8:1:2::/64", "IPv6: its /64");
	inet_pton(AF_INET6, "::ffff:10.9.0.7", &s6.sin6_addr);
	fair_src_key((struct sockaddr *)&s6, k, sizeof(k));
	ASSERT_EQ_STR(k, "10.9.0.0/24", "IPv4-mapped: the IPv4 /24");
	fair_src_key(&sx, k, sizeof(k));
	ASSERT_EQ_STR(k, "?", "another family");
	fair_src_key(NULL, k, sizeof(k));
	ASSERT_EQ_STR(k, "?", "no address");
}

static void test_victim(void)
{
	struct fair_meter m[4];
	struct fair_cand c[4] = {
		{ true, &m[0], "10.0.0.0/24" }, { true, &m[1], "10.0.1.0/24" },
		{ true, &m[2], "10.0.0.0/24" }, { false, &m[3], "10.0.0.0/24" },
	};
	uint64_t t = 50 * S;
	int i;

	fair_meter_init(&m[0], t, 0);
	fair_meter_init(&m[1], t + 100 * MS, 0);
	fair_meter_init(&m[2], t + 200 * MS, 0);
	fair_meter_init(&m[3], t - 10 * S, 0);	/* closing: never a candidate */
	ASSERT_EQ_INT(fair_pick_victim(c, 4, t + 500 * MS, NULL), -1, "nobody idle yet: no victim");
	ASSERT_EQ_INT(fair_pick_victim(c, 4, t + 5 * S, NULL), 0, "all silent: the one idle longest");
	/* 0 trickles two pings a second, 1 is silent: 1 is the least useful although 0 is older */
	for (i = 0; i < 10; i++)
		fair_meter_add(&m[0], t + 4 * S + (uint64_t)i * 100 * MS, 1, 128);
	ASSERT_EQ_INT(fair_pick_victim(c, 4, t + 5 * S, NULL), 1, "the least useful goes first: silence before a trickle");
	/* 1 now works at the rate: the trickler 0 goes, 2 (silent) before it */
	for (i = 0; i < 40; i++)
		fair_meter_add(&m[1], t + 4900 * MS, 1, 128);
	ASSERT_EQ_INT(fair_pick_victim(c, 4, t + 5 * S, NULL), 2, "the working connection stays; the silent one goes");
	ASSERT_EQ_INT(fair_pick_victim(c, 4, t + 5 * S, "10.0.0.0/24"), 2, "restricted to a source: its own");
	ASSERT_EQ_INT(fair_pick_victim(c, 4, t + 5 * S, "10.9.9.0/24"), -1, "a source with nothing here: no victim");
	ASSERT_EQ_INT(fair_pick_victim(c, 0, t, NULL), -1, "no slots: no victim");
	c[1].m = NULL;
	c[1].src = NULL;
	ASSERT_EQ_INT(fair_pick_victim(c, 2, t + 5 * S, "10.0.0.0/24"), 0, "a slot without meter or source is skipped");
}

static void test_admit(void)
{
	struct fair_meter m[16];
	struct fair_cand c[16];
	uint64_t t = 10 * S;
	int v, i, k;

	for (i = 0; i < 4; i++) {
		fair_meter_init(&m[i], t, 0);
		c[i] = (struct fair_cand){ true, &m[i], "10.0.0.0/24" };
	}
	ASSERT_EQ_INT(fair_default_per_source(16), 8, "default per source: half of 16");
	ASSERT_EQ_INT(fair_default_per_source(1), 1, "default per source: at least 1");
	ASSERT_EQ_INT(fair_default_per_source(3), 1, "default per source: half of 3 is 1");
	/* one source holding 2 of 8 slots with a cap of 2 */
	c[2].active = c[3].active = false;
	ASSERT_EQ_INT(fair_admit(c, 4, t + 10 * MS, "10.0.0.0/24", 8, 2, &v), FAIR_REJECT_SOURCE,
		      "a third connection from a /24 capped at 2 (both new) is rejected");
	ASSERT_EQ_INT(v, -1, "... with no victim");
	ASSERT_EQ_INT(fair_admit(c, 4, t + 10 * MS, "10.0.1.0/24", 8, 2, &v), FAIR_ADMIT,
		      "another /24 is admitted");
	ASSERT_EQ_INT(fair_admit(c, 4, t + 2 * S, "10.0.0.0/24", 8, 2, &v), FAIR_EVICT_SOURCE,
		      "the capped source's own idle connection yields to its newcomer");
	ASSERT_EQ_INT(v, 0, "... the one idle longest");
	/* full server of 4 slots, two sources */
	for (i = 0; i < 4; i++)
		c[i] = (struct fair_cand){ true, &m[i], i < 2 ? "10.0.0.0/24" : "10.0.1.0/24" };
	ASSERT_EQ_INT(fair_admit(c, 4, t + 10 * MS, "10.0.2.0/24", 4, 2, &v), FAIR_REJECT_BUSY,
		      "full, everyone inside its first window: busy");
	fair_meter_add(&m[0], t + 1900 * MS, 50, 5000);
	fair_meter_add(&m[1], t + 1900 * MS, 50, 5000);
	fair_meter_add(&m[3], t + 1900 * MS, 50, 5000);
	ASSERT_EQ_INT(fair_admit(c, 4, t + 2 * S, "10.0.2.0/24", 4, 2, &v), FAIR_EVICT_FULL,
		      "full: the idle connection yields to a newcomer");
	ASSERT_EQ_INT(v, 2, "... and only the idle one");
	fair_meter_add(&m[2], t + 1950 * MS, 50, 5000);
	ASSERT_EQ_INT(fair_admit(c, 4, t + 2 * S, "10.0.2.0/24", 4, 2, &v), FAIR_REJECT_BUSY,
		      "full and everyone working: busy");
	ASSERT_EQ_INT(fair_admit(c, 4, t + 2 * S, "10.0.2.0/24", 4, 0, &v), FAIR_REJECT_BUSY,
		      "per_source 0 means the default");
	ASSERT_EQ_INT(fair_count(c, 4, "10.0.1.0/24"), 2, "count by source");
	ASSERT_EQ_INT(fair_count(c, 4, NULL), 4, "count of all");

	/*
	 * The default 16 slots held by slow hoarders, two pings a second each,
	 * half from each of two addresses: a newcomer waits, the least useful
	 * hoarder yields. Each address has its own /24 here (a cap per address
	 * would let them fill every slot); two addresses of one /24 get 8.
	 */
	for (i = 0; i < 16; i++) {
		fair_meter_init(&m[i], t, fair_min_bytes(10000));
		c[i] = (struct fair_cand){ true, &m[i], i % 2 ? "10.0.0.0/24" : "10.0.1.0/24" };
		for (k = 0; k < 6; k++)
			fair_meter_add(&m[i], t + (uint64_t)k * 500 * MS + (uint64_t)i * MS, 1, 128);
	}
	ASSERT_EQ_INT(fair_admit(c, 16, t + 3 * S, "10.0.2.0/24", 16, 0, &v), FAIR_EVICT_FULL,
		      "sixteen slow hoarders (two pings a second): a newcomer evicts one");
	ASSERT_EQ_INT(v, 0, "... the one idle longest among equals");
	for (i = 0; i < 16; i++)
		c[i].src = "10.0.0.0/24";	/* two addresses of one /24 */
	ASSERT_EQ_INT(fair_count(c, 8, "10.0.0.0/24"), 8, "eight from one /24 ...");
	ASSERT_EQ_INT(fair_admit(c, 8, t + 10 * MS, "10.0.0.0/24", 16, 0, &v), FAIR_REJECT_SOURCE,
		      "... and a ninth from it (another address of the /24) is over the cap, though 8 slots are free");
}

static void test_claims(void)
{
	ASSERT_EQ_INT(fair_claim_check(0, 100, 0, 65536, 1 * S), FAIR_CLAIM_OK, "100 writes of 64 KiB in 1 s");
	ASSERT_EQ_INT(fair_claim_check(10, 5, 0, 4096, S), FAIR_CLAIM_BACKWARDS, "backwards");
	ASSERT_EQ_INT(fair_claim_check(0, 101, 100, 4096, S), FAIR_CLAIM_PAST_COUNT, "past the announced count");
	ASSERT_EQ_INT(fair_claim_check(0, 100, 100, 4096, S), FAIR_CLAIM_OK, "exactly the announced count");
	/* the old server's hole: count 0 (unbounded) trusted any claim, and totals wrapped */
	ASSERT_EQ_INT(fair_claim_check(0, UINT64_MAX, 0, 4096, S), FAIR_CLAIM_OVERFLOW,
		      "count 0: 2^64-1 writes of 4 KiB overflow");
	ASSERT_EQ_INT(fair_claim_check(0, 1ull << 40, 0, 4096, S), FAIR_CLAIM_TOO_FAST,
		      "count 0: 2^40 writes of 4 KiB in 1 s are more than any link carries");
	ASSERT_EQ_INT(fair_claim_check(0, 1ull << 40, 0, 4096, 20000ull * S), FAIR_CLAIM_OK,
		      "... in 20000 s at 225 GB/s they are plausible");
	ASSERT_EQ_INT(fair_claim_check(0, 1, 0, 4096, 0), FAIR_CLAIM_TOO_FAST, "anything at time 0 is too fast");
	ASSERT_EQ_INT(fair_claim_check(0, 0, 0, 4096, 0), FAIR_CLAIM_OK, "nothing at time 0 is fine");
	ASSERT_EQ_INT(fair_claim_check(0, UINT64_MAX / 2, 0, 1, UINT64_MAX), FAIR_CLAIM_OK,
		      "the time bound itself never overflows");
	ASSERT_EQ_STR(fair_claim_str(FAIR_CLAIM_TOO_FAST), "more bytes than any link carries in the time", "claim text");
	ASSERT_EQ_STR(fair_claim_str((enum fair_claim)99), "unknown", "claim text out of range");
}

/* Server totals saturate: a claim (or 2^64 bytes of honest traffic) never wraps them. */
static void test_saturation(void)
{
	struct stats st;

	ASSERT_EQ_U64(fair_sat_add(UINT64_MAX - 1, 5), UINT64_MAX, "saturating add at the top");
	ASSERT_EQ_U64(fair_sat_add(3, 4), 7, "saturating add below it");
	TAP_OK(!stats_init(&st, 4), "stats_init");
	stats_add(&st, 1 * S, 1, UINT64_MAX - 10);
	stats_add(&st, 2 * S, UINT64_MAX, 100);
	ASSERT_EQ_U64(st.bytes, UINT64_MAX, "server byte total saturates instead of wrapping");
	ASSERT_EQ_U64(st.msgs, UINT64_MAX, "server message total saturates instead of wrapping");
	stats_free(&st);
}

int main(void)
{
	test_meter();
	test_src_key();
	test_victim();
	test_admit();
	test_claims();
	test_saturation();
	return tap_done();
}
