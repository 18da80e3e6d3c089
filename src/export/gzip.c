// SPDX-License-Identifier: GPL-2.0-or-later
/* One gzip member made of pieces deflated apart (zlib): the page once per publish, the tail per scrape. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "export/gzip.h"

/* Deflate with no zlib or gzip wrapper: the member's header and trailer are written here. */
#define RAW_WINDOW_BITS		(-15)
/* The tail is a few kilobytes: a small window and hash keep a scrape's deflate state small. */
#define TAIL_WINDOW_BITS	(-9)
#define TAIL_MEM_LEVEL		1

/* ID1 ID2, CM deflate, no flags, no time, no extra flags, OS Unix (RFC 1952, 2.3). */
const unsigned char gzip_header[GZIP_HEADER_LEN] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };

void gzip_part_free(struct gzip_part *p)
{
	free(p->data);
	*p = (struct gzip_part){ 0 };
}

/* Deflate all of in (uInt at a time: a page may pass 4 GiB) with flush at its end into out; 0 or -ENOMEM. */
static int deflate_all(z_stream *z, const char *in, size_t len, int flush, unsigned char *out, size_t out_size,
		       size_t *out_len)
{
	size_t done = 0;

	z->next_out = out;
	for (;;) {
		size_t chunk = len - done > UINT_MAX ? UINT_MAX : len - done;
		size_t room = out_size - (size_t)(z->next_out - out);
		bool last = done + chunk == len;
		int rc;

		/* no arithmetic on a NULL text of length 0 */
		z->next_in = (unsigned char *)(uintptr_t)(done ? in + done : in);
		z->avail_in = (uInt)chunk;
		z->avail_out = room > UINT_MAX ? UINT_MAX : (uInt)room;
		rc = deflate(z, last ? flush : Z_NO_FLUSH);
		if (rc == Z_STREAM_ERROR)
			return -ENOMEM;
		done += chunk - z->avail_in;
		/* A flush is done when deflate() leaves room unused; Z_FINISH says so itself. */
		if (last && !z->avail_in && (flush == Z_FINISH ? rc == Z_STREAM_END : z->avail_out > 0))
			break;
		if (!z->avail_out && room <= UINT_MAX)
			return -ENOMEM;		/* the bound was short: never past the buffer */
	}
	*out_len = (size_t)(z->next_out - out);
	return 0;
}

/* Deflate text with flush at its end into a new buffer; 0 or -ENOMEM. */
static int deflate_text(const char *text, size_t len, int level, int window_bits, int mem_level, int flush,
			unsigned char **out, size_t *out_len)
{
	z_stream z = { 0 };
	size_t size;
	int rc;

	if (deflateInit2(&z, level, Z_DEFLATED, window_bits, mem_level, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	/* deflateBound() counts a stream's end, not a sync flush's 5 bytes nor the 64 KiB steps of stored blocks. */
	size = deflateBound(&z, len > ULONG_MAX ? ULONG_MAX : (uLong)len) + 16 + len / 16384 * 5;
	*out = malloc(size);
	rc = *out ? deflate_all(&z, text, len, flush, *out, size, out_len) : -ENOMEM;
	deflateEnd(&z);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

/* CRC-32 of len bytes, uInt at a time. */
static uint32_t crc_of(uint32_t crc, const char *text, size_t len)
{
	while (len) {
		uInt n = len > UINT_MAX ? UINT_MAX : (uInt)len;

		crc = (uint32_t)crc32(crc, (const Bytef *)text, n);
		text += n;
		len -= n;
	}
	return crc;
}

int gzip_part_make(struct gzip_part *p, const char *text, size_t len, int level)
{
	*p = (struct gzip_part){ 0 };
	if (deflate_text(text, len, level, RAW_WINDOW_BITS, 8, Z_SYNC_FLUSH, &p->data, &p->len))
		return -ENOMEM;
	p->crc = crc_of(0, text, len);
	p->text_len = len;
	return 0;
}

int gzip_part_join(struct gzip_part *out, const struct gzip_part *a, const struct gzip_part *b)
{
	*out = (struct gzip_part){ 0 };
	out->data = malloc(a->len + b->len ? a->len + b->len : 1);
	if (!out->data)
		return -ENOMEM;
	memcpy(out->data, a->data, a->len);
	memcpy(out->data + a->len, b->data, b->len);
	out->len = a->len + b->len;
	out->crc = (uint32_t)crc32_combine(a->crc, b->crc, (z_off_t)b->text_len);
	out->text_len = a->text_len + b->text_len;
	return 0;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

int gzip_finish(const struct gzip_part *body, const char *tail, size_t tail_len, unsigned char **out, size_t *out_len)
{
	unsigned char *end;
	size_t len;

	if (deflate_text(tail, tail_len, Z_DEFAULT_COMPRESSION, TAIL_WINDOW_BITS, TAIL_MEM_LEVEL, Z_FINISH, &end, &len))
		return -ENOMEM;
	/* deflate_text() left room: its bound counts a wrapper this raw stream has not written. */
	put_le32(end + len, (uint32_t)crc32_combine(body->crc, crc_of(0, tail, tail_len), (z_off_t)tail_len));
	put_le32(end + len + 4, (uint32_t)(body->text_len + tail_len));	/* ISIZE: the length modulo 2^32 */
	*out = end;
	*out_len = len + 8;
	return 0;
}

/* A qvalue (RFC 9110, 12.4.2) in thousandths from s up to end; -1: not one. */
static int qvalue(const char *s, const char *end)
{
	int q, scale = 100;

	if (s >= end || (*s != '0' && *s != '1'))
		return -1;
	q = (*s++ - '0') * 1000;
	if (s < end && *s == '.') {
		for (s++; s < end && *s >= '0' && *s <= '9' && scale; s++, scale /= 10)
			q += (*s - '0') * scale;
	}
	return s == end && q <= 1000 ? q : -1;
}

static const char *skip_ows(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* The q of one "coding;param;param" element (1000 when none is given, 0 when it is not a qvalue). */
static int element_q(const char *s, const char *end)
{
	int q = 1000;

	while ((s = memchr(s, ';', (size_t)(end - s)))) {
		const char *p = skip_ows(s + 1, end), *v, *e;

		s = p;
		if (end - p < 2 || (p[0] != 'q' && p[0] != 'Q') || p[1] != '=')
			continue;
		v = p + 2;
		e = memchr(v, ';', (size_t)(end - v));
		e = e ? e : end;
		while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		q = qvalue(v, e);
		if (q < 0)
			return 0;
	}
	return q;
}

bool gzip_accepted(const char *accept)
{
	int gzip_q = -1, any_q = -1;

	if (!accept)
		return false;
	while (*accept) {
		const char *end = strchrnul(accept, ','), *s = skip_ows(accept, end), *t = s;

		while (t < end && *t != ';' && *t != ' ' && *t != '\t')
			t++;
		/* The first time a coding is named counts. */
		if (((t - s == 4 && !strncasecmp(s, "gzip", 4)) || (t - s == 6 && !strncasecmp(s, "x-gzip", 6))) &&
		    gzip_q < 0)
			gzip_q = element_q(t, end);
		else if (t - s == 1 && *s == '*' && any_q < 0)
			any_q = element_q(t, end);
		accept = *end ? end + 1 : end;
	}
	return gzip_q >= 0 ? gzip_q > 0 : any_q > 0;
}
