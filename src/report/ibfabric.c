// SPDX-License-Identifier: GPL-2.0-or-later
/* The IB fabric view (iblinkinfo-like links, both ends' PMA counters), text or JSON from one walk. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cmd/commands.h"
#include "derive/counters.h"
#include "derive/mad_decode.h"
#include "report/ibfabric.h"

void ibfabric_guid_str(uint64_t guid, char *buf, size_t size)
{
	snprintf(buf, size, "%04x:%04x:%04x:%04x", (unsigned int)(guid >> 48) & 0xffff,
		 (unsigned int)(guid >> 32) & 0xffff, (unsigned int)(guid >> 16) & 0xffff,
		 (unsigned int)guid & 0xffff);
}

static const char *desc_or(const char *d)
{
	return d && d[0] ? d : "?";
}

static void link_str(const struct ib_port_id *p, char *buf, size_t size)
{
	if (p->phys_state == PHYS_STATE_LINK_UP)
		snprintf(buf, size, "%s %s %s/%s", mad_link_width_str(p->width),
			 mad_link_speed_str(p->speed, p->speed_ext),
			 mad_port_state_str(p->state), mad_phys_state_str(p->phys_state));
	else
		snprintf(buf, size, "%s/%s", mad_port_state_str(p->state), mad_phys_state_str(p->phys_state));
}

static const struct fab_counter *pma_get(const struct ib_pma *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->c[i].name, name))
			return &p->c[i];
	return NULL;
}

static void counter_cell(const struct fab_counter *c, char *buf, size_t size)
{
	if (!c || !c->known)
		snprintf(buf, size, "-");
	else if (c->saturated)
		snprintf(buf, size, "saturated");
	else
		snprintf(buf, size, "%" PRIu64, c->value);
}

static void pma_state_text(const struct ib_pma *p, char *buf, size_t size)
{
	if (p->state == IBQ_OK)
		snprintf(buf, size, "LID %u port %u, %s", p->lid, p->port_select,
			 p->ext ? (p->ext_failed ? "extended advertised but failed: 32-bit"
						 : "PortCountersExtended (64-bit)")
				: "PortCounters only (32-bit data)");
	else if (p->state == IBQ_STATUS)
		snprintf(buf, size, "LID %u: %s", p->lid, mad_status_str(p->status));
	else
		snprintf(buf, size, "%s", p->state == IBQ_NONE ? "not asked (the PMA is reached by LID: needs both ends ACTIVE)"
							       : ib_query_state_str(p->state));
}

/* JSON: a port's identity, state and link (its text is link_str()). */
static void port_id_json(struct out *o, const struct ib_port_id *p)
{
	double gbps = mad_link_gbps(p->width, p->speed, p->speed_ext);
	bool up = p->phys_state == PHYS_STATE_LINK_UP;

	out_uint(o, PRINT_JSON, "lid", p->lid, NULL);
	out_str(o, PRINT_JSON, "state", mad_port_state_str(p->state), NULL);
	out_str(o, PRINT_JSON, "phys_state", mad_phys_state_str(p->phys_state), NULL);
	out_str(o, PRINT_JSON, "width", up ? mad_link_width_str(p->width) : NULL, NULL);
	out_str(o, PRINT_JSON, "speed", up ? mad_link_speed_str(p->speed, p->speed_ext) : NULL, NULL);
	if (up && gbps > 0)
		out_float(o, PRINT_JSON, "rate_gbps", gbps, 3, NULL);
	else
		out_null(o, PRINT_JSON, "rate_gbps", NULL);
}

static void guid_json(struct out *o, const char *key, uint64_t guid)
{
	char g[24];

	ibfabric_guid_str(guid, g, sizeof(g));
	out_str(o, PRINT_JSON, key, g, NULL);
}

