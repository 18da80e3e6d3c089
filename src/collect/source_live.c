// SPDX-License-Identifier: GPL-2.0-or-later
/* The live source: sysfs (or a tree under --sysfs), rtnetlink and the kernel's own answers. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "collect/async.h"
#include "collect/host.h"
#include "collect/mad_fabric.h"
#include "collect/mad_watch.h"
#include "collect/netlink.h"
#include "collect/proc_attr.h"
#include "collect/rdma_nl.h"
#include "collect/roce.h"
#include "collect/source.h"
#include "collect/watch.h"
#include "util.h"

/* The live source's own state: the rtnetlink change monitor and the device notifications, once opened. */
struct live_source {
	int nl_fd;			/* -1: not open */
	struct async_watch *async;	/* NULL: not asked for yet */
};

static int live_open(struct source *s)
{
	struct live_source *ls = calloc(1, sizeof(*ls));

	if (!ls)
		return -ENOMEM;
	ls->nl_fd = -1;
	s->priv = ls;
	return 0;
}

static void live_close(struct source *s)
{
	struct live_source *ls = s->priv;

	if (ls && ls->nl_fd >= 0)
		netlink_monitor_close(ls->nl_fd);
	if (ls)
		async_watch_free(ls->async);
	free(ls);
}

/* Address, route, rule and link changes of this network namespace. */
static int live_event_fd(struct source *s)
{
	struct live_source *ls = s->priv;

	if (ls->nl_fd < 0)
		ls->nl_fd = netlink_monitor_open();
	return ls->nl_fd;
}

static bool live_events(struct source *s)
{
	struct live_source *ls = s->priv;

	return ls->nl_fd >= 0 && netlink_monitor_drain(ls->nl_fd);
}

/* Verbs only on the real /sys: a tree under --sysfs has no devices behind it. */
static int live_async_fd(struct source *s, const struct fab_host *h)
{
	struct live_source *ls = s->priv;

	if (!s->ctx->live_sysfs)
		return -EOPNOTSUPP;
	if (!ls->async)
		ls->async = async_watch_new();
	if (!ls->async)
		return -ENOMEM;
	return async_watch_sync(ls->async, h);
}

static unsigned int live_async_events(struct source *s, struct event_log *log)
{
	struct live_source *ls = s->priv;

	return async_watch_drain(ls->async, log);
}

static int live_collect(struct source *s, struct fab_host *h, unsigned int what)
{
	return collect_host(s->ctx, h, what);
}

static int live_fill_port(struct source *s, struct fab_host *h, size_t dev, size_t port, unsigned int what,
			  uint64_t deadline_ns)
{
	return collect_port_fill(s->ctx, h, dev, port, what, deadline_ns);
}

static bool live_refresh(struct source *s, struct fab_host *h, uint64_t now_ns)
{
	collect_counters_refresh(h, now_ns);
	return false;		/* state changes show in changed(): re-collect for those */
}

static int live_net(struct source *s, struct net_state *st)
{
	return netlink_collect(s->ctx, st);
}

/* The resource tracker over RDMA netlink, each holder looked up under the proc root. */
static int live_res(struct source *s, struct res_state *rs)
{
	int rc = rdma_nl_collect(rs);

	if (!rc)
		rc = res_procs_build(rs);
	if (rc) {
		res_state_free(rs);
		return rc;
	}
	proc_attr_fill_all(s->ctx->proc_root, rs);
	return 0;
}

/* All of `show fabric` (ports, SM, partners, sweep) ends within this. */
#define LIVE_FABRIC_DEADLINE_NS (15ull * 1000000000ull)

static int live_fabric(struct source *s, struct ib_fabric *f, struct mad_fabric **vp)
{
	return mad_fabric_take(s->ctx, f, MADF_PORTS | MADF_SWEEP | MADF_PMA, NULL,
			       util_now_ns() + LIVE_FABRIC_DEADLINE_NS, vp);
}

static struct mad_watch *live_mad_watch(struct source *s)
{
	return mad_watch_new(s->ctx);
}

static bool live_changed(struct source *s, const struct fab_host *h)
{
	return watch_changed(s->ctx, h);
}

static int live_changed_devices(struct source *s, const struct fab_host *h, bool *devs)
{
	return watch_changed_devices(s->ctx, h, devs);
}

static int live_collect_device(struct source *s, struct fab_host *h, size_t dev, unsigned int what,
			       struct fab_device *nd)
{
	return collect_device_again(s->ctx, h, dev, what, nd);
}

static void live_describe(const struct source *s, char *buf, size_t size)
{
	snprintf(buf, size, "%s", s->ctx->sysfs_root);
}

static int live_roce(struct source *s, const struct fab_host *h, struct roce_state *st)
{
	return roce_collect(h, s->ctx->sysfs_root, st);
}

const struct source_ops source_live_ops = {
	.name = "live",
	.flags = SOURCE_OWN_NETWORK,
	.open = live_open,
	.close = live_close,
	.event_fd = live_event_fd,
	.events = live_events,
	.async_fd = live_async_fd,
	.async_events = live_async_events,
	.collect = live_collect,
	.refresh = live_refresh,
	.net = live_net,
	.fabric = live_fabric,
	.res = live_res,
	.roce = live_roce,
	.mad_watch = live_mad_watch,
	.changed = live_changed,
	.fill_port = live_fill_port,
	.changed_devices = live_changed_devices,
	.collect_device = live_collect_device,
	.describe = live_describe,
};
