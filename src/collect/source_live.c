// SPDX-License-Identifier: GPL-2.0-or-later
/* The live source: sysfs (or a tree under --sysfs), rtnetlink and the kernel's own answers. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "collect/host.h"
#include "collect/mad_fabric.h"
#include "collect/mad_watch.h"
#include "collect/netlink.h"
#include "collect/source.h"
#include "collect/watch.h"
#include "util.h"

/* The live source's own state: the rtnetlink change monitor, once opened. */
struct live_source {
	int nl_fd;			/* -1: not open */
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

/* All of `show fabric` (ports, SM, partners, sweep) ends within this. */
#define LIVE_FABRIC_DEADLINE_NS (15ull * 1000000000ull)

static int live_fabric(struct source *s, struct ib_fabric *f, struct mad_fabric **vp)
{
	return mad_fabric_take(s->ctx, f, MADF_PORTS | MADF_SWEEP, NULL,
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

const struct source_ops source_live_ops = {
	.name = "live",
	.flags = SOURCE_OWN_NETWORK,
	.open = live_open,
	.close = live_close,
	.event_fd = live_event_fd,
	.events = live_events,
	.collect = live_collect,
	.refresh = live_refresh,
	.net = live_net,
	.fabric = live_fabric,
	.mad_watch = live_mad_watch,
	.changed = live_changed,
	.fill_port = live_fill_port,
	.changed_devices = live_changed_devices,
	.collect_device = live_collect_device,
	.describe = live_describe,
};
