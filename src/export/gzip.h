/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One gzip member made of pieces deflated apart: the page once per publish, the tail per scrape. */
#ifndef FABTOP_EXPORT_GZIP_H
#define FABTOP_EXPORT_GZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A run of raw deflate blocks that ends on a byte and is not the last
 * (deflate's Z_SYNC_FLUSH): parts laid end to end are one deflate stream,
 * as pigz joins the blocks it compressed apart, and a last piece deflated
 * with Z_FINISH between the gzip header and trailer makes one member that
 * any gzip reader takes (doc/export.md).
 */
struct gzip_part {
	unsigned char *data;		/* NULL: not made */
	size_t len;
	uint32_t crc;			/* CRC-32 of the text it holds */
	uint64_t text_len;
};

/* The 10 bytes every member starts with (no name, no time). */
#define GZIP_HEADER_LEN	10
extern const unsigned char gzip_header[GZIP_HEADER_LEN];

/* Deflate len bytes of text at level (1-9) into p; 0 or -ENOMEM. */
int gzip_part_make(struct gzip_part *p, const char *text, size_t len, int level);
/* a then b as one part in out; 0 or -ENOMEM. */
int gzip_part_join(struct gzip_part *out, const struct gzip_part *a, const struct gzip_part *b);
void gzip_part_free(struct gzip_part *p);
/*
 * What follows gzip_header and body in a member ending with tail: tail
 * deflated to the last block, then the trailer (CRC-32 and length of all
 * the text). A new buffer in *out; 0 or -ENOMEM.
 */
int gzip_finish(const struct gzip_part *body, const char *tail, size_t tail_len, unsigned char **out, size_t *out_len);

/*
 * Does an Accept-Encoding header take gzip? "gzip" or "x-gzip" with a
 * q-value above 0, else "*" above 0 when gzip is not named (RFC 9110,
 * 12.5.3); NULL or garbage: no.
 */
bool gzip_accepted(const char *accept_encoding);

#endif
