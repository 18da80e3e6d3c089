/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDMA netlink statistics (nldev STAT_GET answers) parsers: messages in, model/stat.h structs out; no I/O. */
#ifndef FABTOP_KERNEL_RDMA_STAT_PARSE_H
#define FABTOP_KERNEL_RDMA_STAT_PARSE_H

#include <linux/netlink.h>
#include <stddef.h>

#include "model/stat.h"

/*
 * One RDMA_NLDEV_CMD_STAT_GET answer, of whichever of its three shapes
 * (drivers/infiniband/core/nldev.c):
 *  - a port's hw counters: device, port, STAT_HWCOUNTERS (-> st->hw);
 *  - a port's QP binding mode: device, port, STAT_MODE, AUTO_MODE_MASK
 *    (-> st->modes);
 *  - a dump of QP counters: device, STAT_COUNTER of entries, each a port,
 *    an id, a mode, its QPs (RES_QP of LQPNs) and its hw counters
 *    (-> st->qpc).
 * Attributes are checked against the nldev policy table; unknown ones are
 * skipped, a malformed counter entry or hw counter entry is left out and
 * counted in st->bad. Returns 0, -ENOENT (not a STAT_GET answer),
 * -EBADMSG (the message itself is malformed: nothing of it is kept),
 * -ENOMEM. nlh->nlmsg_len must already be known to fit its buffer.
 */
int rdma_stat_parse_msg(const struct nlmsghdr *nlh, struct stat_state *st);

/*
 * Feed a buffer of messages (one recv(), or a recorded file): STAT_GET
 * answers are parsed as above, NLMSG_DONE sets *done (may be NULL),
 * NLMSG_ERROR returns its -errno. Returns 0, -EBADMSG for a malformed
 * buffer or message (what was parsed stays, st->bad counts it), -ENOMEM.
 */
int rdma_stat_parse_buf(const void *buf, size_t len, struct stat_state *st, int *done);

#endif
