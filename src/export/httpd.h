/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The exporter's HTTP side: /metrics from the latest published exposition, served by libmicrohttpd in its own thread. */
#ifndef FABTOP_EXPORT_HTTPD_H
#define FABTOP_EXPORT_HTTPD_H

#include <stddef.h>
#include <stdint.h>

#include "export/gzip.h"
#include "report/openmetrics.h"

/*
 * Bounds that keep a flood or a slow client from costing more than this
 * (doc/export.md): connections open at once, and from one address (so one
 * client cannot take them all), connections waiting to be accepted (the
 * kernel caps it at net.core.somaxconn), seconds a connection may stay
 * idle, bytes a request's headers may take.
 */
#define HTTPD_MAX_CONNECTIONS	1024
#define HTTPD_PER_ADDRESS_MAX	32
#define HTTPD_BACKLOG		4096
#define HTTPD_IDLE_TIMEOUT_S	10
#define HTTPD_REQUEST_MAX	(32 * 1024)
/*
 * What slow readers may hold (doc/export.md): a scrape sends the page it
 * started with, so pages published since stay alive for it. At most this
 * many such older pages are kept for scrapes in flight (the current one
 * aside); publishing another drops the scrapes still sending the oldest,
 * so the responses never hold more than three pages' bytes. And a scrape
 * that has sent less than HTTPD_MIN_RATE bytes a second on average after
 * its first HTTPD_RATE_GRACE_S seconds is dropped: the idle timeout alone
 * never fires on a reader that takes a byte now and then.
 */
#define HTTPD_HELD_PAGES	2
#define HTTPD_MIN_RATE		(256 * 1024)
#define HTTPD_RATE_GRACE_S	10
/*
 * The kernel's send buffer of a connection (it doubles it), fixed instead
 * of grown to 4 MiB: what a slow reader has not taken yet shows as such
 * to the minimum rate within its grace, and 1 MiB in flight still sends
 * 100 MB/s over a 10 ms round trip.
 */
#define HTTPD_SEND_BUFFER	(512 * 1024)

struct httpd;

/*
 * The host's exposition in both formats, made by the collector and handed
 * over whole: a scrape never waits for a collection, it sends the latest
 * page (and the exporter's own counters as of the scrape).
 */
/*
 * A piece of text shared by the pages that end with it (the subnet's part
 * of export --fabric, the same until the subnet changes), freed with the
 * last of them: a page published every interval does not copy it again.
 * The count is atomic: pages are freed in MHD's thread.
 */
struct httpd_shared {
	char *text;
	size_t len;
	unsigned int refs;
};

/* A new piece owning text (one reference, the caller's); NULL when out of memory (text is freed). */
struct httpd_shared *httpd_shared_new(char *text, size_t len);
/* One more reference to sh (NULL stays NULL). */
struct httpd_shared *httpd_shared_ref(struct httpd_shared *sh);
/* One reference less; the last frees it. */
void httpd_shared_unref(struct httpd_shared *sh);

struct httpd_page {
	char *text[2];			/* [enum openmetrics_format] */
	size_t len[2];
	struct httpd_shared *end[2];	/* the page's end after text, shared (a reference of the page's own), or NULL */
	/* text deflated, for the formats httpd_gzip_wanted(): gz[fmt].data NULL serves text alone */
	struct gzip_part gz[2];
	struct openmetrics_self self;	/* as of this page; scrapes/rejected are the server's */
};

/*
 * Listen on "ADDR:PORT", "[ADDR6]:PORT", "HOST:PORT" or ":PORT" (every
 * address), port 0 for any free one. 0, or -errno with the reason in err.
 */
int httpd_start(struct httpd **out, const char *listen, char *err, size_t errsize);
/* Is listen spelled as httpd_start() wants it? 0, or -EINVAL with the reason in err. */
int httpd_listen_check(const char *listen, char *err, size_t errsize);
/* Where it listens, as "127.0.0.1:9879" / "[::1]:9879". */
void httpd_address(const struct httpd *h, char *buf, size_t size);
/* Serve page from now on (the server owns it; the previous one is freed when no scrape holds it). */
void httpd_publish(struct httpd *h, struct httpd_page *page);
/*
 * Has a scrape asked for fmt gzip'ed? Only such formats are worth
 * deflating at publish; until a page has it, such a scrape gets the text.
 */
bool httpd_gzip_wanted(struct httpd *h, enum openmetrics_format fmt);
/* Scrapes served and requests refused so far. */
void httpd_counts(struct httpd *h, uint64_t *scrapes, uint64_t *rejected);
void httpd_stop(struct httpd *h);

/* A page's memory, for a page never published. */
void httpd_page_free(struct httpd_page *p);

#endif
