/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The demo fabric's RoCE chain: simulated DCB, ethtool statistics and TOS of its RoCE port (doc/demo.md). */
#ifndef FABTOP_DEMO_DEMO_ROCE_H
#define FABTOP_DEMO_DEMO_ROCE_H

#include "demo/demo.h"
#include "model/fabric.h"
#include "model/roce.h"

/* Seconds of the pause-storm cycle, and the episode within it (doc/demo.md). */
#define DEMO_STORM_CYCLE_S	90
#define DEMO_STORM_START_S	60
#define DEMO_STORM_LEN_S	12

/*
 * The chain of h's RoCE ports at d's simulated time (st->t_ns): PFC on
 * priority 3, DSCP 26 -> 3 and rdma_cm TOS 106, mlx5-named ethtool
 * counters whose pause time on priority 3 reaches 97 % during the storm
 * episode of every cycle; the congestion counters are h's hw_counters. iWARP
 * (RNIC) ports are not RoCE and are left out. 0 or -ENOMEM.
 */
int demo_roce(const struct demo *d, const struct fab_host *h, struct roce_state *st);

#endif
