// SPDX-License-Identifier: GPL-2.0-or-later
/* Prometheus instant queries: the answer parser (bytes in, structs out) and an asynchronous libcurl client. */
#include "config.h"

#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/libcurl.h"
#include "remote/prom.h"
#include "util.h"

static void seterr(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void seterr(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (!err || !size)
		return;
	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	util_clean(err);	/* it quotes the server's answer */
}

void prom_vector_free(struct prom_vector *v)
{
	for (size_t i = 0; i < v->nsamples; i++)
		free(v->samples[i].labels);
	free(v->samples);
	v->samples = NULL;
	v->nsamples = 0;
}

const char *prom_sample_label(const struct prom_sample *s, const char *name)
{
	for (size_t i = 0; i < s->nlabels; i++)
		if (!strcmp(s->labels[i].name, name))
			return s->labels[i].value;
	return NULL;
}

/*
 * Prometheus writes values with Go's strconv.FormatFloat: a decimal or
 * exponent form, or exactly "NaN", "+Inf", "-Inf". strtod() alone would also
 * take hex floats, "nan(...)", "infinity" and leading blanks: refused here.
 */
int prom_parse_value(const char *s, double *out)
{
	static const struct {
		const char *text;
		double v;
	} special[] = {
		{ "NaN", NAN }, { "+Inf", INFINITY }, { "-Inf", -INFINITY }, { "Inf", INFINITY },
	};
	char *end;
	const char *p;

	for (size_t i = 0; i < ARRAY_SIZE(special); i++)
		if (!strcmp(s, special[i].text)) {
			*out = special[i].v;
			return 0;
		}
	p = s + (*s == '-' || *s == '+');
	if (!((*p >= '0' && *p <= '9') || *p == '.'))
		return -1;
	for (const char *q = p; *q; q++)
		if (!((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' || *q == '-' || *q == '+'))
			return -1;
	errno = 0;
	*out = strtod(s, &end);
	/* Out of range: strtod gives +-HUGE_VAL (Inf) or a denormal/0, both what the number means. */
	return end == s || *end ? -1 : 0;
}

int prom_quote(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	for (; *s; s++) {
		const char *esc = *s == '\\' ? "\\\\" : *s == '"' ? "\\\"" : *s == '\n' ? "\\n" : NULL;
		size_t k = esc ? 2 : 1;

		if (n + k >= size)
			return -1;
		if (esc)
			memcpy(buf + n, esc, 2);
		else
			buf[n] = *s;
		n += k;
	}
	if (n >= size)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* One sample's labels and their strings in one block: one free per sample. */
static enum prom_status sample_labels(json_t *metric, struct prom_sample *s, size_t idx, char *err, size_t errsize)
{
	const char *k;
	json_t *v;
	size_t n = json_object_size(metric), strs = 0, i = 0;
	char *p;

	if (n > PROM_MAX_LABELS) {
		seterr(err, errsize, "sample %zu has %zu labels (at most %u are taken)", idx, n, PROM_MAX_LABELS);
		return PROM_ERR_SHAPE;
	}
	json_object_foreach(metric, k, v) {
		if (!json_is_string(v)) {
			seterr(err, errsize, "sample %zu: label %.64s is not a string", idx, k);
			return PROM_ERR_SHAPE;
		}
		strs += strlen(k) + 1 + json_string_length(v) + 1;
	}
	s->labels = malloc(n * sizeof(*s->labels) + strs + 1);
	if (!s->labels)
		return PROM_ERR_NOMEM;
	p = (char *)(s->labels + n);
	json_object_foreach(metric, k, v) {
		size_t kl = strlen(k), vl = json_string_length(v);

		s->labels[i].name = util_clean(memcpy(p, k, kl + 1));
		p += kl + 1;
		memcpy(p, json_string_value(v), vl);
		p[vl] = '\0';
		util_clean(p);
		s->labels[i++].value = p;
		p += vl + 1;
	}
	s->nlabels = n;
	return PROM_OK;
}

/* [ts, "value"]: the pair every instant sample and scalar carries. */
static enum prom_status sample_value(json_t *pair, struct prom_sample *s, size_t idx, char *err, size_t errsize)
{
	json_t *ts = json_array_get(pair, 0), *val = json_array_get(pair, 1);

	if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_number(ts) || !json_is_string(val)) {
		seterr(err, errsize, "sample %zu: value is not [timestamp, \"number\"]", idx);
		return PROM_ERR_SHAPE;
	}
	s->ts_s = json_number_value(ts);
	if (prom_parse_value(json_string_value(val), &s->value)) {
		seterr(err, errsize, "sample %zu: value \"%.32s\" is not a number", idx, json_string_value(val));
		return PROM_ERR_SHAPE;
	}
	return PROM_OK;
}

static enum prom_status parse_vector(json_t *result, struct prom_vector *out, char *err, size_t errsize)
{
	size_t n = json_array_size(result);
	enum prom_status rc;

	if (!json_is_array(result)) {
		seterr(err, errsize, "data.result is not a list");
		return PROM_ERR_SHAPE;
	}
	if (n > PROM_MAX_SAMPLES) {
		seterr(err, errsize, "%zu samples in one answer (at most %u are taken)", n, PROM_MAX_SAMPLES);
		return PROM_ERR_SHAPE;
	}
	if (!n)
		return PROM_OK;
	out->samples = calloc(n, sizeof(*out->samples));
	if (!out->samples)
		return PROM_ERR_NOMEM;
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(result, i), *metric = json_object_get(e, "metric");
		struct prom_sample *s = &out->samples[i];

		if (!json_is_object(e) || !json_is_object(metric)) {
			seterr(err, errsize, "sample %zu has no \"metric\" object", i);
			return PROM_ERR_SHAPE;
		}
		rc = sample_labels(metric, s, i, err, errsize);
		if (rc)
			return rc;
		out->nsamples = i + 1;	/* its labels are now the vector's to free */
		rc = sample_value(json_object_get(e, "value"), s, i, err, errsize);
		if (rc)
			return rc;
	}
	return PROM_OK;
}

enum prom_status prom_parse(const char *buf, size_t len, struct prom_vector *out, char *err, size_t errsize)
{
	json_error_t je;
	json_t *root, *status, *data, *type;
	enum prom_status rc = PROM_ERR_SHAPE;

	memset(out, 0, sizeof(*out));
	seterr(err, errsize, "%s", "");
	if (!buf) {
		seterr(err, errsize, "empty answer");
		return PROM_ERR_JSON;
	}
	/* jansson is strict (no trailing garbage, no NUL in strings) and bounds its nesting depth. */
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		seterr(err, errsize, "not a JSON answer (%s at byte %d)", je.text, je.position);
		return PROM_ERR_JSON;
	}
	status = json_object_get(root, "status");
	if (!json_is_object(root) || !json_is_string(status)) {
		seterr(err, errsize, "not a Prometheus API answer (no \"status\")");
		goto out;
	}
	if (!strcmp(json_string_value(status), "error")) {
		const char *type_s = json_string_value(json_object_get(root, "errorType"));
		const char *msg = json_string_value(json_object_get(root, "error"));

		seterr(err, errsize, "%s%s%s", type_s ? type_s : "", type_s ? ": " : "", msg ? msg : "(no message)");
		rc = PROM_ERR_API;
		goto out;
	}
	if (strcmp(json_string_value(status), "success")) {
		seterr(err, errsize, "unknown status \"%.32s\"", json_string_value(status));
		goto out;
	}
	data = json_object_get(root, "data");
	type = json_object_get(data, "resultType");
	if (!json_is_object(data) || !json_is_string(type)) {
		seterr(err, errsize, "no data.resultType in the answer");
		goto out;
	}
	if (!strcmp(json_string_value(type), "vector")) {
		rc = parse_vector(json_object_get(data, "result"), out, err, errsize);
	} else if (!strcmp(json_string_value(type), "scalar")) {
		out->samples = calloc(1, sizeof(*out->samples));
		rc = PROM_ERR_NOMEM;
		if (out->samples) {
			out->nsamples = 1;	/* no labels: nothing of it to free but the vector */
			rc = sample_value(json_object_get(data, "result"), out->samples, 0, err, errsize);
		}
	} else {
		seterr(err, errsize, "a %.16s answer where an instant vector was expected", json_string_value(type));
	}
out:
	json_decref(root);
	if (rc == PROM_ERR_NOMEM)
		seterr(err, errsize, "out of memory");
	if (rc)
		prom_vector_free(out);
	return rc;
}

/* --- the client --- */

/*
 * Why CURLMOPT_SOCKETFUNCTION/TIMERFUNCTION and not curl_multi_fdset():
 * the monitor keeps one fd per counter file open (thousands on a large
 * host), and fd_set cannot hold an fd past FD_SETSIZE (1024), which
 * curl_multi_fdset() then silently leaves out. The socket callback tells
 * exactly which fds and events libcurl wants; they go into the loop's
 * poll() as they are.
 */
#define PROM_MAX_SOCKS 16

struct prom_xfer {
	CURL *easy;
	unsigned long tag;
	char *post;			/* "query=..." (the easy handle does not copy it) */
	char *body;
	size_t len, cap;
	bool too_big;
	uint64_t start_ns;
	char errbuf[CURL_ERROR_SIZE];
	struct prom_xfer *next;
};

struct prom_done {
	struct prom_reply r;
	struct prom_done *next;
};

struct prom_client {
	CURLM *multi;
	struct pollfd socks[PROM_MAX_SOCKS];
	int nsocks;
	int64_t timer_ns;		/* libcurl's deadline, -1 none */
	struct prom_xfer *xfers;	/* in flight */
	struct prom_done *done, **done_tail;
	size_t pending;
};

static int sock_cb(CURL *easy, curl_socket_t fd, int what, void *userp, void *socketp)
{
	struct prom_client *c = userp;
	int i;

	for (i = 0; i < c->nsocks && c->socks[i].fd != fd; i++)
		;
	if (what == CURL_POLL_REMOVE) {
		if (i < c->nsocks)
			c->socks[i] = c->socks[--c->nsocks];
		return 0;
	}
	if (i == c->nsocks) {
		/* Cannot happen under CURLMOPT_MAX_TOTAL_CONNECTIONS; if it did, that transfer fails. */
		if (c->nsocks == PROM_MAX_SOCKS)
			return -1;
		c->nsocks++;
	}
	c->socks[i] = (struct pollfd){
		.fd = fd,
		.events = (short)(((what & CURL_POLL_IN) ? POLLIN : 0) | ((what & CURL_POLL_OUT) ? POLLOUT : 0)),
	};
	return 0;
}

static int timer_cb(CURLM *multi, long timeout_ms, void *userp)
{
	struct prom_client *c = userp;

	c->timer_ns = timeout_ms < 0 ? -1 : (int64_t)(util_now_ns() + (uint64_t)timeout_ms * 1000000ull);
	return 0;
}

static size_t write_cb(char *data, size_t size, size_t nmemb, void *userp)
{
	struct prom_xfer *x = userp;
	size_t n = size * nmemb;

	/* Chunked or compressed answers have no Content-Length to refuse up front: count here. */
	if (n > PROM_MAX_BODY - x->len) {
		x->too_big = true;
		return 0;
	}
	if (x->len + n + 1 > x->cap) {
		size_t ncap = x->cap ? x->cap : 65536;
		char *nb;

		while (ncap < x->len + n + 1)
			ncap *= 2;
		nb = realloc(x->body, ncap);
		if (!nb)
			return 0;
		x->body = nb;
		x->cap = ncap;
	}
	memcpy(x->body + x->len, data, n);
	x->len += n;
	x->body[x->len] = '\0';
	return n;
}

struct prom_client *prom_client_new(char *err, size_t errsize)
{
	static bool global_done;
	struct prom_client *c;

	if (libcurl_load(err, errsize))
		return NULL;
	if (!global_done) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
			seterr(err, errsize, "cannot set up libcurl (curl_global_init failed)");
			return NULL;
		}
		global_done = true;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		seterr(err, errsize, "out of memory");
		return NULL;
	}
	c->multi = curl_multi_init();
	if (!c->multi) {
		seterr(err, errsize, "cannot set up libcurl's multi handle (out of memory?)");
		free(c);
		return NULL;
	}
	c->timer_ns = -1;
	c->done_tail = &c->done;
	curl_multi_setopt(c->multi, CURLMOPT_SOCKETFUNCTION, sock_cb);
	curl_multi_setopt(c->multi, CURLMOPT_SOCKETDATA, c);
	curl_multi_setopt(c->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
	curl_multi_setopt(c->multi, CURLMOPT_TIMERDATA, c);
	/* A refresh's queries share a few kept-alive connections instead of opening one each. */
	curl_multi_setopt(c->multi, CURLMOPT_MAX_HOST_CONNECTIONS, 4L);
	curl_multi_setopt(c->multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)PROM_MAX_SOCKS / 2);
	return c;
}

