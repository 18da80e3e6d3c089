// SPDX-License-Identifier: GPL-2.0-or-later
/* A hostile RDMA CM client for `fabtop probe --listen`: bad hellos, wrong sizes, bogus keys, floods. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "probe/wire.h"

/*
 * usage: hostile ADDR PORT [COMMAND]
 *        hostile ADDR PORT hold slowping|trickle|bwsend N COMMAND
 * Each attack prints one line "attack N: what -> outcome: ok|UNEXPECTED".
 * COMMAND (run with system()) is a real client started while a connection
 * flood is held open: it must still be served. Exit 0 when every attack got
 * the reaction it should.
 * hold: N connections that starve the server without breaking a rule, held
 * while COMMAND (a real client) runs, which must be served:
 *   slowping  lat connections sending one valid PING every 1.5 s (the old
 *             server never evicted a connection that had moved a message)
 *   trickle   lat connections sending a valid PING every 450 ms: two or
 *             three messages a second, what a message count took for work
 *   bwsend    idle bw-SEND connections, each pinning 2.25 MiB of receive
 *             buffers (under RLIMIT_MEMLOCK the next one cannot register)
 */

#define FLOOD 40
#define WAIT_MS 8000
#define HOLD_MAX 64
#define SLOWPING_MS 1500
#define TRICKLE_MS 450
#define PONG_OFF 128	/* receives land in buf[PONG_OFF..) */

struct cli {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint8_t buf[256];
};

static const char *addr_s, *port_s;
static int failures;

static void verdict(int n, const char *what, const char *outcome, int good)
{
	printf("attack %d: %s -> %s: %s\n", n, what, outcome, good ? "ok" : "UNEXPECTED");
	fflush(stdout);
	if (!good)
		failures++;
}

/* Next CM event for any id on ch within ms; its type, or -1 on timeout. */
static int next_event(struct rdma_event_channel *ch, int ms, int *status, struct rdma_cm_id **id)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int t;

	if (poll(&pfd, 1, ms) <= 0)
		return -1;
	if (rdma_get_cm_event(ch, &ev))
		return -1;
	t = ev->event;
	if (status)
		*status = ev->status;
	if (id)
		*id = ev->id;
	rdma_ack_cm_event(ev);
	return t;
}

static int wait_for(struct rdma_event_channel *ch, int want, int ms, int *status)
{
	int t;

	do {
		t = next_event(ch, ms, status, NULL);
	} while (t >= 0 && t != want && t != RDMA_CM_EVENT_REJECTED && t != RDMA_CM_EVENT_UNREACHABLE &&
		 t != RDMA_CM_EVENT_CONNECT_ERROR && t != RDMA_CM_EVENT_DISCONNECTED &&
		 t != RDMA_CM_EVENT_ADDR_ERROR && t != RDMA_CM_EVENT_ROUTE_ERROR);
	return t;
}

static void cli_free(struct cli *c)
{
	if (c->id && c->id->qp)
		rdma_destroy_qp(c->id);
	if (c->mr)
		ibv_dereg_mr(c->mr);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	if (c->id)
		rdma_destroy_id(c->id);
	if (c->ch)
		rdma_destroy_event_channel(c->ch);
	memset(c, 0, sizeof(*c));
}

