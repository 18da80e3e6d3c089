// SPDX-License-Identifier: GPL-2.0-or-later
/* Wire message parsing and packing for the probe: the one place big-endian fields are converted. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "probe/wire.h"
#include "util.h"

_Static_assert(sizeof(struct wire_rping_info_raw) == WIRE_RPING_INFO_LEN, "rping info is 16 bytes");
_Static_assert(offsetof(struct wire_rping_info_raw, buf) == 0, "rping buf at 0");
_Static_assert(offsetof(struct wire_rping_info_raw, rkey) == 8, "rping rkey at 8");
_Static_assert(offsetof(struct wire_rping_info_raw, size) == 12, "rping size at 12");
_Static_assert(sizeof(struct wire_hello_raw) == WIRE_HELLO_LEN, "hello is 32 bytes");
_Static_assert(offsetof(struct wire_hello_raw, version) == 4, "hello version at 4");
_Static_assert(offsetof(struct wire_hello_raw, size) == 8, "hello size at 8");
_Static_assert(offsetof(struct wire_hello_raw, count) == 12, "hello count at 12");
_Static_assert(offsetof(struct wire_hello_raw, reserved) == 20, "hello reserved at 20");
_Static_assert(WIRE_HELLO_LEN <= 56, "must fit a CM REQ's private data after rdma_cm's header");
_Static_assert(sizeof(struct wire_accept_raw) == WIRE_ACCEPT_LEN, "accept is 32 bytes");
_Static_assert(offsetof(struct wire_accept_raw, addr) == 8, "accept addr at 8");
_Static_assert(offsetof(struct wire_accept_raw, rkey) == 16, "accept rkey at 16");
_Static_assert(offsetof(struct wire_accept_raw, size) == 20, "accept size at 20");
_Static_assert(sizeof(struct wire_reject_raw) == WIRE_REJECT_LEN, "reject is 32 bytes");
_Static_assert(offsetof(struct wire_reject_raw, text) == 8, "reject text at 8");
_Static_assert(sizeof(struct wire_msg_raw) == WIRE_MSG_HDR_LEN, "msg header is 16 bytes");
_Static_assert(offsetof(struct wire_msg_raw, len) == 4, "msg len at 4");
_Static_assert(offsetof(struct wire_msg_raw, seq) == 8, "msg seq at 8");

static const uint8_t magic_hello[4] = { 'F', 'B', 'T', 'H' };
static const uint8_t magic_accept[4] = { 'F', 'B', 'T', 'A' };
static const uint8_t magic_reject[4] = { 'F', 'B', 'T', 'R' };

/* Big-endian accessors: byte by byte, so alignment never matters. */
static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

static int all_zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static const char *const wire_err_names[] = {
	[WIRE_OK] = "ok",
	[WIRE_NOT_OURS] = "not a fabtop message",
	[WIRE_SHORT] = "message too short",
	[WIRE_BAD_LENGTH] = "length does not match",
	[WIRE_BAD_VERSION] = "unknown protocol version",
	[WIRE_BAD_MODE] = "unknown mode",
	[WIRE_BAD_FIELD] = "reserved field or type invalid",
	[WIRE_BAD_SIZE] = "size out of range",
	[WIRE_BAD_DEPTH] = "queue depth out of range",
	[WIRE_BAD_PAYLOAD] = "payload not in rping's format",
};

const char *wire_err_str(enum wire_err e)
{
	if ((unsigned int)e >= ARRAY_SIZE(wire_err_names) || !wire_err_names[e])
		return "unknown error";
	return wire_err_names[e];
}

enum wire_err wire_rping_info_parse(const void *buf, size_t len, struct wire_rping_info *out)
{
	const struct wire_rping_info_raw *r = buf;

	if (len < WIRE_RPING_INFO_LEN)
		return WIRE_SHORT;
	if (len != WIRE_RPING_INFO_LEN)
		return WIRE_BAD_LENGTH;
	out->addr = get_be64(r->buf);
	out->rkey = get_be32(r->rkey);
	out->len = get_be32(r->size);
	return WIRE_OK;
}

void wire_rping_info_pack(const struct wire_rping_info *in, void *buf)
{
	struct wire_rping_info_raw *r = buf;

	put_be64(r->buf, in->addr);
	put_be32(r->rkey, in->rkey);
	put_be32(r->size, in->len);
}

