// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: the probe server's connection logic, run over a fake librdmacm/libibverbs that the input drives. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_rdma.h"
#include "probe/probe.h"
#include "probe/wire.h"

/*
 * The input, byte by byte (missing bytes read as 0):
 *
 *   0      options: bits 0-1 --max-conns - 1; bits 2-3 --once count (serve_conns);
 *          bit 4 --spin-us 20; bit 5 rdma_disconnect() is answered at once
 *          (DISCONNECTED queued); bits 6-7 non-zero: byte 2 picks a call of
 *          probe_start() to fail (channel, id, bind, listen)
 *   1      --timeout-ms 50 * (1 + low 4 bits), --idle-ms 100 * (1 + high 4 bits)
 *   then up to MAX_STEPS steps: an op byte (bit 7: do not call probe_handle()
 *   after it, so events pile up) and its operands, below in step().
 *
 * After each step: probe_handle(p, now), every fd of probe_fds() must be a
 * live channel's, and no more than --max-conns connections may be active.
 * At the end: probe_stop(), time passes beyond --timeout-ms, the server must
 * be DONE by then; probe_free(), and the fake aborts on anything left over.
 */

#define MAX_STEPS 256
#define MS 1000000ull

enum op {
	OP_CONNECT, OP_ESTABLISHED, OP_DISCONNECTED, OP_CM_ERROR, OP_SEND, OP_SQ_COMPLETE,
	OP_WC_ERROR, OP_SLEEP, OP_FAIL, OP_STOP, OP_RPING_PING, OP_HANDLE,
	OPS
};

struct in {
	const uint8_t *d;
	size_t n;
};

static uint8_t in_u8(struct in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->d++;
}

static uint16_t in_u16(struct in *in)
{
	uint16_t v = in_u8(in);

	return (uint16_t)(v << 8 | in_u8(in));
}

static uint32_t in_u32(struct in *in)
{
	uint32_t v = in_u16(in);

	return v << 16 | in_u16(in);
}

static void in_bytes(struct in *in, void *out, size_t n)
{
	size_t k = n < in->n ? n : in->n;

	memcpy(out, in->d, k);
	memset((uint8_t *)out + k, 0, n - k);
	in->d += k;
	in->n -= k;
}

static void put_be32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 24);
	b[1] = (uint8_t)(v >> 16);
	b[2] = (uint8_t)(v >> 8);
	b[3] = (uint8_t)v;
}

static void put_be64(uint8_t *b, uint64_t v)
{
	put_be32(b, (uint32_t)(v >> 32));
	put_be32(b + 4, (uint32_t)v);
}

/* The hello a peer sent, parsed (mode rping when it sent none). */
static void peer_hello(const struct fake_peer *fp, struct wire_hello *h)
{
	size_t len;
	const uint8_t *b = fake_peer_hello(fp, &len);

	if (wire_hello_parse(b, len, h) != WIRE_OK) {
		memset(h, 0, sizeof(*h));
		h->mode = WIRE_MODE_RPING;
	}
}

static struct fake_peer *in_peer(struct in *in, bool *flag)
{
	uint8_t s = in_u8(in);
	unsigned int n = fake_peer_count();

	if (flag)
		*flag = s & 0x80;
	return n ? fake_peer_get((s & 0x7f) % n) : NULL;
}

static void op_connect(struct in *in)
{
	uint8_t b = in_u8(in), pd[56];
	size_t len = 0;
	bool pad = b & 0x10;

	memset(pd, 0, sizeof(pd));
	switch (b & 3) {
	case 0:		/* no private data at all */
		pad = false;
		break;
	case 1:		/* stock rping: zeros */
		pad = true;
		break;
	case 2: {	/* fabtop's hello, fields from the input */
		memcpy(pd, "FBTH", 4);
		pd[4] = WIRE_VERSION;
		pd[5] = in_u8(in) % 4;	/* 3: a bad mode */
		pd[6] = in_u8(in) & 3;
		pd[7] = in_u8(in);
		put_be32(pd + 8, in_u32(in) & 0x1fffff);
		put_be64(pd + 12, in_u8(in));
		len = WIRE_HELLO_LEN;
		break;
	}
	default:	/* anything */
		len = in_u8(in) % (sizeof(pd) + 1);
		in_bytes(in, pd, len);
		break;
	}
	fake_peer_connect(pd, len, pad);
}

