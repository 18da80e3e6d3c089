// SPDX-License-Identifier: GPL-2.0-or-later
/* The recorder: a source around another that writes what it gives into a recording when asked. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_watch.h"
#include "source/source.h"
#include "record/codec.h"
#include "record/mad.h"
#include "record/roce.h"
#include "record/schema.h"
#include "record/writer.h"
#include "util.h"

/*
 * Every op passes through to the inner source; collect, refresh, net and
 * roce also write what they return while a recording runs. The recording thus
 * holds exactly what the snapshot held, when it held it, whoever drives
 * the source (the monitor, `fabtop record`). Its ops are a copy of the
 * inner ones, so what the inner source cannot do (a NULL op) stays so.
 */
struct recorder {
	struct source_ops ops;
	struct source *inner;
	struct rec_writer *w;
	uint64_t started_ns;
	int error;			/* of the last recording, kept after it stopped */
	bool dirty;			/* parts of the host were read in place since the last host record */
	char path[4096];
	/* the MAD view handed out (NULL: none, or freed), what it did last, and the last one written */
	struct mad_watch *watch;
	enum mad_watch_news mad_news;
	struct rec_buf mad, mad_last;
	/*
	 * The RoCE chain last read, recording or not (a recording starts with
	 * the chain in force, read with the network before it), the length of
	 * its bytes that say what the chain is (all but its time), and those
	 * bytes as last written.
	 */
	struct rec_buf roce, roce_last;
	size_t roce_chain;
	bool roce_read, roce_written;
};

static struct source *inner_of(const struct source *s)
{
	return ((struct recorder *)s->priv)->inner;
}

/* A write error stops the recording; the source goes on (the monitor shows why). */
static void note(struct recorder *r, int rc)
{
	if (!rc || !r->w)
		return;
	r->error = rc;
	rec_writer_close(r->w);
	r->w = NULL;
}

static int rec_collect(struct source *s, struct fab_host *h, unsigned int what)
{
	struct recorder *r = s->priv;
	int rc = source_collect(r->inner, h, what);

	if (!rc && r->w)
		note(r, rec_writer_host(r->w, h, util_now_ns(), util_wall_ns()));
	return rc;
}

static bool rec_refresh(struct source *s, struct fab_host *h, uint64_t now_ns)
{
	struct recorder *r = s->priv;
	bool changed = source_refresh(r->inner, h, now_ns);

	if (r->w)
		note(r, changed || r->dirty ? rec_writer_host(r->w, h, now_ns, util_wall_ns())
					    : rec_writer_sample(r->w, h, now_ns, util_wall_ns()));
	r->dirty = false;
	return changed;
}

static int rec_net(struct source *s, struct net_state *st)
{
	struct recorder *r = s->priv;
	int rc = source_net(r->inner, st);

	if (!rc && r->w)
		note(r, rec_writer_net(r->w, st, util_now_ns(), util_wall_ns()));
	return rc;
}

static int rec_fabric(struct source *s, struct ib_fabric *f, struct mad_fabric **vp)
{
	struct source *in = inner_of(s);

	return in->ops->fabric(in, f, vp);
}

static int rec_event_fd(struct source *s)
{
	return source_event_fd(inner_of(s));
}

static bool rec_events(struct source *s)
{
	return source_events(inner_of(s));
}

