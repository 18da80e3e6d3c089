/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A fake librdmacm/libibverbs that aborts on misuse, for driving the probe server without hardware. */
#ifndef FABTOP_TESTS_FUZZ_FAKE_RDMA_H
#define FABTOP_TESTS_FUZZ_FAKE_RDMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

/*
 * Linked with -Wl,--wrap=NAME for every rdma_* and ibv_* the probe calls and
 * for util_now_ns (FAKE_RDMA_WRAP in mk/fuzz.mk): the probe's objects then
 * call __wrap_NAME here. ibv_post_send/post_recv/poll_cq/req_notify_cq are
 * static inlines through ibv_context.ops: the fake's context carries its own.
 *
 * Every object (event channel, cm id, PD, completion channel, CQ, QP, MR)
 * stays allocated until fake_rdma_end(), dead ones poisoned, so any misuse
 * is seen here and ends in abort() with a line on stderr saying what:
 *   - a post that would let a CQ hold more entries than it was created with
 *   - an SGE outside a live MR of the QP's PD (or without the access it needs)
 *   - rdma_destroy_id() on an id that still has a QP, or with its event unacked
 *   - rdma_get_cm_event() before the previous event was acked
 *   - destroying a PD, channel or CQ still in use, a CQ with unacked events,
 *     an MR under an outstanding work request
 *   - a blocking get on a channel whose fd is not O_NONBLOCK and has nothing
 *   - any call on a destroyed or unknown object; at fake_rdma_end(), anything
 *     created and not destroyed
 */

/* Calls whose failure an input can ask for. */
enum fake_fn {
	FAKE_CREATE_EVENT_CHANNEL, FAKE_CREATE_ID, FAKE_BIND_ADDR, FAKE_LISTEN,
	FAKE_GET_CM_EVENT, FAKE_ACCEPT, FAKE_REJECT, FAKE_DISCONNECT,
	FAKE_CREATE_QP, FAKE_ALLOC_PD, FAKE_CREATE_COMP_CHANNEL, FAKE_CREATE_CQ,
	FAKE_REQ_NOTIFY_CQ, FAKE_REG_MR, FAKE_POST_SEND, FAKE_POST_RECV,
	FAKE_POLL_CQ, FAKE_GET_CQ_EVENT,
	FAKE_FNS
};

/* Starts an input: no objects, the clock at a fixed start, no failures armed. */
void fake_rdma_begin(void);
/* Ends it: aborts when anything is left (leaks, an unacked event), then frees all. */
void fake_rdma_end(void);

/* The (skip+1)-th next call of fn fails with errno err (ibv_reg_mr: NULL and ENOMEM, as under RLIMIT_MEMLOCK). */
void fake_rdma_fail(enum fake_fn fn, unsigned int skip, int err);
/* rdma_disconnect() queues DISCONNECTED at once (the peer answers the DREQ). */
void fake_rdma_set_auto_disconnect(bool on);

/* The clock util_now_ns() reads; every read advances it by 1 us, so busy loops end. */
uint64_t fake_rdma_now(void);
void fake_rdma_sleep(uint64_t ns);

/* Whether fd is a live channel's (event channel or completion channel). */
bool fake_rdma_fd_live(int fd);

/* ---- the peer: what clients and the network do ---- */

struct fake_peer;

/* A CONNECT_REQUEST on the listener with this private data (IB pads it to 56 bytes when pad). -1: no listener. */
int fake_peer_connect(const void *pdata, size_t len, bool pad);
/* DEVICE_REMOVAL on the listener; -1: none. */
int fake_listener_removal(void);

/* Connections the server has seen (fetched their CONNECT_REQUEST) and not destroyed; k = 0 is the oldest. */
unsigned int fake_peer_count(void);
struct fake_peer *fake_peer_get(unsigned int k);
const uint8_t *fake_peer_hello(const struct fake_peer *fp, size_t *len);
/* The peer's message counter (post-increment): lets inputs send in-sequence messages. */
uint64_t fake_peer_next_seq(struct fake_peer *fp);

/* ESTABLISHED, DISCONNECTED, REJECTED, CONNECT_ERROR, UNREACHABLE, DEVICE_REMOVAL
 * where the CM could deliver it; flush: the QP goes to error first. -1: not now. */
int fake_peer_cm_event(struct fake_peer *fp, enum rdma_cm_event_type ev, int status, bool flush);
/* The peer's SEND lands in the oldest posted receive; -1: none posted (an RNR). */
int fake_peer_send(struct fake_peer *fp, const void *msg, size_t len);
/* The oldest outstanding send-queue request: opcode and length; -1: none. */
int fake_peer_sq_head(const struct fake_peer *fp, enum ibv_wr_opcode *op, uint32_t *len);
/* Completes it; an RDMA READ first fills its buffer from data (zero-padded). */
int fake_peer_sq_complete(struct fake_peer *fp, const void *data, size_t len);
/* The oldest request of the send (or receive) queue fails with status; the rest flush. */
int fake_peer_error(struct fake_peer *fp, bool recv_queue, enum ibv_wc_status status);

#endif
