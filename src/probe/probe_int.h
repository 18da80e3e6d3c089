/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the probe: the control block, one connection's verbs resources, statistics. */
#ifndef FABTOP_PROBE_PROBE_INT_H
#define FABTOP_PROBE_PROBE_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "probe/driven.h"
#include "probe/probe.h"
#include "probe/wire.h"

/* ---- conn.c: the verbs side of one connection ---- */

#define CONN_MAX_RECV_SLOTS 32	/* receives kept posted at most (a bitmask) */
#define CONN_CTRL_RECVS	4	/* what control traffic needs */
#define CONN_SEND_SLOTS	4	/* control sends in flight at most */
#define CONN_INLINE_MAX	64	/* sends up to this size go inline where the device can */
#define CONN_BUFS	2	/* data buffers (rping: source and sink) */

/* wr_id = kind << 16 | index */
enum conn_wr_kind { CONN_WR_RECV = 1, CONN_WR_SEND, CONN_WR_RDMA };

struct conn_params {
	unsigned int rdma_depth;	/* RDMA READ/WRITE in flight at most */
	unsigned int recv_slots;	/* <= CONN_MAX_RECV_SLOTS */
	size_t slot_size;		/* bytes per control slot (receives larger fail) */
	size_t buf_len[CONN_BUFS];	/* 0: no buffer */
	int buf_access[CONN_BUFS];	/* ibv_access_flags */
};

struct conn {
	struct rdma_cm_id *id;		/* not owned: the caller destroys it */
	struct ibv_pd *pd;		/* protection domain for this connection alone */
	struct ibv_comp_channel *ch;	/* completion events; ch->fd is non-blocking */
	struct ibv_cq *cq;		/* one CQ for sends and receives */
	bool have_qp;			/* rdma_create_qp() succeeded: id->qp */
	unsigned int cq_unacked;	/* CQ events to ack before ibv_destroy_cq() */
	size_t slot_size;
	unsigned int recv_slots;
	uint8_t *ctrl;			/* recv slots, then send slots */
	struct ibv_mr *ctrl_mr;
	unsigned int send_busy;		/* bit i: send slot i in flight */
	unsigned int recv_posted;	/* bit i: recv slot i posted */
	uint8_t *buf[CONN_BUFS];	/* data buffers */
	size_t buf_len[CONN_BUFS];
	struct ibv_mr *mr[CONN_BUFS];
	unsigned int rdma_inflight;	/* READ/WRITE posted, not completed */
	bool spinning;			/* busy-polling (--spin-us): conn_poll() looks at the CQ only */
	uint32_t max_inline;		/* sends this small go inline (in the work request), 0: none */
};

int conn_setup(struct conn *c, struct rdma_cm_id *id, const struct conn_params *cp,
	       char *err, size_t errlen);
void conn_teardown(struct conn *c);
/*
 * The source GID index the connected QP's address vector uses (what the
 * RDMA CM chose), and its type ("RoCE v2", ...). -1 when the QP has no GRH
 * (an InfiniBand path routed by LID) or cannot be asked.
 */
int conn_sgid_index(const struct conn *c, uint8_t port, char *type, size_t typelen);
int conn_fd(const struct conn *c);
/*
 * A busy-poll (--spin-us) looks at the clock, and yields the CPU, once per
 * this many polls without a completion: an empty poll of a CQ is a few
 * loads, but a clock reading in a VM can be a system call into an emulated
 * timer (about 1 us in the test VM, where 256 empty polls take some
 * 20-30 us), and Soft-RoCE's kernel work that completes the message may
 * need the CPU the spinner holds.
 */
#define SPIN_IDLE_POLLS 256

/*
 * Re-arms notification and returns up to max completions (bookkeeping
 * done). While spinning, the CQ only: no syscall per look, as perftest's
 * busy-poll; the event the CQ was armed for stays in the channel, so the
 * first poll() after the spin wakes at once and re-arms.
 */
int conn_poll(struct conn *c, struct ibv_wc *wc, int max);
int conn_post_recv(struct conn *c, unsigned int slot);
uint8_t *conn_recv_slot(struct conn *c, unsigned int slot);
/* Copies len bytes into a free send slot and posts a signalled SEND; -EBUSY when all are in flight. */
int conn_send(struct conn *c, const void *msg, size_t len);
/* READ, WRITE or SEND of buf[b][off, off+len) (remote address and key unused by SEND). */
int conn_post(struct conn *c, enum ibv_wr_opcode op, unsigned int b, size_t off, size_t len,
	      uint64_t raddr, uint32_t rkey, uint32_t tag);
/*
 * n (<= CONN_MAX_CHAIN) WRITEs or SENDs of len bytes in one ibv_post_send():
 * number first+i comes from buf[b] at ((first + i) % ring) * stride, carries
 * index (first + i) & 0xffff, and is signalled when (first + i + 1) % sig == 0
 * and always when it is the last of the chain (one completion then stands
 * for every earlier one: an RC send queue completes in order).
 */
#define CONN_MAX_CHAIN 64
int conn_post_chain(struct conn *c, enum ibv_wr_opcode op, unsigned int b, uint64_t first, unsigned int n,
		    unsigned int ring, size_t stride, size_t len, uint64_t raddr, uint32_t rkey, unsigned int sig);
