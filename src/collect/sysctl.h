/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The IPv4 conf sysctls (rp_filter, arp_*, accept_local) from PROC/sys/net/ipv4/conf. */
#ifndef FABTOP_COLLECT_SYSCTL_H
#define FABTOP_COLLECT_SYSCTL_H

#include "model/net.h"

/*
 * Read all, default and IFACE values of every setting of one interface
 * under proc_root ("/proc" or a fixture tree) and compute the effective
 * ones. Unreadable values stay unknown. Returns 0 or -ENOENT when the
 * interface has no conf directory (not IPv4-enabled, or not in this netns).
 */
int sysctl_read_iface(const char *proc_root, const char *ifname, struct net_if_sysctls *out);


/*
 * Write one interface value (root only; used by `doctor --apply`). Returns
 * 0 or -errno. ifname "all" or "default" address those entries.
 */
int sysctl_write_iface(const char *proc_root, const char *ifname, enum net_sysctl_id id, int value);

#endif
