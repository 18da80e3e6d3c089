// SPDX-License-Identifier: GPL-2.0-or-later
/* A fake librdmacm/libibverbs (linked with --wrap) that tracks every object and aborts on misuse. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "fake_rdma.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FAKE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FAKE_ASAN 1
#endif
#ifdef FAKE_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
/* without ASan a dead object's pointers point nowhere, so a read through one faults */
#define POISON(p, n) memset(p, 0xdb, n)
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define START_NS 1000000000000ull	/* a clock far from 0, as CLOCK_MONOTONIC is */
#define IB_REQ_PDATA 56			/* private data a REQ carries (IBA 12.6.5) */
#define IB_REP_PDATA 196
#define IB_REJ_PDATA 148
#define CH_EVENTS 64

/* ---- objects ---- */

enum fo_kind { FO_ECH, FO_ID, FO_PD, FO_COMPCH, FO_CQ, FO_QP, FO_MR, FO_EVENT, FO_KINDS };
static const char *const fo_names[FO_KINDS] = {
	[FO_ECH] = "rdma_event_channel", [FO_ID] = "rdma_cm_id", [FO_PD] = "ibv_pd",
	[FO_COMPCH] = "ibv_comp_channel", [FO_CQ] = "ibv_cq", [FO_QP] = "ibv_qp", [FO_MR] = "ibv_mr",
	[FO_EVENT] = "rdma_cm_event",
};

/* The header of every fake object; the verbs struct the server sees is the container's last member. */
struct fo {
	enum fo_kind kind;
	bool dead;		/* destroyed: its verbs struct is poisoned */
	bool internal;		/* created and destroyed by the fake alone (an undelivered child id) */
	unsigned int serial;
	void *pub;		/* the struct handed out */
	size_t pub_len;
	struct fo *next;	/* all objects of this input, newest first */
};

enum fid_state {
	ID_IDLE, ID_BOUND, ID_LISTENING,
	ID_REQ_QUEUED,		/* CONNECT_REQUEST queued, not fetched: the fake owns the id */
	ID_REQ_FETCHED,		/* the server holds it: accept or reject */
	ID_ACCEPTED,		/* REP sent */
	ID_ESTABLISHED,
	ID_DISCONNECTING,	/* rdma_disconnect() from the server, no DISCONNECTED yet */
	ID_REJECTED,		/* by the server */
	ID_CLOSED,		/* DISCONNECTED, REJECTED, errors, device removal: nothing more comes */
};

struct f_ech;
struct f_qp;

struct f_id {
	struct fo o;
	struct f_ech *ech;
	enum fid_state st;
	uint8_t pdata[IB_REQ_PDATA];
	size_t pdata_len;
	uint64_t seq;
	struct f_qp *qp;
	struct rdma_cm_id id;
};

struct f_event {
	struct fo o;
	struct f_ech *ech;
	struct f_event *qnext;
	uint8_t pdata[IB_REQ_PDATA];
	struct rdma_cm_event ev;
};

struct f_ech {
	struct fo o;
	struct f_event *head, *tail;	/* queued events */
	struct f_event *out;		/* fetched, not acked */
	struct rdma_event_channel ch;
};

struct f_pd {
	struct fo o;
	struct ibv_pd pd;
};

struct f_compch {
	struct fo o;
	struct ibv_cq *ev[CH_EVENTS];	/* pending completion events */
	unsigned int nev;
	struct ibv_comp_channel ch;
};

struct f_cq {
	struct fo o;
	struct f_compch *ch;
	struct ibv_wc *q;		/* cqe entries at most */
	int nq;
	bool armed;
	unsigned int unacked;		/* events fetched, not acked */
	struct ibv_cq cq;
};

struct f_wr {
	uint64_t wr_id;
	enum ibv_wr_opcode op;
	bool signaled;
	uint64_t addr;
	uint32_t len, lkey;
	bool has_sge;
};

struct f_qp {
	struct fo o;
	struct f_id *id;
	struct f_pd *pd;
	struct f_cq *scq, *rcq;
	struct f_wr *sq, *rq;
	unsigned int max_send, max_recv, max_send_sge, max_recv_sge;
	unsigned int nsq, nrq;
	bool rts, err;
	struct ibv_qp qp;
};

struct f_mr {
	struct fo o;
	struct f_pd *pd;
	int access;
	struct ibv_mr mr;
};

static struct {
	struct fo *all;
	unsigned int serial;
	uint64_t now;
	bool auto_disc;
	unsigned int fail_skip[FAKE_FNS];
	int fail_err[FAKE_FNS];		/* 0: not armed */
	unsigned int peers;		/* child ids made, for addresses */
} F;

static int f_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);
static int f_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad);
static int f_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc);
static int f_req_notify_cq(struct ibv_cq *cq, int solicited_only);

static struct ibv_device fake_dev = { .name = "fake0", .dev_name = "ufake0" };
static struct ibv_context fake_ctx = {
	.device = &fake_dev,
	.ops = {
		.poll_cq = f_poll_cq,
		.req_notify_cq = f_req_notify_cq,
		.post_send = f_post_send,
		.post_recv = f_post_recv,
	},
	.cmd_fd = -1,
	.async_fd = -1,
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fake rdma: MISUSE: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

static void *fo_new(enum fo_kind kind, size_t size, size_t pub_off, size_t pub_len)
{
	struct fo *o = calloc(1, size);

	if (!o) {
		fprintf(stderr, "fake rdma: out of memory\n");
		abort();
	}
	o->kind = kind;
	o->serial = ++F.serial;
	o->pub = (char *)o + pub_off;
	o->pub_len = pub_len;
	o->next = F.all;
	F.all = o;
	return o;
}
#define FO_NEW(type, kind, member) \
	((struct type *)fo_new(kind, sizeof(struct type), offsetof(struct type, member), \
			       sizeof(((struct type *)0)->member)))

static void fo_kill(struct fo *o)
{
	o->dead = true;
	POISON(o->pub, o->pub_len);
}

/* The live object of that kind the server's pointer names; abort when unknown or destroyed. */
static struct fo *fo_get(const void *pub, enum fo_kind kind, const char *fn)
{
	struct fo *o;

