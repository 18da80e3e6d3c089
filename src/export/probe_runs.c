// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop export --probe: a short RDMA CM probe to each peer on a schedule, inside the exporter's poll loop. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "export/probe_runs.h"
#include "util.h"

/* A run: connect, ten pings, disconnect; every CM step and the data bounded. */
#define RUN_PINGS		10
#define RUN_STEP_TIMEOUT_MS	2000
#define RUN_IDLE_MS		3000

void probe_runs_init(struct probe_runs *pr)
{
	memset(pr, 0, sizeof(*pr));
	pr->every_s = PROBE_RUNS_DEFAULT_S;
}

/* "key=value" of a --probe spec into r; 0 or -EINVAL. */
static int spec_option(struct probe_run *r, const char *opt, char *err, size_t errsize)
{
	const char *v = strchr(opt, '=');
	uint64_t n;

	if (!v || v == opt || !v[1])
		goto bad;
	v++;
	if (!strncmp(opt, "from=", 5) && strlen(v) < sizeof(r->from)) {
		snprintf(r->from, sizeof(r->from), "%s", v);
		r->opts.from = r->from;
	} else if (!strncmp(opt, "port=", 5) && !util_parse_u64(v, 10, 65535, &n) && n) {
		r->opts.port = (uint16_t)n;
	} else if (!strncmp(opt, "mode=", 5) && !probe_mode_parse(v, &r->opts.mode) &&
		   r->opts.mode != PROBE_MODE_BW) {
		/* bw would fill the link every interval: not a health check */
	} else if (!strncmp(opt, "count=", 6) && !util_parse_u64(v, 10, 1000, &n) && n) {
		r->opts.count = n;
	} else {
		goto bad;
	}
	return 0;
bad:
	snprintf(err, errsize, "--probe: '%s' is not from=ADDR|IFACE, port=1-65535, mode=rping|lat or count=1-1000",
		 opt);
	return -EINVAL;
}

