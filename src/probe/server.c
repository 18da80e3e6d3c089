// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe server: serves stock rping clients and fabtop's bw/lat clients, hardened against hostile ones. */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/cm_reason.h"
#include "probe/fair.h"
#include "probe/probe_int.h"
#include "util.h"

#define MS 1000000ull
#define WC_BATCH 16
#define RPING_BUF (WIRE_RPING_MAX_SIZE + 1)

enum sc_state { SC_FREE, SC_ACCEPTING, SC_RUNNING, SC_CLOSING };
enum sr_step { SR_WAIT_SRC, SR_READING, SR_WAIT_SINK, SR_WRITING };

/* One client connection. */
struct srv_conn {
	enum sc_state state;
	struct rdma_cm_id *id;		/* owned; destroyed only after its events are acked */
	struct conn c;			/* verbs resources */
	enum probe_mode mode;
	struct wire_hello hello;	/* bw/lat: what the client asked for */
	char peer[PROBE_ADDR_MAX];
	char src[PROBE_ADDR_MAX];	/* the peer's /24 or /64 (fair_src_key()): the per-source cap's key */
	struct fair_meter meter;	/* useful work, for the eviction rule */
	uint64_t t_start;		/* CONNECT_REQUEST */
	uint64_t deadline;		/* accept, idle or close deadline */
	bool release;			/* release once the current CM event is acked */
	bool dropped;			/* ended by us for misbehaving */
	enum sr_step rstep;		/* rping: where this ping is */
	uint32_t rlen;			/* rping: bytes read this ping */
	uint64_t msgs, bytes;		/* progress of this connection */
	uint64_t expect_seq;		/* lat: next PING's sequence */
	uint64_t payload_errors;
};

struct server {
	struct rdma_cm_id *listen_id;
	struct srv_conn *sc;		/* nslots entries: active ones plus those closing */
	unsigned int nslots;
	struct fair_cand *cand;		/* nslots entries: the slots as the admission rule sees them */
	unsigned int *spin_list;	/* nslots entries: the slots a busy-poll pass looks at */
	uint64_t accepted, rejected, dropped, done;
	bool stopping;
	uint64_t stop_deadline;
};

/*
 * The connection runs: said once, whichever comes first (the CM's
 * ESTABLISHED or the client's first message), with the GID index the
 * connection's path uses, as the client says it (doc/probe.md).
 */
static void sc_established(struct probe *p, struct srv_conn *sc, uint64_t now)
{
	char type[16], gid[48] = "";
	int idx;

	sc->state = SC_RUNNING;
	sc->deadline = now + (uint64_t)p->o.idle_ms * MS;
	idx = conn_sgid_index(&sc->c, sc->id ? sc->id->port_num : 0, type, sizeof(type));
	if (idx >= 0)
		snprintf(gid, sizeof(gid), ", GID index %d%s%s", idx, type[0] ? " " : "", type);
	probe_event_add(p, now, "ESTABLISHED", 0, false, "%s%s", sc->peer, gid);
}

static unsigned int n_active(const struct server *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nslots; i++)
		if (s->sc[i].state == SC_ACCEPTING || s->sc[i].state == SC_RUNNING)
			n++;
	return n;
}

static void sc_release(struct probe *p, struct srv_conn *sc)
{
	conn_teardown(&sc->c);
	if (sc->id)
		rdma_destroy_id(sc->id);
	memset(sc, 0, sizeof(*sc));
	(void)p;
}

