// SPDX-License-Identifier: GPL-2.0-or-later
/* Times in a recording as people write them (see when.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record/when.h"
#include "util.h"

int rec_duration_parse(const char *s, uint64_t *ns)
{
	double total = 0;
	bool any = false;

	if (!s || !*s)
		return -EINVAL;
	while (*s) {
		const char *end;
		double v, unit = 1;

		if (util_num_double(s, UTIL_NUM_PREFIX, 0, 1e9, &v, &end))
			return -EINVAL;
		s = end;
		switch (*s) {
		case 'h': unit = 3600; s++; break;
		case 'm':
			if (s[1] == 's') {
				unit = 1e-3;
				s += 2;
			} else {
				unit = 60;
				s++;
			}
			break;
		case 's': s++; break;
		case '\0': if (any) return -EINVAL; break;	/* a bare number only alone: "90" */
		default: return -EINVAL;
		}
		total += v * unit;
		any = true;
	}
	if (total > 1e9)
		return -EINVAL;
	*ns = (uint64_t)(total * 1e9 + 0.5);
	return 0;
}

/* "YYYY-MM-DD HH:MM[:SS]" or with T, or "HH:MM[:SS]" on the day of day_wall. */
static int parse_clock(const char *s, uint64_t day_wall_ns, uint64_t *wall_ns)
{
	struct tm tm;
	time_t day = (time_t)(day_wall_ns / 1000000000u), t;
	int y, mo, d, h, mi, sec = 0, n = 0;
	char sep;

	localtime_r(&day, &tm);
	if (sscanf(s, "%4d-%2d-%2d%c%2d:%2d%n", &y, &mo, &d, &sep, &h, &mi, &n) == 6 && (sep == ' ' || sep == 'T')) {
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
	} else if (sscanf(s, "%2d:%2d%n", &h, &mi, &n) != 2) {
		return -EINVAL;
	}
	s += n;
	if (*s == ':') {
		n = 0;
		if (sscanf(s, ":%2d%n", &sec, &n) != 1)
			return -EINVAL;
		s += n;
	}
	if (*s || h > 23 || mi > 59 || sec > 60 || h < 0 || mi < 0 || sec < 0)
		return -EINVAL;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t)-1 || t < 0)
		return -EINVAL;
	*wall_ns = (uint64_t)t * 1000000000u;
	return 0;
}

static uint64_t sample_wall(const struct rec_reader *r, size_t i)
{
	return r->recs[r->samples[i]].wall_ns;
}

static int when(const struct rec_reader *r, const char *s, size_t *sample, uint64_t *wall, char *err, size_t errlen)
{
	uint64_t first = sample_wall(r, 0), last = sample_wall(r, r->nsamples - 1), v;

	*sample = (size_t)-1;
	if (!strcmp(s, "start")) {
		*sample = 0;
	} else if (!strcmp(s, "end")) {
		*sample = r->nsamples - 1;
	} else if (s[0] == '#') {
		if (util_parse_u64(s + 1, 10, UINT64_MAX, &v) || v >= r->nsamples) {
			snprintf(err, errlen, "'%s': expected #N with N from 0 to %zu (the recording's samples)", s,
				 r->nsamples - 1);
			return -EINVAL;
		}
		*sample = (size_t)v;
	} else if (s[0] == '+' || s[0] == '-') {
		if (rec_duration_parse(s + 1, &v)) {
			snprintf(err, errlen, "'%s': expected a duration after %c (90s, 5m, 1h30m)", s, s[0]);
			return -EINVAL;
		}
		*wall = s[0] == '+' ? first + v : (v > last ? 0 : last - v);
	} else if (s[0] == '@') {
		if (util_parse_u64(s + 1, 10, UINT64_MAX / 1000000000u, &v)) {
			snprintf(err, errlen, "'%s': expected @ and seconds since 1970", s);
			return -EINVAL;
		}
		*wall = v * 1000000000u;
	} else if (!parse_clock(s, first, wall)) {
		/* a bare clock time earlier than the start means the next day (a recording past midnight) */
		if (!strchr(s, '-') && *wall + 1000000000u <= first)
			*wall += 86400ull * 1000000000u;
	} else {
		snprintf(err, errlen, "'%s': expected start, end, #N, +DUR, -DUR, HH:MM[:SS], "
			 "YYYY-MM-DD HH:MM[:SS] or @EPOCH", s);
		return -EINVAL;
	}
	if (*sample != (size_t)-1) {
		*wall = sample_wall(r, *sample);
		return 0;
	}
	*sample = rec_reader_sample_at_wall(r, *wall);
	return 0;
}

int rec_when_parse(const struct rec_reader *r, const char *s, size_t *sample, char *err, size_t errlen)
{
	uint64_t wall;

	return when(r, s, sample, &wall, err, errlen);
}

int rec_when_wall(const struct rec_reader *r, const char *s, uint64_t *wall_ns, char *err, size_t errlen)
{
	size_t sample;

	return when(r, s, &sample, wall_ns, err, errlen);
}
