/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RDMA probe (librdmacm): an rping-compatible client/server driven from a poll() loop. */
#ifndef FABTOP_PROBE_PROBE_H
#define FABTOP_PROBE_PROBE_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/*
 * Use from any poll() loop (the CLI's or the TUI's):
 *
 *	struct probe_opts o;
 *	probe_opts_init(&o);  o.peer = "10.20.0.1";  o.mode = PROBE_MODE_LAT;
 *	struct probe *p = probe_start(&o);          NULL only when out of memory
 *	while (probe_active(p)) {
 *		n = probe_fds(p, fds, max);  ...add the terminal's fd...
 *		poll(fds, n + 1, probe_timeout_ms(p, util_now_ns()));
 *		probe_handle(p, util_now_ns());
 *		st = probe_status(p);               draw st->events, st->gbps, st->lat
 *	}
 *	probe_free(p);
 *
 * Nothing here blocks: every file descriptor is non-blocking and every step
 * (address, route, connect, data, disconnect) has a deadline. Errors never
 * exit: they end the probe in PROBE_FAILED with a timeline event saying why.
 */

#define PROBE_DEFAULT_PORT	7174	/* rping's */
#define PROBE_MAX_EVENTS	64	/* timeline entries kept (the newest) */
#define PROBE_EVENT_NAME_MAX	24
#define PROBE_EVENT_TEXT_MAX	240
#define PROBE_ADDR_MAX		64	/* "[v6addr]:port" */

enum probe_mode {
	PROBE_MODE_RPING,	/* rping's wire protocol: READ source, WRITE back, compare */
	PROBE_MODE_BW,		/* stream RDMA WRITEs, depth outstanding */
	PROBE_MODE_LAT,		/* SEND ping-pong, round-trip percentiles */
};

enum probe_state {
	PROBE_IDLE,
	PROBE_RESOLVING_ADDR,	/* rdma_resolve_addr() issued */
	PROBE_RESOLVING_ROUTE,	/* rdma_resolve_route() issued */
	PROBE_CONNECTING,	/* rdma_connect() issued, waiting for ESTABLISHED */
	PROBE_RUNNING,		/* connected, data moving */
	PROBE_DISCONNECTING,	/* rdma_disconnect() issued */
	PROBE_LISTENING,	/* server: accepting connections */
	PROBE_DONE,		/* finished, all good */
	PROBE_FAILED,		/* finished with an error (see status.error) */
};

struct probe_opts {
	const char *peer;	/* client: address or host name to connect to */
	const char *from;	/* source address or interface name; NULL: the kernel's choice */
	bool listen;		/* server instead of client */
	const char *listen_addr;/* server: bind address; NULL: any */
	uint16_t port;		/* PROBE_DEFAULT_PORT */
	enum probe_mode mode;
	uint64_t count;		/* pings / messages / writes; 0: until probe_stop() */
	uint32_t size;		/* bytes per message; 0: the mode's default */
	uint32_t depth;		/* bw: writes outstanding; 0: default */
	bool bw_send;		/* bw: stream SENDs (counted by the server) instead of RDMA WRITEs */
	uint32_t timeout_ms;	/* each CM step: resolve addr, resolve route, connect */
	uint32_t idle_ms;	/* data phase: no completion for this long fails / drops a client */
	uint32_t max_conns;	/* server: connections at once; more are rejected */
	uint32_t max_per_source;/* server: connections at once from one /24 or /64; 0: max_conns / 2, at least 1 */
	uint32_t serve_conns;	/* server: end after this many connections ended; 0: until stopped */
	uint32_t lat_samples;	/* latency samples kept for percentiles (the newest) */
	uint32_t spin_us;	/* busy-poll the CQ(s) this long for the next completion
				 * (as perftest does) before sleeping in poll(); 0: events only.
				 * probe_handle() then returns within ~50 ms at most. */
};

