// SPDX-License-Identifier: GPL-2.0-or-later
/* Text and JSON of the IB fabric view (iblinkinfo-like links, both ends' PMA counters). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
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

static void local_port_text(FILE *out, const struct ib_local_port *lp)
{
	char g[24], l[96], a[64], b[64];

	fprintf(out, "%s port %u", lp->ca, lp->port);
	if (lp->umad_dev[0])
		fprintf(out, " (%s)", lp->umad_dev);
	if (lp->self_state != IBQ_OK) {
		fprintf(out, ": %s\n", lp->note[0] ? lp->note : ib_query_state_str(lp->self_state));
		return;
	}
	link_str(&lp->pi, l, sizeof(l));
	ibfabric_guid_str(lp->node.node_guid, g, sizeof(g));
	fprintf(out, ": LID %u, %s, node %s \"%s\"\n", lp->pi.lid, l, g, desc_or(lp->node.desc));

	fprintf(out, "  SM: ");
	if (!lp->sm.lid)
		fprintf(out, "none known (SM LID 0)\n");
	else if (lp->sm.state == IBQ_OK) {
		ibfabric_guid_str(lp->sm.guid, g, sizeof(g));
		fprintf(out, "LID %u SL %u, %s, priority %u, GUID %s\n", lp->sm.lid, lp->sm.sl,
			mad_sm_state_str(lp->sm.sm_state), lp->sm.priority, g);
	} else
		fprintf(out, "LID %u SL %u, SMInfo %s\n", lp->sm.lid, lp->sm.sl, ib_query_state_str(lp->sm.state));

	fprintf(out, "  partner: ");
	if (lp->peer_state == IBQ_OK) {
		ibfabric_guid_str(lp->peer.node_guid, g, sizeof(g));
		link_str(&lp->peer_pi, l, sizeof(l));
		fprintf(out, "%s \"%s\" %s port %u, LID %u, %s\n", mad_node_type_str(lp->peer.node_type),
			desc_or(lp->peer.desc), g, lp->peer_pi.num, lp->peer_pi.lid, l);
	} else if (ib_local_port_is_management(lp)) {
		fprintf(out, "%s\n", IB_MANAGEMENT_PORT_TEXT);
	} else {
		fprintf(out, "%s\n", lp->peer_state == IBQ_NONE ? "none (link not up)" : ib_query_state_str(lp->peer_state));
	}

	pma_state_text(&lp->pma, a, sizeof(a));
	pma_state_text(&lp->peer_pma, b, sizeof(b));
	if (ib_local_port_is_management(lp))
		snprintf(b, sizeof(b), "none (no cable)");
	fprintf(out, "  PMA local: %s\n  PMA partner: %s\n", a, b);
	if (lp->pma.n || lp->peer_pma.n) {
		const struct ib_pma *src = lp->pma.n ? &lp->pma : &lp->peer_pma;

		fprintf(out, "    %-34s %20s %20s\n", "counter", "local", "partner");
		for (size_t i = 0; i < src->n; i++) {
			const char *name = src->c[i].name;

			counter_cell(pma_get(&lp->pma, name), a, sizeof(a));
			counter_cell(pma_get(&lp->peer_pma, name), b, sizeof(b));
			fprintf(out, "    %-34s %20s %20s\n", name, a, b);
		}
	}
	if (lp->note[0])
		fprintf(out, "  note: %s\n", lp->note);
}

/* A CA port has its own LID; a switch has one, on port 0. */
static unsigned int fnode_port_lid(const struct ib_fnode *n, unsigned int port)
{
	if (n->id.node_type != 2 && port <= n->id.num_ports && n->ports[port].known)
		return n->ports[port].pi.lid;
	return n->lid;
}

/*
 * What a swept port's PMA says, for the end of its line: the error counters
 * above 0 (as ibqueryerrors lists them), or why there are no counters; ""
 * when it was not asked or all is well.
 */