/* The MAD view as it is now, written when it differs from the last one written (as the network state). */
static void write_mad(struct recorder *r, const struct mad_watch *w)
{
	struct rec_mad m = { .news = r->mad_news == MAD_WATCH_REQUERIED ? REC_MAD_REQUERIED :
				     r->mad_news == MAD_WATCH_SAMPLED ? REC_MAD_SAMPLED : REC_MAD_OPENED };
	struct rec_buf t;
	bool *changed = NULL;

	snprintf(m.reason, sizeof(m.reason), "%s", w->reason);
	if (w->v && w->f.nports) {
		changed = calloc(w->f.nports, sizeof(*changed));
		if (!changed) {
			note(r, -ENOMEM);
			return;
		}
		for (size_t i = 0; w->partner && i < w->f.nports; i++)
			changed[i] = w->partner[i].changed;
		m.ports = w->f.ports;
		m.nports = w->f.nports;
		m.changed = changed;
	}
	rec_buf_reset(&r->mad);
	rec_mad_encode(&r->mad, &m);
	free(changed);
	if (r->mad.oom) {
		note(r, -ENOMEM);
		return;
	}
	/* Nothing encoded yet on either side may be two NULL buffers: no memcmp() of those. */
	if (r->mad.len == r->mad_last.len && (!r->mad.len || !memcmp(r->mad.data, r->mad_last.data, r->mad.len)))
		return;
	note(r, rec_writer_record(r->w, REC_MAD, r->mad.data, r->mad.len, util_now_ns(), util_wall_ns()));
	t = r->mad_last;
	r->mad_last = r->mad;
	r->mad = t;
}

static void rec_mad_hook(const struct mad_watch *w, enum mad_watch_news news, bool gone, void *arg)
{
	struct recorder *r = arg;

	if (gone) {
		if (r->watch == w)
			r->watch = NULL;
		return;
	}
	r->mad_news = news;
	if (r->w)
		write_mad(r, w);
}

static struct mad_watch *rec_mad_watch(struct source *s)
{
	struct recorder *r = s->priv;
	struct mad_watch *w = source_mad_watch(r->inner);

	if (w) {
		w->hook = rec_mad_hook;
		w->hook_arg = r;
		r->watch = w;
	}
	return w;
}

static int rec_async_fd(struct source *s, const struct fab_host *h)
{
	return source_async_fd(inner_of(s), h);
}

static unsigned int rec_async_events(struct source *s, struct event_log *log)
{
	return source_async_events(inner_of(s), log);
}

static int rec_res(struct source *s, struct res_state *rs)
{
	struct source *in = inner_of(s);

	return in->ops->res(in, rs);
}

static int rec_qp_counters(struct source *s, const struct fab_host *h, struct stat_state *st)
{
	return source_qp_counters(inner_of(s), h, st);
}

/*
 * The chain read last, written when it differs from the last one written:
 * its time alone (every read has its own) is no change, so a steady chain
 * costs nothing however often the RoCE pane or the doctor reads it.
 */
static void write_roce(struct recorder *r)
{
	if (!r->roce_read)
		return;
	if (r->roce_written && r->roce_chain == r->roce_last.len &&
	    (!r->roce_chain || !memcmp(r->roce.data, r->roce_last.data, r->roce_chain)))
		return;
	rec_buf_reset(&r->roce_last);
	rec_put_raw(&r->roce_last, r->roce.data, r->roce_chain);
	if (r->roce_last.oom) {
		note(r, -ENOMEM);
		return;
	}
	r->roce_written = true;
	note(r, rec_writer_record(r->w, REC_ROCE, r->roce.data, r->roce.len, util_now_ns(), util_wall_ns()));
}

static int rec_roce(struct source *s, const struct fab_host *h, struct roce_state *st)
{
	struct recorder *r = s->priv;
	int rc = source_roce(r->inner, h, st);

	if (rc)
		return rc;
	rec_buf_reset(&r->roce);
	r->roce_chain = rec_roce_encode(&r->roce, st);
	r->roce_read = !r->roce.oom;
	if (r->w) {
		if (r->roce.oom)
			note(r, -ENOMEM);
		else
			write_roce(r);
	}
	return rc;
}

/* Parts read in place (a port filled in, a device read again): the next sample writes the whole host. */
static int rec_fill_port(struct source *s, struct fab_host *h, size_t dev, size_t port, unsigned int what,
			 uint64_t deadline_ns)
{
	struct recorder *r = s->priv;

	r->dirty = true;
	return source_fill_port(r->inner, h, dev, port, what, deadline_ns);
}

