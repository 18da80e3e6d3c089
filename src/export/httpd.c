// SPDX-License-Identifier: GPL-2.0-or-later
/* /metrics over HTTP with libmicrohttpd: bounded connections, the latest page shared by reference, never a collection per scrape. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "export/httpd.h"
#include "export/libmicrohttpd.h"
#include "util.h"

/* A published page and the scrapes still sending it. */
struct page_ref {
	struct httpd_page *page;	/* NULL once dropped for newer pages: its scrapes end */
	unsigned int refs;		/* under httpd.lock, as everything here */
	struct page_ref *newer;		/* the retired pages still held, oldest first */
	bool retired;			/* no longer the published one, on that list */
};

/* A client's connection, as MHD's thread alone sees them (accepted, asked, answered, closed). */
struct conn {
	struct conn *prev, *next;
	struct MHD_Connection *c;
	struct sockaddr_storage addr;
	int fd;
	bool busy;			/* a request is being answered */
	bool yielded;			/* shut down for a newcomer of its address: no longer counted */
	uint64_t idle_since_ns;		/* accepted, or its last answer completed */
};

struct httpd {
	struct MHD_Daemon *daemon;
	int fd;				/* the listening socket (MHD's once started) */
	struct sockaddr_storage addr;
	pthread_mutex_t lock;		/* page, retired, scrapes, rejected, gzip_wanted: the collector and MHD's thread */
	struct page_ref *page;
	struct page_ref *retired;	/* the oldest retired page a scrape still sends; ->newer the others */
	unsigned int nretired;
	uint64_t scrapes, rejected;
	bool gzip_wanted[2];		/* [enum openmetrics_format] a scrape accepted gzip */
	struct conn *conns;		/* MHD's thread only */
};

/*
 * One response being sent: the page (by reference) and the scrape's own
 * tail, plain or as one gzip member (the header, the page's deflated text
 * and the tail deflated to the end with the trailer).
 */
struct scrape {
	struct httpd *h;
	struct page_ref *ref;
	enum openmetrics_format fmt;
	char *tail;			/* the exporter's own families and the end */
	size_t tail_len;
	unsigned char *gz_end;		/* gzip: the tail deflated, and the trailer */
	size_t gz_end_len;
	struct {
		const void *data;
		size_t len;
	} piece[4];			/* the body, in order */
	size_t npieces;
	uint64_t total;
	uint64_t start_ns;
};

struct httpd_shared *httpd_shared_new(char *text, size_t len)
{
	struct httpd_shared *sh = malloc(sizeof(*sh));

	if (!sh) {
		free(text);
		return NULL;
	}
	*sh = (struct httpd_shared){ .text = text, .len = len, .refs = 1 };
	return sh;
}

struct httpd_shared *httpd_shared_ref(struct httpd_shared *sh)
{
	if (sh)
		__atomic_add_fetch(&sh->refs, 1, __ATOMIC_RELAXED);
	return sh;
}

