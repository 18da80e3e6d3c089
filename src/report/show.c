// SPDX-License-Identifier: GPL-2.0-or-later
/* The ports, counters and GIDs reports, text or JSON from one walk. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "derive/counters.h"
#include "derive/units.h"
#include "report/show.h"

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static char *opt_str(char *buf, size_t size, const struct opt_u64 *v)
{
	if (v->known)
		snprintf(buf, size, "%" PRIu64, v->value);
	else
		snprintf(buf, size, "-");
	return buf;
}

static void port_netdevs_str(const struct fab_port *p, char *buf, size_t size)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < p->nnetdevs && off < size; i++) {
		const struct fab_netdev *nd = &p->netdevs[i];
		int n = snprintf(buf + off, size - off, "%s%s%s", i ? "," : "", nd->name,
				 nd->in_ns ? "" : "(not in netns)");

		if (n < 0)
			break;
		off += (size_t)n;
	}
	if (!buf[0])
		snprintf(buf, size, "-");
}

/* A netdev of a port: "ib0: IPoIB connected, MTU 65520, P_Key 0xffff, up" in text, an object in JSON. */
static void netdev_out(struct out *o, const struct fab_netdev *nd)
{
	bool ns = nd->in_ns;
	char pk[16];

	snprintf(pk, sizeof(pk), "0x%04" PRIx64, nd->pkey.value);
	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "name", nd->name, "       %s:", nd->name);
	out_bool(o, PRINT_ANY, "in_netns", ns, ns ? NULL : " not in this network namespace\n");
	out_opt_uint(o, PRINT_JSON, "ifindex", &nd->ifindex, NULL);
	if (ns && nd->ipoib_mode[0])
		out_printf(o, " IPoIB %s,", nd->ipoib_mode);
	out_opt_uint(o, PRINT_ANY, "mtu", &nd->mtu, ns && nd->mtu.known ? " MTU %" PRIu64 "," : NULL, nd->mtu.value);
	out_str_or_null(o, PRINT_JSON, "operstate", nd->operstate, NULL);
	out_str_or_null(o, PRINT_JSON, "ipoib_mode", nd->ipoib_mode, NULL);
	out_str(o, PRINT_ANY, "pkey", nd->pkey.known ? pk : NULL, ns && nd->pkey.known ? " P_Key %s," : NULL, pk);
	out_str_or_null(o, PRINT_ANY, "lower", nd->parent, ns && nd->parent[0] ? " on %s," : NULL, nd->parent);
	if (ns)
		out_printf(o, " %s\n", nd->operstate[0] ? nd->operstate : "state unknown");
	out_obj_close(o);
}

static void port_out(struct out *o, const struct fab_port *p)
{
	const char *state = p->state != PORT_STATE_UNKNOWN ? fab_port_state_str(p->state) : NULL;
	const char *phys = p->phys_state != PHYS_STATE_UNKNOWN ? fab_phys_state_str(p->phys_state) : NULL;
	const char *ll = p->link_layer != LINK_LAYER_UNKNOWN ? fab_link_layer_str(p->link_layer) : NULL;
	char lid[24], smlid[24], lmc[24], mtu[24], nds[256];

	port_netdevs_str(p, nds, sizeof(nds));
	out_obj_open(o, NULL);
	out_uint(o, PRINT_ANY, "port", p->num, "  %-4u ", p->num);
	out_str(o, PRINT_ANY, "state", state, "%-12s ", p->state_raw[0] ? fab_port_state_str(p->state) : "-");
	out_str(o, PRINT_ANY, "phys_state", phys, "%-18s ",
		p->phys_state_raw[0] ? fab_phys_state_str(p->phys_state) : "-");
	out_str_or_null(o, PRINT_ANY, "rate", p->rate, "%-22s ", or_dash(p->rate));
	if (p->rate_known)
		out_float(o, PRINT_JSON, "rate_gbps", p->rate_gbps, 3, NULL);
	else
		out_null(o, PRINT_JSON, "rate_gbps", NULL);
	out_str(o, PRINT_ANY, "link_layer", ll, "%-10s ", p->link_layer_raw[0] ? p->link_layer_raw : "-");
	out_opt_uint(o, PRINT_ANY, "lid", &p->lid, "%-6s ", opt_str(lid, sizeof(lid), &p->lid));
	out_opt_uint(o, PRINT_ANY, "sm_lid", &p->sm_lid, "%-6s ", opt_str(smlid, sizeof(smlid), &p->sm_lid));
	out_opt_uint(o, PRINT_ANY, "lmc", &p->lmc, "%-3s ", opt_str(lmc, sizeof(lmc), &p->lmc));
	out_opt_uint(o, PRINT_JSON, "sm_sl", &p->sm_sl, NULL);
	out_opt_uint(o, PRINT_JSON, "cap_mask", &p->cap_mask, NULL);
	out_opt_uint(o, PRINT_ANY, "active_mtu", &p->active_mtu, "%-5s %s\n",
		     opt_str(mtu, sizeof(mtu), &p->active_mtu), nds);
	out_opt_uint(o, PRINT_JSON, "max_mtu", &p->max_mtu, NULL);
	out_str_or_null(o, PRINT_JSON, "default_roce_mode", p->default_roce_mode, NULL);
	out_arr_open(o, "pkeys");
	for (unsigned int q = 0; q < p->npkeys; q++) {
		char pk[8];

		snprintf(pk, sizeof(pk), "0x%04x", p->pkeys[q]);
		out_str(o, PRINT_JSON, NULL, pk, NULL);
	}
	out_arr_close(o);
	out_arr_open(o, "netdevs");
	for (unsigned int q = 0; q < p->nnetdevs; q++)
		out_str(o, PRINT_JSON, NULL, p->netdevs[q].name, NULL);
	out_arr_close(o);
	out_arr_open(o, "netdev_attrs");
	for (unsigned int q = 0; q < p->nnetdevs; q++)
		netdev_out(o, &p->netdevs[q]);
	out_arr_close(o);
	if (p->default_roce_mode[0])
		out_printf(o, "       rdma_cm default RoCE mode: %s\n", p->default_roce_mode);
	out_obj_close(o);
}

