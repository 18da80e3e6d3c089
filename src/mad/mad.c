// SPDX-License-Identifier: GPL-2.0-or-later
/* The asynchronous MAD engine over libibumad: queue, window, deadlines, retries, reply matching. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "mad/mad.h"
#include "derive/mad_decode.h"
#include "util.h"

#define MAD_MAX_WINDOW		256
#define MAD_QP1_QKEY		0x80010000u
#define MAD_PERMISSIVE_LID	0xffff
/* Without a pollable fd (umad2sim) replies are looked for this often. */
#define MAD_NOFD_POLL_MS	2
/*
 * ... and this many kept in flight between two looks (mad_loop_window()).
 * Measured on the 1,016-node fat tree under ibsim, the live core's first
 * sweep (5,105 SMPs): a window of 32 took 370 ms, 64 took 200-215 ms, 128
 * took 113-122 ms, 256 took 96-121 ms; the one-shot sweep, which waits on
 * that fd alone, takes 40-110 ms with 32. Not 256: umad2sim's write() holds
 * its lock while it blocks on ibsim's socket, whose receiver needs the lock,
 * and a window of 256 hung a sweep of the 10,266-node tree for good
 * (doc/ib-management.md); 128 never did.
 */
#define MAD_NOFD_WINDOW		128
/*
 * Requests done are kept for the next ones, up to this many: a round of a
 * subnet's counters (thousands of requests every interval) then allocates
 * nothing once the first has run.
 */
#define MAD_SPARE_MAX		256
/* How long a closing session waits at most for the answers still in flight. */
#define MAD_CLOSE_WAIT_MS	1000

/* Which registered agent a request goes out on. */
enum mad_agent_kind {
	AGENT_SMI = 0,
	AGENT_SMI_DR,
	AGENT_PMA,
	AGENT_PING,
	AGENT_SA,
	AGENT_COUNT,
};

static const struct {
	uint8_t mgmt_class;
	uint8_t version;
	bool oui;
	bool on_demand;		/* registered by the first request that needs it */
} agent_defs[AGENT_COUNT] = {
	[AGENT_SMI] = { .mgmt_class = MAD_CLASS_SMI, .version = 1 },
	[AGENT_SMI_DR] = { .mgmt_class = MAD_CLASS_SMI_DR, .version = 1 },
	[AGENT_PMA] = { .mgmt_class = MAD_CLASS_PMA, .version = 1 },
	[AGENT_PING] = { .mgmt_class = MAD_CLASS_OPENIB_PING, .version = 1, .oui = true },
	/*
	 * Only in a session that asks the SA: under the simulator an SA agent
	 * beside the trap port's (mad/mad_trap.c) took the SM's Reports, which
	 * the kernel hands by method to the agent that registered Report.
	 */
	[AGENT_SA] = { .mgmt_class = MAD_CLASS_SA, .version = MAD_SA_CLASS_VERSION, .on_demand = true },
};

struct mad_req {
	struct mad_req *next;		/* in the queue */
	enum mad_agent_kind agent;
	uint16_t dlid;
	uint32_t qpn, qkey;
	uint32_t tid_lo;		/* the kernel owns the high half of the TID */
	uint8_t mad[MAD_SIZE];
	unsigned int attempts;
	uint64_t deadline_ns;
	mad_cb cb;
	void *arg;
};

struct mad_session {
	int portid;			/* libibumad port id */
	int fd;				/* its fd, -1 when not pollable */
	int agents[AGENT_COUNT];	/* agent ids, -1 when the class is not registered */
	struct mad_opts opts;
	struct mad_req *qhead, *qtail;	/* waiting to be sent */
	struct mad_req *spare;		/* done, kept for reuse (linked by next) */
	unsigned int nspare;
	struct mad_req *inflight[MAD_MAX_WINDOW];
	unsigned int ninflight;
	uint32_t next_tid;
	void *umad;			/* one umad buffer for sends and receives */
	struct mad_stats stats;
	uint64_t packets;		/* every MAD read back, matched or not */
	const struct mad_transport *tp;	/* NULL: libibumad; else a test's transport */
	uint8_t rbuf[MAD_SIZE];		/* replies from a test transport */
	char dump_dir[256];		/* FABTOP_MAD_DUMP */
	unsigned int dump_seq;
	bool in_step;
	bool tried[AGENT_COUNT];	/* an on_demand agent was registered, or refused, already */
};

