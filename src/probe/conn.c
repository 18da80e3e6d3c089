// SPDX-License-Identifier: GPL-2.0-or-later
/* One RDMA connection's verbs resources: PD, completion channel, CQ, QP, buffers; set up and torn down whole. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probe_int.h"

#define WR_ID(kind, idx) ((uint64_t)(kind) << 16 | (idx))

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

static void *alloc_buf(size_t len)
{
	void *p = NULL;

	/* page-aligned: registration pins whole pages anyway */
	if (posix_memalign(&p, 4096, len))
		return NULL;
	memset(p, 0, len);
	return p;
}

/* Long: verbs resources in creation order (PD, CQs, QP, MRs, receives), each undone by the caller's teardown on failure. */
/* The protection domain, the completion channel (non-blocking, for the poll loop) and the one CQ. */
static int conn_cq_setup(struct conn *c, const struct conn_params *cp, char *err, size_t errlen)
{
	struct ibv_context *verbs = c->id->verbs;
	unsigned int cqe;
	int e;

	c->pd = ibv_alloc_pd(verbs);
	if (!c->pd) {
		e = errno ? -errno : -ENOMEM;
		snprintf(err, errlen, "ibv_alloc_pd: %s", strerror(-e));
		return e;
	}
	c->ch = ibv_create_comp_channel(verbs);
	if (!c->ch) {
		e = errno ? -errno : -ENOMEM;
		snprintf(err, errlen, "ibv_create_comp_channel: %s", strerror(-e));
		return e;
	}
	e = set_nonblock(c->ch->fd);
	if (e) {
		snprintf(err, errlen, "completion channel: %s", strerror(-e));
		return e;
	}
	cqe = cp->rdma_depth + cp->recv_slots + CONN_SEND_SLOTS + 2;
	c->cq = ibv_create_cq(verbs, (int)cqe, c, c->ch, 0);
	if (!c->cq) {
		e = errno ? -errno : -ENOMEM;
		snprintf(err, errlen, "ibv_create_cq(%u): %s", cqe, strerror(-e));
		return e;
	}
	if (ibv_req_notify_cq(c->cq, 0)) {
		snprintf(err, errlen, "ibv_req_notify_cq failed");
		return -EIO;
	}
	return 0;
}

/* The RC QP on the connection's cm_id, sends and receives on the one CQ. */
static int conn_qp_create(struct conn *c, const struct conn_params *cp, char *err, size_t errlen)
{
	struct ibv_qp_init_attr qa;
	int e;

	memset(&qa, 0, sizeof(qa));
	qa.qp_type = IBV_QPT_RC;
	qa.send_cq = c->cq;
	qa.recv_cq = c->cq;
	qa.cap.max_send_wr = cp->rdma_depth + CONN_SEND_SLOTS;
	qa.cap.max_recv_wr = cp->recv_slots ? cp->recv_slots : 1;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	/*
	 * Small sends inline, as ib_send_lat's: the message travels in the
	 * work request, so the device need not read it through the MR (a
	 * lat round trip is two of them). A device without inline data
	 * refuses the QP: then without.
	 */
	qa.cap.max_inline_data = (uint32_t)(c->slot_size < CONN_INLINE_MAX ? c->slot_size : CONN_INLINE_MAX);
	if (rdma_create_qp(c->id, c->pd, &qa)) {
		qa.cap.max_inline_data = 0;
		if (rdma_create_qp(c->id, c->pd, &qa)) {
			e = errno ? -errno : -EIO;
			snprintf(err, errlen, "rdma_create_qp: %s", strerror(-e));
			return e;
		}
	}
	c->have_qp = true;
	c->max_inline = qa.cap.max_inline_data;
	return 0;
}

/* The control slots and the data buffers, each registered. */
static int conn_bufs(struct conn *c, const struct conn_params *cp, char *err, size_t errlen)
{
	size_t ctrl_len = c->slot_size * (c->recv_slots + CONN_SEND_SLOTS);
	int e;

	c->ctrl = alloc_buf(ctrl_len);
	if (!c->ctrl) {
		snprintf(err, errlen, "out of memory for control buffers");
		return -ENOMEM;
	}
	c->ctrl_mr = ibv_reg_mr(c->pd, c->ctrl, ctrl_len, IBV_ACCESS_LOCAL_WRITE);
	if (!c->ctrl_mr) {
		e = errno ? -errno : -ENOMEM;
		snprintf(err, errlen, "ibv_reg_mr(control): %s", strerror(-e));
		return e;
	}
	for (unsigned int i = 0; i < CONN_BUFS; i++) {
		if (!cp->buf_len[i])
			continue;
		c->buf[i] = alloc_buf(cp->buf_len[i]);
		if (!c->buf[i]) {
			snprintf(err, errlen, "out of memory for a %zu-byte buffer", cp->buf_len[i]);
			return -ENOMEM;
		}
		c->buf_len[i] = cp->buf_len[i];
		c->mr[i] = ibv_reg_mr(c->pd, c->buf[i], c->buf_len[i], cp->buf_access[i] | IBV_ACCESS_LOCAL_WRITE);
		if (!c->mr[i]) {
			e = errno ? -errno : -ENOMEM;
			snprintf(err, errlen, "ibv_reg_mr(%zu bytes): %s", c->buf_len[i], strerror(-e));
			return e;
		}
	}
	return 0;
}

