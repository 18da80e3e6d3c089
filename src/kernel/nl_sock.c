// SPDX-License-Identifier: GPL-2.0-or-later
/* One netlink socket (libmnl): open, bind, send a request, read only its answer, until it ends. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include "kernel/nl_sock.h"

int nl_sock_open(struct nl_sock *s, int bus, int timeout_s, size_t size)
{
	struct timeval tmo = { .tv_sec = timeout_s };
	int rc;

	*s = (struct nl_sock){ .seq = (unsigned int)time(NULL), .size = size };
	s->buf = malloc(size);
	if (!s->buf)
		return -ENOMEM;
	s->nl = mnl_socket_open2(bus, SOCK_CLOEXEC);
	if (!s->nl) {
		rc = -errno;
		nl_sock_close(s);
		return rc;
	}
	if (mnl_socket_bind(s->nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    (timeout_s > 0 && setsockopt(mnl_socket_get_fd(s->nl), SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo)) < 0)) {
		rc = -errno;
		nl_sock_close(s);
		return rc;
	}
	s->portid = mnl_socket_get_portid(s->nl);
	return 0;
}

void nl_sock_close(struct nl_sock *s)
{
	if (s->nl)
		mnl_socket_close(s->nl);
	free(s->buf);
	s->nl = NULL;
	s->buf = NULL;
}

struct nlmsghdr *nl_sock_request(struct nl_sock *s, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(s->buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	return nlh;
}

int nl_sock_ask(struct nl_sock *s, struct nlmsghdr *nlh, int (*cb)(const void *buf, size_t len, void *arg),
		void *arg)
{
	const struct nlmsghdr *m = (const struct nlmsghdr *)(const void *)s->buf;
	unsigned int seq = s->seq++;

	nlh->nlmsg_seq = seq;
	if (mnl_socket_sendto(s->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (unsigned int reads = 0;;) {
		ssize_t n;
		int rc;

		if (s->max_reads && reads == s->max_reads)
			return -ETIMEDOUT;
		n = mnl_socket_recvfrom(s->nl, s->buf, s->size);
		if (n < 0) {
			/* SO_RCVTIMEO ignores SA_RESTART: a handled signal is no reason to give up */
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		}
		reads++;
		if (n == 0 && !s->strict)
			return -EIO;
		if (!nl_msg_ok(s->buf, (size_t)n)) {
			if (s->strict)
				return -EBADMSG;
			continue;
		}
		/* Only our answer: this request's sequence, from the kernel to our port. */
		if (m->nlmsg_seq != seq || m->nlmsg_pid != s->portid)
			continue;
		rc = cb(s->buf, (size_t)n, arg);
		if (rc)
			return rc == NL_WALK_END ? 0 : rc;
	}
}

struct dump {
	int (*cb)(const void *buf, size_t len, void *arg);
	void *arg;
	int rc;		/* cb's, kept whatever its sign */
	bool ended;
	bool intr;
};

static int dump_end(const struct nlmsghdr *h, void *arg)
{
	struct dump *d = arg;

	/* The table changed while the kernel dumped it: what we got mixes two states. */
	if (h->nlmsg_flags & NLM_F_DUMP_INTR)
		d->intr = true;
	if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR || !(h->nlmsg_flags & NLM_F_MULTI))
		d->ended = true;
	return 0;
}

static int dump_buf(const void *buf, size_t len, void *arg)
{
	struct dump *d = arg;

	d->rc = d->cb(buf, len, d->arg);
	if (d->rc)
		return NL_WALK_END;
	/* every message is looked at: a later one may carry NLM_F_DUMP_INTR */
	(void)nl_msgs_walk(buf, len, dump_end, d);
	return d->ended ? NL_WALK_END : 0;
}

int nl_sock_dump(struct nl_sock *s, struct nlmsghdr *nlh, int (*cb)(const void *buf, size_t len, void *arg),
		 void *arg, bool *intr)
{
	struct dump d = { .cb = cb, .arg = arg };
	int rc = nl_sock_ask(s, nlh, dump_buf, &d);

	if (intr)
		*intr = d.intr;
	return rc ? rc : d.rc;
}