static void op_cm_error(struct in *in)
{
	static const enum rdma_cm_event_type evs[] = {
		RDMA_CM_EVENT_REJECTED, RDMA_CM_EVENT_CONNECT_ERROR, RDMA_CM_EVENT_UNREACHABLE,
		RDMA_CM_EVENT_DEVICE_REMOVAL,
	};
	uint8_t t = in_u8(in), st = in_u8(in);
	struct fake_peer *fp = in_peer(in, NULL);

	if (t % 5 == 4) {
		fake_listener_removal();
		return;
	}
	if (fp)
		fake_peer_cm_event(fp, evs[t % 4], evs[t % 4] == RDMA_CM_EVENT_REJECTED ? st % 36 : -(int)(st % 134),
				   true);
}

/* A message of len bytes: header type/seq, the rest zero. */
static size_t msg_build(uint8_t *b, size_t cap, uint8_t type, uint32_t len, uint64_t seq)
{
	struct wire_msg m = { .type = type, .len = len, .seq = seq };

	if (len > cap)
		len = (uint32_t)cap;
	memset(b, 0, len);
	if (len >= WIRE_MSG_HDR_LEN)
		wire_msg_pack(&m, b);
	return len;
}

static void op_send(struct in *in)
{
	static uint8_t b[WIRE_MAX_LAT_SIZE + 64];
	struct wire_rping_info ri;
	struct wire_hello h;
	struct fake_peer *fp = in_peer(in, NULL);
	uint8_t kind = in_u8(in);
	size_t len;
	unsigned int n;

	if (!fp)
		return;
	peer_hello(fp, &h);
	switch (kind % 5) {
	case 0:		/* raw bytes */
		len = kind & 0x80 ? in_u16(in) % sizeof(b) : in_u8(in);
		in_bytes(in, b, len);
		break;
	case 1:		/* an rping advertisement */
		ri.addr = in_u32(in);
		ri.rkey = in_u32(in);
		ri.len = in_u16(in);
		wire_rping_info_pack(&ri, b);
		len = WIRE_RPING_INFO_LEN;
		break;
	case 2: {	/* a fabtop message: type, length, sequence from the input */
		uint8_t type = in_u8(in) % 8, l = in_u8(in);
		uint32_t mlen = l == 0 ? h.size : l == 1 ? WIRE_MSG_HDR_LEN : l;
		uint64_t seq = kind & 0x80 ? fake_peer_next_seq(fp) : in_u8(in);

		len = msg_build(b, sizeof(b), type, mlen, seq);
		break;
	}
	case 3:		/* a burst in sequence: DATA (bw SEND) or PING (lat) */
		n = in_u8(in) % 48;
		while (n--) {
			len = msg_build(b, sizeof(b), h.mode == WIRE_MODE_LAT ? WIRE_MSG_PING : WIRE_MSG_DATA,
					h.size, fake_peer_next_seq(fp));
			if (fake_peer_send(fp, b, len))
				break;
		}
		return;
	default:	/* the end: FIN (or PROGRESS) with the count so far */
		len = msg_build(b, sizeof(b), kind & 0x80 ? WIRE_MSG_PROGRESS : WIRE_MSG_FIN, WIRE_MSG_HDR_LEN,
				fake_peer_next_seq(fp));
		break;
	}
	fake_peer_send(fp, b, len);
}

/* The oldest send-queue requests complete; an RDMA READ brings rping's payload, zeros or the input's bytes. */
static void op_sq_complete(struct in *in)
{
	static uint8_t b[WIRE_RPING_MAX_SIZE + 1];
	struct fake_peer *fp = in_peer(in, NULL);
	uint8_t how = in_u8(in);
	unsigned int n = 1 + how % 4;
	enum ibv_wr_opcode op;
	uint32_t len;
	size_t k;

	while (fp && n-- && !fake_peer_sq_head(fp, &op, &len)) {
		k = 0;
		if (op == IBV_WR_RDMA_READ) {
			switch ((how >> 2) % 3) {
			case 0:
				k = len < sizeof(b) ? len : sizeof(b);
				wire_rping_payload_fill(b, k, fake_peer_next_seq(fp));
				break;
			case 1:
				break;
			default:
				k = in_u8(in);
				in_bytes(in, b, k);
				break;
			}
		}
		fake_peer_sq_complete(fp, b, k);
	}
}

static void op_wc_error(struct in *in)
{
	static const enum ibv_wc_status sts[] = {
		IBV_WC_REM_ACCESS_ERR, IBV_WC_RETRY_EXC_ERR, IBV_WC_RNR_RETRY_EXC_ERR, IBV_WC_LOC_PROT_ERR,
		IBV_WC_REM_INV_REQ_ERR, IBV_WC_LOC_LEN_ERR, IBV_WC_GENERAL_ERR, IBV_WC_WR_FLUSH_ERR,
	};
	bool recv;
	struct fake_peer *fp = in_peer(in, &recv);
	uint8_t s = in_u8(in);

	if (fp)
		fake_peer_error(fp, recv, sts[s % (sizeof(sts) / sizeof(sts[0]))]);
}

