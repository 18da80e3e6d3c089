// SPDX-License-Identifier: GPL-2.0-or-later
/* Events as text lines and JSON objects, and the times `--since` accepts. */
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

void events_text_one(FILE *f, const struct fab_event *ev)
{
	char when[48], where[FAB_NAME_LEN + 16];
	const char *kind = event_kind_str(ev->kind);

	events_time_str(ev->real_ns, when, sizeof(when));
	where_str(ev, where, sizeof(where));
	fprintf(f, "%s %-7s %-15s %-10s %-8s %s\n", when, event_severity_str(ev->severity), kind ? kind : "?",
		where, ev->iface[0] ? ev->iface : "-", ev->what);
	if (ev->evidence[0])
		fprintf(f, "    %s\n", ev->evidence);
}

void events_json_one(struct json *j, const struct fab_event *ev)
{
	char when[48];
	struct tm tm;
	time_t t = (time_t)(ev->real_ns / NS_PER_S);

	/* The time for people in UTC (ISO 8601), the nanoseconds for programs. */
	if (gmtime_r(&t, &tm) && strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm)) {
		size_t n = strlen(when);

		snprintf(when + n, sizeof(when) - n, ".%03uZ", (unsigned int)(ev->real_ns % NS_PER_S / 1000000));
	} else {
		when[0] = '\0';
	}
	json_obj_begin(j);
	json_key(j, "seq"); json_u64(j, ev->seq);
	json_key(j, "time"); json_str_or_null(j, when);
	json_key(j, "real_ns"); json_u64(j, ev->real_ns);
	json_key(j, "mono_ns"); json_u64(j, ev->mono_ns);
	json_key(j, "kind"); json_str(j, event_kind_str(ev->kind));
	json_key(j, "severity"); json_str(j, event_severity_str(ev->severity));
	json_key(j, "device"); json_str_or_null(j, ev->device);
	json_key(j, "port");
	if (ev->port)
		json_u64(j, ev->port);
	else
		json_null(j);
	json_key(j, "iface"); json_str_or_null(j, ev->iface);
	json_key(j, "what"); json_str(j, ev->what);
	json_key(j, "evidence"); json_str_or_null(j, ev->evidence);
	json_obj_end(j);
}

void events_json_members(struct json *j, const struct event_log *l, uint64_t since_ns)
{
	json_key(j, "events");
	json_arr_begin(j);
	for (size_t i = event_log_since(l, since_ns); i < event_log_count(l); i++)
		events_json_one(j, event_log_at(l, i));
	json_arr_end(j);
	json_key(j, "dropped");
	json_u64(j, l->dropped);
	json_key(j, "totals");
	json_obj_begin(j);
	for (unsigned int k = 0; k < EVENT_KIND_COUNT; k++) {
		json_key(j, event_kind_str(k));
		json_u64(j, l->total[k]);
	}
	json_obj_end(j);
}

void events_report_text(FILE *f, const struct event_log *l, uint64_t since_ns)
{
	FILE *esc = escape_open(f);
	FILE *out = esc ? esc : f;

	for (size_t i = event_log_since(l, since_ns); i < event_log_count(l); i++)
		events_text_one(out, event_log_at(l, i));
	escape_close(esc);
}

void events_report_json(FILE *f, const struct event_log *l, uint64_t since_ns)
{
	struct json j;

	json_init(&j, f);
	json_obj_begin(&j);
	events_json_members(&j, l, since_ns);
	json_obj_end(&j);
	json_end(&j);
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