int probe_runs_add(struct probe_runs *pr, const char *spec, char *err, size_t errsize)
{
	struct probe_run *r;
	char buf[512], *save = NULL, *tok;

	if (pr->n >= PROBE_RUNS_MAX) {
		snprintf(err, errsize, "--probe: at most %d probes", PROBE_RUNS_MAX);
		return -E2BIG;
	}
	if (strlen(spec) >= sizeof(buf)) {
		snprintf(err, errsize, "--probe: too long");
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	r = &pr->r[pr->n];
	memset(r, 0, sizeof(*r));
	probe_opts_init(&r->opts);
	r->opts.count = RUN_PINGS;
	r->opts.timeout_ms = RUN_STEP_TIMEOUT_MS;
	r->opts.idle_ms = RUN_IDLE_MS;
	tok = strtok_r(buf, ",", &save);
	if (!tok || strchr(tok, '=') || strlen(tok) >= sizeof(r->peer)) {
		snprintf(err, errsize, "--probe '%s': expected PEER[,from=ADDR|IFACE][,port=N][,mode=rping|lat][,count=N]",
			 spec);
		return -EINVAL;
	}
	snprintf(r->peer, sizeof(r->peer), "%s", tok);
	r->opts.peer = r->peer;
	while ((tok = strtok_r(NULL, ",", &save)))
		if (spec_option(r, tok, err, errsize))
			return -EINVAL;
	snprintf(r->port, sizeof(r->port), "%u", r->opts.port);
	r->om.peer = r->peer;
	r->om.from = r->from;
	r->om.port = r->port;
	pr->n++;
	return 0;
}

int probe_runs_fds(struct probe_runs *pr, struct pollfd *fds, int max, int *timeout_ms, uint64_t now_ns)
{
	int n = 0;

	for (size_t i = 0; i < pr->n; i++) {
		struct probe_run *r = &pr->r[i];
		int t;

		if (r->p) {
			n += probe_fds(r->p, fds + n, max - n);
			t = probe_timeout_ms(r->p, now_ns);
		} else {
			t = r->next_ns > now_ns ? (int)((r->next_ns - now_ns + 999999) / 1000000) : 0;
		}
		if (t >= 0 && (*timeout_ms < 0 || t < *timeout_ms))
			*timeout_ms = t;
	}
	return n;
}

/* The event that ended a failed run ("REJECTED"), from the timeline or the error line. */
static void failing_event(const struct probe_status *st, char *buf, size_t size)
{
	for (unsigned int i = st->n_events; i-- > 0;)
		if (st->events[i].error) {
			snprintf(buf, size, "%s", st->events[i].name);
			return;
		}
	snprintf(buf, size, "%.*s", (int)strcspn(st->error, ":"), st->error[0] ? st->error : "FAILED");
}

static void count_result(struct openmetrics_probe *om, const char *result)
{
	size_t k;

	for (k = 0; k < om->nresults; k++)
		if (!strcmp(om->results[k], result))
			break;
	if (k == om->nresults) {
		if (k == ARRAY_SIZE(om->results))
			k--;	/* the last slot stands for the rarest results past seven kinds */
		else
			om->nresults++;
		snprintf(om->results[k], sizeof(om->results[k]), "%s", result);
	}
	om->runs[k]++;
}

/* A finished run into its results. */
static void take_result(struct probe_run *r)
{
	const struct probe_status *st = probe_status(r->p);
	struct openmetrics_probe *om = &r->om;

	om->ran = true;
	om->ok = st->state == PROBE_DONE && st->msgs >= r->opts.count && !st->payload_errors;
	snprintf(om->device, sizeof(om->device), "%s", st->device);
	if (om->ok) {
		snprintf(om->result, sizeof(om->result), "ok");
		om->detail[0] = '\0';
		for (unsigned int i = 0; i < st->n_events; i++)
			if (!strcmp(st->events[i].name, "ESTABLISHED"))
				om->connect_s = (double)st->events[i].t_ns / 1e9;
		om->rtt_s[0] = (double)st->lat.min_ns / 1e9;
		om->rtt_s[1] = (double)st->lat.p50_ns / 1e9;
		om->rtt_s[2] = (double)st->lat.p99_ns / 1e9;
		om->rtt_s[3] = (double)st->lat.max_ns / 1e9;
	} else if (st->state == PROBE_DONE) {
		snprintf(om->result, sizeof(om->result), "%s", st->payload_errors ? "PAYLOAD_MISMATCH" : "SHORT");
		snprintf(om->detail, sizeof(om->detail), "%llu of %llu pings, %llu payload errors",
			 (unsigned long long)st->msgs, (unsigned long long)r->opts.count,
			 (unsigned long long)st->payload_errors);
	} else {
		failing_event(st, om->result, sizeof(om->result));
		snprintf(om->detail, sizeof(om->detail), "%s", st->error);
	}
	count_result(om, om->result);
}

void probe_runs_handle(struct probe_runs *pr, uint64_t now_ns)
{
	uint64_t every = (uint64_t)(pr->every_s * 1e9);

	for (size_t i = 0; i < pr->n; i++) {
		struct probe_run *r = &pr->r[i];

		if (r->p && !probe_handle(r->p, now_ns)) {
			take_result(r);
			probe_free(r->p);
			r->p = NULL;
		}
		if (!r->p && now_ns >= r->next_ns) {
			r->p = probe_start(&r->opts);	/* NULL: no memory now; tried again next time */
			r->next_ns = now_ns + every;
		}
	}
}

const struct openmetrics_probe *probe_runs_results(struct probe_runs *pr)
{
	for (size_t i = 0; i < pr->n; i++)
		pr->om[i] = pr->r[i].om;
	return pr->om;
}

void probe_runs_free(struct probe_runs *pr)
{
	for (size_t i = 0; i < pr->n; i++) {
		probe_free(pr->r[i].p);
		pr->r[i].p = NULL;
	}
}
