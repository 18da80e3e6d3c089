/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Events for people and scripts: text lines and JSON, and the times `--since` accepts. */
#ifndef FABTOP_REPORT_EVENTS_H
#define FABTOP_REPORT_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/events.h"
#include "report/out.h"

/* "2026-11-24 13:57:47.123" in local time (TZ), for a CLOCK_REALTIME stamp. */
void events_time_str(uint64_t real_ns, char *buf, size_t size);

/*
 * One event: as text a line "TIME SEVERITY KIND DEVICE/PORT IFACE WHAT",
 * then its evidence indented on the next (the caller escapes the stream);
 * in JSON an element of the open array (keys in doc/events.md).
 */
void events_one(struct out *o, const struct fab_event *ev);

/*
 * A whole log (those at or after since_ns, oldest first) as `show events`
 * prints it: text (escaped for the terminal here) or one JSON document
 * {"events": [...], "dropped": N, "totals": {...}}. Whatever filled the
 * log (a live watch, a recording) prints through it.
 */
void events_report(FILE *f, bool json, const struct event_log *l, uint64_t since_ns);

/*
 * A --since value as a CLOCK_REALTIME time in ns: a duration ago ("90s",
 * "5m", "2h", "1d"), "@SECONDS" since the epoch, or a local date and time
 * "YYYY-MM-DD HH:MM[:SS]" (a "T" between them works too). 0, or -EINVAL.
 */
int events_parse_since(const char *s, uint64_t now_real_ns, uint64_t *out);

#endif