	if (!pub)
		die("%s: NULL %s", fn, fo_names[kind]);
	for (o = F.all; o; o = o->next)
		if (o->pub == pub && o->kind == kind)
			break;
	if (!o)
		die("%s: %p is no %s the fake made", fn, pub, fo_names[kind]);
	if (o->dead)
		die("%s: %s #%u used after it was destroyed", fn, fo_names[kind], o->serial);
	return o;
}
#define GET(type, pub, kind, fn) ((struct type *)fo_get(pub, kind, fn))

/* An armed failure of fn: errno set, true. */
static bool fails(enum fake_fn fn)
{
	if (!F.fail_err[fn])
		return false;
	if (F.fail_skip[fn]) {
		F.fail_skip[fn]--;
		return false;
	}
	errno = F.fail_err[fn];
	F.fail_err[fn] = 0;
	return true;
}

static bool fd_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl >= 0 && (fl & O_NONBLOCK);
}

static int new_fd(void)
{
	int fd = eventfd(0, EFD_CLOEXEC);

	if (fd < 0) {
		perror("fake rdma: eventfd");
		abort();
	}
	return fd;
}

/* ---- API for the harness ---- */

void fake_rdma_begin(void)
{
	memset(&F, 0, sizeof(F));
	F.now = START_NS;
}

void fake_rdma_end(void)
{
	struct fo *o, *next;
	char leaks[512];
	size_t n = 0;

	leaks[0] = '\0';
	for (o = F.all; o; o = o->next) {
		if (o->dead || o->internal)
			continue;
		if (n < sizeof(leaks))
			n += (size_t)snprintf(leaks + n, sizeof(leaks) - n, " %s#%u", fo_names[o->kind], o->serial);
	}
	if (leaks[0])
		die("left at probe_free():%s", leaks);
	for (o = F.all; o; o = next) {
		next = o->next;
		UNPOISON(o->pub, o->pub_len);
		if (o->kind == FO_CQ)
			free(((struct f_cq *)o)->q);
		if (o->kind == FO_QP) {
			free(((struct f_qp *)o)->sq);
			free(((struct f_qp *)o)->rq);
		}
		free(o);
	}
	F.all = NULL;
}

void fake_rdma_fail(enum fake_fn fn, unsigned int skip, int err)
{
	if ((unsigned int)fn >= FAKE_FNS)
		return;
	F.fail_skip[fn] = skip;
	F.fail_err[fn] = err ? err : EIO;
}

void fake_rdma_set_auto_disconnect(bool on)
{
	F.auto_disc = on;
}

uint64_t fake_rdma_now(void)
{
	return F.now;
}

void fake_rdma_sleep(uint64_t ns)
{
	F.now += ns;
}

bool fake_rdma_fd_live(int fd)
{
	struct fo *o;

	for (o = F.all; o; o = o->next) {
		if (o->dead)
			continue;
		if (o->kind == FO_ECH && ((struct f_ech *)o)->ch.fd == fd)
			return true;
		if (o->kind == FO_COMPCH && ((struct f_compch *)o)->ch.fd == fd)
			return true;
	}
	return false;
}

/* ---- CM event queue ---- */

static struct f_event *ev_queue(struct f_ech *e, struct f_id *id, struct f_id *listen,
				enum rdma_cm_event_type type, int status)
{
	struct f_event *fe = FO_NEW(f_event, FO_EVENT, ev);

	fe->o.internal = true;	/* owned by the channel until fetched */
	fe->ech = e;
	fe->ev.id = &id->id;
	fe->ev.listen_id = listen ? &listen->id : NULL;
	fe->ev.event = type;
	fe->ev.status = status;
	if (e->tail)
		e->tail->qnext = fe;
	else
		e->head = fe;
	e->tail = fe;
	return fe;
}

static void ev_drop(struct f_event *fe)
{
	fe->o.dead = true;
	fe->o.internal = true;
}

static void id_internal_destroy(struct f_id *fi);

/* The kernel discards queued events of a destroyed id (and a listener's unfetched requests with their ids). */
static void ev_purge(struct f_ech *e, const struct rdma_cm_id *id)
{
	struct f_event **pp = &e->head, *fe;

	e->tail = NULL;
	while ((fe = *pp)) {
		if (fe->ev.id == id || fe->ev.listen_id == id) {
			*pp = fe->qnext;
			if (fe->ev.event == RDMA_CM_EVENT_CONNECT_REQUEST && fe->ev.id != id)
				id_internal_destroy((struct f_id *)((char *)fe->ev.id - offsetof(struct f_id, id)));
			ev_drop(fe);
			continue;
		}
		e->tail = fe;
		pp = &fe->qnext;
	}
}

/* ---- completions ---- */

static void cq_push(struct f_cq *c, uint64_t wr_id, enum ibv_wc_status status, enum ibv_wc_opcode op,
		    uint32_t byte_len, uint32_t qp_num)
{
	struct ibv_wc *wc;

	if (c->nq >= c->cq.cqe)
		die("CQ #%u overrun: a completion beyond its %d entries", c->o.serial, c->cq.cqe);
	wc = &c->q[c->nq++];
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = wr_id;
	wc->status = status;
	wc->opcode = op;
	wc->byte_len = byte_len;
	wc->qp_num = qp_num;
	if (c->armed && c->ch) {
		c->armed = false;
		if (c->ch->nev < CH_EVENTS)	/* more would coalesce: one is enough to wake */
			c->ch->ev[c->ch->nev++] = &c->cq;
	}
}

static enum ibv_wc_opcode wc_opcode(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return IBV_WC_RDMA_WRITE;
	case IBV_WR_RDMA_READ:
		return IBV_WC_RDMA_READ;
	default:
		return IBV_WC_SEND;
	}
}

static void wr_pop(struct f_wr *q, unsigned int *n)
{
	memmove(q, q + 1, (*n - 1) * sizeof(*q));
	(*n)--;
}

