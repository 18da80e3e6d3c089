// SPDX-License-Identifier: GPL-2.0-or-later
/* The MAD engine and the port queries on a scripted fabric with a fake clock: deadlines, retries, window, late replies, PMA fallback. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit/tap.h"
#include "mad/mad.h"
#include "mad/mad_fabric.h"
#include "mad/mad_fpma.h"
#include "mad/mad_port.h"
#include "derive/mad_decode.h"
#include "util.h"

#define MS 1000000ull

/* A fabric that answers from the recorded replies of tests/data/mad. */
struct fake {
	int drop_first;			/* requests to leave unanswered */
	bool drop_all;
	bool late_first;		/* answer the first request only after the next one */
	bool transport_timeout_first;	/* the first request comes back with status ETIMEDOUT */
	uint64_t garbage;		/* not 0: answer every request with bytes of this generator's */
	int cpi_cap;			/* ClassPortInfo CapabilityMask to answer, -1: status 0x0c */
	uint32_t cpi_cap2;		/* and its CapabilityMask2 */
	uint64_t pce_errors;		/* not 0: PortCountersExtended carries the additional counters, each this */
	uint16_t odd_lid;		/* a node of its model's ClassPortInfo with other firmware: */
	int odd_cpi_cap;		/* what it answers ClassPortInfo; PortCountersExtended: status 0x0c */
	int cpi_by_lid[64];
	int nreq;
	int sent_by_attr[0x40];
	uint8_t q[64][MAD_SIZE];
	int qstatus[64];
	int head, tail;
	uint8_t late[MAD_SIZE];
	bool have_late;
};