static void op_fail(struct in *in)
{
	static const int errs[] = { ENOMEM, EIO, EINVAL, ETIMEDOUT, ENODEV, EAGAIN };
	uint8_t fn = in_u8(in), e = in_u8(in);

	fake_rdma_fail((enum fake_fn)(fn % FAKE_FNS), e >> 4, errs[(e & 15) % (sizeof(errs) / sizeof(errs[0]))]);
}

/* One whole ping of stock rping against peer k: source, READ, go, sink, WRITE, done. */
static void op_rping_ping(struct probe *p, struct in *in)
{
	static uint8_t payload[WIRE_RPING_MAX_SIZE + 1];
	struct fake_peer *fp = in_peer(in, NULL);
	struct wire_rping_info ri = { .addr = 0x7f0000001000ull, .rkey = 0x1234 };
	uint8_t adv[WIRE_RPING_INFO_LEN];
	enum ibv_wr_opcode op;
	uint32_t len;
	uint64_t ping;
	int i;

	if (!fp)
		return;
	ri.len = 26 + in_u8(in);
	ping = fake_peer_next_seq(fp);
	wire_rping_info_pack(&ri, adv);
	fake_peer_send(fp, adv, sizeof(adv));
	probe_handle(p, fake_rdma_now());
	/* READ, then the go-ahead SEND; then the sink, the WRITE and the done SEND */
	for (i = 0; i < 2 && !fake_peer_sq_head(fp, &op, &len); i++) {
		wire_rping_payload_fill(payload, len < sizeof(payload) ? len : sizeof(payload), ping);
		fake_peer_sq_complete(fp, payload, len < sizeof(payload) ? len : sizeof(payload));
		probe_handle(p, fake_rdma_now());
	}
	ri.addr += 0x10000;
	wire_rping_info_pack(&ri, adv);
	fake_peer_send(fp, adv, sizeof(adv));
	probe_handle(p, fake_rdma_now());
	for (i = 0; i < 2 && !fake_peer_sq_head(fp, &op, &len); i++) {
		fake_peer_sq_complete(fp, NULL, 0);
		probe_handle(p, fake_rdma_now());
	}
}

static void step(struct probe *p, struct in *in, uint8_t op)
{
	static const uint64_t sleeps_ms[] = { 1, 10, 100, 500, 1000, 3000, 10000, 30000 };
	struct fake_peer *fp;
	bool flag;

	switch (op % OPS) {
	case OP_CONNECT:
		op_connect(in);
		break;
	case OP_ESTABLISHED:
		fp = in_peer(in, NULL);
		if (fp)
			fake_peer_cm_event(fp, RDMA_CM_EVENT_ESTABLISHED, 0, false);
		break;
	case OP_DISCONNECTED:
		fp = in_peer(in, &flag);
		if (fp)
			fake_peer_cm_event(fp, RDMA_CM_EVENT_DISCONNECTED, 0, flag);
		break;
	case OP_CM_ERROR:
		op_cm_error(in);
		break;
	case OP_SEND:
		op_send(in);
		break;
	case OP_SQ_COMPLETE:
		op_sq_complete(in);
		break;
	case OP_WC_ERROR:
		op_wc_error(in);
		break;
	case OP_SLEEP:
		fake_rdma_sleep(sleeps_ms[in_u8(in) % 8] * MS);
		break;
	case OP_FAIL:
		op_fail(in);
		break;
	case OP_STOP:
		probe_stop(p);
		break;
	case OP_RPING_PING:
		op_rping_ping(p, in);
		break;
	default:
		break;
	}
}

/* The events added since the timeline held `since` of them; active_before: probe_stop() was called with that many active. */
static void check_events(struct probe *p, uint64_t since, int active_before)
{
	const struct probe_status *st = probe_status(p);
	uint64_t first = st->events_total - st->n_events;
	bool evicted = false;
	unsigned int i, n;

	/*
	 * STOPPED must count the connections it closes. An eviction must make
	 * room for the newcomer (no DROPPED "evicted" then REJECT "busy" in
	 * one step): checked only with FUZZ_SERVER_STRICT=1, because a second
	 * connect request in the same step is rightly refused as busy after
	 * the first took the freed slot, which the events alone cannot tell
	 * apart.
	 */
	bool strict = getenv("FUZZ_SERVER_STRICT") != NULL;

	for (i = 0; i < st->n_events; i++) {
		const struct probe_event *e = &st->events[i];

		if (first + i < since)
			continue;
		if (!strcmp(e->name, "DROPPED") && strstr(e->text, "evicted"))
			evicted = true;
		if (strict && evicted && !strcmp(e->name, "REJECT") && strstr(e->text, "busy")) {
			fprintf(stderr, "fuzz_server: a connection was evicted for a newcomer that was then refused as busy\n");
			abort();
		}
		if (active_before >= 0 && !strcmp(e->name, "STOPPED") &&
		    sscanf(e->text, "server stopping: %u", &n) == 1 && n != (unsigned int)active_before) {
			fprintf(stderr, "fuzz_server: STOPPED says %u connections to close, %u were active\n",
				n, active_before);
			abort();
		}
	}
}