void httpd_shared_unref(struct httpd_shared *sh)
{
	if (sh && __atomic_sub_fetch(&sh->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		free(sh->text);
		free(sh);
	}
}

void httpd_page_free(struct httpd_page *p)
{
	if (!p)
		return;
	free(p->text[0]);
	free(p->text[1]);
	httpd_shared_unref(p->end[0]);
	httpd_shared_unref(p->end[1]);
	gzip_part_free(&p->gz[0]);
	gzip_part_free(&p->gz[1]);
	free(p);
}

/* Take r off the retired list (under the lock). */
static void retired_remove(struct httpd *h, struct page_ref *r)
{
	struct page_ref **pp = &h->retired;

	while (*pp && *pp != r)
		pp = &(*pp)->newer;
	if (*pp) {
		*pp = r->newer;
		h->nretired--;
	}
	r->retired = false;
}

static void page_unref(struct httpd *h, struct page_ref *r)
{
	bool last;

	if (!r)
		return;
	pthread_mutex_lock(&h->lock);
	last = --r->refs == 0;
	if (last && r->retired)
		retired_remove(h, r);
	pthread_mutex_unlock(&h->lock);
	if (last) {
		httpd_page_free(r->page);
		free(r);
	}
}

void httpd_publish(struct httpd *h, struct httpd_page *page)
{
	struct page_ref *r = calloc(1, sizeof(*r)), *old, **tail;
	struct httpd_page *drop[HTTPD_HELD_PAGES + 1] = { NULL };
	unsigned int ndrop = 0;
	bool last;

	if (!r) {
		httpd_page_free(page);	/* the previous page stays: stale beats nothing */
		return;
	}
	r->page = page;
	r->refs = 1;			/* the server's own */
	pthread_mutex_lock(&h->lock);
	old = h->page;
	h->page = r;
	last = old && --old->refs == 0;
	if (old && !last) {
		/* scrapes still send it: it joins the retired pages, newest last */
		for (tail = &h->retired; *tail; tail = &(*tail)->newer)
			;
		*tail = old;
		old->newer = NULL;
		old->retired = true;
		h->nretired++;
	}
	/*
	 * Past the bound the oldest page goes now, whatever its scrapes have
	 * sent: their next read ends them (scrape_read()), and the page_ref
	 * alone waits for them.
	 */
	while (h->nretired > HTTPD_HELD_PAGES) {
		struct page_ref *o = h->retired;

		drop[ndrop++] = o->page;
		o->page = NULL;
		retired_remove(h, o);
	}
	pthread_mutex_unlock(&h->lock);
	for (unsigned int i = 0; i < ndrop; i++)
		httpd_page_free(drop[i]);
	if (last) {
		httpd_page_free(old->page);
		free(old);
	}
}

bool httpd_gzip_wanted(struct httpd *h, enum openmetrics_format fmt)
{
	bool w;

	pthread_mutex_lock(&h->lock);
	w = h->gzip_wanted[fmt];
	pthread_mutex_unlock(&h->lock);
	return w;
}

void httpd_counts(struct httpd *h, uint64_t *scrapes, uint64_t *rejected)
{
	pthread_mutex_lock(&h->lock);
	*scrapes = h->scrapes;
	*rejected = h->rejected;
	pthread_mutex_unlock(&h->lock);
}

/* Has this scrape, past its grace, sent less than the minimum rate? */
static bool scrape_too_slow(const struct scrape *s, uint64_t pos)
{
	uint64_t ns = util_now_ns() - s->start_ns;

	return ns > HTTPD_RATE_GRACE_S * 1000000000ull &&
	       pos < (uint64_t)((double)HTTPD_MIN_RATE * ((double)ns / 1e9));
}

/*
 * MHD asks for the body bit by bit (pos only grows): the pieces, one after
 * the other, under the lock, since a page dropped for newer ones is freed
 * by the collector's thread.
 */
static ssize_t scrape_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct scrape *s = cls;
	ssize_t rc = MHD_CONTENT_READER_END_OF_STREAM;

	if (scrape_too_slow(s, pos))
		return MHD_CONTENT_READER_END_WITH_ERROR;
	pthread_mutex_lock(&s->h->lock);
	if (!s->ref->page) {
		pthread_mutex_unlock(&s->h->lock);
		return MHD_CONTENT_READER_END_WITH_ERROR;
	}
	for (size_t i = 0; i < s->npieces; i++) {
		size_t n;

		if (pos >= s->piece[i].len) {
			pos -= s->piece[i].len;
			continue;
		}
		n = s->piece[i].len - (size_t)pos < max ? s->piece[i].len - (size_t)pos : max;
		memcpy(buf, (const char *)s->piece[i].data + pos, n);
		rc = (ssize_t)n;
		break;
	}
	pthread_mutex_unlock(&s->h->lock);
	return rc;
}

static void scrape_free(void *cls)
{
	struct scrape *s = cls;

	page_unref(s->h, s->ref);
	free(s->tail);
	free(s->gz_end);
	free(s);
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned int status, const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text,
								 MHD_RESPMEM_PERSISTENT);
	enum MHD_Result rc;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static void count_rejected(struct httpd *h)
{
	pthread_mutex_lock(&h->lock);
	h->rejected++;
	pthread_mutex_unlock(&h->lock);
}

