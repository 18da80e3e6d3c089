/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Route answers (`ip route get`) and the lookup ops that give them: the kernel's or the model's. */
#ifndef FABTOP_MODEL_ROUTE_H
#define FABTOP_MODEL_ROUTE_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/net.h"

struct route_answer {
	int error;			/* 0, or the kernel's errno (ENETUNREACH, EINVAL for a non-local src, ...) */
	int oif;			/* the interface traffic leaves by, 0 if none */
	char oif_name[IFNAMSIZ];
	struct net_ip src;		/* the source address the kernel picks (RTA_PREFSRC) */
	struct net_ip gateway;		/* next hop, family 0 when on-link */
	uint32_t table;			/* the table that decided (RTA_TABLE) */
	uint8_t type;			/* RTN_UNICAST, RTN_LOCAL, ... */
	bool from_model;		/* computed from a net_state, not asked of the kernel */
};

/*
 * Who answers route questions about a network state. The doctor and the
 * reports ask through these ops and never know whether the answer came
 * from the kernel (a live host, kernel/route_query.h) or from the model
 * (a fixture, the demo, a recording). Both return 0 when a route was found,
 * else -errno (also in ans->error).
 */
struct route_ops {
	const char *name;		/* "kernel", "model" */
	/* `ip route get PEER [from SRC] [oif OIF]`; oif 0 and src family 0 mean unset */
	int (*output)(const struct net_state *st, const struct net_ip *peer, const struct net_ip *src,
		      int oif, struct route_answer *ans);
	/* `ip route get DST from SRC iif IIF`: would a packet be accepted? NULL: not known here */
	int (*input)(const struct net_state *st, const struct net_ip *dst, const struct net_ip *src,
		     int iif, struct route_answer *ans);
};

extern const struct route_ops route_model_ops;

/*
 * The kernel's output decision computed from st: rules in priority order
 * matching "from"/"to"/oif, then the longest prefix with the lowest metric
 * in the rule's table, first in dump order on ties (as the kernel's FIB
 * does). Sets ans->from_model.
 */
int route_model_output(const struct net_state *st, const struct net_ip *peer,
		       const struct net_ip *src, int oif, struct route_answer *ans);

/* Address length of an address family (4, 16), 0 for any other. */
size_t route_family_len(uint8_t family);

#endif