static void load(const char *name, uint8_t *buf)
{
	char path[1024];
	const char *top = getenv("TOP_SRCDIR");
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/data/mad/%s", top ? top : ".", name);
	f = fopen(path, "rb");
	if (!f || fread(buf, 1, MAD_SIZE, f) != MAD_SIZE) {
		printf("Bail out! cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
}

static void push(struct fake *fk, const uint8_t *m, int status)
{
	memcpy(fk->q[fk->tail % 64], m, MAD_SIZE);
	fk->qstatus[fk->tail % 64] = status;
	fk->tail++;
}

/*
 * A node that answers garbage: the request's header turned into a GetResp
 * (so the engine matches it), then, by turns, random bytes after it, a
 * random MAD status, a reply of another attribute, a header only (the
 * transport's length stays MAD_SIZE, the bytes are zero), a NodeInfo
 * with the port counts and numbers at their limits, or a PortInfo whose
 * link is up (so the sweep goes on into more garbage).
 */
static void garbage_reply(struct fake *fk, const uint8_t *req, uint8_t *r)
{
	unsigned int kind;

	memcpy(r, req, MAD_SIZE);
	for (size_t i = 24; i < MAD_SIZE; i++) {
		fk->garbage ^= fk->garbage << 13;
		fk->garbage ^= fk->garbage >> 7;
		fk->garbage ^= fk->garbage << 17;
		r[i] = (uint8_t)fk->garbage;
	}
	r[3] = 0x81;
	kind = (unsigned int)(fk->garbage >> 40) % 6;
	if (kind == 1) {
		r[4] = (uint8_t)(fk->garbage >> 48);
		r[5] = (uint8_t)(fk->garbage >> 56);
	} else if (kind == 2) {
		r[17] ^= 0x11;			/* another attribute */
	} else if (kind == 3) {
		memset(r + 24, 0, MAD_SIZE - 24);
	} else if (kind == 4 && (req[16] << 8 | req[17]) == MAD_ATTR_NODE_INFO) {
		r[64 + 2] = (uint8_t)(1 + (fk->garbage & 3));	/* CA, switch, router, 4 */
		r[64 + 4] = 0xff;			/* NumPorts */
		r[64 + 39] = (uint8_t)(fk->garbage >> 8);	/* LocalPortNum, past NumPorts or not */
	} else if (kind >= 4 && (req[16] << 8 | req[17]) == MAD_ATTR_PORT_INFO) {
		r[64 + 33] = 0x52;			/* PortPhysicalState LinkUp: the sweep goes on through it */
	}
	if (kind != 1)
		r[4] = r[5] = 0;
}

static int fake_send(void *priv, const uint8_t *req, size_t len, uint16_t dlid, uint32_t qpn)
{
	struct fake *fk = priv;
	uint8_t r[MAD_SIZE];
	uint16_t attr = (uint16_t)(req[16] << 8 | req[17]);
	uint32_t mod = (uint32_t)req[20] << 24 | (uint32_t)req[21] << 16 | (uint32_t)req[22] << 8 | req[23];
	unsigned int hops = req[7];
	const char *file = NULL;

	fk->nreq++;
	if (attr < 0x40)
		fk->sent_by_attr[attr]++;
	if (fk->transport_timeout_first && fk->nreq == 1) {
		push(fk, req, ETIMEDOUT);
		return 0;
	}
	if (fk->drop_all || fk->nreq <= fk->drop_first)
		return 0;
	if (fk->garbage) {
		garbage_reply(fk, req, r);
		push(fk, r, 0);
		return 0;
	}
	switch (req[1] << 16 | attr) {
	case MAD_CLASS_SMI_DR << 16 | MAD_ATTR_NODE_INFO:
		file = hops ? "node_info_switch.bin" : "node_info_ca.bin";
		break;
	case MAD_CLASS_SMI_DR << 16 | MAD_ATTR_NODE_DESC:
		file = "node_desc_switch.bin";
		break;
	case MAD_CLASS_SMI_DR << 16 | MAD_ATTR_PORT_INFO:
		file = hops ? "port_info_switch_port0.bin" : "port_info_ca_active.bin";
		break;
	case MAD_CLASS_SMI << 16 | MAD_ATTR_SM_INFO:
		file = "sm_info.bin";
		break;
	case MAD_CLASS_PMA << 16 | MAD_ATTR_CLASS_PORT_INFO:
		file = "pma_cpi_ca.bin";
		break;
	case MAD_CLASS_PMA << 16 | MAD_ATTR_PORT_COUNTERS:
		file = "pma_port_counters_switch.bin";
		break;
	case MAD_CLASS_PMA << 16 | MAD_ATTR_PORT_COUNTERS_EXT:
		file = "pma_port_counters_ext_switch.bin";
		break;
	default:
		return 0;
	}
	load(file, r);
	memcpy(r + 8, req + 8, 8);		/* the TID */
	memcpy(r + 20, &req[20], 4);		/* the modifier */
	(void)mod;
	if (attr == MAD_ATTR_CLASS_PORT_INFO && req[1] == MAD_CLASS_PMA) {
		int cap = fk->odd_lid && dlid == fk->odd_lid ? fk->odd_cpi_cap : fk->cpi_cap;
		uint32_t w = fk->cpi_cap2 << 5 | 0x12;

		if (dlid < 64)
			fk->cpi_by_lid[dlid]++;
		if (cap < 0) {
			r[4] = 0;
			r[5] = 0x0c;		/* attribute not supported */
		} else {
			r[MAD_PMA_DATA_OFF + 2] = (uint8_t)(cap >> 8);
			r[MAD_PMA_DATA_OFF + 3] = (uint8_t)cap;
			for (int i = 0; i < 4; i++)
				r[MAD_PMA_DATA_OFF + 4 + i] = (uint8_t)(w >> (24 - 8 * i));
		}
	}
	if (attr == MAD_ATTR_PORT_COUNTERS_EXT && req[1] == MAD_CLASS_PMA) {
		if (fk->odd_lid && dlid == fk->odd_lid) {
			r[4] = 0;
			r[5] = 0x0c;
		}
		/* the additional counters: 13 of 64 bits from byte 72 of the data */
		for (int k = 0; fk->pce_errors && k < 13; k++)
			for (int i = 0; i < 8; i++)
				r[MAD_PMA_DATA_OFF + 72 + 8 * k + i] = (uint8_t)(fk->pce_errors >> (56 - 8 * i));
	}
	if (fk->late_first && fk->nreq == 1) {
		memcpy(fk->late, r, MAD_SIZE);
		fk->have_late = true;
		return 0;
	}
	if (fk->have_late) {
		push(fk, fk->late, 0);
		fk->have_late = false;
	}
	push(fk, r, 0);
	return 0;
}

static int fake_recv(void *priv, uint8_t *mad, size_t *len, int *status)
{
	struct fake *fk = priv;

	if (fk->head == fk->tail)
		return -EAGAIN;
	memcpy(mad, fk->q[fk->head % 64], MAD_SIZE);
	*status = fk->qstatus[fk->head % 64];
	*len = MAD_SIZE;
	fk->head++;
	return 0;
}

struct result {
	int calls;
	int status;
	uint64_t at;
};
static uint64_t clock_fake;

static void cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len)
{
	struct result *r = arg;

	r->calls++;
	r->status = status;
	r->at = clock_fake;
}

static struct mad_session *open_fake(struct fake *fk, struct mad_transport *tp)
{
	struct mad_session *s;

	static int pfd[2] = { -1, -1 };

	/* A real fd stands for the umad device (pollable); see test_nofd for the other case. */
	if (pfd[0] < 0 && pipe(pfd)) {
		printf("Bail out! pipe\n");
		exit(1);
	}
	*tp = (struct mad_transport){ .send = fake_send, .recv = fake_recv, .fd = pfd[0], .priv = fk };
	if (mad_session_open_transport(&s, tp)) {
		printf("Bail out! cannot open a session\n");
		exit(1);
	}
	return s;
}

static void test_retry(void)
{
	struct fake fk = { .drop_first = 1 };
	struct mad_transport tp;
	struct mad_session *s = open_fake(&fk, &tp);
	struct result r = { 0 };

	mad_get_pma(s, 3, MAD_ATTR_CLASS_PORT_INFO, 1, cb, &r);
	mad_step(s, clock_fake = 0);
	ASSERT_EQ_INT(mad_next_timeout_ms(s, 0), 200, "first deadline in 200 ms");
	mad_step(s, clock_fake = 199 * MS);
	ASSERT_EQ_INT(r.calls, 0, "no answer, no callback before the deadline");
	mad_step(s, clock_fake = 200 * MS);
	ASSERT_EQ_INT(mad_session_stats(s)->retries, 1, "retried at the deadline");
	mad_step(s, clock_fake = 201 * MS);
	ASSERT_EQ_INT(r.calls, 1, "the retry's answer completes it");
	ASSERT_EQ_INT(r.status, 0, "with success");
	ASSERT_EQ_U64(mad_session_stats(s)->sent, 2, "2 MADs sent");
	TAP_OK(mad_idle(s) && mad_next_timeout_ms(s, 0) == -1, "idle afterwards, no timeout wanted (idle %d, timeout %d ms)",
	       mad_idle(s), mad_next_timeout_ms(s, 0));
	mad_session_close(s);
}

/*
 * A request done is kept for the next one: the next starts afresh. A first
 * request that used up its attempts (3 sent, failed), then one whose
 * first attempt is dropped: it still gets its retry and succeeds.
 */
static void test_reuse(void)
{
	struct fake fk = { .drop_all = true };
	struct mad_transport tp;
	struct mad_session *s = open_fake(&fk, &tp);
	struct result r1 = { 0 }, r2 = { 0 };

	mad_get_pma(s, 3, MAD_ATTR_CLASS_PORT_INFO, 1, cb, &r1);
	for (clock_fake = 0; r1.calls == 0 && clock_fake < 2000 * MS; clock_fake += 50 * MS)
		mad_step(s, clock_fake);
	TAP_OK(r1.calls == 1 && r1.status == -ETIMEDOUT && fk.nreq == 3,
	       "a request with no answer: 3 attempts, then a timeout (%d calls, status %d, %d sent)",
	       r1.calls, r1.status, fk.nreq);
	fk.drop_all = false;
	fk.drop_first = fk.nreq + 1;	/* the next one's first attempt only */
	mad_get_pma(s, 3, MAD_ATTR_CLASS_PORT_INFO, 1, cb, &r2);
	for (int i = 0; r2.calls == 0 && i < 40; i++, clock_fake += 50 * MS)
		mad_step(s, clock_fake);
	TAP_OK(r2.calls == 1 && r2.status == 0 && fk.nreq == 5,
	       "the next request (reusing its memory) starts afresh: retried, answered (status %d, %d sent)",
	       r2.status, fk.nreq);
	mad_session_close(s);
}

static void test_timeout(void)
{
	struct fake fk = { .drop_all = true };
	struct mad_transport tp;
	struct mad_session *s = open_fake(&fk, &tp);
	struct result r = { 0 };

	mad_get_dr(s, (const uint8_t[]){ 0, 1 }, 1, MAD_ATTR_NODE_INFO, 0, cb, &r);
	for (uint64_t t = 0; t <= 1000; t += 50)
		mad_step(s, clock_fake = t * MS);
	ASSERT_EQ_INT(r.calls, 1, "a dead fabric: exactly one callback");
	ASSERT_EQ_INT(r.status, -ETIMEDOUT, "-ETIMEDOUT");
	ASSERT_EQ_U64(r.at, 600 * MS, "after 3 attempts of 200 ms, not later");
	ASSERT_EQ_U64(mad_session_stats(s)->sent, 3, "3 attempts");
	ASSERT_EQ_U64(mad_session_stats(s)->timeouts, 1, "1 timeout counted");
	mad_session_close(s);
}

static void test_late_and_transport_timeout(void)
{
	struct fake fk = { .late_first = true };
	struct mad_transport tp;
	struct mad_session *s = open_fake(&fk, &tp);
	struct result r = { 0 };

	mad_get_pma(s, 3, MAD_ATTR_CLASS_PORT_INFO, 1, cb, &r);
	mad_step(s, clock_fake = 0);
	mad_step(s, clock_fake = 200 * MS);	/* retry with a new TID; then the first answer arrives late */
	mad_step(s, clock_fake = 201 * MS);
	ASSERT_EQ_INT(r.calls, 1, "late first answer + answer to the retry: one callback");
	ASSERT_EQ_U64(mad_session_stats(s)->stray, 1, "the late one is a stray, not taken for the retry");
	mad_session_close(s);

	struct fake fk2 = { .transport_timeout_first = true };
	struct result r2 = { 0 };

	s = open_fake(&fk2, &tp);
	mad_get_pma(s, 3, MAD_ATTR_CLASS_PORT_INFO, 1, cb, &r2);
	mad_step(s, clock_fake = 0);
	mad_step(s, clock_fake = 1 * MS);	/* the kernel's ETIMEDOUT report: retry at once */
	mad_step(s, clock_fake = 2 * MS);
	ASSERT_EQ_INT(r2.calls, 1, "a transport timeout is retried without waiting for our deadline");
	ASSERT_EQ_INT(r2.status, 0, "and the retry answers");
	mad_session_close(s);
}

static void test_window_and_cancel(void)
{
	struct fake fk = { .drop_all = true };
	struct mad_transport tp;
	struct mad_session *s = open_fake(&fk, &tp);
	struct result r[40];

	memset(r, 0, sizeof(r));
	for (int i = 0; i < 40; i++)
		mad_get_pma(s, 3, MAD_ATTR_PORT_COUNTERS, 1, cb, &r[i]);
	mad_step(s, clock_fake = 0);
	ASSERT_EQ_U64(mad_session_stats(s)->sent, 16, "at most 16 in flight");
	ASSERT_EQ_INT(mad_next_timeout_ms(s, 0), 200, "next wake-up at the first deadline");
	mad_cancel_all(s);
	{
		int n = 0;

		for (int i = 0; i < 40; i++)
			n += r[i].calls == 1 && r[i].status == -ECANCELED;
		ASSERT_EQ_INT(n, 40, "cancel calls every callback once with -ECANCELED");
	}
	ASSERT_EQ_INT(mad_get_pma(s, 0, MAD_ATTR_PORT_COUNTERS, 1, cb, &r[0]), -EINVAL, "LID 0 refused");
	ASSERT_EQ_INT(mad_get_pma(s, 0xc001, MAD_ATTR_PORT_COUNTERS, 1, cb, &r[0]), -EINVAL, "multicast LID refused");
	ASSERT_EQ_INT(mad_get_dr(s, (const uint8_t[64]){ 0 }, 64, MAD_ATTR_NODE_INFO, 0, cb, &r[0]), -EINVAL,
		      "64 hops refused");
	mad_session_close(s);
}

/*
 * A session closed with requests in flight reads their answers before its
 * agents go (umad2sim crashes on an answer for an agent that is gone), and
 * never sends what was still queued.
 */
static void test_close_settles(void)
{
	struct fake fk = { 0 };
	struct mad_transport tp;
	struct mad_session *s = open_fake(&fk, &tp);
	struct result r[20];
	int n = 0;

	memset(r, 0, sizeof(r));
	for (int i = 0; i < 20; i++)
		mad_get_pma(s, 3, MAD_ATTR_PORT_COUNTERS, 1, cb, &r[i]);
	mad_step(s, clock_fake = 0);
	ASSERT_EQ_INT(fk.tail - fk.head, 16, "close: 16 answers in flight, not read yet");
	mad_session_close(s);
	ASSERT_EQ_INT(fk.tail - fk.head, 0, "close read every answer in flight before the agents went");
	ASSERT_EQ_INT(fk.nreq, 16, "... and sent none of the 4 still queued");
	for (int i = 0; i < 20; i++)
		n += r[i].calls == 1 && r[i].status == -ECANCELED;
	ASSERT_EQ_INT(n, 20, "... every callback called once, with -ECANCELED");
}

/* Without a pollable fd (umad2sim's fake ones) the loop is told to look often. */
static void test_nofd(void)
{
	struct fake fk = { .drop_all = true };
	struct mad_transport tp = { .send = fake_send, .recv = fake_recv, .fd = -1, .priv = &fk };
	struct mad_session *s;
	struct result r = { 0 };

	mad_session_open_transport(&s, &tp);
	ASSERT_EQ_INT(mad_fd(s), -1, "no fd offered");
	mad_get_pma(s, 3, MAD_ATTR_CLASS_PORT_INFO, 1, cb, &r);
	mad_step(s, clock_fake = 0);
	ASSERT_EQ_INT(mad_next_timeout_ms(s, 0), 2, "timeout capped at 2 ms");
	/* ... so a poll loop gives it a window that covers 2 ms of answers */
	TAP_OK(mad_loop_window(s, 32) > 64, "a loop's window without an fd: %u, not 32", mad_loop_window(s, 32));
	mad_session_close(s);
	ASSERT_EQ_INT(r.status, -ECANCELED, "closing cancels what is in flight");
	tp.fd = 0;	/* any pollable fd */
	mad_session_open_transport(&s, &tp);
	ASSERT_EQ_INT((int)mad_loop_window(s, 32), 32, "with an fd the window asked for");
	mad_session_close(s);
}

static void run_port(struct fake *fk, struct ib_local_port *lp)
{
	struct mad_transport tp;
	struct mad_session *s = open_fake(fk, &tp);

	memset(lp, 0, sizeof(*lp));
	snprintf(lp->ca, sizeof(lp->ca), "fake0");
	lp->port = 1;
	mad_port_query(s, lp, clock_fake = 0);
	for (int i = 0; i < 100 && !mad_idle(s); i++)
		mad_step(s, clock_fake += MS);
	TAP_OK(mad_idle(s), "port queries done");
	mad_port_explain(lp);
	mad_session_close(s);
}

static const struct fab_counter *find(const struct ib_pma *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->c[i].name, name))
			return &p->c[i];
	return NULL;
}

