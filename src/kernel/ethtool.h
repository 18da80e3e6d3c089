/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Read a netdev's ethtool statistics (SIOCETHTOOL ETHTOOL_GSTRINGS + ETHTOOL_GSTATS). */
#ifndef FABTOP_KERNEL_ETHTOOL_H
#define FABTOP_KERNEL_ETHTOOL_H

#include "model/roce.h"

/*
 * The driver's statistics of ifname into out (ethtool_stats_parse()).
 * Returns 0 when read; out->err and the return say why not: -ENODEV (not
 * in this namespace), -EOPNOTSUPP (no statistics), -ENOMEM, -EBADMSG (the
 * count changed between the calls).
 */
int ethtool_read(const char *ifname, struct roce_ethtool *out);

#endif
