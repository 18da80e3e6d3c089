// SPDX-License-Identifier: GPL-2.0-or-later
/* The replay source: a recording played back through the same snapshot as the live host. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mad/mad_watch.h"
#include "source/source.h"
#include "model/events.h"
#include "record/mad.h"
#include "record/reader.h"
#include "record/roce.h"
#include "util.h"
#include "warn.h"

/*
 * Each refresh() moves the cursor one recorded sample on (the caller's
 * cadence is the playback speed; pausing is not calling it), seek() jumps.
 * The host a caller holds is moved in place from sample to sample, or
 * rebuilt when the recording has a new structure there or after a jump;
 * refresh() then says the structure changed, as the demo does, and the
 * network state is asked again (net() answers for the cursor). So it says
 * when another network state or RoCE chain comes into force: the live
 * core read both together, and its doctor looks at both.
 */
struct replay {
	const struct rec_reader *r;
	size_t pos;			/* the sample the caller's host shows */
	size_t net_rec;			/* the network record in force at pos */
	size_t roce_rec;		/* the RoCE chain record in force at pos */
	size_t events_from;		/* the first record whose events are not given yet */
	size_t mad_rec;			/* the MAD record the watch holds ((size_t)-1: none given yet) */
	size_t mad_pos;			/* the sample it was looked up for (the watch asks at every wake) */
	bool mad_looked;
};

static int replay_open(struct source *s)
{
	struct replay *rp = calloc(1, sizeof(*rp));

	if (!rp)
		return -ENOMEM;
	if (!s->ctx->replay) {
		free(rp);
		return -EINVAL;
	}
	rp->r = s->ctx->replay;
	rp->pos = s->ctx->replay_pos;
	if (rp->pos >= rp->r->nsamples)
		rp->pos = rp->r->nsamples - 1;
	rp->net_rec = rec_reader_net_record(rp->r, rp->pos);
	rp->roce_rec = rec_reader_last(rp->r, rp->pos, REC_ROCE, (size_t)-1);
	rp->mad_rec = (size_t)-1;
	s->priv = rp;
	return 0;
}

static int replay_build(struct replay *rp, struct fab_host *h)
{
	char err[512];
	int rc;

	fab_host_free(h);
	memset(h, 0, sizeof(*h));
	rc = rec_reader_host_at(rp->r, rp->pos, h, err, sizeof(err));
	if (rc) {
		/* checked at open: only memory can fail here, or a sample the index let through */
		warn_once("%s", err);
		return rc == -ENOMEM ? -ENOMEM : 0;
	}
	rp->net_rec = rec_reader_net_record(rp->r, rp->pos);
	rp->roce_rec = rec_reader_last(rp->r, rp->pos, REC_ROCE, (size_t)-1);
	return 0;
}

static int replay_collect(struct source *s, struct fab_host *h, unsigned int what)
{
	(void)what;
	return replay_build(s->priv, h);
}

static bool replay_refresh(struct source *s, struct fab_host *h, uint64_t now_ns)
{
	struct replay *rp = s->priv;
	bool structure = false;
	size_t net, roce;
	char err[512];

	(void)now_ns;
	if (rp->pos + 1 >= rp->r->nsamples)
		return false;	/* the end: the last sample stays */
	rp->pos++;
	if (rec_reader_step(rp->r, rp->pos, h, &structure, err, sizeof(err))) {
		warn_once("%s", err);
		replay_build(rp, h);
		structure = true;
	}
	net = rec_reader_net_record(rp->r, rp->pos);
	roce = rec_reader_last(rp->r, rp->pos, REC_ROCE, (size_t)-1);
	if (net != rp->net_rec || roce != rp->roce_rec) {
		rp->net_rec = net;
		rp->roce_rec = roce;
		structure = true;	/* the network or the chain changed: the caller reads them again */
	}
	return structure;
}

static int replay_net(struct source *s, struct net_state *st)
{
	struct replay *rp = s->priv;
	char err[512];
	int rc = rec_reader_net_at(rp->r, rp->pos, st, err, sizeof(err));

	if (rc && rc != -ENOENT)
		warn_once("%s", err);
	return rc == -ENOENT ? -ENODATA : rc;
}

/*
 * The RoCE chain in force at the cursor, a copy the caller frees.
 * -EOPNOTSUPP when the recording holds none (made before format 1.3, or
 * of a source without the chain): as a source without it says.
 */
