/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The IPv4 conf sysctls (rp_filter, arp_*, accept_local) from PROC/sys/net/ipv4/conf. */
#ifndef FABTOP_KERNEL_SYSCTL_H
#define FABTOP_KERNEL_SYSCTL_H

#include <stddef.h>

#include "model/net.h"

/*
 * Read all, default and IFACE values of every setting of one interface
 * under proc_root ("/proc" or a fixture tree) and compute the effective
 * ones. Unreadable values stay unknown. Returns 0 or -ENOENT when the
 * interface has no conf directory (not IPv4-enabled, or not in this netns).
 */
int sysctl_read_iface(const char *proc_root, const char *ifname, struct net_if_sysctls *out);


/* The path below a proc root of one setting: "sys/net/ipv4/conf/IFACE/NAME". 0 or -EINVAL, -ENAMETOOLONG. */
int sysctl_path(const char *ifname, enum net_sysctl_id id, char *buf, size_t size);

#endif