/* JSON: a local port's (or its partner's) PMA with every counter. */
static void pma_json(struct out *o, const char *key, const struct ib_pma *p)
{
	out_obj_open(o, key);
	out_str(o, PRINT_JSON, "state", ib_query_state_str(p->state), NULL);
	out_uint(o, PRINT_JSON, "lid", p->lid, NULL);
	out_uint(o, PRINT_JSON, "port_select", p->port_select, NULL);
	if (p->cpi_known)
		out_uint(o, PRINT_JSON, "cap_mask", p->cap_mask, NULL);
	else
		out_null(o, PRINT_JSON, "cap_mask", NULL);
	out_bool(o, PRINT_JSON, "extended", p->ext && !p->ext_failed, NULL);
	out_arr_open(o, "counters");
	for (size_t i = 0; i < p->n; i++) {
		const struct fab_counter *c = &p->c[i];

		out_obj_open(o, NULL);
		out_str(o, PRINT_JSON, "name", c->name, NULL);
		out_str(o, PRINT_JSON, "source", fab_counter_source_str(c->source), NULL);
		if (c->known && !c->saturated)
			out_uint(o, PRINT_JSON, "value", c->value, NULL);
		else
			out_null(o, PRINT_JSON, "value", NULL);
		out_uint(o, PRINT_JSON, "bits", c->bits, NULL);
		out_bool(o, PRINT_JSON, "saturated", c->saturated, NULL);
		out_obj_close(o);
	}
	out_arr_close(o);
	out_obj_close(o);
}

/* Text: the PMA of both ends, and their counters side by side. */
static void pmas_text(struct out *o, const struct ib_local_port *lp)
{
	char a[64], b[64];

	if (!out_text(o))
		return;
	pma_state_text(&lp->pma, a, sizeof(a));
	pma_state_text(&lp->peer_pma, b, sizeof(b));
	if (ib_local_port_is_management(lp))
		snprintf(b, sizeof(b), "none (no cable)");
	out_printf(o, "  PMA local: %s\n  PMA partner: %s\n", a, b);
	if (lp->pma.n || lp->peer_pma.n) {
		const struct ib_pma *src = lp->pma.n ? &lp->pma : &lp->peer_pma;

		out_printf(o, "    %-34s %20s %20s\n", "counter", "local", "partner");
		for (size_t i = 0; i < src->n; i++) {
			const char *name = src->c[i].name;

			counter_cell(pma_get(&lp->pma, name), a, sizeof(a));
			counter_cell(pma_get(&lp->peer_pma, name), b, sizeof(b));
			out_printf(o, "    %-34s %20s %20s\n", name, a, b);
		}
	}
}

/* The subnet manager a local port knows of. */
static void sm_out(struct out *o, const struct ib_local_port *lp)
{
	char g[24];

	ibfabric_guid_str(lp->sm.guid, g, sizeof(g));
	out_obj_open(o, "sm");
	out_uint(o, PRINT_JSON, "lid", lp->sm.lid, NULL);
	out_uint(o, PRINT_JSON, "sl", lp->sm.sl, NULL);
	out_str(o, PRINT_JSON, "query", ib_query_state_str(lp->sm.state), NULL);
	if (!lp->sm.lid)
		out_printf(o, "  SM: none known (SM LID 0)\n");
	else if (lp->sm.state != IBQ_OK)
		out_printf(o, "  SM: LID %u SL %u, SMInfo %s\n", lp->sm.lid, lp->sm.sl, ib_query_state_str(lp->sm.state));
	if (lp->sm.state == IBQ_OK) {
		const char *st = mad_sm_state_str(lp->sm.sm_state);

		out_str(o, lp->sm.lid ? PRINT_ANY : PRINT_JSON, "guid", g, "  SM: LID %u SL %u, %s, priority %u, GUID %s\n",
			lp->sm.lid, lp->sm.sl, st, lp->sm.priority, g);
		out_uint(o, PRINT_JSON, "priority", lp->sm.priority, NULL);
		out_str(o, PRINT_JSON, "state", st, NULL);
	}
	out_obj_close(o);
}

