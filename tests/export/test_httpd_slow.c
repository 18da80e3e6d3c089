// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Slow scrapers cannot make the exporter hold page after page, and idle
 * connections cannot keep a scraper of their own address out
 * (doc/export.md, "The HTTP server"). The real server (export/httpd.c)
 * runs in this process on loopback, serving pages of 16 MiB published
 * by this test; readers here take the body at a set rate. Each part is
 * bounded: a few readers, a few seconds, alarm() past a minute.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "export/httpd.h"
#include "tap.h"
#include "util.h"

#define PAGE_TEXT	(8u << 20)	/* a page holds this in each of its two formats */

static struct sockaddr_in server;

static double now_s(void)
{
	return (double)util_now_ns() / 1e9;
}

static long rss_kb(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f && fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = 0;
	if (f)
		fclose(f);
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

/* A page of size bytes a format, every byte written (so it counts in RSS). */
static struct httpd_page *page_new(size_t size, char fill)
{
	struct httpd_page *p = calloc(1, sizeof(*p));

	for (int f = 0; p && f < 2; f++) {
		p->text[f] = malloc(size);
		if (!p->text[f])
			exit(99);
		memset(p->text[f], fill, size);
		p->text[f][size - 1] = '\n';
		p->len[f] = size;
	}
	return p;
}

struct reader {
	int fd;
	double rate;			/* bytes a second it takes, at most */
	double start;
	size_t got;			/* bytes of the response, head included */
	size_t head;			/* the head's length, once seen */
	long long want;			/* Content-Length, -1 until seen */
	bool closed;
	char buf[4096];			/* the start of the response */
};

static int connect_lo(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), small = 64 * 1024;

	/* a small window, so the kernel's buffers do not take the page in its place */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	if (fd < 0 || connect(fd, (struct sockaddr *)&server, sizeof(server))) {
		perror("connect");
		exit(99);
	}
	return fd;
}

static void reader_start(struct reader *r, double rate)
{
	static const char req[] = "GET /metrics HTTP/1.0\r\n\r\n";

	memset(r, 0, sizeof(*r));
	r->fd = connect_lo();
	r->rate = rate;
	r->want = -1;
	r->start = now_s();
	if (write(r->fd, req, sizeof(req) - 1) != (ssize_t)(sizeof(req) - 1))
		exit(99);
}

/* Whatever the rate allows by now; the head parsed once whole. */
static void reader_pump(struct reader *r)
{
	char tmp[65536];
	double allowed = r->rate * (now_s() - r->start) + 4096;
	ssize_t n;

	if (r->closed || allowed <= (double)r->got)
		return;
	n = recv(r->fd, tmp, allowed - (double)r->got < sizeof(tmp) ? (size_t)(allowed - (double)r->got) : sizeof(tmp),
		 MSG_DONTWAIT);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
		r->closed = true;
		return;
	}
	if (n < 0)
		return;
	if (r->got < sizeof(r->buf) - 1) {
		size_t k = (size_t)n < sizeof(r->buf) - 1 - r->got ? (size_t)n : sizeof(r->buf) - 1 - r->got;

		memcpy(r->buf + r->got, tmp, k);
		r->buf[r->got + k] = '\0';
	}
	r->got += (size_t)n;
	if (!r->head) {
		const char *end = strstr(r->buf, "\r\n\r\n"), *cl = strstr(r->buf, "Content-Length: ");

		if (end) {
			r->head = (size_t)(end + 4 - r->buf);
			r->want = cl ? atoll(cl + 16) : -1;
		}
	}
}

static bool reader_whole(const struct reader *r)
{
	return r->head && r->want >= 0 && r->got == r->head + (size_t)r->want;
}

static void pump_for(struct reader *rs, size_t n, double seconds)
{
	double end = now_s() + seconds;

	while (now_s() < end) {
		for (size_t i = 0; i < n; i++)
			reader_pump(&rs[i]);
		usleep(10000);
	}
}

/*
 * Take what the kernel still holds for r at full speed, until it ends or
 * seconds pass: a response the server dropped ends short of its length
 * (the buffers of both ends may hold a few MiB of it first).
 */
static void reader_drain(struct reader *r, double seconds)
{
	double end = now_s() + seconds;

	r->rate = 1e12;
	while (!r->closed && now_s() < end) {
		reader_pump(r);
		usleep(1000);
	}
}

static void readers_close(struct reader *rs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close(rs[i].fd);
}

/* A reader started on the page published now, its request in (its page pinned), then the next page published. */
static void start_then_publish(struct httpd *h, struct reader *r, char fill)
{
	reader_start(r, 512 * 1024);
	pump_for(r, 1, 0.3);
	httpd_publish(h, page_new(PAGE_TEXT, fill));
}

/*
 * Scrapes in flight hold the page they started with. Two older pages
 * kept for them is the bound: both are served whole. A third: the
 * oldest goes, and its scrape ends short; the others are served whole.
 */
static void held_edges(struct httpd *h)
{
	struct reader r[3];

	httpd_publish(h, page_new(PAGE_TEXT, 'a'));
	start_then_publish(h, &r[0], 'b');
	start_then_publish(h, &r[1], 'c');
	pump_for(r, 2, 0.3);
	reader_drain(&r[0], 5);
	reader_drain(&r[1], 5);
	TAP_OK(reader_whole(&r[0]) && reader_whole(&r[1]), "two older pages held for their scrapes: both served "
	       "whole (%zu, %zu of %lld bytes)", r[0].got, r[1].got, r[0].want);
	readers_close(r, 2);

	start_then_publish(h, &r[0], 'd');
	start_then_publish(h, &r[1], 'e');
	start_then_publish(h, &r[2], 'f');
	pump_for(r, 3, 0.3);
	reader_drain(&r[0], 5);
	TAP_OK(r[0].closed && !reader_whole(&r[0]), "a third older page: the scrape of the oldest is dropped "
	       "(%zu of %lld bytes)", r[0].got, r[0].want);
	reader_drain(&r[1], 5);
	reader_drain(&r[2], 5);
	TAP_OK(reader_whole(&r[1]) && reader_whole(&r[2]), "the two newer ones are served whole");
	readers_close(r, 3);
}