/* FABTOP_MAD_DUMP=DIR (collect/mad.h): where every reply is also written. */
static void dump_from_env(struct mad_session *s)
{
	const char *dump = getenv("FABTOP_MAD_DUMP");

	if (dump && *dump)
		snprintf(s->dump_dir, sizeof(s->dump_dir), "%s", dump);
}

/* Register agent_defs[i] on s's port: its agent id, or < 0 when the kernel refuses. */
static int agent_register(struct mad_session *s, enum mad_agent_kind i)
{
	static const uint8_t oui[3] = { MAD_OPENIB_OUI >> 16, (MAD_OPENIB_OUI >> 8) & 0xff, MAD_OPENIB_OUI & 0xff };

	if (agent_defs[i].oui)
		return umad_register_oui(s->portid, agent_defs[i].mgmt_class, 0, (uint8_t *)(uintptr_t)oui, NULL);
	return umad_register(s->portid, agent_defs[i].mgmt_class, agent_defs[i].version, 0, NULL);
}

int mad_session_open(struct mad_session **out, const struct fab_ctx *ctx,
		     const struct umad_local *port, char *why, size_t whysz)
{
	struct mad_session *s;
	int fd;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->portid = umad_open(ctx, port, "/dev", why, whysz);
	if (s->portid < 0) {
		int err = s->portid;

		free(s);
		return err;
	}
	/*
	 * umad_size() depends on the ABI the open found (the pkey-enabled header
	 * is 8 bytes longer), so size the buffer only now, with room to spare.
	 */
	s->umad = calloc(1, umad_size() + MAD_SIZE + 64);
	if (!s->umad) {
		umad_close_port(s->portid);
		free(s);
		return -ENOMEM;
	}
	for (int i = 0; i < AGENT_COUNT; i++)
		s->agents[i] = agent_defs[i].on_demand ? -1 : agent_register(s, (enum mad_agent_kind)i);
	if (s->agents[AGENT_SMI_DR] < 0 && s->agents[AGENT_PMA] < 0) {
		snprintf(why, whysz, "%s port %u: the kernel refused to register MAD agents",
			 port->ca, port->port);
		umad_close_port(s->portid);
		free(s->umad);
		free(s);
		return -EPROTO;
	}
	/*
	 * umad2sim (the ibsim preload) hands out fd numbers from 1024 that are
	 * not open in the kernel; poll() on them works only alone, through its
	 * own wrapper. Such an fd is not offered to a shared poll loop.
	 */
	fd = umad_get_fd(s->portid);
	s->fd = (fd >= 0 && fcntl(fd, F_GETFD) >= 0) ? fd : -1;
	s->opts = (struct mad_opts){ .timeout_ms = 200, .retries = 2, .window = 16 };
	s->next_tid = (uint32_t)(util_now_ns() ^ ((uint64_t)getpid() << 16));
	dump_from_env(s);
	*out = s;
	return 0;
}

int mad_session_open_transport(struct mad_session **out, const struct mad_transport *tp)
{
	struct mad_session *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->tp = tp;
	s->portid = -1;
	s->fd = tp->fd;
	for (int i = 0; i < AGENT_COUNT; i++)
		s->agents[i] = i;
	s->opts = (struct mad_opts){ .timeout_ms = 200, .retries = 2, .window = 16 };
	s->next_tid = 1;
	dump_from_env(s);
	*out = s;
	return 0;
}

void mad_session_set_opts(struct mad_session *s, const struct mad_opts *o)
{
	s->opts = *o;
	if (s->opts.window < 1)
		s->opts.window = 1;
	if (s->opts.window > MAD_MAX_WINDOW)
		s->opts.window = MAD_MAX_WINDOW;
	if (s->opts.timeout_ms < 1)
		s->opts.timeout_ms = 1;
}

const struct mad_opts *mad_session_get_opts(const struct mad_session *s)
{
	return &s->opts;
}

