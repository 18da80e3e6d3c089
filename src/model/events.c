// SPDX-License-Identifier: GPL-2.0-or-later
/* The event log: a bounded ring of plain events, the oldest dropped and counted. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/events.h"
#include "util.h"

static const char *const kind_names[EVENT_KIND_COUNT] = {
	[EVENT_PORT_STATE] = "port-state",
	[EVENT_PHYS_STATE] = "phys-state",
	[EVENT_LINK_FLAP] = "link-flap",
	[EVENT_ERROR_BURST] = "error-burst",
	[EVENT_RATE_DROP] = "rate-drop",
	[EVENT_GID_ADDED] = "gid-added",
	[EVENT_GID_REMOVED] = "gid-removed",
	[EVENT_NETDEV] = "netdev",
	[EVENT_ADDRESS] = "address",
	[EVENT_ROUTE] = "route",
	[EVENT_RULE] = "rule",
	[EVENT_FINDING_NEW] = "finding",
	[EVENT_FINDING_CLEARED] = "finding-cleared",
	[EVENT_FAR_END] = "far-end",
	[EVENT_SM_MOVED] = "sm-moved",
	[EVENT_PROBE] = "probe",
	[EVENT_ASYNC] = "async",
};

static const char *const severity_names[] = {
	[EVENT_INFO] = "info",
	[EVENT_WARNING] = "warning",
	[EVENT_ERROR] = "error",
};

const char *event_kind_str(unsigned int kind)
{
	return util_name(kind_names, ARRAY_SIZE(kind_names), kind, NULL);
}

int event_kind_from_str(const char *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(kind_names); i++)
		if (kind_names[i] && !strcmp(kind_names[i], s))
			return (int)i;
	return -1;
}

const char *event_severity_str(unsigned int severity)
{
	return util_name(severity_names, ARRAY_SIZE(severity_names), severity, "?");
}

int event_log_init(struct event_log *l, size_t cap)
{
	memset(l, 0, sizeof(*l));
	l->cap = cap ? cap : EVENT_LOG_DEFAULT_CAP;
	l->ring = calloc(l->cap, sizeof(*l->ring));
	if (!l->ring) {
		l->cap = 0;
		return -ENOMEM;
	}
	l->next_seq = 1;
	return 0;
}

void event_log_free(struct event_log *l)
{
	free(l->ring);
	memset(l, 0, sizeof(*l));
}

void event_log_set_hook(struct event_log *l, event_hook_fn fn, void *arg)
{
	l->hook = fn;
	l->hook_arg = arg;
}

/* A copied event's strings end inside their arrays, whatever the caller left there. */
static void event_terminate(struct fab_event *ev)
{
	ev->device[sizeof(ev->device) - 1] = '\0';
	ev->iface[sizeof(ev->iface) - 1] = '\0';
	ev->what[sizeof(ev->what) - 1] = '\0';
	ev->evidence[sizeof(ev->evidence) - 1] = '\0';
}

const struct fab_event *event_log_append(struct event_log *l, const struct fab_event *ev)
{
	struct fab_event *slot;

	if (!l->cap)
		return NULL;
	if (l->n == l->cap) {
		slot = &l->ring[l->first];
		l->first = (l->first + 1) % l->cap;
		l->dropped++;
	} else {
		slot = &l->ring[(l->first + l->n) % l->cap];
		l->n++;
	}
	*slot = *ev;
	event_terminate(slot);
	slot->seq = l->next_seq++;
	if (slot->kind < EVENT_KIND_COUNT)
		l->total[slot->kind]++;
	if (l->hook)
		l->hook(slot, l->hook_arg);
	return slot;
}

size_t event_log_count(const struct event_log *l)
{
	return l->n;
}

const struct fab_event *event_log_at(const struct event_log *l, size_t i)
{
	if (i >= l->n)
		return NULL;
	return &l->ring[(l->first + i) % l->cap];
}

/*
 * Events are appended in the order they were seen, which is the order of
 * their clocks except when the wall clock was set back: a linear scan from
 * the newest keeps "since" meaning "these last ones" even then.
 */
size_t event_log_since(const struct event_log *l, uint64_t real_ns)
{
	size_t i = l->n;

	while (i > 0 && event_log_at(l, i - 1)->real_ns >= real_ns)
		i--;
	return i;
}

uint64_t event_log_unseen(const struct event_log *l)
{
	uint64_t newest = l->next_seq - 1;

	return newest > l->seen_seq ? newest - l->seen_seq : 0;
}

void event_log_mark_seen(struct event_log *l)
{
	if (l->next_seq)
		l->seen_seq = l->next_seq - 1;
}

void event_set_what(struct fab_event *ev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ev->what, sizeof(ev->what), fmt, ap);
	va_end(ap);
}

void event_set_evidence(struct fab_event *ev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ev->evidence, sizeof(ev->evidence), fmt, ap);
	va_end(ap);
}