/* A counter's fields for a message (one per printf: the buffer is static). */
static const char *counter_str(const struct fab_counter *c)
{
	static char buf[96];

	if (!c)
		return "missing";
	snprintf(buf, sizeof(buf), "bits %u, known %d, value %" PRIu64, c->bits, c->known, c->value);
	return buf;
}

static void test_port_flows(void)
{
	struct ib_local_port lp;
	struct fake ext = { .cpi_cap = 0x1200 }, noext = { .cpi_cap = 0x1000 }, nocpi = { .cpi_cap = -1 };
	const struct fab_counter *c;

	run_port(&ext, &lp);
	ASSERT_EQ_INT(lp.self_state, IBQ_OK, "self answered");
	ASSERT_EQ_INT(lp.pi.lid, 3, "local LID");
	ASSERT_EQ_INT(lp.sm.state, IBQ_OK, "SMInfo answered");
	ASSERT_EQ_INT(lp.sm.sm_state, 3, "SM MASTER");
	ASSERT_EQ_INT(lp.peer_state, IBQ_OK, "partner found one hop out");
	ASSERT_EQ_STR(lp.peer.desc, "spine-a", "partner's description");
	ASSERT_EQ_INT(lp.peer_pi.lid, 2, "partner switch LID from its port 0");
	ASSERT_EQ_INT(lp.peer_pma.lid, 2, "partner PMA asked at that LID");
	ASSERT_EQ_INT(lp.peer_pma.port_select, 1, "for the partner's port");
	TAP_OK(lp.pma.ext && lp.pma.state == IBQ_OK, "ExtendedWidth advertised: 64-bit counters (ext %d, state %d)",
	       lp.pma.ext, (int)lp.pma.state);
	ASSERT_EQ_INT(ext.sent_by_attr[MAD_ATTR_PORT_COUNTERS_EXT], 2, "PortCountersExtended asked at both ends");
	c = find(&lp.pma, "port_xmit_data");
	TAP_OK(c && c->bits == 64 && c->known && c->value == 81985529216487399ull,
	       "data counter from PortCountersExtended (%s)", counter_str(c));
	c = find(&lp.pma, "symbol_error");
	TAP_OK(c && c->known && c->value == 7 && c->bits == 16, "errors from PortCounters (%s)", counter_str(c));
	ASSERT_EQ_STR(lp.note, "", "nothing to explain");

	run_port(&noext, &lp);
	TAP_OK(!lp.pma.ext && lp.pma.state == IBQ_OK, "no ExtendedWidth: PortCounters only (ext %d, state %d)",
	       lp.pma.ext, (int)lp.pma.state);
	ASSERT_EQ_INT(noext.sent_by_attr[MAD_ATTR_PORT_COUNTERS_EXT], 0, "PortCountersExtended never asked");
	c = find(&lp.pma, "port_xmit_data");
	TAP_OK(c && c->bits == 32 && c->known && c->value == 25416, "32-bit data counter from PortCounters (%s)",
	       counter_str(c));
	ASSERT_NULL(find(&lp.pma, "unicast_xmit_packets"), "no unicast counters without the IETF set");

	run_port(&nocpi, &lp);
	TAP_OK(!lp.pma.cpi_known && !lp.pma.ext && lp.pma.state == IBQ_OK,
	       "ClassPortInfo unsupported: fall back to PortCounters (cpi_known %d, ext %d, state %d)",
	       lp.pma.cpi_known, lp.pma.ext, (int)lp.pma.state);
	ASSERT_EQ_INT(nocpi.sent_by_attr[MAD_ATTR_PORT_COUNTERS], 2, "PortCounters asked at both ends");
}