static void device_out(struct out *o, const struct fab_device *d, bool first)
{
	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "name", d->name, "%s%s", first ? "" : "\n", d->name);
	out_str_or_null(o, PRINT_ANY, "node_type", d->node_type, " (%s)\n", or_dash(d->node_type));
	out_printf(o, "  firmware %-16s hca_type %-10s board_id %-16s hw_rev %s\n",
		   or_dash(d->fw_ver), or_dash(d->hca_type), or_dash(d->board_id), or_dash(d->hw_rev));
	out_str_or_null(o, PRINT_ANY, "node_guid", d->node_guid, "  node_guid %-20s ", or_dash(d->node_guid));
	out_str_or_null(o, PRINT_ANY, "sys_image_guid", d->sys_image_guid, "sys_image_guid %s\n",
			or_dash(d->sys_image_guid));
	out_str_or_null(o, PRINT_JSON, "fw_ver", d->fw_ver, NULL);
	out_str_or_null(o, PRINT_JSON, "board_id", d->board_id, NULL);
	out_str_or_null(o, PRINT_JSON, "hca_type", d->hca_type, NULL);
	out_str_or_null(o, PRINT_JSON, "hw_rev", d->hw_rev, NULL);
	out_str_or_null(o, PRINT_ANY, "node_desc", d->node_desc, d->node_desc[0] ? "  node_desc %s\n" : NULL,
			d->node_desc);
	if (!d->nports)
		out_printf(o, "  (no ports)\n");
	else
		out_printf(o, "  %-4s %-12s %-18s %-22s %-10s %-6s %-6s %-3s %-5s %s\n",
			   "PORT", "STATE", "PHYS_STATE", "RATE", "LINK", "LID", "SM_LID", "LMC", "MTU", "NETDEVS");
	out_arr_open(o, "ports");
	for (size_t k = 0; k < d->nports; k++)
		port_out(o, &d->ports[k]);
	out_arr_close(o);
	out_obj_close(o);
}

void show_ports(struct out *o, const struct fab_host *h)
{
	out_arr_open(o, "devices");
	for (size_t i = 0; i < h->ndevs; i++)
		device_out(o, &h->devs[i], i == 0);
	out_arr_close(o);
	if (!h->ndevs)
		out_printf(o, "No RDMA devices found.\n");
}

static const char *counter_flags(const struct fab_counter *c)
{
	if (c->saturated)
		return "saturated (latched at all-ones; true value unknown)";
	if (!c->known)
		return c->raw[0] ? c->raw : "unreadable";
	return "";
}

