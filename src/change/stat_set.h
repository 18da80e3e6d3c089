/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDMA netlink STAT_SET: the QP counters' auto mode of a port (`fabtop counters qp enable|disable`). */
#ifndef FABTOP_CHANGE_STAT_SET_H
#define FABTOP_CHANGE_STAT_SET_H

#include <stdbool.h>

/*
 * Bind new QPs of dev/port to counters per QP type (auto mode), or stop
 * doing so (on false), from a socket of its own. Changes kernel state:
 * only on a person's explicit request. 0 or -errno (-EPERM without
 * CAP_NET_ADMIN, -EOPNOTSUPP; rdma_stat_strerror() says them).
 */
int stat_set_qp_auto(const char *dev, unsigned int port, bool on);

#endif