/* Resolve, create a QP, connect with the given private data; returns the event that ends it. */
static int cli_connect(struct cli *c, const void *pd, uint8_t pdlen,
		       int *status, int wait)
{
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_TCP }, *res;
	struct ibv_qp_init_attr qa;
	struct rdma_conn_param prm;
	int t;

	memset(c, 0, sizeof(*c));
	c->ch = rdma_create_event_channel();
	if (!c->ch)
		return -1;
	if (rdma_getaddrinfo(addr_s, port_s, &hints, &res))
		return -1;
	if (rdma_create_id(c->ch, &c->id, c, RDMA_PS_TCP) ||
	    rdma_resolve_addr(c->id, NULL, res->ai_dst_addr, 2000)) {
		rdma_freeaddrinfo(res);
		return -1;
	}
	rdma_freeaddrinfo(res);
	if (wait_for(c->ch, RDMA_CM_EVENT_ADDR_RESOLVED, 3000, NULL) != RDMA_CM_EVENT_ADDR_RESOLVED ||
	    rdma_resolve_route(c->id, 2000) ||
	    wait_for(c->ch, RDMA_CM_EVENT_ROUTE_RESOLVED, 3000, NULL) != RDMA_CM_EVENT_ROUTE_RESOLVED)
		return -1;
	c->pd = ibv_alloc_pd(c->id->verbs);
	c->cq = c->pd ? ibv_create_cq(c->id->verbs, 16, NULL, NULL, 0) : NULL;
	c->mr = c->pd ? ibv_reg_mr(c->pd, c->buf, sizeof(c->buf), IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!c->mr)
		return -1;
	memset(&qa, 0, sizeof(qa));
	qa.qp_type = IBV_QPT_RC;
	qa.send_cq = qa.recv_cq = c->cq;
	qa.cap.max_send_wr = qa.cap.max_recv_wr = 8;
	qa.cap.max_send_sge = qa.cap.max_recv_sge = 1;
	if (rdma_create_qp(c->id, c->pd, &qa))
		return -1;
	memset(&prm, 0, sizeof(prm));
	prm.responder_resources = prm.initiator_depth = 1;
	prm.retry_count = 7;
	prm.rnr_retry_count = 7;
	prm.private_data = pd;
	prm.private_data_len = pdlen;
	if (rdma_connect(c->id, &prm))
		return -1;
	if (!wait)
		return 0;
	t = wait_for(c->ch, RDMA_CM_EVENT_ESTABLISHED, WAIT_MS, status);
	return t;
}

static int cli_send(struct cli *c, const void *msg, uint32_t len)
{
	struct ibv_sge sge = { .addr = (uintptr_t)c->buf, .length = len, .lkey = c->mr->lkey };
	struct ibv_send_wr wr = { .opcode = IBV_WR_SEND, .sg_list = &sge, .num_sge = 1 }, *bad;

	if (len > sizeof(c->buf))
		return -1;
	memmove(c->buf, msg, len);
	return ibv_post_send(c->id->qp, &wr, &bad);
}

/* A signalled SEND from buf[0..len) and receives for the answers: a slow but well-behaved lat client. */
static int cli_post_recv(struct cli *c)
{
	struct ibv_sge sge = { .addr = (uintptr_t)c->buf + PONG_OFF, .length = sizeof(c->buf) - PONG_OFF,
			       .lkey = c->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 }, *bad;

	return ibv_post_recv(c->id->qp, &wr, &bad);
}

static int cli_ping(struct cli *c, uint64_t seq)
{
	struct wire_msg m = { .type = WIRE_MSG_PING, .len = 64, .seq = seq };
	struct ibv_sge sge = { .addr = (uintptr_t)c->buf, .length = 64, .lkey = c->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 2, .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
				  .sg_list = &sge, .num_sge = 1 }, *bad;
	struct ibv_wc wc[8];
	int n, i;

	/* reap what completed (sends, PONGs) and give the receives back */
	while ((n = ibv_poll_cq(c->cq, 8, wc)) > 0)
		for (i = 0; i < n; i++)
			if (wc[i].wr_id == 1 && wc[i].status == IBV_WC_SUCCESS)
				cli_post_recv(c);
	memset(c->buf, 0, 64);
	wire_msg_pack(&m, c->buf);
	return ibv_post_send(c->id->qp, &wr, &bad);
}

static void hello(uint8_t *b, uint8_t version, uint8_t mode, uint32_t size, uint8_t depth)
{
	struct wire_hello h = { .version = version, .mode = mode, .size = size, .depth = depth };

	wire_hello_pack(&h, b);
}

