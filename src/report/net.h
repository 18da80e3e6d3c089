/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One-shot reports of the network state of RDMA netdevs (fabtop show net), as text or JSON. */
#ifndef FABTOP_REPORT_NET_H
#define FABTOP_REPORT_NET_H

#include <stdio.h>

#include "model/fabric.h"
#include "model/net.h"
#include "report/out.h"

/*
 * Addresses of RDMA netdevs, IPoIB, routes of all tables, rules, sysctls,
 * default_roce_mode; in JSON the members "netdevs", "routes", "rules",
 * "roce_modes" of the open object (the neighbours are text only).
 */
void net_report(struct out *o, const struct fab_host *h, const struct net_state *st);

#endif
