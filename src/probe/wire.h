/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probe's wire messages: rping's buffer advertisement and fabtop's own, parsed from bytes. */
#ifndef FABTOP_PROBE_WIRE_H
#define FABTOP_PROBE_WIRE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Every message is described twice: a *_raw struct that is exactly the bytes
 * on the wire (only uint8_t arrays, so no padding, no alignment, no
 * endianness surprises; sizes and offsets are _Static_assert'ed in wire.c),
 * and a host-order struct that the rest of the probe uses. The parse
 * functions take bytes and a length, check everything, and are the only
 * place big-endian fields are converted, so they can be fuzzed alone.
 */

/* rping: "here is a buffer: addr, rkey, len" (librdmacm/examples/rping.c). */
#define WIRE_RPING_INFO_LEN	16
struct wire_rping_info_raw {
	uint8_t buf[8];		/* __be64 virtual address */
	uint8_t rkey[4];	/* __be32 */
	uint8_t size[4];	/* __be32 bytes */
};
struct wire_rping_info {
	uint64_t addr;
	uint32_t rkey;
	uint32_t len;
};

/* rping's payload: "rdma-ping-%d: " then letters 'A'..'z' rotating, NUL last. */
#define WIRE_RPING_MIN_SIZE	26	/* rping: sizeof("2147483647") + sizeof("rdma-ping-%d: ") */
#define WIRE_RPING_MAX_SIZE	65535	/* rping: RPING_BUFSIZE - 1 */

/* fabtop's connect private data: which mode, what size. 32 bytes (a REQ carries 56). */
#define WIRE_HELLO_LEN		32
#define WIRE_VERSION		1
struct wire_hello_raw {
	uint8_t magic[4];	/* "FBTH" */
	uint8_t version;	/* WIRE_VERSION */
	uint8_t mode;		/* enum probe_mode */
	uint8_t flags;		/* WIRE_HELLO_* bits; others must be 0 */
	uint8_t depth;		/* bw: writes outstanding */
	uint8_t size[4];	/* __be32 message size */
	uint8_t count[8];	/* __be64 messages the client will send, 0: unbounded */
	uint8_t reserved[12];	/* zero */
};
#define WIRE_HELLO_SEND		0x01	/* bw: SENDs (server receives and counts) instead of WRITEs */
struct wire_hello {
	uint8_t version, mode, flags, depth;
	uint32_t size;
	uint64_t count;
};

/* Server's accept private data: for bw, the sink buffer to write into. */
#define WIRE_ACCEPT_LEN		32
struct wire_accept_raw {
	uint8_t magic[4];	/* "FBTA" */
	uint8_t version;
	uint8_t mode;		/* echoes the hello's */
	uint8_t pad[2];
	uint8_t addr[8];	/* __be64 sink address (bw), else 0 */
	uint8_t rkey[4];	/* __be32 */
	uint8_t size[4];	/* __be32 sink bytes */
	uint8_t reserved[8];
};
struct wire_accept {
	uint8_t version, mode;
	uint64_t addr;
	uint32_t rkey, size;
};

/* Server's reject private data (the client sees REJECTED, reason 28). */
#define WIRE_REJECT_LEN		32
#define WIRE_REJECT_TEXT	24
struct wire_reject_raw {
	uint8_t magic[4];	/* "FBTR" */
	uint8_t version;
	uint8_t code;		/* enum wire_reject_code */
	uint8_t pad[2];
	char text[WIRE_REJECT_TEXT];	/* NUL-padded detail, not necessarily terminated */
};
enum wire_reject_code {
	WIRE_REJ_BUSY = 1,	/* connection limit reached */
	WIRE_REJ_BAD_HELLO,	/* the hello failed validation */
	WIRE_REJ_NO_RESOURCES,	/* could not allocate the connection */
	WIRE_REJ_SHUTTING_DOWN,
	WIRE_REJ_PER_SOURCE,	/* this source address holds its share of the connections */
};
struct wire_reject {
	uint8_t code;
	char text[WIRE_REJECT_TEXT + 1];	/* always terminated */
};

/* bw/lat control SENDs: a 16-byte header, then filler up to the message size. */
#define WIRE_MSG_HDR_LEN	16
struct wire_msg_raw {
	uint8_t type;		/* enum wire_msg_type */
	uint8_t pad[3];		/* zero */
	uint8_t len[4];		/* __be32 whole message length, header included */
	uint8_t seq[8];		/* __be64 sequence (lat) or value (bw FIN: writes done) */
};
enum wire_msg_type {
	WIRE_MSG_PING = 1,	/* lat: echo me */
	WIRE_MSG_PONG,		/* lat: the echo */
	WIRE_MSG_FIN,		/* bw: writes are over, seq = how many */
	WIRE_MSG_FIN_ACK,	/* bw: server saw FIN, seq = FIN's seq */
	WIRE_MSG_DATA,		/* bw with SENDs: one message, seq = its number */
	WIRE_MSG_PROGRESS,	/* bw with WRITEs: writes completed so far (keeps the server's idle timer) */
};
struct wire_msg {
	uint8_t type;
	uint32_t len;
	uint64_t seq;
};

/* Results of the parsers. */
enum wire_err {
	WIRE_OK = 0,
	WIRE_NOT_OURS,		/* no fabtop magic: a stock rping client (or garbage) */
	WIRE_SHORT,		/* fewer bytes than the message */
	WIRE_BAD_LENGTH,	/* length field or byte count disagrees */
	WIRE_BAD_VERSION,
	WIRE_BAD_MODE,
	WIRE_BAD_FIELD,		/* flags/reserved/pad not zero, unknown type */
	WIRE_BAD_SIZE,		/* size outside the allowed range */
	WIRE_BAD_DEPTH,
	WIRE_BAD_PAYLOAD,	/* rping payload not in rping's format */
};
const char *wire_err_str(enum wire_err e);

/* Limits a server accepts (memory is bounded by them). */
#define WIRE_MAX_BW_SIZE	(1u << 20)
#define WIRE_MAX_LAT_SIZE	65536u
#define WIRE_MAX_DEPTH		64u
#define WIRE_MAX_SEND_SIZE	65536u	/* bw with SENDs: the server posts 32 of these (2 MiB) */
#define WIRE_MAX_SEND_DEPTH	16u
enum wire_mode { WIRE_MODE_RPING, WIRE_MODE_BW, WIRE_MODE_LAT, WIRE_MODES };

/* rping advertisement: exactly 16 bytes. */
enum wire_err wire_rping_info_parse(const void *buf, size_t len, struct wire_rping_info *out);
void wire_rping_info_pack(const struct wire_rping_info *in, void *buf);

/* Fills size bytes as rping's client does for ping number ping. */
void wire_rping_payload_fill(void *buf, size_t size, uint64_t ping);
/* Checks len bytes against rping's format; sets *ping to the number it carries. */
enum wire_err wire_rping_payload_check(const void *buf, size_t len, uint64_t *ping);

/* Hello: WIRE_NOT_OURS when the magic is absent (rping sends no private data). */
enum wire_err wire_hello_parse(const void *buf, size_t len, struct wire_hello *out);
void wire_hello_pack(const struct wire_hello *in, void *buf);

enum wire_err wire_accept_parse(const void *buf, size_t len, struct wire_accept *out);
void wire_accept_pack(const struct wire_accept *in, void *buf);

enum wire_err wire_reject_parse(const void *buf, size_t len, struct wire_reject *out);
void wire_reject_pack(uint8_t code, const char *text, void *buf);
const char *wire_reject_code_str(uint8_t code);

/* Control message; len is the received byte count and must equal the header's. */
enum wire_err wire_msg_parse(const void *buf, size_t len, struct wire_msg *out);
/* Writes the header into buf (total len bytes; filler is the caller's). */
void wire_msg_pack(const struct wire_msg *in, void *buf);

#endif
