/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool netlink answers (the family id, ETHTOOL_MSG_PAUSE_GET_REPLY) into plain structs; no I/O. */
#ifndef FABTOP_KERNEL_ETHTOOL_NL_PARSE_H
#define FABTOP_KERNEL_ETHTOOL_NL_PARSE_H

#include <linux/netlink.h>
#include <stdint.h>

#include "model/roce.h"

/*
 * The generic netlink controller's answer to CTRL_CMD_GETFAMILY: the
 * family's id. 0, -errno of an NLMSG_ERROR (-ENOENT: no such family),
 * -ENOENT for another message, -EBADMSG when malformed.
 */
int ethtool_nl_parse_family(const struct nlmsghdr *nlh, uint16_t *id);

/*
 * ETHTOOL_MSG_PAUSE_GET_REPLY of family id into out's pause fields and
 * its link pause frame counters (ETHTOOL_A_PAUSE_STATS). An NLMSG_ERROR
 * sets out->pause_err and returns 0. -ENOENT for another message,
 * -EBADMSG when truncated or an attribute is short; unknown ones skipped.
 */
int ethtool_nl_parse_pause(const struct nlmsghdr *nlh, uint16_t family, struct roce_ethtool *out);

/* A recv() buffer: the first answer in it, as the two above. */
int ethtool_nl_parse_pause_buf(const void *buf, size_t len, uint16_t family, struct roce_ethtool *out);

#endif
