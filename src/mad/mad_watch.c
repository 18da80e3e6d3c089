// SPDX-License-Identifier: GPL-2.0-or-later
/* The MAD view under a poll loop: open, re-query the ports, sample PMA counters; never blocking. */
#include "config.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "kernel/host.h"
#include "mad/mad_fabric.h"
#include "mad/mad_port.h"
#include "mad/mad_watch.h"
#include "mad/umad.h"
#include "kernel/sysfs.h"
#include "derive/counters.h"
#include "util.h"

#define REQUERY_NS	(5ull * 1000000000ull)
#define RETRY_OPEN_NS	(30ull * 1000000000ull)

struct mad_watch *mad_watch_new(const struct fab_ctx *ctx)
{
	struct mad_watch *w = calloc(1, sizeof(*w));

	if (w)
		w->ctx = ctx;
	return w;
}

static void watch_close(struct mad_watch *w)
{
	mad_fabric_close(w->v);
	w->v = NULL;
	ib_fabric_free(&w->f);
	ib_fabric_free(&w->work);
	free(w->partner);
	w->partner = NULL;
	w->querying = w->sampling = w->dead = false;
}

void mad_watch_free(struct mad_watch *w)
{
	if (!w)
		return;
	if (w->hook)
		w->hook(w, MAD_WATCH_NOTHING, true, w->hook_arg);
	watch_close(w);
	free(w);
}

bool mad_watch_host_has_ib(const struct fab_host *h)
{
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t j = 0; j < h->devs[i].nports; j++)
			if (fab_port_maybe_ib(&h->devs[i].ports[j]))
				return true;
	return false;
}

/* The work of a whole batch becomes the view. */
static void watch_publish(struct mad_watch *w)
{
	memcpy(w->f.ports, w->work.ports, w->f.nports * sizeof(*w->f.ports));
}

static bool watch_open(struct mad_watch *w, const struct fab_host *h, double interval_s, uint64_t now)
{
	struct fab_ctx c = *w->ctx;
	int rc;

	/*
	 * A device that went away (hot-unplug, driver reload) takes its
	 * sessions with it: open again, at most every RETRY_OPEN_NS.
	 */
	if (w->v) {
		bool stale = w->dead;

		for (size_t i = 0; i < w->f.nports && !stale; i++)
			stale = !fab_host_find_port((struct fab_host *)h, w->f.ports[i].ca, w->f.ports[i].port);
		if (!stale || now - w->last_try_ns < RETRY_OPEN_NS)
			return false;
		watch_close(w);
		w->tried = false;
	}
	if (!mad_watch_host_has_ib(h))
		return false;
	if (w->tried && now - w->last_try_ns < RETRY_OPEN_NS)
		return false;
	w->tried = true;
	w->last_try_ns = now;
	watch_close(w);
	if (!c.live_sysfs && umad_tree_is_live(&c))
		c.live_sysfs = true;
	rc = mad_fabric_open(&c, &w->work, &w->v);
	if (rc) {
		snprintf(w->reason, sizeof(w->reason), "InfiniBand management view: %s", strerror(-rc));
		watch_close(w);
		return false;
	}
	if (!w->v || !w->work.nports) {
		snprintf(w->reason, sizeof(w->reason), "%s", w->work.error[0] ? w->work.error :
			 "no InfiniBand port can be asked through libibumad");
		watch_close(w);
		return false;
	}
	w->partner = calloc(w->work.nports, sizeof(*w->partner));
	w->f.ports = calloc(w->work.nports, sizeof(*w->f.ports));
	if (!w->partner || !w->f.ports) {
		snprintf(w->reason, sizeof(w->reason), "InfiniBand management view: out of memory");
		watch_close(w);
		return false;
	}
	/* Every session refused (permissions): the first refusal says why; none is usable. */
	w->reason[0] = '\0';
	if (w->work.error[0]) {
		bool any = false;

		for (size_t i = 0; i < w->work.nports; i++)
			any |= w->work.ports[i].self_state != IBQ_ERROR;
		if (!any) {
			snprintf(w->reason, sizeof(w->reason), "%s", w->work.error);
			watch_close(w);
			return false;
		}
	}
	w->f.nports = w->work.nports;
	watch_publish(w);
	mad_fabric_query_ports(w->v, now);
	w->querying = true;
	w->next_query_ns = now + REQUERY_NS;
	w->next_pma_ns = now + (uint64_t)(interval_s * 1e9);
	return true;
}

