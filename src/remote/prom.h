/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A Prometheus HTTP API client: instant queries over libcurl's multi interface, answers parsed into plain structs. */
#ifndef FABTOP_REMOTE_PROM_H
#define FABTOP_REMOTE_PROM_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An answer larger than this is refused: a runaway query must not eat the monitor's memory. */
#define PROM_MAX_BODY (64u << 20)
/* Every request ends within this, answered or not. */
#define PROM_TIMEOUT_MS 5000
/* Samples of one answer, and labels of one sample, kept at most (more: the answer is refused). */
#define PROM_MAX_SAMPLES (1u << 20)
#define PROM_MAX_LABELS 128
#define PROM_ERR_LEN 256

struct prom_label {
	const char *name;		/* "__name__" holds the metric name */
	const char *value;
};

struct prom_sample {
	struct prom_label *labels;	/* as the answer lists them; strings live in the same block */
	size_t nlabels;
	double value;			/* NaN and +-Inf as Prometheus wrote them */
	double ts_s;			/* the evaluation time, unix seconds */
};

/* One instant query's answer: a vector (a scalar is a vector of one sample without labels). */
struct prom_vector {
	struct prom_sample *samples;
	size_t nsamples;
};

enum prom_status {
	PROM_OK = 0,
	PROM_ERR_JSON,		/* not JSON, or cut short */
	PROM_ERR_SHAPE,		/* JSON, but not an instant query answer */
	PROM_ERR_API,		/* "status":"error": Prometheus's own errorType and error */
	PROM_ERR_NOMEM,
};

/*
 * Parse an /api/v1/query answer of len bytes (no terminating NUL needed)
 * into out, which is zeroed first and must be freed with prom_vector_free()
 * whatever the result. Anything else than a well-formed answer is refused
 * whole, with the reason in err: a half-believed answer would show wrong
 * rows. Never reads past len.
 */
enum prom_status prom_parse(const char *buf, size_t len, struct prom_vector *out, char *err, size_t errsize);
void prom_vector_free(struct prom_vector *v);
/* The value of label name of s, NULL when it has none. */
const char *prom_sample_label(const struct prom_sample *s, const char *name);
/* Parse a sample value as Prometheus writes it ("1.5", "NaN", "+Inf", "-Inf"); -1 if it is none. */
int prom_parse_value(const char *s, double *out);
/* s as a PromQL double-quoted string literal body (\\, \", \n escaped); -1 when it does not fit. */
int prom_quote(const char *s, char *buf, size_t size);

/* A finished request. */
struct prom_reply {
	unsigned long tag;		/* what prom_client_query() was given */
	bool ok;			/* transport and HTTP status fine: body holds the answer */
	long http_status;		/* 0 when none came */
	char error[PROM_ERR_LEN];	/* why not ok */
	char *body;			/* the answer's bytes (also for HTTP errors: Prometheus explains in JSON) */
	size_t len;
	uint64_t elapsed_ns;
};

struct prom_client;

/* NULL when libcurl cannot be loaded or set up, with err saying why. */
struct prom_client *prom_client_new(char *err, size_t errsize);
void prom_client_free(struct prom_client *c);
/* POST query to base_url + "/api/v1/query" (form-encoded: no URL length limit). 0 or -errno. */
int prom_client_query(struct prom_client *c, const char *base_url, const char *query, unsigned long tag);
/* Requests started and not yet taken by prom_client_reply(). */
size_t prom_client_pending(const struct prom_client *c);
/* Drop every request in flight and every unread reply. */
void prom_client_cancel(struct prom_client *c);
/* The sockets libcurl waits on (at most max) and its next deadline, for the caller's poll(). */
int prom_client_fds(struct prom_client *c, struct pollfd *fds, int max, int *timeout_ms);
/* After the caller's poll: serve what is ready and what is due. Never blocks. */
void prom_client_handle(struct prom_client *c);
/* Take a finished request (free it with prom_reply_free()); false when none. */
bool prom_client_reply(struct prom_client *c, struct prom_reply *out);
void prom_reply_free(struct prom_reply *r);

#endif