static int replay_roce(struct source *s, const struct fab_host *h, struct roce_state *st)
{
	struct replay *rp = s->priv;
	size_t rec = rec_reader_last(rp->r, rp->pos, REC_ROCE, (size_t)-1);
	const uint8_t *body;
	size_t len;
	struct rec_cur c;
	int rc;

	(void)h;
	memset(st, 0, sizeof(*st));
	if (rec == (size_t)-1 || !rec_reader_body(rp->r, rec, &body, &len))
		return -EOPNOTSUPP;
	rec_cur_init(&c, body, len, rp->r->data);
	rc = rec_roce_decode(&c, st);
	/* checked at open: only memory can fail here */
	if (rc == -EINVAL)
		warn_once("%s: byte %zu of the stream (a RoCE chain record): expected %s", rp->r->path,
			  c.err_off, c.err ? c.err : "a well-formed record");
	return rc;
}

/* The MAD view recorded at sample i into m (zeroed: none recorded). 0, -ENOMEM or -EINVAL (warned). */
static int mad_at(const struct replay *rp, size_t rec, struct rec_mad *m)
{
	const uint8_t *body;
	size_t len;
	struct rec_cur c;
	int rc;

	memset(m, 0, sizeof(*m));
	if (rec == (size_t)-1 || !rec_reader_body(rp->r, rec, &body, &len))
		return 0;
	rec_cur_init(&c, body, len, rp->r->data);
	rc = rec_mad_decode(&c, m);
	if (rc) {
		rec_mad_free(m);
		if (rc == -EINVAL)
			warn_once("%s: byte %zu of the stream (a MAD view record): expected %s", rp->r->path,
				  c.err_off, c.err ? c.err : "a well-formed record");
	}
	return rc;
}

/* The watch's view follows the cursor: the MAD record in force there, never a MAD sent. */
static bool replay_mad_feed(struct mad_watch *w, void *arg)
{
	struct replay *rp = arg;
	size_t rec;
	struct rec_mad m;
	static const enum mad_watch_news news[] = {
		[REC_MAD_OPENED] = MAD_WATCH_NOTHING, [REC_MAD_SAMPLED] = MAD_WATCH_SAMPLED,
		[REC_MAD_REQUERIED] = MAD_WATCH_REQUERIED,
	};

	if (rp->mad_looked && rp->mad_pos == rp->pos)
		return false;
	rp->mad_looked = true;
	rp->mad_pos = rp->pos;
	rec = rec_reader_last(rp->r, rp->pos, REC_MAD, (size_t)-1);
	if (rec == rp->mad_rec)
		return false;
	rp->mad_rec = rec;
	if (mad_at(rp, rec, &m) == -ENOMEM)
		snprintf(m.reason, sizeof(m.reason), "the recorded InfiniBand management view: out of memory");
	mad_watch_take(w, m.reason, m.ports, m.changed, m.nports, news[m.news]);
	return true;
}

static struct mad_watch *replay_mad_watch(struct source *s)
{
	struct replay *rp = s->priv;
	struct mad_watch *w = mad_watch_new(s->ctx);

	if (w) {
		w->feed = replay_mad_feed;
		w->feed_arg = rp;
		rp->mad_rec = (size_t)-1;
		rp->mad_looked = false;
	}
	return w;
}

/*
 * `show fabric` over a recording: the local ports as the MAD view had them
 * at the cursor (partners, SM, both ends' PMA counters). A recording keeps
 * the monitor's view of the local ports, not a sweep of the subnet.
 */
static int replay_fabric(struct source *s, struct ib_fabric *f, struct mad_fabric **vp)
{
	struct replay *rp = s->priv;
	struct rec_mad m;
	int rc;

	memset(f, 0, sizeof(*f));
	*vp = NULL;
	rc = mad_at(rp, rec_reader_last(rp->r, rp->pos, REC_MAD, (size_t)-1), &m);
	if (rc == -ENOMEM)
		return rc;
	if (m.reason[0] || !m.nports) {
		snprintf(f->error, sizeof(f->error), "%s", m.reason[0] ? m.reason :
			 rc ? "the recorded InfiniBand management view does not read" :
			 "the recording holds no InfiniBand management view at this time (no InfiniBand port, "
			 "or recorded by a fabtop that did not keep it)");
		rec_mad_free(&m);
		return 0;
	}
	f->ports = m.ports;
	f->nports = m.nports;
	free(m.changed);
	return 0;
}