/* A request done: kept for the next one while there is room. */
static void req_free(struct mad_session *s, struct mad_req *r)
{
	if (s->nspare >= MAD_SPARE_MAX) {
		free(r);
		return;
	}
	r->next = s->spare;
	s->spare = r;
	s->nspare++;
}

void mad_cancel_all(struct mad_session *s)
{
	/* Callbacks free their contexts; they may not queue more on -ECANCELED, but guard anyway. */
	for (int round = 0; round < 8 && !mad_idle(s); round++) {
		struct mad_req *r, *n, *q = s->qhead;
		struct mad_req *fl[MAD_MAX_WINDOW];
		unsigned int nfl = s->ninflight;

		memcpy(fl, s->inflight, nfl * sizeof(fl[0]));
		s->qhead = s->qtail = NULL;
		s->ninflight = 0;
		for (r = q; r; r = n) {
			n = r->next;
			r->cb(s, r->arg, -ECANCELED, NULL, 0);
			req_free(s, r);
		}
		for (unsigned int i = 0; i < nfl; i++) {
			fl[i]->cb(s, fl[i]->arg, -ECANCELED, NULL, 0);
			req_free(s, fl[i]);
		}
	}
}

static void inflight_remove(struct mad_session *s, unsigned int i)
{
	s->inflight[i] = s->inflight[--s->ninflight];
}

/*
 * One MAD from the test's transport or libibumad, waiting up to timeout_ms
 * (0: only what is there): 0 with it in *mad (len at most MAD_SIZE) and the
 * transport's status, -EAGAIN when none came, or -errno.
 */
static int recv_one(struct mad_session *s, int timeout_ms, const uint8_t **mad, int *len, int *status)
{
	int rc;

	if (s->tp) {
		size_t tl = sizeof(s->rbuf);

		rc = s->tp->recv(s->tp->priv, s->rbuf, &tl, status);
		if (rc == -EAGAIN && timeout_ms > 0 && s->tp->fd >= 0) {
			struct pollfd pfd = { .fd = s->tp->fd, .events = POLLIN };

			if (poll(&pfd, 1, timeout_ms) > 0)
				rc = s->tp->recv(s->tp->priv, s->rbuf, &tl, status);
		}
		if (rc < 0)
			return rc;
		*len = (int)(tl < MAD_SIZE ? tl : MAD_SIZE);
		*mad = s->rbuf;
		return 0;
	}
	*len = MAD_SIZE;
	rc = umad_recv(s->portid, s->umad, len, timeout_ms);
	if (rc < 0)
		return rc == -EAGAIN || rc == -EWOULDBLOCK || rc == -ETIMEDOUT || errno == EAGAIN || errno == ETIMEDOUT ?
			       -EAGAIN : -EIO;
	if (*len < 0)
		*len = 0;
	if (*len > MAD_SIZE)
		*len = MAD_SIZE;
	*mad = umad_get_mad(s->umad);
	*status = umad_status(s->umad);
	return 0;
}

/* The slot in flight of the request a reply's TID answers, or s->ninflight: none. */
static unsigned int inflight_find(const struct mad_session *s, uint64_t tid)
{
	unsigned int i;

	for (i = 0; i < s->ninflight; i++)
		if (s->inflight[i]->tid_lo == (uint32_t)tid)
			break;
	return i;
}

/*
 * Before the agents go: read the answers to what is still in flight, each
 * until its own deadline and never past MAD_CLOSE_WAIT_MS. The kernel
 * drops an answer for an agent that is gone, but umad2sim (ibsim's
 * preload, doc/ib-management.md) hands it to its receiver thread, which
 * then crashes on the agent it no longer finds: a command that ended
 * during a PMA round died at exit, and under the sanitizers could hang
 * there. What was queued and never sent stays unsent: mad_cancel_all()
 * cancels it after.
 */