/* The node at the other end of a local port's cable. */
static void partner_out(struct out *o, const struct ib_local_port *lp)
{
	char g[24], l[96];

	if (lp->peer_state != IBQ_OK) {
		out_null(o, PRINT_JSON, "partner", NULL);
		if (ib_local_port_is_management(lp))
			out_printf(o, "  partner: %s\n", IB_MANAGEMENT_PORT_TEXT);
		else
			out_printf(o, "  partner: %s\n", lp->peer_state == IBQ_NONE ? "none (link not up)" :
				   ib_query_state_str(lp->peer_state));
		return;
	}
	ibfabric_guid_str(lp->peer.node_guid, g, sizeof(g));
	link_str(&lp->peer_pi, l, sizeof(l));
	out_obj_open(o, "partner");
	out_str(o, PRINT_JSON, "node_guid", g, NULL);
	out_str(o, PRINT_ANY, "node_type", mad_node_type_str(lp->peer.node_type), "  partner: %s \"%s\" %s port %u, LID %u, %s\n",
		mad_node_type_str(lp->peer.node_type), desc_or(lp->peer.desc), g, lp->peer_pi.num, lp->peer_pi.lid, l);
	out_str(o, PRINT_JSON, "node_desc", lp->peer.desc, NULL);
	out_uint(o, PRINT_JSON, "port", lp->peer_pi.num, NULL);
	port_id_json(o, &lp->peer_pi);
	out_obj_close(o);
}

static void local_port_out(struct out *o, const struct ib_local_port *lp)
{
	bool ok = lp->self_state == IBQ_OK;
	const char *q = ib_query_state_str(lp->self_state);
	char g[24], l[96];

	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "device", lp->ca, "%s", lp->ca);
	out_uint(o, PRINT_ANY, "port", lp->port, " port %u", lp->port);
	out_str_or_null(o, PRINT_ANY, "umad", lp->umad_dev, lp->umad_dev[0] ? " (%s)" : NULL, lp->umad_dev);
	out_str(o, PRINT_ANY, "query", q, ok ? NULL : ": %s\n", lp->note[0] ? lp->note : q);
	if (ok) {
		link_str(&lp->pi, l, sizeof(l));
		ibfabric_guid_str(lp->node.node_guid, g, sizeof(g));
		out_str(o, PRINT_JSON, "node_guid", g, NULL);
		out_str(o, PRINT_ANY, "node_desc", lp->node.desc, ": LID %u, %s, node %s \"%s\"\n", lp->pi.lid, l, g,
			desc_or(lp->node.desc));
		port_id_json(o, &lp->pi);
		sm_out(o, lp);
		partner_out(o, lp);
		out_bool(o, PRINT_JSON, "management_port", ib_local_port_is_management(lp), NULL);
		pma_json(o, "pma", &lp->pma);
		pma_json(o, "partner_pma", &lp->peer_pma);
		pmas_text(o, lp);
	}
	out_str_or_null(o, PRINT_ANY, "note", lp->note, ok && lp->note[0] ? "  note: %s\n" : NULL, lp->note);
	out_obj_close(o);
}

/* A CA port has its own LID; a switch has one, on port 0. */
static unsigned int fnode_port_lid(const struct ib_fnode *n, unsigned int port)
{
	if (n->id.node_type != 2 && port <= n->id.num_ports && n->ports[port].known)
		return n->ports[port].pi.lid;
	return n->lid;
}

/*
 * A swept port's PMA. Text, at the end of its line: the error counters
 * above 0 (as ibqueryerrors lists them), or why there are no counters.
 * JSON, compact (a fabric has thousands of ports): the values by name,
 * null when unknown or saturated, and which are saturated.
 */
