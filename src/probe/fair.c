// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe server's fairness rules: useful work, eviction, the per-source cap, checks of clients' claimed counts. */
#include "config.h"

#include <string.h>

#include "probe/fair.h"
#include "util.h"

#define MS 1000000ull

void fair_meter_init(struct fair_meter *m, uint64_t now_ns)
{
	memset(m, 0, sizeof(*m));
	m->t_start = m->t_useful = m->win_start = now_ns;
}

void fair_meter_add(struct fair_meter *m, uint64_t now_ns, uint64_t msgs, uint64_t bytes)
{
	if (now_ns - m->win_start >= FAIR_WINDOW_MS * MS) {
		m->win_start = now_ns;
		m->win_msgs = m->win_bytes = 0;
	}
	m->win_msgs = fair_sat_add(m->win_msgs, msgs);
	m->win_bytes = fair_sat_add(m->win_bytes, bytes);
	if (m->win_msgs >= FAIR_MIN_MSGS || m->win_bytes >= FAIR_MIN_BYTES)
		m->t_useful = now_ns;
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
		if (!best || m->t_useful < best->t_useful ||
		    (m->t_useful == best->t_useful && m->t_start < best->t_start)) {
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
