// SPDX-License-Identifier: GPL-2.0-or-later
/* Subscribing to the SM's traps (InformInfo Set to the SA) and acknowledging its Reports, without blocking. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "derive/mad_decode.h"
#include "mad/mad_trap.h"
#include "mad/umad.h"
#include "util.h"

const uint16_t mad_trap_numbers[MAD_TRAP_NSUB] = { 64, 65, 128, 129, 130, 131 };

#define TRAP_RETRY_NS		(30ull * 1000000000ull)	/* no port, no agent, no answer: try again after */
#define TRAP_RENEW_NS		(300ull * 1000000000ull)	/* subscriptions renewed (a new SM forgets them) */
#define TRAP_ANSWER_NS		(1000ull * 1000000ull)	/* a Set unanswered this long is sent again */
#define TRAP_SETTLE_MS		500ull			/* the most mad_trap_free() waits for the SA's answers */
#define TRAP_TRIES		3
#define TRAP_NOFD_POLL_MS	100			/* umad2sim's fds cannot be polled: look this often */
#define TRAP_RESP_TIME		18			/* RespTimeValue: 4.096 us * 2^18, about 1 s */

/* The Notice's offsets in a Report (IBA 13.4.8.2), from the start of the MAD. */
enum {
	NTC = MAD_SA_DATA_OFF,
	NTC_TRAP = NTC + 4, NTC_ISSUER_LID = NTC + 6, NTC_DETAILS = NTC + 10, NTC_ISSUER_GID = NTC + 64,
	NTC_END = NTC + 80,
};
/* InformInfo's (IBA 13.4.8.3). */
enum {
	II = MAD_SA_DATA_OFF,
	II_LID_BEGIN = II + 16, II_LID_END = II + 18, II_GENERIC = II + 22, II_SUBSCRIBE = II + 23,
	II_TYPE = II + 24, II_TRAP = II + 26, II_QPN_RESP = II + 28, II_PRODUCER = II + 33, II_END = II + 36,
};

struct trap_sub {
	uint32_t tid;			/* of the Set in flight (0: none) */
	bool ok;			/* the SA accepted it */
	unsigned int tries;
};

struct mad_trap {
	const struct fab_ctx *ctx;
	const struct mad_transport *tp;	/* NULL: libibumad */
	int portid, agent, fd;		/* portid -1: closed */
	void *umad;
	struct trap_sub sub[MAD_TRAP_NSUB];
	uint64_t sent_ns, next_try_ns, renew_ns;
	uint32_t next_tid;
	bool open;
	struct mad_trap_stats st;
	char dump_dir[256];		/* FABTOP_MAD_DUMP: Reports are written there too (tests/data/mad) */
	unsigned int dump_seq;
};

/* ---- the wire ---- */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void sa_hdr(uint8_t *buf, uint8_t method, uint64_t tid, uint16_t attr)
{
	struct mad_wire_hdr h;

	memset(buf, 0, MAD_SIZE);
	memset(&h, 0, sizeof(h));
	h.base_version = 1;
	h.mgmt_class = MAD_CLASS_SA;
	h.class_version = MAD_SA_CLASS_VERSION;
	h.method = method;
	h.tid = wbe64_put(tid);
	h.attr_id = wbe16_put(attr);
	memcpy(buf, &h, sizeof(h));
}

