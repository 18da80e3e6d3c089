/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Link pause settings and frame counters of a netdev through ethtool netlink (ETHTOOL_MSG_PAUSE_GET). */
#ifndef FABTOP_KERNEL_ETHTOOL_NL_H
#define FABTOP_KERNEL_ETHTOOL_NL_H

#include "model/roce.h"

/*
 * Resolve the "ethtool" generic netlink family, then PAUSE_GET with
 * ETHTOOL_FLAG_STATS for ifname: out's pause fields and link pause frame
 * counters. out->pause_err says what the kernel answered (-ENOENT: no
 * ethtool netlink, Linux before 5.6; -EOPNOTSUPP: the driver has no pause
 * settings). Returns 0, or -errno when the socket failed or the answer was
 * malformed. One request each, a 1 s receive timeout.
 */
int ethtool_nl_pause(const char *ifname, struct roce_ethtool *out);

#endif
