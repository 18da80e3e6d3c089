// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the probe server's fairness rules (no RDMA): useful work, eviction, per-source cap, claims, saturation. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "probe/fair.h"
#include "probe/probe_int.h"
#include "../unit/tap.h"

#define MS 1000000ull
#define S (1000 * MS)

/* A trickle of one message per idle period never counts as useful work; a real client does. */
static void test_meter(void)
{
	struct fair_meter m;
	uint64_t t = 100 * S;
	int i;

	fair_meter_init(&m, t);
	TAP_OK(!fair_idle(&m, t + 999 * MS), "a newcomer is not idle inside its first window");
	TAP_OK(fair_idle(&m, t + 1000 * MS), "a newcomer that did nothing for a window is idle");
	/* the old rule's loophole: one PING every 1.5 s (msgs > 0, never idle for the old server) */
	for (i = 1; i <= 10; i++)
		fair_meter_add(&m, t + (uint64_t)i * 1500 * MS, 1, 128);
	TAP_OK(fair_idle(&m, t + 15000 * MS + 1), "one 64-byte ping per 1.5 s is not useful work");
	ASSERT_EQ_U64(m.t_useful, t, "... it never met the rate: idle since its start");
	/* back-to-back pings: useful */
	fair_meter_add(&m, t + 16 * S, 1, 128);
	fair_meter_add(&m, t + 16 * S + 5 * MS, 1, 128);
	TAP_OK(!fair_idle(&m, t + 16 * S + 900 * MS), "two pings inside a window are useful work");
	TAP_OK(fair_idle(&m, t + 17 * S + 5 * MS), "... for one window after the last of them");
	/* a bw stream: one PROGRESS moves megabytes */
	fair_meter_init(&m, t);
	fair_meter_add(&m, t + 500 * MS, 0, 40000);
	TAP_OK(!fair_idle(&m, t + 1400 * MS), "32 KiB or more inside a window is useful work");
	/* a clock that goes backwards is never a reason to evict */
	TAP_OK(!fair_idle(&m, t - S), "a time before the last useful work is not idle");
}

static void test_victim(void)
{
	struct fair_meter m[4];
	struct fair_cand c[4] = {
		{ true, &m[0], "10.0.0.1" }, { true, &m[1], "10.0.0.2" },
		{ true, &m[2], "10.0.0.1" }, { false, &m[3], "10.0.0.1" },
	};
	uint64_t t = 50 * S;

	fair_meter_init(&m[0], t);
	fair_meter_init(&m[1], t + 100 * MS);
	fair_meter_init(&m[2], t + 200 * MS);
	fair_meter_init(&m[3], t - 10 * S);	/* closing: never a candidate */
	ASSERT_EQ_INT(fair_pick_victim(c, 4, t + 500 * MS, NULL), -1, "nobody idle yet: no victim");
	ASSERT_EQ_INT(fair_pick_victim(c, 4, t + 5 * S, NULL), 0, "all idle: the one idle longest");
	/* 0 works at the rate, 1 trickles: 1 goes although 0 is older */
	fair_meter_add(&m[0], t + 4900 * MS, 1, 64);
	fair_meter_add(&m[0], t + 4950 * MS, 1, 64);
	fair_meter_add(&m[1], t + 4950 * MS, 1, 64);
	ASSERT_EQ_INT(fair_pick_victim(c, 4, t + 5 * S, NULL), 1, "the working connection stays; the trickler goes");
	ASSERT_EQ_INT(fair_pick_victim(c, 4, t + 5 * S, "10.0.0.1"), 2, "restricted to a source: its own idle one");
	ASSERT_EQ_INT(fair_pick_victim(c, 4, t + 5 * S, "10.9.9.9"), -1, "a source with nothing here: no victim");
	ASSERT_EQ_INT(fair_pick_victim(c, 0, t, NULL), -1, "no slots: no victim");
	c[1].m = NULL;
	c[1].src = NULL;
	ASSERT_EQ_INT(fair_pick_victim(c, 2, t + 5 * S, "10.0.0.1"), -1, "a slot without meter or source is skipped");
}

static void test_admit(void)
{
	struct fair_meter m[4];
	struct fair_cand c[4];
	uint64_t t = 10 * S;
	int v, i;

	for (i = 0; i < 4; i++) {
		fair_meter_init(&m[i], t);
		c[i] = (struct fair_cand){ true, &m[i], "10.0.0.1" };
	}
	ASSERT_EQ_INT(fair_default_per_source(16), 8, "default per source: half of 16");
	ASSERT_EQ_INT(fair_default_per_source(1), 1, "default per source: at least 1");
	ASSERT_EQ_INT(fair_default_per_source(3), 1, "default per source: half of 3 is 1");
	/* one source holding 2 of 8 slots with a cap of 2 */
	c[2].active = c[3].active = false;
	ASSERT_EQ_INT(fair_admit(c, 4, t + 10 * MS, "10.0.0.1", 8, 2, &v), FAIR_REJECT_SOURCE,
		      "a third connection from a source capped at 2 (both working) is rejected");
	ASSERT_EQ_INT(v, -1, "... with no victim");
	ASSERT_EQ_INT(fair_admit(c, 4, t + 10 * MS, "10.0.0.2", 8, 2, &v), FAIR_ADMIT,
		      "another source is admitted");
	ASSERT_EQ_INT(fair_admit(c, 4, t + 2 * S, "10.0.0.1", 8, 2, &v), FAIR_EVICT_SOURCE,
		      "the capped source's own idle connection yields to its newcomer");
	ASSERT_EQ_INT(v, 0, "... the one idle longest");
	/* full server of 4 slots, two sources */
	for (i = 0; i < 4; i++)
		c[i] = (struct fair_cand){ true, &m[i], i < 2 ? "10.0.0.1" : "10.0.0.2" };
	ASSERT_EQ_INT(fair_admit(c, 4, t + 10 * MS, "10.0.0.3", 4, 2, &v), FAIR_REJECT_BUSY,
		      "full, everyone inside its first window: busy");
	fair_meter_add(&m[0], t + 1900 * MS, 5, 500);
	fair_meter_add(&m[1], t + 1900 * MS, 5, 500);
	fair_meter_add(&m[3], t + 1900 * MS, 5, 500);
	ASSERT_EQ_INT(fair_admit(c, 4, t + 2 * S, "10.0.0.3", 4, 2, &v), FAIR_EVICT_FULL,
		      "full: the idle connection yields to a newcomer");
	ASSERT_EQ_INT(v, 2, "... and only the idle one");
	fair_meter_add(&m[2], t + 1950 * MS, 5, 500);
	ASSERT_EQ_INT(fair_admit(c, 4, t + 2 * S, "10.0.0.3", 4, 2, &v), FAIR_REJECT_BUSY,
		      "full and everyone working: busy");
	ASSERT_EQ_INT(fair_admit(c, 4, t + 2 * S, "10.0.0.3", 4, 0, &v), FAIR_REJECT_BUSY,
		      "per_source 0 means the default");
	ASSERT_EQ_INT(fair_count(c, 4, "10.0.0.2"), 2, "count by source");
	ASSERT_EQ_INT(fair_count(c, 4, NULL), 4, "count of all");
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
	test_victim();
	test_admit();
	test_claims();
	test_saturation();
	return tap_done();
}