static void settle_inflight(struct mad_session *s)
{
	uint64_t end = util_now_ns() + (uint64_t)MAD_CLOSE_WAIT_MS * 1000000u;
	/*
	 * umad2sim (a session without a pollable fd) answers every MAD it is
	 * sent, a drop with a status: there the late answers to what timed out
	 * are waited for too, not only those in flight.
	 */
	bool sim = !s->tp && s->fd < 0;
	int wait_ms = 0;

	while (s->ninflight || (sim && s->packets < s->stats.sent)) {
		uint64_t now, until = 0;
		const uint8_t *mad;
		struct mad_hdr h;
		struct mad_req *r;
		unsigned int i;
		int len, rc, status;

		/* What is there first (without a wait), then up to the deadlines. */
		rc = recv_one(s, wait_ms, &mad, &len, &status);
		if (rc == 0) {
			s->packets++;
			if (len < MAD_HDR_SIZE || mad_decode_hdr(mad, (size_t)len, &h) ||
			    (i = inflight_find(s, h.tid)) == s->ninflight)
				continue;
			r = s->inflight[i];
			inflight_remove(s, i);
			r->cb(s, r->arg, -ECANCELED, NULL, 0);
			req_free(s, r);
			continue;
		}
		if (rc != -EAGAIN)
			break;
		now = util_now_ns();
		for (i = 0; i < s->ninflight; i++)
			if (s->inflight[i]->deadline_ns > until)
				until = s->inflight[i]->deadline_ns;
		if (until > end || (sim && s->packets < s->stats.sent))
			until = end;
		if (now >= until)
			break;
		wait_ms = (int)((until - now + 999999) / 1000000);
	}
}

void mad_session_close(struct mad_session *s)
{
	if (!s)
		return;
	settle_inflight(s);
	mad_cancel_all(s);
	if (!s->tp) {
		for (int i = 0; i < AGENT_COUNT; i++)
			if (s->agents[i] >= 0)
				umad_unregister(s->portid, s->agents[i]);
		umad_close_port(s->portid);
	}
	while (s->spare) {
		struct mad_req *r = s->spare;

		s->spare = r->next;
		free(r);
	}
	free(s->umad);
	free(s);
}

int mad_fd(const struct mad_session *s)
{
	return s->fd;
}

unsigned int mad_loop_window(const struct mad_session *s, unsigned int want)
{
	return s->fd < 0 && want < MAD_NOFD_WINDOW ? MAD_NOFD_WINDOW : want;
}

bool mad_idle(const struct mad_session *s)
{
	return !s->qhead && !s->ninflight;
}

const struct mad_stats *mad_session_stats(const struct mad_session *s)
{
	return &s->stats;
}

void mad_session_peak_reset(struct mad_session *s)
{
	s->stats.peak = s->ninflight;
}

int mad_next_timeout_ms(const struct mad_session *s, uint64_t now_ns)
{
	uint64_t first = UINT64_MAX;
	int ms;

	if (mad_idle(s))
		return -1;
	if (s->qhead && s->ninflight < s->opts.window)
		return 0;
	for (unsigned int i = 0; i < s->ninflight; i++)
		if (s->inflight[i]->deadline_ns < first)
			first = s->inflight[i]->deadline_ns;
	if (first <= now_ns)
		return 0;
	ms = (int)((first - now_ns + 999999) / 1000000);
	if (s->fd < 0 && ms > MAD_NOFD_POLL_MS)
		ms = MAD_NOFD_POLL_MS;
	return ms;
}

/* ---- building requests ---- */

static void put_hdr(uint8_t *buf, uint8_t mgmt_class, uint64_t tid, uint16_t attr, uint32_t mod)
{
	struct mad_wire_hdr h;

	memset(&h, 0, sizeof(h));
	h.base_version = 1;
	h.mgmt_class = mgmt_class;
	h.class_version = 1;
	h.method = MAD_METHOD_GET;
	h.tid = wbe64_put(tid);
	h.attr_id = wbe16_put(attr);
	h.attr_mod = wbe32_put(mod);
	memcpy(buf, &h, sizeof(h));
}

void mad_build_dr(uint8_t *buf, uint64_t tid, const uint8_t *path, unsigned int hops,
		  uint16_t attr, uint32_t mod)
{
	struct mad_wire_dr_smp smp;

	memset(&smp, 0, sizeof(smp));
	put_hdr((uint8_t *)&smp.hdr, MAD_CLASS_SMI_DR, tid, attr, mod);
	/* IBA 14.2.2.1: outbound, hop pointer 0, fully directed (permissive LIDs). */
	smp.hdr.class_specific = wbe16_put((uint16_t)(hops & 0xff));
	smp.dr_slid = wbe16_put(MAD_PERMISSIVE_LID);
	smp.dr_dlid = wbe16_put(MAD_PERMISSIVE_LID);
	for (unsigned int i = 1; i <= hops && i < sizeof(smp.initial_path); i++)
		smp.initial_path[i] = path[i];
	memcpy(buf, &smp, sizeof(smp));
}