void mad_trap_build_inform(uint8_t *buf, uint64_t tid, uint16_t trap, bool subscribe)
{
	uint32_t qpn_resp = 1u << 8 | TRAP_RESP_TIME;	/* QPN 1 (the GSI); opensm takes the sender's anyway */

	sa_hdr(buf, MAD_METHOD_SET, tid, MAD_ATTR_INFORM_INFO);
	/* GID 0: match by LID range; 0xffff: every issuer. */
	put16(buf + II_LID_BEGIN, 0xffff);
	put16(buf + II_LID_END, 0);
	buf[II_GENERIC] = 1;
	buf[II_SUBSCRIBE] = subscribe;
	put16(buf + II_TYPE, 0xffff);
	put16(buf + II_TRAP, trap);
	buf[II_QPN_RESP] = (uint8_t)(qpn_resp >> 24);
	buf[II_QPN_RESP + 1] = (uint8_t)(qpn_resp >> 16);
	buf[II_QPN_RESP + 2] = (uint8_t)(qpn_resp >> 8);
	buf[II_QPN_RESP + 3] = (uint8_t)qpn_resp;
	buf[II_PRODUCER] = buf[II_PRODUCER + 1] = buf[II_PRODUCER + 2] = 0xff;
}

int mad_trap_parse_report(const uint8_t *mad, size_t len, struct mad_notice *n)
{
	struct mad_hdr h;
	uint16_t trap;

	memset(n, 0, sizeof(*n));
	if (len < NTC_END)
		return MAD_DECODE_TRUNCATED;
	if (mad_decode_hdr(mad, len, &h) || h.mgmt_class != MAD_CLASS_SA || h.response ||
	    h.method != MAD_METHOD_REPORT || h.attr_id != MAD_ATTR_NOTICE)
		return MAD_DECODE_MALFORMED;
	n->generic = mad[NTC] & 0x80;
	n->type = mad[NTC] & 0x7f;
	n->producer = (uint32_t)mad[NTC + 1] << 16 | (uint32_t)mad[NTC + 2] << 8 | mad[NTC + 3];
	trap = get16(mad + NTC_TRAP);
	n->trap = n->generic ? trap : 0;
	n->issuer_lid = get16(mad + NTC_ISSUER_LID);
	memcpy(n->issuer_gid, mad + NTC_ISSUER_GID, 16);
	if (!n->generic)
		return 0;
	/* The details by trap (IBA 14.2.5.1 Table 131): */
	if (trap == 64 || trap == 65) {
		memcpy(n->gid, mad + NTC_DETAILS + 6, 16);
	} else if (trap == 128) {
		n->lid = get16(mad + NTC_DETAILS);
	} else if (trap >= 129 && trap <= 131) {
		n->lid = get16(mad + NTC_DETAILS + 2);
		n->port = mad[NTC_DETAILS + 4];
	}
	return 0;
}

void mad_trap_build_report_resp(uint8_t *out, const uint8_t *report, size_t len)
{
	memset(out, 0, MAD_SIZE);
	memcpy(out, report, len < MAD_SIZE ? len : MAD_SIZE);
	/* IBA 13.4.5: the response echoes the TID; ReportResp carries the Notice back. Status 0. */
	out[3] = MAD_METHOD_REPORT_RESP;
	out[4] = out[5] = 0;
}

int mad_trap_parse_inform_resp(const uint8_t *mad, size_t len, uint64_t *tid, uint16_t *trap, bool *accepted)
{
	struct mad_hdr h;

	if (len < II_END)
		return MAD_DECODE_TRUNCATED;
	if (mad_decode_hdr(mad, len, &h) || h.mgmt_class != MAD_CLASS_SA || !h.response ||
	    h.method != (MAD_METHOD_GET_RESP & 0x7f) || h.attr_id != MAD_ATTR_INFORM_INFO)
		return MAD_DECODE_MALFORMED;
	*tid = h.tid;
	*trap = get16(mad + II_TRAP);
	/* o13-13.1.1: a refused subscription comes back with Subscribe 0 (and, from opensm, a status). */
	*accepted = h.status == 0 && mad[II_SUBSCRIBE] == 1;
	return 0;
}

/* ---- the session ---- */

static struct mad_trap *trap_alloc(void)
{
	struct mad_trap *t = calloc(1, sizeof(*t));
	const char *dump = getenv("FABTOP_MAD_DUMP");

