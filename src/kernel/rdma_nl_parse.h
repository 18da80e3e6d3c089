/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDMA netlink (NETLINK_RDMA, the nldev client) message parsers: messages in, model/res.h structs out; no I/O. */
#ifndef FABTOP_KERNEL_RDMA_NL_PARSE_H
#define FABTOP_KERNEL_RDMA_NL_PARSE_H

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/res.h"

/*
 * The attributes of one message or nest, by type, each checked against
 * the nldev policy table (type and size) of rdma_nl_parse.c; unknown
 * types are skipped. Shared by every nldev parser (rdma_stat_parse.c).
 */
struct rdma_nl_tb {
	const struct nlattr *a[RDMA_NLDEV_ATTR_MAX];
	bool bad;			/* an attribute broke its policy */
};

/* [p, p + len) is whole attributes (libmnl's walk would stop quietly at a cut one). */
bool rdma_nl_parse_whole(const void *p, size_t len);
/* A message's or a nest's attributes into tb: 0, -EBADMSG when cut or against the policy. */
int rdma_nl_parse_attrs(const struct nlmsghdr *nlh, struct rdma_nl_tb *tb);
int rdma_nl_parse_nest(const struct nlattr *nest, struct rdma_nl_tb *tb);
/* Is this an nldev message (RDMA_NL_NLDEV client)? */
bool rdma_nl_is_nldev(const struct nlmsghdr *nlh);
/* A string attribute into buf, cut to size and always terminated. */
void rdma_nl_parse_str(const struct nlattr *a, char *buf, size_t size);
/* The owner of an entry: a kernel module's name, or a pid. */
void rdma_nl_parse_holder(const struct rdma_nl_tb *tb, struct res_holder *h);

/* RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd): the message type of an nldev command. */
uint16_t rdma_nl_type(int cmd);

/*
 * A device entry (an RDMA_NLDEV_CMD_GET answer): its index and name.
 * 0, -ENOENT when the message is not an nldev one, -EBADMSG when malformed.
 */
int rdma_nl_parse_dev(const struct nlmsghdr *nlh, uint32_t *index, char *name, size_t size);

/*
 * One resource message (RES_QP_GET, RES_CM_ID_GET, RES_CQ_GET, RES_MR_GET,
 * RES_PD_GET answers: the device, then a table of entries): every entry is
 * appended to rs. Attributes are checked through libmnl against a policy
 * table (type and size); unknown ones are skipped, an entry with a bad one
 * is left out and counted in rs->bad. Returns 0, -ENOENT (not a resource
 * message), -EBADMSG (the message itself is malformed), -ENOMEM.
 * nlh->nlmsg_len must already be known to fit its buffer.
 */
int rdma_nl_parse_res(const struct nlmsghdr *nlh, struct res_state *rs);

/*
 * Feed a buffer of messages (one recv() of a dump, or a recorded file): a
 * device entry counts in rs->ndevs, resource messages append, NLMSG_DONE
 * sets *done, NLMSG_ERROR returns its -errno. Returns 0, -EBADMSG for a
 * malformed buffer or message (what was parsed stays), -ENOMEM.
 */
int rdma_nl_parse_buf(const void *buf, size_t len, struct res_state *rs, int *done);

#endif
