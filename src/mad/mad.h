/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The asynchronous MAD engine: one session per local IB port, requests with deadlines, driven from a poll() loop. */
#ifndef FABTOP_MAD_MAD_H
#define FABTOP_MAD_MAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctx.h"
#include "mad/umad.h"

struct mad_session;

/*
 * Completion of one request. status: 0 and the reply (whole MAD, len bytes);
 * -ETIMEDOUT after the last retry; -EIO when the transport reported an error.
 * The reply buffer is only valid during the call. The callback may queue
 * new requests on the same session.
 */
typedef void (*mad_cb)(struct mad_session *s, void *arg, int status,
		       const uint8_t *mad, size_t len);

struct mad_stats {
	uint64_t sent;			/* MADs written, retries included */
	uint64_t received;		/* replies matched to a request */
	uint64_t timeouts;		/* requests that failed after all retries */
	uint64_t retries;
	uint64_t stray;			/* replies matching nothing (late, duplicate) */
	unsigned int peak;		/* the most requests in flight at once */
};

/* Tunables with sane defaults (mad_session_open sets them). */
struct mad_opts {
	unsigned int timeout_ms;	/* per attempt */
	unsigned int retries;		/* extra attempts after the first */
	unsigned int window;		/* requests in flight at once */
};

/*
 * Open a session on a local port: opens the umad device and registers the
 * SMI (LID and directed route), PMA and ibping vendor classes. 0 or -errno,
 * with the reason (device node, what to do) in why.
 */
int mad_session_open(struct mad_session **out, const struct fab_ctx *ctx,
		     const struct umad_local *port, char *why, size_t whysz);
void mad_session_close(struct mad_session *s);

/*
 * A transport other than libibumad, so the engine's timing (deadlines,
 * retries, window, late replies) and the query chains can be tested with a
 * scripted fabric and a fake clock. send() takes a whole MAD; recv() gives
 * the next reply (0), -EAGAIN when there is none, and sets *status as
 * umad_status() would (ETIMEDOUT: the transport's own timeout).
 */
struct mad_transport {
	int (*send)(void *priv, const uint8_t *mad, size_t len, uint16_t dlid, uint32_t qpn);
	int (*recv)(void *priv, uint8_t *mad, size_t *len, int *status);
	int fd;				/* pollable fd or -1 */
	void *priv;
};
int mad_session_open_transport(struct mad_session **out, const struct mad_transport *tp);
void mad_session_set_opts(struct mad_session *s, const struct mad_opts *o);
const struct mad_opts *mad_session_get_opts(const struct mad_session *s);

/*
 * The fd to poll for POLLIN, or -1 when the transport has no pollable fd
 * (the ibsim simulator's umad2sim hands out fake numbers): then call
 * mad_step() again after mad_next_timeout_ms(), which is short in that case.
 */
int mad_fd(const struct mad_session *s);
/*
 * The window to give a session driven from a shared poll loop: want, or,
 * for a session without a pollable fd, enough to cover the time between
 * two looks (MAD_NOFD_WINDOW): its answers cannot wake the loop, and a
 * window of 32 looked at every 2 ms sends at most 16,000 MADs a second.
 */
unsigned int mad_loop_window(const struct mad_session *s, unsigned int want);
/* Milliseconds until mad_step() has work (a deadline), -1 if idle. */
int mad_next_timeout_ms(const struct mad_session *s, uint64_t now_ns);
/*
 * Do everything that is due without blocking: read replies, run their
 * callbacks, retry or fail requests past their deadline, send queued ones.
 * Returns how many requests completed, or -errno on a transport failure.
 */
int mad_step(struct mad_session *s, uint64_t now_ns);
/* Nothing queued or in flight. */
bool mad_idle(const struct mad_session *s);
/* Drop everything queued or in flight; each callback gets -ECANCELED (so it can free its context). */
void mad_cancel_all(struct mad_session *s);
const struct mad_stats *mad_session_stats(const struct mad_session *s);
/* Count the peak in flight (stats.peak) from now on, from what is in flight now. */
void mad_session_peak_reset(struct mad_session *s);

/*
 * The one-shot synchronous form for the CLI: poll and step until idle or
 * until deadline_ns (CLOCK_MONOTONIC). 0 when idle, -ETIMEDOUT at the
 * deadline (requests left are cancelled), -errno on failure.
 */
int mad_run(struct mad_session *s, uint64_t deadline_ns);

/* Requests. Each returns 0 (queued) or -errno; cb is called exactly once when queued. */

/* A directed-route SMP Get; path[1..hops] are egress ports, hops 0 is the local node. */
int mad_get_dr(struct mad_session *s, const uint8_t *path, unsigned int hops,
	       uint16_t attr, uint32_t mod, mad_cb cb, void *arg);
/* A LID-routed SMP Get (SMInfo from the SM). */
int mad_get_smp_lid(struct mad_session *s, uint16_t lid, uint16_t attr, uint32_t mod,
		    mad_cb cb, void *arg);
/* A PMA Get to lid (ClassPortInfo, PortCounters, PortCountersExtended) for port_select. */
int mad_get_pma(struct mad_session *s, uint16_t lid, uint16_t attr, uint8_t port_select,
		mad_cb cb, void *arg);
/*
 * An SA Get (SubnAdmGet) to the SM at sm_lid: attr's record whose fields
 * comp_mask names match rec's (reclen bytes, the rest 0). One record back,
 * or a status (no record, too many: IBA 15.2.1.1).
 */
int mad_sa_get(struct mad_session *s, uint16_t sm_lid, uint16_t attr, uint64_t comp_mask,
	       const uint8_t *rec, size_t reclen, mad_cb cb, void *arg);
/* An ibping Get (vendor class 0x32, OUI 0x001405) to lid. */
int mad_ping(struct mad_session *s, uint16_t lid, mad_cb cb, void *arg);

/* Build the MADs (exposed for tests): fill buf (MAD_SIZE bytes). */
void mad_build_dr(uint8_t *buf, uint64_t tid, const uint8_t *path, unsigned int hops,
		  uint16_t attr, uint32_t mod);
void mad_build_gsi(uint8_t *buf, uint8_t mgmt_class, uint64_t tid, uint16_t attr, uint32_t mod);

/*
 * FABTOP_MAD_DUMP=DIR: every reply is also written to DIR/<class>-<attr>-<n>.bin
 * (how tests/data/mad/ was recorded on the ibsim fabric), each a new 0600
 * file: one already there, or a symlink planted at its name, is replaced.
 */

#endif
