/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The MAD view kept open under a poll loop: local IB ports, partners, SM, both ends' PMA counters; never blocking. */
#ifndef FABTOP_MAD_MAD_WATCH_H
#define FABTOP_MAD_MAD_WATCH_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "ctx.h"
#include "model/fabric.h"
#include "model/ibfabric.h"

struct mad_fabric;

/* What mad_watch_handle() brought. */
enum mad_watch_news {
	MAD_WATCH_NOTHING,
	MAD_WATCH_SAMPLED,		/* new PMA samples of both ends */
	MAD_WATCH_REQUERIED,		/* the ports were asked again: partners may have changed */
};

/*
 * The ports themselves (state, SM, partner) are asked again every few
 * seconds, so a link going down, an SM coming up or a re-cabled port shows;
 * PMA counters are sampled every refresh interval in between. A view whose
 * device went away is opened again, at most every 30 s.
 */
struct mad_watch {
	const struct fab_ctx *ctx;
	/*
	 * What the MADs said, f.ports[] one per local IB port, as of the last
	 * whole batch (query or PMA sample): answers land one by one in work,
	 * and a view taken in between would mix two batches (a recording
	 * holds whole ones). A replay fills f only.
	 */
	struct ib_fabric f;
	struct ib_fabric work;
	struct mad_fabric *v;		/* NULL: no MAD access (reason says why) */
	char reason[768];		/* why there is no view, for people ("" when there is one) */
	bool tried;
	bool querying;			/* a re-query of the ports is in flight */
	bool sampling;			/* a PMA sample is in flight */
	bool dead;			/* no port could send at the last query: open again */
	uint64_t next_query_ns, next_pma_ns, last_try_ns;
	struct mad_watch_partner {
		uint64_t guid;		/* the partner of the last re-query (0: none) */
		uint8_t port;
		bool changed;		/* another partner or none since the one before */
	} *partner;			/* [f.nports] */
	/*
	 * Told after every change of the view (opened, sampled, re-queried,
	 * or no view and why) and once when the watch is freed (gone): a
	 * recorder writes what the watch holds then.
	 */
	void (*hook)(const struct mad_watch *w, enum mad_watch_news news, bool gone, void *arg);
	void *hook_arg;
	/*
	 * A recorded view (a replay) instead of MADs: feed() puts the view in
	 * force into the watch with mad_watch_take() when it is not the one
	 * given last. Nothing is ever sent; replayed says a recorded view is in.
	 */
	bool (*feed)(struct mad_watch *w, void *arg);
	void *feed_arg;
	bool replayed;
	bool reopened;			/* take() brought other ports: mad_watch_open() says so */
	enum mad_watch_news fed;	/* what the recorded view had just done: handle() returns it */
};

/* NULL when out of memory. ctx must outlive the watch. */
struct mad_watch *mad_watch_new(const struct fab_ctx *ctx);
void mad_watch_free(struct mad_watch *w);

/* Does h have a port that may be InfiniBand (an old kernel has no link_layer file)? */
bool mad_watch_host_has_ib(const struct fab_host *h);

/*
 * Open the view when h has InfiniBand ports; without access, w->reason says
 * which device node and what to do. Cheap to call again: it retries at most
 * every 30 s while there is no view, and reopens a view whose ports left h.
 * Returns true when a new view was opened (the caller's per-port state for
 * w->f.nports ports starts again).
 */
bool mad_watch_open(struct mad_watch *w, const struct fab_host *h, double interval_s, uint64_t now_ns);
/* The view's fds (POLLIN) into fds; lower *timeout_ms to its next deadline (paused: no new work). */
int mad_watch_fds(const struct mad_watch *w, bool paused, struct pollfd *fds, int max, int *timeout_ms,
		  uint64_t now_ns);
/* Step the view (never blocks) and start the next query or sample when due. */
enum mad_watch_news mad_watch_handle(struct mad_watch *w, bool paused, double interval_s, uint64_t now_ns);
/* 'r': the PMA deltas since start restart now. */
void mad_watch_reset(struct mad_watch *w);
/* Does w hold a view (asked through MADs, or recorded)? Without one, w->reason says why ("": not tried). */
bool mad_watch_has_view(const struct mad_watch *w);
/*
 * A recorded view into w (the feed of a replay): reason ("" when there is
 * a view), the ports and whether each one's partner changed (both arrays
 * taken over), and what the live watch had just done (mad_watch_handle()
 * returns it next).
 */
void mad_watch_take(struct mad_watch *w, const char *reason, struct ib_local_port *ports, bool *changed,
		    size_t nports, enum mad_watch_news news);
/* The local port's MAD state and its index in w->f.ports, or NULL when the view has none for it. */
const struct ib_local_port *mad_watch_port(const struct mad_watch *w, const char *ca, unsigned int port,
					   size_t *index);

#endif
