/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probe server's fairness rules as pure functions: useful work, who is evicted, the per-source cap, clients' claims. */
#ifndef FABTOP_PROBE_FAIR_H
#define FABTOP_PROBE_FAIR_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A connection earns its slot by useful work at a minimum rate: at least
 * FAIR_MIN_MSGS messages (pings, echoes, SENDs, WRITEs) or FAIR_MIN_BYTES
 * bytes within one FAIR_WINDOW_MS window. Every real client moves far more
 * (rping and lat go back to back; a bw stream moves megabytes) even under
 * emulation; a client that trickles one message per idle period, or holds
 * a slot without a word, does not. A newcomer gets one window to start.
 */
#define FAIR_WINDOW_MS	1000u
#define FAIR_MIN_MSGS	2u
#define FAIR_MIN_BYTES	32768u

/* Useful work of one connection, in fixed windows. */
struct fair_meter {
	uint64_t t_start;		/* CONNECT_REQUEST */
	uint64_t t_useful;		/* when it last met the minimum rate; t_start until it has */
	uint64_t win_start;		/* the current window */
	uint64_t win_msgs, win_bytes;	/* work inside it */
};

void fair_meter_init(struct fair_meter *m, uint64_t now_ns);
void fair_meter_add(struct fair_meter *m, uint64_t now_ns, uint64_t msgs, uint64_t bytes);
/* No useful work at the minimum rate for a whole window (since its start or its last useful window). */
bool fair_idle(const struct fair_meter *m, uint64_t now_ns);

/* What the admission rule sees of one slot. */
struct fair_cand {
	bool active;			/* accepting or running; closing and free slots are neither counted nor evicted */
	const struct fair_meter *m;
	const char *src;		/* source address without the port */
};

/*
 * The eviction rule: among active candidates (only those from src when src
 * is not NULL) that are fair_idle(), the one idle longest (oldest t_useful,
 * then oldest t_start). Returns its index, or -1 when every one is working.
 */
int fair_pick_victim(const struct fair_cand *c, unsigned int n, uint64_t now_ns, const char *src);

unsigned int fair_count(const struct fair_cand *c, unsigned int n, const char *src);

/* --max-conns-per-source when not given: half the slots, at least one. */
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
