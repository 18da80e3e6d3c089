// SPDX-License-Identifier: GPL-2.0-or-later
/* Opening a source and calling its ops: the one seam between the world and everything else. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/source.h"
#include "util.h"
#include "model/roce.h"

struct source *source_open_ops(const struct fab_ctx *ctx, const struct source_ops *ops)
{
	struct source *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->ops = ops;
	s->ctx = ctx;
	if (ops->open && ops->open(s)) {
		free(s);
		return NULL;
	}
	return s;
}

struct source *source_open(const struct fab_ctx *ctx)
{
	struct source *s;

	if (ctx->replay)
		return source_open_ops(ctx, &source_replay_ops);
	s = source_open_ops(ctx, ctx->demo ? &source_demo_ops : &source_live_ops);
	return s ? source_recorder_wrap(s) : NULL;
}

void source_close(struct source *s)
{
	if (!s)
		return;
	if (s->ops->close)
		s->ops->close(s);
	free(s);
}

int source_collect(struct source *s, struct fab_host *h, unsigned int what)
{
	return s->ops->collect(s, h, what);
}

bool source_refresh(struct source *s, struct fab_host *h, uint64_t now_ns)
{
	return s->ops->refresh(s, h, now_ns);
}

int source_net(struct source *s, struct net_state *st)
{
	return s->ops->net(s, st);
}

int source_res(struct source *s, struct res_state *rs)
{
	return s->ops->res ? s->ops->res(s, rs) : -EOPNOTSUPP;
}

int source_qp_counters(struct source *s, const struct fab_host *h, struct stat_state *st)
{
	return s->ops->qp_counters ? s->ops->qp_counters(s, h, st) : -EOPNOTSUPP;
}

int source_roce(struct source *s, const struct fab_host *h, struct roce_state *st)
{
	memset(st, 0, sizeof(*st));
	return s->ops->roce ? s->ops->roce(s, h, st) : -EOPNOTSUPP;
}

bool source_watched(const struct source *s)
{
	return s->ops->changed != NULL;
}

bool source_changed(struct source *s, const struct fab_host *h)
{
	return s->ops->changed ? s->ops->changed(s, h) : false;
}

int source_fill_port(struct source *s, struct fab_host *h, size_t dev, size_t port, unsigned int what,
		     uint64_t deadline_ns)
{
	if (!s->ops->fill_port) {
		h->devs[dev].ports[port].pending = 0;
		return 0;
	}
	return s->ops->fill_port(s, h, dev, port, what, deadline_ns);
}

bool source_fills(const struct source *s)
{
	return s->ops->fill_port != NULL;
}

bool source_by_device(const struct source *s)
{
	return s->ops->changed_devices && s->ops->collect_device;
}

int source_changed_devices(struct source *s, const struct fab_host *h, bool *devs)
{
	return s->ops->changed_devices(s, h, devs);
}

int source_collect_device(struct source *s, struct fab_host *h, size_t dev, unsigned int what,
			  struct fab_device *nd)
{
	return s->ops->collect_device(s, h, dev, what, nd);
}

int source_event_fd(struct source *s)
{
	return s && s->ops->event_fd ? s->ops->event_fd(s) : -EOPNOTSUPP;
}

bool source_events(struct source *s)
{
	return s && s->ops->events ? s->ops->events(s) : false;
}

int source_async_fd(struct source *s, const struct fab_host *h)
{
	return s && s->ops->async_fd ? s->ops->async_fd(s, h) : -EOPNOTSUPP;
}

unsigned int source_async_events(struct source *s, struct event_log *log)
{
	return s && s->ops->async_events ? s->ops->async_events(s, log) : 0;
}

struct mad_watch *source_mad_watch(struct source *s)
{
	return s && s->ops->mad_watch ? s->ops->mad_watch(s) : NULL;
}

struct probe *source_probe_start(struct source *s, const struct probe_opts *o, int *err)
{
	struct probe *p;

	if (!s || !s->ops->probe) {
		*err = -EOPNOTSUPP;
		return NULL;
	}
	p = s->ops->probe(s, o);
	*err = p ? 0 : -ENOMEM;
	return p;
}

int source_apply_fix(struct source *s, const struct fix_plan *plan, const struct net_state *st, FILE *log,
		     size_t *left)
{
	*left = 0;
	return s && s->ops->apply_fix ? s->ops->apply_fix(s, plan, st, log, left) : -EOPNOTSUPP;
}

int source_undo_fix(struct source *s, FILE *log)
{
	return s && s->ops->undo_fix ? s->ops->undo_fix(s, log) : -EOPNOTSUPP;
}

bool source_story(const struct source *s, char *story, size_t ssize, char *hint, size_t hsize, bool *fixed)
{
	*fixed = false;
	return s && s->ops->story && s->ops->story(s, story, ssize, hint, hsize, fixed);
}

bool source_can_fix(const struct source *s)
{
	return s && s->ops->apply_fix;
}

bool source_probe_peers(const struct source *s, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!s || !s->ops->probe_peers)
		return false;
	s->ops->probe_peers(s, buf, size);
	return buf[0] != '\0';
}

void source_describe(const struct source *s, char *buf, size_t size)
{
	if (s->ops->describe)
		s->ops->describe(s, buf, size);
	else
		snprintf(buf, size, "%s", s->ops->name);
	/* it names a recording's path, host and source: printed by every command */
	util_clean(buf);
}

bool source_has(const struct source *s, unsigned int flag)
{
	return (s->ops->flags & flag) == flag;
}

int source_record_start(struct source *s, const char *path, const struct fab_host *h, const struct net_state *st,
			char *err, size_t errlen)
{
	if (!s || !s->ops->record_start) {
		snprintf(err, errlen, "this source cannot be recorded");
		return -EOPNOTSUPP;
	}
	return s->ops->record_start(s, path, h, st, err, errlen);
}

int source_record_stop(struct source *s)
{
	return s && s->ops->record_stop ? s->ops->record_stop(s) : -EOPNOTSUPP;
}

bool source_record_status(const struct source *s, struct source_record_status *st)
{
	memset(st, 0, sizeof(*st));
	return s && s->ops->record_status ? s->ops->record_status(s, st) : false;
}

int source_record_add(struct source *s, unsigned int type, const void *body, size_t len)
{
	return s && s->ops->record_add ? s->ops->record_add(s, type, body, len) : -EOPNOTSUPP;
}

bool source_timeline(const struct source *s, struct source_timeline *t)
{
	return s && s->ops->timeline ? s->ops->timeline(s, t) : false;
}

int source_seek(struct source *s, struct fab_host *h, enum source_seek how, int64_t arg)
{
	return s && s->ops->seek ? s->ops->seek(s, h, how, arg) : -EOPNOTSUPP;
}

size_t source_recorded_events(struct source *s, struct event_log *log, bool again)
{
	return s && s->ops->recorded_events ? s->ops->recorded_events(s, log, again) : 0;
}

bool source_recorded(struct source *s, unsigned int type, size_t before, struct source_rec *out)
{
	return s && s->ops->recorded && s->ops->recorded(s, type, before, out);
}
