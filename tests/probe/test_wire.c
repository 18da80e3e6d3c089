// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the probe's wire parsers: round trips, rping's format, malformed and random input. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "probe/wire.h"
#include "../unit/tap.h"

static void test_rping_info(void)
{
	/* bytes as rping puts them on the wire: be64 addr, be32 rkey, be32 size */
	static const uint8_t raw[16] = { 0x00, 0x00, 0x7f, 0x12, 0x34, 0x56, 0x78, 0x9a,
					 0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x40 };
	struct wire_rping_info in, out;
	uint8_t b[32];

	ASSERT_EQ_INT(wire_rping_info_parse(raw, 16, &out), WIRE_OK, "rping info: 16 bytes parse");
	ASSERT_EQ_U64(out.addr, 0x00007f123456789aull, "rping info: big-endian address");
	ASSERT_EQ_U64(out.rkey, 0xdeadbeef, "rping info: big-endian rkey");
	ASSERT_EQ_U64(out.len, 64, "rping info: big-endian size");
	ASSERT_EQ_INT(wire_rping_info_parse(raw, 15, &out), WIRE_SHORT, "rping info: 15 bytes is short");
	ASSERT_EQ_INT(wire_rping_info_parse(raw, 17, &out), WIRE_BAD_LENGTH, "rping info: 17 bytes is bad");
	ASSERT_EQ_INT(wire_rping_info_parse(raw, 0, &out), WIRE_SHORT, "rping info: empty is short");
	in.addr = 0x0102030405060708ull;
	in.rkey = 0x11223344;
	in.len = 0x55667788;
	wire_rping_info_pack(&in, b);
	TAP_OK(b[0] == 1 && b[7] == 8 && b[8] == 0x11 && b[15] == 0x88, "rping info: packs big-endian (%02x %02x %02x %02x)",
	       b[0], b[7], b[8], b[15]);
	wire_rping_info_parse(b, 16, &out);
	TAP_OK(!memcmp(&in, &out, sizeof(in)), "rping info: pack/parse round trip");
}

static void test_rping_payload(void)
{
	char b[100];
	uint64_t ping = 0;

	/* what rping -c puts in its buffer for ping 0 at -S 64 */
	wire_rping_payload_fill(b, 64, 0);
	ASSERT_EQ_STR(b, "rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr",
		      "payload: ping 0 is rping's (see two-nic-scenario.log)");
	wire_rping_payload_fill(b, 64, 9);
	ASSERT_EQ_STR(b, "rdma-ping-9: JKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyzA",
		      "payload: ping 9 wraps z -> A like rping");
	ASSERT_EQ_INT(wire_rping_payload_check(b, 64, &ping), WIRE_OK, "payload: ping 9 checks");
	ASSERT_EQ_U64(ping, 9, "payload: ping number recovered");
	wire_rping_payload_fill(b, 100, 57);
	ASSERT_EQ_INT(wire_rping_payload_check(b, 100, &ping), WIRE_OK, "payload: ping 57 (start z)");
	wire_rping_payload_fill(b, 100, 58);
	ASSERT_EQ_INT(b[14], 'A', "payload: ping 58 starts at A again");
	wire_rping_payload_fill(b, 64, 3);
	b[40] ^= 1;
	ASSERT_EQ_INT(wire_rping_payload_check(b, 64, &ping), WIRE_BAD_PAYLOAD, "payload: one flipped byte is caught");
	wire_rping_payload_fill(b, 64, 3);
	b[63] = 'x';
	ASSERT_EQ_INT(wire_rping_payload_check(b, 64, &ping), WIRE_BAD_PAYLOAD, "payload: missing NUL is caught");
	ASSERT_EQ_INT(wire_rping_payload_check("rdma-ping-", 10, &ping), WIRE_SHORT, "payload: too short");
	memcpy(b, "rdma-ping-x: ", 13);
	ASSERT_EQ_INT(wire_rping_payload_check(b, 64, &ping), WIRE_BAD_PAYLOAD, "payload: no number");
	memcpy(b, "rdma-ping-99999999999: ", 23);
	ASSERT_EQ_INT(wire_rping_payload_check(b, 64, &ping), WIRE_BAD_PAYLOAD, "payload: number too long");
}