/* Ends a connection from our side: event, disconnect, release on DISCONNECTED or deadline. */
static void sc_drop(struct probe *p, struct srv_conn *sc, uint64_t now, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void sc_drop(struct probe *p, struct srv_conn *sc, uint64_t now, const char *fmt, ...)
{
	struct probe_event *e;
	char why[160];
	va_list ap;

	if (sc->state == SC_CLOSING || sc->state == SC_FREE)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	e = probe_event_add(p, now, "DROPPED", 0, true, "%s: %s", sc->peer, why);
	(void)e;
	p->srv->dropped++;
	sc->dropped = true;
	sc->state = SC_CLOSING;
	sc->deadline = now + (uint64_t)p->o.timeout_ms * MS;
	if (rdma_disconnect(sc->id))
		sc->deadline = now;	/* never connected: release at once */
}

static void sc_closed(struct probe *p, struct srv_conn *sc, uint64_t now)
{
	if (!sc->dropped) {
		p->srv->done++;
		probe_event_add(p, now, "DISCONNECTED", 0, false, "%s: %s mode, %llu %s, %llu bytes%s",
				sc->peer, probe_mode_name(sc->mode), (unsigned long long)sc->msgs,
				sc->mode == PROBE_MODE_RPING ? "pings" : sc->mode == PROBE_MODE_LAT ? "echoes" :
				(sc->hello.flags & WIRE_HELLO_SEND) ? "SENDs received" : "writes (client's count)",
				(unsigned long long)sc->bytes,
				sc->payload_errors ? ", payload errors" : sc->mode == PROBE_MODE_RPING && sc->msgs ? ", payload ok" : "");
	}
	sc->release = true;
}

static void reject(struct probe *p, struct rdma_cm_id *id, uint64_t now, const char *peer,
		   uint8_t code, const char *text)
{
	uint8_t rj[WIRE_REJECT_LEN];

	wire_reject_pack(code, text, rj);
	rdma_reject(id, rj, sizeof(rj));
	p->srv->rejected++;
	probe_event_add(p, now, "REJECT", 28, false, "%s: %s%s%s", peer, wire_reject_code_str(code),
			text && *text ? ": " : "", text ? text : "");
}

/* Counts work of one connection everywhere it is kept: its own, the server's, the eviction rule's. */
static void sc_count(struct probe *p, struct srv_conn *sc, uint64_t now, uint64_t msgs, uint64_t bytes)
{
	sc->msgs = fair_sat_add(sc->msgs, msgs);
	sc->bytes = fair_sat_add(sc->bytes, bytes);
	stats_add(&p->stats, now, msgs, bytes);
	fair_meter_add(&sc->meter, now, msgs, bytes);
}

static unsigned int per_source(const struct probe *p)
{
	return p->o.max_per_source ? p->o.max_per_source : fair_default_per_source(p->o.max_conns);
}

static const struct fair_cand *fill_cand(struct server *s)
{
	unsigned int i;

	for (i = 0; i < s->nslots; i++) {
		s->cand[i].active = s->sc[i].state == SC_ACCEPTING || s->sc[i].state == SC_RUNNING;
		s->cand[i].m = &s->sc[i].meter;
		s->cand[i].src = s->sc[i].src;
	}
	return s->cand;
}

static void evict(struct probe *p, struct srv_conn *victim, uint64_t now, const char *why)
{
	sc_drop(p, victim, now, "evicted: %llu bytes on the wire lately, under the %llu a second that count as work, "
		"for %llu ms, %s", (unsigned long long)fair_recent_bytes(&victim->meter, now),
		(unsigned long long)victim->meter.min_bytes,
		(unsigned long long)((now - victim->meter.t_useful) / MS), why);
}

/* What a window must carry on the port a connection came in on (fair_min_bytes() of its rate). */
static uint64_t port_min_bytes(struct rdma_cm_id *id)
{
	struct ibv_port_attr pa;

	if (!id->verbs || ibv_query_port(id->verbs, id->port_num, &pa))
		return fair_min_bytes(0);
	return fair_min_bytes(fair_port_rate_mbps(pa.active_speed, pa.active_width));
}

/*
 * A slot for a newcomer from src, by the admission rule (src/probe/fair.h):
 * an idle connection may be evicted for it. NULL with *code and text set
 * when it must be rejected.
 */
static struct srv_conn *free_slot(struct probe *p, uint64_t now, const char *src, uint8_t *code,
				  char *text, size_t textlen)
{
	struct server *s = p->srv;
	struct srv_conn *slot = NULL;
	unsigned int i;
	int v;

	/*
	 * An evicted connection holds its slot until it has closed: with every
	 * slot taken by connections still closing, evicting one more would drop
	 * it and admit nobody. The newcomer is refused first, no one evicted.
	 */
	for (i = 0; i < s->nslots && !slot; i++)
		if (s->sc[i].state == SC_FREE)
			slot = &s->sc[i];
	if (!slot) {
		*code = WIRE_REJ_BUSY;
		snprintf(text, textlen, "connections still closing");
		return NULL;
	}
	switch (fair_admit(fill_cand(s), s->nslots, now, src, p->o.max_conns, per_source(p), &v)) {
	case FAIR_ADMIT:
		break;
	case FAIR_EVICT_SOURCE:
		evict(p, &s->sc[v], now, "and its address is at its cap");
		break;
	case FAIR_EVICT_FULL:
		evict(p, &s->sc[v], now, "and the server is full");
		break;
	case FAIR_REJECT_SOURCE:
		*code = WIRE_REJ_PER_SOURCE;
		snprintf(text, textlen, "%u from it (%s, the cap)", per_source(p), src);
		return NULL;
	case FAIR_REJECT_BUSY:
		*code = WIRE_REJ_BUSY;
		snprintf(text, textlen, "%u connections working", p->o.max_conns);
		return NULL;
	}
	return slot;
}

/*
 * conn_setup() failed (pinned memory, RLIMIT_MEMLOCK, is the usual reason):
 * evict by the same rule, free the victim's verbs resources at once (its id
 * stays for the DISCONNECTED event) and try once more. 0 when it worked.
 */
static int setup_evicting(struct probe *p, struct srv_conn *sc, struct rdma_cm_id *id,
			  const struct conn_params *cp, uint64_t now, char *err, size_t errlen)
{
	struct server *s = p->srv;
	int v;

	if (!conn_setup(&sc->c, id, cp, err, errlen))
		return 0;
	v = fair_pick_victim(fill_cand(s), s->nslots, now, NULL);
	if (v < 0)
		return -1;
	evict(p, &s->sc[v], now, "and a newcomer needs its memory");
	conn_teardown(&s->sc[v].c);
	return conn_setup(&sc->c, id, cp, err, errlen) ? -1 : 0;
}

/*
 * Returns an id the caller destroys after acking the event, or NULL.
 * Long: every check a hostile or confused client can fail, in the order a connection is accepted, each ending in its own reject.
 */
static struct rdma_cm_id *on_connect_request(struct probe *p, uint64_t now, struct rdma_cm_event *ev)
{
	struct rdma_cm_id *id = ev->id;
	struct srv_conn *sc;
	struct wire_hello h;
	struct conn_params cp;
	struct rdma_conn_param prm;
	uint8_t acc[WIRE_ACCEPT_LEN];
	char peer[PROBE_ADDR_MAX], src[PROBE_ADDR_MAX], err[PROBE_EVENT_TEXT_MAX];
	uint8_t code = WIRE_REJ_BUSY;
	enum wire_err we;
	enum probe_mode mode = PROBE_MODE_RPING;

	probe_addr_str(rdma_get_peer_addr(id), peer, sizeof(peer));
	fair_src_key(rdma_get_peer_addr(id), src, sizeof(src));
	if (p->srv->stopping) {
		reject(p, id, now, peer, WIRE_REJ_SHUTTING_DOWN, NULL);
		return id;
	}
	we = ev->param.conn.private_data ?
		wire_hello_parse(ev->param.conn.private_data, ev->param.conn.private_data_len, &h) :
		WIRE_NOT_OURS;
	if (we == WIRE_OK) {
		mode = (enum probe_mode)h.mode;
	} else if (we != WIRE_NOT_OURS) {
		reject(p, id, now, peer, WIRE_REJ_BAD_HELLO, wire_err_str(we));
		return id;
	} else {
		/* no fabtop hello: a stock rping client (its private data is absent or zeros) */
		memset(&h, 0, sizeof(h));
	}
	sc = free_slot(p, now, src, &code, err, sizeof(err));
	if (!sc) {
		reject(p, id, now, peer, code, err);
		return id;
	}

	memset(&cp, 0, sizeof(cp));
	cp.recv_slots = CONN_CTRL_RECVS;
	switch (mode) {
	case PROBE_MODE_RPING:
		cp.rdma_depth = 1;
		cp.slot_size = 64;	/* rping sends 16; bigger ones show up as wrong lengths, not errors */
		cp.buf_len[0] = RPING_BUF;
		break;
	case PROBE_MODE_BW:
		cp.rdma_depth = 0;
		if (h.flags & WIRE_HELLO_SEND) {
			/*
			 * As many receives as a connection may hold (at most 2 MiB): the
			 * client's sends complete when our NIC has taken them, not when we
			 * have reposted, so a server slow to wake (emulation: milliseconds)
			 * must not run dry, or every send waits out an RNR NAK timer.
			 */
			cp.recv_slots = CONN_MAX_RECV_SLOTS;
			cp.slot_size = h.size;
			break;
		}
		cp.slot_size = 64;
		cp.buf_len[0] = h.size;
		cp.buf_access[0] = IBV_ACCESS_REMOTE_WRITE;
		break;
	case PROBE_MODE_LAT:
		cp.rdma_depth = 0;
		cp.slot_size = h.size;
		break;
	}
	if (setup_evicting(p, sc, id, &cp, now, err, sizeof(err))) {
		reject(p, id, now, peer, WIRE_REJ_NO_RESOURCES, err);
		return id;
	}
	memset(&prm, 0, sizeof(prm));
	prm.responder_resources = 1;
	prm.initiator_depth = 1;	/* rping mode READs the client's source buffer */
	prm.retry_count = 7;
	prm.rnr_retry_count = 7;
	if (mode != PROBE_MODE_RPING) {
		struct wire_accept a = { .version = WIRE_VERSION, .mode = (uint8_t)mode };

		if (mode == PROBE_MODE_BW && !(h.flags & WIRE_HELLO_SEND)) {
			a.addr = (uintptr_t)sc->c.buf[0];
			a.rkey = sc->c.mr[0]->rkey;
			a.size = h.size;
		}
		wire_accept_pack(&a, acc);
		prm.private_data = acc;
		prm.private_data_len = sizeof(acc);
	}
	if (rdma_accept(id, &prm)) {
		probe_event_add(p, now, "ERROR", -errno, true, "%s: rdma_accept: %s", peer, strerror(errno));
		conn_teardown(&sc->c);
		return id;
	}
	sc->state = SC_ACCEPTING;
	sc->id = id;
	sc->mode = mode;
	sc->hello = h;
	sc->t_start = now;
	fair_meter_init(&sc->meter, now, port_min_bytes(id));
	snprintf(sc->src, sizeof(sc->src), "%s", src);
	sc->deadline = now + (uint64_t)p->o.timeout_ms * MS;
	sc->rstep = SR_WAIT_SRC;
	snprintf(sc->peer, sizeof(sc->peer), "%s", peer);
	id->context = sc;
	p->srv->accepted++;
	if (mode == PROBE_MODE_RPING)
		probe_event_add(p, now, "CONNECT_REQUEST", 0, false, "%s: rping mode", peer);
	else
		probe_event_add(p, now, "CONNECT_REQUEST", 0, false, "%s: %s mode, %u-byte messages%s",
				peer, probe_mode_name(mode), h.size, mode != PROBE_MODE_BW ? "" :
				(h.flags & WIRE_HELLO_SEND) ? ", SENDs received and counted" : ", sink offered for WRITEs");
	return NULL;
}

static struct srv_conn *find_conn(struct server *s, struct rdma_cm_id *id)
{
	unsigned int i;

	for (i = 0; i < s->nslots; i++)
		if (s->sc[i].state != SC_FREE && s->sc[i].id == id)
			return &s->sc[i];
	return NULL;
}

static struct rdma_cm_id *server_cm_event(struct probe *p, uint64_t now, struct rdma_cm_event *ev)
{
	struct server *s = p->srv;
	struct srv_conn *sc;
	char why[PROBE_EVENT_TEXT_MAX];

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return on_connect_request(p, now, ev);
	if (ev->id == s->listen_id) {
		if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
			probe_fail(p, now, "DEVICE_REMOVAL", 0, "the RDMA device under the listener went away");
		return NULL;
	}
	sc = find_conn(s, ev->id);
	if (!sc)
		return NULL;
	switch (ev->event) {
	case RDMA_CM_EVENT_ESTABLISHED:
		if (sc->state == SC_ACCEPTING)
			sc_established(p, sc, now);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		sc_closed(p, sc, now);
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
		cm_reason_explain(why, sizeof(why), ev->event, ev->status);
		sc_drop(p, sc, now, "%s %s", cm_reason_event_name(ev->event), why);
		sc->release = true;
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		sc_drop(p, sc, now, "device removed");
		sc->release = true;
		break;
	default:
		break;
	}
	return NULL;
}

/* ---- data path ---- */

static void sc_send16(struct probe *p, struct srv_conn *sc, uint64_t now)
{
	/* rping's server answers with its (unused) 16-byte send buffer; only the length matters */
	uint8_t msg[WIRE_RPING_INFO_LEN] = { 0 };
	int e = conn_send(&sc->c, msg, sizeof(msg));

	if (e)
		sc_drop(p, sc, now, "cannot send: %s", strerror(-e));
}

static void rping_recv(struct probe *p, struct srv_conn *sc, uint64_t now, const uint8_t *b, uint32_t len)
{
	struct wire_rping_info info;
	enum wire_err we = wire_rping_info_parse(b, len, &info);
	size_t wlen;
	int e;

	if (we) {
		sc_drop(p, sc, now, "message of %u bytes (rping's are %d): %s", len, WIRE_RPING_INFO_LEN,
			wire_err_str(we));
		return;
	}
	switch (sc->rstep) {
	case SR_WAIT_SRC:
		if (info.len < 1 || info.len > sc->c.buf_len[0]) {
			sc_drop(p, sc, now, "source buffer of %u bytes (allowed 1..%zu)", info.len, sc->c.buf_len[0]);
			return;
		}
		e = conn_post(&sc->c, IBV_WR_RDMA_READ, 0, 0, info.len, info.addr, info.rkey, 0);
		if (e) {
			sc_drop(p, sc, now, "cannot post RDMA READ: %s", strerror(-e));
			return;
		}
		sc->rlen = info.len;
		sc->rstep = SR_READING;
		break;
	case SR_WAIT_SINK:
		/* rping echoes up to the NUL; never past what was read */
		wlen = strnlen((const char *)sc->c.buf[0], sc->rlen);
		if (wlen < sc->rlen)
			wlen++;
		if (info.len < wlen) {
			sc_drop(p, sc, now, "sink buffer of %u bytes is smaller than the %zu to echo", info.len, wlen);
			return;
		}
		e = conn_post(&sc->c, IBV_WR_RDMA_WRITE, 0, 0, wlen, info.addr, info.rkey, 0);
		if (e) {
			sc_drop(p, sc, now, "cannot post RDMA WRITE: %s", strerror(-e));
			return;
		}
		sc->rstep = SR_WRITING;
		break;
	default:
		sc_drop(p, sc, now, "advertisement while a transfer is in progress");
		break;
	}
}

static void lat_recv(struct probe *p, struct srv_conn *sc, uint64_t now, uint8_t *b, uint32_t len)
{
	struct wire_msg m;
	enum wire_err we = wire_msg_parse(b, len, &m);
	int e;

	if (we || m.type != WIRE_MSG_PING || len != sc->hello.size || m.seq != sc->expect_seq) {
		sc_drop(p, sc, now, "bad PING (%u bytes, type %u, seq %llu; expected %u bytes, seq %llu): %s",
			len, we ? 0 : m.type, we ? 0ull : (unsigned long long)m.seq, sc->hello.size,
			(unsigned long long)sc->expect_seq, we ? wire_err_str(we) : "wrong type, size or sequence");
		return;
	}
	m.type = WIRE_MSG_PONG;
	wire_msg_pack(&m, b);
	e = conn_send(&sc->c, b, len);
	if (e) {
		if (e == -EBUSY)
			sc_drop(p, sc, now, "client sends without waiting for echoes");
		else
			sc_drop(p, sc, now, "cannot send: %s", strerror(-e));
		return;
	}
	sc->expect_seq++;
	sc_count(p, sc, now, 1, 2ull * len);
}

/*
 * WRITEs leave no trace at the target: their count is the client's claim,
 * checked against what this server knows (src/probe/fair.h) before any
 * total moves; a claim that fails drops the client with the reason.
 */
static bool bw_claim_ok(struct probe *p, struct srv_conn *sc, uint64_t now, const char *what, uint64_t claim)
{
	enum fair_claim c = fair_claim_check(sc->msgs, claim, sc->hello.count, sc->hello.size,
					     now - sc->t_start);

	if (c == FAIR_CLAIM_OK)
		return true;
	sc_drop(p, sc, now, "%s claims %llu writes of %u bytes (announced %llu, claimed before %llu, after %llu ms): %s",
		what, (unsigned long long)claim, sc->hello.size, (unsigned long long)sc->hello.count,
		(unsigned long long)sc->msgs, (unsigned long long)((now - sc->t_start) / MS), fair_claim_str(c));
	return false;
}

static void bw_claim(struct probe *p, struct srv_conn *sc, uint64_t now, const char *what, uint64_t claim)
{
	uint64_t d;

	if (!bw_claim_ok(p, sc, now, what, claim))
		return;
	d = claim - sc->msgs;
	sc_count(p, sc, now, d, d * sc->hello.size);
}

static void bw_recv(struct probe *p, struct srv_conn *sc, uint64_t now, const uint8_t *b, uint32_t len)
{
	struct wire_msg m;
	enum wire_err we = wire_msg_parse(b, len, &m);
	uint8_t ack[WIRE_MSG_HDR_LEN];
	int e;

	if (!we && m.type == WIRE_MSG_DATA && (sc->hello.flags & WIRE_HELLO_SEND)) {
		if (len != sc->hello.size || m.seq != sc->expect_seq ||
		    (sc->hello.count && m.seq >= sc->hello.count)) {
			sc_drop(p, sc, now, "bad DATA message (%u bytes, seq %llu; expected %u bytes, seq %llu)",
				len, (unsigned long long)m.seq, sc->hello.size, (unsigned long long)sc->expect_seq);
			return;
		}
		sc->expect_seq++;
		sc_count(p, sc, now, 1, len);
		return;
	}
	if (!we && m.type == WIRE_MSG_PROGRESS && !(sc->hello.flags & WIRE_HELLO_SEND) &&
	    len == WIRE_MSG_HDR_LEN) {
		bw_claim(p, sc, now, "PROGRESS", m.seq);
		return;
	}
	if (we || m.type != WIRE_MSG_FIN || len != WIRE_MSG_HDR_LEN) {
		sc_drop(p, sc, now, "bad FIN (%u bytes): %s", len, we ? wire_err_str(we) : "wrong type");
		return;
	}
	if (sc->hello.flags & WIRE_HELLO_SEND) {
		/* the answer is what arrived here; the client compares it with what it sent */
		m.type = WIRE_MSG_FIN_ACK;
		m.seq = sc->msgs;
		wire_msg_pack(&m, ack);
		e = conn_send(&sc->c, ack, sizeof(ack));
		if (e)
			sc_drop(p, sc, now, "cannot send: %s", strerror(-e));
		return;
	}
	if (!bw_claim_ok(p, sc, now, "FIN", m.seq))
		return;
	m.type = WIRE_MSG_FIN_ACK;
	wire_msg_pack(&m, ack);
	e = conn_send(&sc->c, ack, sizeof(ack));
	if (e) {
		sc_drop(p, sc, now, "cannot send: %s", strerror(-e));
		return;
	}
	bw_claim(p, sc, now, "FIN", m.seq);
}

static void sc_completion(struct probe *p, struct srv_conn *sc, uint64_t now, struct ibv_wc *wc)
{
	unsigned int kind = conn_wr_kind(wc->wr_id), idx = conn_wr_index(wc->wr_id);
	uint8_t tmp[WIRE_MAX_LAT_SIZE];
	uint64_t ping;
	uint32_t len;

	if (wc->status != IBV_WC_SUCCESS) {
		if (wc->status != IBV_WC_WR_FLUSH_ERR)
			sc_drop(p, sc, now, "%s failed: %s", kind == CONN_WR_RECV ? "receive" :
				kind == CONN_WR_SEND ? "send" : sc->rstep == SR_READING ? "RDMA READ of the client's buffer" :
				"RDMA WRITE to the client's buffer", ibv_wc_status_str(wc->status));
		return;
	}
	if (sc->state == SC_ACCEPTING)
		sc_established(p, sc, now);	/* data can beat ESTABLISHED */
	sc->deadline = now + (uint64_t)p->o.idle_ms * MS;
	switch (kind) {
	case CONN_WR_RECV:
		len = wc->byte_len;
		if (len > sc->c.slot_size || idx >= sc->c.recv_slots) {
			sc_drop(p, sc, now, "receive of %u bytes", len);
			return;
		}
		memcpy(tmp, conn_recv_slot(&sc->c, idx), len);
		if (conn_post_recv(&sc->c, idx)) {
			sc_drop(p, sc, now, "cannot repost a receive");
			return;
		}
		if (sc->mode == PROBE_MODE_RPING)
			rping_recv(p, sc, now, tmp, len);
		else if (sc->mode == PROBE_MODE_LAT)
			lat_recv(p, sc, now, tmp, len);
		else
			bw_recv(p, sc, now, tmp, len);
		break;
	case CONN_WR_RDMA:
		if (sc->mode != PROBE_MODE_RPING)
			break;
		if (sc->rstep == SR_READING) {
			if (wire_rping_payload_check(sc->c.buf[0], sc->rlen, &ping) != WIRE_OK) {
				if (!sc->payload_errors)
					probe_event_add(p, now, "PAYLOAD", 0, false,
							"%s: ping %llu is not in rping's format (counted, not dropped)",
							sc->peer, (unsigned long long)sc->msgs);
				sc->payload_errors++;
				p->payload_errors++;
			}
			sc->rstep = SR_WAIT_SINK;
			sc_send16(p, sc, now);
		} else if (sc->rstep == SR_WRITING) {
			sc_count(p, sc, now, 1, 2ull * sc->rlen);
			sc->rstep = SR_WAIT_SRC;
			sc_send16(p, sc, now);
		}
		break;
	default:
		break;
	}
}

/*
 * At most SC_BUDGET completions per connection and call: a client that floods
 * cannot starve the others (or the event channel). Returns true when its CQ
 * may hold more.
 */
#define SC_BUDGET (2 * WC_BATCH)
static bool sc_poll(struct probe *p, struct srv_conn *sc, uint64_t now)
{
	struct ibv_wc wc[WC_BATCH];
	int n, i, budget = SC_BUDGET;
	bool timed;

	while ((n = conn_poll(&sc->c, wc, WC_BATCH)) > 0) {
		timed = false;
		for (i = 0; i < n; i++) {
			if (sc->state == SC_CLOSING)
				continue;	/* flushes */
			sc_completion(p, sc, now, &wc[i]);
			timed |= conn_wr_kind(wc[i].wr_id) != CONN_WR_SEND;
		}
		/*
		 * The clock is read after the batch, not before: an echo or
		 * a reply leaves first, and the reading (about a microsecond
		 * in a VM) overlaps its travel. The batch's completions are
		 * stamped with the time of the one before (microseconds old,
		 * enough for deadlines and rates); send completions alone
		 * need no reading, and a busy-poll reads it on its own
		 * schedule (server_spin()).
		 */
		if (timed && !sc->c.spinning)
			now = p->cq_ns = util_now_ns();
		if (n < WC_BATCH)
			break;
		budget -= n;
		if (budget <= 0)
			return true;
	}
	if (n < 0)
		sc_drop(p, sc, now, "ibv_poll_cq failed");
	return false;
}

/* ---- lifecycle ---- */

int server_start(struct probe *p, uint64_t now)
{
	struct sockaddr_storage ss;
	char err[PROBE_EVENT_TEXT_MAX], where[PROBE_ADDR_MAX];
	struct server *s;

	s = calloc(1, sizeof(*s));
	if (!s) {
		probe_fail(p, now, "ERROR", -ENOMEM, "out of memory");
		return -1;
	}
	p->srv = s;
	s->nslots = p->o.max_conns * 2;	/* room for connections still closing */
	s->sc = calloc(s->nslots, sizeof(*s->sc));
	s->cand = calloc(s->nslots, sizeof(*s->cand));
	s->spin_list = calloc(s->nslots, sizeof(*s->spin_list));
	if (!s->sc || !s->cand || !s->spin_list) {
		probe_fail(p, now, "ERROR", -ENOMEM, "out of memory");
		return -1;
	}
	if (probe_parse_addr(p->o.listen_addr ? p->o.listen_addr : "0.0.0.0", p->o.port, &ss, err, sizeof(err))) {
		probe_fail(p, now, "ADDR_ERROR", 0, "%s", err);
		return -1;
	}
	if (probe_channel_open(p, err, sizeof(err))) {
		probe_fail(p, now, "ERROR", 0, "%s", err);
		return -1;
	}
	if (rdma_create_id(p->ech, &s->listen_id, p, RDMA_PS_TCP)) {
		probe_fail(p, now, "ERROR", -errno, "rdma_create_id: %s", strerror(errno));
		return -1;
	}
	probe_addr_str((struct sockaddr *)&ss, where, sizeof(where));
	if (rdma_bind_addr(s->listen_id, (struct sockaddr *)&ss)) {
		int e = errno;

		probe_fail(p, now, "ADDR_ERROR", -e, "cannot bind %s: %s%s", where, strerror(e),
			   e == EADDRNOTAVAIL || e == ENODEV ? " (no RDMA device has that address)" : "");
		return -1;
	}
	if (rdma_listen(s->listen_id, (int)p->o.max_conns)) {
		probe_fail(p, now, "ERROR", -errno, "rdma_listen on %s: %s", where, strerror(errno));
		return -1;
	}
	snprintf(p->st.local, sizeof(p->st.local), "%s", where);
	p->state = PROBE_LISTENING;
	probe_event_add(p, now, "LISTENING", 0, false, "on %s: rping, bw and lat clients, up to %u at once, %u from one /24 or /64",
			where, p->o.max_conns, per_source(p));
	return 0;
}

int server_fds(struct probe *p, struct pollfd *fds, int max)
{
	struct server *s = p->srv;
	unsigned int i;
	int n = 0;

	if (p->ech && n < max) {
		fds[n].fd = p->ech->fd;
		fds[n].events = POLLIN;
		fds[n].revents = 0;
		n++;
	}
	for (i = 0; i < s->nslots && n < max; i++) {
		if (s->sc[i].state == SC_FREE || !s->sc[i].c.ch)
			continue;
		fds[n].fd = conn_fd(&s->sc[i].c);
		fds[n].events = POLLIN;
		fds[n].revents = 0;
		n++;
	}
	return n;
}

uint64_t server_deadline(const struct probe *p)
{
	const struct server *s = p->srv;
	uint64_t d = s->stopping ? s->stop_deadline : 0;
	unsigned int i;

	for (i = 0; i < s->nslots; i++)
		if (s->sc[i].state != SC_FREE && s->sc[i].deadline && (!d || s->sc[i].deadline < d))
			d = s->sc[i].deadline;
	return d;
}

void server_stop(struct probe *p, uint64_t now)
{
	struct server *s = p->srv;
	unsigned int i, closing = n_active(s);	/* counted before they are all marked closing */

	if (s->stopping)
		return;
	s->stopping = true;
	s->stop_deadline = now + (uint64_t)p->o.timeout_ms * MS;
	if (s->listen_id) {
		rdma_destroy_id(s->listen_id);
		s->listen_id = NULL;
	}
	for (i = 0; i < s->nslots; i++) {
		struct srv_conn *sc = &s->sc[i];

		if (sc->state == SC_ACCEPTING || sc->state == SC_RUNNING) {
			sc->state = SC_CLOSING;
			sc->deadline = s->stop_deadline;
			if (rdma_disconnect(sc->id))
				sc->deadline = now;
		}
	}
	probe_event_add(p, now, "STOPPED", 0, false, "server stopping: %u connections to close", closing);
}

/*
 * Busy-poll the running connections while completions keep coming
 * (--spin-us), 50 ms at most. A pass looks only at the connections that
 * can complete (listed once: new ones come through CM events, handled
 * between spins), not at every slot. The clock is read once per
 * SPIN_IDLE_POLLS passes, busy or not, and stamps what they completed: no
 * reading per message.
 */
static void server_spin(struct probe *p)
{
	struct server *s = p->srv;
	uint64_t t, end, until, before;
	unsigned int i, k, n = 0, passes = 0;
	bool busy = false;

	for (i = 0; i < s->nslots; i++) {
		if (s->sc[i].state == SC_RUNNING || s->sc[i].state == SC_ACCEPTING) {
			s->sc[i].c.spinning = true;
			s->spin_list[n++] = i;
		}
	}
	if (!n)
		return;
	t = util_now_ns();
	end = t + 50 * MS;
	until = t + p->o.spin_us * 1000ull;
	while (t < until && t < end && p->state == PROBE_LISTENING) {
		before = p->stats.msgs;
		for (k = 0; k < n; k++) {
			struct srv_conn *sc = &s->sc[s->spin_list[k]];

			if (sc->state == SC_RUNNING || sc->state == SC_ACCEPTING)
				sc_poll(p, sc, t);
		}
		busy |= p->stats.msgs != before;
		if (++passes < SPIN_IDLE_POLLS)
			continue;
		passes = 0;
		if (!busy)
			sched_yield();
		t = p->cq_ns = util_now_ns();
		if (busy)
			until = t + p->o.spin_us * 1000ull;
		busy = false;
	}
	for (k = 0; k < n; k++)
		s->sc[s->spin_list[k]].c.spinning = false;
}

void server_handle(struct probe *p, uint64_t now)
{
	struct server *s = p->srv;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *kill;
	unsigned int i;

	while (p->ech && p->state == PROBE_LISTENING && rdma_get_cm_event(p->ech, &ev) == 0) {
		kill = server_cm_event(p, now, ev);
		rdma_ack_cm_event(ev);
		/* ids are destroyed only now: rdma_destroy_id() waits for their events to be acked */
		if (kill)
			rdma_destroy_id(kill);
		for (i = 0; i < s->nslots; i++)
			if (s->sc[i].state != SC_FREE && s->sc[i].release)
				sc_release(p, &s->sc[i]);
	}
	if (p->state != PROBE_LISTENING)
		return;
	p->cq_more = false;
	for (i = 0; i < s->nslots; i++) {
		struct srv_conn *sc = &s->sc[i];

		if (sc->state == SC_FREE)
			continue;
		if (sc_poll(p, sc, now))
			p->cq_more = true;
		if (sc->deadline && now >= sc->deadline) {
			if (sc->state == SC_ACCEPTING)
				sc_drop(p, sc, now, "no ESTABLISHED within %u ms", p->o.timeout_ms);
			else if (sc->state == SC_RUNNING)
				sc_drop(p, sc, now, "idle for %u ms", p->o.idle_ms);
			else if (sc->state == SC_CLOSING && now >= sc->deadline)
				sc_release(p, sc);
		}
	}
	if (p->o.spin_us && !s->stopping)
		server_spin(p);
	stats_tick(&p->stats, now);
	/* --once counts clients served: one a hostile or stalled client got dropped must not end it */
	if (!s->stopping && p->o.serve_conns && s->done >= p->o.serve_conns)
		server_stop(p, now);
	if (s->stopping && (!n_active(s) || now >= s->stop_deadline)) {
		for (i = 0; i < s->nslots; i++)
			if (s->sc[i].state == SC_CLOSING && (now >= s->stop_deadline || s->sc[i].release))
				sc_release(p, &s->sc[i]);
		for (i = 0; i < s->nslots; i++)
			if (s->sc[i].state != SC_FREE)
				return;
		p->state = PROBE_DONE;
	}
}

void server_free(struct probe *p)
{
	struct server *s = p->srv;
	unsigned int i;

	if (!s)
		return;
	for (i = 0; i < s->nslots; i++)
		if (s->sc[i].state != SC_FREE)
			sc_release(p, &s->sc[i]);
	if (s->listen_id)
		rdma_destroy_id(s->listen_id);
	free(s->sc);
	free(s->cand);
	free(s->spin_list);
	free(s);
	p->srv = NULL;
}

void server_status(const struct probe *p, struct probe_status *st)
{
	const struct server *s = p->srv;

	st->conns_active = n_active(s);
	st->conns_accepted = s->accepted;
	st->conns_rejected = s->rejected;
	st->conns_dropped = s->dropped;
	st->conns_done = s->done;
}