/* The exporter's own families as of this scrape, and the end of the exposition. */
static int scrape_tail(struct scrape *s, const struct openmetrics_self *self)
{
	FILE *f = open_memstream(&s->tail, &s->tail_len);

	if (!f)
		return -ENOMEM;
	openmetrics_write_self(f, s->fmt, self);
	openmetrics_write_end(f, s->fmt);
	return fclose(f) ? -ENOMEM : 0;
}

static void scrape_add(struct scrape *s, const void *data, size_t len)
{
	s->piece[s->npieces].data = data;
	s->piece[s->npieces++].len = len;
	s->total += len;
}

/* The body's pieces: gzip when asked for and the page has it; 0 or -ENOMEM. */
static int scrape_body(struct scrape *s, bool gzip)
{
	const struct httpd_page *p = s->ref->page;

	if (gzip && p->gz[s->fmt].data) {
		if (gzip_finish(&p->gz[s->fmt], s->tail, s->tail_len, &s->gz_end, &s->gz_end_len))
			return -ENOMEM;
		scrape_add(s, gzip_header, sizeof(gzip_header));
		scrape_add(s, p->gz[s->fmt].data, p->gz[s->fmt].len);
		scrape_add(s, s->gz_end, s->gz_end_len);
	} else {
		scrape_add(s, p->text[s->fmt], p->len[s->fmt]);
		if (p->end[s->fmt])
			scrape_add(s, p->end[s->fmt]->text, p->end[s->fmt]->len);
		scrape_add(s, s->tail, s->tail_len);
	}
	return 0;
}

static enum MHD_Result serve_metrics(struct httpd *h, struct MHD_Connection *c)
{
	struct openmetrics_self self;
	struct MHD_Response *r;
	struct scrape *s = calloc(1, sizeof(*s));
	enum MHD_Result rc;
	bool gzip;

	if (!s)
		return MHD_NO;
	s->h = h;
	s->start_ns = util_now_ns();
	s->fmt = openmetrics_negotiate(MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	gzip = gzip_accepted(MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING));
	pthread_mutex_lock(&h->lock);
	h->gzip_wanted[s->fmt] |= gzip;
	s->ref = h->page;
	if (s->ref) {
		s->ref->refs++;
		self = s->ref->page->self;
		self.scrapes = ++h->scrapes;
		self.rejected = h->rejected;
	}
	pthread_mutex_unlock(&h->lock);
	if (!s->ref) {
		free(s);
		return reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "fabtop export: the first collection is not done yet\n");
	}
	if (scrape_tail(s, &self) || scrape_body(s, gzip)) {
		scrape_free(s);
		return MHD_NO;
	}
	r = MHD_create_response_from_callback(s->total, 64 * 1024, scrape_read, s, scrape_free);
	if (!r) {
		scrape_free(s);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, openmetrics_content_type(s->fmt));
	/* The same URL is sent two ways: a cache must key on what was accepted. */
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	if (s->gz_end)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	rc = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return rc;
}

/* The same client address (the port aside)? */
static bool same_address(const struct sockaddr_storage *a, const struct sockaddr *b)
{
	if (a->ss_family != b->sa_family)
		return false;
	if (b->sa_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)a)->sin_addr, &((const struct sockaddr_in *)b)->sin_addr,
			       sizeof(struct in_addr));
	if (b->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
	return false;
}

