/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why a probe failed, from what that attempt did: its CM event, the source it bound, the route, port and findings. */
#ifndef FABTOP_PROBE_EXPLAIN_H
#define FABTOP_PROBE_EXPLAIN_H

#include "ctx.h"
#include "probe/probe.h"

#define EXPLAIN_MAX_LINES 8

/* The one cause a failed attempt is put down to (a stable key: the JSON's "cause"). */
enum explain_cause {
	EXPLAIN_NONE = 0,		/* the probe did not fail, or failed locally (no line) */
	EXPLAIN_NO_LISTENER,		/* REJECTED 8 on a right path: nothing listens there (or a firewall refuses) */
	EXPLAIN_WRONG_INTERFACE,	/* the request left by another interface than the source's own */
	EXPLAIN_PORT_DOWN,		/* the port the route leads to is not ACTIVE */
	EXPLAIN_NO_ROUTE,		/* no route from the source to the peer */
	EXPLAIN_NOT_RDMA,		/* the route leaves by a netdev with no RDMA port here */
	EXPLAIN_REFUSED,		/* the peer's CM rejected for a reason of its own (the decoded reason) */
	EXPLAIN_UNKNOWN_PAST_HOST,	/* this host's path is right: what lies past it is not known from here */
};

struct explain {
	unsigned int n;
	char line[EXPLAIN_MAX_LINES][PROBE_EVENT_TEXT_MAX];
	enum explain_cause cause;	/* EXPLAIN_NONE when n is 0 or the lines came from a recording */
	const char *cited[EXPLAIN_MAX_LINES];	/* the codes of the findings cited (static strings) */
	unsigned int ncited;
};

/* "no-listener", "wrong-interface", ... ("" for EXPLAIN_NONE). */
const char *explain_cause_str(enum explain_cause c);

struct fab_host;
struct net_state;
struct route_ops;
struct doctor_report;

/* What this host knows while explaining: the live core's view, or one look with the doctor run over it. */
struct explain_input {
	const struct fab_host *host;
	const struct net_state *net;
	const struct route_ops *routes;
	const struct doctor_report *doctor;	/* the findings of every surface; NULL: none known */
};

/*
 * A failed client probe explained from what the attempt did: the CM event
 * and its reason, the source address the CM bound (else --from, an
 * interface standing for its first IPv4 address as the probe binds it),
 * the interface the kernel routes that source by, the device, port and
 * GID it used, the neighbour; then the findings that bear on that path,
 * and only those. A line "cause: ..." comes first. Pure: no I/O but
 * in->routes. Returns the number of lines (0: nothing to explain).
 */
unsigned int explain_attempt(const struct explain_input *in, const struct probe_opts *o,
			     const struct probe_status *st, struct explain *out);

/*
 * An attempt explained at its failure (then) and again on a network that
 * changed since (now, a fix applied or undone): into out, a line saying
 * so, the cause then, and now's route and findings.
 */
void explain_merge_again(struct explain *out, const struct explain *then, const struct explain *now);

/*
 * The same for a command that holds no live core: one look at src (the
 * demo's simulated host with its fixes, or the live host), the doctor run
 * over it exactly as `fabtop doctor` runs it, then explain_attempt().
 */
struct source;
unsigned int explain_failure_src(struct source *src, const struct probe_opts *o, const struct probe_status *st,
				 struct explain *out);

#endif
