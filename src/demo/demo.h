/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The demo fabric: a simulated host filled through the same model as real hardware. */
#ifndef FABTOP_DEMO_DEMO_H
#define FABTOP_DEMO_DEMO_H

#include <stdbool.h>
#include <stdint.h>

#include "model/fabric.h"

/*
 * A built-in simulated host (like bmon's dummy input): a dual-port IB HCA
 * whose IPoIB netdevs ib0/ib1 share one /16 (the same-subnet mistake of
 * doc/demo.md), a RoCE NIC with v1/v2 GIDs and a VLAN, and an iWARP NIC
 * without PMA. Its counters are sampled through counter_define() and
 * collect_counter_text() under the source they stand for, so rates,
 * saturation and deltas go through the normal derive code. Everything is a
 * function of the seed and of simulated time: a given seed and tick sequence
 * gives identical numbers on every run. See doc/demo.md.
 */
struct demo;

/* NULL when out of memory. */
struct demo *demo_new(unsigned long seed);

/*
 * Build the host model (structure + first sample) at the current simulated
 * time, like collect_host(); h must be zeroed or freed (fab_host_free()).
 * Returns 0 or -ENOMEM (h is then empty).
 */
int demo_collect(struct demo *d, struct fab_host *h);

/*
 * Advance simulated time by dt_ns and take a new sample into h, like
 * collect_counters_refresh(); sample_ns is simulated time, never the wall
 * clock. May change port states (the flapping port). Returns true when the
 * structure changed (a port went down or up) so a view can redraw details.
 * h must come from demo_collect() on the same demo.
 */
bool demo_tick(struct demo *d, struct fab_host *h, uint64_t dt_ns);

/* Simulated time of the latest sample, in ns (what sample_ns holds). */
uint64_t demo_now_ns(const struct demo *d);

/*
 * Whether a simulated netdev has carrier now: its port is ACTIVE (ib1 loses
 * it while port 2 flaps). Netdevs of no simulated port are up.
 */
bool demo_link_up(const struct demo *d, const char *netdev);

/*
 * The simulated host's network (memserver34 of doc/demo.md): links with ib0/ib1
 * (IPoIB datagram, MTU 2044), the RoCE NIC and its VLAN, the iWARP NIC;
 * addresses; main and local tables with two routes for 172.16.0.0/16 and
 * no per-interface rules; rp_filter=1 as Ubuntu 18.04 sets it. ib1 follows
 * the flapping port. st is overwritten; release it with net_state_free().
 * Returns 0 or -ENOMEM.
 */
struct net_state;
int demo_net(struct demo *d, struct net_state *st);

void demo_free(struct demo *d);

#endif
