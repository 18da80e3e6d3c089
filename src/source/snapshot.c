// SPDX-License-Identifier: GPL-2.0-or-later
/* Taking a snapshot from a source: the one collect step every surface shares. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "derive/doctor.h"
#include "kernel/host.h"
#include "kernel/netconf.h"
#include "model/roce.h"
#include "mad/mad_fabric.h"
#include "kernel/route_query.h"
#include "source/snapshot.h"
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

/* A kept host's parts that are read later, when the source can fill them in (fill_port). */
#define SNAPSHOT_LATER	(COLLECT_COUNTERS | COLLECT_GIDS)

int snapshot_host_start(struct source *src, struct fab_host *h, struct snapshot_clock *k, uint64_t now_ns)
{
	int rc;

	rc = source_collect(src, h, source_fills(src) ? COLLECT_ALL & ~SNAPSHOT_LATER : COLLECT_ALL);
	k->last_rescan_ns = k->last_watch_ns = now_ns;
	return rc;
}

/* What makes a port's GID table worth reading again after a re-collection. */
static bool port_moved(const struct fab_port *np, const struct fab_port *op, bool roce_event)
{
	if (roce_event && np->link_layer == LINK_LAYER_ETHERNET)
		return true;	/* RoCE GIDs follow the netdev's addresses */
	return strcmp(np->state_raw, op->state_raw) || strcmp(np->phys_state_raw, op->phys_state_raw) ||
	       strcmp(np->rate, op->rate) || strcmp(np->link_layer_raw, op->link_layer_raw) ||
	       np->lid.known != op->lid.known || np->lid.value != op->lid.value;
}

/*
 * A re-collection that costs a counter refresh and the port attributes:
 * the GID tables (~3 reads an entry) are copied from the old host and read
 * again later, port by port (snapshot_host_fill()): every port when
 * `all` (the periodic re-collection), else only the ports that moved.
 */
static int host_recollect(struct source *src, struct fab_host *nh, struct fab_host *h, bool all, bool roce_event)
{
	unsigned int what = COLLECT_ALL;

	if (source_fills(src))
		what = (COLLECT_ALL & ~COLLECT_GIDS) | COLLECT_KEEP_GIDS;
	memset(nh, 0, sizeof(*nh));
	nh->handover = h;	/* its counter files move over instead of being opened twice */
	if (source_collect(src, nh, what))
		return -ENOMEM;
	if (!(what & COLLECT_KEEP_GIDS))
		return 0;
	for (size_t i = 0; i < nh->ndevs; i++)
		for (size_t j = 0; j < nh->devs[i].nports; j++) {
			struct fab_port *np = &nh->devs[i].ports[j];
			const struct fab_port *op = fab_host_find_port(h, nh->devs[i].name, np->num);

			if (all || !op || port_moved(np, op, roce_event))
				np->pending |= COLLECT_GIDS;
		}
	return 0;
}

/*
 * Device i of h read again (counter files and GID tables kept, see
 * host_recollect()) and swapped in. 1 when a port moved or came or went,
 * 0 when not, -ENOMEM (h unchanged).
 */
static int device_recollect(struct source *src, struct fab_host *h, struct snapshot_clock *k, size_t i,
			    void (*carry)(struct fab_host *nh, const struct fab_host *old), bool all, bool roce_event)
{
	unsigned int what = (COLLECT_ALL & ~COLLECT_GIDS) | COLLECT_KEEP_GIDS;
	struct fab_device nd;
	int moved;

	if (source_collect_device(src, h, i, what, &nd))
		return -ENOMEM;
	moved = nd.nports != h->devs[i].nports;
	for (size_t j = 0; j < nd.nports; j++) {
		struct fab_port *np = &nd.ports[j];
		const struct fab_port *op = fab_host_find_port(h, nd.name, np->num);

		if (!op || port_moved(np, op, false))
			moved = 1;
		if (all || !op || port_moved(np, op, roce_event))
			np->pending |= COLLECT_GIDS;
	}
	k->recollections++;
	if (carry) {
		struct fab_host nv = { .devs = &nd, .ndevs = 1 }, ov = { .devs = &h->devs[i], .ndevs = 1 };

		carry(&nv, &ov);
	}
	fab_device_free(&h->devs[i]);
	h->devs[i] = nd;
	return moved;
}

/* The whole host again (devices came or went); see host_recollect(). */
static bool host_replace(struct source *src, struct fab_host *h, struct snapshot_clock *k, uint64_t now_ns,
			 bool all, void (*carry)(struct fab_host *nh, const struct fab_host *old), bool *nomem)
{
	struct fab_host nh;

	k->last_rescan_ns = now_ns;
	k->rescan_wanted = false;
	k->roll_next = k->roll_end = 0;
	if (host_recollect(src, &nh, h, all, k->roce_event)) {
		*nomem = true;
		source_refresh(src, h, now_ns);
		return true;
	}
	k->roce_event = false;
	k->recollections++;
	if (carry)
		carry(&nh, h);
	fab_host_free(h);
	*h = nh;
	return true;
}

/*
 * Device by device: the devices the structure check names at once, a
 * whole pass (the periodic one, a key, a netlink event) spread over
 * samples, SNAPSHOT_FILL_NS of them a sample.
 */
