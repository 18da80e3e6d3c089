// SPDX-License-Identifier: GPL-2.0-or-later
/* Events as text lines or JSON objects (one walk through report/out), and the times `--since` accepts. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report/escape.h"
#include "report/events.h"
#include "util.h"

#define NS_PER_S UINT64_C(1000000000)

void events_time_str(uint64_t real_ns, char *buf, size_t size)
{
	time_t t = (time_t)(real_ns / NS_PER_S);
	struct tm tm;
	char day[32];

	if (!localtime_r(&t, &tm) || !strftime(day, sizeof(day), "%Y-%m-%d %H:%M:%S", &tm)) {
		snprintf(buf, size, "@%" PRIu64, real_ns / NS_PER_S);
		return;
	}
	snprintf(buf, size, "%s.%03u", day, (unsigned int)(real_ns % NS_PER_S / 1000000));
}

static void where_str(const struct fab_event *ev, char *buf, size_t size)
{
	if (ev->device[0] && ev->port)
		snprintf(buf, size, "%s/%u", ev->device, ev->port);
	else if (ev->device[0])
		snprintf(buf, size, "%s", ev->device);
	else
		snprintf(buf, size, "-");
}

/* The time for people in UTC (ISO 8601), "" when it cannot be told. */
static void utc_str(uint64_t real_ns, char *buf, size_t size)
{
	struct tm tm;
	time_t t = (time_t)(real_ns / NS_PER_S);

	if (gmtime_r(&t, &tm) && strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm)) {
		size_t n = strlen(buf);

		snprintf(buf + n, size - n, ".%03uZ", (unsigned int)(real_ns % NS_PER_S / 1000000));
	} else {
		buf[0] = '\0';
	}
}

void events_one(struct out *o, const struct fab_event *ev)
{
	char when[48], utc[48], where[FAB_NAME_LEN + 16];
	const char *kind = event_kind_str(ev->kind);
	const char *sev = event_severity_str(ev->severity);

	events_time_str(ev->real_ns, when, sizeof(when));
	utc_str(ev->real_ns, utc, sizeof(utc));
	where_str(ev, where, sizeof(where));
	out_obj_open(o, NULL);
	out_uint(o, PRINT_JSON, "seq", ev->seq, NULL);
	/* text: local time; JSON: UTC, and the nanoseconds for programs */
	out_str_or_null(o, PRINT_ANY, "time", utc, "%s ", when);
	out_uint(o, PRINT_JSON, "real_ns", ev->real_ns, NULL);
	out_uint(o, PRINT_JSON, "mono_ns", ev->mono_ns, NULL);
	out_str(o, PRINT_JSON, "kind", kind, NULL);
	out_str(o, PRINT_ANY, "severity", sev, "%-7s %-15s ", sev, kind ? kind : "?");
	out_str_or_null(o, PRINT_ANY, "device", ev->device, "%-10s ", where);
	if (ev->port)
		out_uint(o, PRINT_JSON, "port", ev->port, NULL);
	else
		out_null(o, PRINT_JSON, "port", NULL);
	out_str_or_null(o, PRINT_ANY, "iface", ev->iface, "%-8s ", ev->iface[0] ? ev->iface : "-");
	out_str(o, PRINT_ANY, "what", ev->what, "%s\n", ev->what);
	out_str_or_null(o, PRINT_ANY, "evidence", ev->evidence, ev->evidence[0] ? "    %s\n" : NULL, ev->evidence);
	out_obj_close(o);
}

void events_report(FILE *f, bool json, const struct event_log *l, uint64_t since_ns)
{
	struct out o;

	out_open(&o, f, json);
	out_arr_open(&o, "events");
	for (size_t i = event_log_since(l, since_ns); i < event_log_count(l); i++)
		events_one(&o, event_log_at(l, i));
	out_arr_close(&o);
	out_uint(&o, PRINT_JSON, "dropped", l->dropped, NULL);
	out_obj_open(&o, "totals");
	for (unsigned int k = 0; k < EVENT_KIND_COUNT; k++)
		out_uint(&o, PRINT_JSON, event_kind_str(k), l->total[k], NULL);
	out_obj_close(&o);
	out_close(&o);
}

static int parse_ago(const char *s, uint64_t now, uint64_t *out)
{
	static const struct { char unit; uint64_t s; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	};
	size_t n = strlen(s);
	char num[24];
	uint64_t v;

	if (n < 2 || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n - 1);
	num[n - 1] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (s[n - 1] != units[i].unit)
			continue;
		if (util_parse_u64(num, 10, UINT64_C(100) * 365 * 86400 / units[i].s, &v))
			return -EINVAL;
		v *= units[i].s * NS_PER_S;
		*out = v > now ? 0 : now - v;
		return 0;
	}
	return -EINVAL;
}

int events_parse_since(const char *s, uint64_t now_real_ns, uint64_t *out)
{
	struct tm tm;
	const char *end;
	uint64_t v;
	time_t t;

	if (!s || !*s)
		return -EINVAL;
	if (s[0] == '@') {
		if (util_parse_u64(s + 1, 10, UINT64_MAX / NS_PER_S, &v))
			return -EINVAL;
		*out = v * NS_PER_S;
		return 0;
	}
	if (!parse_ago(s, now_real_ns, out))
		return 0;
	for (size_t i = 0; i < 2; i++) {
		static const char *const fmts[][2] = {
			{ "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S" },
			{ "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M" },
		};

		for (size_t k = 0; k < 2; k++) {
			memset(&tm, 0, sizeof(tm));
			end = strptime(s, fmts[i][k], &tm);
			if (!end || *end)
				continue;
			tm.tm_isdst = -1;
			t = mktime(&tm);
			if (t == (time_t)-1 || t < 0)
				return -EINVAL;
			*out = (uint64_t)t * NS_PER_S;
			return 0;
		}
	}
	return -EINVAL;
}