static void check(struct probe *p, const struct probe_opts *o)
{
	const struct probe_status *st = probe_status(p);
	struct pollfd fds[80];
	int i, n = probe_fds(p, fds, (int)(sizeof(fds) / sizeof(fds[0])));

	for (i = 0; i < n; i++)
		if (!fake_rdma_fd_live(fds[i].fd)) {
			fprintf(stderr, "fuzz_server: probe_fds() gave fd %d, no live channel's\n", fds[i].fd);
			abort();
		}
	if (st->conns_active > o->max_conns) {
		fprintf(stderr, "fuzz_server: %u connections active, --max-conns %u\n", st->conns_active, o->max_conns);
		abort();
	}
	probe_timeout_ms(p, fake_rdma_now());
}

/* FUZZ_SERVER_TRACE=1: the server's timeline on stderr, to see what a seed does. */
static void trace(struct probe *p)
{
	static int on = -1;
	const struct probe_status *st;
	unsigned int i;

	if (on < 0)
		on = getenv("FUZZ_SERVER_TRACE") != NULL;
	if (!on)
		return;
	st = probe_status(p);
	for (i = 0; i < st->n_events; i++)
		fprintf(stderr, "  +%.3fs %-16s %s\n", (double)st->events[i].t_ns / 1e9, st->events[i].name,
			st->events[i].text);
	fprintf(stderr, "  %s: %llu msgs, %llu bytes, accepted %llu, rejected %llu, dropped %llu, done %llu\n",
		probe_state_name(st->state), (unsigned long long)st->msgs, (unsigned long long)st->bytes,
		(unsigned long long)st->conns_accepted, (unsigned long long)st->conns_rejected,
		(unsigned long long)st->conns_dropped, (unsigned long long)st->conns_done);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum fake_fn start_fns[] = {
		FAKE_CREATE_EVENT_CHANNEL, FAKE_CREATE_ID, FAKE_BIND_ADDR, FAKE_LISTEN,
	};
	struct in in = { data, size };
	struct probe_opts o;
	struct probe *p;
	uint8_t b0 = in_u8(&in), b1 = in_u8(&in);
	unsigned int i;

	fake_rdma_begin();
	probe_opts_init(&o);
	o.listen = true;
	o.max_conns = 1 + (b0 & 3);
	o.serve_conns = (b0 >> 2) & 3;
	o.spin_us = b0 & 0x10 ? 20 : 0;
	o.timeout_ms = 50 * (1 + (b1 & 15));
	o.idle_ms = 100 * (1 + (b1 >> 4));
	o.lat_samples = 64;
	fake_rdma_set_auto_disconnect(b0 & 0x20);
	if (b0 >> 6)
		fake_rdma_fail(start_fns[in_u8(&in) % 4], 0, (b0 >> 6) == 1 ? EADDRNOTAVAIL : ENODEV);

	p = probe_start(&o);
	if (!p) {
		fake_rdma_end();
		return 0;
	}
	for (i = 0; i < MAX_STEPS && in.n && probe_active(p); i++) {
		uint8_t op = in_u8(&in);
		uint64_t since = probe_status(p)->events_total;
		int active = (op & 0x7f) % OPS == OP_STOP ? (int)probe_status(p)->conns_active : -1;

		step(p, &in, op & 0x7f);
		if (!(op & 0x80))
			probe_handle(p, fake_rdma_now());
		check(p, &o);
		check_events(p, since, active);
	}

	/* the end: every connection must be gone within --timeout-ms of probe_stop() */
	{
		uint64_t since = probe_status(p)->events_total;
		int active = (int)probe_status(p)->conns_active;

		probe_stop(p);
		check_events(p, since, active);
	}
	for (i = 0; i < 4 && probe_active(p); i++) {
		fake_rdma_sleep((uint64_t)o.timeout_ms * MS / 2);
		probe_handle(p, fake_rdma_now());
		check(p, &o);
	}
	if (probe_active(p)) {
		fprintf(stderr, "fuzz_server: still %s twice --timeout-ms (%u ms) after probe_stop()\n",
			probe_state_name(probe_status(p)->state), o.timeout_ms);
		abort();
	}
	trace(p);
	probe_free(p);
	fake_rdma_end();
	return 0;
}
