// SPDX-License-Identifier: GPL-2.0-or-later
/* Keeping the whole subnet current without blocking: sweeps into a work copy, swapped in whole; PMA rounds in place. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive/mad_decode.h"
#include "mad/mad.h"
#include "mad/mad_fabric.h"
#include "mad/mad_fpma.h"
#include "mad/mad_port.h"
#include "mad/mad_subnet.h"
#include "mad/umad.h"
#include "util.h"

enum subnet_stage {
	SN_CLOSED,			/* no view: never tried, or no access (reason says why) */
	SN_QUERY,			/* the local ports are being asked (who can sweep) */
	SN_SWEEP,			/* a sweep into work is running; shown stays */
	SN_READY,			/* shown is current; PMA rounds run each interval */
};

struct mad_subnet {
	const struct fab_ctx *ctx;
	struct mad_fabric *v;		/* the sessions; sweeps land in work */
	struct ib_fabric work;
	struct ib_fabric shown;		/* what the panes read */
	struct fabric_lost_link *lost;
	size_t nlost;
	enum subnet_stage stage;
	char reason[768];
	char status[64];
	char note[256];			/* what the shown sweep left out */
	uint64_t last_try_ns, next_sweep_ns, next_pma_ns;
	uint64_t next_partial_ns;	/* the first sweep's next partial showing */
	uint64_t partial_ns;		/* SUBNET_PARTIAL_NS, or what a test set */
	uint64_t sweeps;
	bool rescan;
	bool fed;			/* a recording's subnet, given by mad_subnet_take(): nothing is ever sent */
	struct mad_fpma pma;		/* the rounds' counters, into shown (mad/mad_fpma.h) */
	bool round_running;		/* a round's answers are still coming */
	uint64_t round_start_ns, round_ns;	/* the round running / the last whole one's wall time */
	size_t round_ports;		/* ports the last round asked */
};

struct mad_subnet *mad_subnet_new(const struct fab_ctx *ctx)
{
	struct mad_subnet *sn = calloc(1, sizeof(*sn));

	if (sn) {
		sn->ctx = ctx;
		sn->partial_ns = SUBNET_PARTIAL_NS;
		mad_fpma_init(&sn->pma, &sn->shown);
	}
	return sn;
}

void mad_subnet_set_partial_ns(struct mad_subnet *sn, uint64_t ns)
{
	sn->partial_ns = ns;
}

static void lost_free(struct mad_subnet *sn)
{
	free(sn->lost);
	sn->lost = NULL;
	sn->nlost = 0;
}

void mad_subnet_free(struct mad_subnet *sn)
{
	if (!sn)
		return;
	/* The sessions' callbacks run (cancelled) while sn is still whole. */
	mad_fabric_close(sn->v);
	ib_fabric_free(&sn->work);
	ib_fabric_free(&sn->shown);
	lost_free(sn);
	mad_fpma_free(&sn->pma);
	free(sn);
}

const struct ib_fabric *mad_subnet_fabric(const struct mad_subnet *sn)
{
	return &sn->shown;
}

const struct fabric_lost_link *mad_subnet_lost(const struct mad_subnet *sn, size_t *n)
{
	*n = sn->nlost;
	return sn->lost;
}

const char *mad_subnet_reason(const struct mad_subnet *sn)
{
	return sn->reason;
}

const char *mad_subnet_note(const struct mad_subnet *sn)
{
	return sn->note;
}

const char *mad_subnet_status(const struct mad_subnet *sn)
{
	return sn->status;
}

uint64_t mad_subnet_sweeps(const struct mad_subnet *sn)
{
	return sn->sweeps;
}