static void fport_pma_text(const struct ib_fport *fp, char *buf, size_t size)
{
	size_t off = 0;

	buf[0] = '\0';
	if (!fp->pma)
		return;
	if (fp->pma->state != IBQ_OK) {
		snprintf(buf, size, "  [PMA %s]", ib_query_state_str(fp->pma->state));
		return;
	}
	for (size_t i = 0; i < fp->pma->n && off < size; i++) {
		const struct fab_counter *c = &fp->pma->c[i];
		int k;

		if (c->kind != COUNTER_KIND_ERROR || !c->known || (!c->value && !c->saturated))
			continue;
		if (c->saturated)
			k = snprintf(buf + off, size - off, "%s%s=saturated", off ? ", " : "  [errors: ", c->name);
		else
			k = snprintf(buf + off, size - off, "%s%s=%" PRIu64, off ? ", " : "  [errors: ", c->name,
				     c->value);
		if (k > 0)
			off += (size_t)k;
	}
	if (off && off + 1 < size)
		snprintf(buf + off, size - off, "]");
}

static void node_text(FILE *out, const struct ib_fabric *f, const struct ib_fnode *n)
{
	char g[24], l[96], e[256];

	ibfabric_guid_str(n->id.node_guid, g, sizeof(g));
	fprintf(out, "%s %s \"%s\" LID %u, %u ports, %u hops\n", mad_node_type_str(n->id.node_type), g,
		desc_or(n->id.desc), n->lid, n->id.num_ports, n->hops);
	for (unsigned int p = 1; p <= n->id.num_ports; p++) {
		const struct ib_fport *fp = &n->ports[p];

		if (!fp->known) {
			fprintf(out, "  %3u  (PortInfo not answered)\n", p);
			continue;
		}
		link_str(&fp->pi, l, sizeof(l));
		fport_pma_text(fp, e, sizeof(e));
		if (fp->linked) {
			const struct ib_fnode *m = &f->nodes[fp->peer];

			ibfabric_guid_str(m->id.node_guid, g, sizeof(g));
			fprintf(out, "  %3u ==( %-28s )==> %s \"%s\" port %u, LID %u%s\n", p, l, g,
				desc_or(m->id.desc), fp->peer_port, fnode_port_lid(m, fp->peer_port), e);
		} else {
			fprintf(out, "  %3u ==( %-28s )==>%s%s\n", p, l,
				fp->pi.phys_state == PHYS_STATE_LINK_UP ? " (not explored)" : "", e);
		}
	}
}

/* What bounded or contradicted the sweep, and what its tables take. */
static void sweep_notes_text(FILE *out, const struct ib_fabric *f)
{
	char g[24];

	if (f->truncated_mem)
		fprintf(out, "STOPPED at the memory bound: the subnet has more nodes than %zu MiB of tables hold "
			"(--fabric-mem MB raises it)\n", f->mem_budget >> 20);
	if (f->guid_conflicts) {
		ibfabric_guid_str(f->guid_conflict, g, sizeof(g));
		fprintf(out, "%zu %s the sweep (node GUID %s first): a GUID used by more than one "
			"node, or the fabric changed while it was swept; those parts are left out\n",
			f->guid_conflicts, f->guid_conflicts == 1 ? "answer contradicts" : "answers contradict", g);
	}
	fprintf(out, "Memory of the tables: %.1f MiB (%.1f MiB per 1,000 nodes)\n",
		(double)ib_fabric_mem_bytes(f) / 1048576.0,
		f->nnodes ? (double)ib_fabric_mem_bytes(f) / 1048576.0 * 1000.0 / (double)f->nnodes : 0.0);
}

