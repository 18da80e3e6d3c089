// SPDX-License-Identifier: GPL-2.0-or-later
/* Taking a snapshot from a source: the one collect step every surface shares. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "collect/host.h"
#include "collect/mad_fabric.h"
#include "collect/route_query.h"
#include "collect/snapshot.h"
#include "util.h"

int snapshot_net(struct source *src, const struct fab_host *host, struct net_state *st)
{
	int rc;

	memset(st, 0, sizeof(*st));
	rc = source_net(src, st);
	if (rc)
		return rc;
	net_mark_rdma(st, host);
	return 0;
}

const char *snapshot_net_error(int err)
{
	if (err == -EAGAIN)
		return "the network kept changing while it was read (5 tries); try again";
	return strerror(-err);
}

const struct route_ops *snapshot_routes(const struct net_state *st)
{
	return route_query_ops(st);
}

int snapshot_take(struct source *src, struct snapshot *s, unsigned int what)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->taken_ns = util_now_ns();
	rc = source_collect(src, &s->host, what & COLLECT_ALL);
	if (rc)
		return rc;
	if (what & SNAPSHOT_NET) {
		s->net_err = snapshot_net(src, &s->host, &s->net);
		s->has_net = !s->net_err;
	}
	s->routes = snapshot_routes(&s->net);
	if ((what & SNAPSHOT_RES) && src->ops->res) {
		s->has_res = true;
		rc = src->ops->res(src, &s->res);
		if (rc) {
			snapshot_free(s);
			return rc;
		}
	}
	if ((what & SNAPSHOT_FABRIC) && src->ops->fabric) {
		s->has_fabric = true;
		rc = src->ops->fabric(src, &s->fabric, &s->mad);
		if (rc) {
			snapshot_free(s);
			return rc;
		}
	}
	return 0;
}

bool snapshot_host_sample(struct source *src, struct fab_host *h, struct snapshot_clock *k, uint64_t now_ns,
			  void (*carry)(struct fab_host *nh, const struct fab_host *old), bool *nomem)
{
	struct fab_host nh;

	*nomem = false;
	if (!source_watched(src))
		return source_refresh(src, h, now_ns);
	/* A few reads per port every SNAPSHOT_RESCAN_NS; everything on a change. */
	if (!k->rescan_wanted && now_ns - k->last_watch_ns >= SNAPSHOT_RESCAN_NS) {
		k->last_watch_ns = now_ns;
		k->rescan_wanted = now_ns - k->last_rescan_ns >= SNAPSHOT_FULL_RESCAN_NS || source_changed(src, h);
	}
	if (!k->rescan_wanted)
		return source_refresh(src, h, now_ns);
	k->last_rescan_ns = now_ns;
	k->rescan_wanted = false;
	memset(&nh, 0, sizeof(nh));
	nh.handover = h;	/* its counter files move over instead of being opened twice */
	if (source_collect(src, &nh, COLLECT_ALL)) {
		*nomem = true;
		source_refresh(src, h, now_ns);
		return true;
	}
	if (carry)
		carry(&nh, h);
	fab_host_free(h);
	*h = nh;
	return true;
}

void snapshot_fabric_sample(struct snapshot *s, double interval_s)
{
	if (s->mad)
		mad_fabric_sample(s->mad, MAD_PMA_LOCAL | MAD_PMA_PEER, interval_s);
}

void snapshot_free(struct snapshot *s)
{
	mad_fabric_close(s->mad);
	ib_fabric_free(&s->fabric);
	res_state_free(&s->res);
	net_state_free(&s->net);
	fab_host_free(&s->host);
	memset(s, 0, sizeof(*s));
}