static inline unsigned int conn_wr_kind(uint64_t wr_id) { return (unsigned int)(wr_id >> 16) & 0xff; }
static inline unsigned int conn_wr_index(uint64_t wr_id) { return (unsigned int)wr_id & 0xffff; }

/* ---- stats.c: rates over a window, latency percentiles ---- */

struct stats {
	uint64_t start_ns, last_ns;	/* data phase */
	uint64_t msgs, bytes;
	uint64_t win_ns, win_msgs, win_bytes;	/* start of the current 1 s window */
	double gbps, msgs_per_s;	/* last full window */
	uint64_t *lat;			/* ring of the newest samples */
	size_t lat_cap, lat_pos;
	uint64_t lat_n, lat_min, lat_max;
};

int stats_init(struct stats *s, size_t lat_cap);
void stats_free(struct stats *s);
void stats_start(struct stats *s, uint64_t now);
void stats_add(struct stats *s, uint64_t now, uint64_t msgs, uint64_t bytes);
void stats_lat(struct stats *s, uint64_t ns);
void stats_tick(struct stats *s, uint64_t now);
void stats_latency(const struct stats *s, struct probe_latency *out);
double stats_avg_gbps(const struct stats *s);

/* ---- probe.c / server.c ---- */

/* Where the client is inside its data phase. */
enum probe_step {
	STEP_NONE,
	STEP_RPING_WAIT_GO,	/* source advertised, waiting for the server's go-ahead */
	STEP_RPING_WAIT_ECHO,	/* sink advertised, waiting for "written" */
	STEP_BW_STREAM,		/* writes in flight */
	STEP_BW_WAIT_FIN_ACK,	/* FIN sent */
	STEP_LAT_WAIT_PONG,	/* PING sent */
};

struct server;

/* The control block: everything one probe (client or server) holds. */
struct probe {
	struct probe_opts o;		/* options, strings copied below */
	char peer_buf[256], from_buf[64], listen_buf[256];	/* the copies o points into */
	enum probe_state state;		/* where the state machine is */
	uint64_t t0_ns;			/* probe_start() */
	uint64_t deadline_ns;		/* the current step's deadline, 0: none */
	const char *waiting_for;	/* what the deadline waits for, for the message */
	bool stop_requested;		/* probe_stop(): finish the current message, then leave */

	struct rdma_event_channel *ech;	/* CM events; its fd is non-blocking */
	struct rdma_cm_id *id;		/* client's id (server: in struct server) */
	struct conn conn;		/* client's verbs resources */
	struct sockaddr_storage src, dst;	/* --from (when have_src) and the peer, with the port */
	bool have_src;

	/* client data phase */
	enum probe_step step;		/* the sub-state inside PROBE_RUNNING */
	uint64_t iter;			/* current ping / message number */
	uint64_t posted;		/* bw: writes posted */
	uint64_t bw_done;		/* bw: writes known complete (signalled ones cover the rest) */
	uint64_t msg_t0;		/* when the current ping/message started */
	struct wire_accept acc;		/* bw: the server's sink */
	uint64_t progress_ns;		/* bw WRITEs: when the last PROGRESS went out */
	bool cq_more;			/* the completion budget ran out: handle again at once */
	uint64_t cq_ns;			/* when the latest completions were taken: the busy-poll's clock */

	struct stats stats;		/* counts, rates, latency samples (server: all connections) */
	uint64_t payload_errors;	/* echoes that differed from what was sent */
	struct server *srv;		/* --listen: the listener and its connections, else NULL */

	/* timeline ring: ev[i % PROBE_MAX_EVENTS] for the newest events */
	struct probe_event ev[PROBE_MAX_EVENTS];
	uint64_t ev_total;		/* events ever added */
	struct probe_event ev_lin[PROBE_MAX_EVENTS];	/* linear copy for probe_status() */

	struct probe_status st;		/* what probe_status() returns, refreshed there */
	const struct probe_driver *drv;	/* a driven probe (probe/driven.h): it moves the state, not the CM */
	void *drv_priv;			/* the driver's own state, freed with drv->free() at release */
	uint64_t pct_ns;		/* when st.lat was last computed (sorting is not free) */
};

/* Adds a timeline event; returns it so callers can tweak. */
struct probe_event *probe_event_add(struct probe *p, uint64_t now, const char *name,
				    int status, bool error, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void probe_fail(struct probe *p, uint64_t now, const char *name, int status, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void probe_addr_str(const struct sockaddr *sa, char *buf, size_t len);
void probe_addr_only(const struct sockaddr *sa, char *buf, size_t len);
int probe_parse_addr(const char *peer, uint16_t port, struct sockaddr_storage *out,
		     char *err, size_t errlen);
int probe_channel_open(struct probe *p, char *err, size_t errlen);
void probe_set_deadline(struct probe *p, uint64_t now, uint32_t ms, const char *what);

/* server.c */
int server_start(struct probe *p, uint64_t now);
int server_fds(struct probe *p, struct pollfd *fds, int max);
uint64_t server_deadline(const struct probe *p);
void server_handle(struct probe *p, uint64_t now);
void server_stop(struct probe *p, uint64_t now);
void server_free(struct probe *p);
void server_status(const struct probe *p, struct probe_status *st);

#endif
