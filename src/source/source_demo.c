// SPDX-License-Identifier: GPL-2.0-or-later
/* The demo source: the built-in simulated fabric and its simulated network, in simulated time. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo/demo.h"
#include "demo/demo_roce.h"
#include "kernel/host.h"
#include "source/source.h"
#include "demo/demo_probe.h"
#include "demo/demo_scenario.h"
#include "demo/demo_state.h"
#include "util.h"

struct demo_source {
	struct demo *demo;
	uint64_t last_ns;		/* CLOCK_MONOTONIC of the latest demo sample */
};

/* A fix an earlier run applied is still in, as on a real host until it reboots (doc/lab.md). */
static void demo_source_restore(struct source *s, struct demo *d)
{
	struct demo_state saved;
	char err[4400];

	if (demo_state_load(s->ctx->scenario, &saved, err, sizeof(err)) == -EINVAL)
		fprintf(stderr, "fabtop: %s\n", err);
	if ((saved.route || saved.own) && demo_refix(d, saved.route, saved.own))
		fprintf(stderr, "fabtop: out of memory putting the demo's kept fix back; it starts unfixed\n");
}

/* Keep what is fixed now for the next run; a state that cannot be kept only costs that. */
static void demo_source_keep(struct source *s, FILE *log)
{
	struct demo_source *ds = s->priv;
	struct demo_state st;
	char path[4200];
	int rc;

	demo_fix_parts(ds->demo, &st.route, &st.own);
	rc = demo_state_save(s->ctx->scenario, &st);
	if (rc && log)
		fprintf(log, "[SIMULATED] the fix holds for this run only: cannot keep it in %s: %s\n",
			demo_state_path(s->ctx->scenario, path, sizeof(path)) ? "$XDG_STATE_HOME (unset, and no $HOME)" : path,
			strerror(-rc));
}

static int demo_source_open(struct source *s)
{
	struct demo_source *ds = calloc(1, sizeof(*ds));

	if (!ds)
		return -ENOMEM;
	ds->demo = demo_new_scenario(s->ctx->seed, demo_scenario_find(s->ctx->scenario));
	if (!ds->demo) {
		free(ds);
		return -ENOMEM;
	}
	demo_source_restore(s, ds->demo);
	s->priv = ds;
	return 0;
}

/* The demo builds every part of the host whatever is asked: it costs nothing. */
static int demo_source_collect(struct source *s, struct fab_host *h, unsigned int what)
{
	struct demo_source *ds = s->priv;

	ds->last_ns = util_now_ns();
	return demo_collect(ds->demo, h);
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
	const struct demo_source *ds = s->priv;
	double iv = s->ctx->interval_s > 0 ? s->ctx->interval_s : 1.0;
	uint64_t step = (uint64_t)(iv * 1e9 + 0.5);
	uint64_t elapsed = now_ns > ds->last_ns ? now_ns - ds->last_ns : 0;
	uint64_t n = (elapsed + step / 2) / step, ms = (elapsed + 500000) / 1000000;
	uint64_t off = n * step > elapsed ? n * step - elapsed : elapsed - n * step;

	if (n && 2 * off < step)
		return n * step;
	return (ms ? ms : 1) * 1000000;
}

/* The demo changes its own structure (the flapping port) here, and says so. */
static bool demo_source_refresh(struct source *s, struct fab_host *h, uint64_t now_ns)
{
	struct demo_source *ds = s->priv;
	bool changed = demo_tick(ds->demo, h, demo_step_ns(s, now_ns));

	ds->last_ns = now_ns;
	return changed;
}

/* The demo host's simulated network, never this machine's. */
static int demo_source_net(struct source *s, struct net_state *st)
{
	struct demo_source *ds = s->priv;

	return demo_net(ds->demo, st);
}

/* The demo's simulated RoCE chain, at the demo's time. */
static int demo_source_roce(struct source *s, const struct fab_host *h, struct roce_state *st)
{
	struct demo_source *ds = s->priv;

	return demo_roce(ds->demo, h, st);
}

/* The simulated CM exchange over the demo host as it is now. */
static struct probe *demo_source_probe(struct source *s, const struct probe_opts *o)
{
	struct demo_source *ds = s->priv;

	return demo_probe_start(ds->demo, o);
}

/* The fix goes into the simulated host, never this machine. */
static int demo_source_apply_fix(struct source *s, const struct fix_plan *plan, const struct net_state *st,
				 FILE *log, size_t *left)
{
	struct demo_source *ds = s->priv;

	int rc;

	(void)st;
	*left = 0;
	rc = demo_fix(ds->demo, plan, log);
	if (!rc)
		demo_source_keep(s, log);
	return rc;
}

static int demo_source_undo_fix(struct source *s, FILE *log)
{
	struct demo_source *ds = s->priv;
	int rc = demo_unfix(ds->demo, log);

	if (!rc)
		demo_source_keep(s, log);
	return rc;
}

static bool demo_source_story(const struct source *s, char *story, size_t ssize, char *hint, size_t hsize,
			      bool *fixed)
{
	const struct demo_source *ds = s->priv;

	return demo_story(ds->demo, story, ssize, hint, hsize, fixed);
}

static void demo_source_probe_peers(const struct source *s, char *buf, size_t size)
{
	(void)s;
	demo_probe_peers(buf, size);
}

static void demo_source_describe(const struct source *s, char *buf, size_t size)
{
	if (s->ctx->scenario)
		snprintf(buf, size, "demo fabric (simulated, seed %lu, scenario %s)", s->ctx->seed, s->ctx->scenario);
	else
		snprintf(buf, size, "demo fabric (simulated, seed %lu)", s->ctx->seed);
}

static void demo_source_close(struct source *s)
{
	struct demo_source *ds = s->priv;

	if (ds)
		demo_free(ds->demo);
	free(ds);
}

const struct source_ops source_demo_ops = {
	.name = "demo",
	.flags = SOURCE_SIMULATED,
	.open = demo_source_open,
	.collect = demo_source_collect,
	.refresh = demo_source_refresh,
	.net = demo_source_net,
	.roce = demo_source_roce,
	.probe = demo_source_probe,
	.probe_peers = demo_source_probe_peers,
	.apply_fix = demo_source_apply_fix,
	.undo_fix = demo_source_undo_fix,
	.story = demo_source_story,
	.describe = demo_source_describe,
	.close = demo_source_close,
};
