// SPDX-License-Identifier: GPL-2.0-or-later
/* The recording's wire primitives (see codec.h and doc/recording.md). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "record/codec.h"
#include "util.h"

void rec_buf_free(struct rec_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

void rec_buf_reset(struct rec_buf *b)
{
	b->len = 0;
	b->oom = false;
}

static bool rec_reserve(struct rec_buf *b, size_t n)
{
	size_t cap;
	uint8_t *d;

	if (b->oom)
		return false;
	if (b->len + n <= b->cap)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n)
		cap *= 2;
	d = realloc(b->data, cap);
	if (!d) {
		b->oom = true;
		return false;
	}
	b->data = d;
	b->cap = cap;
	return true;
}

void rec_put_raw(struct rec_buf *b, const void *p, size_t n)
{
	if (!n || !rec_reserve(b, n))
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void rec_put_varint(struct rec_buf *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;

	do {
		tmp[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			tmp[n] |= 0x80;
		n++;
	} while (v);
	rec_put_raw(b, tmp, n);
}

static void rec_put_key(struct rec_buf *b, unsigned int field, enum rec_wire w)
{
	rec_put_varint(b, (uint64_t)field << 3 | w);
}

void rec_put_uint(struct rec_buf *b, unsigned int field, uint64_t v)
{
	rec_put_key(b, field, REC_WIRE_VARINT);
	rec_put_varint(b, v);
}

void rec_put_sint(struct rec_buf *b, unsigned int field, int64_t v)
{
	rec_put_uint(b, field, rec_zigzag(v));
}

void rec_put_double(struct rec_buf *b, unsigned int field, double v)
{
	uint64_t u;
	uint8_t le[8];

	memcpy(&u, &v, sizeof(u));
	for (int i = 0; i < 8; i++)
		le[i] = (uint8_t)(u >> (8 * i));
	rec_put_key(b, field, REC_WIRE_FIXED64);
	rec_put_raw(b, le, sizeof(le));
}

void rec_put_bytes(struct rec_buf *b, unsigned int field, const void *p, size_t n)
{
	rec_put_key(b, field, REC_WIRE_BYTES);
	rec_put_varint(b, n);
	rec_put_raw(b, p, n);
}

void rec_put_str(struct rec_buf *b, unsigned int field, const char *s)
{
	rec_put_bytes(b, field, s, strlen(s));
}

/*
 * The length goes before the content but is known only after it: five
 * bytes are reserved (a varint of up to 2^35) and written as a padded
 * varint, which every varint reader takes.
 */
size_t rec_put_begin(struct rec_buf *b, unsigned int field)
{
	static const uint8_t pad[5] = { 0x80, 0x80, 0x80, 0x80, 0 };

	rec_put_key(b, field, REC_WIRE_BYTES);
	rec_put_raw(b, pad, sizeof(pad));
	return b->len;
}

void rec_put_end(struct rec_buf *b, size_t mark)
{
	uint64_t n;

	if (b->oom || mark < 5 || mark > b->len)
		return;
	n = b->len - mark;
	for (int i = 0; i < 5; i++)
		b->data[mark - 5 + i] = (uint8_t)(((n >> (7 * i)) & 0x7f) | (i < 4 ? 0x80 : 0));
}

void rec_cur_init(struct rec_cur *c, const void *p, size_t n, const void *base)
{
	static const uint8_t none;

	/* an empty message may come with no bytes at all: never arithmetic on NULL */
	if (!p) {
		p = &none;
		n = 0;
	}
	c->p = p;
	c->end = c->p + n;
	c->base = base ? base : p;
	c->err = NULL;
	c->err_off = 0;
}

void rec_fail(struct rec_cur *c, const uint8_t *p, const char *expected)
{
	if (c->err)
		return;
	c->err = expected;
	c->err_off = (size_t)(p - c->base);
	c->p = c->end;
}

bool rec_get_varint(struct rec_cur *c, uint64_t *v)
{
	const uint8_t *start = c->p;
	uint64_t r = 0;

	for (unsigned int shift = 0; shift < 70; shift += 7) {
		uint8_t byte;

		if (c->p >= c->end) {
			rec_fail(c, start, "a varint (the message ends inside one)");
			return false;
		}
		byte = *c->p++;
		if (shift == 63 && byte > 1) {
			rec_fail(c, start, "a varint of at most 64 bits");
			return false;
		}
		r |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80)) {
			*v = r;
			return true;
		}
	}
	rec_fail(c, start, "a varint of at most 10 bytes");
	return false;
}

bool rec_next(struct rec_cur *c, struct rec_field *f)
{
	const uint8_t *start = c->p;
	uint64_t key;

	if (c->err || c->p >= c->end)
		return false;
	if (!rec_get_varint(c, &key))
		return false;
	if (key >> 3 == 0 || key >> 3 > UINT32_MAX) {
		rec_fail(c, start, "a field number from 1 to 2^32-1");
		return false;
	}
	f->num = (unsigned int)(key >> 3);
	f->wire = (enum rec_wire)(key & 7);
	f->bytes = NULL;
	f->len = 0;
	f->u = 0;
	switch (f->wire) {
	case REC_WIRE_VARINT:
		return rec_get_varint(c, &f->u);
	case REC_WIRE_FIXED64:
		if (c->end - c->p < 8) {
			rec_fail(c, start, "8 bytes of a fixed64 field");
			return false;
		}
		for (int i = 0; i < 8; i++)
			f->u |= (uint64_t)c->p[i] << (8 * i);
		c->p += 8;
		return true;
	case REC_WIRE_BYTES:
		if (!rec_get_varint(c, &f->u))
			return false;
		if (f->u > (uint64_t)(c->end - c->p)) {
			rec_fail(c, start, "a length within the message");
			return false;
		}
		f->bytes = c->p;
		f->len = (size_t)f->u;
		c->p += f->len;
		return true;
	}
	rec_fail(c, start, "wire type 0, 1 or 2");
	return false;
}

void rec_cur_sub(struct rec_cur *sub, const struct rec_cur *parent, const struct rec_field *f)
{
	rec_cur_init(sub, f->bytes, f->wire == REC_WIRE_BYTES ? f->len : 0, parent->base);
}

double rec_field_double(const struct rec_field *f)
{
	double d;

	memcpy(&d, &f->u, sizeof(d));
	return d;
}

void rec_field_str(const struct rec_field *f, char *buf, size_t size)
{
	size_t n = f->wire == REC_WIRE_BYTES ? f->len : 0;

	if (!size)
		return;
	if (n > size - 1)
		n = size - 1;
	if (n)
		memcpy(buf, f->bytes, n);
	buf[n] = '\0';
	/* an embedded NUL ends the string, as it would have in the struct it came from */
	/* a recording is input like any other: what it names is cleaned as it enters */
	util_clean(buf);
}

/* CRC-32 (IEEE 802.3, reflected 0xEDB88320), as zlib and gzip compute it. */
uint32_t rec_crc32(uint32_t crc, const void *p, size_t n)
{
	static uint32_t table[256];
	static bool ready;
	const uint8_t *b = p;

	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
		__atomic_store_n(&ready, true, __ATOMIC_RELEASE);
	}
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
