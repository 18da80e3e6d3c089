// SPDX-License-Identifier: GPL-2.0-or-later
/* The Cluster pane's data: one PromQL instant query per column family, answers merged by instance/device/port. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/prom_cluster.h"
#include "util.h"

typedef void (*merge_fn)(struct cluster *c, struct cluster_port *p, struct cluster_host *h,
			 const struct prom_sample *s);

/*
 * One row per family: the whole cluster in one query each, so a refresh
 * costs the same handful of requests for 3 hosts or 3,000 (never one per
 * host). Rates come from Prometheus (rate() over 1m: at least two scrapes
 * at the usual 15-30 s interval) instead of differencing two of our own
 * refreshes, so the first refresh already has them.
 */
static const struct family {
	const char *name;		/* for errors */
	const char *promql;
	bool per_host;			/* keyed by instance alone */
	merge_fn merge;
} families[PROM_CLUSTER_NFAMILIES];

static double finite_nonneg(double v)
{
	return isfinite(v) && v >= 0 ? v : NAN;
}

static void merge_state(struct cluster *c, struct cluster_port *p, struct cluster_host *h, const struct prom_sample *s)
{
	/* fabtop_port_state is the IB PortState number; anything else stays unknown. */
	if (isfinite(s->value) && s->value >= PORT_STATE_NOP && s->value <= PORT_STATE_ACTIVE_DEFER &&
	    s->value == floor(s->value))
		p->state = (enum fab_port_state)s->value;
}

static void merge_rate(struct cluster *c, struct cluster_port *p, struct cluster_host *h, const struct prom_sample *s)
{
	p->rate_bytes_per_s = finite_nonneg(s->value);
}

static void merge_in(struct cluster *c, struct cluster_port *p, struct cluster_host *h, const struct prom_sample *s)
{
	p->in_bits_per_s = finite_nonneg(s->value);
}

static void merge_out(struct cluster *c, struct cluster_port *p, struct cluster_host *h, const struct prom_sample *s)
{
	p->out_bits_per_s = finite_nonneg(s->value);
}

static void merge_errors(struct cluster *c, struct cluster_port *p, struct cluster_host *h, const struct prom_sample *s)
{
	p->err_delta = finite_nonneg(s->value);
}

static void merge_partner(struct cluster *c, struct cluster_port *p, struct cluster_host *h, const struct prom_sample *s)
{
	const char *desc = prom_sample_label(s, "partner_desc"), *port = prom_sample_label(s, "partner_port");

	snprintf(p->partner_desc, sizeof(p->partner_desc), "%s", desc ? desc : "");
	snprintf(p->partner_port, sizeof(p->partner_port), "%s", port ? port : "");
}

static void merge_findings(struct cluster *c, struct cluster_port *p, struct cluster_host *h, const struct prom_sample *s)
{
	if (isfinite(s->value) && s->value >= 0 && s->value < 1e6)
		h->findings = (int)s->value;
}

static const struct family families[PROM_CLUSTER_NFAMILIES] = {
	[PROM_CLUSTER_STATE] = { "state", "fabtop_port_state", false, merge_state },
	[PROM_CLUSTER_RATE] = { "rate", "fabtop_port_rate_bytes_per_second", false, merge_rate },
	[PROM_CLUSTER_IN] = { "in",
		"sum by (instance, device, port) (rate(fabtop_port_receive_bytes_total[1m])) * 8",
		false, merge_in },
	[PROM_CLUSTER_OUT] = { "out",
		"sum by (instance, device, port) (rate(fabtop_port_transmit_bytes_total[1m])) * 8",
		false, merge_out },
	[PROM_CLUSTER_ERRORS] = { "errors",
		"sum by (instance, device, port) (increase(fabtop_port_counter_total{kind=\"error\"}[5m]))",
		false, merge_errors },
	[PROM_CLUSTER_PARTNER] = { "partner", "fabtop_link_partner_info", false, merge_partner },
	[PROM_CLUSTER_FINDINGS] = { "findings",
		"count by (instance) (fabtop_doctor_finding{severity!=\"info\"})", true, merge_findings },
};

