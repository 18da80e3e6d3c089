// SPDX-License-Identifier: GPL-2.0-or-later
/* One source of the host model for commands and the monitor: real sysfs or the demo fabric. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "collect/demo.h"
#include "collect/host.h"
#include "collect/netlink.h"
#include "collect/source.h"
#include "model/net.h"

struct source {
	const struct fab_ctx *ctx;
	struct demo *demo;		/* NULL: the real sysfs under ctx->sysfs_root */
	uint64_t last_ns;		/* CLOCK_MONOTONIC of the latest demo sample */
};

struct source *source_open(const struct fab_ctx *ctx)
{
	struct source *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->ctx = ctx;
	if (ctx->demo) {
		s->demo = demo_new(ctx->seed);
		if (!s->demo) {
			free(s);
			return NULL;
		}
	}
	return s;
}

int source_collect(struct source *s, struct fab_host *h)
{
	if (!s->demo)
		return collect_host(s->ctx, h, COLLECT_ALL);
	s->last_ns = clock_now_ns();
	return demo_collect(s->demo, h);
}

/*
 * Simulated time advances in whole intervals when the caller is on
 * schedule (less than half an interval from a multiple of ctx->interval_s):
 * then a caller sampling once per interval gets the same numbers on every
 * run, whatever the scheduler's jitter, and a long pause (the monitor's
 * 'p') moves time on as much as the wall clock did. A caller on another
 * cadence (an interval changed without ctx) gets the elapsed time itself,
 * to the millisecond, so simulated time never runs ahead of the wall clock.
 */
static uint64_t demo_step_ns(const struct source *s, uint64_t now_ns)
{
	double iv = s->ctx->interval_s > 0 ? s->ctx->interval_s : 1.0;
	uint64_t step = (uint64_t)(iv * 1e9 + 0.5);
	uint64_t elapsed = now_ns > s->last_ns ? now_ns - s->last_ns : 0;
	uint64_t n = (elapsed + step / 2) / step, ms = (elapsed + 500000) / 1000000;
	uint64_t off = n * step > elapsed ? n * step - elapsed : elapsed - n * step;

	if (n && 2 * off < step)
		return n * step;
	return (ms ? ms : 1) * 1000000;
}

bool source_refresh(struct source *s, struct fab_host *h, uint64_t now_ns)
{
	bool changed;

	if (!s->demo) {
		collect_counters_refresh(h, now_ns);
		return false;
	}
	changed = demo_tick(s->demo, h, demo_step_ns(s, now_ns));
	s->last_ns = now_ns;
	return changed;
}

int source_net(struct source *s, struct net_state *st)
{
	if (s->demo)
		return demo_net(s->demo, st);
	return net_collect(s->ctx, st);
}

bool source_is_demo(const struct source *s)
{
	return s->demo != NULL;
}

struct demo *source_demo(struct source *s)
{
	return s->demo;
}

void source_close(struct source *s)
{
	if (!s)
		return;
	demo_free(s->demo);
	free(s);
}
