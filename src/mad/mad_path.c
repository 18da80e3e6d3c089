// SPDX-License-Identifier: GPL-2.0-or-later
/* The path to a port GUID for the Probe pane: sweep for its LID, walk by the forwarding tables, sample every hop each interval. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_fabric.h"
#include "mad/mad_path.h"
#include "mad/mad_trace.h"
#include "mad/umad.h"
#include "util.h"

enum path_stage { PS_NEW, PS_QUERY, PS_SWEEP, PS_WALK, PS_LIVE, PS_FAILED };

struct mad_path {
	const struct fab_ctx *ctx;
	uint64_t guid;
	enum path_stage stage;
	struct ib_fabric f;
	struct mad_fabric *v;
	struct mad_trace *tr;
	struct ib_trace t;
	uint64_t next_sample_ns;
	unsigned int samples;		/* PMA samples asked */
	bool sampling;			/* one is in flight */
	char status[768];
};

struct mad_path *mad_path_new(const struct fab_ctx *ctx, uint64_t guid)
{
	struct mad_path *p = calloc(1, sizeof(*p));

	if (p) {
		p->ctx = ctx;
		p->guid = guid;
		snprintf(p->status, sizeof(p->status), "opening the local InfiniBand ports");
	}
	return p;
}

void mad_path_free(struct mad_path *p)
{
	if (!p)
		return;
	mad_trace_free(p->tr);
	/* the trace's callbacks run (cancelled) while p->t is still whole */
	mad_fabric_close(p->v);
	ib_fabric_free(&p->f);
	free(p);
}

const struct ib_trace *mad_path_trace(const struct mad_path *p)
{
	return p->stage == PS_LIVE ? &p->t : NULL;
}

const char *mad_path_status(const struct mad_path *p)
{
	return p->status;
}

static void fail(struct mad_path *p, const char *why)
{
	snprintf(p->status, sizeof(p->status), "%s", why);
	p->stage = PS_FAILED;
}

static void path_open(struct mad_path *p, uint64_t now)
{
	struct fab_ctx c = *p->ctx;
	int rc;

	/* a --sysfs tree that describes the very devices libibumad sees (the simulator's) is the live system */
	if (!c.live_sysfs && umad_tree_is_live(&c))
		c.live_sysfs = true;
	rc = mad_fabric_open(&c, &p->f, &p->v);
	if (rc || !p->v) {
		fail(p, rc ? strerror(-rc) : p->f.error[0] ? p->f.error : "no InfiniBand port to ask");
		return;
	}
	mad_fabric_query_ports(p->v, now);
	p->stage = PS_QUERY;
	snprintf(p->status, sizeof(p->status), "asking the local ports");
}

/* The swept node the GUID names (a port GUID: the port the sweep entered by), and its LID. */
static uint16_t guid_lid(const struct ib_fabric *f, uint64_t guid)
{
	for (size_t i = 0; i < f->nnodes; i++) {
		const struct ib_fnode *n = &f->nodes[i];

		if (n->id.node_guid == guid || n->id.port_guid == guid)
			return n->lid;
	}
	return 0;
}

static void path_walk(struct mad_path *p, uint64_t now)
{
	uint16_t lid = guid_lid(&p->f, p->guid);
	struct mad_session *s = mad_fabric_session(p->v, p->f.sweep_from);
	char why[160];

	mad_fabric_sweep_end(p->v, now);
	if (!lid || !s || p->f.sweep_from >= p->f.nports) {
		snprintf(why, sizeof(why), "no node of the %zu swept has GUID %016" PRIx64 " with a LID", p->f.nnodes,
			 p->guid);
		fail(p, why);
		return;
	}
	snprintf(p->t.ca, sizeof(p->t.ca), "%s", p->f.ports[p->f.sweep_from].ca);
	p->tr = mad_trace_start(s, &p->t, p->f.ports[p->f.sweep_from].port, lid);
	if (!p->tr) {
		fail(p, "out of memory");
		return;
	}
	p->stage = PS_WALK;
	snprintf(p->status, sizeof(p->status), "walking to LID %u", lid);
}

int mad_path_fds(const struct mad_path *p, struct pollfd *fds, int max, int *timeout_ms, uint64_t now_ns)
{
	int fdv[16], n, t;

	if (p->stage == PS_NEW) {
		*timeout_ms = 0;
		return 0;
	}
	if (!p->v || p->stage == PS_FAILED)
		return 0;
	n = mad_fabric_fds(p->v, fdv, max < 16 ? max : 16);
	for (int i = 0; i < n; i++)
		fds[i] = (struct pollfd){ .fd = fdv[i], .events = POLLIN };
	t = mad_fabric_timeout_ms(p->v, now_ns);
	if (p->stage == PS_LIVE && !p->sampling)
		util_lower_timeout(&t, p->next_sample_ns, now_ns);
	if (t >= 0 && (*timeout_ms < 0 || t < *timeout_ms))
		*timeout_ms = t;
	return n;
}

/* Live: a sample of every hop each interval, the next one asked when the last is in. */
static bool path_sample(struct mad_path *p, double interval_s, uint64_t now)
{
	bool changed = false;

	if (p->sampling && mad_trace_sampled(p->tr)) {
		p->sampling = false;
		changed = p->samples >= 2;
	}
	if (!p->sampling && now >= p->next_sample_ns && p->t.nhops) {
		p->t.interval_s = interval_s;
		mad_trace_sample(p->tr, now);
		p->samples++;
		p->sampling = true;
		p->next_sample_ns = now + (uint64_t)(interval_s > 0 ? interval_s * 1e9 : 1e9);
	}
	return changed;
}

bool mad_path_step(struct mad_path *p, double interval_s, uint64_t now)
{
	enum path_stage was = p->stage;

	switch (p->stage) {
	case PS_NEW:
		path_open(p, now);
		return true;
	case PS_FAILED:
		return false;
	default:
		break;
	}
	mad_fabric_step(p->v, now);
	if (p->stage == PS_QUERY && mad_fabric_idle(p->v)) {
		int rc = mad_fabric_sweep_begin(p->v, NULL, now);

		if (rc) {
			fail(p, rc == -ENODEV ? "no local InfiniBand port has its link up" : strerror(-rc));
			return true;
		}
		p->stage = PS_SWEEP;
		snprintf(p->status, sizeof(p->status), "sweeping the fabric to find the peer's LID");
	}
	if (p->stage == PS_SWEEP && !mad_fabric_sweeping(p->v))
		path_walk(p, now);
	if (p->stage == PS_WALK && mad_trace_walked(p->tr)) {
		p->stage = PS_LIVE;
		p->status[0] = '\0';
		p->next_sample_ns = now;
	}
	if (p->stage == PS_LIVE)
		return path_sample(p, interval_s, now) || was != PS_LIVE;
	return was != p->stage;
}