static void replay_describe(const struct source *s, char *buf, size_t size)
{
	const struct replay *rp = s->priv;

	snprintf(buf, size, "recording %s (%s, %s)", rp->r->path, rp->r->info.hostname[0] ? rp->r->info.hostname : "?",
		 rp->r->info.source);
}

static bool replay_timeline(const struct source *s, struct source_timeline *t)
{
	const struct replay *rp = s->priv;
	const struct rec_reader *r = rp->r;

	t->pos = rp->pos;
	t->n = r->nsamples;
	t->wall_ns = r->recs[r->samples[rp->pos]].wall_ns;
	t->start_wall_ns = r->recs[r->samples[0]].wall_ns;
	t->end_wall_ns = r->recs[r->samples[r->nsamples - 1]].wall_ns;
	t->interval_s = r->info.interval_s;
	t->ended = r->ended;
	return true;
}

static int replay_seek(struct source *s, struct fab_host *h, enum source_seek how, int64_t arg)
{
	struct replay *rp = s->priv;
	const struct rec_reader *r = rp->r;
	int64_t to = (int64_t)rp->pos;
	uint64_t wall = r->recs[r->samples[rp->pos]].wall_ns;

	switch (how) {
	case SOURCE_SEEK_SAMPLE:
		to = arg;
		break;
	case SOURCE_SEEK_STEP:
		to += arg;
		break;
	case SOURCE_SEEK_WALL:
		to = (int64_t)rec_reader_sample_at_wall(r, (uint64_t)arg);
		break;
	case SOURCE_SEEK_NEXT_EVENT:
		to = (int64_t)rec_reader_next_event_sample(r, rp->pos);
		if (to == (int64_t)rp->pos)
			return -ENOENT;
		break;
	case SOURCE_SEEK_WALL_REL:
		to = (int64_t)rec_reader_sample_at_wall(r, arg < 0 && (uint64_t)-arg > wall ? 0 : wall + (uint64_t)arg);
		/* a jump forward lands on a later sample even when samples are further apart than the jump */
		if (arg > 0 && to == (int64_t)rp->pos)
			to++;
		break;
	}
	if (to < 0)
		to = 0;
	if (to >= (int64_t)r->nsamples)
		to = (int64_t)r->nsamples - 1;
	/* one step on is a step, not a rebuild: the previous sample stays the counters' previous */
	if (to == (int64_t)rp->pos + 1) {
		replay_refresh(s, h, 0);
		return 0;
	}
	rp->pos = (size_t)to;
	return replay_build(rp, h);
}

static size_t replay_events(struct source *s, struct event_log *log, bool again)
{
	struct replay *rp = s->priv;
	size_t before = event_log_count(log);
	char err[512];

	if (again)
		rp->events_from = 0;
	if (rec_reader_events(rp->r, rp->pos, &rp->events_from, log, err, sizeof(err)))
		warn_once("%s", err);
	return event_log_count(log) - before;
}

static bool replay_recorded(struct source *s, unsigned int type, size_t before, struct source_rec *out)
{
	struct replay *rp = s->priv;
	size_t k = rec_reader_last(rp->r, rp->pos, (enum rec_record)type, before);

	if (k == (size_t)-1 || !rec_reader_body(rp->r, k, &out->body, &out->len))
		return false;
	out->index = k;
	out->mono_ns = rp->r->recs[k].mono_ns;
	out->wall_ns = rp->r->recs[k].wall_ns;
	return true;
}

static void replay_close(struct source *s)
{
	free(s->priv);
}

const struct source_ops source_replay_ops = {
	.name = "replay",
	.flags = SOURCE_RECORDED,
	.open = replay_open,
	.collect = replay_collect,
	.refresh = replay_refresh,
	.net = replay_net,
	.describe = replay_describe,
	.close = replay_close,
	.timeline = replay_timeline,
	.seek = replay_seek,
	.recorded_events = replay_events,
	.mad_watch = replay_mad_watch,
	.fabric = replay_fabric,
	.roce = replay_roce,
	.recorded = replay_recorded,
};
