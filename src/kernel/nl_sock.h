/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One netlink socket (libmnl) and the request/answer loop every netlink collector shares. */
#ifndef FABTOP_KERNEL_NL_SOCK_H
#define FABTOP_KERNEL_NL_SOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/nl_parse.h"	/* NL_WALK_END */

struct mnl_socket;
struct nlmsghdr;

struct nl_sock {
	struct mnl_socket *nl;
	unsigned int portid;
	unsigned int seq;	/* the next request's sequence number */
	char *buf;		/* requests are built and answers read here */
	size_t size;
	/* What a caller may change after nl_sock_open(): */
	bool strict;		/* a buffer that is not whole messages fails the request (-EBADMSG), not skipped */
	unsigned int max_reads;	/* buffers read for one request at the most, then -ETIMEDOUT; 0: no bound */
};

/*
 * Open and bind (an automatic port id) a close-on-exec socket of netlink
 * bus (NETLINK_ROUTE, NETLINK_RDMA, NETLINK_GENERIC) with a buffer of size
 * bytes; timeout_s > 0 bounds every wait for an answer. 0 or -errno
 * (-ENOMEM); nothing is left open on failure.
 */
int nl_sock_open(struct nl_sock *s, int bus, int timeout_s, size_t size);
void nl_sock_close(struct nl_sock *s);

/* A request header of type and NLM_F_REQUEST | flags at the start of s->buf. */
struct nlmsghdr *nl_sock_request(struct nl_sock *s, uint16_t type, uint16_t flags);

/*
 * Send nlh (its sequence number is set here; it may be in s->buf) and hand
 * every buffer of its answer to cb: whole messages, from the kernel, with
 * this request's sequence number and our port id; others are skipped (or
 * fail the request, s->strict). cb returns 0 to read on, NL_WALK_END when
 * the answer is complete (then 0 is returned), or an error that ends the
 * request and is returned. A signal does not end the wait; a timeout is
 * -ETIMEDOUT, an empty read -EIO, a socket error its -errno.
 */
int nl_sock_ask(struct nl_sock *s, struct nlmsghdr *nlh, int (*cb)(const void *buf, size_t len, void *arg),
		void *arg);

/*
 * nl_sock_ask() for a dump (or any request answered in NLM_F_MULTI parts):
 * every buffer to cb, which returns 0 or an error that ends the dump, until
 * NLMSG_DONE, an NLMSG_ERROR or a message without NLM_F_MULTI. *intr (when
 * not NULL) is set when the kernel flagged a message NLM_F_DUMP_INTR (the
 * table changed while it was dumped). 0 or -errno.
 */
int nl_sock_dump(struct nl_sock *s, struct nlmsghdr *nlh, int (*cb)(const void *buf, size_t len, void *arg),
		 void *arg, bool *intr);

#endif