/* The QP enters the error state: everything outstanding completes with a flush error. */
static void qp_flush(struct f_qp *q)
{
	q->err = true;
	while (q->nsq) {
		cq_push(q->scq, q->sq[0].wr_id, IBV_WC_WR_FLUSH_ERR, wc_opcode(q->sq[0].op), 0, q->qp.qp_num);
		wr_pop(q->sq, &q->nsq);
	}
	while (q->nrq) {
		cq_push(q->rcq, q->rq[0].wr_id, IBV_WC_WR_FLUSH_ERR, IBV_WC_RECV, 0, q->qp.qp_num);
		wr_pop(q->rq, &q->nrq);
	}
}

/* Entries a CQ holds or may yet have to hold: its queue and every request outstanding on its QPs. */
static unsigned int cq_load(const struct f_cq *c)
{
	unsigned int n = (unsigned int)c->nq;
	struct fo *o;

	for (o = F.all; o; o = o->next) {
		const struct f_qp *q = (const struct f_qp *)o;

		if (o->kind != FO_QP || o->dead)
			continue;
		if (q->scq == c)
			n += q->nsq;
		if (q->rcq == c)
			n += q->nrq;
	}
	return n;
}

static struct f_mr *mr_by_lkey(uint32_t lkey)
{
	struct fo *o;

	for (o = F.all; o; o = o->next)
		if (o->kind == FO_MR && !o->dead && ((struct f_mr *)o)->mr.lkey == lkey)
			return (struct f_mr *)o;
	return NULL;
}

static void check_sge(const struct f_qp *q, const struct ibv_sge *s, bool local_write, const char *fn)
{
	struct f_mr *m = mr_by_lkey(s->lkey);
	uintptr_t a = (uintptr_t)s->addr, b;

	if (!m)
		die("%s: SGE lkey 0x%x names no live MR", fn, s->lkey);
	b = (uintptr_t)m->mr.addr;
	if (m->pd != q->pd)
		die("%s: MR #%u is in PD #%u, the QP in PD #%u", fn, m->o.serial, m->pd->o.serial, q->pd->o.serial);
	if (a < b || s->length > m->mr.length || a - b > m->mr.length - s->length)
		die("%s: SGE [%#lx, +%u) is outside MR #%u [%p, +%zu)", fn, (unsigned long)a, s->length,
		    m->o.serial, m->mr.addr, m->mr.length);
	if (local_write && !(m->access & IBV_ACCESS_LOCAL_WRITE))
		die("%s: the NIC writes into MR #%u, registered without IBV_ACCESS_LOCAL_WRITE", fn, m->o.serial);
}

/* ---- context ops ---- */

static int f_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	struct f_qp *q = GET(f_qp, qp, FO_QP, "ibv_post_send");

	for (; wr; wr = wr->next) {
		struct f_wr *w;
		int i;

		if (!q->rts)
			die("ibv_post_send: QP #%u is not connected (no rdma_accept yet)", q->o.serial);
		if (wr->opcode != IBV_WR_SEND && wr->opcode != IBV_WR_RDMA_WRITE && wr->opcode != IBV_WR_RDMA_READ)
			die("ibv_post_send: opcode %d", wr->opcode);
		if (wr->num_sge < 0 || (unsigned int)wr->num_sge > q->max_send_sge || wr->num_sge > 1) {
			*bad = wr;
			return EINVAL;
		}
		for (i = 0; i < wr->num_sge; i++)
			if (!(wr->send_flags & IBV_SEND_INLINE))
				check_sge(q, &wr->sg_list[i], wr->opcode == IBV_WR_RDMA_READ, "ibv_post_send");
		if (fails(FAKE_POST_SEND)) {
			*bad = wr;
			return errno;
		}
		if (q->nsq >= q->max_send) {
			*bad = wr;
			return ENOMEM;
		}
		if (cq_load(q->scq) + 1 > (unsigned int)q->scq->cq.cqe)
			die("ibv_post_send: CQ #%u overrun: %u requests outstanding on a CQ of %d entries",
			    q->scq->o.serial, cq_load(q->scq) + 1, q->scq->cq.cqe);
		w = &q->sq[q->nsq++];
		memset(w, 0, sizeof(*w));
		w->wr_id = wr->wr_id;
		w->op = wr->opcode;
		w->signaled = wr->send_flags & IBV_SEND_SIGNALED;
		if (wr->num_sge == 1) {
			w->has_sge = true;
			w->addr = wr->sg_list[0].addr;
			w->len = wr->sg_list[0].length;
			w->lkey = wr->sg_list[0].lkey;
		}
		if (q->err)
			qp_flush(q);
	}
	return 0;
}

static int f_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	struct f_qp *q = GET(f_qp, qp, FO_QP, "ibv_post_recv");

	for (; wr; wr = wr->next) {
		struct f_wr *w;

		if (wr->num_sge < 0 || (unsigned int)wr->num_sge > q->max_recv_sge || wr->num_sge > 1) {
			*bad = wr;
			return EINVAL;
		}
		if (wr->num_sge == 1)
			check_sge(q, &wr->sg_list[0], true, "ibv_post_recv");
		if (fails(FAKE_POST_RECV)) {
			*bad = wr;
			return errno;
		}
		if (q->nrq >= q->max_recv) {
			*bad = wr;
			return ENOMEM;
		}
		if (cq_load(q->rcq) + 1 > (unsigned int)q->rcq->cq.cqe)
			die("ibv_post_recv: CQ #%u overrun: %u requests outstanding on a CQ of %d entries",
			    q->rcq->o.serial, cq_load(q->rcq) + 1, q->rcq->cq.cqe);
		w = &q->rq[q->nrq++];
		memset(w, 0, sizeof(*w));
		w->wr_id = wr->wr_id;
		w->op = IBV_WR_SEND;
		w->signaled = true;
		if (wr->num_sge == 1) {
			w->has_sge = true;
			w->addr = wr->sg_list[0].addr;
			w->len = wr->sg_list[0].length;
			w->lkey = wr->sg_list[0].lkey;
		}
		if (q->err)
			qp_flush(q);
	}
	return 0;
}

static int f_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	struct f_cq *c = GET(f_cq, cq, FO_CQ, "ibv_poll_cq");
	int k;

	if (n < 0)
		die("ibv_poll_cq: %d entries", n);
	if (fails(FAKE_POLL_CQ))
		return -1;
	k = n < c->nq ? n : c->nq;
	memcpy(wc, c->q, (size_t)k * sizeof(*wc));
	memmove(c->q, c->q + k, (size_t)(c->nq - k) * sizeof(*wc));
	c->nq -= k;
	return k;
}