static bool host_sample_by_device(struct source *src, struct fab_host *h, struct snapshot_clock *k,
				  uint64_t now_ns, void (*carry)(struct fab_host *nh, const struct fab_host *old),
				  bool *nomem)
{
	uint64_t end = util_now_ns() + SNAPSHOT_FILL_NS;
	bool moved = false, check = false, *devs;
	int n;

	if (now_ns - k->last_watch_ns >= SNAPSHOT_RESCAN_NS || k->rescan_wanted) {
		k->last_watch_ns = now_ns;
		check = true;
	}
	if (now_ns - k->last_rescan_ns >= SNAPSHOT_FULL_RESCAN_NS || k->rescan_wanted) {
		/* A pass over every device; the periodic one reads every GID table again. */
		k->roll_all = now_ns - k->last_rescan_ns >= SNAPSHOT_FULL_RESCAN_NS;
		k->roll_roce = k->roce_event;
		k->roll_next = 0;
		k->roll_end = h->ndevs;
		k->last_rescan_ns = now_ns;
		k->rescan_wanted = k->roce_event = false;
	}
	if (check) {
		devs = calloc(h->ndevs ? h->ndevs : 1, sizeof(*devs));
		n = devs ? source_changed_devices(src, h, devs) : -1;
		if (n < 0) {
			free(devs);
			return host_replace(src, h, k, now_ns, false, carry, nomem);
		}
		for (size_t i = 0; i < h->ndevs && n > 0; i++) {
			int rc = devs[i] ? device_recollect(src, h, k, i, carry, false, false) : 0;

			if (rc < 0) {
				*nomem = true;
				break;
			}
			moved |= devs[i];
		}
		free(devs);
	}
	while (k->roll_next < k->roll_end && k->roll_next < h->ndevs) {
		int rc;

		if (moved && util_now_ns() >= end)
			break;
		rc = device_recollect(src, h, k, k->roll_next, carry, k->roll_all, k->roll_roce);
		if (rc < 0) {
			*nomem = true;
			break;
		}
		moved |= rc > 0;
		k->roll_next++;
		if (util_now_ns() >= end)
			break;
	}
	source_refresh(src, h, now_ns);
	if (!k->fills_between)
		snapshot_host_fill(src, h, SNAPSHOT_FILL_NS);
	return moved;
}

bool snapshot_host_sample(struct source *src, struct fab_host *h, struct snapshot_clock *k, uint64_t now_ns,
			  void (*carry)(struct fab_host *nh, const struct fab_host *old), bool *nomem)
{
	*nomem = false;
	if (!source_watched(src))
		return source_refresh(src, h, now_ns);
	if (source_by_device(src) && source_fills(src))
		return host_sample_by_device(src, h, k, now_ns, carry, nomem);
	/* A few reads per port every SNAPSHOT_RESCAN_NS; everything on a change. */
	if (!k->rescan_wanted && now_ns - k->last_watch_ns >= SNAPSHOT_RESCAN_NS) {
		k->last_watch_ns = now_ns;
		k->rescan_wanted = now_ns - k->last_rescan_ns >= SNAPSHOT_FULL_RESCAN_NS || source_changed(src, h);
	}
	if (!k->rescan_wanted) {
		/*
		 * The sample's time is when its counters are read: after a
		 * structure check (a few reads per port, slow on a loaded or
		 * instrumented host), now_ns would be early and every rate
		 * over this interval too high.
		 */
		bool changed = source_refresh(src, h, k->last_watch_ns == now_ns ? util_now_ns() : now_ns);

		/* Without a loop of its own (the exporter), the pending parts fill in here. */
		if (!k->fills_between)
			snapshot_host_fill(src, h, SNAPSHOT_FILL_NS);
		return changed;
	}
	return host_replace(src, h, k, now_ns, now_ns - k->last_rescan_ns >= SNAPSHOT_FULL_RESCAN_NS, carry, nomem);
}

size_t snapshot_host_pending(const struct fab_host *h, unsigned int what, size_t *nports)
{
	size_t n = 0;

	*nports = 0;
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			(*nports)++;
			n += (h->devs[i].ports[j].pending & what) != 0;
		}
	return n;
}

bool snapshot_host_fill(struct source *src, struct fab_host *h, uint64_t budget_ns)
{
	uint64_t end = util_now_ns() + budget_ns;
	bool filled = false;

	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			if (!h->devs[i].ports[j].pending)
				continue;
			if (filled && util_now_ns() >= end)
				return true;
			filled = true;
			/* Out of memory, or the deadline within the port: on at the next step. */
			if (source_fill_port(src, h, i, j, COLLECT_ALL, end) || h->devs[i].ports[j].pending)
				return true;
		}
	return filled;
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

int snapshot_doctor(struct source *src, const struct snapshot *s, const struct doctor_query *q,
		    struct doctor_report *rep)
{
	struct roce_state roce = { 0 };
	struct doctor_input in;
	int rc;

	if (!s->has_net || s->net_err)
		return -ENODATA;
	/* The RoCE chain's configuration (a source that has none leaves it out). */
	rc = source_roce(src, &s->host, &roce);
	in = (struct doctor_input){ .host = &s->host, .net = &s->net, .routes = s->routes,
				    .roce = rc == 0 ? &roce : NULL,
				    /* what keeps this host's configuration; a simulated one has none */
				    .persist = source_has(src, SOURCE_OWN_NETWORK) ? netconf_detect(src->ctx) :
						FIX_HOST_UNKNOWN };
	rc = doctor_run(&in, q, rep);
	roce_state_free(&roce);
	return rc;
}