static void fport_pma_out(struct out *o, const struct ib_pma *p, bool text)
{
	const char *st = ib_query_state_str(p->state);
	size_t nerr = 0;

	out_obj_open(o, "pma");
	out_str(o, text && p->state != IBQ_OK ? PRINT_ANY : PRINT_JSON, "state", st, "  [PMA %s]", st);
	out_uint(o, PRINT_JSON, "lid", p->lid, NULL);
	out_bool(o, PRINT_JSON, "extended", p->ext && !p->ext_failed, NULL);
	out_obj_open(o, "counters");
	for (size_t i = 0; i < p->n; i++) {
		const struct fab_counter *c = &p->c[i];
		bool err = text && p->state == IBQ_OK && c->kind == COUNTER_KIND_ERROR && c->known &&
			   (c->value || c->saturated);

		if (err)
			out_printf(o, "%s%s=", nerr++ ? ", " : "  [errors: ", c->name);
		if (c->known && !c->saturated)
			out_uint(o, err ? PRINT_ANY : PRINT_JSON, c->name, c->value, "%" PRIu64, c->value);
		else
			out_null(o, err ? PRINT_ANY : PRINT_JSON, c->name, "saturated");
	}
	out_obj_close(o);
	if (nerr)
		out_printf(o, "]");
	out_arr_open(o, "saturated");
	for (size_t i = 0; i < p->n; i++)
		if (p->c[i].saturated)
			out_str(o, PRINT_JSON, NULL, p->c[i].name, NULL);
	out_arr_close(o);
	out_obj_close(o);
}

/* A swept node's port: its line in text (the link, the node across it, error counters), its state in JSON. */
static void fport_out(struct out *o, const struct ib_fabric *f, const struct ib_fnode *n, unsigned int p)
{
	const struct ib_fport *fp = &n->ports[p];
	char g[24], l[96];

	out_obj_open(o, NULL);
	out_uint(o, PRINT_ANY, "port", p, "  %3u ", p);
	if (!fp->known) {
		out_printf(o, " (PortInfo not answered)\n");
	} else {
		link_str(&fp->pi, l, sizeof(l));
		out_uint(o, PRINT_JSON, "lid", fnode_port_lid(n, p), NULL);
		out_str(o, PRINT_JSON, "state", mad_port_state_str(fp->pi.state), NULL);
		out_str(o, PRINT_JSON, "phys_state", mad_phys_state_str(fp->pi.phys_state), NULL);
		if (fp->linked) {
			const struct ib_fnode *m = &f->nodes[fp->peer];

			ibfabric_guid_str(m->id.node_guid, g, sizeof(g));
			out_printf(o, "==( %-28s )==> %s \"%s\" port %u, LID %u", l, g, desc_or(m->id.desc),
				   fp->peer_port, fnode_port_lid(m, fp->peer_port));
		} else {
			out_printf(o, "==( %-28s )==>%s", l, fp->pi.phys_state == PHYS_STATE_LINK_UP ? " (not explored)" : "");
		}
	}
	if (fp->pma)
		fport_pma_out(o, fp->pma, fp->known);
	if (fp->known)
		out_printf(o, "\n");
	out_obj_close(o);
}

static void node_out(struct out *o, const struct ib_fabric *f, const struct ib_fnode *n)
{
	const char *type = mad_node_type_str(n->id.node_type);
	char g[24];

	ibfabric_guid_str(n->id.node_guid, g, sizeof(g));
	out_obj_open(o, NULL);
	out_str(o, PRINT_JSON, "node_guid", g, NULL);
	out_str(o, PRINT_ANY, "node_type", type, "%s %s \"%s\" LID %u, %u ports, %u hops\n", type, g,
		desc_or(n->id.desc), n->lid, n->id.num_ports, n->hops);
	out_str(o, PRINT_JSON, "node_desc", n->id.desc, NULL);
	out_uint(o, PRINT_JSON, "lid", n->lid, NULL);
	out_uint(o, PRINT_JSON, "ports", n->id.num_ports, NULL);
	out_arr_open(o, "port_states");
	for (unsigned int p = 1; p <= n->id.num_ports; p++)
		fport_out(o, f, n, p);
	out_arr_close(o);
	out_uint(o, PRINT_JSON, "hops", n->hops, NULL);
	out_obj_close(o);
}