int conn_setup(struct conn *c, struct rdma_cm_id *id, const struct conn_params *cp,
	       char *err, size_t errlen)
{
	int e;

	memset(c, 0, sizeof(*c));
	c->id = id;
	if (!id->verbs) {
		snprintf(err, errlen, "no RDMA device bound to the connection");
		return -ENODEV;
	}
	if (cp->recv_slots > CONN_MAX_RECV_SLOTS || !cp->slot_size) {
		snprintf(err, errlen, "bad connection parameters");
		return -EINVAL;
	}
	c->slot_size = cp->slot_size;
	c->recv_slots = cp->recv_slots;
	e = conn_cq_setup(c, cp, err, errlen);
	if (!e)
		e = conn_qp_create(c, cp, err, errlen);
	if (!e)
		e = conn_bufs(c, cp, err, errlen);
	for (unsigned int i = 0; !e && i < c->recv_slots; i++) {
		e = conn_post_recv(c, i);
		if (e)
			snprintf(err, errlen, "ibv_post_recv: %s", strerror(-e));
	}
	if (!e)
		return 0;
	conn_teardown(c);
	c->id = id;
	return e;
}

void conn_teardown(struct conn *c)
{
	unsigned int i;

	/* the QP goes first: it references the CQ, the PD and (posted) the MRs */
	if (c->have_qp && c->id)
		rdma_destroy_qp(c->id);
	c->have_qp = false;
	for (i = 0; i < CONN_BUFS; i++) {
		if (c->mr[i])
			ibv_dereg_mr(c->mr[i]);
		free(c->buf[i]);
		c->mr[i] = NULL;
		c->buf[i] = NULL;
	}
	if (c->ctrl_mr)
		ibv_dereg_mr(c->ctrl_mr);
	free(c->ctrl);
	if (c->cq) {
		if (c->cq_unacked)
			ibv_ack_cq_events(c->cq, c->cq_unacked);
		ibv_destroy_cq(c->cq);
	}
	if (c->ch)
		ibv_destroy_comp_channel(c->ch);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	memset(c, 0, sizeof(*c));
}

int conn_sgid_index(const struct conn *c, uint8_t port, char *type, size_t typelen)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;
	struct ibv_gid_entry ge;

	snprintf(type, typelen, "%s", "");
	if (!c->have_qp || !c->id || !c->id->qp ||
	    ibv_query_qp(c->id->qp, &a, IBV_QP_AV, &init) || !a.ah_attr.is_global)
		return -1;
	if (c->id->verbs && !ibv_query_gid_ex(c->id->verbs, port, a.ah_attr.grh.sgid_index, &ge, 0))
		snprintf(type, typelen, "%s", ge.gid_type == IBV_GID_TYPE_ROCE_V2 ? "RoCE v2" :
			 ge.gid_type == IBV_GID_TYPE_ROCE_V1 ? "RoCE v1" : "IB");
	return a.ah_attr.grh.sgid_index;
}

int conn_fd(const struct conn *c)
{
	return c->ch ? c->ch->fd : -1;
}

uint8_t *conn_recv_slot(struct conn *c, unsigned int slot)
{
	return c->ctrl + (size_t)slot * c->slot_size;
}

int conn_post_recv(struct conn *c, unsigned int slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)conn_recv_slot(c, slot),
		.length = (uint32_t)c->slot_size,
		.lkey = c->ctrl_mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = WR_ID(CONN_WR_RECV, slot), .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;
	int e;

	if (slot >= c->recv_slots || (c->recv_posted & (1u << slot)))
		return -EINVAL;
	e = ibv_post_recv(c->id->qp, &wr, &bad);
	if (e)
		return e > 0 ? -e : -EIO;
	c->recv_posted |= 1u << slot;
	return 0;
}