static int f_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	struct f_cq *c = GET(f_cq, cq, FO_CQ, "ibv_req_notify_cq");

	(void)solicited_only;
	if (fails(FAKE_REQ_NOTIFY_CQ))
		return errno;
	if (!c->ch)
		die("ibv_req_notify_cq: CQ #%u has no completion channel", c->o.serial);
	c->armed = true;
	/* entries already there do not raise an event: the caller polls after arming */
	return 0;
}

/* ---- wrapped librdmacm ---- */

struct rdma_event_channel *__wrap_rdma_create_event_channel(void);
void __wrap_rdma_destroy_event_channel(struct rdma_event_channel *channel);
int __wrap_rdma_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context,
			  enum rdma_port_space ps);
int __wrap_rdma_destroy_id(struct rdma_cm_id *id);
int __wrap_rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr);
int __wrap_rdma_listen(struct rdma_cm_id *id, int backlog);
int __wrap_rdma_get_cm_event(struct rdma_event_channel *channel, struct rdma_cm_event **event);
int __wrap_rdma_ack_cm_event(struct rdma_cm_event *event);
int __wrap_rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
int __wrap_rdma_reject(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len);
int __wrap_rdma_disconnect(struct rdma_cm_id *id);
int __wrap_rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr);
void __wrap_rdma_destroy_qp(struct rdma_cm_id *id);
int __wrap_rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr, struct sockaddr *dst_addr,
			     int timeout_ms);
int __wrap_rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms);
int __wrap_rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param);
struct ibv_pd *__wrap_ibv_alloc_pd(struct ibv_context *context);
int __wrap_ibv_dealloc_pd(struct ibv_pd *pd);
struct ibv_comp_channel *__wrap_ibv_create_comp_channel(struct ibv_context *context);
int __wrap_ibv_destroy_comp_channel(struct ibv_comp_channel *channel);
struct ibv_cq *__wrap_ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
				    struct ibv_comp_channel *channel, int comp_vector);
int __wrap_ibv_destroy_cq(struct ibv_cq *cq);
int __wrap_ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context);
void __wrap_ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents);
struct ibv_mr *__wrap_ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access);
struct ibv_mr *__wrap_ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova,
				       unsigned int access);
int __wrap_ibv_dereg_mr(struct ibv_mr *mr);
int __wrap_ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
			 struct ibv_qp_init_attr *init_attr);
uint64_t __wrap_util_now_ns(void);
int __wrap_ibv_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *attr);

uint64_t __wrap_util_now_ns(void)
{
	uint64_t t = F.now;

	F.now += 1000;
	return t;
}

struct rdma_event_channel *__wrap_rdma_create_event_channel(void)
{
	struct f_ech *e;

	if (fails(FAKE_CREATE_EVENT_CHANNEL))
		return NULL;
	e = FO_NEW(f_ech, FO_ECH, ch);
	e->ch.fd = new_fd();	/* blocking, as librdmacm's: the server must make it non-blocking */
	return &e->ch;
}

void __wrap_rdma_destroy_event_channel(struct rdma_event_channel *channel)
{
	struct f_ech *e = GET(f_ech, channel, FO_ECH, "rdma_destroy_event_channel");
	struct fo *o;

	if (e->out)
		die("rdma_destroy_event_channel: event %s still unacked", rdma_event_str(e->out->ev.event));
	for (o = F.all; o; o = o->next)
		if (o->kind == FO_ID && !o->dead && !o->internal && ((struct f_id *)o)->ech == e)
			die("rdma_destroy_event_channel: rdma_cm_id #%u still on it", o->serial);
	while (e->head) {
		struct f_event *fe = e->head;

		e->head = fe->qnext;
		ev_drop(fe);
	}
	close(e->ch.fd);
	fo_kill(&e->o);
}

static struct f_id *id_new(struct f_ech *e, void *context, enum rdma_port_space ps)
{
	struct f_id *fi = FO_NEW(f_id, FO_ID, id);

	fi->ech = e;
	fi->id.channel = &e->ch;
	fi->id.context = context;
	fi->id.ps = ps;
	fi->id.qp_type = IBV_QPT_RC;
	return fi;
}

int __wrap_rdma_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context,
			  enum rdma_port_space ps)
{
	struct f_ech *e = GET(f_ech, channel, FO_ECH, "rdma_create_id");

	if (fails(FAKE_CREATE_ID))
		return -1;
	*id = &id_new(e, context, ps)->id;
	return 0;
}

static void id_internal_destroy(struct f_id *fi)
{
	fi->o.internal = true;
	fo_kill(&fi->o);
}

int __wrap_rdma_destroy_id(struct rdma_cm_id *id)
{
	struct f_id *fi = GET(f_id, id, FO_ID, "rdma_destroy_id");

	if (fi->o.internal)
		die("rdma_destroy_id: id #%u was never handed out", fi->o.serial);
	if (id->qp || fi->qp)
		die("rdma_destroy_id: id #%u still has QP #%u (rdma_destroy_qp first)", fi->o.serial,
		    fi->qp ? fi->qp->o.serial : 0);
	if (fi->ech->out && (fi->ech->out->ev.id == id || fi->ech->out->ev.listen_id == id))
		die("rdma_destroy_id: id #%u has its %s event unacked: this would wait forever", fi->o.serial,
		    rdma_event_str(fi->ech->out->ev.event));
	ev_purge(fi->ech, id);
	fo_kill(&fi->o);
	return 0;
}

int __wrap_rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	struct f_id *fi = GET(f_id, id, FO_ID, "rdma_bind_addr");

	if (fi->st != ID_IDLE)
		die("rdma_bind_addr: id #%u is not idle", fi->o.serial);
	if (fails(FAKE_BIND_ADDR))
		return -1;
	memcpy(&id->route.addr.src_addr, addr,
	       addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
	fi->st = ID_BOUND;
	return 0;
}

