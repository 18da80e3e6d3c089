/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recording's wire primitives: a growing byte buffer, varints and tagged fields, CRC-32. */
#ifndef FABTOP_RECORD_CODEC_H
#define FABTOP_RECORD_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Fields are tagged as in Protocol Buffers (doc/recording.md): a varint key
 * (field number << 3 | wire type), then a varint, 8 little-endian bytes or
 * a varint length and that many bytes. A reader skips the fields it does
 * not know, so a newer minor version still reads; zero values are left out
 * and a reader starts from zeroed structs.
 */
enum rec_wire {
	REC_WIRE_VARINT = 0,
	REC_WIRE_FIXED64 = 1,
	REC_WIRE_BYTES = 2,
};

/* A growing output buffer; a failed allocation sticks (oom) and later puts do nothing. */
struct rec_buf {
	uint8_t *data;
	size_t len, cap;
	bool oom;
};

void rec_buf_free(struct rec_buf *b);
void rec_buf_reset(struct rec_buf *b);
void rec_put_raw(struct rec_buf *b, const void *p, size_t n);
void rec_put_varint(struct rec_buf *b, uint64_t v);
void rec_put_uint(struct rec_buf *b, unsigned int field, uint64_t v);
void rec_put_sint(struct rec_buf *b, unsigned int field, int64_t v);
void rec_put_double(struct rec_buf *b, unsigned int field, double v);
void rec_put_bytes(struct rec_buf *b, unsigned int field, const void *p, size_t n);
void rec_put_str(struct rec_buf *b, unsigned int field, const char *s);
/* A nested message: begin() reserves the length, end() writes it (nesting is a stack in the caller). */
size_t rec_put_begin(struct rec_buf *b, unsigned int field);
void rec_put_end(struct rec_buf *b, size_t mark);

static inline uint64_t rec_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t rec_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* A read cursor over one message; err sticks at the first malformed byte. */
struct rec_cur {
	const uint8_t *p, *end;
	const uint8_t *base;		/* for offsets in messages */
	const char *err;		/* what was expected, NULL while fine */
	size_t err_off;			/* where, from base */
};

/* One field as read: its number, wire type and value (u for varints and fixed64, bytes/len for BYTES). */
struct rec_field {
	unsigned int num;
	enum rec_wire wire;
	uint64_t u;
	const uint8_t *bytes;
	size_t len;
};

void rec_cur_init(struct rec_cur *c, const void *p, size_t n, const void *base);
/* The next field; false at the end or on an error (c->err). */
bool rec_next(struct rec_cur *c, struct rec_field *f);
bool rec_get_varint(struct rec_cur *c, uint64_t *v);
/* A cursor over a BYTES field's content (a nested message). */
void rec_cur_sub(struct rec_cur *sub, const struct rec_cur *parent, const struct rec_field *f);
/* Mark c failed at p with what was expected (first error wins). */
void rec_fail(struct rec_cur *c, const uint8_t *p, const char *expected);
double rec_field_double(const struct rec_field *f);
/* A BYTES field as a string into buf (truncated to size - 1, NULs ended). */
void rec_field_str(const struct rec_field *f, char *buf, size_t size);

uint32_t rec_crc32(uint32_t crc, const void *p, size_t n);

#endif