/* JSON: every link the sweep found, from one end to the other. */
static void link_json(struct out *o, const struct ib_fabric *f, const struct ib_link *l)
{
	const struct ib_fnode *a = &f->nodes[l->a], *b = &f->nodes[l->b];

	out_obj_open(o, NULL);
	guid_json(o, "from_guid", a->id.node_guid);
	out_str(o, PRINT_JSON, "from_desc", a->id.desc, NULL);
	out_uint(o, PRINT_JSON, "from_port", l->a_port, NULL);
	guid_json(o, "to_guid", b->id.node_guid);
	out_str(o, PRINT_JSON, "to_desc", b->id.desc, NULL);
	out_uint(o, PRINT_JSON, "to_port", l->b_port, NULL);
	out_uint(o, PRINT_JSON, "to_lid", fnode_port_lid(b, l->b_port), NULL);
	if (a->ports[l->a_port].known) {
		const struct ib_port_id *p = &a->ports[l->a_port].pi;
		double gbps = mad_link_gbps(p->width, p->speed, p->speed_ext);

		out_str(o, PRINT_JSON, "state", mad_port_state_str(p->state), NULL);
		out_str(o, PRINT_JSON, "phys_state", mad_phys_state_str(p->phys_state), NULL);
		out_str(o, PRINT_JSON, "width", mad_link_width_str(p->width), NULL);
		out_str(o, PRINT_JSON, "speed", mad_link_speed_str(p->speed, p->speed_ext), NULL);
		if (gbps > 0)
			out_float(o, PRINT_JSON, "rate_gbps", gbps, 3, NULL);
		else
			out_null(o, PRINT_JSON, "rate_gbps", NULL);
	}
	out_obj_close(o);
}

/* Text: what bounded or contradicted the sweep, and what its tables take. */
static void sweep_notes_text(struct out *o, const struct ib_fabric *f)
{
	char g[24];

	if (f->truncated_mem)
		out_printf(o, "STOPPED at the memory bound: the subnet has more nodes than %zu MiB of tables hold "
			   "(--fabric-mem MB raises it)\n", f->mem_budget >> 20);
	if (f->guid_conflicts) {
		ibfabric_guid_str(f->guid_conflict, g, sizeof(g));
		out_printf(o, "%zu %s the sweep (node GUID %s first): a GUID used by more than one "
			   "node, or the fabric changed while it was swept; those parts are left out\n",
			   f->guid_conflicts, f->guid_conflicts == 1 ? "answer contradicts" : "answers contradict", g);
	}
	out_printf(o, "Memory of the tables: %.1f MiB (%.1f MiB per 1,000 nodes)\n",
		   (double)ib_fabric_mem_bytes(f) / 1048576.0,
		   f->nnodes ? (double)ib_fabric_mem_bytes(f) / 1048576.0 * 1000.0 / (double)f->nnodes : 0.0);
}