/* The server must refuse this hello with REJECTED (consumer defined). */
static void bad_hello(int n, const char *what, const uint8_t *h)
{
	struct cli c;
	int st = 0, t = cli_connect(&c, h, WIRE_HELLO_LEN, &st, 1);
	char o[64];

	snprintf(o, sizeof(o), "%s status %d", t >= 0 ? rdma_event_str(t) : "no event", st);
	verdict(n, what, o, t == RDMA_CM_EVENT_REJECTED && st == 28);
	cli_free(&c);
}

/* Connect (accepted), send msg, and expect the server to disconnect us. */
static void bad_message(int n, const char *what, const void *pd, uint8_t pdlen, const void *msg, uint32_t len,
			int times)
{
	struct cli c;
	int st = 0, t = cli_connect(&c, pd, pdlen, &st, 1), i;
	char o[80];

	if (t != RDMA_CM_EVENT_ESTABLISHED) {
		snprintf(o, sizeof(o), "not accepted (%s)", t >= 0 ? rdma_event_str(t) : "no event");
		verdict(n, what, o, 0);
		cli_free(&c);
		return;
	}
	for (i = 0; i < times; i++)
		cli_send(&c, msg, len);
	t = wait_for(c.ch, RDMA_CM_EVENT_DISCONNECTED, WAIT_MS, &st);
	snprintf(o, sizeof(o), "%s", t >= 0 ? rdma_event_str(t) : "still connected");
	verdict(n, what, o, t == RDMA_CM_EVENT_DISCONNECTED);
	cli_free(&c);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Long: connect N, keep them as the kind says while COMMAND runs (forked: the pings go on), then the verdict. */
static int hold(const char *kind, int n, const char *command)
{
	static struct cli c[HOLD_MAX];
	static bool up[HOLD_MAX];
	uint8_t h[WIRE_HELLO_LEN];
	uint64_t seq[HOLD_MAX] = { 0 }, t0, next;
	int i, k, t, st, est = 0, rej = 0, gone = 0, rc = -1, wst;
	bool trickle = !strcmp(kind, "trickle"), ping = trickle || !strcmp(kind, "slowping");
	uint64_t every = trickle ? TRICKLE_MS : SLOWPING_MS;
	pid_t pid = -1;

	if ((!ping && strcmp(kind, "bwsend")) || n < 1 || n > HOLD_MAX) {
		fprintf(stderr, "hold: slowping|trickle|bwsend, 1..%d connections\n", HOLD_MAX);
		return 2;
	}
	if (ping) {
		hello(h, WIRE_VERSION, WIRE_MODE_LAT, 64, 1);
	} else {
		hello(h, WIRE_VERSION, WIRE_MODE_BW, 65536, 16);
		h[6] = WIRE_HELLO_SEND;
	}
	for (i = 0; i < n; i++) {
		st = 0;
		t = cli_connect(&c[i], h, WIRE_HELLO_LEN, &st, 1);
		up[i] = t == RDMA_CM_EVENT_ESTABLISHED;
		est += up[i];
		rej += t == RDMA_CM_EVENT_REJECTED;
		if (up[i] && ping) {
			for (k = 0; k < 4; k++)
				cli_post_recv(&c[i]);
			cli_ping(&c[i], seq[i]++);	/* a message moved at once: never "idle" to the old rule */
		}
	}
	printf("hold %s: %d connections, %d established, %d rejected\n", kind, n, est, rej);
	fflush(stdout);
	/* long enough to be past any newcomer's grace, with a ping or two done */
	t0 = now_ms();
	next = t0 + every;
	while (1) {
		uint64_t now = now_ms();

		if (pid < 0 && now >= t0 + 2500) {
			fflush(stdout);
			pid = fork();
			if (pid == 0) {
				execl("/bin/sh", "sh", "-c", command, (char *)NULL);
				_exit(127);
			}
			if (pid < 0)
				break;
		}
		if (pid > 0 && waitpid(pid, &wst, WNOHANG) == pid) {
			rc = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128;
			break;
		}
		if (ping && now >= next) {
			for (i = 0; i < n; i++)
				if (up[i])
					cli_ping(&c[i], seq[i]++);
			next = now + every;
		}
		usleep(20000);
		if (now - t0 > 120000)
			break;
	}
	for (i = 0; i < n; i++)
		if (up[i] && next_event(c[i].ch, 0, NULL, NULL) == RDMA_CM_EVENT_DISCONNECTED)
			gone++;
	printf("hold %s: %d of the %d established were disconnected by the server\n", kind, gone, est);
	verdict(21, trickle ? "real client while tricklers (a ping each 450 ms) hold the slots" :
		ping ? "real client while slow pingers hold the slots" :
		"real client while idle bw-SEND connections hold the pinned memory",
		rc == 0 ? "served" : "not served", rc == 0 && est > 0);
	for (i = 0; i < n; i++)
		cli_free(&c[i]);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	uint8_t h[WIRE_HELLO_LEN], garbage[56], msg[200];
	struct wire_rping_info info;
	struct wire_msg m;
	struct cli flood[FLOOD];
	bool flood_ok[FLOOD];
	int i, est = 0, rej = 0, other = 0, t, st, rc;
	unsigned int seed = (unsigned int)time(NULL);

	if (argc < 3) {
		fprintf(stderr, "usage: hostile ADDR PORT [COMMAND]\n");
		return 2;
	}
	addr_s = argv[1];
	port_s = argv[2];
	if (argc > 3 && !strcmp(argv[3], "hold")) {
		if (argc != 7) {
			fprintf(stderr, "usage: hostile ADDR PORT hold slowping|trickle|bwsend N COMMAND\n");
			return 2;
		}
		return hold(argv[4], atoi(argv[5]), argv[6]);
	}

	hello(h, 9, 0, 64, 1);
	bad_hello(1, "hello with protocol version 9", h);
	hello(h, WIRE_VERSION, 7, 64, 1);
	bad_hello(2, "hello with mode 7", h);
	hello(h, WIRE_VERSION, WIRE_MODE_BW, 0x80000000u, 1);
	bad_hello(3, "bw hello asking for a 2 GiB sink", h);
	hello(h, WIRE_VERSION, WIRE_MODE_BW, 65536, 0);
	bad_hello(4, "bw hello with depth 0", h);
	hello(h, WIRE_VERSION, WIRE_MODE_LAT, 3, 1);
	bad_hello(5, "lat hello with 3-byte messages", h);
	hello(h, WIRE_VERSION, WIRE_MODE_RPING, 64, 1);
	h[25] = 0x55;	/* reserved byte set */
	bad_hello(6, "hello with a reserved byte set", h);

	for (i = 0; i < (int)sizeof(garbage); i++)
		garbage[i] = (uint8_t)rand_r(&seed) | 0x80;	/* never the magic */
	memset(msg, 'x', sizeof(msg));
	bad_message(7, "garbage private data, then a 37-byte message", garbage, sizeof(garbage), msg, 37, 1);
	info.addr = 0x1000;
	info.rkey = 0x1234;
	info.len = 10u << 20;
	wire_rping_info_pack(&info, msg);
	bad_message(8, "rping advert of a 10 MiB source", NULL, 0, msg, WIRE_RPING_INFO_LEN, 1);
	info.len = 64;
	info.rkey = 0xdeadbeef;
	wire_rping_info_pack(&info, msg);
	bad_message(9, "rping advert with a bogus rkey and address", NULL, 0, msg, WIRE_RPING_INFO_LEN, 1);
	info.len = 0;
	wire_rping_info_pack(&info, msg);
	bad_message(10, "rping advert of 0 bytes", NULL, 0, msg, WIRE_RPING_INFO_LEN, 1);
	hello(h, WIRE_VERSION, WIRE_MODE_LAT, 64, 1);
	m.type = WIRE_MSG_PING;
	m.len = 64;
	m.seq = 5;
	wire_msg_pack(&m, msg);
	bad_message(11, "lat PING out of sequence", h, WIRE_HELLO_LEN, msg, 64, 1);
	m.seq = 0;
	m.len = 999;
	wire_msg_pack(&m, msg);
	bad_message(12, "lat PING whose length field lies", h, WIRE_HELLO_LEN, msg, 64, 1);
	hello(h, WIRE_VERSION, WIRE_MODE_BW, 4096, 4);
	m.type = WIRE_MSG_FIN;
	m.len = WIRE_MSG_HDR_LEN;
	m.seq = 1;
	wire_msg_pack(&m, msg);
	bad_message(13, "bw: a 100-byte FIN", h, WIRE_HELLO_LEN, msg, 100, 1);

	hello(h, WIRE_VERSION, WIRE_MODE_BW, 64, 4);
	h[6] = WIRE_HELLO_SEND;
	m.type = WIRE_MSG_DATA;
	m.len = 64;
	m.seq = 3;
	wire_msg_pack(&m, msg);
	bad_message(16, "bw SENDs: DATA out of sequence", h, WIRE_HELLO_LEN, msg, 64, 1);
	m.seq = 0;
	wire_msg_pack(&m, msg);
	bad_message(17, "bw SENDs: DATA of the wrong size", h, WIRE_HELLO_LEN, msg, 48, 1);

	hello(h, WIRE_VERSION, WIRE_MODE_BW, 4096, 4);
	h[12 + 7] = 100;	/* count 100 (low byte of the be64) */
	m.type = WIRE_MSG_PROGRESS;
	m.len = WIRE_MSG_HDR_LEN;
	m.seq = 5000;
	wire_msg_pack(&m, msg);
	bad_message(18, "bw: PROGRESS past the announced count", h, WIRE_HELLO_LEN, msg, WIRE_MSG_HDR_LEN, 1);

	/*
	 * count 0 (unbounded): the old server trusted any claim, and its totals
	 * wrapped (2^62 writes of 4 KiB); a FIN's claim was acknowledged and the
	 * client stayed connected
	 */
	hello(h, WIRE_VERSION, WIRE_MODE_BW, 4096, 4);
	m.type = WIRE_MSG_PROGRESS;
	m.len = WIRE_MSG_HDR_LEN;
	m.seq = 1ull << 62;
	wire_msg_pack(&m, msg);
	bad_message(19, "bw, count 0: PROGRESS claiming 2^62 writes", h, WIRE_HELLO_LEN, msg, WIRE_MSG_HDR_LEN, 1);
	m.type = WIRE_MSG_FIN;
	m.seq = 1ull << 40;
	wire_msg_pack(&m, msg);
	bad_message(20, "bw, count 0: FIN claiming 2^40 writes at once", h, WIRE_HELLO_LEN, msg, WIRE_MSG_HDR_LEN, 1);

	/* the flood: many connections at once, none of which ever sends */
	for (i = 0; i < FLOOD; i++)
		flood_ok[i] = !cli_connect(&flood[i], NULL, 0, NULL, 0);
	for (i = 0; i < FLOOD; i++) {
		t = flood_ok[i] ? wait_for(flood[i].ch, RDMA_CM_EVENT_ESTABLISHED, WAIT_MS, &st) : -1;
		if (t == RDMA_CM_EVENT_ESTABLISHED)
			est++;
		else if (t == RDMA_CM_EVENT_REJECTED)
			rej++;
		else
			other++;
	}
	printf("flood: %d connections, %d established, %d rejected (busy), %d failed locally\n",
	       FLOOD, est, rej, other);
	verdict(14, "connect flood of 40 idle connections", "bounded", est > 0 && est < FLOOD && rej > 0);
	if (argc > 3) {
		/* a real client while the flood holds its connections: it must be served */
		sleep(2);
		rc = system(argv[3]);
		verdict(15, "real client during the flood", rc == 0 ? "served" : "not served", rc == 0);
	}
	for (i = 0; i < FLOOD; i++)
		cli_free(&flood[i]);
	printf("hostile: %d unexpected\n", failures);
	return failures ? 1 : 0;
}
