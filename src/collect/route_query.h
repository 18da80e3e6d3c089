/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which interface and source the kernel uses for PEER from SRC (RTM_GETROUTE, as `ip route get`). */
#ifndef FABTOP_COLLECT_ROUTE_QUERY_H
#define FABTOP_COLLECT_ROUTE_QUERY_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
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
 * Ask the kernel of this network namespace: `ip route get PEER from SRC`
 * when src_or_iface is an address, `ip route get PEER oif IFACE` when it is
 * an interface name, plain `ip route get PEER` when NULL or "". Returns 0
 * when a route was found; -EINVAL (unparsable peer/address), -ENODEV (no
 * such interface) before asking; otherwise the kernel's -errno (also in
 * ans->error), e.g. -ENETUNREACH.
 */
int route_query(const char *peer, const char *src_or_iface, struct route_answer *ans);

/* The same with parsed arguments; oif 0 and src family 0 mean "unset". */
int route_query_ip(const struct net_ip *peer, const struct net_ip *src, int oif, struct route_answer *ans);

/*
 * The input side, as `ip route get DST from SRC iif IFACE`: would the kernel
 * accept a packet from SRC to DST arriving on iif? Strict rp_filter and
 * martian checks refuse it (-EINVAL or -EXDEV). Returns 0 when accepted.
 */
int route_query_input(const struct net_ip *dst, const struct net_ip *src, int iif, struct route_answer *ans);

/*
 * The same decision computed from a model (replayed or simulated state):
 * rules in priority order matching "from"/"to"/oif, then the longest prefix
 * with the lowest metric in the rule's table, first in dump order on ties
 * (as the kernel's FIB does). Sets ans->from_model. Same return values.
 */
int route_query_model(const struct net_state *st, const struct net_ip *peer,
		      const struct net_ip *src, int oif, struct route_answer *ans);

#endif