int __wrap_rdma_listen(struct rdma_cm_id *id, int backlog)
{
	struct f_id *fi = GET(f_id, id, FO_ID, "rdma_listen");

	(void)backlog;
	if (fi->st != ID_BOUND)
		die("rdma_listen: id #%u is not bound", fi->o.serial);
	if (fails(FAKE_LISTEN))
		return -1;
	fi->st = ID_LISTENING;
	return 0;
}

int __wrap_rdma_get_cm_event(struct rdma_event_channel *channel, struct rdma_cm_event **event)
{
	struct f_ech *e = GET(f_ech, channel, FO_ECH, "rdma_get_cm_event");
	struct f_event *fe;

	if (e->out)
		die("rdma_get_cm_event: the previous event (%s) is not acked", rdma_event_str(e->out->ev.event));
	if (fails(FAKE_GET_CM_EVENT))
		return -1;
	fe = e->head;
	if (!fe) {
		if (!fd_nonblock(channel->fd))
			die("rdma_get_cm_event: nothing queued and the channel's fd blocks: this waits forever");
		errno = EAGAIN;
		return -1;
	}
	e->head = fe->qnext;
	if (!e->head)
		e->tail = NULL;
	fe->qnext = NULL;
	fe->o.internal = false;	/* the server's now: it must ack it */
	if (fe->ev.event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		struct f_id *child = (struct f_id *)((char *)fe->ev.id - offsetof(struct f_id, id));

		child->st = ID_REQ_FETCHED;
		child->o.internal = false;	/* the server's now: it must destroy it */
	}
	e->out = fe;
	*event = &fe->ev;
	return 0;
}

int __wrap_rdma_ack_cm_event(struct rdma_cm_event *event)
{
	struct f_event *fe = GET(f_event, event, FO_EVENT, "rdma_ack_cm_event");

	if (fe->ech->out != fe)
		die("rdma_ack_cm_event: event #%u was not fetched", fe->o.serial);
	fe->ech->out = NULL;
	fo_kill(&fe->o);
	return 0;
}

int __wrap_rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	struct f_id *fi = GET(f_id, id, FO_ID, "rdma_accept");

	if (fi->st != ID_REQ_FETCHED)
		die("rdma_accept: id #%u has no connect request to accept (state %d)", fi->o.serial, fi->st);
	if (!fi->qp && (!conn_param || !conn_param->qp_num))
		die("rdma_accept: id #%u has no QP", fi->o.serial);
	if (conn_param && conn_param->private_data_len > IB_REP_PDATA)
		die("rdma_accept: %u bytes of private data (a REP carries %d)", conn_param->private_data_len,
		    IB_REP_PDATA);
	if (conn_param && conn_param->private_data_len && !conn_param->private_data)
		die("rdma_accept: private data length without data");
	if (fails(FAKE_ACCEPT))
		return -1;
	fi->st = ID_ACCEPTED;
	if (fi->qp)
		fi->qp->rts = true;
	return 0;
}

int __wrap_rdma_reject(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len)
{
	struct f_id *fi = GET(f_id, id, FO_ID, "rdma_reject");

	if (fi->st != ID_REQ_FETCHED)
		die("rdma_reject: id #%u has no connect request to reject (state %d)", fi->o.serial, fi->st);
	if (private_data_len > IB_REJ_PDATA)
		die("rdma_reject: %u bytes of private data (a REJ carries %d)", private_data_len, IB_REJ_PDATA);
	if (private_data_len && !private_data)
		die("rdma_reject: private data length without data");
	if (fails(FAKE_REJECT))
		return -1;
	fi->st = ID_REJECTED;
	return 0;
}

int __wrap_rdma_disconnect(struct rdma_cm_id *id)
{
	struct f_id *fi = GET(f_id, id, FO_ID, "rdma_disconnect");

	if (fails(FAKE_DISCONNECT))
		return -1;
	/* librdmacm moves the QP to the error state first, whatever the CM says next */
	if (fi->qp && fi->st >= ID_ACCEPTED)
		qp_flush(fi->qp);
	if (fi->st != ID_ESTABLISHED) {
		errno = EINVAL;	/* no DREQ outside the established state */
		return -1;
	}
	fi->st = ID_DISCONNECTING;
	if (F.auto_disc) {
		ev_queue(fi->ech, fi, NULL, RDMA_CM_EVENT_DISCONNECTED, 0);
		fi->st = ID_CLOSED;
	}
	return 0;
}

int __wrap_rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_qp_init_attr *qa)
{
	struct f_id *fi = GET(f_id, id, FO_ID, "rdma_create_qp");
	struct f_pd *p = GET(f_pd, pd, FO_PD, "rdma_create_qp");
	struct f_cq *scq = GET(f_cq, qa->send_cq, FO_CQ, "rdma_create_qp(send_cq)");
	struct f_cq *rcq = GET(f_cq, qa->recv_cq, FO_CQ, "rdma_create_qp(recv_cq)");
	struct f_qp *q;

	if (!id->verbs || pd->context != id->verbs)
		die("rdma_create_qp: PD #%u is not of id #%u's device", p->o.serial, fi->o.serial);
	if (id->qp || fi->qp)
		die("rdma_create_qp: id #%u already has a QP", fi->o.serial);
	if (fi->st != ID_REQ_FETCHED)
		die("rdma_create_qp: id #%u is not a connect request being answered", fi->o.serial);
	if (qa->qp_type != IBV_QPT_RC || !qa->cap.max_send_wr || !qa->cap.max_recv_wr)
		die("rdma_create_qp: type %d, %u send, %u receive requests", qa->qp_type, qa->cap.max_send_wr,
		    qa->cap.max_recv_wr);
	if (fails(FAKE_CREATE_QP))
		return -1;
	q = FO_NEW(f_qp, FO_QP, qp);
	q->id = fi;
	q->pd = p;
	q->scq = scq;
	q->rcq = rcq;
	q->max_send = qa->cap.max_send_wr;
	q->max_recv = qa->cap.max_recv_wr;
	q->max_send_sge = qa->cap.max_send_sge;
	q->max_recv_sge = qa->cap.max_recv_sge;
	q->sq = calloc(q->max_send, sizeof(*q->sq));
	q->rq = calloc(q->max_recv, sizeof(*q->rq));
	if (!q->sq || !q->rq) {
		fprintf(stderr, "fake rdma: out of memory\n");
		abort();
	}
	q->qp.context = id->verbs;
	q->qp.pd = pd;
	q->qp.send_cq = qa->send_cq;
	q->qp.recv_cq = qa->recv_cq;
	q->qp.qp_context = qa->qp_context;
	q->qp.qp_num = 0x100 + q->o.serial;
	q->qp.qp_type = IBV_QPT_RC;
	q->qp.state = IBV_QPS_INIT;
	fi->qp = q;
	id->qp = &q->qp;
	return 0;
}