void mad_subnet_take(struct mad_subnet *sn, struct ib_fabric *f, struct fabric_lost_link *lost, size_t nlost,
		     const char *reason, const char *status, uint64_t sweeps)
{
	sn->fed = true;
	ib_fabric_free(&sn->shown);
	sn->shown = *f;
	memset(f, 0, sizeof(*f));
	lost_free(sn);
	sn->lost = lost;
	sn->nlost = nlost;
	snprintf(sn->reason, sizeof(sn->reason), "%s", reason);
	snprintf(sn->status, sizeof(sn->status), "%s", status);
	sn->sweeps = sweeps;
	sn->stage = reason[0] ? SN_CLOSED : SN_READY;
	mad_fpma_forget(&sn->pma);
}

uint64_t mad_subnet_round_ns(const struct mad_subnet *sn, size_t *ports)
{
	*ports = sn->round_ports;
	return sn->round_ns;
}

uint64_t mad_subnet_cpi_shared(const struct mad_subnet *sn)
{
	return sn->pma.cpi.shared;
}

uint64_t mad_subnet_mads(const struct mad_subnet *sn)
{
	uint64_t n = 0;

	for (size_t i = 0; sn->v && i < sn->work.nports; i++) {
		struct mad_session *s = mad_fabric_session(sn->v, i);

		if (s)
			n += mad_session_stats(s)->sent;
	}
	return n;
}

void mad_subnet_rescan(struct mad_subnet *sn)
{
	sn->rescan = true;
}

/* ---- opening ---- */

static void subnet_close(struct mad_subnet *sn)
{
	mad_fabric_close(sn->v);
	sn->v = NULL;
	ib_fabric_free(&sn->work);
	sn->stage = SN_CLOSED;
}

/* Open the sessions and ask the local ports; the reason when there is no port to ask. */
static void subnet_open(struct mad_subnet *sn, uint64_t now)
{
	struct mad_opts o = { .timeout_ms = 200, .retries = 1, .window = 64 };
	struct fab_ctx c = *sn->ctx;
	int rc;
	bool any = false;

	sn->last_try_ns = now;
	/* A --sysfs tree that describes the very devices libibumad sees (the simulator's) is the live system. */
	if (!c.live_sysfs && umad_tree_is_live(&c))
		c.live_sysfs = true;
	rc = mad_fabric_open(&c, &sn->work, &sn->v);
	for (size_t i = 0; sn->v && i < sn->work.nports; i++) {
		struct mad_session *s = mad_fabric_session(sn->v, i);

		if (s) {
			o.window = mad_loop_window(s, 64);
			mad_session_set_opts(s, &o);
			any = true;
		}
	}
	if (rc || !any) {
		snprintf(sn->reason, sizeof(sn->reason), "%s", rc ? strerror(-rc) :
			 sn->work.error[0] ? sn->work.error : "no InfiniBand port to ask");
		subnet_close(sn);
		return;
	}
	sn->reason[0] = '\0';
	mad_fabric_query_ports(sn->v, now);
	sn->stage = SN_QUERY;
	snprintf(sn->status, sizeof(sn->status), "asking the local ports");
}

/* ---- sweeping ---- */

static void work_reset(struct ib_fabric *f)
{
	struct ib_local_port *ports = f->ports;
	size_t nports = f->nports, from = f->sweep_from;

	f->ports = NULL;
	f->nports = 0;
	ib_fabric_free(f);
	f->ports = ports;
	f->nports = nports;
	f->sweep_from = from;
}

static void sweep_start(struct mad_subnet *sn, uint64_t now)
{
	int rc;

	work_reset(&sn->work);
	rc = mad_fabric_sweep_begin(sn->v, NULL, now);
	sn->rescan = false;
	if (rc) {
		snprintf(sn->reason, sizeof(sn->reason), "%s", rc == -ENODEV ?
			 "no local InfiniBand port has its link up: there is no subnet to sweep from here" :
			 strerror(-rc));
		sn->stage = SN_READY;
		sn->next_sweep_ns = now + SUBNET_RETRY_NS;
		sn->status[0] = '\0';
		return;
	}
	sn->stage = SN_SWEEP;
	sn->next_partial_ns = now + sn->partial_ns;
	snprintf(sn->status, sizeof(sn->status), "sweeping");
}