/* A second local port: one hop out of it, onto what the first sweep did not see. */
static void test_sweep_more(void)
{
	struct fake fk = { .cpi_cap = 0x1200 };
	struct mad_transport tp;
	struct mad_session *s = open_fake(&fk, &tp);
	struct ib_fabric f;
	struct mad_sweep *sw;

	memset(&f, 0, sizeof(f));
	f.nodes = calloc(1, sizeof(*f.nodes));
	f.nnodes = 1;
	f.nodes[0].id.node_guid = 0x100000;	/* the local CA of node_info_ca.bin */
	f.nodes[0].id.node_type = 1;
	f.nodes[0].id.num_ports = 2;
	f.nodes[0].ports = calloc(3, sizeof(*f.nodes[0].ports));
	f.nodes[0].ports[1].linked = true;	/* port 1: swept already */

	sw = mad_sweep_start_more(s, &f, 0x100000, 1, NULL, clock_fake = 0);
	TAP_OK(sw == NULL && fk.nreq == 0, "a port whose cable is known: no MAD at all (sweep %p, %d requests)",
	       (void *)sw, (int)fk.nreq);

	sw = mad_sweep_start_more(s, &f, 0x100000, 2, NULL, clock_fake = 0);
	ASSERT_NOT_NULL(sw, "port 2 not linked yet: a sweep starts");
	for (int i = 0; i < 200 && !mad_idle(s); i++)
		mad_step(s, clock_fake += MS);
	mad_sweep_finish(sw, clock_fake);
	ASSERT_EQ_INT(f.nnodes, 2, "the switch behind port 2 is added");
	TAP_OK(f.nlinks >= 1 && f.links[0].a == 0 && f.links[0].a_port == 2 && f.links[0].b == 1 && f.links[0].b_port == 1,
	       "linked: local port 2 <-> switch port 1 (%zu links, first node %zu port %d <-> node %zu port %d)",
	       f.nlinks, f.nlinks ? f.links[0].a : 0, f.nlinks ? f.links[0].a_port : 0,
	       f.nlinks ? f.links[0].b : 0, f.nlinks ? f.links[0].b_port : 0);

	ASSERT_EQ_INT(f.nodes[1].hops, 1, "one hop out of port 2");
	ASSERT_EQ_INT(f.nodes[1].path[1], 2, "its directed route leaves by port 2");
	ASSERT_EQ_STR(f.nodes[1].id.desc, "spine-a", "its description");
	mad_session_close(s);
	ib_fabric_free(&f);
}

