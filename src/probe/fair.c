// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe server's fairness rules: useful work, eviction, the per-source cap, checks of clients' claimed counts. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "probe/fair.h"
#include "util.h"

#define MS 1000000ull

uint64_t fair_min_bytes(uint64_t rate_mbps)
{
	/* Mb/s -> bytes per window, over the share */
	uint64_t b = rate_mbps > UINT64_MAX / (125000ull * FAIR_WINDOW_MS / 1000) ? UINT64_MAX :
		     rate_mbps * (125000ull * FAIR_WINDOW_MS / 1000) / FAIR_RATE_SHARE;

	return b > FAIR_MIN_BYTES ? b : FAIR_MIN_BYTES;
}

uint64_t fair_port_rate_mbps(uint32_t active_speed, uint8_t active_width)
{
	/* per lane in Mb/s (signalling), by the IBV_SPEED_* bit */
	static const struct { uint32_t speed; uint64_t lane_mbps; } speeds[] = {
		{ 1, 2500 }, { 2, 5000 }, { 4, 10000 }, { 8, 10000 }, { 16, 14062 }, { 32, 25781 },
		{ 64, 53125 }, { 128, 106250 }, { 256, 212500 },
	};
	static const struct { uint8_t width; unsigned int lanes; } widths[] = {
		{ 1, 1 }, { 2, 4 }, { 4, 8 }, { 8, 12 }, { 16, 2 },
	};
	uint64_t lane = 0;
	unsigned int lanes = 0;

	for (size_t i = 0; i < ARRAY_SIZE(speeds); i++)
		if (speeds[i].speed == active_speed)
			lane = speeds[i].lane_mbps;
	for (size_t i = 0; i < ARRAY_SIZE(widths); i++)
		if (widths[i].width == active_width)
			lanes = widths[i].lanes;
	return lane * lanes;
}

void fair_meter_init(struct fair_meter *m, uint64_t now_ns, uint64_t min_bytes)
{
	memset(m, 0, sizeof(*m));
	m->t_start = m->t_useful = m->win_start = now_ns;
	m->min_bytes = min_bytes ? min_bytes : FAIR_MIN_BYTES;
}

void fair_meter_add(struct fair_meter *m, uint64_t now_ns, uint64_t msgs, uint64_t bytes)
{
	uint64_t hdr = msgs > UINT64_MAX / FAIR_MSG_OVERHEAD ? UINT64_MAX : msgs * FAIR_MSG_OVERHEAD;

	if (now_ns >= m->win_start && now_ns - m->win_start >= FAIR_WINDOW_MS * MS) {
		/* the window before is kept only when it was the one just before */
		m->last_bytes = now_ns - m->win_start < 2 * FAIR_WINDOW_MS * MS ? m->win_bytes : 0;
		m->win_start = now_ns;
		m->win_bytes = 0;
	}
	m->win_bytes = fair_sat_add(m->win_bytes, fair_sat_add(bytes, hdr));
	if (m->win_bytes >= m->min_bytes)
		m->t_useful = now_ns;
}

uint64_t fair_recent_bytes(const struct fair_meter *m, uint64_t now_ns)
{
	uint64_t age = now_ns >= m->win_start ? now_ns - m->win_start : 0, w = FAIR_WINDOW_MS * MS;

	return fair_sat_add(age < 2 * w ? m->win_bytes : 0, age < w ? m->last_bytes : 0);
}

void fair_src_key(const struct sockaddr *sa, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	if (sa && sa->sa_family == AF_INET) {
		struct sockaddr_in s4;

		memcpy(&s4, sa, sizeof(s4));
		s4.sin_addr.s_addr &= htonl(0xffffff00u);
		inet_ntop(AF_INET, &s4.sin_addr, a, sizeof(a));
		snprintf(buf, len, "%s/24", a);
	} else if (sa && sa->sa_family == AF_INET6) {
		struct sockaddr_in6 s6;

		memcpy(&s6, sa, sizeof(s6));
		if (IN6_IS_ADDR_V4MAPPED(&s6.sin6_addr)) {
			s6.sin6_addr.s6_addr[15] = 0;
			inet_ntop(AF_INET, &s6.sin6_addr.s6_addr[12], a, sizeof(a));
			snprintf(buf, len, "%s/24", a);
			return;
		}
		memset(&s6.sin6_addr.s6_addr[8], 0, 8);
		inet_ntop(AF_INET6, &s6.sin6_addr, a, sizeof(a));
		snprintf(buf, len, "%s/64", a);
	} else {
		snprintf(buf, len, "?");
	}
}