void ibfabric_text(FILE *out, const struct ib_fabric *f)
{
	if (f->error[0] && !f->nports) {
		fprintf(out, "InfiniBand management unavailable: %s\n", f->error);
		return;
	}
	fprintf(out, "Local InfiniBand ports (MADs through libibumad):\n");
	for (size_t i = 0; i < f->nports; i++)
		local_port_text(out, &f->ports[i]);
	if (!f->swept) {
		fprintf(out, "\nFabric: not swept (no usable local port)\n");
		return;
	}
	fprintf(out, "\nFabric from %s port %u: %zu nodes, %zu links; sweep %.1f ms, %" PRIu64
		" MADs (%" PRIu64 " in all), %" PRIu64 " timeouts%s%s\n",
		f->ports[f->sweep_from].ca, f->ports[f->sweep_from].port, f->nnodes, f->nlinks,
		(double)f->sweep_ns / 1e6, f->sweep_mads, f->mads_sent, f->mads_timeout,
		f->truncated_nodes ? "; STOPPED at the node limit" : "",
		f->truncated_time ? "; STOPPED at the time limit" : "");
	sweep_notes_text(out, f);
	if (f->pma_swept)
		fprintf(out, "PMA counters of every port that is up: %zu ports, %zu answered; %.1f ms, %" PRIu64
			" MADs\n", f->pma_ports, f->pma_answered, (double)f->pma_ns / 1e6, f->pma_mads);
	for (size_t i = 0; i < f->nnodes; i++)
		node_text(out, f, &f->nodes[i]);
}

/* ---- JSON ---- */

static void guid_json(struct json *j, const char *key, uint64_t guid)
{
	char g[24];

	ibfabric_guid_str(guid, g, sizeof(g));
	json_key(j, key);
	json_str(j, g);
}

static void port_id_json(struct json *j, const struct ib_port_id *p)
{
	double gbps = mad_link_gbps(p->width, p->speed, p->speed_ext);

	json_key(j, "lid"); json_u64(j, p->lid);
	json_key(j, "state"); json_str(j, mad_port_state_str(p->state));
	json_key(j, "phys_state"); json_str(j, mad_phys_state_str(p->phys_state));
	json_key(j, "width");
	json_str(j, p->phys_state == PHYS_STATE_LINK_UP ? mad_link_width_str(p->width) : NULL);
	json_key(j, "speed");
	json_str(j, p->phys_state == PHYS_STATE_LINK_UP ? mad_link_speed_str(p->speed, p->speed_ext) : NULL);
	json_key(j, "rate_gbps");
	if (p->phys_state == PHYS_STATE_LINK_UP && gbps > 0)
		json_double(j, gbps, 3);
	else
		json_null(j);
}