bool mad_watch_open(struct mad_watch *w, const struct fab_host *h, double interval_s, uint64_t now)
{
	uint64_t tried = w->last_try_ns;
	bool opened;

	if (w->feed) {
		w->feed(w, w->feed_arg);
		opened = w->reopened && w->replayed;
		w->reopened = false;
		return opened;
	}
	opened = watch_open(w, h, interval_s, now);
	/* a new view, or another reason for none */
	if (w->hook && (opened || w->last_try_ns != tried))
		w->hook(w, MAD_WATCH_NOTHING, false, w->hook_arg);
	return opened;
}

bool mad_watch_has_view(const struct mad_watch *w)
{
	return w && (w->v || w->replayed);
}

static bool same_ports(const struct ib_fabric *f, const struct ib_local_port *ports, size_t n)
{
	if (f->nports != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (f->ports[i].port != ports[i].port || strcmp(f->ports[i].ca, ports[i].ca))
			return false;
	return true;
}

void mad_watch_take(struct mad_watch *w, const char *reason, struct ib_local_port *ports, bool *changed,
		    size_t nports, enum mad_watch_news news)
{
	bool view = !reason[0] && nports;

	if (!view || !w->replayed || !same_ports(&w->f, ports, nports))
		w->reopened = true;
	ib_fabric_free(&w->f);
	free(w->partner);
	w->partner = NULL;
	snprintf(w->reason, sizeof(w->reason), "%s", view ? "" : reason);
	w->replayed = view;
	w->fed = view ? news : MAD_WATCH_NOTHING;
	if (view)
		w->partner = calloc(nports, sizeof(*w->partner));
	if (!view || !w->partner) {
		free(ports);
		free(changed);
		w->replayed = false;
		if (view)
			snprintf(w->reason, sizeof(w->reason), "the recorded InfiniBand management view: out of memory");
		return;
	}
	w->f.ports = ports;
	w->f.nports = nports;
	for (size_t i = 0; i < nports; i++) {
		w->partner[i].changed = changed && changed[i];
		w->partner[i].guid = ports[i].peer_state == IBQ_OK ? ports[i].peer.node_guid : 0;
		w->partner[i].port = ports[i].peer_state == IBQ_OK ? ports[i].peer_pi.num : 0;
	}
	free(changed);
}

static void pma_reset(struct ib_pma *pma)
{
	for (size_t k = 0; k < pma->n; k++)
		counter_reset_delta(&pma->c[k]);
}

void mad_watch_reset(struct mad_watch *w)
{
	if (!mad_watch_has_view(w))
		return;
	for (size_t i = 0; i < w->f.nports; i++) {
		pma_reset(&w->f.ports[i].pma);
		pma_reset(&w->f.ports[i].peer_pma);
		if (i < w->work.nports) {
			pma_reset(&w->work.ports[i].pma);
			pma_reset(&w->work.ports[i].peer_pma);
		}
	}
}

/*
 * Ask the ports again (only when no batch is in flight: the view then holds
 * the last whole one); their PMA counters are kept from the view, as a
 * re-query would restart them.
 */
static void requery_start(struct mad_watch *w, uint64_t now)
{
	mad_fabric_query_ports(w->v, now);
	w->querying = true;
}

static void requery_done(struct mad_watch *w)
{
	size_t failed = 0;

	for (size_t i = 0; i < w->work.nports; i++)
		failed += w->work.ports[i].self_state == IBQ_ERROR;
	/* Nothing could even be sent: the device is gone or was reset under us. */
	w->dead = failed == w->work.nports;
	for (size_t i = 0; i < w->work.nports; i++) {
		struct ib_local_port *lp = &w->work.ports[i];
		struct mad_watch_partner *pa = &w->partner[i];
		const struct ib_pma *old = &w->f.ports[i].pma;	/* the view: the last whole batch */
		bool linked;

		/* No link, or no answer: what the previous answer said about a partner no longer holds. */
		if (lp->self_state != IBQ_OK || lp->pi.phys_state != PHYS_STATE_LINK_UP) {
			lp->peer_state = IBQ_NONE;
			memset(&lp->peer, 0, sizeof(lp->peer));
			memset(&lp->peer_pi, 0, sizeof(lp->peer_pi));
		}
		linked = lp->self_state == IBQ_OK && lp->peer_state == IBQ_OK;
		/* The same local LID: the old counters go on (their previous sample gives the next rate). */
		if (old->n && old->state == IBQ_OK && lp->pma.lid == old->lid && lp->pi.state == PORT_STATE_ACTIVE)
			lp->pma = *old;
		/*
		 * Another partner, or none: its counters are not this cable's (the
		 * next re-query asks the new partner's PMA), and the caller starts
		 * what it derived from them again.
		 */
		pa->changed = !linked || (pa->guid && (lp->peer.node_guid != pa->guid || lp->peer_pi.num != pa->port));
		if (pa->changed) {
			memset(&lp->peer_pma, 0, sizeof(lp->peer_pma));
			pa->guid = 0;
			pa->port = 0;
		}
		if (linked) {
			pa->guid = lp->peer.node_guid;
			pa->port = lp->peer_pi.num;
		}
		/* SMInfo is asked only from ARMED/ACTIVE ports: an older answer is not about now. */
		if (lp->self_state == IBQ_OK && lp->pi.state != PORT_STATE_ARMED && lp->pi.state != PORT_STATE_ACTIVE) {
			lp->sm.state = IBQ_NONE;
			lp->sm.guid = 0;
			lp->sm.priority = lp->sm.sm_state = 0;
			lp->sm.act_count = 0;
		}
		mad_port_explain(lp);
	}
}

int mad_watch_fds(const struct mad_watch *w, bool paused, struct pollfd *fds, int max, int *timeout_ms,
		  uint64_t now)
{
	int raw[16], n, t;

	if (!w || !w->v || max <= 0)
		return 0;
	n = mad_fabric_fds(w->v, raw, max < 16 ? max : 16);
	for (int i = 0; i < n; i++)
		fds[i] = (struct pollfd){ .fd = raw[i], .events = POLLIN };
	t = mad_fabric_timeout_ms(w->v, now);
	if (t < 0 && !paused && !w->querying && !w->sampling) {
		/* Idle: wake for the next re-query or PMA sample. */
		uint64_t due = w->next_query_ns < w->next_pma_ns ? w->next_query_ns : w->next_pma_ns;

		t = due > now ? (int)((due - now + 999999) / 1000000) : 0;
	}
	if (t >= 0 && (*timeout_ms < 0 || t < *timeout_ms))
		*timeout_ms = t;
	return n;
}

enum mad_watch_news mad_watch_handle(struct mad_watch *w, bool paused, double interval_s, uint64_t now)
{
	enum mad_watch_news news = MAD_WATCH_NOTHING;

	if (w && w->feed) {
		/* other ports wait for mad_watch_open(): the caller's per-port state must follow them */
		w->feed(w, w->feed_arg);
		if (w->reopened || !w->replayed)
			return MAD_WATCH_NOTHING;
		news = w->fed;
		w->fed = MAD_WATCH_NOTHING;
		return news;
	}
	if (!w || !w->v)
		return MAD_WATCH_NOTHING;
	mad_fabric_step(w->v, now);
	if (!mad_fabric_idle(w->v))
		return MAD_WATCH_NOTHING;
	if (w->querying) {
		w->querying = false;
		requery_done(w);
		news = MAD_WATCH_REQUERIED;
	} else if (w->sampling) {
		w->sampling = false;
		news = MAD_WATCH_SAMPLED;
	}
	if (news != MAD_WATCH_NOTHING) {
		watch_publish(w);
		if (w->hook)
			w->hook(w, news, false, w->hook_arg);
	}
	if (paused)
		return news;
	if (now >= w->next_query_ns) {
		w->next_query_ns = now + REQUERY_NS;
		requery_start(w, now);
	} else if (now >= w->next_pma_ns) {
		w->next_pma_ns = now + (uint64_t)(interval_s * 1e9);
		mad_fabric_pma_refresh(w->v, MAD_PMA_LOCAL | MAD_PMA_PEER, now);
		w->sampling = true;
	}
	return news;
}

const struct ib_local_port *mad_watch_port(const struct mad_watch *w, const char *ca, unsigned int port,
					   size_t *index)
{
	if (!mad_watch_has_view(w))
		return NULL;
	for (size_t i = 0; i < w->f.nports; i++)
		if (w->f.ports[i].port == port && !strcmp(w->f.ports[i].ca, ca)) {
			if (index)
				*index = i;
			return &w->f.ports[i];
		}
	return NULL;
}