/* A destroyed QP's requests never complete; its entries leave the CQs (as providers clean them). */
static void cq_clean(struct f_cq *c, uint32_t qp_num)
{
	int i, j = 0;

	for (i = 0; i < c->nq; i++)
		if (c->q[i].qp_num != qp_num)
			c->q[j++] = c->q[i];
	c->nq = j;
}

void __wrap_rdma_destroy_qp(struct rdma_cm_id *id)
{
	struct f_id *fi = GET(f_id, id, FO_ID, "rdma_destroy_qp");
	struct f_qp *q = fi->qp;

	if (!q || id->qp != &q->qp)
		die("rdma_destroy_qp: id #%u has no QP", fi->o.serial);
	fo_get(&q->qp, FO_QP, "rdma_destroy_qp");
	cq_clean(q->scq, q->qp.qp_num);
	cq_clean(q->rcq, q->qp.qp_num);
	q->nsq = q->nrq = 0;
	fo_kill(&q->o);
	fi->qp = NULL;
	id->qp = NULL;
}

int __wrap_rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr, struct sockaddr *dst_addr,
			     int timeout_ms)
{
	(void)id, (void)src_addr, (void)dst_addr, (void)timeout_ms;
	die("rdma_resolve_addr: the client's path, in a server");
}

int __wrap_rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms)
{
	(void)id, (void)timeout_ms;
	die("rdma_resolve_route: the client's path, in a server");
}

int __wrap_rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
{
	(void)id, (void)conn_param;
	die("rdma_connect: the client's path, in a server");
}

/* ---- wrapped libibverbs ---- */

static void check_ctx(const struct ibv_context *ctx, const char *fn)
{
	if (ctx != &fake_ctx)
		die("%s: %p is not the device context of an rdma_cm_id", fn, (const void *)ctx);
}

struct ibv_pd *__wrap_ibv_alloc_pd(struct ibv_context *context)
{
	struct f_pd *p;

	check_ctx(context, "ibv_alloc_pd");
	if (fails(FAKE_ALLOC_PD))
		return NULL;
	p = FO_NEW(f_pd, FO_PD, pd);
	p->pd.context = context;
	p->pd.handle = p->o.serial;
	return &p->pd;
}

int __wrap_ibv_dealloc_pd(struct ibv_pd *pd)
{
	struct f_pd *p = GET(f_pd, pd, FO_PD, "ibv_dealloc_pd");
	struct fo *o;

	for (o = F.all; o; o = o->next) {
		if (o->dead)
			continue;
		if ((o->kind == FO_MR && ((struct f_mr *)o)->pd == p) || (o->kind == FO_QP && ((struct f_qp *)o)->pd == p))
			die("ibv_dealloc_pd: PD #%u still holds %s #%u (EBUSY: it would leak)", p->o.serial,
			    fo_names[o->kind], o->serial);
	}
	fo_kill(&p->o);
	return 0;
}

struct ibv_comp_channel *__wrap_ibv_create_comp_channel(struct ibv_context *context)
{
	struct f_compch *c;

	check_ctx(context, "ibv_create_comp_channel");
	if (fails(FAKE_CREATE_COMP_CHANNEL))
		return NULL;
	c = FO_NEW(f_compch, FO_COMPCH, ch);
	c->ch.context = context;
	c->ch.fd = new_fd();
	c->ch.refcnt = 0;
	return &c->ch;
}

int __wrap_ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
{
	struct f_compch *c = GET(f_compch, channel, FO_COMPCH, "ibv_destroy_comp_channel");
	struct fo *o;

	for (o = F.all; o; o = o->next)
		if (o->kind == FO_CQ && !o->dead && ((struct f_cq *)o)->ch == c)
			die("ibv_destroy_comp_channel: CQ #%u still uses it (EBUSY)", o->serial);
	close(c->ch.fd);
	fo_kill(&c->o);
	return 0;
}

struct ibv_cq *__wrap_ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
				    struct ibv_comp_channel *channel, int comp_vector)
{
	struct f_compch *ch = channel ? GET(f_compch, channel, FO_COMPCH, "ibv_create_cq") : NULL;
	struct f_cq *c;

	(void)comp_vector;
	check_ctx(context, "ibv_create_cq");
	if (cqe < 1)
		die("ibv_create_cq: %d entries", cqe);
	if (fails(FAKE_CREATE_CQ))
		return NULL;
	c = FO_NEW(f_cq, FO_CQ, cq);
	c->ch = ch;
	c->q = calloc((size_t)cqe, sizeof(*c->q));
	if (!c->q) {
		fprintf(stderr, "fake rdma: out of memory\n");
		abort();
	}
	c->cq.context = context;
	c->cq.channel = channel;
	c->cq.cq_context = cq_context;
	c->cq.cqe = cqe;	/* exactly what was asked: the server may not count on rounding up */
	return &c->cq;
}

int __wrap_ibv_destroy_cq(struct ibv_cq *cq)
{
	struct f_cq *c = GET(f_cq, cq, FO_CQ, "ibv_destroy_cq");
	struct fo *o;
	unsigned int i, j = 0;

	for (o = F.all; o; o = o->next)
		if (o->kind == FO_QP && !o->dead && (((struct f_qp *)o)->scq == c || ((struct f_qp *)o)->rcq == c))
			die("ibv_destroy_cq: QP #%u still uses CQ #%u (EBUSY)", o->serial, c->o.serial);
	if (c->unacked)
		die("ibv_destroy_cq: CQ #%u has %u events unacked: this waits forever", c->o.serial, c->unacked);
	if (c->ch) {
		/* events not fetched yet go with the CQ */
		for (i = 0; i < c->ch->nev; i++)
			if (c->ch->ev[i] != cq)
				c->ch->ev[j++] = c->ch->ev[i];
		c->ch->nev = j;
	}
	fo_kill(&c->o);
	return 0;
}