static void test_hello(void)
{
	struct wire_hello h = { .version = WIRE_VERSION, .mode = WIRE_MODE_BW, .depth = 16, .size = 65536,
				.count = 123456789012ull }, o;
	uint8_t b[56] = { 0 };

	wire_hello_pack(&h, b);
	ASSERT_EQ_INT(wire_hello_parse(b, 56, &o), WIRE_OK, "hello: round trip in 56 bytes of REQ data");
	ASSERT_EQ_INT(o.mode, WIRE_MODE_BW, "hello: the mode survives");
	ASSERT_EQ_U64(o.depth, 16, "hello: the depth survives");
	ASSERT_EQ_U64(o.size, 65536, "hello: the size survives");
	ASSERT_EQ_U64(o.count, 123456789012ull, "hello: the count survives");
	memset(b, 0, sizeof(b));
	ASSERT_EQ_INT(wire_hello_parse(b, 56, &o), WIRE_NOT_OURS, "hello: rping's zero private data is not ours");
	ASSERT_EQ_INT(wire_hello_parse(b, 0, &o), WIRE_NOT_OURS, "hello: no private data is not ours");
	wire_hello_pack(&h, b);
	ASSERT_EQ_INT(wire_hello_parse(b, 31, &o), WIRE_SHORT, "hello: truncated");
	b[4] = 2;
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_BAD_VERSION, "hello: version 2 refused");
	wire_hello_pack(&h, b);
	b[5] = 3;
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_BAD_MODE, "hello: mode 3 refused");
	wire_hello_pack(&h, b);
	b[6] = 2;
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_BAD_FIELD, "hello: unknown flag refused");
	b[6] = WIRE_HELLO_SEND;
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_OK, "hello: bw with SENDs");
	ASSERT_EQ_INT(o.flags, WIRE_HELLO_SEND, "hello: SEND flag kept");
	b[8] = 0x00;
	b[9] = 0x02;	/* size 131072 > WIRE_MAX_SEND_SIZE */
	b[10] = 0x00;
	b[11] = 0x00;
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_BAD_SIZE, "hello: SENDs of 128 KiB refused");
	wire_hello_pack(&h, b);
	b[6] = WIRE_HELLO_SEND;
	b[7] = 17;
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_BAD_DEPTH, "hello: SEND depth 17 refused");
	wire_hello_pack(&h, b);
	b[5] = WIRE_MODE_LAT;
	b[6] = WIRE_HELLO_SEND;
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_BAD_FIELD, "hello: SEND flag outside bw refused");
	wire_hello_pack(&h, b);
	b[31] = 1;
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_BAD_FIELD, "hello: reserved byte refused");
	h.size = WIRE_MAX_BW_SIZE + 1;
	wire_hello_pack(&h, b);
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_BAD_SIZE, "hello: bw size over the limit");
	h.size = 0;
	wire_hello_pack(&h, b);
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_BAD_SIZE, "hello: bw size 0");
	h.size = 4096;
	h.depth = 0;
	wire_hello_pack(&h, b);
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_BAD_DEPTH, "hello: depth 0");
	h.depth = WIRE_MAX_DEPTH + 1;
	wire_hello_pack(&h, b);
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_BAD_DEPTH, "hello: depth over the limit");
	h.mode = WIRE_MODE_LAT;
	h.size = WIRE_MSG_HDR_LEN - 1;
	wire_hello_pack(&h, b);
	ASSERT_EQ_INT(wire_hello_parse(b, 32, &o), WIRE_BAD_SIZE, "hello: lat message smaller than its header");
}

static void test_accept_reject(void)
{
	struct wire_accept a = { .version = WIRE_VERSION, .mode = WIRE_MODE_BW, .addr = 0xfeedface12345678ull,
				 .rkey = 77, .size = 4096 }, ao;
	struct wire_reject r;
	uint8_t b[WIRE_REJECT_LEN];
	char big[40];

	wire_accept_pack(&a, b);
	ASSERT_EQ_INT(wire_accept_parse(b, sizeof(b), &ao), WIRE_OK, "accept: round trip");
	ASSERT_EQ_U64(ao.addr, a.addr, "accept: the address survives");
	ASSERT_EQ_U64(ao.rkey, 77, "accept: the rkey survives");
	ASSERT_EQ_U64(ao.size, 4096, "accept: the size survives");
	ASSERT_EQ_INT(wire_accept_parse(b, 20, &ao), WIRE_SHORT, "accept: truncated");
	memset(b, 0, sizeof(b));
	ASSERT_EQ_INT(wire_accept_parse(b, sizeof(b), &ao), WIRE_NOT_OURS, "accept: rping's none");

	wire_reject_pack(WIRE_REJ_BUSY, "full", b);
	ASSERT_EQ_INT(wire_reject_parse(b, sizeof(b), &r), WIRE_OK, "reject: round trip");
	ASSERT_EQ_STR(r.text, "full", "reject: text");
	ASSERT_EQ_STR(wire_reject_code_str(r.code), "server busy: connection limit reached", "reject: code named");
	memset(big, 'Z', sizeof(big));
	big[39] = 0;
	wire_reject_pack(WIRE_REJ_BAD_HELLO, big, b);
	wire_reject_parse(b, sizeof(b), &r);
	ASSERT_EQ_INT(strlen(r.text), WIRE_REJECT_TEXT, "reject: long text cut, still terminated");
	b[8] = '\n';
	wire_reject_parse(b, sizeof(b), &r);
	ASSERT_EQ_INT(r.text[0], '?', "reject: control characters from the peer are masked");
	ASSERT_EQ_STR(wire_reject_code_str(200), "unknown reason", "reject: unknown code");
}

