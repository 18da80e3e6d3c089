// SPDX-License-Identifier: GPL-2.0-or-later
/* rtnetlink dumps into struct net_state (libmnl), and the change monitor socket. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kernel/netlink.h"
#include "kernel/nl_parse.h"
#include "kernel/nl_sock.h"
#include "kernel/sysctl.h"
#include "warn.h"
#include "util.h"

#define DUMP_BUF	32768	/* the kernel sends dumps in pages; 32K never truncates */

int netlink_dump_raw(int rtm_type, int (*cb)(const void *buf, size_t len, void *arg), void *arg)
{
	struct nl_sock s;
	struct nlmsghdr *nlh;
	struct rtgenmsg *g;
	bool intr = false;
	int rc = nl_sock_open(&s, NETLINK_ROUTE, 0, DUMP_BUF);

	if (rc)
		return rc;
	nlh = nl_sock_request(&s, (uint16_t)rtm_type, NLM_F_DUMP);
	/* rtgenmsg is enough for every dump we ask; AF_UNSPEC: all families, all tables. */
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->rtgen_family = AF_UNSPEC;
	rc = nl_sock_dump(&s, nlh, cb, arg, &intr);
	nl_sock_close(&s);
	return rc ? rc : intr ? -EAGAIN : 0;
}

struct parse_arg {
	struct net_state *st;
	int bad;
};

static int parse_cb(const void *buf, size_t len, void *arg)
{
	struct parse_arg *pa = arg;
	int rc = nl_parse_buf(buf, len, pa->st, NULL);

	/* A malformed message is skipped (counted), anything else stops the dump. */
	if (rc == -EBADMSG) {
		pa->bad++;
		return 0;
	}
	return rc;
}

static const int dump_types[] = { RTM_GETLINK, RTM_GETADDR, RTM_GETROUTE, RTM_GETRULE, RTM_GETNEIGH };

/* One pass over every dump; -EAGAIN when one of them was interrupted by a change. */
static int collect_once(const struct fab_ctx *ctx, struct net_state *st)
{
	struct parse_arg pa = { .st = st };
	int rc = 0, again = 0;

	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < ARRAY_SIZE(dump_types) && (!rc || rc == -EAGAIN); i++) {
		rc = netlink_dump_raw(dump_types[i], parse_cb, &pa);
		again |= rc == -EAGAIN;
	}
	if (rc && rc != -EAGAIN) {
		net_state_free(st);
		return rc;
	}
	if (again) {
		net_state_free(st);
		return -EAGAIN;
	}
	if (pa.bad)
		warn_once("rtnetlink: %d malformed message buffer(s) skipped", pa.bad);
	if (st->nlinks) {
		st->sysctls = calloc(st->nlinks, sizeof(*st->sysctls));
		if (!st->sysctls) {
			net_state_free(st);
			return -ENOMEM;
		}
		for (size_t i = 0; i < st->nlinks; i++)
			if (sysctl_read_iface(ctx->proc_root, st->links[i].name, &st->sysctls[st->nsysctls]) == 0)
				st->nsysctls++;
	}
	st->live = true;
	return 0;
}

/* A dump a change interrupted is taken again, a few times: never a view that mixes two states. */
#define COLLECT_TRIES 5

int netlink_collect(const struct fab_ctx *ctx, struct net_state *st)
{
	int rc = -EAGAIN;

	for (int i = 0; i < COLLECT_TRIES && rc == -EAGAIN; i++)
		rc = collect_once(ctx, st);
	return rc;
}

int netlink_monitor_open(void)
{
	static const unsigned int extra_groups[] = { RTNLGRP_IPV6_RULE };
	struct sockaddr_nl sa = {
		.nl_family = AF_NETLINK,
		.nl_groups = RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR |
			     RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE | RTMGRP_IPV4_RULE,
	};
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	for (size_t i = 0; i < ARRAY_SIZE(extra_groups); i++) {
		int g = (int)extra_groups[i];

		/* Old kernels lack a group: the others still work. */
		(void)setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &g, sizeof(g));
	}
	return fd;
}

bool netlink_monitor_drain(int fd)
{
	char buf[8192];
	bool changed = false;

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n > 0) {
			changed = true;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		/* ENOBUFS: the kernel dropped notifications; the state is stale. */
		if (n < 0 && errno == ENOBUFS) {
			changed = true;
			continue;
		}
		break;
	}
	return changed;
}

void netlink_monitor_close(int fd)
{
	if (fd >= 0)
		close(fd);
}
