/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who holds RDMA resources: command, user, cgroup and PID namespace of a pid, read under the proc root. */
#ifndef FABTOP_KERNEL_PROC_ATTR_H
#define FABTOP_KERNEL_PROC_ATTR_H

#include "model/res.h"

/*
 * Fill p's comm, uid/user, cgroup (and the unit it names: derive/cgroup.h)
 * and namespace pid from PROC_ROOT/PID/{comm,status,cgroup}. A kernel
 * holder or pid 0 is left as it is. A pid that is gone or unreadable
 * leaves p->seen false (what netlink said still stands).
 */
void proc_attr_fill(const char *proc_root, struct res_proc *p);

/* Every process of rs->procs. */
void proc_attr_fill_all(const char *proc_root, struct res_state *rs);

#endif
