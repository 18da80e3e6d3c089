/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What happened on the host, as plain data: events and the bounded log that keeps them. */
#ifndef FABTOP_MODEL_EVENTS_H
#define FABTOP_MODEL_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/fabric.h"

#define EVENT_IFACE_LEN		FAB_IFNAMSIZ
#define EVENT_WHAT_LEN		160
#define EVENT_EVIDENCE_LEN	320

/*
 * Kinds are a contract: `show events --json`, the exporter's label and
 * recordings name them by event_kind_str(). Append, never renumber.
 * doc/events.md says what each one means and what its evidence holds.
 */
enum event_kind {
	EVENT_PORT_STATE = 0,		/* PortState changed (DOWN, INIT, ACTIVE, ...) */
	EVENT_PHYS_STATE,		/* PortPhysicalState changed (Polling, LinkUp, ...) */
	EVENT_LINK_FLAP,		/* link_downed / link_error_recovery moved, or down and back up */
	EVENT_ERROR_BURST,		/* an error counter started moving */
	EVENT_RATE_DROP,		/* the link trained below the port's usual rate (or back to it) */
	EVENT_GID_ADDED,
	EVENT_GID_REMOVED,
	EVENT_NETDEV,			/* an RDMA netdev appeared, vanished, or changed up/down/MTU */
	EVENT_ADDRESS,			/* an address of an RDMA netdev was added or removed */
	EVENT_ROUTE,			/* a route through an RDMA netdev was added or removed */
	EVENT_RULE,			/* a policy rule was added or removed */
	EVENT_FINDING_NEW,		/* a doctor finding appeared */
	EVENT_FINDING_CLEARED,		/* ... and went away */
	EVENT_FAR_END,			/* the link partner (MADs) changed */
	EVENT_SM_MOVED,			/* the subnet manager seen from a port changed */
	EVENT_PROBE,			/* a probe run ended (connected, rejected, failed) */
	EVENT_ASYNC,			/* the device said so itself (ibv_get_async_event) */
	EVENT_KIND_COUNT
};

enum event_severity {
	EVENT_INFO = 0,			/* worth knowing: a port came up, a GID appeared */
	EVENT_WARNING,			/* likely to hurt: errors, a rate drop, a finding */
	EVENT_ERROR,			/* broke something: a port went down, a device died */
};

/*
 * One event. Plain data, no pointers, so a recorder writes it as it is
 * appended and a reader gets it back unchanged. Text fields always hold a
 * NUL-terminated string ("" when not about that).
 */
struct fab_event {
	uint64_t seq;			/* 1, 2, ... in append order; set by the log */
	uint64_t real_ns;		/* CLOCK_REALTIME, for people */
	uint64_t mono_ns;		/* CLOCK_MONOTONIC (or the source's model time), for order and intervals */
	uint32_t kind;			/* enum event_kind */
	uint32_t severity;		/* enum event_severity */
	char device[FAB_NAME_LEN];	/* RDMA device, "" if none */
	uint32_t port;			/* its port, 0 if none */
	char iface[EVENT_IFACE_LEN];	/* netdev it is about, "" if none */
	char what[EVENT_WHAT_LEN];	/* one line: what happened */
	char evidence[EVENT_EVIDENCE_LEN];	/* what was seen that says so */
};

/* Called with every event as it is appended (the recorder): ev is valid only during the call. */
typedef void (*event_hook_fn)(const struct fab_event *ev, void *arg);

/*
 * The last `cap` events, oldest dropped first (and counted). The monitor,
 * the exporter and `show events` each keep one and derive into it.
 */
struct event_log {
	struct fab_event *ring;		/* [cap] */
	size_t cap;
	size_t first;			/* index of the oldest kept event */
	size_t n;			/* events kept */
	uint64_t next_seq;		/* seq of the next append */
	uint64_t dropped;		/* events pushed out by newer ones */
	uint64_t seen_seq;		/* the newest event someone looked at (the Events pane) */
	uint64_t total[EVENT_KIND_COUNT];	/* appended per kind since the log was made */
	event_hook_fn hook;		/* NULL: none */
	void *hook_arg;
};

#define EVENT_LOG_DEFAULT_CAP	4096

/* An empty log of cap events (0: EVENT_LOG_DEFAULT_CAP). 0 or -ENOMEM. */
int event_log_init(struct event_log *l, size_t cap);
void event_log_free(struct event_log *l);
/* The hook every append calls after keeping the event (NULL: none). */
void event_log_set_hook(struct event_log *l, event_hook_fn fn, void *arg);
/* Keep a copy of ev (seq set, strings cut to size); returns the kept copy. */
const struct fab_event *event_log_append(struct event_log *l, const struct fab_event *ev);
/* Events kept, and the i-th from the oldest (NULL past the end). */
size_t event_log_count(const struct event_log *l);
const struct fab_event *event_log_at(const struct event_log *l, size_t i);
/* Index of the first kept event at or after real_ns (event_log_count() when none). */
size_t event_log_since(const struct event_log *l, uint64_t real_ns);
/* Events appended after the seen mark; the mark set to the newest. */
uint64_t event_log_unseen(const struct event_log *l);
void event_log_mark_seen(struct event_log *l);

/* Fill ev's text fields printf-style; they are cut to size. */
void event_set_what(struct fab_event *ev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void event_set_evidence(struct fab_event *ev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "port-state", "link-flap", ...: a stable name; NULL for an unknown kind. */
const char *event_kind_str(unsigned int kind);
/* The kind of a name, -1 if none. */
int event_kind_from_str(const char *s);
/* "info", "warning", "error" ("?" for an unknown one). */
const char *event_severity_str(unsigned int severity);

#endif