static int rec_changed_devices(struct source *s, const struct fab_host *h, bool *devs)
{
	return source_changed_devices(inner_of(s), h, devs);
}

static int rec_collect_device(struct source *s, struct fab_host *h, size_t dev, unsigned int what,
			      struct fab_device *nd)
{
	struct recorder *r = s->priv;

	r->dirty = true;
	return source_collect_device(r->inner, h, dev, what, nd);
}

static bool rec_changed(struct source *s, const struct fab_host *h)
{
	return source_changed(inner_of(s), h);
}

static void rec_describe(const struct source *s, char *buf, size_t size)
{
	source_describe(inner_of(s), buf, size);
}

static void rec_close(struct source *s)
{
	struct recorder *r = s->priv;

	if (!r)
		return;
	/* a watch that outlives its recorder tells it nothing more */
	if (r->watch)
		r->watch->hook = NULL;
	rec_writer_close(r->w);
	source_close(r->inner);
	rec_buf_free(&r->mad);
	rec_buf_free(&r->mad_last);
	rec_buf_free(&r->roce);
	rec_buf_free(&r->roce_last);
	free(r);
}

static int rec_start(struct source *s, const char *path, const struct fab_host *h, const struct net_state *st,
		     char *err, size_t errlen)
{
	struct recorder *r = s->priv;
	struct rec_info info = { 0 };
	uint64_t mono = util_now_ns(), wall = util_wall_ns();
	int rc = 0;

	if (r->w) {
		snprintf(err, errlen, "already recording to %s", rec_writer_path(r->w));
		return -EBUSY;
	}
	snprintf(info.fabtop_version, sizeof(info.fabtop_version), "%s", PACKAGE_VERSION);
	snprintf(info.hostname, sizeof(info.hostname), "%s", h ? h->hostname : "");
	source_describe(r->inner, info.source, sizeof(info.source));
	info.interval_s = s->ctx->interval_s;
	info.start_mono_ns = mono;
	info.start_wall_ns = wall;
	r->w = rec_writer_open(path, &info, err, errlen);
	if (!r->w)
		return -EIO;
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->error = 0;
	r->started_ns = mono;
	if (h)
		rc = rec_writer_host(r->w, h, mono, wall);
	if (!rc && st)
		rc = rec_writer_net(r->w, st, mono, wall);
	/* the MAD view in force goes in with the first sample; later ones as they come */
	rec_buf_reset(&r->mad_last);
	if (!rc && r->watch) {
		write_mad(r, r->watch);
		rc = r->w ? 0 : r->error;
	}
	/* so does the RoCE chain read last (the monitor's and `fabtop record`'s first look read it) */
	r->roce_written = false;
	if (!rc) {
		write_roce(r);
		rc = r->w ? 0 : r->error;
	}
	if (rc) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
		rec_writer_close(r->w);
		r->w = NULL;
	}
	return rc;
}

static int rec_stop(struct source *s)
{
	struct recorder *r = s->priv;
	int rc;

	if (!r->w)
		return 0;
	rc = rec_writer_close(r->w);
	r->w = NULL;
	if (rc)
		r->error = rc;
	return rc;
}

static bool rec_status(const struct source *s, struct source_record_status *st)
{
	const struct recorder *r = s->priv;

	memset(st, 0, sizeof(*st));
	snprintf(st->path, sizeof(st->path), "%s", r->path);
	st->error = r->error;
	if (!r->w)
		return false;
	st->bytes = rec_writer_bytes(r->w);
	st->samples = rec_writer_samples(r->w);
	st->started_ns = r->started_ns;
	return true;
}

static int rec_add(struct source *s, unsigned int type, const void *body, size_t len)
{
	struct recorder *r = s->priv;

	if (!r->w)
		return 0;
	note(r, rec_writer_record(r->w, (enum rec_record)type, body, len, util_now_ns(), util_wall_ns()));
	return r->error;
}