/*
 * Five readers, each started on another page, at 512 KiB/s (above the
 * minimum rate): what the process holds stays near three pages, not six.
 */
static void held_pages(struct httpd *h)
{
	struct reader r[5];
	long base, peak = 0;
	const long page_kb = 2 * PAGE_TEXT / 1024;

	httpd_publish(h, page_new(PAGE_TEXT, 'a'));
	base = rss_kb();
	for (int i = 0; i < 5; i++) {
		reader_start(&r[i], 512 * 1024);
		pump_for(r, (size_t)i + 1, 0.3);	/* its request is in, its page pinned */
		httpd_publish(h, page_new(PAGE_TEXT, (char)('b' + i)));
		if (rss_kb() > peak)
			peak = rss_kb();
	}
	pump_for(r, 5, 0.5);
	if (rss_kb() > peak)
		peak = rss_kb();
	/* AddressSanitizer keeps freed memory in its quarantine: what was dropped still counts there */
	if (getenv("FABTOP_SANITIZERS") && !strcmp(getenv("FABTOP_SANITIZERS"), "yes"))
		TAP_SKIP("five slow scrapes on five pages: memory is bounded in the plain builds (grew %ld KiB under "
			 "the sanitizers, whose quarantine keeps freed pages)", peak - base);
	else
		ASSERT_CMP_INT(peak - base, <=, 3 * page_kb + page_kb / 2,
			       "five slow scrapes on five pages: the process grew by at most three pages (KiB)");
	readers_close(r, 5);
}

/*
 * A reader below HTTPD_MIN_RATE is dropped once its grace is over (what
 * the kernel's buffers took for it aside, up to a few MiB); one above it
 * beside it is served whole.
 */
static void min_rate(struct httpd *h)
{
	struct reader r[2];

	httpd_publish(h, page_new(PAGE_TEXT, 'm'));
	reader_start(&r[0], HTTPD_MIN_RATE / 4);
	reader_start(&r[1], HTTPD_MIN_RATE * 4);
	pump_for(r, 2, HTTPD_RATE_GRACE_S + 2.5);
	reader_drain(&r[0], 2);
	TAP_OK(r[0].closed && !reader_whole(&r[0]), "a reader at a quarter of the minimum rate is dropped after %d s "
	       "(%zu of %lld bytes)", HTTPD_RATE_GRACE_S, r[0].got, r[0].want);
	TAP_OK(reader_whole(&r[1]), "one at four times the minimum rate is served whole (%zu of %lld bytes)",
	       r[1].got, r[1].want);
	readers_close(r, 2);
}

/* Is fd closed by the other end (nothing more will come)? */
static bool peer_closed(int fd)
{
	char c;
	ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT);

	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* A scrape from an address with idle connections open: served, the oldest idle yielding past the cap. */
static void per_address(struct httpd *h)
{
	int idle[HTTPD_PER_ADDRESS_MAX];
	struct reader r;
	int closed = 0;

	httpd_publish(h, page_new(4096, 'i'));
	for (int i = 0; i < HTTPD_PER_ADDRESS_MAX - 1; i++) {
		idle[i] = connect_lo();
		usleep(2000);
	}
	usleep(200000);
	reader_start(&r, 1e9);
	pump_for(&r, 1, 0.5);
	TAP_OK(reader_whole(&r), "%d idle connections from 127.0.0.1 and a scrape: served whole (%zu bytes)",
	       HTTPD_PER_ADDRESS_MAX - 1, r.got);
	for (int i = 0; i < HTTPD_PER_ADDRESS_MAX - 1; i++)
		closed += peer_closed(idle[i]);
	ASSERT_EQ_INT(closed, 0, "below the cap, no idle connection was closed");
	close(r.fd);
	usleep(200000);

	idle[HTTPD_PER_ADDRESS_MAX - 1] = connect_lo();
	usleep(200000);
	reader_start(&r, 1e9);
	pump_for(&r, 1, 0.5);
	TAP_OK(reader_whole(&r), "%d idle connections (the cap) and a scrape: served whole (%zu bytes)",
	       HTTPD_PER_ADDRESS_MAX, r.got);
	TAP_OK(peer_closed(idle[0]), "the oldest idle connection yielded to it");
	closed = 0;
	for (int i = 1; i < HTTPD_PER_ADDRESS_MAX; i++)
		closed += peer_closed(idle[i]);
	ASSERT_EQ_INT(closed, 0, "the others are still open");
	close(r.fd);
	for (int i = 0; i < HTTPD_PER_ADDRESS_MAX; i++)
		close(idle[i]);
}

int main(void)
{
	char err[256], addr[64];
	struct httpd *h;

	alarm(60);
	if (httpd_start(&h, "127.0.0.1:0", err, sizeof(err))) {
		printf("1..0 # SKIP cannot start the HTTP server: %s\n", err);
		return 0;
	}
	httpd_address(h, addr, sizeof(addr));
	memset(&server, 0, sizeof(server));
	server.sin_family = AF_INET;
	server.sin_port = htons((uint16_t)atoi(strrchr(addr, ':') + 1));
	inet_pton(AF_INET, "127.0.0.1", &server.sin_addr);

	held_edges(h);
	held_pages(h);
	min_rate(h);
	per_address(h);
	httpd_stop(h);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
