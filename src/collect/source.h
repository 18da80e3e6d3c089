/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the host model comes from: the real sysfs or the demo fabric, behind one interface. */
#ifndef FABTOP_COLLECT_SOURCE_H
#define FABTOP_COLLECT_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "ctx.h"
#include "model/fabric.h"

/*
 * Commands and the monitor use a source so they need not care whether the
 * data is real or simulated: ctx->demo selects the demo fabric, anything
 * else reads ctx->sysfs_root through collect_host().
 */
struct source;

/* NULL when out of memory. ctx must outlive the source (its interval is read live). */
struct source *source_open(const struct fab_ctx *ctx);

/* Build h from scratch (h zeroed or freed): collect_host(ctx, h, COLLECT_ALL) or demo_collect(). 0 or -ENOMEM. */
int source_collect(struct source *s, struct fab_host *h);

/*
 * Take a new counter sample into h. now_ns is CLOCK_MONOTONIC
 * (clock_now_ns()). Real: collect_counters_refresh(h, now_ns). Demo:
 * simulated time advances by the elapsed wall time, rounded to whole
 * multiples of ctx->interval_s when less than half an interval off, so a
 * caller refreshing once per ctx->interval_s gets deterministic numbers
 * (keep ctx->interval_s in step when the interval changes).
 * Returns true when port states changed (the demo's flapping port); the
 * real source never sees state changes here (re-collect for those).
 */
bool source_refresh(struct source *s, struct fab_host *h, uint64_t now_ns);

/*
 * The host's network state (links, addresses, routes, rules, sysctls) from
 * the same place: net_collect() over rtnetlink, or demo_net() for the demo
 * (never the machine's own network). st is overwritten; release it with
 * net_state_free(). 0 or -errno.
 */
struct net_state;
int source_net(struct source *s, struct net_state *st);

/* The demo fabric is in use (ctx->demo). */
bool source_is_demo(const struct source *s);

/* The demo behind the source, NULL for the real one (for demo_net() and friends). */
struct demo *source_demo(struct source *s);

void source_close(struct source *s);

#endif
