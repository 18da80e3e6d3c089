/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RoCE chain of every Ethernet RDMA port: DCB and ethtool statistics of its netdev. */
#ifndef FABTOP_KERNEL_ROCE_H
#define FABTOP_KERNEL_ROCE_H

#include "model/fabric.h"
#include "model/roce.h"

/*
 * For each Ethernet port of h: its lower netdev (a VLAN's parent: DCB and
 * pause live there), RTM_GETDCB and the ethtool statistics of it. When
 * root is not "/sys" (a fixture tree), the answers are replayed from
 * ROOT/fabtop-recorded/NETDEV/{dcb.nl,ethtool.bin} (doc/roce.md), and a
 * netdev with no recording reads as not answered. Returns 0 or -ENOMEM.
 */
int roce_collect(const struct fab_host *h, const char *root, struct roce_state *st);

/*
 * The RoCE ports of h (Ethernet, no iWARP RNIC) with what the host itself
 * says of them: device, port, lower netdev ("" if none), the RDMA
 * congestion counters, rdma_cm's TOS and mode, RoCE v2 GIDs; st->ports
 * allocated (st->nports of them), nothing asked of the netdevs. Both the
 * live collection and the demo start here. 0 or -ENOMEM.
 */
int roce_ports_of(const struct fab_host *h, struct roce_state *st);

/*
 * The second recorded sample of a fixture tree: prev's ports, with the
 * ethtool statistics of ROOT/fabtop-recorded/next/NETDEV/ethtool.bin and
 * the hw_counters of ROOT/fabtop-recorded/next/DEV-PORT.hw_counters
 * ("name value" lines), one second later. -ENOENT when there is none.
 */
int roce_collect_next(const char *root, const struct roce_state *prev, struct roce_state *st);

/* Read a recording made in the format roce_collect() replays: 0 or -errno. */
int roce_replay_dcb(const char *path, struct roce_dcb *out);
int roce_replay_ethtool(const char *path, struct roce_ethtool *out);
int roce_replay_pause(const char *path, struct roce_ethtool *out);

#endif