/* rping's letters run 'A' (65) to 'z' (122) and wrap; each ping starts one later. */
#define RP_FIRST 65
#define RP_LAST 122
#define RP_SPAN (RP_LAST - RP_FIRST + 1)

void wire_rping_payload_fill(void *buf, size_t size, uint64_t ping)
{
	char *b = buf;
	int cc;
	size_t i;
	unsigned int c;

	if (!size)
		return;
	/* rping prints the ping number as an int */
	cc = snprintf(b, size, "rdma-ping-%d: ", (int)(ping & 0x7fffffff));
	if (cc < 0)
		cc = 0;
	c = RP_FIRST + (unsigned int)(ping % RP_SPAN);
	for (i = (size_t)cc; i < size; i++) {
		b[i] = (char)c;
		if (++c > RP_LAST)
			c = RP_FIRST;
	}
	b[size - 1] = 0;
}

enum wire_err wire_rping_payload_check(const void *buf, size_t len, uint64_t *ping)
{
	static const char prefix[] = "rdma-ping-";
	const char *b = buf;
	size_t i, pl = sizeof(prefix) - 1;
	uint64_t n = 0;
	unsigned int c;

	if (len < WIRE_RPING_MIN_SIZE)
		return WIRE_SHORT;
	if (memcmp(b, prefix, pl))
		return WIRE_BAD_PAYLOAD;
	for (i = pl; i < len && i < pl + 10 && b[i] >= '0' && b[i] <= '9'; i++)
		n = n * 10 + (uint64_t)(b[i] - '0');
	if (i == pl || n > 0x7fffffff || i + 2 > len || b[i] != ':' || b[i + 1] != ' ')
		return WIRE_BAD_PAYLOAD;
	i += 2;
	c = RP_FIRST + (unsigned int)(n % RP_SPAN);
	for (; i < len - 1; i++) {
		if ((unsigned char)b[i] != c)
			return WIRE_BAD_PAYLOAD;
		if (++c > RP_LAST)
			c = RP_FIRST;
	}
	if (b[len - 1] != 0)
		return WIRE_BAD_PAYLOAD;
	if (ping)
		*ping = n;
	return WIRE_OK;
}

enum wire_err wire_hello_parse(const void *buf, size_t len, struct wire_hello *out)
{
	const struct wire_hello_raw *r = buf;

	/* IB pads private data with zeros: a stock client shows up as 56 zero bytes */
	if (len < sizeof(r->magic) || memcmp(r->magic, magic_hello, sizeof(magic_hello)))
		return WIRE_NOT_OURS;
	if (len < WIRE_HELLO_LEN)
		return WIRE_SHORT;
	if (r->version != WIRE_VERSION)
		return WIRE_BAD_VERSION;
	if (r->mode >= WIRE_MODES)
		return WIRE_BAD_MODE;
	if ((r->flags & ~WIRE_HELLO_SEND) || ((r->flags & WIRE_HELLO_SEND) && r->mode != WIRE_MODE_BW) ||
	    !all_zero(r->reserved, sizeof(r->reserved)))
		return WIRE_BAD_FIELD;
	out->version = r->version;
	out->mode = r->mode;
	out->flags = r->flags;
	out->depth = r->depth;
	out->size = get_be32(r->size);
	out->count = get_be64(r->count);
	switch (out->mode) {
	case WIRE_MODE_BW:
		if (out->flags & WIRE_HELLO_SEND) {
			/* each SEND carries a header; the server keeps 32 receives of this size */
			if (out->size < WIRE_MSG_HDR_LEN || out->size > WIRE_MAX_SEND_SIZE)
				return WIRE_BAD_SIZE;
			if (out->depth < 1 || out->depth > WIRE_MAX_SEND_DEPTH)
				return WIRE_BAD_DEPTH;
			break;
		}
		if (out->size < 1 || out->size > WIRE_MAX_BW_SIZE)
			return WIRE_BAD_SIZE;
		if (out->depth < 1 || out->depth > WIRE_MAX_DEPTH)
			return WIRE_BAD_DEPTH;
		break;
	case WIRE_MODE_LAT:
		if (out->size < WIRE_MSG_HDR_LEN || out->size > WIRE_MAX_LAT_SIZE)
			return WIRE_BAD_SIZE;
		break;
	default: /* rping: the size comes with each advertisement */
		break;
	}
	return WIRE_OK;
}

