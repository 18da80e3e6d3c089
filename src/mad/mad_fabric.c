// SPDX-License-Identifier: GPL-2.0-or-later
/* Sweeping the fabric by directed route (like ibnetdiscover), bounded, and the one-shot IB collector. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mad/mad_fabric.h"
#include "mad/mad_fpma.h"
#include "mad/mad_port.h"
#include "mad/umad.h"
#include "derive/mad_decode.h"
#include "util.h"

#define NO_NODE ((size_t)-1)

/*
 * The engine's settings while sweeping. Measured on the generated 1,016-node
 * fat tree under ibsim (discovery + counters of 2,688 ports, 11,500 MADs,
 * best of 7 on a loaded 2-core machine): a window of 16 took 402 ms, 32
 * took 302 ms, 64 took 251 ms; no answer ever needed a retry. Directed-route
 * SMPs travel on VL15, which a switch drops when its SMA is flooded, so
 * discovery keeps 32 in flight; PMA requests are ordinary GMPs and get 64.
 * One retry after 200 ms: a part of the fabric that does not answer costs
 * 400 ms per request (spread over the window), never more than the deadline.
 */
#define SWEEP_DR_WINDOW		32
#define SWEEP_PMA_WINDOW	64
#define SWEEP_TIMEOUT_MS	200
#define SWEEP_RETRIES		1

/* Set a session up for a sweep phase; *saved gets what to restore after. */
static void sweep_opts(struct mad_session *s, unsigned int window, struct mad_opts *saved)
{
	struct mad_opts o = { .timeout_ms = SWEEP_TIMEOUT_MS, .retries = SWEEP_RETRIES, .window = window };

	*saved = *mad_session_get_opts(s);
	mad_session_set_opts(s, &o);
	mad_session_peak_reset(s);
}

struct mad_sweep {
	struct mad_session *s;
	struct ib_fabric *f;
	struct mad_sweep_limits lim;
	unsigned int local_port;
	size_t via;			/* index of the local port (session) it sweeps from */
	uint64_t start_ns, stop_ns;
	size_t cap_nodes, cap_links;
	size_t *gix;			/* node index by GUID: open addressing, NO_NODE when empty */
	size_t gix_cap;			/* a power of two, at least twice the nodes */
	size_t bytes;			/* the tables' memory, bounded per node by what it can grow to */
	bool failed;			/* out of memory: stop growing */
	unsigned int outstanding;	/* callbacks still to come (the sweep lives until 0) */
	bool finished;			/* mad_sweep_finish() ran; free when outstanding hits 0 */
};

enum sweep_kind { SQ_NODE, SQ_DESC, SQ_PORT };

struct sweep_q {
	struct mad_sweep *sw;
	enum sweep_kind kind;
	size_t node;			/* SQ_DESC/SQ_PORT: which; SQ_NODE: the parent or NO_NODE */
	uint8_t port;			/* SQ_PORT: which; SQ_NODE: the parent's egress port */
	uint8_t hops;
	uint8_t path[MAD_DR_MAX_HOPS + 1];
};

static void sweep_cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len);

static void sweep_ask(struct mad_sweep *sw, enum sweep_kind kind, size_t node, uint8_t port,
		      const uint8_t *path, uint8_t hops, uint16_t attr, uint32_t mod)
{
	struct sweep_q *q;

	if (sw->failed)
		return;
	q = calloc(1, sizeof(*q));
	if (!q) {
		sw->failed = true;
		return;
	}
	q->sw = sw;
	q->kind = kind;
	q->node = node;
	q->port = port;
	q->hops = hops;
	memcpy(q->path, path, (size_t)hops + 1);
	if (mad_get_dr(sw->s, q->path, hops, attr, mod, sweep_cb, q)) {
		free(q);
		return;
	}
	sw->outstanding++;
}

static size_t find_guid(const struct ib_fabric *f, uint64_t guid)
{
	for (size_t i = 0; i < f->nnodes; i++)
		if (f->nodes[i].id.node_guid == guid)
			return i;
	return NO_NODE;
}