int conn_send(struct conn *c, const void *msg, size_t len)
{
	struct ibv_sge sge;
	struct ibv_send_wr wr, *bad;
	unsigned int i;
	uint8_t *slot;
	int e;

	if (len > c->slot_size)
		return -EMSGSIZE;
	for (i = 0; i < CONN_SEND_SLOTS; i++)
		if (!(c->send_busy & (1u << i)))
			break;
	if (i == CONN_SEND_SLOTS)
		return -EBUSY;
	slot = c->ctrl + (size_t)(c->recv_slots + i) * c->slot_size;
	memcpy(slot, msg, len);
	sge.addr = (uintptr_t)slot;
	sge.length = (uint32_t)len;
	sge.lkey = c->ctrl_mr->lkey;
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = WR_ID(CONN_WR_SEND, i);
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED | (len <= c->max_inline ? IBV_SEND_INLINE : 0);
	wr.sg_list = &sge;
	wr.num_sge = 1;
	e = ibv_post_send(c->id->qp, &wr, &bad);
	if (e)
		return e > 0 ? -e : -EIO;
	c->send_busy |= 1u << i;
	return 0;
}

int conn_post(struct conn *c, enum ibv_wr_opcode op, unsigned int b, size_t off, size_t len,
	      uint64_t raddr, uint32_t rkey, uint32_t tag)
{
	struct ibv_sge sge;
	struct ibv_send_wr wr, *bad;
	int e;

	if (b >= CONN_BUFS || !c->buf[b] || off > c->buf_len[b] || len > c->buf_len[b] - off ||
	    len > UINT32_MAX)
		return -EINVAL;
	sge.addr = (uintptr_t)(c->buf[b] + off);
	sge.length = (uint32_t)len;
	sge.lkey = c->mr[b]->lkey;
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = WR_ID(CONN_WR_RDMA, tag & 0xffff);
	wr.opcode = op;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	e = ibv_post_send(c->id->qp, &wr, &bad);
	if (e)
		return e > 0 ? -e : -EIO;
	c->rdma_inflight++;
	return 0;
}

int conn_post_chain(struct conn *c, enum ibv_wr_opcode op, unsigned int b, uint64_t first, unsigned int n,
		    unsigned int ring, size_t stride, size_t len, uint64_t raddr, uint32_t rkey, unsigned int sig)
{
	struct ibv_sge sge[CONN_MAX_CHAIN];
	struct ibv_send_wr wr[CONN_MAX_CHAIN], *bad;
	unsigned int i, nsig = 0;
	size_t off;
	int e;

	if (!n || n > CONN_MAX_CHAIN || !ring || !sig || b >= CONN_BUFS || !c->buf[b] || len > UINT32_MAX)
		return -EINVAL;
	memset(wr, 0, n * sizeof(wr[0]));
	for (i = 0; i < n; i++) {
		off = (size_t)((first + i) % ring) * stride;
		if (off > c->buf_len[b] || len > c->buf_len[b] - off)
			return -EINVAL;
		sge[i].addr = (uintptr_t)(c->buf[b] + off);
		sge[i].length = (uint32_t)len;
		sge[i].lkey = c->mr[b]->lkey;
		wr[i].wr_id = WR_ID(CONN_WR_RDMA, (first + i) & 0xffff);
		wr[i].opcode = op;
		wr[i].sg_list = &sge[i];
		wr[i].num_sge = 1;
		wr[i].wr.rdma.remote_addr = raddr;
		wr[i].wr.rdma.rkey = rkey;
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
		if ((first + i + 1) % sig == 0 || i + 1 == n) {
			wr[i].send_flags = IBV_SEND_SIGNALED;
			nsig++;
		}
	}
	e = ibv_post_send(c->id->qp, wr, &bad);
	if (e)
		return e > 0 ? -e : -EIO;
	c->rdma_inflight += nsig;
	return 0;
}

int conn_poll(struct conn *c, struct ibv_wc *wc, int max)
{
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	int n, i;

	if (!c->cq)
		return 0;
	/* drain the channel (non-blocking), re-arm, then poll: no completion is missed */
	while (!c->spinning && ibv_get_cq_event(c->ch, &ev_cq, &ev_ctx) == 0) {
		if (++c->cq_unacked >= 16) {
			ibv_ack_cq_events(c->cq, c->cq_unacked);
			c->cq_unacked = 0;
		}
		ibv_req_notify_cq(c->cq, 0);
	}
	n = ibv_poll_cq(c->cq, max, wc);
	if (n < 0)
		return -EIO;
	for (i = 0; i < n; i++) {
		unsigned int idx = conn_wr_index(wc[i].wr_id);

		switch (conn_wr_kind(wc[i].wr_id)) {
		case CONN_WR_RECV:
			if (idx < CONN_MAX_RECV_SLOTS)
				c->recv_posted &= ~(1u << idx);
			break;
		case CONN_WR_SEND:
			if (idx < CONN_SEND_SLOTS)
				c->send_busy &= ~(1u << idx);
			break;
		case CONN_WR_RDMA:
			if (c->rdma_inflight)
				c->rdma_inflight--;
			break;
		}
	}
	return n;
}