void mad_build_gsi(uint8_t *buf, uint8_t mgmt_class, uint64_t tid, uint16_t attr, uint32_t mod)
{
	memset(buf, 0, MAD_SIZE);
	put_hdr(buf, mgmt_class, tid, attr, mod);
}

static struct mad_req *req_new(struct mad_session *s, enum mad_agent_kind agent, mad_cb cb, void *arg)
{
	struct mad_req *r;

	if (s->agents[agent] < 0 && agent_defs[agent].on_demand && !s->tp && !s->tried[agent]) {
		s->tried[agent] = true;
		s->agents[agent] = agent_register(s, agent);
	}
	if (s->agents[agent] < 0)
		return NULL;
	if (s->spare) {
		r = s->spare;
		s->spare = r->next;
		s->nspare--;
		memset(r, 0, sizeof(*r));
	} else if (!(r = calloc(1, sizeof(*r)))) {
		return NULL;
	}
	r->agent = agent;
	r->cb = cb;
	r->arg = arg;
	r->tid_lo = s->next_tid++;
	return r;
}

static void req_queue(struct mad_session *s, struct mad_req *r)
{
	r->next = NULL;
	if (s->qtail)
		s->qtail->next = r;
	else
		s->qhead = r;
	s->qtail = r;
}

static int req_errno(struct mad_session *s, enum mad_agent_kind agent)
{
	return s->agents[agent] < 0 ? -EPROTONOSUPPORT : -ENOMEM;
}

int mad_get_dr(struct mad_session *s, const uint8_t *path, unsigned int hops,
	       uint16_t attr, uint32_t mod, mad_cb cb, void *arg)
{
	struct mad_req *r;

	if (hops > MAD_DR_MAX_HOPS)
		return -EINVAL;
	r = req_new(s, AGENT_SMI_DR, cb, arg);
	if (!r)
		return req_errno(s, AGENT_SMI_DR);
	r->dlid = MAD_PERMISSIVE_LID;
	r->qpn = 0;
	r->qkey = 0;
	mad_build_dr(r->mad, r->tid_lo, path, hops, attr, mod);
	req_queue(s, r);
	return 0;
}

int mad_get_smp_lid(struct mad_session *s, uint16_t lid, uint16_t attr, uint32_t mod,
		    mad_cb cb, void *arg)
{
	struct mad_req *r;

	if (lid == 0 || lid >= 0xc000)
		return -EINVAL;
	r = req_new(s, AGENT_SMI, cb, arg);
	if (!r)
		return req_errno(s, AGENT_SMI);
	r->dlid = lid;
	mad_build_gsi(r->mad, MAD_CLASS_SMI, r->tid_lo, attr, mod);
	req_queue(s, r);
	return 0;
}

/*
 * A Get to lid's GSI (QP1) on agent's class and version: the request, its
 * MAD built but for the data, or NULL with *err (-EINVAL: not a unicast LID).
 */
static struct mad_req *gsi_req_new(struct mad_session *s, enum mad_agent_kind agent, uint16_t lid,
				   uint16_t attr, mad_cb cb, void *arg, int *err)
{
	struct mad_req *r;

	*err = -EINVAL;
	if (lid == 0 || lid >= 0xc000)
		return NULL;
	r = req_new(s, agent, cb, arg);
	if (!r) {
		*err = req_errno(s, agent);
		return NULL;
	}
	r->dlid = lid;
	r->qpn = 1;
	r->qkey = MAD_QP1_QKEY;
	mad_build_gsi(r->mad, agent_defs[agent].mgmt_class, r->tid_lo, attr, 0);
	r->mad[offsetof(struct mad_wire_hdr, class_version)] = agent_defs[agent].version;
	return r;
}