/*
 * Sweeps where every node answers garbage (200 seeds of one generator): each
 * ends, bounded by its node limit, and what it kept is consistent: each
 * link's ports exist on both nodes, every description is a string, every
 * node is known by one GUID. ASan in CI catches what a read past an array
 * would not show here.
 */
static void test_sweep_garbage(void)
{
	struct mad_sweep_limits lim = { .max_nodes = 100 };
	int bad = 0, ended = 0, nseeds = 200;
	size_t most = 0;

	for (int k = 0; k < nseeds; k++) {
		struct fake fk = { .garbage = 0x9e3779b97f4a7c15ull * (uint64_t)(k + 1) };
		struct mad_transport tp;
		struct mad_session *s = open_fake(&fk, &tp);
		struct ib_fabric f;
		struct mad_sweep *sw;
		int steps = 0;

		memset(&f, 0, sizeof(f));
		/* the sweep's own time limit runs on the real clock */
		sw = mad_sweep_start_more(s, &f, 0x1234, 1, &lim, util_now_ns());
		if (!sw) {
			TAP_OK(0, "seed %d: the sweep starts", k);
			mad_session_close(s);
			continue;
		}
		while (!mad_idle(s) && steps++ < 200000)
			mad_step(s, clock_fake += MS);
		ended += mad_idle(s);
		mad_sweep_finish(sw, clock_fake);
		most = f.nnodes > most ? f.nnodes : most;
		bad += f.nnodes > lim.max_nodes;
		for (size_t i = 0; i < f.nlinks; i++) {
			const struct ib_link *l = &f.links[i];

			bad += l->a >= f.nnodes || l->b >= f.nnodes || l->a_port > f.nodes[l->a].id.num_ports ||
			       l->b_port > f.nodes[l->b].id.num_ports;
		}
		for (size_t i = 0; i < f.nnodes; i++) {
			bad += strnlen(f.nodes[i].id.desc, IB_DESC_LEN) >= IB_DESC_LEN;
			for (size_t j = i + 1; j < f.nnodes; j++)
				bad += f.nodes[i].id.node_guid == f.nodes[j].id.node_guid;
		}
		mad_session_close(s);
		ib_fabric_free(&f);
	}
	ASSERT_EQ_INT(ended, nseeds, "garbage answers (200 fabrics of it): every sweep ends");
	ASSERT_EQ_INT(bad, 0, "... within its node limit, its links on ports that exist, each GUID once");
	TAP_OK(most > 1, "... and the garbage was taken for nodes (up to %zu), not refused wholesale", most);
}