/* A copy of what the running sweep found so far: its nodes (their ports) and links; no counters, no local ports. */
static bool partial_copy(struct ib_fabric *dst, const struct ib_fabric *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->nodes = calloc(src->nnodes ? src->nnodes : 1, sizeof(*dst->nodes));
	dst->links = calloc(src->nlinks ? src->nlinks : 1, sizeof(*dst->links));
	if (!dst->nodes || !dst->links) {
		ib_fabric_free(dst);
		return false;
	}
	for (size_t i = 0; i < src->nnodes; i++) {
		const struct ib_fnode *n = &src->nodes[i];
		size_t np = (size_t)n->id.num_ports + 1;

		dst->nodes[i] = *n;
		dst->nodes[i].ports = calloc(np, sizeof(*n->ports));
		if (!dst->nodes[i].ports) {
			dst->nnodes = i;
			ib_fabric_free(dst);
			return false;
		}
		dst->nnodes = i + 1;
		if (n->ports)
			memcpy(dst->nodes[i].ports, n->ports, np * sizeof(*n->ports));
		for (size_t p = 0; p < np; p++)
			dst->nodes[i].ports[p].pma = NULL;
	}
	memcpy(dst->links, src->links, src->nlinks * sizeof(*src->links));
	dst->nlinks = src->nlinks;
	dst->partial = true;
	dst->sweep_from = src->sweep_from;
	dst->mem_budget = src->mem_budget;
	return true;
}

/* No whole sweep shown yet and the first takes long: show what it found so far. */
static unsigned int partial_show(struct mad_subnet *sn, uint64_t now)
{
	struct ib_fabric cp;

	sn->next_partial_ns = now + sn->partial_ns;
	if (!sn->work.nnodes || !partial_copy(&cp, &sn->work))
		return 0;
	ib_fabric_free(&sn->shown);
	sn->shown = cp;
	snprintf(sn->status, sizeof(sn->status), "sweeping: %zu nodes so far", cp.nnodes);
	mad_fpma_forget(&sn->pma);
	return SUBNET_PARTIAL | SUBNET_STATE;
}

/* A (node GUID, index) pair, sorted by GUID, to find a node of the old sweep fast. */
struct guid_ix {
	uint64_t guid;
	size_t ix;
};

static int guid_cmp(const void *a, const void *b)
{
	const struct guid_ix *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

static struct guid_ix *guid_index(const struct ib_fabric *f)
{
	struct guid_ix *ix = calloc(f->nnodes ? f->nnodes : 1, sizeof(*ix));

	if (!ix)
		return NULL;
	for (size_t i = 0; i < f->nnodes; i++)
		ix[i] = (struct guid_ix){ f->nodes[i].id.node_guid, i };
	qsort(ix, f->nnodes, sizeof(*ix), guid_cmp);
	return ix;
}

static const struct ib_fnode *guid_find(const struct ib_fabric *f, const struct guid_ix *ix, uint64_t guid)
{
	struct guid_ix key = { guid, 0 };
	const struct guid_ix *hit = ix ? bsearch(&key, ix, f->nnodes, sizeof(*ix), guid_cmp) : NULL;

	return hit ? &f->nodes[hit->ix] : NULL;
}

static bool end_up(const struct ib_fnode *n, uint8_t p)
{
	return n && p <= n->id.num_ports && n->ports[p].known && n->ports[p].linked &&
	       n->ports[p].pi.phys_state == PHYS_STATE_LINK_UP;
}

/* Why an end that was up is not: its node is gone, or its port's state now. */
static void end_why(const struct ib_fnode *n, uint8_t p, const char *desc, char *why, size_t sz)
{
	if (!n)
		snprintf(why, sz, "%s does not answer", desc[0] ? desc : "a node");
	else if (p <= n->id.num_ports && n->ports[p].known)
		snprintf(why, sz, "%s port %u %s/%s", desc[0] ? desc : "a node", p,
			 mad_port_state_str(n->ports[p].pi.state), mad_phys_state_str(n->ports[p].pi.phys_state));
	else
		snprintf(why, sz, "%s port %u unknown", desc[0] ? desc : "a node", p);
}

static bool lost_add(struct fabric_lost_link **v, size_t *n, size_t *cap, const struct fabric_lost_link *l)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct fabric_lost_link *nv = realloc(*v, nc * sizeof(*nv));

		if (!nv)
			return false;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = *l;
	return true;
}