/* A counter: a row of the table in text (columns nw and sw wide), an object in JSON. */
static void counter_out(struct out *o, const struct fab_counter *ct, bool sampled, int nw, int sw)
{
	const char *src = fab_counter_source_str(ct->source), *flags = counter_flags(ct);
	bool err = ct->kind == COUNTER_KIND_ERROR && ct->known && ct->value && !ct->saturated;
	char val[32];
	uint64_t dv;

	if (ct->known && !ct->saturated)
		snprintf(val, sizeof(val), "%" PRIu64, ct->value);
	else if (ct->saturated)
		snprintf(val, sizeof(val), ">= %" PRIu64, ct->value);
	else
		snprintf(val, sizeof(val), "-");
	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "name", ct->name, "  %-*s ", nw, ct->name);
	out_str(o, PRINT_ANY, "source", src, "%-*s ", sw, src);
	if (ct->known)
		out_uint(o, PRINT_JSON, "value", ct->value, NULL);
	else
		out_null(o, PRINT_JSON, "value", NULL);
	out_uint(o, PRINT_ANY, "bits", ct->bits, "%4u %20s%s%s\n", ct->bits, val, err ? "  error" : *flags ? "  " : "",
		 flags);
	out_bool(o, PRINT_JSON, "saturated", ct->saturated, NULL);
	out_bool(o, PRINT_JSON, "error", ct->kind == COUNTER_KIND_ERROR, NULL);
	if (!ct->known)
		out_str(o, PRINT_JSON, "raw", ct->raw, NULL);
	if (sampled && counter_delta(ct, &dv))
		out_uint(o, PRINT_JSON, "delta", dv, NULL);
	else if (sampled)
		out_null(o, PRINT_JSON, "delta", NULL);
	out_obj_close(o);
}

/* JSON: the rates between the last two samples, when there are two. */
static void port_rates_json(struct out *o, struct fab_port *p)
{
	struct port_rates r;

	if (!p->prev_sample_ns)
		return;
	port_rates(p, &r);
	out_float(o, PRINT_JSON, "xmit_gbps", r.xmit_known ? r.xmit_gbps : NAN, 6, NULL);
	out_float(o, PRINT_JSON, "rcv_gbps", r.rcv_known ? r.rcv_gbps : NAN, 6, NULL);
	out_float(o, PRINT_JSON, "xmit_pps", r.xmit_pkts_known ? r.xmit_pps : NAN, 3, NULL);
	out_float(o, PRINT_JSON, "rcv_pps", r.rcv_pkts_known ? r.rcv_pps : NAN, 3, NULL);
}

/* The data bytes of both directions: null (JSON), "unknown" (text) when not known. */
static void bytes_out(struct out *o, struct fab_port *p)
{
	char xb[32] = "unknown", rb[32] = "unknown";
	uint64_t x, r;
	bool xk = port_bytes(p, DIR_XMIT, &x), rk = port_bytes(p, DIR_RCV, &r);

	if (xk)
		out_uint(o, PRINT_JSON, "xmit_bytes", x, NULL);
	else
		out_null(o, PRINT_JSON, "xmit_bytes", NULL);
	if (rk)
		out_uint(o, PRINT_JSON, "rcv_bytes", r, NULL);
	else
		out_null(o, PRINT_JSON, "rcv_bytes", NULL);
	out_printf(o, "  data: xmit %s, rcv %s (data counters x 4 octets)\n", xk ? units_bytes(xb, sizeof(xb), x) : xb,
		   rk ? units_bytes(rb, sizeof(rb), r) : rb);
}

static void port_counters_out(struct out *o, const struct fab_device *d, struct fab_port *p, bool first)
{
	/* Columns as wide as the port's longest name and source (cm_rx_duplicates). */
	int nw = 36, sw = 12;

	for (size_t c = 0; c < p->ncounters; c++) {
		int n = (int)strlen(p->counters[c].name);
		int sl = (int)strlen(fab_counter_source_str(p->counters[c].source));

		nw = n > nw ? n : nw;
		sw = sl > sw ? sl : sw;
	}
	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "device", d->name, "%s%s", first ? "" : "\n", d->name);
	out_uint(o, PRINT_ANY, "port", p->num, " port %u", p->num);
	out_bool(o, PRINT_ANY, "pma", p->has_pma, "%s\n", p->has_pma ? "" : "  (no PMA counters)");
	bytes_out(o, p);
	port_rates_json(o, p);
	if (!p->ncounters)
		out_printf(o, "  (no counters)\n");
	else
		out_printf(o, "  %-*s %-*s %4s %20s\n", nw, "COUNTER", sw, "SOURCE", "BITS", "VALUE");
	out_arr_open(o, "counters");
	for (size_t c = 0; c < p->ncounters; c++)
		counter_out(o, &p->counters[c], p->prev_sample_ns != 0, nw, sw);
	out_arr_close(o);
	out_obj_close(o);
}

void show_counters(struct out *o, const struct fab_host *h)
{
	bool any = false;

	out_arr_open(o, "ports");
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t k = 0; k < h->devs[i].nports; k++) {
			port_counters_out(o, &h->devs[i], &h->devs[i].ports[k], !any);
			any = true;
		}
	out_arr_close(o);
	if (!any)
		out_printf(o, "No RDMA ports found.\n");
}

