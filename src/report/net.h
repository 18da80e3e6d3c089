/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One-shot reports of the network state of RDMA netdevs (fabtop show net), as text or JSON. */
#ifndef FABTOP_REPORT_NET_H
#define FABTOP_REPORT_NET_H

#include <stdio.h>

#include "model/fabric.h"
#include "model/net.h"
#include "report/json.h"

/* Addresses of RDMA netdevs, IPoIB, routes of all tables, rules, sysctls, default_roce_mode. */
void net_report_text(FILE *f, const struct fab_host *h, const struct net_state *st);
/* Members "netdevs", "routes", "rules", "roce_modes" inside an open object. */
void net_report_json(struct json *j, const struct fab_host *h, const struct net_state *st);

#endif