/*
 * mad_run() against a fabric that never answers, on the real clock: 500
 * PMA requests (the counters of a dead branch), a window of 64, a second and
 * a retry each, would take 16 s; the deadline of 150 ms ends it, every
 * request gets its callback (cancelled), and the session is idle after.
 * The timeout is far beyond the deadline: with 200 ms, a poll woken 50 ms
 * late on a loaded machine found the first window timed out and resent it
 * (128 sent, not 64) before the deadline was looked at.
 */
static void test_run_deadline(void)
{
	struct fake fk = { .drop_all = true };
	struct mad_transport tp;
	struct mad_session *s = open_fake(&fk, &tp);
	struct mad_opts o = { .timeout_ms = 1000, .retries = 1, .window = 64 };
	struct result r[500];
	uint64_t t0, took;
	int rc, called = 0, cancelled = 0;

	memset(r, 0, sizeof(r));
	mad_session_set_opts(s, &o);
	for (int i = 0; i < 500; i++)
		mad_get_pma(s, (uint16_t)(1 + i), MAD_ATTR_PORT_COUNTERS, 1, cb, &r[i]);
	t0 = util_now_ns();
	rc = mad_run(s, t0 + 150 * MS);
	took = util_now_ns() - t0;
	for (int i = 0; i < 500; i++) {
		called += r[i].calls;
		cancelled += r[i].status == -ECANCELED;
	}
	ASSERT_EQ_INT(rc, -ETIMEDOUT, "mad_run says the deadline came first");
	TAP_OK(took >= 150 * MS && took < 250 * MS, "it returned at the 150 ms deadline (took %.1f ms)",
	       (double)took / 1e6);
	ASSERT_EQ_INT(called, 500, "every request got its callback");
	ASSERT_EQ_INT(cancelled, 500, "... as cancelled");
	ASSERT_EQ_INT(fk.nreq, 64, "only a window's worth was ever sent");
	TAP_OK(mad_idle(s), "the session is idle after");
	mad_session_close(s);
}

