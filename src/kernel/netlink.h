/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtnetlink socket I/O (libmnl): dumps into a struct net_state, and a change monitor for the TUI. */
#ifndef FABTOP_KERNEL_NETLINK_H
#define FABTOP_KERNEL_NETLINK_H

#include <stdbool.h>

#include "ctx.h"
#include "model/net.h"

/*
 * Fill st (zeroed or freed before) from this network namespace: links,
 * addresses, routes of all tables, rules and neighbours over rtnetlink,
 * then the sysctls of every link from ctx->proc_root. Sets st->live.
 * A dump the kernel marks interrupted (the tables changed meanwhile) is
 * taken again, up to 5 times, so no decision is made on a mix of two
 * states. Returns 0 or -errno (socket failure, -ENOMEM, -EAGAIN when the
 * network kept changing); st is freed on failure.
 */
int netlink_collect(const struct fab_ctx *ctx, struct net_state *st);

/*
 * Dump one kind (RTM_GETLINK, RTM_GETADDR, RTM_GETROUTE, RTM_GETRULE,
 * RTM_GETNEIGH) and hand every received buffer to cb, raw; netlink_collect()
 * parses them, the recorder of tests/ saves them. Returns 0 or -errno;
 * -EAGAIN when the kernel marked the dump interrupted (NLM_F_DUMP_INTR:
 * the table changed meanwhile), after the whole dump was handed over.
 */
int netlink_dump_raw(int rtm_type, int (*cb)(const void *buf, size_t len, void *arg), void *arg);

/*
 * A socket subscribed to link, address (v4/v6), route (v4/v6) and rule
 * changes, non-blocking and close-on-exec: put it in poll() and call
 * netlink_monitor_drain() when it is readable. Returns the fd or -errno.
 */
int netlink_monitor_open(void);
/*
 * Read everything pending without blocking. true when something changed
 * (or the kernel dropped notifications because we were slow: re-collect).
 */
bool netlink_monitor_drain(int fd);
void netlink_monitor_close(int fd);

#endif