static void pma_json(struct json *j, const struct ib_pma *p)
{
	json_obj_begin(j);
	json_key(j, "state"); json_str(j, ib_query_state_str(p->state));
	json_key(j, "lid"); json_u64(j, p->lid);
	json_key(j, "port_select"); json_u64(j, p->port_select);
	json_key(j, "cap_mask");
	if (p->cpi_known)
		json_u64(j, p->cap_mask);
	else
		json_null(j);
	json_key(j, "extended"); json_bool(j, p->ext && !p->ext_failed);
	json_key(j, "counters");
	json_arr_begin(j);
	for (size_t i = 0; i < p->n; i++) {
		const struct fab_counter *c = &p->c[i];

		json_obj_begin(j);
		json_key(j, "name"); json_str(j, c->name);
		json_key(j, "source"); json_str(j, fab_counter_source_str(c->source));
		json_key(j, "value");
		if (c->known && !c->saturated)
			json_u64(j, c->value);
		else
			json_null(j);
		json_key(j, "bits"); json_u64(j, c->bits);
		json_key(j, "saturated"); json_bool(j, c->saturated);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/*
 * A swept port's counters, compact (a fabric has thousands of ports): the
 * values by name, null when unknown or saturated, and which are saturated.
 */
static void fport_pma_json(struct json *j, const struct ib_pma *p)
{
	json_obj_begin(j);
	json_key(j, "state"); json_str(j, ib_query_state_str(p->state));
	json_key(j, "lid"); json_u64(j, p->lid);
	json_key(j, "extended"); json_bool(j, p->ext && !p->ext_failed);
	json_key(j, "counters");
	json_obj_begin(j);
	for (size_t i = 0; i < p->n; i++) {
		const struct fab_counter *c = &p->c[i];

		json_key(j, c->name);
		if (c->known && !c->saturated)
			json_u64(j, c->value);
		else
			json_null(j);
	}
	json_obj_end(j);
	json_key(j, "saturated");
	json_arr_begin(j);
	for (size_t i = 0; i < p->n; i++)
		if (p->c[i].saturated)
			json_str(j, p->c[i].name);
	json_arr_end(j);
	json_obj_end(j);
}

static void local_port_json(struct json *j, const struct ib_local_port *lp)
{
	json_obj_begin(j);
	json_key(j, "device"); json_str(j, lp->ca);
	json_key(j, "port"); json_u64(j, lp->port);
	json_key(j, "umad"); json_str_or_null(j, lp->umad_dev);
	json_key(j, "query"); json_str(j, ib_query_state_str(lp->self_state));
	if (lp->self_state == IBQ_OK) {
		guid_json(j, "node_guid", lp->node.node_guid);
		json_key(j, "node_desc"); json_str(j, lp->node.desc);
		port_id_json(j, &lp->pi);
		json_key(j, "sm");
		json_obj_begin(j);
		json_key(j, "lid"); json_u64(j, lp->sm.lid);
		json_key(j, "sl"); json_u64(j, lp->sm.sl);
		json_key(j, "query"); json_str(j, ib_query_state_str(lp->sm.state));
		if (lp->sm.state == IBQ_OK) {
			guid_json(j, "guid", lp->sm.guid);
			json_key(j, "priority"); json_u64(j, lp->sm.priority);
			json_key(j, "state"); json_str(j, mad_sm_state_str(lp->sm.sm_state));
		}
		json_obj_end(j);
		json_key(j, "partner");
		if (lp->peer_state == IBQ_OK) {
			json_obj_begin(j);
			guid_json(j, "node_guid", lp->peer.node_guid);
			json_key(j, "node_type"); json_str(j, mad_node_type_str(lp->peer.node_type));
			json_key(j, "node_desc"); json_str(j, lp->peer.desc);
			json_key(j, "port"); json_u64(j, lp->peer_pi.num);
			port_id_json(j, &lp->peer_pi);
			json_obj_end(j);
		} else {
			json_null(j);
		}
		json_key(j, "management_port"); json_bool(j, ib_local_port_is_management(lp));
		json_key(j, "pma"); pma_json(j, &lp->pma);
		json_key(j, "partner_pma"); pma_json(j, &lp->peer_pma);
	}
	json_key(j, "note"); json_str_or_null(j, lp->note);
	json_obj_end(j);
}

/* Long: the `show fabric` JSON member by member (doc/ib-management.md). */
void ibfabric_json_members(struct json *j, const struct ib_fabric *f)
{
	json_key(j, "fabric");
	json_obj_begin(j);
	json_key(j, "error"); json_str_or_null(j, f->error);
	json_key(j, "local_ports");
	json_arr_begin(j);
	for (size_t i = 0; i < f->nports; i++)
		local_port_json(j, &f->ports[i]);
	json_arr_end(j);
	json_key(j, "nodes");
	json_arr_begin(j);
	for (size_t i = 0; i < f->nnodes; i++) {
		const struct ib_fnode *n = &f->nodes[i];

		json_obj_begin(j);
		guid_json(j, "node_guid", n->id.node_guid);
		json_key(j, "node_type"); json_str(j, mad_node_type_str(n->id.node_type));
		json_key(j, "node_desc"); json_str(j, n->id.desc);
		json_key(j, "lid"); json_u64(j, n->lid);
		json_key(j, "ports"); json_u64(j, n->id.num_ports);
		json_key(j, "port_states");
		json_arr_begin(j);
		for (unsigned int p = 1; p <= n->id.num_ports; p++) {
			const struct ib_fport *fp = &n->ports[p];

			json_obj_begin(j);
			json_key(j, "port"); json_u64(j, p);
			if (fp->known) {
				json_key(j, "lid"); json_u64(j, fnode_port_lid(n, p));
				json_key(j, "state"); json_str(j, mad_port_state_str(fp->pi.state));
				json_key(j, "phys_state"); json_str(j, mad_phys_state_str(fp->pi.phys_state));
			}
			if (fp->pma) {
				json_key(j, "pma"); fport_pma_json(j, fp->pma);
			}
			json_obj_end(j);
		}
		json_arr_end(j);
		json_key(j, "hops"); json_u64(j, n->hops);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "links");
	json_arr_begin(j);
	for (size_t i = 0; i < f->nlinks; i++) {
		const struct ib_link *l = &f->links[i];
		const struct ib_fnode *a = &f->nodes[l->a], *b = &f->nodes[l->b];

		json_obj_begin(j);
		guid_json(j, "from_guid", a->id.node_guid);
		json_key(j, "from_desc"); json_str(j, a->id.desc);
		json_key(j, "from_port"); json_u64(j, l->a_port);
		guid_json(j, "to_guid", b->id.node_guid);
		json_key(j, "to_desc"); json_str(j, b->id.desc);
		json_key(j, "to_port"); json_u64(j, l->b_port);
		json_key(j, "to_lid"); json_u64(j, fnode_port_lid(b, l->b_port));
		if (a->ports[l->a_port].known) {
			const struct ib_port_id *p = &a->ports[l->a_port].pi;
			double gbps = mad_link_gbps(p->width, p->speed, p->speed_ext);

			json_key(j, "state"); json_str(j, mad_port_state_str(p->state));
			json_key(j, "phys_state"); json_str(j, mad_phys_state_str(p->phys_state));
			json_key(j, "width"); json_str(j, mad_link_width_str(p->width));
			json_key(j, "speed"); json_str(j, mad_link_speed_str(p->speed, p->speed_ext));
			json_key(j, "rate_gbps");
			if (gbps > 0)
				json_double(j, gbps, 3);
			else
				json_null(j);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "sweep");
	json_obj_begin(j);
	json_key(j, "done"); json_bool(j, f->swept);
	json_key(j, "elapsed_ms"); json_double(j, (double)f->sweep_ns / 1e6, 3);
	json_key(j, "sweep_mads"); json_u64(j, f->sweep_mads);
	json_key(j, "mads_sent"); json_u64(j, f->mads_sent);
	json_key(j, "mads_received"); json_u64(j, f->mads_received);
	json_key(j, "timeouts"); json_u64(j, f->mads_timeout);
	json_key(j, "retries"); json_u64(j, f->mads_retried);
	json_key(j, "truncated_nodes"); json_bool(j, f->truncated_nodes);
	json_key(j, "truncated_time"); json_bool(j, f->truncated_time);
	json_key(j, "truncated_memory"); json_bool(j, f->truncated_mem);
	json_key(j, "guid_conflicts"); json_u64(j, f->guid_conflicts);
	if (f->guid_conflicts)
		guid_json(j, "guid_conflict", f->guid_conflict);
	json_key(j, "memory_budget_bytes"); json_u64(j, f->mem_budget);
	json_key(j, "memory_bytes"); json_u64(j, ib_fabric_mem_bytes(f));
	json_key(j, "memory_per_1000_nodes_bytes");
	json_u64(j, f->nnodes ? ib_fabric_mem_bytes(f) * 1000 / f->nnodes : 0);
	json_key(j, "pma_swept"); json_bool(j, f->pma_swept);
	json_key(j, "pma_ports"); json_u64(j, f->pma_ports);
	json_key(j, "pma_answered"); json_u64(j, f->pma_answered);
	json_key(j, "pma_elapsed_ms"); json_double(j, (double)f->pma_ns / 1e6, 3);
	json_key(j, "pma_mads"); json_u64(j, f->pma_mads);
	json_obj_end(j);
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

static void end_rates_text(FILE *out, const char *who, const struct ib_pma *p)
{
	struct pma_rates r;
	char x[32], rc[32];
	bool any = false;

	pma_rates(p, &r);
	rate_cell(r.xmit_known, r.xmit_bps, x, sizeof(x));
	rate_cell(r.rcv_known, r.rcv_bps, rc, sizeof(rc));
	fprintf(out, "    %-8s xmit %14s  rcv %14s  errors:", who, x, rc);
	for (size_t i = 0; i < p->n; i++) {
		uint64_t d;

		if (p->c[i].kind == COUNTER_KIND_ERROR && counter_delta(&p->c[i], &d) && d) {
			fprintf(out, " %s +%" PRIu64, p->c[i].name, d);
			any = true;
		}
	}
	fprintf(out, "%s\n", any ? "" : (p->state == IBQ_OK ? " none" : " unknown"));
}

void ibfabric_rates_text(FILE *out, const struct ib_fabric *f, unsigned int sample)
{
	fprintf(out, "sample %u\n", sample);
	for (size_t i = 0; i < f->nports; i++) {
		const struct ib_local_port *lp = &f->ports[i];

		if (lp->self_state != IBQ_OK || (!lp->pma.n && !lp->peer_pma.n))
			continue;
		fprintf(out, "  %s port %u <-> %s port %u\n", lp->ca, lp->port,
			lp->peer_state == IBQ_OK ? desc_or(lp->peer.desc) : "?", lp->peer_pi.num);
		end_rates_text(out, "local", &lp->pma);
		end_rates_text(out, "partner", &lp->peer_pma);
	}
}

static void end_rates_json(struct json *j, const struct ib_pma *p)
{
	struct pma_rates r;

	pma_rates(p, &r);
	json_obj_begin(j);
	json_key(j, "state"); json_str(j, ib_query_state_str(p->state));
	json_key(j, "xmit_bytes_per_s");
	if (r.xmit_known)
		json_double(j, r.xmit_bps, 1);
	else
		json_null(j);
	json_key(j, "rcv_bytes_per_s");
	if (r.rcv_known)
		json_double(j, r.rcv_bps, 1);
	else
		json_null(j);
	json_key(j, "error_deltas");
	json_arr_begin(j);
	for (size_t i = 0; i < p->n; i++) {
		uint64_t d;

		if (p->c[i].kind == COUNTER_KIND_ERROR && counter_delta(&p->c[i], &d) && d) {
			json_obj_begin(j);
			json_key(j, "name"); json_str(j, p->c[i].name);
			json_key(j, "delta"); json_u64(j, d);
			json_obj_end(j);
		}
	}
	json_arr_end(j);
	json_obj_end(j);
}

void ibfabric_rates_json(struct json *j, const struct ib_fabric *f, unsigned int sample, double interval_s)
{
	json_obj_begin(j);
	json_key(j, "sample"); json_u64(j, sample);
	json_key(j, "interval_s"); json_double(j, interval_s, 3);
	json_key(j, "ports");
	json_arr_begin(j);
	for (size_t i = 0; i < f->nports; i++) {
		const struct ib_local_port *lp = &f->ports[i];

		if (lp->self_state != IBQ_OK)
			continue;
		json_obj_begin(j);
		json_key(j, "device"); json_str(j, lp->ca);
		json_key(j, "port"); json_u64(j, lp->port);
		json_key(j, "local"); end_rates_json(j, &lp->pma);
		json_key(j, "partner"); end_rates_json(j, &lp->peer_pma);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}
