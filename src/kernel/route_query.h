/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which interface and source the kernel uses for PEER from SRC (RTM_GETROUTE, as `ip route get`). */
#ifndef FABTOP_KERNEL_ROUTE_QUERY_H
#define FABTOP_KERNEL_ROUTE_QUERY_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/net.h"
#include "model/route.h"


/*
 * Ask the kernel of this network namespace: `ip route get PEER from SRC`
 * when src_or_iface is an address, `ip route get PEER oif IFACE` when it is
 * an interface name, plain `ip route get PEER` when NULL or "". Returns 0
 * when a route was found; -EINVAL (unparsable peer/address), -ENODEV (no
 * such interface) before asking; otherwise the kernel's -errno (also in
 * ans->error), e.g. -ENETUNREACH.
 */
int route_query(const char *peer, const char *src_or_iface, struct route_answer *ans);



/*
 * How to answer route questions about st: the kernel when st was read from
 * this host's own network namespace (st->live), the model otherwise.
 */
const struct route_ops *route_query_ops(const struct net_state *st);

#endif