/* The sweep's figures: one line in text (two with the PMA sweep), an object in JSON. */
static void sweep_out(struct out *o, const struct ib_fabric *f)
{
	double ms = (double)f->sweep_ns / 1e6, pma_ms = (double)f->pma_ns / 1e6;

	if (f->swept)
		out_printf(o, "\nFabric from %s port %u: %zu nodes, %zu links; sweep %.1f ms, %" PRIu64
			   " MADs (%" PRIu64 " in all), %" PRIu64 " timeouts%s%s\n",
			   f->ports[f->sweep_from].ca, f->ports[f->sweep_from].port, f->nnodes, f->nlinks, ms,
			   f->sweep_mads, f->mads_sent, f->mads_timeout,
			   f->truncated_nodes ? "; STOPPED at the node limit" : "",
			   f->truncated_time ? "; STOPPED at the time limit" : "");
	if (f->swept)
		sweep_notes_text(o, f);
	if (f->swept && f->pma_swept)
		out_printf(o, "PMA counters of every port that is up: %zu ports, %zu answered; %.1f ms, %" PRIu64
			   " MADs (%" PRIu64 " nodes took their model's ClassPortInfo)\n", f->pma_ports, f->pma_answered,
			   pma_ms, f->pma_mads, f->pma_cpi_shared);
	out_obj_open(o, "sweep");
	out_bool(o, PRINT_JSON, "done", f->swept, NULL);
	out_float(o, PRINT_JSON, "elapsed_ms", ms, 3, NULL);
	out_uint(o, PRINT_JSON, "sweep_mads", f->sweep_mads, NULL);
	out_uint(o, PRINT_JSON, "smps_window", f->sweep_window, NULL);
	out_uint(o, PRINT_JSON, "smps_peak", f->sweep_peak, NULL);
	out_uint(o, PRINT_JSON, "mads_sent", f->mads_sent, NULL);
	out_uint(o, PRINT_JSON, "mads_received", f->mads_received, NULL);
	out_uint(o, PRINT_JSON, "timeouts", f->mads_timeout, NULL);
	out_uint(o, PRINT_JSON, "retries", f->mads_retried, NULL);
	out_bool(o, PRINT_JSON, "truncated_nodes", f->truncated_nodes, NULL);
	out_bool(o, PRINT_JSON, "truncated_time", f->truncated_time, NULL);
	out_bool(o, PRINT_JSON, "truncated_memory", f->truncated_mem, NULL);
	out_uint(o, PRINT_JSON, "guid_conflicts", f->guid_conflicts, NULL);
	if (f->guid_conflicts)
		guid_json(o, "guid_conflict", f->guid_conflict);
	out_uint(o, PRINT_JSON, "memory_budget_bytes", f->mem_budget, NULL);
	out_uint(o, PRINT_JSON, "memory_bytes", ib_fabric_mem_bytes(f), NULL);
	out_uint(o, PRINT_JSON, "memory_per_1000_nodes_bytes",
		 f->nnodes ? ib_fabric_mem_bytes(f) * 1000 / f->nnodes : 0, NULL);
	out_bool(o, PRINT_JSON, "pma_swept", f->pma_swept, NULL);
	out_uint(o, PRINT_JSON, "pma_ports", f->pma_ports, NULL);
	out_uint(o, PRINT_JSON, "pma_answered", f->pma_answered, NULL);
	out_float(o, PRINT_JSON, "pma_elapsed_ms", pma_ms, 3, NULL);
	out_uint(o, PRINT_JSON, "pma_mads", f->pma_mads, NULL);
	out_uint(o, PRINT_JSON, "pma_cpi_shared", f->pma_cpi_shared, NULL);
	out_obj_close(o);
}

void ibfabric_report(struct out *o, const struct ib_fabric *f)
{
	out_obj_open(o, "fabric");
	out_str_or_null(o, PRINT_JSON, "error", f->error, NULL);
	/* text says why there is nothing, or that there was no sweep, and stops; JSON has every member */
	if (f->error[0] && !f->nports && !out_is_json(o)) {
		out_printf(o, "InfiniBand management unavailable: %s\n", f->error);
		return;
	}
	out_printf(o, "Local InfiniBand ports (MADs through libibumad):\n");
	out_arr_open(o, "local_ports");
	for (size_t i = 0; i < f->nports; i++)
		local_port_out(o, &f->ports[i]);
	out_arr_close(o);
	if (!f->swept && !out_is_json(o)) {
		out_printf(o, "\nFabric: not swept (no usable local port)\n");
		return;
	}
	/* the sweep's figures come before the nodes in text, after the links in JSON */
	if (!out_is_json(o))
		sweep_out(o, f);
	out_arr_open(o, "nodes");
	for (size_t i = 0; i < f->nnodes; i++)
		node_out(o, f, &f->nodes[i]);
	out_arr_close(o);
	out_arr_open(o, "links");
	for (size_t i = 0; i < f->nlinks; i++)
		link_json(o, f, &f->links[i]);
	out_arr_close(o);
	if (out_is_json(o))
		sweep_out(o, f);
}

/* ---- rates between PMA samples ---- */

/* One end's rates between its last two samples. */
struct pma_rates {
	bool xmit_known, rcv_known;
	double xmit_bps, rcv_bps;	/* bytes per second (words x 4) */
	double xmit_pps, rcv_pps;
	bool pkts_known;
};