	if (!t)
		return NULL;
	t->portid = t->agent = t->fd = -1;
	t->next_tid = (uint32_t)(util_now_ns() ^ ((uint64_t)getpid() << 12)) | 1;
	if (dump && *dump)
		snprintf(t->dump_dir, sizeof(t->dump_dir), "%s", dump);
	return t;
}

struct mad_trap *mad_trap_new(const struct fab_ctx *ctx)
{
	struct mad_trap *t = trap_alloc();

	if (t)
		t->ctx = ctx;
	return t;
}

struct mad_trap *mad_trap_new_transport(const struct mad_transport *tp, uint16_t sm_lid)
{
	struct mad_trap *t = trap_alloc();

	if (!t)
		return NULL;
	t->tp = tp;
	t->fd = tp->fd;
	t->open = true;
	t->st.sm_lid = sm_lid;
	return t;
}

const struct mad_trap_stats *mad_trap_stats(const struct mad_trap *t)
{
	return &t->st;
}

static int trap_send(struct mad_trap *t, const uint8_t *mad, uint16_t dlid, uint32_t qpn, bool expect_answer)
{
	if (t->tp)
		return t->tp->send(t->tp->priv, mad, MAD_SIZE, dlid, qpn) ? -EIO : 0;
	memset(t->umad, 0, umad_size());
	umad_set_addr(t->umad, dlid, (int)qpn, 0, (int)MAD_QP1_QKEY_GSI);
	memcpy(umad_get_mad(t->umad), mad, MAD_SIZE);
	/* The kernel matches a GetResp only to a send still waiting for it; retries are ours. */
	if (umad_send(t->portid, t->agent, t->umad, MAD_SIZE, expect_answer ? (int)(TRAP_ANSWER_NS / 1000000) : 0, 0) < 0)
		return -EIO;
	return 0;
}

static void trap_close(struct mad_trap *t)
{
	if (!t->tp && t->portid >= 0) {
		if (t->agent >= 0)
			umad_unregister(t->portid, t->agent);
		umad_close_port(t->portid);
	}
	free(t->umad);
	t->umad = NULL;
	t->portid = t->agent = t->fd = -1;
	t->open = false;
	t->st.subscribed = false;
	for (unsigned int i = 0; i < MAD_TRAP_NSUB; i++)
		t->sub[i] = (struct trap_sub){ 0 };
}

/* The first local IB port that is ACTIVE with an SM: its entry in ports[] and the SM's LID (-1: none, why says). */
static int trap_pick_port(struct mad_trap *t, struct umad_local *ports, int n, uint16_t *sm_lid)
{
	for (int i = 0; i < n; i++) {
		umad_port_t up;
		int ok;

		if (umad_get_port(ports[i].ca, (int)ports[i].port, &up) < 0)
			continue;
		ok = up.state == 4 && up.sm_lid > 0 && up.sm_lid < 0xc000;
		*sm_lid = (uint16_t)up.sm_lid;
		umad_release_port(&up);
		if (ok)
			return i;
	}
	snprintf(t->st.reason, sizeof(t->st.reason),
		 "no local InfiniBand port is ACTIVE with a subnet manager: nothing to subscribe to traps from");
	return -1;
}

