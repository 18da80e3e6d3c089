/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probe server's fairness rules as pure functions: useful work, who is evicted, the per-source cap, clients' claims. */
#ifndef FABTOP_PROBE_FAIR_H
#define FABTOP_PROBE_FAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/*
 * A connection earns its slot by useful work, counted in bytes on the wire
 * against the port's rate: at least fair_min_bytes(rate) within one
 * FAIR_WINDOW_MS window, which is 1/FAIR_RATE_SHARE of what the port
 * carries in that time and never under FAIR_MIN_BYTES (10 Gb/s: 12.5 kB,
 * 100 Gb/s: 125 kB). Each message counts its payload and FAIR_MSG_OVERHEAD
 * bytes of headers, what it costs the port. A message count alone earns
 * nothing: two 64-byte pings a second are about 500 bytes. Every real
 * client moves far more (rping and lat go back to back; a bw stream moves
 * megabytes) even under emulation. A newcomer gets one window to start.
 */
#define FAIR_WINDOW_MS		1000u
#define FAIR_MIN_BYTES		4096u
#define FAIR_RATE_SHARE		100000u
#define FAIR_MSG_OVERHEAD	64u

/* Useful work of one connection, in fixed windows. */
struct fair_meter {
	uint64_t t_start;		/* CONNECT_REQUEST */
	uint64_t t_useful;		/* when it last met the minimum; t_start until it has */
	uint64_t min_bytes;		/* bytes a window must carry to count: fair_min_bytes() of its port */
	uint64_t win_start;		/* the current window */
	uint64_t win_bytes;		/* wire bytes inside it */
	uint64_t last_bytes;		/* ... inside the window before it, when that one was the previous */
};

/* Bytes a window must carry to count as useful on a port of rate_mbps (0: unknown). */
uint64_t fair_min_bytes(uint64_t rate_mbps);
/* A port's rate in Mb/s from ibv_port_attr's active_speed and active_width (IBA 14.2.5.6); 0 when unknown. */
uint64_t fair_port_rate_mbps(uint32_t active_speed, uint8_t active_width);

void fair_meter_init(struct fair_meter *m, uint64_t now_ns, uint64_t min_bytes);
/* msgs messages carrying bytes of payload: wire bytes are added. */
void fair_meter_add(struct fair_meter *m, uint64_t now_ns, uint64_t msgs, uint64_t bytes);
/* No window at the minimum for a whole window (since its start or its last useful window). */
bool fair_idle(const struct fair_meter *m, uint64_t now_ns);
/* Wire bytes over about the last two windows: how useful it has been lately (the eviction order). */
uint64_t fair_recent_bytes(const struct fair_meter *m, uint64_t now_ns);

/*
 * The per-source cap's key: the peer's /24 (IPv4, also IPv4-mapped IPv6)
 * or /64 (IPv6), "10.9.0.0/24", "2001:db8:1:2::/64": one host with many
 * addresses of one subnet is one source. "?" for another family.
 */
void fair_src_key(const struct sockaddr *sa, char *buf, size_t len);

/* What the admission rule sees of one slot. */
struct fair_cand {
	bool active;			/* accepting or running; closing and free slots are neither counted nor evicted */
	const struct fair_meter *m;
	const char *src;		/* its fair_src_key() */
};

/*
 * The eviction rule: among active candidates (only those from src when src
 * is not NULL) that are fair_idle(), the least useful: fewest
 * fair_recent_bytes(), then idle longest (oldest t_useful), then oldest
 * t_start. Returns its index, or -1 when every one is working.
 */
int fair_pick_victim(const struct fair_cand *c, unsigned int n, uint64_t now_ns, const char *src);

unsigned int fair_count(const struct fair_cand *c, unsigned int n, const char *src);

/* --max-conns-per-source (per /24 or /64) when not given: half the slots, at least one. */
unsigned int fair_default_per_source(unsigned int max_conns);

enum fair_verdict {
	FAIR_ADMIT,		/* a slot is free */
	FAIR_EVICT_SOURCE,	/* the source is at its cap: *victim, one of its own idle connections, yields */
	FAIR_EVICT_FULL,	/* the server is full: *victim, the longest idle connection, yields */
	FAIR_REJECT_SOURCE,	/* the source is at its cap and all of its connections work */
	FAIR_REJECT_BUSY,	/* the server is full and every connection works */
};

/*
 * A newcomer from src: the per-source cap first (so one host never takes
 * more than its share, even of idle slots), then the connection limit.
 */
enum fair_verdict fair_admit(const struct fair_cand *c, unsigned int n, uint64_t now_ns, const char *src,
			     unsigned int max_conns, unsigned int per_source, int *victim);

/*
 * A bw client's claimed count of RDMA WRITEs (PROGRESS or FIN): WRITEs leave
 * no trace at the target, so the claim is checked against what the server
 * knows: the previous claim, the count announced in the hello (0: none), and
 * the time since the connection began: no link carries more than
 * FAIR_MAX_BYTES_PER_NS (3.2 Tb/s, above any RDMA link today), and the total
 * must fit in 64 bits.
 */
#define FAIR_MAX_BYTES_PER_NS 400u
enum fair_claim {
	FAIR_CLAIM_OK,
	FAIR_CLAIM_BACKWARDS,	/* fewer than already claimed */
	FAIR_CLAIM_PAST_COUNT,	/* more than the hello announced */
	FAIR_CLAIM_OVERFLOW,	/* claim x size does not fit in 64 bits */
	FAIR_CLAIM_TOO_FAST,	/* more bytes than any link could carry in the time */
};
enum fair_claim fair_claim_check(uint64_t prev, uint64_t claim, uint64_t announced, uint32_t size,
				 uint64_t elapsed_ns);
const char *fair_claim_str(enum fair_claim c);

/* a + b, or UINT64_MAX: server totals saturate instead of wrapping. */
static inline uint64_t fair_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

#endif
