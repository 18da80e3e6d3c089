// SPDX-License-Identifier: GPL-2.0-or-later
/* The live source: sysfs (or a tree under --sysfs), rtnetlink and the kernel's own answers. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kernel/async.h"
#include "kernel/host.h"
#include "mad/mad_fabric.h"
#include "mad/mad_watch.h"
#include "kernel/netlink.h"
#include "kernel/proc_attr.h"
#include "kernel/rdma_nl.h"
#include "kernel/rdma_stat.h"
#include "kernel/roce.h"
#include "source/source.h"
#include "kernel/watch.h"
#include "change/net_apply.h"
#include "probe/probe.h"
#include "util.h"
#include "warn.h"

/* The live source's own state: the rtnetlink change monitor and the device notifications, once opened. */
struct live_source {
	int nl_fd;			/* -1: not open */
	struct async_watch *async;	/* NULL: not asked for yet */
	struct rdma_stat *stat;		/* --counters netlink: the RDMA netlink socket, NULL: not open */
	int stat_err;			/* why it could not be opened (then not tried again) */
	unsigned int roce_reads;	/* RoCE chains read so far */
	uint64_t roce_first_ns;		/* when the first was (a fixture's second sample is 1 s after it) */
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
	if (ls) {
		async_watch_free(ls->async);
		rdma_stat_close(ls->stat);
	}
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

/*
 * --counters netlink on the live /sys (a tree under --sysfs has no kernel
 * behind it): the socket, opened once; NULL when it cannot be, said once.
 */
static struct rdma_stat *live_stat(struct source *s)
{
	struct live_source *ls = s->priv;

	if (s->ctx->counters != COUNTERS_NETLINK || ls->stat_err)
		return NULL;
	if (!s->ctx->live_sysfs) {
		warn_once("--counters netlink asks the running kernel, not a tree under --sysfs: counters from sysfs");
		return NULL;
	}
	if (!ls->stat) {
		ls->stat = rdma_stat_open(&ls->stat_err);
		if (!ls->stat)
			warn_once("--counters netlink: %s; counters from sysfs", rdma_stat_strerror(ls->stat_err));
	}
	return ls->stat;
}

/* The hw counters of h (see rdma_stat_host_apply() for dev and port) through netlink, when asked for. */
static int live_stat_apply(struct source *s, struct fab_host *h, const char *dev, int port)
{
	struct rdma_stat *st = live_stat(s);

	return st ? rdma_stat_host_apply(st, h, dev, port) : 0;
}

static int live_collect(struct source *s, struct fab_host *h, unsigned int what)
{
	int rc = collect_host(s->ctx, h, what);

	if (!rc && (what & COLLECT_COUNTERS))
		rc = live_stat_apply(s, h, NULL, -1);
	if (rc)
		fab_host_free(h);
	return rc;
}

static int live_fill_port(struct source *s, struct fab_host *h, size_t dev, size_t port, unsigned int what,
			  uint64_t deadline_ns)
{
	bool counters = h->devs[dev].ports[port].pending & what & COLLECT_COUNTERS;
	int rc = collect_port_fill(s->ctx, h, dev, port, what, deadline_ns);

	if (!rc && counters)
		rc = live_stat_apply(s, h, h->devs[dev].name, (int)h->devs[dev].ports[port].num);
	return rc;
}

static bool live_refresh(struct source *s, struct fab_host *h, uint64_t now_ns)
{
	struct live_source *ls = s->priv;

	collect_counters_refresh(h, now_ns);
	if (ls->stat)
		rdma_stat_host_refresh(ls->stat, h);
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
	int rc = collect_device_again(s->ctx, h, dev, what, nd);
	struct fab_host one = { .devs = nd, .ndevs = 1 };

	if (!rc && (what & COLLECT_COUNTERS))
		rc = live_stat_apply(s, &one, NULL, -1);
	if (rc)
		fab_device_free(nd);
	return rc;
}

static void live_describe(const struct source *s, char *buf, size_t size)
{
	snprintf(buf, size, "%s", s->ctx->sysfs_root);
}

static int live_qp_counters(struct source *s, const struct fab_host *h, struct stat_state *st)
{
	(void)s;
	return rdma_stat_collect_qp(h, st);
}

/*
 * The chain; on a fixture tree (not the live /sys) that holds a second
 * recorded sample (fabtop-recorded/next), every read after the first is
 * that sample, each a second after the read before: `show roce` and the
 * RoCE pane then have the recorded rates, as on a host read twice.
 */
static int live_roce(struct source *s, const struct fab_host *h, struct roce_state *st)
{
	struct live_source *ls = s->priv;
	struct roce_state next;
	int rc = roce_collect(h, s->ctx->sysfs_root, st);
	unsigned int k;

	if (rc || s->ctx->live_sysfs)
		return rc;
	k = ls->roce_reads++;
	if (k == 0) {
		ls->roce_first_ns = st->t_ns;
		return 0;
	}
	if (roce_collect_next(s->ctx->sysfs_root, st, &next))
		return 0;
	roce_state_free(st);
	*st = next;
	/* the k-th read a second after the one before: the recorded rates once, then none (the counters stand) */
	st->t_ns = ls->roce_first_ns + (uint64_t)k * 1000000000ull;
	st->next = true;
	return 0;
}

/* The RDMA CM of this host. */
static struct probe *live_probe(struct source *s, const struct probe_opts *o)
{
	(void)s;
	return probe_start(o);
}

/* This host's own routes, rules and sysctls: root only. */
static int live_apply_fix(struct source *s, const struct fix_plan *plan, const struct net_state *st, FILE *log,
			  size_t *left)
{
	*left = 0;
	if (!fix_plan_needed(plan))
		return 1;
	if (geteuid() != 0)
		return -EPERM;
	return net_apply(plan, st, s->ctx->proc_root, log, left);
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
	.qp_counters = live_qp_counters,
	.roce = live_roce,
	.mad_watch = live_mad_watch,
	.changed = live_changed,
	.fill_port = live_fill_port,
	.changed_devices = live_changed_devices,
	.collect_device = live_collect_device,
	.describe = live_describe,
	.probe = live_probe,
	.apply_fix = live_apply_fix,
};