/* Time-stamped entry of the CM event timeline. */
struct probe_event {
	uint64_t t_ns;				/* since probe_start() */
	char name[PROBE_EVENT_NAME_MAX];	/* "ADDR_RESOLVED", "REJECTED", "TIMEOUT", ... */
	int status;				/* the event's status: reject reason, -errno, or 0 */
	bool error;				/* this event ends the connection badly */
	bool cm_event;				/* an rdma_cm event (or the simulation's), not a failed call */
	char text[PROBE_EVENT_TEXT_MAX];	/* decoded, one line */
};

struct probe_latency {
	uint64_t n;		/* samples seen */
	uint64_t min_ns, p50_ns, p99_ns, max_ns;	/* round trip; 0 when n == 0 */
};

struct probe_status {
	enum probe_state state;
	bool simulated;			/* a simulated exchange (probe/driven.h: the demo's), not the RDMA CM */
	enum probe_mode mode;
	bool listen;
	char local[PROBE_ADDR_MAX];	/* bound address once known, else "" */
	char remote[PROBE_ADDR_MAX];	/* peer address once known, else "" */
	char device[64];		/* RDMA device carrying the connection, else "" */
	uint8_t port_num;		/* its port, 0 unknown */
	int sgid_index;			/* client: the source GID index in use once connected
					 * (doc/roce.md), -1 unknown or no GRH */
	char sgid_type[16];		/* its type, "RoCE v2", ..., or "" */
	uint32_t size;			/* message size in use */
	uint32_t depth;			/* bw: outstanding writes in use */
	bool bw_send;			/* bw: SENDs instead of WRITEs */

	/* The timeline: events[0..n_events) are the newest n_events of events_total. */
	const struct probe_event *events;
	unsigned int n_events;
	uint64_t events_total;

	char error[PROBE_EVENT_NAME_MAX + PROBE_EVENT_TEXT_MAX];	/* PROBE_FAILED: "EVENT: why", one line */

	/* Data phase (client; server: summed over its connections). */
	uint64_t msgs;			/* pings / messages / writes completed */
	uint64_t bytes;			/* payload bytes moved */
	uint64_t payload_errors;	/* echoed data that did not match */
	uint64_t data_ns;		/* time spent in the data phase */
	double gbps;			/* over the last full second; 0 before */
	double msgs_per_s;		/* over the last full second */
	double avg_gbps;		/* over the whole data phase */
	struct probe_latency lat;	/* rping: per ping; lat: per round trip */

	/* Server only. */
	unsigned int conns_active;
	uint64_t conns_accepted, conns_rejected, conns_dropped, conns_done;
};

void probe_opts_init(struct probe_opts *o);

/* Starts resolving (client) or listening (server). The options are copied.
 * Errors show as PROBE_FAILED; NULL only when memory runs out. */
struct probe *probe_start(const struct probe_opts *o);

/* Fills up to max pollfds (POLLIN) the probe waits on; returns how many. */
int probe_fds(struct probe *p, struct pollfd *fds, int max);

/* Milliseconds until the probe's next deadline (for poll()); -1: none. */
int probe_timeout_ms(const struct probe *p, uint64_t now_ns);

/* Advances the state machine: reads what is ready, fires deadlines.
 * Returns 1 while the probe is active, 0 once DONE or FAILED. */
int probe_handle(struct probe *p, uint64_t now_ns);

bool probe_active(const struct probe *p);
const struct probe_status *probe_status(const struct probe *p);

/* Asks for an orderly end (disconnect); the probe then reaches DONE. */
void probe_stop(struct probe *p);

/* Releases every resource, whatever the state. NULL is fine. */
void probe_free(struct probe *p);


/*
 * The line rping prints for this event ("cma event RDMA_CM_EVENT_REJECTED,
 * error 8"): false when rping prints none (a success, a timeout of
 * fabtop's own, a call that failed rather than an event).
 */
bool probe_event_rping_line(const struct probe_event *e, char *buf, size_t len);

const char *probe_state_name(enum probe_state s);
const char *probe_mode_name(enum probe_mode m);
/* What a client does when no count is given: rping 10 pings, bw 1000 writes, lat 1000 round trips. */
uint64_t probe_mode_default_count(enum probe_mode m);
/* "rping", "bw", "lat" -> mode; -1 when unknown. */
int probe_mode_parse(const char *s, enum probe_mode *out);

#endif