/*
 * A connection from an address that has HTTPD_PER_ADDRESS_MAX already:
 * its oldest idle one (waiting for a request, or between two) yields, so
 * that a scraper sharing an address with idle or hoarded connections is
 * served; when none is idle (every one being answered, which the minimum
 * rate bounds) the newcomer is refused. MHD accepts it and closes it at
 * once then, so a flood's queue drains.
 */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
	struct httpd *h = cls;
	struct conn *oldest = NULL;
	unsigned int n = 0;

	(void)addrlen;
	for (struct conn *k = h->conns; k; k = k->next) {
		if (k->yielded || !same_address(&k->addr, addr))
			continue;
		n++;
		if (!k->busy && (!oldest || k->idle_since_ns < oldest->idle_since_ns))
			oldest = k;
	}
	if (n < HTTPD_PER_ADDRESS_MAX)
		return MHD_YES;
	if (!oldest) {
		count_rejected(h);
		return MHD_NO;
	}
	/* MHD sees the end of it and closes it in this thread; the descriptor stays its own until then */
	shutdown(oldest->fd, SHUT_RDWR);
	oldest->yielded = true;
	return MHD_YES;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct httpd *h = cls;
	struct conn *k = *socket_context;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *i;

		k = calloc(1, sizeof(*k));
		if (!k)
			return;		/* not counted: the address cap errs on the side of serving */
		k->c = c;
		/*
		 * Each answer is read before the next question: libmicrohttpd 1.0
		 * answers every MHD_get_connection_info() in one union per
		 * connection, so a second call overwrites the first's answer.
		 */
		i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		k->fd = i ? i->connect_fd : -1;
		i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		if (i && i->client_addr)
			memcpy(&k->addr, i->client_addr, i->client_addr->sa_family == AF_INET6 ?
			       sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
		k->idle_since_ns = util_now_ns();
		k->next = h->conns;
		if (h->conns)
			h->conns->prev = k;
		h->conns = k;
		*socket_context = k;
		return;
	}
	if (!k)
		return;
	if (k->prev)
		k->prev->next = k->next;
	else
		h->conns = k->next;
	if (k->next)
		k->next->prev = k->prev;
	free(k);
	*socket_context = NULL;
}

/* Which connection asks: busy until its answer completes. */
static void conn_busy(struct MHD_Connection *c, bool busy)
{
	const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct conn *k = i ? i->socket_context : NULL;

	if (!k)
		return;
	k->busy = busy;
	if (!busy)
		k->idle_since_ns = util_now_ns();
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)con_cls;
	(void)toe;
	conn_busy(c, false);
}

static const char index_page[] =
	"fabtop export: RDMA ports, counters, GIDs, link partners and doctor findings.\n"
	"Metrics: /metrics (OpenMetrics 1.0 when asked for, else Prometheus text 0.0.4).\n";

/*
 * Every request is answered at its first call, before any body is read: a
 * scrape has none, and whatever a client sends after its headers is
 * dropped with the connection instead of being waited for.
 */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
				  const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	struct httpd *h = cls;

	conn_busy(c, true);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		count_rejected(h);
		return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD are served\n");
	}
	if (!strcmp(url, "/metrics"))
		return serve_metrics(h, c);
	if (!strcmp(url, "/"))
		return reply_text(c, MHD_HTTP_OK, index_page);
	count_rejected(h);
	return reply_text(c, MHD_HTTP_NOT_FOUND, "not found: try /metrics\n");
}

/* Split "ADDR:PORT" / "[ADDR6]:PORT" / ":PORT"; 0 or -EINVAL. */
static int split_listen(const char *spec, char *host, size_t hsize, char *port, size_t psize)
{
	const char *colon;
	uint64_t p;

	if (spec[0] == '[') {
		const char *end = strchr(spec, ']');

		if (!end || end[1] != ':' || (size_t)(end - spec - 1) >= hsize)
			return -EINVAL;
		snprintf(host, hsize, "%.*s", (int)(end - spec - 1), spec + 1);
		colon = end + 1;
	} else {
		colon = strrchr(spec, ':');
		if (!colon || (size_t)(colon - spec) >= hsize || memchr(spec, ':', (size_t)(colon - spec)))
			return -EINVAL;
		snprintf(host, hsize, "%.*s", (int)(colon - spec), spec);
	}
	if (util_parse_u64(colon + 1, 10, 65535, &p) || strlen(colon + 1) >= psize)
		return -EINVAL;
	snprintf(port, psize, "%s", colon + 1);
	return 0;
}

int httpd_listen_check(const char *spec, char *err, size_t errsize)
{
	char host[256], port[8];

	if (split_listen(spec, host, sizeof(host), port, sizeof(port))) {
		snprintf(err, errsize, "--listen '%s': expected ADDR:PORT, [ADDR6]:PORT or :PORT (port 0-65535)", spec);
		return -EINVAL;
	}
	return 0;
}

