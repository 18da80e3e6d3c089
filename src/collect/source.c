// SPDX-License-Identifier: GPL-2.0-or-later
/* Opening a source and calling its ops: the one seam between the world and everything else. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "collect/source.h"

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
	return source_open_ops(ctx, ctx->demo ? &source_demo_ops : &source_live_ops);
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

struct mad_watch *source_mad_watch(struct source *s)
{
	return s && s->ops->mad_watch ? s->ops->mad_watch(s) : NULL;
}

void source_describe(const struct source *s, char *buf, size_t size)
{
	if (s->ops->describe)
		s->ops->describe(s, buf, size);
	else
		snprintf(buf, size, "%s", s->ops->name);
}

bool source_has(const struct source *s, unsigned int flag)
{
	return (s->ops->flags & flag) == flag;
}
