/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the demo: what its files share (the fix applied to the simulated network). */
#ifndef FABTOP_DEMO_DEMO_INT_H
#define FABTOP_DEMO_DEMO_INT_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "demo/demo.h"
#include "model/net.h"

#define DEMO_FIX_ROUTES		8
#define DEMO_FIX_SYSCTLS	16

/* The doctor's fix as applied to the simulated host: what demo_net() adds to the network it builds. */
struct demo_netfix {
	size_t nroutes;
	struct {
		char ifname[IFNAMSIZ];
		struct net_ip addr, subnet;
		uint8_t prefixlen;
		uint32_t table, priority;
	} routes[DEMO_FIX_ROUTES];
	size_t nsysctls;
	struct {
		char ifname[IFNAMSIZ];
		enum net_sysctl_id id;
		int value;
	} sysctls[DEMO_FIX_SYSCTLS];
};

struct demo_netfix *demo_netfix_of(struct demo *d);
const struct demo_netfix *demo_netfix_get(const struct demo *d);
/* The network's own fix: what the host had before anyone applied one (demo_unfix() goes back to it). */
struct demo_netfix *demo_netfix_base_of(struct demo *d);
/* Put the doctor's fix in as the network's own (demo_net.c): 0 or -ENOMEM. */
int demo_netfix_base(struct demo *d);

struct demo_scenario;
const struct demo_scenario *demo_scenario_of(const struct demo *d);
/* Is what (DS_*) broken now? */
bool demo_broken(const struct demo *d, unsigned int what);
/* The scenario's own fix: in (from now on), whether it is, and since when (simulated ns, 0: not). */
void demo_sc_fix(struct demo *d);
bool demo_sc_fixed(const struct demo *d);
uint64_t demo_sc_fix_ns(const struct demo *d);

#endif
