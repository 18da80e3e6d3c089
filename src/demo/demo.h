/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The demo fabric: a simulated host filled through the same model as real hardware. */
#ifndef FABTOP_DEMO_DEMO_H
#define FABTOP_DEMO_DEMO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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
/* The host of a scenario (collect/demo_scenario.h; NULL: the default demo). NULL when out of memory. */
struct demo_scenario;
struct demo *demo_new_scenario(unsigned long seed, const struct demo_scenario *sc);

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

/* The seed the demo was made with. */
unsigned long demo_seed(const struct demo *d);

/*
 * How busy a simulated port's send side is now, per mille of its link rate
 * (the traffic a probe shares the link with); 0 when the port is not ACTIVE
 * or not the demo's.
 */
unsigned int demo_port_load(const struct demo *d, const char *dev, unsigned int port);

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

/*
 * Fixing the simulated host (the doctor's `--apply`, the Doctor pane's a):
 * plan's routes, rules and sysctls are put into the simulated network
 * (demo_net() shows them from then on), each step written to log as the
 * command a real host would run, every line marked SIMULATED. Nothing on
 * the machine changes. Returns 0, 1 when nothing was left to apply, or
 * -ENOMEM. demo_unfix() takes every applied fix back (1: none was).
 */
struct fix_plan;
int demo_fix(struct demo *d, const struct fix_plan *plan, FILE *log);
int demo_unfix(struct demo *d, FILE *log);
/* A fix an earlier run kept, put back: the doctor's routing fix if route, the scenario's own if own. 0 or -ENOMEM. */
int demo_refix(struct demo *d, bool route, bool own);
/* Which parts of the fix are in now: the routing one, the scenario's own. */
void demo_fix_parts(const struct demo *d, bool *route, bool *own);
/* Whether a fix is applied to the simulated host now. */
bool demo_fixed(const struct demo *d);
/*
 * The scenario's lines for a header (fabtop --demo NAME): its story and
 * where to look, or what the fixed host shows. false: the default demo
 * (no story).
 */
bool demo_story(const struct demo *d, char *story, size_t ssize, char *hint, size_t hsize, bool *fixed);

void demo_free(struct demo *d);

#endif