void show_rates_text(FILE *f, struct fab_host *h, unsigned int sample)
{
	if (sample == 1)
		fprintf(f, "%-6s %-16s %-4s %12s %12s %14s %14s  %s\n", "SAMPLE", "DEVICE", "PORT",
			"XMIT", "RCV", "XMIT_PKTS", "RCV_PKTS", "ERRORS (delta)");
	for (size_t i = 0; i < h->ndevs; i++) {
		struct fab_device *d = &h->devs[i];

		for (size_t k = 0; k < d->nports; k++) {
			struct fab_port *p = &d->ports[k];
			struct port_rates r;
			char xg[24], rg[24], xp[24], rp[24], errs[512];
			size_t off = 0;

			port_rates(p, &r);
			errs[0] = '\0';
			for (size_t c = 0; c < p->ncounters; c++) {
				const struct fab_counter *ct = &p->counters[c];
				uint64_t dv;

				if (ct->kind != COUNTER_KIND_ERROR)
					continue;
				if (ct->saturated && off < sizeof(errs))
					off += (size_t)snprintf(errs + off, sizeof(errs) - off, "%s saturated ", ct->name);
				else if (counter_delta(ct, &dv) && dv && off < sizeof(errs))
					off += (size_t)snprintf(errs + off, sizeof(errs) - off, "%s +%" PRIu64 " ",
								ct->name, dv);
			}
			fprintf(f, "%-6u %-16s %-4u %12s %12s %14s %14s  %s\n", sample, d->name, p->num,
				r.xmit_known ? units_bitrate(xg, sizeof(xg), r.xmit_gbps * 1e9) : "-",
				r.rcv_known ? units_bitrate(rg, sizeof(rg), r.rcv_gbps * 1e9) : "-",
				r.xmit_pkts_known ? units_si(xp, sizeof(xp), r.xmit_pps, "pkt/s") : "-",
				r.rcv_pkts_known ? units_si(rp, sizeof(rp), r.rcv_pps, "pkt/s") : "-",
				errs[0] ? errs : "-");
		}
	}
}

static void gid_out(struct out *o, const struct fab_device *d, const struct fab_port *p, const struct fab_gid *e)
{
	const char *type = fab_gid_type_str(e->type);

	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "device", d->name, "%-16s ", d->name);
	out_uint(o, PRINT_ANY, "port", p->num, "%-4u ", p->num);
	out_uint(o, PRINT_ANY, "index", e->index, "%-5u ", e->index);
	out_str(o, PRINT_ANY, "gid", e->gid, "%-39s %-15s ", e->gid, e->has_ipv4 ? e->ipv4 : "");
	out_str(o, PRINT_ANY, "type", e->type != GID_TYPE_UNKNOWN ? type : NULL, "%-8s ", type);
	out_str_or_null(o, PRINT_ANY, "netdev", e->netdev, "%s%s\n", or_dash(e->netdev),
			e->netdev[0] && !e->netdev_in_ns ? "  (not in this network namespace)" : "");
	out_str(o, PRINT_JSON, "ipv4", e->has_ipv4 ? e->ipv4 : NULL, NULL);
	if (e->netdev[0])
		out_bool(o, PRINT_JSON, "netdev_in_netns", e->netdev_in_ns, NULL);
	else
		out_null(o, PRINT_JSON, "netdev_in_netns", NULL);
	out_obj_close(o);
}

void show_gids(struct out *o, const struct fab_host *h)
{
	bool any = false;
	size_t untyped = 0;

	out_arr_open(o, "gids");
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t k = 0; k < h->devs[i].nports; k++) {
			const struct fab_port *p = &h->devs[i].ports[k];

			for (size_t g = 0; g < p->ngids; g++) {
				if (!any)
					out_printf(o, "%-16s %-4s %-5s %-39s %-15s %-8s %s\n", "DEV", "PORT", "INDEX",
						   "GID", "IPv4", "VER", "NETDEV");
				any = true;
				gid_out(o, &h->devs[i], p, &p->gids[g]);
				untyped += p->gids[g].type == GID_TYPE_UNKNOWN;
			}
		}
	out_arr_close(o);
	if (!any)
		out_printf(o, "No GID entries found.\n");
	/* kept, not dropped: but "unknown" must not read as a RoCE version (JSON: "type": null) */
	if (untyped)
		out_printf(o, "note: %zu entr%s without a type: the kernel has no gid_attrs/types (before Linux 4.5, "
			   "whose RoCE GIDs are RoCE v1)\n", untyped, untyped == 1 ? "y" : "ies");
}