/* Open a port for the SA class with the Report method (unsolicited Reports come to this agent). */
static void trap_open(struct mad_trap *t, uint64_t now)
{
	struct umad_local ports[UMAD_MAX_LOCAL_PORTS];
	long mask[16 / sizeof(long)];
	uint16_t sm_lid = 0;
	int n, i, fd;

	t->next_try_ns = now + TRAP_RETRY_NS;
	n = umad_list_ports(t->ctx, ports, UMAD_MAX_LOCAL_PORTS, t->st.reason, sizeof(t->st.reason));
	if (n <= 0 || (i = trap_pick_port(t, ports, n, &sm_lid)) < 0)
		return;
	t->portid = umad_open(t->ctx, &ports[i], "/dev", t->st.reason, sizeof(t->st.reason));
	if (t->portid < 0)
		return;
	t->umad = calloc(1, umad_size() + MAD_SIZE + 64);
	if (!t->umad) {
		snprintf(t->st.reason, sizeof(t->st.reason), "out of memory: no traps, the fabric is swept on its timer");
		trap_close(t);
		return;
	}
	memset(mask, 0, sizeof(mask));
	mask[MAD_METHOD_REPORT / (8 * sizeof(long))] |= 1L << (MAD_METHOD_REPORT % (8 * sizeof(long)));
	t->agent = umad_register(t->portid, MAD_CLASS_SA, MAD_SA_CLASS_VERSION, 0, mask);
	if (t->agent < 0) {
		/* Another agent of this port already takes Reports (a second fabtop on this host). */
		snprintf(t->st.reason, sizeof(t->st.reason), "%.64s port %u: the kernel refused an agent for the SA's "
			 "Reports (another program on this port takes them): no traps, the fabric is swept on its timer",
			 ports[i].ca, ports[i].port);
		trap_close(t);
		return;
	}
	/* umad2sim's fds are not open in the kernel: they cannot join a shared poll (mad.c). */
	fd = umad_get_fd(t->portid);
	t->fd = (fd >= 0 && fcntl(fd, F_GETFD) >= 0) ? fd : -1;
	t->st.sm_lid = sm_lid;
	t->st.reason[0] = '\0';
	t->open = true;
	t->next_try_ns = now;	/* subscribe at once */
}

/* Send Set(InformInfo) for every trap not yet accepted; after TRAP_TRIES unanswered, wait TRAP_RETRY_NS. */
static unsigned int trap_subscribe(struct mad_trap *t, uint64_t now)
{
	uint8_t mad[MAD_SIZE];
	bool gave_up = false;

	for (unsigned int i = 0; i < MAD_TRAP_NSUB; i++) {
		struct trap_sub *s = &t->sub[i];

		if (s->ok)
			continue;
		if (s->tries >= TRAP_TRIES) {
			gave_up = true;
			continue;
		}
		s->tid = t->next_tid++;
		s->tries++;
		mad_trap_build_inform(mad, s->tid, mad_trap_numbers[i], true);
		if (trap_send(t, mad, t->st.sm_lid, 1, true))
			s->tries = TRAP_TRIES;
	}
	t->sent_ns = now;
	if (!gave_up)
		return 0;
	t->st.set_failures++;
	t->st.subscribed = false;
	snprintf(t->st.reason, sizeof(t->st.reason), "the SA at LID %u did not accept the trap subscriptions: "
		 "the fabric is swept on its timer", t->st.sm_lid);
	for (unsigned int i = 0; i < MAD_TRAP_NSUB; i++)
		t->sub[i].tries = 0;
	t->next_try_ns = now + TRAP_RETRY_NS;
	return MAD_TRAP_STATE;
}

static void trap_dump(struct mad_trap *t, const uint8_t *mad, size_t len)
{
	char path[400];
	int fd;

	snprintf(path, sizeof(path), "%s/trap-%02x-%04x-%u.bin", t->dump_dir, mad[3], get16(mad + 16), t->dump_seq++);
	fd = util_create_file(path);
	if (fd < 0)
		return;
	if (write(fd, mad, len) != (ssize_t)len)
		unlink(path);
	close(fd);
}

static unsigned int trap_on_inform_resp(struct mad_trap *t, const uint8_t *mad, size_t len)
{
	uint64_t tid;
	uint16_t trap;
	bool accepted, all = true, was = t->st.subscribed;

	if (mad_trap_parse_inform_resp(mad, len, &tid, &trap, &accepted))
		return 0;
	for (unsigned int i = 0; i < MAD_TRAP_NSUB; i++) {
		struct trap_sub *s = &t->sub[i];

		if (s->tid && s->tid == (uint32_t)tid && mad_trap_numbers[i] == trap) {
			s->tid = 0;
			s->ok = accepted;
			if (!accepted)
				s->tries = TRAP_TRIES;	/* refused: no use asking again at once */
		}
		all = all && s->ok;
	}
	t->st.subscribed = all;
	if (all)
		t->st.reason[0] = '\0';
	return all != was ? MAD_TRAP_STATE : 0;
}

