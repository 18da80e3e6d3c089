/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing an IPv4 conf sysctl of one interface: `doctor --apply` and its rollback only. */
#ifndef FABTOP_CHANGE_SYSCTL_WRITE_H
#define FABTOP_CHANGE_SYSCTL_WRITE_H

#include "model/net.h"

/*
 * Write one interface value under proc_root (root only). Returns 0 or
 * -errno. ifname "all" or "default" address those entries.
 */
int sysctl_write_iface(const char *proc_root, const char *ifname, enum net_sysctl_id id, int value);

#endif