/* FABTOP_MAD_DUMP: symlinks planted at the names the dump writes are replaced, their target untouched. */
static void test_dump_planted(void)
{
	char dir[] = "/tmp/fabtop-maddump.XXXXXX", victim[256], name[300], buf[64];
	struct fake fk = { 0 };
	struct mad_transport tp;
	struct mad_session *s;
	struct result r = { 0 };
	struct stat st;
	FILE *f;

	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		exit(1);
	}
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	f = fopen(victim, "w");
	fputs("precious\n", f);
	fclose(f);
	/* a PMA (class 0x04) ClassPortInfo (0x0001) reply: the first is dump number 0 */
	for (int n = 0; n < 4; n++) {
		snprintf(name, sizeof(name), "%s/04-0001-%d.bin", dir, n);
		if (symlink(victim, name)) {
			printf("Bail out! symlink\n");
			exit(1);
		}
	}
	setenv("FABTOP_MAD_DUMP", dir, 1);
	s = open_fake(&fk, &tp);
	unsetenv("FABTOP_MAD_DUMP");
	mad_get_pma(s, 3, MAD_ATTR_CLASS_PORT_INFO, 1, cb, &r);
	mad_step(s, clock_fake = 0);
	mad_step(s, clock_fake = MS);
	mad_session_close(s);
	ASSERT_EQ_INT(r.status, 0, "dump: the reply came");
	f = fopen(victim, "r");
	TAP_OK(f && fgets(buf, sizeof(buf), f) && !strcmp(buf, "precious\n"),
	       "dump: the planted symlink's target is untouched");
	if (f)
		fclose(f);
	snprintf(name, sizeof(name), "%s/04-0001-0.bin", dir);
	TAP_OK(!lstat(name, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600 && st.st_size == MAD_SIZE,
	       "dump: the reply is a new regular 0600 file of %d bytes in its place", MAD_SIZE);
	snprintf(name, sizeof(name), "rm -rf '%s'", dir);
	if (system(name))
		printf("# could not remove %s\n", dir);
}

/*
 * A fabric of n1 CAs of one model (LIDs 10..) and a switch of another
 * (LID 40, ports 1 and 2 up), as a sweep from local port 0 leaves it.
 */
static void fake_fabric(struct ib_fabric *f, size_t n1)
{
	memset(f, 0, sizeof(*f));
	f->nodes = calloc(n1 + 1, sizeof(*f->nodes));
	for (size_t k = 0; k <= n1; k++) {
		struct ib_fnode *n = &f->nodes[k];
		bool sw = k == n1;

		n->id = (struct ib_node_id){ .node_guid = 0x100 + k, .node_type = sw ? 2 : 1, .num_ports = sw ? 2 : 1,
					     .vendor_id = 0x02c9, .device_id = sw ? 0xc738 : 0x1017, .revision = 1 };
		n->lid = sw ? 40 : (uint16_t)(10 + k);
		n->entry_port = 1;
		n->ports = calloc((size_t)n->id.num_ports + 1, sizeof(*n->ports));
		for (unsigned int p = 1; p <= n->id.num_ports; p++) {
			n->ports[p].known = true;
			n->ports[p].pi.num = (uint8_t)p;
			n->ports[p].pi.phys_state = PHYS_STATE_LINK_UP;
			n->ports[p].pi.lid = n->lid;
		}
	}
	f->nnodes = n1 + 1;
}

static void run_pma(struct fake *fk, struct ib_fabric *f)
{
	struct mad_transport tp;
	struct mad_session *s = open_fake(fk, &tp);
	struct mad_fpma run;

	mad_fpma_init(&run, f);
	for (size_t k = 0; k < f->nnodes; k++)
		mad_fpma_node(&run, s, k, clock_fake);
	for (int i = 0; i < 2000 && !mad_idle(s); i++)
		mad_step(s, clock_fake += MS);
	mad_fpma_tally(&run);
	mad_fpma_free(&run);
	mad_session_close(s);
}

