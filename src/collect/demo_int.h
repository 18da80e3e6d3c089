/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the demo: what its files share (the fix applied to the simulated network). */
#ifndef FABTOP_COLLECT_DEMO_INT_H
#define FABTOP_COLLECT_DEMO_INT_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/demo.h"
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

#endif