static void test_msg(void)
{
	struct wire_msg m = { .type = WIRE_MSG_PING, .len = 64, .seq = 42 }, o;
	uint8_t b[64] = { 0 };

	wire_msg_pack(&m, b);
	ASSERT_EQ_INT(wire_msg_parse(b, 64, &o), WIRE_OK, "msg: round trip");
	ASSERT_EQ_U64(o.seq, 42, "msg: seq");
	ASSERT_EQ_INT(wire_msg_parse(b, 63, &o), WIRE_BAD_LENGTH, "msg: received length must match");
	ASSERT_EQ_INT(wire_msg_parse(b, 15, &o), WIRE_SHORT, "msg: shorter than the header");
	b[0] = 9;
	ASSERT_EQ_INT(wire_msg_parse(b, 64, &o), WIRE_BAD_FIELD, "msg: unknown type");
	b[0] = WIRE_MSG_PING;
	b[2] = 1;
	ASSERT_EQ_INT(wire_msg_parse(b, 64, &o), WIRE_BAD_FIELD, "msg: pad must be zero");
	m.type = WIRE_MSG_PROGRESS;
	m.len = 16;
	m.seq = 1ull << 40;
	wire_msg_pack(&m, b);
	ASSERT_EQ_INT(wire_msg_parse(b, 16, &o), WIRE_OK, "msg: PROGRESS");
	ASSERT_EQ_U64(o.seq, 1ull << 40, "msg: 64-bit seq");
	b[0] = WIRE_MSG_PROGRESS + 1;
	ASSERT_EQ_INT(wire_msg_parse(b, 16, &o), WIRE_BAD_FIELD, "msg: type after the last");
	ASSERT_EQ_STR(wire_err_str(WIRE_BAD_DEPTH), "queue depth out of range", "wire_err_str");
	ASSERT_EQ_STR(wire_err_str((enum wire_err)99), "unknown error", "wire_err_str: out of range");
}

/* Random bytes into every parser: no crash, no out-of-bounds read (ASan in CI). */
static void test_fuzz(void)
{
	unsigned int seed = 12345, i, j;
	struct wire_rping_info ri;
	struct wire_hello h;
	struct wire_accept a;
	struct wire_reject r;
	struct wire_msg m;
	uint64_t ping;
	int ok_hello = 0, hello_without_magic = 0, hello_out_of_range = 0, msg_bad_type = 0;

	for (i = 0; i < 20000; i++) {
		size_t len = (size_t)(rand_r(&seed) % 80);
		uint8_t *b = malloc(len ? len : 1);

		for (j = 0; j < len; j++)
			b[j] = (uint8_t)rand_r(&seed);
		if (len >= 4 && i % 3 == 0)
			memcpy(b, "FBTH", 4);
		if (len >= 10 && i % 5 == 0)
			memcpy(b, "rdma-ping-", 10);
		wire_rping_info_parse(b, len, &ri);
		if (wire_hello_parse(b, len, &h) == WIRE_OK) {
			ok_hello++;
			hello_without_magic += memcmp(b, "FBTH", 4) != 0;
			/* what a parser accepts is what the server may act on: within its bounds */
			hello_out_of_range += h.version != WIRE_VERSION || h.mode >= WIRE_MODES;
		}
		wire_accept_parse(b, len, &a);
		wire_reject_parse(b, len, &r);
		if (wire_msg_parse(b, len, &m) == WIRE_OK && len >= 1)
			msg_bad_type += m.len > len;
		wire_rping_payload_check(b, len, &ping);
		free(b);
	}
	ASSERT_EQ_INT(hello_without_magic, 0, "random bytes: no hello accepted without its magic");
	ASSERT_EQ_INT(hello_out_of_range, 0, "random bytes: an accepted hello has a known version and mode");
	ASSERT_EQ_INT(msg_bad_type, 0, "random bytes: an accepted message is no longer than its buffer");
	printf("# 20000 random inputs through every parser (%d hellos happened to be valid)\n", ok_hello);
}

int main(void)
{
	test_rping_info();
	test_rping_payload();
	test_hello();
	test_accept_reject();
	test_msg();
	test_fuzz();
	return tap_done();
}