/*
 * The links lost between the old sweep (old) and the new one (nw): every
 * link of old whose ends are not both up in nw, and every link lost before
 * that has not come back.
 */
static void lost_update(struct mad_subnet *sn, const struct ib_fabric *old, const struct guid_ix *oix,
			const struct ib_fabric *nw, const struct guid_ix *nix)
{
	struct fabric_lost_link *v = NULL;
	size_t n = 0, cap = 0;

	(void)oix;
	for (size_t i = 0; i < old->nlinks; i++) {
		const struct ib_link *l = &old->links[i];
		const struct ib_fnode *oa = &old->nodes[l->a], *ob = &old->nodes[l->b];
		const struct ib_fnode *na = guid_find(nw, nix, oa->id.node_guid), *nb = guid_find(nw, nix, ob->id.node_guid);
		struct fabric_lost_link lk;

		if (end_up(na, l->a_port) && end_up(nb, l->b_port))
			continue;
		memset(&lk, 0, sizeof(lk));
		lk.a = oa->id;
		lk.b = ob->id;
		lk.a_port = l->a_port;
		lk.b_port = l->b_port;
		lk.a_lid = oa->lid;
		lk.b_lid = ob->lid;
		if (!end_up(na, l->a_port))
			end_why(na, l->a_port, oa->id.desc, lk.why, sizeof(lk.why));
		else
			end_why(nb, l->b_port, ob->id.desc, lk.why, sizeof(lk.why));
		if (!lost_add(&v, &n, &cap, &lk))
			break;
	}
	for (size_t i = 0; i < sn->nlost; i++) {
		const struct fabric_lost_link *l = &sn->lost[i];

		if (end_up(guid_find(nw, nix, l->a.node_guid), l->a_port) &&
		    end_up(guid_find(nw, nix, l->b.node_guid), l->b_port))
			continue;	/* back */
		if (!lost_add(&v, &n, &cap, l))
			break;
	}
	lost_free(sn);
	sn->lost = v;
	sn->nlost = n;
}

/* What the sweep now shown left out, for people. */
static void note_update(struct mad_subnet *sn)
{
	const struct ib_fabric *f = &sn->shown;
	int n = 0;

	sn->note[0] = '\0';
	if (f->truncated_mem)
		n = snprintf(sn->note, sizeof(sn->note), "the subnet has more nodes than %zu MiB of tables hold "
			     "(--fabric-mem): %zu nodes shown", f->mem_budget >> 20, f->nnodes);
	else if (f->truncated_nodes)
		n = snprintf(sn->note, sizeof(sn->note), "the sweep stopped at its node limit: %zu nodes shown",
			     f->nnodes);
	if (f->guid_conflicts && n >= 0 && (size_t)n < sizeof(sn->note))
		snprintf(sn->note + n, sizeof(sn->note) - (size_t)n, "%s%zu answers contradict the sweep "
			 "(a node GUID used twice, or the fabric changed while it was swept)", n ? "; " : "",
			 f->guid_conflicts);
}