int mad_get_pma(struct mad_session *s, uint16_t lid, uint16_t attr, uint8_t port_select,
		mad_cb cb, void *arg)
{
	int err;
	struct mad_req *r = gsi_req_new(s, AGENT_PMA, lid, attr, cb, arg, &err);

	if (!r)
		return err;
	/* PortSelect is byte 1 of the PortCounters(Extended) data (IBA 16.1.3.5). */
	if (attr != MAD_ATTR_CLASS_PORT_INFO)
		r->mad[MAD_PMA_DATA_OFF + 1] = port_select;
	req_queue(s, r);
	return 0;
}

int mad_sa_get(struct mad_session *s, uint16_t sm_lid, uint16_t attr, uint64_t comp_mask,
	       const uint8_t *rec, size_t reclen, mad_cb cb, void *arg)
{
	int err;
	struct mad_req *r;

	if (reclen > MAD_SA_DATA_SIZE)
		return -EINVAL;
	r = gsi_req_new(s, AGENT_SA, sm_lid, attr, cb, arg, &err);
	if (!r)
		return err;
	for (int i = 0; i < 8; i++)
		r->mad[MAD_SA_COMP_MASK_OFF + i] = (uint8_t)(comp_mask >> (56 - 8 * i));
	if (reclen)
		memcpy(r->mad + MAD_SA_DATA_OFF, rec, reclen);
	req_queue(s, r);
	return 0;
}

int mad_ping(struct mad_session *s, uint16_t lid, mad_cb cb, void *arg)
{
	int err;
	struct mad_req *r = gsi_req_new(s, AGENT_PING, lid, 0, cb, arg, &err);

	if (!r)
		return err;
	/* Vendor range 2: reserved byte, then the OUI (IBA 13.4.3.2). */
	r->mad[37] = (MAD_OPENIB_OUI >> 16) & 0xff;
	r->mad[38] = (MAD_OPENIB_OUI >> 8) & 0xff;
	r->mad[39] = MAD_OPENIB_OUI & 0xff;
	req_queue(s, r);
	return 0;
}

/* ---- the engine ---- */

static int req_send(struct mad_session *s, struct mad_req *r, uint64_t now_ns)
{
	if (s->tp) {
		r->attempts++;
		r->deadline_ns = now_ns + (uint64_t)s->opts.timeout_ms * 1000000u;
		s->stats.sent++;
		return s->tp->send(s->tp->priv, r->mad, MAD_SIZE, r->dlid, r->qpn) ? -EIO : 0;
	}
	memset(s->umad, 0, umad_size());
	umad_set_addr(s->umad, r->dlid, (int)r->qpn, 0, (int)r->qkey);
	memcpy(umad_get_mad(s->umad), r->mad, MAD_SIZE);
	r->attempts++;
	r->deadline_ns = now_ns + (uint64_t)s->opts.timeout_ms * 1000000u;
	s->stats.sent++;
	/* The kernel needs a timeout to match the reply to this send; retries are ours. */
	if (umad_send(s->portid, s->agents[r->agent], s->umad, MAD_SIZE,
		      (int)s->opts.timeout_ms, 0) < 0)
		return -EIO;
	return 0;
}

static void req_finish(struct mad_session *s, struct mad_req *r, int status,
		       const uint8_t *mad, size_t len)
{
	if (status == -ETIMEDOUT)
		s->stats.timeouts++;
	r->cb(s, r->arg, status, mad, len);
	req_free(s, r);
}

/* A retry goes out with a new TID so a late first answer cannot be taken for it. */
static int req_retry_or_fail(struct mad_session *s, unsigned int i, uint64_t now_ns, int status)
{
	struct mad_req *r = s->inflight[i];
	struct mad_wire_hdr h;

	if (r->attempts <= s->opts.retries) {
		s->stats.retries++;
		r->tid_lo = s->next_tid++;
		memcpy(&h, r->mad, sizeof(h));
		h.tid = wbe64_put(r->tid_lo);
		memcpy(r->mad, &h, sizeof(h));
		if (req_send(s, r, now_ns) == 0)
			return 0;
		status = -EIO;
	}
	inflight_remove(s, i);
	req_finish(s, r, status, NULL, 0);
	return 1;
}