bool fair_idle(const struct fair_meter *m, uint64_t now_ns)
{
	/* a clock that went backwards (or a meter from the future) is not idle */
	return now_ns >= m->t_useful && now_ns - m->t_useful >= FAIR_WINDOW_MS * MS;
}

static bool same_src(const struct fair_cand *c, const char *src)
{
	return !src || (c->src && !strcmp(c->src, src));
}

int fair_pick_victim(const struct fair_cand *c, unsigned int n, uint64_t now_ns, const char *src)
{
	const struct fair_meter *best = NULL;
	unsigned int i;
	int victim = -1;

	for (i = 0; i < n; i++) {
		const struct fair_meter *m = c[i].m;

		if (!c[i].active || !m || !same_src(&c[i], src) || !fair_idle(m, now_ns))
			continue;
		if (!best || fair_recent_bytes(m, now_ns) < fair_recent_bytes(best, now_ns) ||
		    (fair_recent_bytes(m, now_ns) == fair_recent_bytes(best, now_ns) &&
		     (m->t_useful < best->t_useful ||
		      (m->t_useful == best->t_useful && m->t_start < best->t_start)))) {
			best = m;
			victim = (int)i;
		}
	}
	return victim;
}

unsigned int fair_count(const struct fair_cand *c, unsigned int n, const char *src)
{
	unsigned int i, k = 0;

	for (i = 0; i < n; i++)
		if (c[i].active && same_src(&c[i], src))
			k++;
	return k;
}

unsigned int fair_default_per_source(unsigned int max_conns)
{
	return max_conns / 2 ? max_conns / 2 : 1;
}

enum fair_verdict fair_admit(const struct fair_cand *c, unsigned int n, uint64_t now_ns, const char *src,
			     unsigned int max_conns, unsigned int per_source, int *victim)
{
	*victim = -1;
	if (!per_source)
		per_source = fair_default_per_source(max_conns);
	if (src && fair_count(c, n, src) >= per_source) {
		*victim = fair_pick_victim(c, n, now_ns, src);
		return *victim >= 0 ? FAIR_EVICT_SOURCE : FAIR_REJECT_SOURCE;
	}
	if (fair_count(c, n, NULL) >= max_conns) {
		*victim = fair_pick_victim(c, n, now_ns, NULL);
		return *victim >= 0 ? FAIR_EVICT_FULL : FAIR_REJECT_BUSY;
	}
	return FAIR_ADMIT;
}

enum fair_claim fair_claim_check(uint64_t prev, uint64_t claim, uint64_t announced, uint32_t size,
				 uint64_t elapsed_ns)
{
	uint64_t room;

	if (claim < prev)
		return FAIR_CLAIM_BACKWARDS;
	if (announced && claim > announced)
		return FAIR_CLAIM_PAST_COUNT;
	if (size && claim > UINT64_MAX / size)
		return FAIR_CLAIM_OVERFLOW;
	room = elapsed_ns > UINT64_MAX / FAIR_MAX_BYTES_PER_NS ? UINT64_MAX : elapsed_ns * FAIR_MAX_BYTES_PER_NS;
	if (claim * size > room)
		return FAIR_CLAIM_TOO_FAST;
	return FAIR_CLAIM_OK;
}

static const char *const claim_names[] = {
	[FAIR_CLAIM_OK] = "ok",
	[FAIR_CLAIM_BACKWARDS] = "fewer than already claimed",
	[FAIR_CLAIM_PAST_COUNT] = "more than the hello announced",
	[FAIR_CLAIM_OVERFLOW] = "its byte total does not fit in 64 bits",
	[FAIR_CLAIM_TOO_FAST] = "more bytes than any link carries in the time",
};

const char *fair_claim_str(enum fair_claim c)
{
	if ((unsigned int)c >= ARRAY_SIZE(claim_names) || !claim_names[c])
		return "unknown";
	return claim_names[c];
}