const char *prom_cluster_query(enum prom_cluster_family f)
{
	return (unsigned int)f < PROM_CLUSTER_NFAMILIES ? families[f].promql : NULL;
}

void prom_cluster_merge(struct cluster *c, enum prom_cluster_family f, const struct prom_vector *v)
{
	const struct family *fam;

	if ((unsigned int)f >= PROM_CLUSTER_NFAMILIES)
		return;
	fam = &families[f];
	for (size_t i = 0; i < v->nsamples; i++) {
		const struct prom_sample *s = &v->samples[i];
		const char *inst = prom_sample_label(s, "instance");
		struct cluster_port *p = NULL;
		struct cluster_host *h;

		if (fam->per_host) {
			h = inst ? cluster_host_get(c, inst) : NULL;
		} else {
			p = inst ? cluster_port_get(c, inst, prom_sample_label(s, "device"),
						    prom_sample_label(s, "port")) : NULL;
			h = p ? &c->hosts[p->host] : NULL;
		}
		if (!h) {
			c->ignored++;
			continue;
		}
		fam->merge(c, p, h, s);
	}
}

void prom_cluster_finish(struct cluster *c)
{
	for (size_t i = 0; i < c->nhosts; i++)
		if (c->hosts[i].findings < 0)
			c->hosts[i].findings = 0;
}

/* --- the refresh --- */

/* Reply tags: a family, or the details query of generation tag >> 8. */
#define TAG_DETAILS 0xffu

struct prom_cluster {
	struct prom_client *client;	/* NULL until the first query needs it */
	char *url;

	struct cluster model;		/* the latest complete refresh */
	bool have_model;
	uint64_t model_ns;

	struct cluster next;		/* being merged */
	unsigned int waiting;		/* families not answered yet (bits) */
	bool busy;
	bool next_failed;
	char next_error[PROM_ERR_LEN + 64];
	uint64_t started_ns;
	struct prom_cluster_stats run, stats;

	char error[PROM_ERR_LEN + 64];	/* the latest refresh's failure, "" when it did well */
	uint64_t last_ns;

	/* details of one port: the latest asked for */
	char det_instance[CLUSTER_INSTANCE_LEN], det_device[CLUSTER_DEVICE_LEN], det_port[CLUSTER_PORT_LEN];
	unsigned long det_gen;
	bool det_busy, det_have;
	struct prom_vector det;
	char det_error[PROM_ERR_LEN + 64];
	uint64_t det_ns;
};

struct prom_cluster *prom_cluster_new(const char *url)
{
	struct prom_cluster *pc = calloc(1, sizeof(*pc));

	if (!pc)
		return NULL;
	pc->url = strdup(url);
	if (!pc->url) {
		prom_cluster_free(pc);
		return NULL;
	}
	cluster_init(&pc->model);
	cluster_init(&pc->next);
	return pc;
}

void prom_cluster_free(struct prom_cluster *pc)
{
	if (!pc)
		return;
	prom_client_free(pc->client);
	cluster_free(&pc->model);
	cluster_free(&pc->next);
	prom_vector_free(&pc->det);
	free(pc->url);
	free(pc);
}

const char *prom_cluster_url(const struct prom_cluster *pc)
{
	return pc->url;
}

bool prom_cluster_busy(const struct prom_cluster *pc)
{
	return pc->busy;
}

/* The HTTP client, set up when first needed; 0, or -ELIBACC with err saying why. */
static int cluster_client(struct prom_cluster *pc, char *err, size_t errsize)
{
	if (!pc->client)
		pc->client = prom_client_new(err, errsize);
	return pc->client ? 0 : -ELIBACC;
}

int prom_cluster_refresh(struct prom_cluster *pc)
{
	int rc;

	if (pc->busy)
		return -EBUSY;
	cluster_free(&pc->next);
	pc->waiting = 0;
	pc->next_failed = false;
	pc->next_error[0] = '\0';
	memset(&pc->run, 0, sizeof(pc->run));
	pc->started_ns = util_now_ns();
	/* No client: the refresh fails whole, with why, at the next prom_cluster_handle(). */
	if (cluster_client(pc, pc->next_error, sizeof(pc->next_error)))
		pc->next_failed = true;
	for (unsigned int f = 0; pc->client && f < PROM_CLUSTER_NFAMILIES; f++) {
		rc = prom_client_query(pc->client, pc->url, families[f].promql, f);
		if (rc) {
			/* The ones started still answer; the refresh fails when they have. */
			pc->next_failed = true;
			snprintf(pc->next_error, sizeof(pc->next_error), "cannot start the %s query: %s",
				 families[f].name, strerror(-rc));
			break;
		}
		pc->waiting |= 1u << f;
	}
	pc->busy = true;
	return 0;
}