void wire_hello_pack(const struct wire_hello *in, void *buf)
{
	struct wire_hello_raw *r = buf;

	memset(r, 0, sizeof(*r));
	memcpy(r->magic, magic_hello, sizeof(r->magic));
	r->version = in->version;
	r->mode = in->mode;
	r->flags = in->flags;
	r->depth = in->depth;
	put_be32(r->size, in->size);
	put_be64(r->count, in->count);
}

enum wire_err wire_accept_parse(const void *buf, size_t len, struct wire_accept *out)
{
	const struct wire_accept_raw *r = buf;

	if (len < sizeof(r->magic) || memcmp(r->magic, magic_accept, sizeof(magic_accept)))
		return WIRE_NOT_OURS;
	if (len < WIRE_ACCEPT_LEN)
		return WIRE_SHORT;
	if (r->version != WIRE_VERSION)
		return WIRE_BAD_VERSION;
	if (r->mode >= WIRE_MODES)
		return WIRE_BAD_MODE;
	out->version = r->version;
	out->mode = r->mode;
	out->addr = get_be64(r->addr);
	out->rkey = get_be32(r->rkey);
	out->size = get_be32(r->size);
	return WIRE_OK;
}

void wire_accept_pack(const struct wire_accept *in, void *buf)
{
	struct wire_accept_raw *r = buf;

	memset(r, 0, sizeof(*r));
	memcpy(r->magic, magic_accept, sizeof(r->magic));
	r->version = in->version;
	r->mode = in->mode;
	put_be64(r->addr, in->addr);
	put_be32(r->rkey, in->rkey);
	put_be32(r->size, in->size);
}

enum wire_err wire_reject_parse(const void *buf, size_t len, struct wire_reject *out)
{
	const struct wire_reject_raw *r = buf;
	size_t i;

	if (len < sizeof(r->magic) || memcmp(r->magic, magic_reject, sizeof(magic_reject)))
		return WIRE_NOT_OURS;
	if (len < WIRE_REJECT_LEN)
		return WIRE_SHORT;
	if (r->version != WIRE_VERSION)
		return WIRE_BAD_VERSION;
	out->code = r->code;
	/* the text is for people: keep printable ASCII only */
	for (i = 0; i < WIRE_REJECT_TEXT && r->text[i]; i++)
		out->text[i] = (r->text[i] >= 0x20 && r->text[i] < 0x7f) ? r->text[i] : '?';
	out->text[i] = 0;
	return WIRE_OK;
}

void wire_reject_pack(uint8_t code, const char *text, void *buf)
{
	struct wire_reject_raw *r = buf;

	memset(r, 0, sizeof(*r));
	memcpy(r->magic, magic_reject, sizeof(r->magic));
	r->version = WIRE_VERSION;
	r->code = code;
	/* NUL-padded, and not necessarily terminated when the text fills it */
	if (text)
		memcpy(r->text, text, strnlen(text, sizeof(r->text)));
}

static const char *const reject_code_names[] = {
	[WIRE_REJ_BUSY] = "server busy: connection limit reached",
	[WIRE_REJ_BAD_HELLO] = "server refused the request parameters",
	[WIRE_REJ_NO_RESOURCES] = "server out of resources",
	[WIRE_REJ_SHUTTING_DOWN] = "server shutting down",
	[WIRE_REJ_PER_SOURCE] = "server busy: too many connections from this address",
};

const char *wire_reject_code_str(uint8_t code)
{
	if (code >= ARRAY_SIZE(reject_code_names) || !reject_code_names[code])
		return "unknown reason";
	return reject_code_names[code];
}

enum wire_err wire_msg_parse(const void *buf, size_t len, struct wire_msg *out)
{
	const struct wire_msg_raw *r = buf;

	if (len < WIRE_MSG_HDR_LEN)
		return WIRE_SHORT;
	if (get_be32(r->len) != len)
		return WIRE_BAD_LENGTH;
	if (r->type < WIRE_MSG_PING || r->type > WIRE_MSG_PROGRESS || !all_zero(r->pad, sizeof(r->pad)))
		return WIRE_BAD_FIELD;
	out->type = r->type;
	out->len = (uint32_t)len;
	out->seq = get_be64(r->seq);
	return WIRE_OK;
}

void wire_msg_pack(const struct wire_msg *in, void *buf)
{
	struct wire_msg_raw *r = buf;

	memset(r, 0, sizeof(*r));
	r->type = in->type;
	put_be32(r->len, in->len);
	put_be64(r->seq, in->seq);
}