/* The sweep in work is whole: it becomes what is shown, the old ports' counters carried over by GUID and port. */
static void sweep_swap(struct mad_subnet *sn)
{
	struct ib_fabric *nw = &sn->work, *old = &sn->shown;
	struct guid_ix *oix = guid_index(old), *nix = guid_index(nw);

	for (size_t i = 0; oix && i < nw->nnodes; i++) {
		struct ib_fnode *n = &nw->nodes[i];
		const struct ib_fnode *o = guid_find(old, oix, n->id.node_guid);

		for (unsigned int p = 1; o && p <= n->id.num_ports && p <= o->id.num_ports; p++) {
			n->ports[p].pma = o->ports[p].pma;
			o->ports[p].pma = NULL;
			/* an answer for the old sweep is dropped: ask the tick again */
			if (n->ports[p].pma && n->ports[p].pma->tick_state == IBQ_PENDING)
				n->ports[p].pma->tick_state = IBQ_NONE;
		}
	}
	/* what a partial showing of the first sweep lacks was never lost */
	if (old->nnodes && nix && !old->partial)
		lost_update(sn, old, oix, nw, nix);
	free(oix);
	free(nix);
	ib_fabric_free(old);
	old->nodes = nw->nodes;
	old->nnodes = nw->nnodes;
	old->links = nw->links;
	old->nlinks = nw->nlinks;
	old->swept = true;
	old->truncated_nodes = nw->truncated_nodes;
	old->truncated_time = nw->truncated_time;
	old->truncated_mem = nw->truncated_mem;
	old->mem_budget = nw->mem_budget;
	old->guid_conflicts = nw->guid_conflicts;
	old->guid_conflict = nw->guid_conflict;
	old->sweep_ns = nw->sweep_ns;
	old->sweep_mads = nw->sweep_mads;
	old->sweep_peak = nw->sweep_peak;
	old->sweep_window = nw->sweep_window;
	nw->nodes = NULL;
	nw->links = NULL;
	nw->nnodes = nw->nlinks = 0;
	mad_fpma_forget(&sn->pma);
	note_update(sn);
	sn->sweeps++;
}

/* ---- the PMA rounds ---- */

/* A round: a step of every node of the shown sweep (mad/mad_fpma.h). */
static void pma_round(struct mad_subnet *sn, uint64_t now)
{
	struct ib_fabric *f = &sn->shown;
	size_t ports = 0;

	for (size_t k = 0; k < f->nnodes; k++) {
		struct mad_session *s = mad_fabric_session(sn->v, f->nodes[k].via);

		if (s)
			ports += mad_fpma_node(&sn->pma, s, k, now);
	}
	sn->round_start_ns = now;
	sn->round_ports = ports;
	sn->round_running = sn->pma.pending > 0;
	if (sn->pma.pending)
		snprintf(sn->status, sizeof(sn->status), "sampling %zu ports", ports);
}

/* A round is in: a port whose LinkDowned moved went down and up since: sweep again. */
static void round_judge(struct mad_subnet *sn)
{
	const struct ib_fabric *f = &sn->shown;

	for (size_t k = 0; k < f->nnodes; k++)
		for (unsigned int p = 1; p <= f->nodes[k].id.num_ports; p++) {
			struct fabric_end e;

			fabric_end_from(f->nodes[k].ports[p].pma, &e);
			if (e.link_downed_now)
				sn->rescan = true;
		}
}

/* ---- the loop ---- */