void source_record_event_hook(const struct fab_event *ev, void *src)
{
	struct source_record_status st;
	struct rec_buf b = { 0 };

	if (!source_record_status(src, &st))
		return;
	rec_encode_event(&b, ev);
	if (!b.oom)
		source_record_add(src, REC_EVENT, b.data, b.len);
	rec_buf_free(&b);
}

static struct probe *rec_probe(struct source *s, const struct probe_opts *o)
{
	return inner_of(s)->ops->probe(inner_of(s), o);
}

static int rec_apply_fix(struct source *s, const struct fix_plan *plan, const struct net_state *st, FILE *log,
			 size_t *left)
{
	return inner_of(s)->ops->apply_fix(inner_of(s), plan, st, log, left);
}

static int rec_undo_fix(struct source *s, FILE *log)
{
	return inner_of(s)->ops->undo_fix(inner_of(s), log);
}

static bool rec_story(const struct source *s, char *story, size_t ssize, char *hint, size_t hsize, bool *fixed)
{
	return inner_of(s)->ops->story(inner_of(s), story, ssize, hint, hsize, fixed);
}

static void rec_probe_peers(const struct source *s, char *buf, size_t size)
{
	inner_of(s)->ops->probe_peers(inner_of(s), buf, size);
}

struct source *source_recorder_wrap(struct source *inner)
{
	struct source *s = calloc(1, sizeof(*s));
	struct recorder *r = calloc(1, sizeof(*r));
	const struct source_ops *in;

	if (!s || !r) {
		free(s);
		free(r);
		source_close(inner);
		return NULL;
	}
	in = inner->ops;
	r->inner = inner;
	/*
	 * Built op by op, never copied whole: an op added to source_ops must be
	 * forwarded here (with the inner source as its argument) to exist
	 * behind the recorder; until it is, the recorded source simply lacks it.
	 */
	r->ops.name = in->name;
	r->ops.flags = in->flags;
	r->ops.collect = rec_collect;
	r->ops.refresh = rec_refresh;
	r->ops.net = rec_net;
	r->ops.fabric = in->fabric ? rec_fabric : NULL;
	r->ops.event_fd = in->event_fd ? rec_event_fd : NULL;
	r->ops.events = in->events ? rec_events : NULL;
	r->ops.mad_watch = in->mad_watch ? rec_mad_watch : NULL;
	r->ops.changed = in->changed ? rec_changed : NULL;
	r->ops.async_fd = in->async_fd ? rec_async_fd : NULL;
	r->ops.async_events = in->async_events ? rec_async_events : NULL;
	r->ops.res = in->res ? rec_res : NULL;
	r->ops.qp_counters = in->qp_counters ? rec_qp_counters : NULL;
	r->ops.roce = in->roce ? rec_roce : NULL;
	r->ops.probe = in->probe ? rec_probe : NULL;
	r->ops.probe_peers = in->probe_peers ? rec_probe_peers : NULL;
	r->ops.apply_fix = in->apply_fix ? rec_apply_fix : NULL;
	r->ops.undo_fix = in->undo_fix ? rec_undo_fix : NULL;
	r->ops.story = in->story ? rec_story : NULL;
	r->ops.fill_port = in->fill_port ? rec_fill_port : NULL;
	r->ops.changed_devices = in->changed_devices ? rec_changed_devices : NULL;
	r->ops.collect_device = in->collect_device ? rec_collect_device : NULL;
	r->ops.describe = rec_describe;
	r->ops.close = rec_close;
	r->ops.record_start = rec_start;
	r->ops.record_stop = rec_stop;
	r->ops.record_status = rec_status;
	r->ops.record_add = rec_add;
	s->ops = &r->ops;
	s->ctx = inner->ctx;
	s->priv = r;
	return s;
}