/* The first slot to look at for guid in a table of cap slots (Fibonacci hashing). */
static size_t gix_slot(uint64_t guid, size_t cap)
{
	return (size_t)((guid * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* The node with this GUID among those the sweep holds, NO_NODE if none: one probe or a few. */
static size_t gix_find(const struct mad_sweep *sw, uint64_t guid)
{
	const struct ib_fnode *nodes = sw->f->nodes;

	if (!sw->gix)
		return NO_NODE;
	for (size_t i = gix_slot(guid, sw->gix_cap);; i = (i + 1) & (sw->gix_cap - 1)) {
		if (sw->gix[i] == NO_NODE)
			return NO_NODE;
		if (nodes[sw->gix[i]].id.node_guid == guid)
			return sw->gix[i];
	}
}

static void gix_put(size_t *tab, size_t cap, uint64_t guid, size_t idx)
{
	size_t i = gix_slot(guid, cap);

	while (tab[i] != NO_NODE)
		i = (i + 1) & (cap - 1);
	tab[i] = idx;
}

/* The index made anew with cap slots over every node f holds. */
static bool gix_rebuild(struct mad_sweep *sw, size_t cap)
{
	const struct ib_fabric *f = sw->f;
	size_t *tab = malloc(cap * sizeof(*tab));

	if (!tab)
		return false;
	memset(tab, 0xff, cap * sizeof(*tab));	/* every slot NO_NODE */
	for (size_t i = 0; i < f->nnodes; i++)
		gix_put(tab, cap, f->nodes[i].id.node_guid, i);
	free(sw->gix);
	sw->gix = tab;
	sw->gix_cap = cap;
	return true;
}

/* The node just added (the last of f->nodes) into the index, which doubles to stay at most half full. */
static bool gix_add(struct mad_sweep *sw)
{
	const struct ib_fabric *f = sw->f;
	size_t cap = sw->gix_cap ? sw->gix_cap : 256;

	if (2 * f->nnodes > sw->gix_cap) {
		while (2 * f->nnodes > cap)
			cap *= 2;
		return gix_rebuild(sw, cap);
	}
	gix_put(sw->gix, sw->gix_cap, f->nodes[f->nnodes - 1].id.node_guid, f->nnodes - 1);
	return true;
}

/*
 * What a node of num_ports ports can grow the tables by: its entry (twice,
 * for the array's doubling), its ports with their PMA counters and links,
 * and its index slots. An upper bound, so the sweep stops before the bound.
 */
static size_t node_cost(unsigned int num_ports)
{
	return 2 * sizeof(struct ib_fnode) + 2 * sizeof(size_t) +
	       ((size_t)num_ports + 1) * (sizeof(struct ib_fport) + sizeof(struct ib_pma) + sizeof(struct ib_link));
}

/*
 * Room for one more element in an array of the fabric that holds n of cap:
 * the array, doubled (from first) when full; NULL, and the sweep marked
 * failed, when memory runs out (the old array stays valid).
 */
static void *sweep_grow(struct mad_sweep *sw, void *v, size_t *cap, size_t n, size_t elem, size_t first)
{
	size_t ncap;
	void *nv;

	if (n < *cap)
		return v;
	ncap = *cap ? *cap * 2 : first;
	nv = realloc(v, ncap * elem);
	if (!nv) {
		sw->failed = true;
		return NULL;
	}
	*cap = ncap;
	return nv;
}

static void add_link(struct mad_sweep *sw, size_t a, uint8_t ap, size_t b, uint8_t bp)
{
	struct ib_fabric *f = sw->f;
	struct ib_fnode *na = &f->nodes[a], *nb = &f->nodes[b];
	struct ib_link *links;

	if (ap > na->id.num_ports || bp > nb->id.num_ports)
		return;
	if (na->ports[ap].linked || nb->ports[bp].linked)
		return;		/* already known from the other side */
	links = sweep_grow(sw, f->links, &sw->cap_links, f->nlinks, sizeof(*f->links), 64);
	if (!links)
		return;
	f->links = links;
	f->links[f->nlinks++] = (struct ib_link){ .a = a, .b = b, .a_port = ap, .b_port = bp };
	na->ports[ap].linked = true;
	na->ports[ap].peer = b;
	na->ports[ap].peer_port = bp;
	nb->ports[bp].linked = true;
	nb->ports[bp].peer = a;
	nb->ports[bp].peer_port = ap;
}

static bool sweep_time_left(struct mad_sweep *sw)
{
	if (util_now_ns() - sw->start_ns <= sw->lim.max_ns)
		return true;
	sw->f->truncated_time = true;
	return false;
}

/*
 * A node seen before (n) answers again by the route of q: the same node
 * reached another way (a second cable, or the same cable from its other
 * end) has as many ports and the port it answers by is free or on this
 * very cable. Anything else is another node with the same GUID, or a
 * fabric that changed during the sweep.
 */
static bool guid_agrees(const struct ib_fnode *n, const struct mad_node_info *ni, const struct sweep_q *q)
{
	const struct ib_fport *p;

	if (ni->num_ports != n->id.num_ports || ni->node_type != n->id.node_type)
		return false;
	if (ni->local_port_num > n->id.num_ports)
		return false;
	p = &n->ports[ni->local_port_num];
	return !p->linked || (p->peer == q->node && p->peer_port == q->port);
}

static void on_node(struct mad_sweep *sw, struct sweep_q *q, const struct mad_node_info *ni)
{
	struct ib_fabric *f = sw->f;
	struct ib_fnode *n, *nodes;
	size_t idx = gix_find(sw, ni->node_guid);
	size_t cost = node_cost(ni->num_ports);

	if (idx != NO_NODE) {
		if (q->node != NO_NODE && !guid_agrees(&f->nodes[idx], ni, q)) {
			if (!f->guid_conflicts++)
				f->guid_conflict = ni->node_guid;
			return;
		}
		if (q->node != NO_NODE)
			add_link(sw, q->node, q->port, idx, ni->local_port_num);
		return;
	}
	if (f->nnodes >= sw->lim.max_nodes) {
		f->truncated_nodes = true;
		return;
	}
	if (sw->bytes + cost > sw->lim.max_bytes) {
		f->truncated_mem = true;
		return;
	}
	nodes = sweep_grow(sw, f->nodes, &sw->cap_nodes, f->nnodes, sizeof(*f->nodes), 32);
	if (!nodes)
		return;
	f->nodes = nodes;
	n = &f->nodes[f->nnodes];
	memset(n, 0, sizeof(*n));
	n->ports = calloc((size_t)ni->num_ports + 1, sizeof(*n->ports));
	if (!n->ports) {
		sw->failed = true;
		return;
	}
	idx = f->nnodes++;
	sw->bytes += cost;
	n->id.node_guid = ni->node_guid;
	n->id.sys_image_guid = ni->sys_image_guid;
	n->id.port_guid = ni->port_guid;
	n->id.node_type = ni->node_type;
	n->id.num_ports = ni->num_ports;
	n->id.vendor_id = ni->vendor_id;
	n->id.device_id = ni->device_id;
	n->id.revision = ni->revision;
	if (!gix_add(sw)) {
		sw->failed = true;
		return;
	}
	n->hops = q->hops;
	n->via = sw->via;
	n->entry_port = ni->local_port_num;
	memcpy(n->path, q->path, (size_t)q->hops + 1);
	if (q->node != NO_NODE)
		add_link(sw, q->node, q->port, idx, ni->local_port_num);

	sweep_ask(sw, SQ_DESC, idx, 0, q->path, q->hops, MAD_ATTR_NODE_DESC, 0);
	/* Switches: every port, 0 included (its LID). Others: every port, for their state. */
	for (unsigned int p = ni->node_type == 2 ? 0 : 1; p <= ni->num_ports; p++)
		sweep_ask(sw, SQ_PORT, idx, (uint8_t)p, q->path, q->hops, MAD_ATTR_PORT_INFO, p);
}

static void on_port(struct mad_sweep *sw, struct sweep_q *q, const struct mad_port_info *pi)
{
	struct ib_fabric *f = sw->f;
	struct ib_fnode *n = &f->nodes[q->node];
	struct ib_fport *fp;
	uint8_t path[MAD_DR_MAX_HOPS + 1];
	bool explore;

	if (q->port > n->id.num_ports)
		return;
	fp = &n->ports[q->port];
	fp->known = true;
	mad_port_id_from(&fp->pi, pi, q->port);
	if ((n->id.node_type == 2 && q->port == 0) || (n->id.node_type != 2 && q->port == n->entry_port))
		n->lid = pi->lid;

	/*
	 * Directed routes go on through switches only (a CA does not forward);
	 * from the local CA the only way out is the port we send from.
	 */
	if (q->port == 0 || pi->phys_state != PHYS_STATE_LINK_UP || fp->linked)
		return;
	if (n->hops == 0)
		explore = n->id.node_type != 2 ? q->port == sw->local_port : q->port != 0;
	else
		explore = n->id.node_type == 2 && q->port != n->entry_port;
	if (!explore || n->hops >= MAD_DR_MAX_HOPS || !sweep_time_left(sw))
		return;
	memcpy(path, n->path, (size_t)n->hops + 1);
	path[n->hops + 1] = q->port;
	sweep_ask(sw, SQ_NODE, q->node, q->port, path, (uint8_t)(n->hops + 1), MAD_ATTR_NODE_INFO, 0);
}

static void sweep_cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len)
{
	struct sweep_q *q = arg;
	struct mad_sweep *sw = q->sw;
	const uint16_t attr = q->kind == SQ_NODE ? MAD_ATTR_NODE_INFO :
			      q->kind == SQ_DESC ? MAD_ATTR_NODE_DESC : MAD_ATTR_PORT_INFO;
	const uint8_t *data;
	size_t dlen;
	struct mad_hdr h;
	struct mad_node_info ni;
	struct mad_port_info pi;

	sw->outstanding--;
	if (!sw->finished && !status && !mad_decode_reply_data(mad, len, attr, &data, &dlen, &h)) {
		switch (q->kind) {
		case SQ_NODE:
			if (!mad_decode_node_info(data, dlen, &ni))
				on_node(sw, q, &ni);
			break;
		case SQ_DESC:
			mad_decode_node_desc(data, dlen, sw->f->nodes[q->node].id.desc,
					     sizeof(sw->f->nodes[q->node].id.desc));
			break;
		case SQ_PORT:
			if (!mad_decode_port_info(data, dlen, &pi))
				on_port(sw, q, &pi);
			break;
		}
	}
	free(q);
	if (sw->finished && !sw->outstanding)
		free(sw);
}

/* A sweep's control block, its limits defaulted; nothing asked yet. */
static struct mad_sweep *sweep_new(struct mad_session *s, struct ib_fabric *f, unsigned int local_port,
				   const struct mad_sweep_limits *lim, uint64_t now_ns)
{
	struct mad_sweep *sw = calloc(1, sizeof(*sw));

	if (!sw)
		return NULL;
	sw->s = s;
	sw->f = f;
	sw->local_port = local_port;
	sw->start_ns = now_ns;
	sw->lim.max_nodes = lim && lim->max_nodes ? lim->max_nodes : MAD_SWEEP_DEFAULT_NODES;
	sw->lim.max_ns = lim && lim->max_ns ? lim->max_ns : MAD_SWEEP_DEFAULT_NS;
	sw->lim.max_bytes = lim && lim->max_bytes ? lim->max_bytes : (size_t)CTX_FABRIC_MEM_MB << 20;
	f->mem_budget = sw->lim.max_bytes;
	/* realloc grows from the current size: f may hold an earlier sweep's results */
	sw->cap_nodes = f->nnodes;
	sw->cap_links = f->nlinks;
	sw->bytes = ib_fabric_mem_bytes(f);
	if (f->nnodes && !gix_add(sw)) {
		free(sw);
		return NULL;
	}
	return sw;
}

/*
 * Start sweeping from the port of session s (ib_local_port lp names it);
 * results go into f (nodes, links) as mad_step() runs. The sweep is done
 * when s is idle. Returns NULL on allocation failure.
 */
static struct mad_sweep *mad_sweep_start(struct mad_session *s, struct ib_fabric *f, unsigned int local_port,
					 const struct mad_sweep_limits *lim, uint64_t now_ns)
{
	struct mad_sweep *sw = sweep_new(s, f, local_port, lim, now_ns);
	uint8_t path[1] = { 0 };

	if (sw)
		sweep_ask(sw, SQ_NODE, NO_NODE, 0, path, 0, MAD_ATTR_NODE_INFO, 0);
	return sw;
}

struct mad_sweep *mad_sweep_start_more(struct mad_session *s, struct ib_fabric *f, uint64_t local_guid,
				       unsigned int local_port, const struct mad_sweep_limits *lim,
				       uint64_t now_ns)
{
	size_t idx = find_guid(f, local_guid);
	struct mad_sweep *sw;
	uint8_t path[2] = { 0, (uint8_t)local_port };

	if (idx == NO_NODE || local_port > f->nodes[idx].id.num_ports)
		return mad_sweep_start(s, f, local_port, lim, now_ns);
	if (f->nodes[idx].ports[local_port].linked)
		return NULL;	/* this cable is known already: nothing new out there */
	sw = sweep_new(s, f, local_port, lim, now_ns);
	/* One hop out of this port: a second fabric, or a known switch (one MAD). */
	if (sw)
		sweep_ask(sw, SQ_NODE, idx, (uint8_t)local_port, path, 1, MAD_ATTR_NODE_INFO, 0);
	return sw;
}

void mad_sweep_finish(struct mad_sweep *sw, uint64_t now_ns)
{
	if (!sw)
		return;
	sw->f->swept = true;
	sw->f->sweep_ns += now_ns - sw->start_ns;
	sw->finished = true;
	free(sw->gix);
	sw->gix = NULL;
	/* Requests still queued hold pointers to sw; the last callback frees it. */
	if (!sw->outstanding)
		free(sw);
}

/* ---- the view: a session per local port ---- */

struct mad_fabric {
	struct ib_fabric *f;
	struct mad_session **sess;	/* [f->nports], NULL where the port could not be opened */
	/* a sweep driven from a poll loop (mad_fabric_sweep_begin) */
	struct mad_sweep *sw;
	size_t sw_port;
	struct mad_opts sw_saved;
	uint64_t sw_sent0;
	size_t mem_budget;		/* --fabric-mem, bytes: the bound of a sweep that names none */
	unsigned int smps;		/* --fabric-smps; 0: SWEEP_DR_WINDOW */
};

/*
 * The SMPs a sweep keeps in flight: --fabric-smps as given, else
 * SWEEP_DR_WINDOW, which a sweep driven from a shared poll loop widens
 * under the simulator (mad_loop_window()).
 */
static unsigned int sweep_window(const struct mad_fabric *v, const struct mad_session *s, bool loop)
{
	if (v->smps)
		return v->smps;
	return loop ? mad_loop_window(s, SWEEP_DR_WINDOW) : SWEEP_DR_WINDOW;
}

/* lim, its memory bound the view's when it names none. */
static const struct mad_sweep_limits *view_lim(const struct mad_fabric *v, const struct mad_sweep_limits *lim,
					       struct mad_sweep_limits *out)
{
	if (lim)
		*out = *lim;
	else
		memset(out, 0, sizeof(*out));
	if (!out->max_bytes)
		out->max_bytes = v->mem_budget;
	return out;
}

int mad_fabric_open(const struct fab_ctx *ctx, struct ib_fabric *f, struct mad_fabric **out)
{
	struct umad_local *locals;
	struct mad_fabric *v;
	char why[768];
	int n;

	*out = NULL;
	memset(f, 0, sizeof(*f));
	if (!ctx->live_sysfs) {
		snprintf(f->error, sizeof(f->error), "MAD queries need the live system: "
			 "--sysfs %s replaces /sys for reports, but libibumad reads the real /sys",
			 ctx->sysfs_root);
		return 0;
	}
	locals = calloc(UMAD_MAX_LOCAL_PORTS, sizeof(*locals));
	v = calloc(1, sizeof(*v));
	if (!locals || !v) {
		free(locals);
		free(v);
		return -ENOMEM;
	}
	n = umad_list_ports(ctx, locals, UMAD_MAX_LOCAL_PORTS, why, sizeof(why));
	if (n <= 0) {
		free(locals);
		free(v);
		if (n < 0)
			return n;
		snprintf(f->error, sizeof(f->error), "%s", why);
		return 0;
	}
	f->ports = calloc((size_t)n, sizeof(*f->ports));
	v->sess = calloc((size_t)n, sizeof(*v->sess));
	if (!f->ports || !v->sess) {
		free(f->ports);
		f->ports = NULL;
		free(v->sess);
		free(v);
		free(locals);
		return -ENOMEM;
	}
	v->f = f;
	v->mem_budget = (ctx->fabric_mem_mb ? ctx->fabric_mem_mb : CTX_FABRIC_MEM_MB) << 20;
	v->smps = ctx->fabric_smps;
	f->nports = (size_t)n;
	for (int i = 0; i < n; i++) {
		struct ib_local_port *lp = &f->ports[i];

		snprintf(lp->ca, sizeof(lp->ca), "%s", locals[i].ca);
		lp->port = locals[i].port;
		snprintf(lp->umad_dev, sizeof(lp->umad_dev), "%s", locals[i].dev);
		if (mad_session_open(&v->sess[i], ctx, &locals[i], why, sizeof(why))) {
			v->sess[i] = NULL;
			lp->self_state = IBQ_ERROR;
			snprintf(lp->note, sizeof(lp->note), "%s", why);
			/* The first refusal explains all of them. */
			if (!f->error[0])
				snprintf(f->error, sizeof(f->error), "%s", why);
		}
	}
	free(locals);
	*out = v;
	return 0;
}

void mad_fabric_query_ports(struct mad_fabric *v, uint64_t now_ns)
{
	for (size_t i = 0; i < v->f->nports; i++)
		if (v->sess[i])
			mad_port_query(v->sess[i], &v->f->ports[i], now_ns);
}

void mad_fabric_pma_refresh(struct mad_fabric *v, unsigned int ends, uint64_t now_ns)
{
	for (size_t i = 0; i < v->f->nports; i++)
		if (v->sess[i])
			mad_port_pma_refresh(v->sess[i], &v->f->ports[i], ends, now_ns);
}

int mad_fabric_step(struct mad_fabric *v, uint64_t now_ns)
{
	int done = 0;

	for (size_t i = 0; i < v->f->nports; i++) {
		int rc;

		if (!v->sess[i])
			continue;
		rc = mad_step(v->sess[i], now_ns);
		if (rc > 0)
			done += rc;
	}
	return done;
}

bool mad_fabric_idle(const struct mad_fabric *v)
{
	for (size_t i = 0; i < v->f->nports; i++)
		if (v->sess[i] && !mad_idle(v->sess[i]))
			return false;
	return true;
}

int mad_fabric_timeout_ms(const struct mad_fabric *v, uint64_t now_ns)
{
	int best = -1;

	for (size_t i = 0; i < v->f->nports; i++) {
		int t;

		if (!v->sess[i])
			continue;
		t = mad_next_timeout_ms(v->sess[i], now_ns);
		if (t >= 0 && (best < 0 || t < best))
			best = t;
	}
	return best;
}

int mad_fabric_fds(const struct mad_fabric *v, int *fds, int max)
{
	int n = 0;

	for (size_t i = 0; i < v->f->nports && n < max; i++)
		if (v->sess[i] && mad_fd(v->sess[i]) >= 0)
			fds[n++] = mad_fd(v->sess[i]);
	return n;
}

struct mad_session *mad_fabric_session(const struct mad_fabric *v, size_t port)
{
	return port < v->f->nports ? v->sess[port] : NULL;
}

void mad_fabric_cancel(struct mad_fabric *v)
{
	for (size_t i = 0; i < v->f->nports; i++)
		if (v->sess[i])
			mad_cancel_all(v->sess[i]);
}

int mad_fabric_sweep_begin(struct mad_fabric *v, const struct mad_sweep_limits *lim, uint64_t now_ns)
{
	struct ib_fabric *f = v->f;
	struct mad_sweep_limits l;

	if (v->sw)
		return -EBUSY;
	lim = view_lim(v, lim, &l);
	for (size_t i = 0; i < f->nports; i++) {
		const struct ib_local_port *lp = &f->ports[i];

		if (!v->sess[i] || (lp->self_state == IBQ_OK && lp->pi.phys_state != PHYS_STATE_LINK_UP))
			continue;
		v->sw = mad_sweep_start(v->sess[i], f, lp->port, lim, now_ns);
		if (!v->sw)
			return -ENOMEM;
		v->sw->via = i;
		v->sw_port = i;
		v->sw_sent0 = mad_session_stats(v->sess[i])->sent;
		/* Driven from a shared poll loop: a simulator's session is looked at every few ms only. */
		sweep_opts(v->sess[i], sweep_window(v, v->sess[i], true), &v->sw_saved);
		f->sweep_window = mad_session_get_opts(v->sess[i])->window;
		f->sweep_from = i;
		return 0;
	}
	return -ENODEV;
}

bool mad_fabric_sweeping(const struct mad_fabric *v)
{
	return v->sw && v->sw->outstanding;
}

void mad_fabric_sweep_end(struct mad_fabric *v, uint64_t now_ns)
{
	if (!v->sw)
		return;
	mad_session_set_opts(v->sess[v->sw_port], &v->sw_saved);
	v->f->sweep_mads += mad_session_stats(v->sess[v->sw_port])->sent - v->sw_sent0;
	v->f->sweep_peak = mad_session_stats(v->sess[v->sw_port])->peak;
	mad_sweep_finish(v->sw, now_ns);
	v->sw = NULL;
}

/* Synchronous: step until idle or deadline_ns. */
static int mad_fabric_run(struct mad_fabric *v, uint64_t deadline_ns)
{
	int rc = 0;

	/* Sessions run one after another; each is bounded by the same deadline. */
	for (size_t i = 0; i < v->f->nports; i++)
		if (v->sess[i] && mad_run(v->sess[i], deadline_ns) == -ETIMEDOUT)
			rc = -ETIMEDOUT;
	return rc;
}

/*
 * Synchronous sweep bounded by lim and deadline_ns: the whole fabric from the
 * first usable port, then one hop out of every other (a second fabric is
 * swept too; the same fabric costs one MAD).
 */
static int mad_fabric_sweep(struct mad_fabric *v, const struct mad_sweep_limits *lim, uint64_t deadline_ns)
{
	struct ib_fabric *f = v->f;
	struct mad_opts saved;
	struct mad_sweep_limits l;
	bool first = true;

	lim = view_lim(v, lim, &l);
	/*
	 * From the first usable port the whole fabric; from every other port
	 * one hop out, which costs one MAD on the same fabric and sweeps a
	 * second fabric (dual-rail hosts) when it leads somewhere new.
	 */
	for (size_t i = 0; i < f->nports; i++) {
		const struct ib_local_port *lp = &f->ports[i];
		struct mad_sweep *sw;
		uint64_t sent0;

		if (!v->sess[i] || (lp->self_state == IBQ_OK && lp->pi.phys_state != PHYS_STATE_LINK_UP))
			continue;
		if (!first && lp->self_state != IBQ_OK)
			continue;	/* its own node is unknown: nothing to hang a second sweep on */
		sent0 = mad_session_stats(v->sess[i])->sent;
		if (first)
			sw = mad_sweep_start(v->sess[i], f, lp->port, lim, util_now_ns());
		else
			sw = mad_sweep_start_more(v->sess[i], f, lp->node.node_guid, lp->port, lim, util_now_ns());
		if (!sw) {
			if (first)
				return -ENOMEM;
			continue;
		}
		sw->via = i;
		sweep_opts(v->sess[i], sweep_window(v, v->sess[i], false), &saved);
		if (first)
			f->sweep_window = mad_session_get_opts(v->sess[i])->window;
		if (mad_run(v->sess[i], deadline_ns) == -ETIMEDOUT)
			f->truncated_time = true;
		mad_session_set_opts(v->sess[i], &saved);
		mad_sweep_finish(sw, util_now_ns());
		f->sweep_mads += mad_session_stats(v->sess[i])->sent - sent0;
		if (first) {
			f->sweep_from = i;
			f->sweep_peak = mad_session_stats(v->sess[i])->peak;
		}
		first = false;
	}
	return 0;
}

/* ---- the PMA counters of every swept port ---- */

/*
 * The counters of every port the sweep found, by LID (so from ACTIVE local
 * ports only, each asking the nodes its own sweep found), one step of
 * mad/mad_fpma.h per node. Bounded by deadline_ns like the sweep:
 * requests left then are cancelled and their ports stay pending.
 */
static void mad_fabric_pma_sweep(struct mad_fabric *v, uint64_t deadline_ns)
{
	struct ib_fabric *f = v->f;
	struct mad_fpma run;
	struct mad_opts saved;
	uint64_t start = util_now_ns();

	mad_fpma_init(&run, f);
	for (size_t i = 0; i < f->nports; i++) {
		const struct ib_local_port *lp = &f->ports[i];
		uint64_t sent0;

		if (!v->sess[i] || lp->self_state != IBQ_OK || lp->pi.state != PORT_STATE_ACTIVE)
			continue;
		sent0 = mad_session_stats(v->sess[i])->sent;
		sweep_opts(v->sess[i], SWEEP_PMA_WINDOW, &saved);
		for (size_t k = 0; k < f->nnodes; k++)
			if (f->nodes[k].via == i)
				mad_fpma_node(&run, v->sess[i], k, start);
		mad_run(v->sess[i], deadline_ns);
		mad_session_set_opts(v->sess[i], &saved);
		f->pma_mads += mad_session_stats(v->sess[i])->sent - sent0;
		f->pma_swept = true;
	}
	mad_fpma_tally(&run);
	mad_fpma_free(&run);
	f->pma_ns = util_now_ns() - start;
}

/* The sessions' MAD counts so far into f (mads_sent, ...). */
static void mad_fabric_tally(struct mad_fabric *v)
{
	struct ib_fabric *f = v->f;

	f->mads_sent = f->mads_received = f->mads_timeout = f->mads_retried = 0;
	for (size_t i = 0; i < f->nports; i++) {
		const struct mad_stats *st;

		if (!v->sess[i])
			continue;
		st = mad_session_stats(v->sess[i]);
		f->mads_sent += st->sent;
		f->mads_received += st->received;
		f->mads_timeout += st->timeouts;
		f->mads_retried += st->retries;
	}
}

void mad_fabric_close(struct mad_fabric *v)
{
	if (!v)
		return;
	mad_fabric_sweep_end(v, util_now_ns());
	mad_fabric_tally(v);
	for (size_t i = 0; i < v->f->nports; i++)
		mad_session_close(v->sess[i]);
	free(v->sess);
	free(v);
}

/* ---- the one-shot collector ---- */

int mad_fabric_take(const struct fab_ctx *ctx, struct ib_fabric *f, unsigned int what,
		    const struct mad_sweep_limits *lim, uint64_t deadline_ns, struct mad_fabric **vp)
{
	struct mad_fabric *v;
	int rc = mad_fabric_open(ctx, f, &v);

	*vp = NULL;
	if (rc || !v)
		return rc;
	if (what & MADF_PORTS) {
		mad_fabric_query_ports(v, util_now_ns());
		mad_fabric_run(v, deadline_ns);
		for (size_t i = 0; i < f->nports; i++)
			if (f->ports[i].self_state != IBQ_ERROR || !f->ports[i].note[0])
				mad_port_explain(&f->ports[i]);
	}
	if (what & MADF_SWEEP)
		rc = mad_fabric_sweep(v, lim, deadline_ns);
	if (!rc && (what & MADF_SWEEP) && (what & MADF_PMA))
		mad_fabric_pma_sweep(v, deadline_ns);
	mad_fabric_tally(v);
	*vp = v;
	return rc;
}

int mad_fabric_collect(const struct fab_ctx *ctx, struct ib_fabric *f, unsigned int what,
		       const struct mad_sweep_limits *lim, uint64_t deadline_ns)
{
	struct mad_fabric *v;
	int rc = mad_fabric_take(ctx, f, what, lim, deadline_ns, &v);

	mad_fabric_close(v);
	return rc;
}

/* Each later PMA sample (both ends of every port) ends within this. */
#define MAD_SAMPLE_DEADLINE_NS (5ull * 1000000000ull)

void mad_fabric_sample(struct mad_fabric *v, unsigned int ends, double interval_s)
{
	uint64_t ns = interval_s > 0 ? (uint64_t)(interval_s * 1e9) : 0;
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	mad_fabric_pma_refresh(v, ends, util_now_ns());
	mad_fabric_run(v, util_now_ns() + MAD_SAMPLE_DEADLINE_NS);
}
