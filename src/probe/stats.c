// SPDX-License-Identifier: GPL-2.0-or-later
/* Probe statistics: messages and bytes, rates over one-second windows, latency percentiles. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "probe/fair.h"
#include "probe/probe_int.h"

#define WINDOW_NS 1000000000ull

int stats_init(struct stats *s, size_t lat_cap)
{
	memset(s, 0, sizeof(*s));
	if (!lat_cap)
		lat_cap = 1;
	s->lat = calloc(lat_cap, sizeof(*s->lat));
	if (!s->lat)
		return -1;
	s->lat_cap = lat_cap;
	return 0;
}

void stats_free(struct stats *s)
{
	free(s->lat);
	s->lat = NULL;
	s->lat_cap = 0;
}

void stats_start(struct stats *s, uint64_t now)
{
	s->start_ns = s->last_ns = s->win_ns = now;
	s->win_msgs = s->msgs;
	s->win_bytes = s->bytes;
}

void stats_add(struct stats *s, uint64_t now, uint64_t msgs, uint64_t bytes)
{
	if (!s->start_ns)
		stats_start(s, now);
	/* totals of many connections, some claims included: saturate, never wrap */
	s->msgs = fair_sat_add(s->msgs, msgs);
	s->bytes = fair_sat_add(s->bytes, bytes);
	s->last_ns = now;
	stats_tick(s, now);
}

void stats_tick(struct stats *s, uint64_t now)
{
	uint64_t dt;

	if (!s->start_ns || now < s->win_ns + WINDOW_NS)
		return;
	dt = now - s->win_ns;
	s->gbps = (double)(s->bytes - s->win_bytes) * 8.0 / (double)dt;
	s->msgs_per_s = (double)(s->msgs - s->win_msgs) * 1e9 / (double)dt;
	s->win_ns = now;
	s->win_msgs = s->msgs;
	s->win_bytes = s->bytes;
}

void stats_lat(struct stats *s, uint64_t ns)
{
	if (!s->lat_n || ns < s->lat_min)
		s->lat_min = ns;
	if (ns > s->lat_max)
		s->lat_max = ns;
	s->lat[s->lat_pos] = ns;
	s->lat_pos = (s->lat_pos + 1) % s->lat_cap;
	s->lat_n++;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted v[0..n). */
static uint64_t rank(const uint64_t *v, size_t n, unsigned int pct)
{
	size_t r = ((size_t)pct * n + 99) / 100;

	return v[r ? r - 1 : 0];
}

void stats_latency(const struct stats *s, struct probe_latency *out)
{
	size_t n = s->lat_n < s->lat_cap ? (size_t)s->lat_n : s->lat_cap;
	uint64_t *v;

	memset(out, 0, sizeof(*out));
	out->n = s->lat_n;
	if (!n)
		return;
	out->min_ns = s->lat_min;
	out->max_ns = s->lat_max;
	v = malloc(n * sizeof(*v));
	if (!v)
		return;
	memcpy(v, s->lat, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_u64);
	out->p50_ns = rank(v, n, 50);
	out->p99_ns = rank(v, n, 99);
	free(v);
}

double stats_avg_gbps(const struct stats *s)
{
	if (!s->start_ns || s->last_ns <= s->start_ns)
		return 0;
	return (double)s->bytes * 8.0 / (double)(s->last_ns - s->start_ns);
}