int __wrap_ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)
{
	struct f_compch *ch = GET(f_compch, channel, FO_COMPCH, "ibv_get_cq_event");
	struct f_cq *c;

	if (fails(FAKE_GET_CQ_EVENT))
		return -1;
	if (!ch->nev) {
		if (!fd_nonblock(channel->fd))
			die("ibv_get_cq_event: nothing pending and the channel's fd blocks: this waits forever");
		errno = EAGAIN;
		return -1;
	}
	c = GET(f_cq, ch->ev[0], FO_CQ, "ibv_get_cq_event(internal)");
	memmove(ch->ev, ch->ev + 1, (ch->nev - 1) * sizeof(ch->ev[0]));
	ch->nev--;
	c->unacked++;
	*cq = &c->cq;
	*cq_context = c->cq.cq_context;
	return 0;
}

void __wrap_ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	struct f_cq *c = GET(f_cq, cq, FO_CQ, "ibv_ack_cq_events");

	if (nevents > c->unacked)
		die("ibv_ack_cq_events: %u acked on CQ #%u, %u were fetched", nevents, c->o.serial, c->unacked);
	c->unacked -= nevents;
}

static struct ibv_mr *reg_mr(struct ibv_pd *pd, void *addr, size_t length, unsigned int access)
{
	struct f_pd *p = GET(f_pd, pd, FO_PD, "ibv_reg_mr");
	struct f_mr *m;

	if (length && !addr)
		die("ibv_reg_mr: NULL address of %zu bytes", length);
	if (fails(FAKE_REG_MR))
		return NULL;
	if (length) {
		/* pinning touches the pages: under ASan a freed or short buffer shows here */
		volatile const uint8_t *b = addr;

		(void)b[0];
		(void)b[length - 1];
	}
	m = FO_NEW(f_mr, FO_MR, mr);
	m->pd = p;
	m->access = (int)access;
	m->mr.context = pd->context;
	m->mr.pd = pd;
	m->mr.addr = addr;
	m->mr.length = length;
	m->mr.handle = m->o.serial;
	m->mr.lkey = 0x1000 + m->o.serial;
	m->mr.rkey = 0x80000 + m->o.serial;
	return &m->mr;
}

struct ibv_mr *__wrap_ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	return reg_mr(pd, addr, length, (unsigned int)access);
}

struct ibv_mr *__wrap_ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova,
				       unsigned int access)
{
	if (iova != (uintptr_t)addr)
		die("ibv_reg_mr_iova2: iova differs from the address");
	return reg_mr(pd, addr, length, access);
}

int __wrap_ibv_dereg_mr(struct ibv_mr *mr)
{
	struct f_mr *m = GET(f_mr, mr, FO_MR, "ibv_dereg_mr");
	struct fo *o;
	unsigned int i;

	for (o = F.all; o; o = o->next) {
		struct f_qp *q = (struct f_qp *)o;

		if (o->kind != FO_QP || o->dead)
			continue;
		for (i = 0; i < q->nsq; i++)
			if (q->sq[i].has_sge && q->sq[i].lkey == mr->lkey)
				die("ibv_dereg_mr: MR #%u is under a send request outstanding on QP #%u",
				    m->o.serial, q->o.serial);
		for (i = 0; i < q->nrq; i++)
			if (q->rq[i].has_sge && q->rq[i].lkey == mr->lkey)
				die("ibv_dereg_mr: MR #%u is under a receive outstanding on QP #%u",
				    m->o.serial, q->o.serial);
	}
	fo_kill(&m->o);
	return 0;
}

/* ---- the peer ---- */

struct fake_peer {
	struct f_id fi;
};

static struct f_id *listener(void)
{
	struct fo *o;

	for (o = F.all; o; o = o->next)
		if (o->kind == FO_ID && !o->dead && ((struct f_id *)o)->st == ID_LISTENING)
			return (struct f_id *)o;
	return NULL;
}