/* A listening socket on the first address that binds. */
static int listen_on(struct httpd *h, const char *spec, char *err, size_t errsize)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE }, *res, *ai;
	char host[256], port[8];
	int rc, fd = -1, e = 0, one = 1, zero = 0, sndbuf = HTTPD_SEND_BUFFER;

	if (httpd_listen_check(spec, err, errsize) || split_listen(spec, host, sizeof(host), port, sizeof(port)))
		return -EINVAL;
	rc = getaddrinfo(host[0] ? host : NULL, port, &hints, &res);
	if (rc) {
		snprintf(err, errsize, "--listen '%s': %s", spec, gai_strerror(rc));
		return -EINVAL;
	}
	/* ":PORT" means every address: the IPv6 wildcard takes IPv4 too when it can. */
	for (ai = res; ai; ai = ai->ai_next) {
		if (!host[0] && ai->ai_family != AF_INET6 && ai->ai_next)
			continue;
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
		if (fd < 0) {
			e = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		/* accepted connections inherit it */
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
		if (ai->ai_family == AF_INET6 && !host[0])
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, HTTPD_BACKLOG) == 0)
			break;
		e = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		snprintf(err, errsize, "cannot listen on %s: %s", spec, strerror(e ? e : EADDRNOTAVAIL));
		return -(e ? e : EADDRNOTAVAIL);
	}
	socklen_t len = sizeof(h->addr);

	getsockname(fd, (struct sockaddr *)&h->addr, &len);
	h->fd = fd;
	return 0;
}

void httpd_address(const struct httpd *h, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN] = "?";

	if (h->addr.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&h->addr;

		inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof(a));
		snprintf(buf, size, "[%s]:%u", a, ntohs(s6->sin6_port));
	} else {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)&h->addr;

		inet_ntop(AF_INET, &s4->sin_addr, a, sizeof(a));
		snprintf(buf, size, "%s:%u", a, ntohs(s4->sin_port));
	}
}

/* Connections the descriptor limit leaves room for (the collector keeps counter files open too). */
static unsigned int connection_limit(void)
{
	struct rlimit rl;
	unsigned int n = HTTPD_MAX_CONNECTIONS;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 2 < n)
		n = rl.rlim_cur / 2 > 8 ? (unsigned int)(rl.rlim_cur / 2) : 8;
	return n;
}

int httpd_start(struct httpd **out, const char *spec, char *err, size_t errsize)
{
	struct httpd *h;
	int rc;

	*out = NULL;
	rc = libmicrohttpd_load(err, errsize);
	if (rc)
		return rc;
	h = calloc(1, sizeof(*h));
	if (!h) {
		snprintf(err, errsize, "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&h->lock, NULL);
	rc = listen_on(h, spec, err, errsize);
	if (rc) {
		pthread_mutex_destroy(&h->lock);
		free(h);
		return rc;
	}
	/*
	 * One internal thread polls every connection (epoll where there is
	 * one): the collector's loop never waits on a client, and a client
	 * that stops reading holds one slot until the idle timeout.
	 */
	h->daemon = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD, 0, on_accept, h, on_request, h,
				     MHD_OPTION_LISTEN_SOCKET, h->fd,
				     MHD_OPTION_CONNECTION_LIMIT, connection_limit(),
				     /* the per-address limit: on_accept() and its bookkeeping */
				     MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
				     MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)HTTPD_IDLE_TIMEOUT_S,
				     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTPD_REQUEST_MAX,
				     MHD_OPTION_END);
	if (!h->daemon) {
		snprintf(err, errsize, "cannot start the HTTP server (libmicrohttpd) on %s", spec);
		close(h->fd);
		pthread_mutex_destroy(&h->lock);
		free(h);
		return -EIO;
	}
	*out = h;
	return 0;
}

void httpd_stop(struct httpd *h)
{
	if (!h)
		return;
	/* Stopping ends every response, which drops its page reference. */
	MHD_stop_daemon(h->daemon);	/* closes the listening socket too */
	page_unref(h, h->page);
	pthread_mutex_destroy(&h->lock);
	free(h);
}
