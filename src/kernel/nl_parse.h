/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtnetlink message parsers: one message in, one plain struct out; no I/O. */
#ifndef FABTOP_KERNEL_NL_PARSE_H
#define FABTOP_KERNEL_NL_PARSE_H

#include <linux/netlink.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/net.h"

/*
 * Each parser checks the message type, the header length, and every
 * attribute it uses against a policy table (type and minimum size); unknown
 * attributes are skipped, bad ones make the message rejected. They return
 * 0 when out was filled, -ENOENT for a message of another family/kind that
 * is simply not ours (e.g. an AF_BRIDGE link entry), -EBADMSG when the
 * message is malformed or truncated. nlh->nlmsg_len must already be known to
 * fit in the buffer it came from (see nl_msg_ok()).
 */
int nl_parse_link(const struct nlmsghdr *nlh, struct net_link *out);
int nl_parse_addr(const struct nlmsghdr *nlh, struct net_addr *out);
int nl_parse_route(const struct nlmsghdr *nlh, struct net_route *out);
/* The answer to an RTM_GETROUTE lookup (flagged RTM_F_CLONED, which dumps skip). */
int nl_parse_route_answer(const struct nlmsghdr *nlh, struct net_route *out);
int nl_parse_rule(const struct nlmsghdr *nlh, struct net_rule *out);
int nl_parse_neigh(const struct nlmsghdr *nlh, struct net_neigh *out);

/* Is there a whole, well-formed netlink message at buf (len bytes left)? */
int nl_msg_ok(const void *buf, size_t len);
/*
 * Every attribute in [buf, buf + len) must fit (-EBADMSG otherwise, and for
 * trailing bytes short of a header); cb sees each in turn and returns 0 to
 * go on or an error to stop with. libmnl's own walk stops quietly at a
 * truncated attribute, which would read a cut message as a shorter one.
 */
struct nlattr;
struct nlmsghdr;
/*
 * Every message in [buf, buf + len) must fit (-EBADMSG otherwise); cb sees
 * each in turn and returns 0 to go on, or anything else to stop: the walk
 * then returns it (NL_WALK_END for "done, fine"). 0: all were seen.
 */
#define NL_WALK_END 1
int nl_msgs_walk(const void *buf, size_t len, int (*cb)(const struct nlmsghdr *nlh, void *arg), void *arg);
/*
 * A dump's control messages: NLMSG_DONE sets *ended and ends the walk
 * (NL_WALK_END), an NLMSG_ERROR gives its error (0, an acknowledgement:
 * go on; -EBADMSG when cut short); -ENOENT: not a control message, the
 * caller parses it.
 */
int nl_msg_control(const struct nlmsghdr *nlh, bool *ended);
int nl_attrs_walk(const void *buf, size_t len, int (*cb)(const struct nlattr *a, void *arg), void *arg);
/*
 * One buffer of a dump (one recv(), or a recorded answer): control
 * messages as nl_msg_control() says, every other message to parse(),
 * whose -EBADMSG skips that message and -ENOMEM stops the walk (other
 * results go on). *done = 1 once NLMSG_DONE came. 0, the walk's error, or
 * -EBADMSG when a message was skipped.
 */
int nl_dump_walk(const void *buf, size_t len, int (*parse)(const struct nlmsghdr *nlh, void *arg), void *arg,
		 int *done);

/*
 * Feed a buffer of one or more messages (one recv() of a dump, or a recorded
 * file) into st: RTM_NEWLINK/NEWADDR/NEWROUTE/NEWRULE/NEWNEIGH are appended,
 * NLMSG_DONE sets *done, NLMSG_ERROR returns its -errno. Returns 0,
 * -EBADMSG for a malformed buffer (what was parsed before stays), -ENOMEM.
 */
int nl_parse_buf(const void *buf, size_t len, struct net_state *st, int *done);

#endif