static void pma_rates(const struct ib_pma *p, struct pma_rates *r)
{
	uint64_t dt = p->sample_ns - p->prev_sample_ns;
	const struct fab_counter *c;

	memset(r, 0, sizeof(*r));
	if (!p->prev_sample_ns)
		return;
	if ((c = pma_get(p, "port_xmit_data")))
		r->xmit_known = counter_bytes_rate(c, dt, &r->xmit_bps);
	if ((c = pma_get(p, "port_rcv_data")))
		r->rcv_known = counter_bytes_rate(c, dt, &r->rcv_bps);
	if ((c = pma_get(p, "port_xmit_packets")))
		r->pkts_known = counter_rate(c, dt, &r->xmit_pps);
	if ((c = pma_get(p, "port_rcv_packets")))
		r->pkts_known = counter_rate(c, dt, &r->rcv_pps) && r->pkts_known;
}

static void rate_cell(bool known, double bps, char *buf, size_t size)
{
	if (known)
		snprintf(buf, size, "%.3f Gb/s", bps * 8 / 1e9);
	else
		snprintf(buf, size, "-");
}

/* One end's rates and the error counters that moved: a line in text (when text), an object in JSON. */
static void end_rates_out(struct out *o, const char *who, const struct ib_pma *p, bool text)
{
	enum out_to t = text ? PRINT_ANY : PRINT_JSON;
	struct pma_rates r;
	char x[32], rc[32];
	bool any = false;

	pma_rates(p, &r);
	rate_cell(r.xmit_known, r.xmit_bps, x, sizeof(x));
	rate_cell(r.rcv_known, r.rcv_bps, rc, sizeof(rc));
	out_obj_open(o, who);
	out_str(o, t, "state", ib_query_state_str(p->state), "    %-8s xmit %14s  rcv %14s  errors:", who, x, rc);
	out_float(o, PRINT_JSON, "xmit_bytes_per_s", r.xmit_known ? r.xmit_bps : NAN, 1, NULL);
	out_float(o, PRINT_JSON, "rcv_bytes_per_s", r.rcv_known ? r.rcv_bps : NAN, 1, NULL);
	out_arr_open(o, "error_deltas");
	for (size_t i = 0; i < p->n; i++) {
		uint64_t d;

		if (p->c[i].kind != COUNTER_KIND_ERROR || !counter_delta(&p->c[i], &d) || !d)
			continue;
		out_obj_open(o, NULL);
		out_str(o, t, "name", p->c[i].name, " %s", p->c[i].name);
		out_uint(o, t, "delta", d, " +%" PRIu64, d);
		out_obj_close(o);
		any = true;
	}
	out_arr_close(o);
	if (text)
		out_printf(o, "%s\n", any ? "" : (p->state == IBQ_OK ? " none" : " unknown"));
	out_obj_close(o);
}

void ibfabric_rates(struct out *o, const struct ib_fabric *f, unsigned int sample, double interval_s)
{
	out_obj_open(o, NULL);
	out_uint(o, PRINT_ANY, "sample", sample, "sample %u\n", sample);
	out_float(o, PRINT_JSON, "interval_s", interval_s, 3, NULL);
	out_arr_open(o, "ports");
	for (size_t i = 0; i < f->nports; i++) {
		const struct ib_local_port *lp = &f->ports[i];
		/* text leaves out a port whose PMA gave nothing at either end */
		bool text = lp->pma.n || lp->peer_pma.n;

		if (lp->self_state != IBQ_OK)
			continue;
		out_obj_open(o, NULL);
		out_str(o, text ? PRINT_ANY : PRINT_JSON, "device", lp->ca, "  %s port %u <-> %s port %u\n", lp->ca,
			lp->port, lp->peer_state == IBQ_OK ? desc_or(lp->peer.desc) : "?", lp->peer_pi.num);
		out_uint(o, PRINT_JSON, "port", lp->port, NULL);
		end_rates_out(o, "local", &lp->pma, text);
		end_rates_out(o, "partner", &lp->peer_pma, text);
		out_obj_close(o);
	}
	out_arr_close(o);
	out_obj_close(o);
}
