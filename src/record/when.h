/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Times in a recording as people write them: "13:05:10", "+5m", "-30s", "#120", "start", "end". */
#ifndef FABTOP_RECORD_WHEN_H
#define FABTOP_RECORD_WHEN_H

#include <stddef.h>
#include <stdint.h>

#include "record/reader.h"

/*
 * The sample s names in r (doc/recording.md): "start", "end", "#N" (the
 * sample numbered N from 0), "+DUR" after the first sample, "-DUR" before
 * the last (DUR: 90, 90s, 5m, 1h30m, 1.5s), "HH:MM[:SS]" on the first
 * sample's day (local time, the next day when earlier than the start),
 * "YYYY-MM-DD HH:MM[:SS]" or "YYYY-MM-DDTHH:MM[:SS]", "@EPOCH". A time
 * between samples names the last sample at or before it. 0, or -EINVAL
 * with err saying what was expected.
 */
int rec_when_parse(const struct rec_reader *r, const char *s, size_t *sample, char *err, size_t errlen);
/* The same forms as a CLOCK_REALTIME time (for --since); "#N" is the time of that sample. */
int rec_when_wall(const struct rec_reader *r, const char *s, uint64_t *wall_ns, char *err, size_t errlen);
/* "1.5s", "5m", "1h30m", "90": ns; -EINVAL when it is not a duration. */
int rec_duration_parse(const char *s, uint64_t *ns);

#endif