static unsigned int trap_on_report(struct mad_trap *t, const uint8_t *mad, size_t len, uint16_t slid, uint32_t sqpn)
{
	struct mad_notice n;
	uint8_t resp[MAD_SIZE];
	unsigned int k;

	if (mad_trap_parse_report(mad, len, &n))
		return 0;
	/* Acknowledged first: the SA sends a Report again until it is (IBA 13.4.9). */
	mad_trap_build_report_resp(resp, mad, len);
	trap_send(t, resp, slid ? slid : t->st.sm_lid, sqpn ? sqpn : 1, false);
	for (k = 0; k < MAD_TRAP_NSUB && mad_trap_numbers[k] != n.trap; k++)
		;
	t->st.by_trap[k]++;
	t->st.reports++;
	return MAD_TRAP_REPORT | MAD_TRAP_STATE;
}

/* One MAD in, from the transport or umad; 1 when one was read, 0 when none is there, -errno. */
static int trap_recv_one(struct mad_trap *t, uint8_t *mad, size_t *len, uint16_t *slid, uint32_t *sqpn)
{
	int status = 0, rc;

	*slid = 0;
	*sqpn = 0;
	if (t->tp) {
		*len = MAD_SIZE;
		rc = t->tp->recv(t->tp->priv, mad, len, &status);
		if (rc == -EAGAIN)
			return 0;
		if (rc < 0)
			return rc;
	} else {
		int l = MAD_SIZE;
		struct ib_mad_addr *a;

		rc = umad_recv(t->portid, t->umad, &l, 0);
		if (rc < 0)
			return (rc == -EAGAIN || rc == -EWOULDBLOCK || errno == EAGAIN) ? 0 : -EIO;
		status = umad_status(t->umad);
		*len = l < 0 ? 0 : l > MAD_SIZE ? MAD_SIZE : (size_t)l;
		memcpy(mad, umad_get_mad(t->umad), *len);
		a = umad_get_mad_addr(t->umad);
		*slid = ntohs(a->lid);
		*sqpn = ntohl(a->qpn);
	}
	/* A Set the kernel gave up on (status ETIMEDOUT): ours to send again. */
	if (status)
		*len = 0;
	return 1;
}

/* Everything that is there: GetResps to our Sets, and Reports. */
static unsigned int trap_drain(struct mad_trap *t)
{
	unsigned int news = 0;

	for (int guard = 0; guard < 256; guard++) {
		uint8_t mad[MAD_SIZE];
		size_t len;
		uint16_t slid;
		uint32_t sqpn;
		int rc = trap_recv_one(t, mad, &len, &slid, &sqpn);

		if (rc < 0) {
			snprintf(t->st.reason, sizeof(t->st.reason), "reading the SA's Reports failed: %s", strerror(-rc));
			trap_close(t);
			return news | MAD_TRAP_STATE;
		}
		if (!rc)
			break;
		if (len < MAD_HDR_SIZE || mad[1] != MAD_CLASS_SA)
			continue;
		if (t->dump_dir[0])
			trap_dump(t, mad, len);
		if (mad[3] == MAD_METHOD_REPORT)
			news |= trap_on_report(t, mad, len, slid, sqpn);
		else if (mad[3] == MAD_METHOD_GET_RESP)
			news |= trap_on_inform_resp(t, mad, len);
	}
	return news;
}

static bool trap_pending(const struct mad_trap *t)
{
	for (unsigned int i = 0; i < MAD_TRAP_NSUB; i++)
		if (!t->sub[i].ok)
			return true;
	return false;
}