int prom_cluster_fds(struct prom_cluster *pc, struct pollfd *fds, int max, int *timeout_ms)
{
	if (pc->client)
		return prom_client_fds(pc->client, fds, max, timeout_ms);
	if (pc->busy)
		*timeout_ms = 0;	/* a refresh that failed for want of a client: handle it now */
	return 0;
}

/* What went wrong with a reply, in words for the pane: transport, HTTP status, or the answer itself. */
static void reply_error(const struct prom_reply *r, const char *what, char *buf, size_t size)
{
	struct prom_vector v;
	char why[PROM_ERR_LEN];
	enum prom_status st;

	if (!r->http_status || r->http_status == 200) {
		snprintf(buf, size, "%s", r->error);
		return;
	}
	/* Prometheus explains 400/422/503 in its JSON: say its words, not just the number. */
	st = prom_parse(r->body, r->len, &v, why, sizeof(why));
	prom_vector_free(&v);
	if (st == PROM_ERR_API)
		snprintf(buf, size, "answered HTTP %ld to the %s query: %s", r->http_status, what, why);
	else
		snprintf(buf, size, "answered HTTP %ld to the %s query (not the Prometheus API?)", r->http_status, what);
}

static bool take_details(struct prom_cluster *pc, struct prom_reply *r)
{
	char why[PROM_ERR_LEN];
	enum prom_status st;

	if (r->tag >> 8 != pc->det_gen)
		return false;		/* asked about another port since */
	pc->det_busy = false;
	pc->det_ns = util_now_ns();
	prom_vector_free(&pc->det);
	pc->det_have = false;
	pc->det_error[0] = '\0';
	if (!r->ok) {
		reply_error(r, "details", pc->det_error, sizeof(pc->det_error));
		return true;
	}
	st = prom_parse(r->body, r->len, &pc->det, why, sizeof(why));
	if (st == PROM_OK)
		pc->det_have = true;
	else
		snprintf(pc->det_error, sizeof(pc->det_error), "%s to the details query: %s",
			 st == PROM_ERR_API ? "answered an error" : "answered what is not a query result", why);
	return true;
}

static void take_family(struct prom_cluster *pc, struct prom_reply *r)
{
	unsigned int f = (unsigned int)r->tag;
	char why[PROM_ERR_LEN];
	struct prom_vector v;
	enum prom_status st;
	uint64_t t0;

	if (f >= PROM_CLUSTER_NFAMILIES || !(pc->waiting & (1u << f)))
		return;
	pc->waiting &= ~(1u << f);
	pc->run.bytes += r->len;
	if (pc->next_failed)
		return;		/* the refresh already failed: the first reason is the one shown */
	if (!r->ok) {
		pc->next_failed = true;
		reply_error(r, families[f].name, pc->next_error, sizeof(pc->next_error));
		return;
	}
	t0 = util_now_ns();
	st = prom_parse(r->body, r->len, &v, why, sizeof(why));
	if (st == PROM_OK) {
		prom_cluster_merge(&pc->next, (enum prom_cluster_family)f, &v);
		pc->run.samples += v.nsamples;
	} else {
		pc->next_failed = true;
		snprintf(pc->next_error, sizeof(pc->next_error), "%s to the %s query: %s",
			 st == PROM_ERR_API ? "answered an error" : "answered what is not a query result",
			 families[f].name, why);
	}
	prom_vector_free(&v);
	pc->run.parse_merge_ns += util_now_ns() - t0;
}