int mad_subnet_fds(const struct mad_subnet *sn, bool paused, struct pollfd *fds, int max, int *timeout_ms,
		   uint64_t now_ns)
{
	int fdv[16], n, t;

	if (sn->fed)
		return 0;
	if (!sn->v) {
		if (!paused) {
			uint64_t due = sn->last_try_ns ? sn->last_try_ns + SUBNET_RETRY_NS : now_ns;

			util_lower_timeout(timeout_ms, due, now_ns);
		}
		return 0;
	}
	n = mad_fabric_fds(sn->v, fdv, max < 16 ? max : 16);
	for (int i = 0; i < n; i++)
		fds[i] = (struct pollfd){ .fd = fdv[i], .events = POLLIN };
	t = mad_fabric_timeout_ms(sn->v, now_ns);
	if (t >= 0 && (*timeout_ms < 0 || t < *timeout_ms))
		*timeout_ms = t;
	/*
	 * A round or a sweep that is due waits for the round in flight: its
	 * answers wake the loop (the sessions' fds and timeouts above), not a
	 * deadline already past, which would spin the loop until they are in.
	 */
	if (!paused && sn->stage == SN_READY && !sn->pma.pending) {
		uint64_t due = sn->next_pma_ns < sn->next_sweep_ns ? sn->next_pma_ns : sn->next_sweep_ns;

		util_lower_timeout(timeout_ms, due, now_ns);
	}
	if (sn->stage == SN_SWEEP && !sn->sweeps)
		util_lower_timeout(timeout_ms, sn->next_partial_ns, now_ns);
	return n;
}

/* How long until the next sweep: SUBNET_RESWEEP_NS, or 20 sweeps' time on a big fabric. */
static uint64_t resweep_ns(const struct mad_subnet *sn)
{
	uint64_t t = sn->shown.sweep_ns * 20;

	return t > SUBNET_RESWEEP_NS ? t : SUBNET_RESWEEP_NS;
}

unsigned int mad_subnet_step(struct mad_subnet *sn, bool paused, double interval_s, uint64_t now)
{
	unsigned int news = 0;
	uint64_t ival = interval_s > 0 ? (uint64_t)(interval_s * 1e9) : 1000000000ull;

	if (sn->fed)
		return 0;
	if (sn->stage == SN_CLOSED) {
		if (paused || (sn->last_try_ns && now - sn->last_try_ns < SUBNET_RETRY_NS))
			return 0;
		subnet_open(sn, now);
		return SUBNET_STATE;
	}
	mad_fabric_step(sn->v, now);
	if (sn->stage == SN_QUERY && mad_fabric_idle(sn->v)) {
		sweep_start(sn, now);
		news |= SUBNET_STATE;
	}
	if (sn->stage == SN_SWEEP && !mad_fabric_sweeping(sn->v)) {
		mad_fabric_sweep_end(sn->v, now);
		sweep_swap(sn);
		sn->stage = SN_READY;
		sn->reason[0] = '\0';
		sn->status[0] = '\0';
		sn->next_sweep_ns = now + resweep_ns(sn);
		sn->next_pma_ns = now;
		news |= SUBNET_SWEPT;
	} else if (sn->stage == SN_SWEEP && !sn->sweeps && now >= sn->next_partial_ns) {
		news |= partial_show(sn, now);
	}
	if (sn->pma.rescan) {
		sn->pma.rescan = false;
		sn->rescan = true;
	}
	if (sn->round_running && !sn->pma.pending) {
		sn->round_running = false;
		sn->round_ns = now - sn->round_start_ns;
		round_judge(sn);
		if (sn->stage == SN_READY)
			sn->status[0] = '\0';
		news |= SUBNET_SAMPLED;
	}
	if (paused)
		return news;
	/* Nor a sweep while a round is in flight: its SMPs would queue behind the round's requests. */
	if (sn->stage == SN_READY && !sn->pma.pending && (sn->rescan || now >= sn->next_sweep_ns)) {
		sweep_start(sn, now);
		news |= SUBNET_STATE;
	}
	/*
	 * No round while a sweep runs: thousands of PMA requests queued on the
	 * session ahead of the sweep's SMPs hold it up (on the 1,016-node tree
	 * under ibsim, a second sweep with rounds running took 11.7 s, the
	 * first 0.5 s); the round after it is due at once.
	 */
	if (sn->stage == SN_READY && sn->shown.nnodes && !sn->pma.pending && now >= sn->next_pma_ns) {
		pma_round(sn, now);
		sn->next_pma_ns += ival;
		if (sn->next_pma_ns <= now)
			sn->next_pma_ns = now + ival;
	}
	return news;
}