static void xfer_free(struct prom_client *c, struct prom_xfer *x)
{
	curl_multi_remove_handle(c->multi, x->easy);
	curl_easy_cleanup(x->easy);
	free(x->post);
	free(x->body);
	free(x);
}

void prom_reply_free(struct prom_reply *r)
{
	free(r->body);
	r->body = NULL;
	r->len = 0;
}

void prom_client_cancel(struct prom_client *c)
{
	struct prom_xfer *x, *nx;
	struct prom_done *d, *nd;

	for (x = c->xfers; x; x = nx) {
		nx = x->next;
		xfer_free(c, x);
	}
	c->xfers = NULL;
	for (d = c->done; d; d = nd) {
		nd = d->next;
		prom_reply_free(&d->r);
		free(d);
	}
	c->done = NULL;
	c->done_tail = &c->done;
	c->pending = 0;
}

void prom_client_free(struct prom_client *c)
{
	if (!c)
		return;
	prom_client_cancel(c);
	curl_multi_cleanup(c->multi);
	free(c);
}

size_t prom_client_pending(const struct prom_client *c)
{
	return c->pending;
}

int prom_client_query(struct prom_client *c, const char *base_url, const char *query, unsigned long tag)
{
	struct prom_xfer *x = calloc(1, sizeof(*x));
	char *url = NULL, *enc = NULL;
	size_t blen = strlen(base_url);
	int rc = -ENOMEM;

	if (!x)
		return -ENOMEM;
	x->tag = tag;
	x->easy = curl_easy_init();
	if (!x->easy)
		goto fail;
	/* "http://prom:9090/" and "http://prom:9090" name the same API. */
	while (blen && base_url[blen - 1] == '/')
		blen--;
	if (asprintf(&url, "%.*s/api/v1/query", (int)blen, base_url) < 0) {
		url = NULL;
		goto fail;
	}
	enc = curl_easy_escape(x->easy, query, 0);
	if (!enc || asprintf(&x->post, "query=%s", enc) < 0) {
		x->post = NULL;
		goto fail;
	}
	rc = -EINVAL;
	if (curl_easy_setopt(x->easy, CURLOPT_URL, url) ||
	    curl_easy_setopt(x->easy, CURLOPT_PROTOCOLS_STR, "http,https") ||
	    curl_easy_setopt(x->easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
		goto fail;
	curl_easy_setopt(x->easy, CURLOPT_POSTFIELDS, x->post);
	curl_easy_setopt(x->easy, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(x->easy, CURLOPT_MAXREDIRS, 3L);
	curl_easy_setopt(x->easy, CURLOPT_TIMEOUT_MS, (long)PROM_TIMEOUT_MS);
	curl_easy_setopt(x->easy, CURLOPT_CONNECTTIMEOUT_MS, (long)PROM_TIMEOUT_MS);
	curl_easy_setopt(x->easy, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)PROM_MAX_BODY);
	/* No SIGALRM for DNS timeouts: the monitor owns its signals. */
	curl_easy_setopt(x->easy, CURLOPT_NOSIGNAL, 1L);
	/* Prometheus gzips on request: thousands of series compress about tenfold. */
	curl_easy_setopt(x->easy, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(x->easy, CURLOPT_USERAGENT, "fabtop/" PACKAGE_VERSION);
	curl_easy_setopt(x->easy, CURLOPT_WRITEFUNCTION, write_cb);
	curl_easy_setopt(x->easy, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(x->easy, CURLOPT_ERRORBUFFER, x->errbuf);
	curl_easy_setopt(x->easy, CURLOPT_PRIVATE, x);
	x->start_ns = util_now_ns();
	if (curl_multi_add_handle(c->multi, x->easy))
		goto fail;
	x->next = c->xfers;
	c->xfers = x;
	c->pending++;
	free(url);
	curl_free(enc);
	return 0;
fail:
	free(url);
	curl_free(enc);
	if (x->easy)
		curl_easy_cleanup(x->easy);
	free(x->post);
	free(x);
	return rc;
}

int prom_client_fds(struct prom_client *c, struct pollfd *fds, int max, int *timeout_ms)
{
	int n = 0;

	for (int i = 0; i < c->nsocks && n < max; i++)
		fds[n++] = c->socks[i];
	if (c->timer_ns >= 0) {
		uint64_t now = util_now_ns();
		int t = (uint64_t)c->timer_ns > now ? (int)(((uint64_t)c->timer_ns - now + 999999) / 1000000) : 0;

		if (*timeout_ms < 0 || t < *timeout_ms)
			*timeout_ms = t;
	}
	/* Sockets that did not fit are served by handle()'s own poll: come back soon. */
	if (n < c->nsocks && (*timeout_ms < 0 || *timeout_ms > 50))
		*timeout_ms = 50;
	return n;
}

/* What a failed transfer means to someone looking at the pane. */
static void xfer_error(const struct prom_xfer *x, CURLcode res, long status, struct prom_reply *r)
{
	const char *detail = x->errbuf[0] ? x->errbuf : curl_easy_strerror(res);

	switch (res) {
	case CURLE_OK:
		snprintf(r->error, sizeof(r->error), "HTTP status %ld", status);
		break;
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
		snprintf(r->error, sizeof(r->error), "cannot be reached: %.200s", detail);
		break;
	case CURLE_OPERATION_TIMEDOUT:
		snprintf(r->error, sizeof(r->error), "no answer within %d s (%.200s)", PROM_TIMEOUT_MS / 1000, detail);
		break;
	case CURLE_FILESIZE_EXCEEDED:
		snprintf(r->error, sizeof(r->error), "answer larger than %u MiB, refused", PROM_MAX_BODY >> 20);
		break;
	case CURLE_WRITE_ERROR:
		if (x->too_big) {
			snprintf(r->error, sizeof(r->error), "answer larger than %u MiB, refused", PROM_MAX_BODY >> 20);
			break;
		}
		snprintf(r->error, sizeof(r->error), "out of memory reading the answer");
		break;
	default:
		snprintf(r->error, sizeof(r->error), "%s", detail);
		break;
	}
}

static void collect_done(struct prom_client *c)
{
	CURLMsg *m;
	int left;

	while ((m = curl_multi_info_read(c->multi, &left))) {
		struct prom_xfer *x = NULL, **pp;
		struct prom_done *d;
		long status = 0;

		if (m->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&x);
		for (pp = &c->xfers; *pp && *pp != x; pp = &(*pp)->next)
			;
		if (!x || !*pp)
			continue;
		*pp = x->next;
		d = calloc(1, sizeof(*d));
		if (!d) {
			/* The reply is lost; its request still ends, so a refresh cannot hang on it. */
			c->pending--;
			xfer_free(c, x);
			continue;
		}
		curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
		d->r.tag = x->tag;
		d->r.http_status = status;
		d->r.elapsed_ns = util_now_ns() - x->start_ns;
		d->r.ok = m->data.result == CURLE_OK && status == 200;
		if (!d->r.ok)
			xfer_error(x, m->data.result, status, &d->r);
		d->r.body = x->body;
		d->r.len = x->len;
		x->body = NULL;
		xfer_free(c, x);
		*c->done_tail = d;
		c->done_tail = &d->next;
	}
}

void prom_client_handle(struct prom_client *c)
{
	struct pollfd fds[PROM_MAX_SOCKS];
	int n = c->nsocks, running;

	if (!c->xfers)
		return;
	/*
	 * The pane ops hand no revents over: ask the kernel again, without
	 * waiting, about our few sockets. A copy, since socket_action()
	 * changes c->socks through the callback.
	 */
	memcpy(fds, c->socks, (size_t)n * sizeof(fds[0]));
	if (n && poll(fds, (nfds_t)n, 0) > 0) {
		for (int i = 0; i < n; i++) {
			int ev = 0;

			if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
				ev |= CURL_CSELECT_IN;
			if (fds[i].revents & POLLOUT)
				ev |= CURL_CSELECT_OUT;
			if (fds[i].revents & (POLLERR | POLLNVAL))
				ev |= CURL_CSELECT_ERR;
			if (ev)
				curl_multi_socket_action(c->multi, fds[i].fd, ev, &running);
		}
	}
	if (c->timer_ns >= 0 && (uint64_t)c->timer_ns <= util_now_ns()) {
		c->timer_ns = -1;
		curl_multi_socket_action(c->multi, CURL_SOCKET_TIMEOUT, 0, &running);
	}
	collect_done(c);
}

bool prom_client_reply(struct prom_client *c, struct prom_reply *out)
{
	struct prom_done *d = c->done;

	if (!d)
		return false;
	c->done = d->next;
	if (!c->done)
		c->done_tail = &c->done;
	*out = d->r;
	free(d);
	c->pending--;
	return true;
}