bool prom_cluster_handle(struct prom_cluster *pc)
{
	struct prom_reply r;
	bool changed = false;

	if (pc->client)
		prom_client_handle(pc->client);
	while (pc->client && prom_client_reply(pc->client, &r)) {
		if ((r.tag & 0xff) == TAG_DETAILS)
			changed |= take_details(pc, &r);
		else if (pc->busy)
			take_family(pc, &r);
		prom_reply_free(&r);
	}
	if (!pc->busy || pc->waiting)
		return changed;
	/* The refresh is complete: it replaces the model whole, or it fails whole. */
	pc->busy = false;
	pc->last_ns = util_now_ns();
	pc->run.refresh_ns = pc->last_ns - pc->started_ns;
	pc->stats = pc->run;
	if (pc->next_failed) {
		snprintf(pc->error, sizeof(pc->error), "%s", pc->next_error);
		cluster_free(&pc->next);
	} else {
		prom_cluster_finish(&pc->next);
		cluster_free(&pc->model);
		pc->model = pc->next;
		cluster_init(&pc->next);
		pc->have_model = true;
		pc->model_ns = pc->last_ns;
		pc->error[0] = '\0';
	}
	return true;
}

const struct cluster *prom_cluster_model(const struct prom_cluster *pc, uint64_t *when_ns)
{
	if (when_ns)
		*when_ns = pc->model_ns;
	return pc->have_model ? &pc->model : NULL;
}

const char *prom_cluster_error(const struct prom_cluster *pc)
{
	return pc->error[0] ? pc->error : NULL;
}

uint64_t prom_cluster_last_ns(const struct prom_cluster *pc)
{
	return pc->last_ns;
}

const struct prom_cluster_stats *prom_cluster_stats(const struct prom_cluster *pc)
{
	return &pc->stats;
}

int prom_cluster_details(struct prom_cluster *pc, const char *instance, const char *device, const char *port)
{
	char qi[2 * CLUSTER_INSTANCE_LEN], qd[2 * CLUSTER_DEVICE_LEN], qp[2 * CLUSTER_PORT_LEN];
	char why[PROM_ERR_LEN + 64];
	char *q;
	int rc;

	if (prom_quote(instance, qi, sizeof(qi)) || prom_quote(device, qd, sizeof(qd)) ||
	    prom_quote(port, qp, sizeof(qp)))
		return -ENAMETOOLONG;
	if (asprintf(&q, "{__name__=~\"fabtop_port_.*|fabtop_link_partner_.*\", "
		     "instance=\"%s\", device=\"%s\", port=\"%s\"}", qi, qd, qp) < 0)
		return -ENOMEM;
	pc->det_gen++;
	rc = cluster_client(pc, why, sizeof(why));
	if (!rc)
		rc = prom_client_query(pc->client, pc->url, q, (pc->det_gen << 8) | TAG_DETAILS);
	free(q);
	snprintf(pc->det_instance, sizeof(pc->det_instance), "%s", instance);
	snprintf(pc->det_device, sizeof(pc->det_device), "%s", device);
	snprintf(pc->det_port, sizeof(pc->det_port), "%s", port);
	prom_vector_free(&pc->det);
	pc->det_have = false;
	pc->det_busy = rc == 0;
	pc->det_ns = util_now_ns();
	if (rc == -ELIBACC)
		snprintf(pc->det_error, sizeof(pc->det_error), "%s", why);
	else if (rc)
		snprintf(pc->det_error, sizeof(pc->det_error), "cannot start the details query: %s", strerror(-rc));
	else
		pc->det_error[0] = '\0';
	return rc;
}

enum prom_details_state prom_cluster_details_get(const struct prom_cluster *pc, const char *instance,
						 const char *device, const char *port,
						 const struct prom_vector **v, const char **error, uint64_t *when_ns)
{
	*v = NULL;
	*error = NULL;
	*when_ns = pc->det_ns;
	if (!pc->det_gen || strcmp(pc->det_instance, instance) || strcmp(pc->det_device, device) ||
	    strcmp(pc->det_port, port))
		return PROM_DETAILS_NONE;
	if (pc->det_busy)
		return PROM_DETAILS_BUSY;
	if (pc->det_have) {
		*v = &pc->det;
		return PROM_DETAILS_DONE;
	}
	*error = pc->det_error[0] ? pc->det_error : "no answer";
	return PROM_DETAILS_FAILED;
}