unsigned int mad_trap_step(struct mad_trap *t, uint64_t now)
{
	unsigned int news = 0;

	if (!t->open) {
		if (t->tp || now < t->next_try_ns)
			return 0;
		trap_open(t, now);
		if (!t->open)
			return MAD_TRAP_STATE;
		news |= MAD_TRAP_STATE;
	}
	news |= trap_drain(t);
	if (!t->open)
		return news;
	/* Renewed now and then: an SM that restarted or moved has forgotten them. */
	if (t->renew_ns && now >= t->renew_ns && !trap_pending(t)) {
		for (unsigned int i = 0; i < MAD_TRAP_NSUB; i++)
			t->sub[i] = (struct trap_sub){ 0 };
		t->renew_ns = 0;
	}
	if (trap_pending(t) && now >= t->next_try_ns && (!t->sent_ns || now - t->sent_ns >= TRAP_ANSWER_NS))
		news |= trap_subscribe(t, now);
	if (!t->renew_ns && !trap_pending(t))
		t->renew_ns = now + TRAP_RENEW_NS;
	return news;
}

/* When the next step has work to do without any MAD coming: UINT64_MAX for never. */
static uint64_t trap_due(const struct mad_trap *t)
{
	uint64_t due;

	if (!t->open)
		return t->tp ? UINT64_MAX : t->next_try_ns;
	if (!trap_pending(t))
		return t->renew_ns ? t->renew_ns : UINT64_MAX;
	due = t->sent_ns ? t->sent_ns + TRAP_ANSWER_NS : 0;
	return due > t->next_try_ns ? due : t->next_try_ns;
}

int mad_trap_fds(const struct mad_trap *t, struct pollfd *fds, int max, int *timeout_ms, uint64_t now)
{
	uint64_t due = trap_due(t);

	if (due != UINT64_MAX)
		util_lower_timeout(timeout_ms, due, now);
	if (!t->open)
		return 0;
	if (t->fd < 0) {
		if (*timeout_ms < 0 || *timeout_ms > TRAP_NOFD_POLL_MS)
			*timeout_ms = TRAP_NOFD_POLL_MS;
		return 0;
	}
	if (max < 1)
		return 0;
	fds[0] = (struct pollfd){ .fd = t->fd, .events = POLLIN };
	return 1;
}

/*
 * The SA's answers to the unsubscriptions just sent are read before the
 * agent goes, at most TRAP_SETTLE_MS: the kernel would drop them, but
 * umad2sim (ibsim's preload) crashes its receiver thread on an answer for
 * an agent that is gone (mad_session_close() says the same of the MAD
 * sessions).
 */
static void trap_settle(struct mad_trap *t, unsigned int answers)
{
	uint64_t end = util_now_ns() + TRAP_SETTLE_MS * 1000000ull;

	while (answers && !t->tp && t->portid >= 0) {
		uint64_t now = util_now_ns();
		int l = MAD_SIZE;

		if (now >= end)
			break;
		if (umad_recv(t->portid, t->umad, &l, (int)((end - now + 999999) / 1000000)) >= 0)
			answers--;
		else if (errno != EAGAIN && errno != ETIMEDOUT && errno != EINTR)
			break;
	}
}

void mad_trap_free(struct mad_trap *t)
{
	uint8_t mad[MAD_SIZE];
	unsigned int sent = 0;

	if (!t)
		return;
	/* Unsubscribe: opensm keeps a subscription until told, and would send Reports no one reads. */
	for (unsigned int i = 0; t->open && i < MAD_TRAP_NSUB; i++) {
		if (!t->sub[i].ok)
			continue;
		mad_trap_build_inform(mad, t->next_tid++, mad_trap_numbers[i], false);
		/* sent as a request the kernel waits on, so its answer reaches trap_settle() */
		if (trap_send(t, mad, t->st.sm_lid, 1, true) == 0)
			sent++;
	}
	trap_settle(t, sent);
	trap_close(t);
	free(t);
}
