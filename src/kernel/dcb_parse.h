/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dcbnl (RTM_GETDCB) answers into struct roce_dcb: one message in, no I/O (doc/roce.md). */
#ifndef FABTOP_KERNEL_DCB_PARSE_H
#define FABTOP_KERNEL_DCB_PARSE_H

#include <linux/netlink.h>
#include <stddef.h>

#include "model/roce.h"

/*
 * The attributes of linux/dcbnl.h that Debian 12's headers (Linux 6.1)
 * lack: the trust order (Linux 6.3, enum ieee_attrs and enum
 * dcbnl_attrs_apptrust) and the non-IEEE APP entries (enum ieee_attrs_app).
 */
#define DCB_ATTR_DCB_APP_TRUST_TABLE_NUM	11
#define DCB_ATTR_DCB_APP_TRUST_NUM		1
#define DCB_ATTR_DCB_APP_NUM			2

/*
 * One message of the answer to RTM_GETDCB DCB_CMD_IEEE_GET. An NLMSG_ERROR
 * fills out->err (-EOPNOTSUPP: the netdev's driver has no DCB) and returns
 * 0. Returns 0 when out was filled, -ENOENT for a message that is not a
 * DCB_CMD_IEEE_GET answer, -EBADMSG when it is truncated or an attribute
 * is shorter than its structure. Unknown attributes are counted and
 * skipped. nlh->nlmsg_len must fit the buffer (nl_msg_ok()).
 */
int dcb_parse_ieee(const struct nlmsghdr *nlh, struct roce_dcb *out);

/* A whole recv() buffer: the first answer in it (0), or its error. */
int dcb_parse_buf(const void *buf, size_t len, struct roce_dcb *out);

#endif
