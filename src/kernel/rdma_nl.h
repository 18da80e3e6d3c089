/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDMA netlink socket I/O (libmnl): the resource tracker's dumps into a struct res_state. */
#ifndef FABTOP_KERNEL_RDMA_NL_H
#define FABTOP_KERNEL_RDMA_NL_H

#include <stddef.h>

#include "model/res.h"

/*
 * Dump one nldev command (RDMA_NLDEV_CMD_GET, RES_QP_GET, ...) and hand
 * every received buffer to cb, raw; dev_index >= 0 asks about that device
 * only (the resource dumps need one). Returns 0 or -errno: the kernel's
 * refusal (-EPERM, -EOPNOTSUPP), -EPROTONOSUPPORT without RDMA netlink.
 */
int rdma_nl_dump_raw(int cmd, long dev_index, int (*cb)(const void *buf, size_t len, void *arg), void *arg);

/*
 * Fill rs (zeroed or freed before) with the QPs, cm_ids, CQs, MRs and PDs
 * of every RDMA device. A failed dump is not fatal: rs->err and rs->why
 * say what is missing and why. rs->restricted tells a reader without
 * CAP_NET_ADMIN (doc/show.md: what the kernel leaves out then). Returns 0
 * or -ENOMEM.
 */
int rdma_nl_collect(struct res_state *rs);

#endif