/*
 * The counter sweep asks ClassPortInfo once per node model: 6 CAs of one
 * model and a switch of another cost 2. One CA (LID 15) runs other
 * firmware: it refuses PortCountersExtended, which its model's answer
 * promised, so its own ClassPortInfo is asked and its counters come from
 * PortCounters alone, known and right.
 */
static void test_cpi_per_model(void)
{
	struct fake fk = { .cpi_cap = 0x1200, .odd_lid = 15, .odd_cpi_cap = 0x1000 };
	struct ib_fabric f;
	const struct ib_pma *odd, *ok;
	const struct fab_counter *c;

	fake_fabric(&f, 6);
	run_pma(&fk, &f);
	ASSERT_EQ_INT(fk.sent_by_attr[MAD_ATTR_CLASS_PORT_INFO], 3,
		      "ClassPortInfo: one per model (2) and the odd node's own");
	ASSERT_EQ_INT(fk.cpi_by_lid[15], 1, "the odd node asked once, after it refused");
	ASSERT_EQ_INT((int)f.pma_cpi_shared, 5, "5 nodes took their model's answer");
	ASSERT_EQ_INT((int)f.pma_ports, 8, "8 ports asked");
	ASSERT_EQ_INT((int)f.pma_answered, 8, "all 8 answered");
	ok = f.nodes[1].ports[1].pma;
	TAP_OK(ok && ok->ext && ok->cpi_shared && ok->state == IBQ_OK, "a node of the model: 64-bit counters, shared");
	odd = f.nodes[5].ports[1].pma;
	TAP_OK(odd && !odd->ext && !odd->cpi_shared && odd->state == IBQ_OK && !odd->ext_failed,
	       "the odd node: its own answer, PortCounters only (ext %d, shared %d, state %d, ext_failed %d)",
	       odd ? odd->ext : -1, odd ? odd->cpi_shared : -1, odd ? (int)odd->state : -1,
	       odd ? odd->ext_failed : -1);
	c = odd ? find(odd, "port_xmit_data") : NULL;
	TAP_OK(c && c->bits == 32 && c->known && c->value == 25416, "its data counter from PortCounters (%s)",
	       counter_str(c));
	c = odd ? find(odd, "symbol_error") : NULL;
	TAP_OK(c && c->known && c->value == 7, "its errors (%s)", counter_str(c));
	ib_fabric_free(&f);
}

/*
 * A PMA whose CapabilityMask2 has IsAdditionalPortCountersExtendedSupported
 * gives every counter in PortCountersExtended: one MAD a port, no
 * PortCounters, the error counters 64 bits wide.
 */
static void test_pce_only(void)
{
	struct fake fk = { .cpi_cap = 0x1200, .cpi_cap2 = MAD_PMA_CAP2_ADDL_PORT_CTRS_EXT,
			   .pce_errors = 0x100000007ull };
	struct ib_fabric f;
	const struct ib_pma *pma;
	const struct fab_counter *c;

	fake_fabric(&f, 3);
	run_pma(&fk, &f);
	ASSERT_EQ_INT(fk.sent_by_attr[MAD_ATTR_PORT_COUNTERS], 0, "PortCounters never asked");
	ASSERT_EQ_INT(fk.sent_by_attr[MAD_ATTR_PORT_COUNTERS_EXT], 5, "PortCountersExtended once a port (5)");
	ASSERT_EQ_INT((int)f.pma_answered, 5, "all 5 answered");
	pma = f.nodes[0].ports[1].pma;
	TAP_OK(pma && pma->ext_only && pma->state == IBQ_OK, "the extended set alone");
	c = pma ? find(pma, "symbol_error") : NULL;
	TAP_OK(c && c->bits == 64 && c->known && c->value == 0x100000007ull,
	       "symbol_error from PortCountersExtended, 64 bits (%s)", counter_str(c));
	c = pma ? find(pma, "port_xmit_wait") : NULL;
	TAP_OK(c && c->bits == 64 && c->known && c->value == 0x100000007ull, "port_xmit_wait too (%s)",
	       counter_str(c));
	c = pma ? find(pma, "port_xmit_data") : NULL;
	TAP_OK(c && c->bits == 64 && c->known && c->value == 81985529216487399ull, "data as before (%s)",
	       counter_str(c));
	ib_fabric_free(&f);
}

int main(void)
{
	test_retry();
	test_reuse();
	test_timeout();
	test_late_and_transport_timeout();
	test_window_and_cancel();
	test_close_settles();
	test_nofd();
	test_port_flows();
	test_sweep_more();
	test_sweep_garbage();
	test_run_deadline();
	test_dump_planted();
	test_cpi_per_model();
	test_pce_only();
	return tap_done();
}