int fake_peer_connect(const void *pdata, size_t len, bool pad)
{
	struct f_id *l = listener(), *c;
	struct sockaddr_in *sin;
	struct f_event *fe;

	if (!l)
		return -1;
	c = id_new(l->ech, l->id.context, l->id.ps);
	c->o.internal = true;	/* the fake's until the server fetches the request */
	c->st = ID_REQ_QUEUED;
	c->id.verbs = &fake_ctx;
	c->id.port_num = 1;
	memcpy(&c->id.route.addr.src_addr, &l->id.route.addr.src_addr, sizeof(c->id.route.addr.src_storage));
	sin = (struct sockaddr_in *)&c->id.route.addr.dst_addr;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(0x0a140000u + (++F.peers & 0xffff));
	sin->sin_port = htons((uint16_t)(40000 + F.peers % 20000));
	if (len > IB_REQ_PDATA)
		len = IB_REQ_PDATA;
	memcpy(c->pdata, pdata, len);
	c->pdata_len = len;
	fe = ev_queue(l->ech, c, l, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
	if (len || pad) {
		memcpy(fe->pdata, pdata, len);
		fe->ev.param.conn.private_data = fe->pdata;
		fe->ev.param.conn.private_data_len = pad ? IB_REQ_PDATA : (uint8_t)len;
	}
	fe->ev.param.conn.responder_resources = 1;
	fe->ev.param.conn.initiator_depth = 1;
	return 0;
}

int fake_listener_removal(void)
{
	struct f_id *l = listener();

	if (!l)
		return -1;
	ev_queue(l->ech, l, NULL, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	return 0;
}

static bool peer_visible(const struct fo *o)
{
	const struct f_id *fi = (const struct f_id *)o;

	return o->kind == FO_ID && !o->dead && !o->internal && fi->st >= ID_REQ_FETCHED;
}

unsigned int fake_peer_count(void)
{
	unsigned int n = 0;
	struct fo *o;

	for (o = F.all; o; o = o->next)
		n += peer_visible(o);
	return n;
}

struct fake_peer *fake_peer_get(unsigned int k)
{
	unsigned int n = fake_peer_count();
	struct fo *o;

	if (k >= n)
		return NULL;
	k = n - 1 - k;	/* the list is newest first: k counts from the oldest */
	for (o = F.all; o; o = o->next)
		if (peer_visible(o) && !k--)
			return (struct fake_peer *)o;
	return NULL;
}

const uint8_t *fake_peer_hello(const struct fake_peer *fp, size_t *len)
{
	*len = fp->fi.pdata_len;
	return fp->fi.pdata;
}

uint64_t fake_peer_next_seq(struct fake_peer *fp)
{
	return fp->fi.seq++;
}

int fake_peer_cm_event(struct fake_peer *fp, enum rdma_cm_event_type ev, int status, bool flush)
{
	struct f_id *fi = &fp->fi;

	switch (ev) {
	case RDMA_CM_EVENT_ESTABLISHED:
		if (fi->st != ID_ACCEPTED)
			return -1;
		fi->st = ID_ESTABLISHED;
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		if (fi->st != ID_ACCEPTED && fi->st != ID_ESTABLISHED && fi->st != ID_DISCONNECTING)
			return -1;
		fi->st = ID_CLOSED;
		break;
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		/* the REP rejected or unanswered */
		if (fi->st != ID_ACCEPTED)
			return -1;
		fi->st = ID_CLOSED;
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		if (fi->st == ID_CLOSED || fi->st == ID_REJECTED)
			return -1;
		fi->st = ID_CLOSED;
		flush = true;
		break;
	default:
		return -1;
	}
	if (flush && fi->qp)
		qp_flush(fi->qp);
	ev_queue(fi->ech, fi, NULL, ev, status);
	return 0;
}

static struct f_qp *peer_qp(const struct fake_peer *fp)
{
	const struct f_id *fi = &fp->fi;

	if (!fi->qp || (fi->st != ID_ACCEPTED && fi->st != ID_ESTABLISHED))
		return NULL;
	return fi->qp;
}

int fake_peer_send(struct fake_peer *fp, const void *msg, size_t len)
{
	struct f_qp *q = peer_qp(fp);
	struct f_wr w;

	if (!q || q->err || !q->nrq)
		return -1;
	w = q->rq[0];
	wr_pop(q->rq, &q->nrq);
	if (!w.has_sge || len > w.len) {
		cq_push(q->rcq, w.wr_id, IBV_WC_LOC_LEN_ERR, IBV_WC_RECV, 0, q->qp.qp_num);
		qp_flush(q);
		return 0;
	}
	if (!mr_by_lkey(w.lkey))
		die("a receive landed in MR 0x%x, deregistered while it was posted", w.lkey);
	memcpy((void *)(uintptr_t)w.addr, msg, len);
	cq_push(q->rcq, w.wr_id, IBV_WC_SUCCESS, IBV_WC_RECV, (uint32_t)len, q->qp.qp_num);
	return 0;
}

int fake_peer_sq_head(const struct fake_peer *fp, enum ibv_wr_opcode *op, uint32_t *len)
{
	struct f_qp *q = peer_qp(fp);

	if (!q || q->err || !q->nsq)
		return -1;
	*op = q->sq[0].op;
	*len = q->sq[0].len;
	return 0;
}

int fake_peer_sq_complete(struct fake_peer *fp, const void *data, size_t len)
{
	struct f_qp *q = peer_qp(fp);
	struct f_wr w;

	if (!q || q->err || !q->nsq)
		return -1;
	w = q->sq[0];
	wr_pop(q->sq, &q->nsq);
	if (w.op == IBV_WR_RDMA_READ && w.has_sge) {
		uint8_t *dst = (uint8_t *)(uintptr_t)w.addr;

		if (!mr_by_lkey(w.lkey))
			die("an RDMA READ landed in MR 0x%x, deregistered while it was posted", w.lkey);
		memset(dst, 0, w.len);
		if (data && len)
			memcpy(dst, data, len < w.len ? len : w.len);
	}
	if (w.signaled)
		cq_push(q->scq, w.wr_id, IBV_WC_SUCCESS, wc_opcode(w.op),
			w.op == IBV_WR_RDMA_READ ? w.len : 0, q->qp.qp_num);
	return 0;
}

int fake_peer_error(struct fake_peer *fp, bool recv_queue, enum ibv_wc_status status)
{
	struct f_qp *q = peer_qp(fp);

	if (!q || q->err || status == IBV_WC_SUCCESS)
		return -1;
	if (recv_queue && q->nrq) {
		cq_push(q->rcq, q->rq[0].wr_id, status, IBV_WC_RECV, 0, q->qp.qp_num);
		wr_pop(q->rq, &q->nrq);
	} else if (q->nsq) {
		cq_push(q->scq, q->sq[0].wr_id, status, wc_opcode(q->sq[0].op), 0, q->qp.qp_num);
		wr_pop(q->sq, &q->nsq);
	} else {
		return -1;
	}
	qp_flush(q);
	return 0;
}

/*
 * The server names a connection's source GID from the QP's address vector:
 * the fake's paths carry no GRH (an InfiniBand path routed by LID), so no
 * GID table is asked.
 */
int __wrap_ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
			struct ibv_qp_init_attr *init_attr)
{
	struct f_qp *q = GET(f_qp, qp, FO_QP, "ibv_query_qp");

	(void)q;
	(void)attr_mask;
	memset(attr, 0, sizeof(*attr));
	memset(init_attr, 0, sizeof(*init_attr));
	attr->ah_attr.is_global = 0;
	return 0;
}

/* The fake context is not an extended one: verbs.h's inline falls back to the plain symbol, wrapped here. */
int __wrap_ibv_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *attr)
{
	if (context != &fake_ctx)
		die("ibv_query_port on a context that is not the fake's");
	memset(attr, 0, sizeof(*attr));
	if (port_num != 1)
		return EINVAL;
	attr->state = IBV_PORT_ACTIVE;
	attr->active_speed = 32;	/* EDR */
	attr->active_width = 2;		/* 4x */
	return 0;
}
