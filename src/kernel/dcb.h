/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Ask the kernel for a netdev's DCB state (RTM_GETDCB over rtnetlink, libmnl). */
#ifndef FABTOP_KERNEL_DCB_H
#define FABTOP_KERNEL_DCB_H

#include "model/roce.h"

/*
 * DCB_CMD_IEEE_GET for ifname into out. Returns 0 when the kernel
 * answered, even with an error (then out->err says it: -EOPNOTSUPP for a
 * driver without DCB, -ENODEV for a netdev not in this namespace); -errno
 * when the socket itself failed, or the answer was malformed (-EBADMSG).
 * One request, a 1 s receive timeout: never hangs.
 */
int dcb_query(const char *ifname, struct roce_dcb *out);

#endif