static void dump_reply(struct mad_session *s, const uint8_t *mad, size_t len)
{
	char path[400];
	FILE *f;
	int fd;

	if (len < MAD_HDR_SIZE)
		return;
	snprintf(path, sizeof(path), "%s/%02x-%04x-%u.bin", s->dump_dir, mad[1],
		 (unsigned int)(mad[16] << 8 | mad[17]), s->dump_seq++);
	fd = util_create_file(path);
	if (fd < 0)
		return;
	f = fdopen(fd, "wb");
	if (!f) {
		close(fd);
		return;
	}
	fwrite(mad, 1, len, f);
	fclose(f);
}

/* Read every reply that is there; returns completions or -errno. */
static int drain(struct mad_session *s, uint64_t now_ns)
{
	int done = 0;

	for (;;) {
		int len, rc, status;
		struct mad_hdr h;
		const uint8_t *mad;
		unsigned int i;

		rc = recv_one(s, 0, &mad, &len, &status);
		if (rc == -EAGAIN)
			return done;
		if (rc < 0)
			return done ? done : rc;
		s->packets++;
		if (mad_decode_hdr(mad, (size_t)len, &h) && len < MAD_HDR_SIZE) {
			s->stats.stray++;
			continue;
		}
		i = inflight_find(s, h.tid);
		if (i == s->ninflight) {
			s->stats.stray++;
			continue;
		}
		if (status) {
			/* The transport's own timeout (or ibsim's "dropped": 110). */
			done += req_retry_or_fail(s, i, now_ns, status == ETIMEDOUT ? -ETIMEDOUT : -EIO);
			continue;
		}
		if (!h.response) {
			s->stats.stray++;
			continue;
		}
		{
			struct mad_req *r = s->inflight[i];

			s->stats.received++;
			if (s->dump_dir[0])
				dump_reply(s, mad, (size_t)len);
			inflight_remove(s, i);
			/* The callback may queue more: copy the reply out of the shared buffer. */
			uint8_t copy[MAD_SIZE];

			memcpy(copy, mad, (size_t)len);
			req_finish(s, r, 0, copy, (size_t)len);
			done++;
		}
	}
}

int mad_step(struct mad_session *s, uint64_t now_ns)
{
	int done, rc;

	if (s->in_step)
		return 0;
	s->in_step = true;
	done = drain(s, now_ns);
	if (done < 0) {
		s->in_step = false;
		return done;
	}
	for (unsigned int i = 0; i < s->ninflight;) {
		if (s->inflight[i]->deadline_ns <= now_ns) {
			unsigned int before = s->ninflight;

			done += req_retry_or_fail(s, i, now_ns, -ETIMEDOUT);
			if (s->ninflight < before)
				continue;	/* slot i now holds another request */
		}
		i++;
	}
	while (s->qhead && s->ninflight < s->opts.window) {
		struct mad_req *r = s->qhead;

		s->qhead = r->next;
		if (!s->qhead)
			s->qtail = NULL;
		rc = req_send(s, r, now_ns);
		if (rc) {
			req_finish(s, r, rc, NULL, 0);
			done++;
			continue;
		}
		s->inflight[s->ninflight++] = r;
		if (s->ninflight > s->stats.peak)
			s->stats.peak = s->ninflight;
	}
	s->in_step = false;
	return done;
}

int mad_run(struct mad_session *s, uint64_t deadline_ns)
{
	for (;;) {
		uint64_t now = util_now_ns();
		struct pollfd pfd;
		int rc, t;

		rc = mad_step(s, now);
		if (rc < 0)
			return rc;
		if (mad_idle(s))
			return 0;
		if (now >= deadline_ns) {
			mad_cancel_all(s);
			return -ETIMEDOUT;
		}
		t = mad_next_timeout_ms(s, now);
		if (t < 0 || (uint64_t)t * 1000000u > deadline_ns - now)
			t = (int)((deadline_ns - now + 999999) / 1000000);
		if (t == 0)
			continue;
		/* Alone in its poll, even umad2sim's fake fd can be waited on. */
		pfd.fd = s->tp ? s->tp->fd : umad_get_fd(s->portid);
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (poll(&pfd, 1, t) < 0 && errno != EINTR)
			return -errno;
	}
}
