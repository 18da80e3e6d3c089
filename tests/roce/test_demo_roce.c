// SPDX-License-Identifier: GPL-2.0-or-later
/* The demo's RoCE chain: PFC on priority 3, CNP traffic, the pause-storm episode and its finding. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "../unit/tap.h"
#include "demo/demo.h"
#include "demo/demo_roce.h"
#include "kernel/host.h"
#include "derive/roce_check.h"
#include "derive/roce_ctr.h"

#define S 1000000000ull

static size_t count_code(const struct doctor_finding *fs, size_t n, const char *code)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += !strcmp(fs[i].code, code);
	return c;
}

int main(void)
{
	struct demo *d = demo_new(1);
	struct fab_host h;
	struct roce_state a, b;
	struct doctor_finding fs[16];
	struct roce_tc tc;
	size_t n;
	double share;

	memset(&h, 0, sizeof(h));
	if (!d || demo_collect(d, &h)) {
		TAP_OK(false, "demo collects");
		return tap_done();
	}
	demo_tick(d, &h, 10 * S);
	ASSERT_EQ_INT(demo_roce(d, &h, &a), 0, "a sample of the demo's chain");
	ASSERT_EQ_INT(a.nports, 1, "one RoCE port (the iWARP RNIC is no RoCE)");
	ASSERT_EQ_STR(a.ports[0].dev, "mlx5_1", "the RoCE NIC");
	ASSERT_EQ_STR(a.ports[0].netdev, "enp65s0f0", "its lower netdev, not the VLAN");
	roce_tc_of(&a.ports[0], &tc);
	TAP_OK(tc.dscp == 26 && tc.prio == 3 && (a.ports[0].dcb.pfc_en & 0x08),
	       "TOS 106 -> DSCP 26 -> priority 3, PFC on (dscp %d prio %d pfc %#x)", tc.dscp, tc.prio, a.ports[0].dcb.pfc_en);
	demo_tick(d, &h, 10 * S);
	demo_roce(d, &h, &b);
	n = roce_check(&a, &b, fs, 16);
	ASSERT_EQ_INT(n, 0, "outside the episode the chain is healthy: no finding");
	TAP_OK(b.ports[0].cc[ROCE_CC_CNP_SENT].value > a.ports[0].cc[ROCE_CC_CNP_SENT].value &&
	       b.ports[0].cc[ROCE_CC_CNP_HANDLED].value > a.ports[0].cc[ROCE_CC_CNP_HANDLED].value,
	       "CNP traffic: sent and handled move");
	share = roce_pause_share(&a.ports[0].eth.prio[ROCE_PRIO_RX_PAUSE_US][3], &b.ports[0].eth.prio[ROCE_PRIO_RX_PAUSE_US][3], 10);
	ASSERT_NEAR(share, 0.02, 0.001, "priority 3 paused 2 % of the time normally");
	roce_state_free(&a);
	roce_state_free(&b);

	/* Into the episode: 62 s and 70 s of the 90 s cycle. */
	demo_tick(d, &h, 42 * S);
	demo_roce(d, &h, &a);
	demo_tick(d, &h, 8 * S);
	demo_roce(d, &h, &b);
	share = roce_pause_share(&a.ports[0].eth.prio[ROCE_PRIO_RX_PAUSE_US][3], &b.ports[0].eth.prio[ROCE_PRIO_RX_PAUSE_US][3], 8);
	ASSERT_NEAR(share, 0.97, 0.001, "in the storm: paused 97 % of the time");
	n = roce_check(&a, &b, fs, 16);
	ASSERT_EQ_INT(count_code(fs, n < 16 ? n : 16, "roce-pause-storm"), 1, "the pause storm is found");
	ASSERT_CONTAINS(fs[0].title, "priority 3", "on priority 3");
	roce_state_free(&a);
	roce_state_free(&b);

	/* After it (80 s .. 88 s): calm again. */
	demo_tick(d, &h, 10 * S);
	demo_roce(d, &h, &a);
	demo_tick(d, &h, 8 * S);
	demo_roce(d, &h, &b);
	ASSERT_EQ_INT(roce_check(&a, &b, fs, 16), 0, "after the episode: no finding");
	roce_state_free(&a);
	roce_state_free(&b);
	fab_host_free(&h);
	demo_free(d);
	return tap_done();
}
