// SPDX-License-Identifier: GPL-2.0-or-later
/* Text and JSON forms of the ports, counters and GIDs reports. */
#include "config.h"

#include <inttypes.h>
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

static void netdev_json(struct json *j, const struct fab_netdev *nd)
{
	json_obj_begin(j);
	json_key(j, "name"); json_str(j, nd->name);
	json_key(j, "in_netns"); json_bool(j, nd->in_ns);
	json_key(j, "ifindex"); json_opt_u64(j, &nd->ifindex);
	json_key(j, "mtu"); json_opt_u64(j, &nd->mtu);
	json_key(j, "operstate"); json_str_or_null(j, nd->operstate);
	json_key(j, "ipoib_mode"); json_str_or_null(j, nd->ipoib_mode);
	json_key(j, "pkey");
	if (nd->pkey.known) {
		char pk[16];

		snprintf(pk, sizeof(pk), "0x%04" PRIx64, nd->pkey.value);
		json_str(j, pk);
	} else {
		json_null(j);
	}
	json_key(j, "lower"); json_str_or_null(j, nd->parent);
	json_obj_end(j);
}

/* "ib0: IPoIB connected, MTU 65520, P_Key 0xffff" for each netdev of a port. */
static void netdevs_text(FILE *f, const struct fab_port *p)
{
	for (unsigned int q = 0; q < p->nnetdevs; q++) {
		const struct fab_netdev *nd = &p->netdevs[q];

		fprintf(f, "       %s:", nd->name);
		if (!nd->in_ns) {
			fprintf(f, " not in this network namespace\n");
			continue;
		}
		if (nd->ipoib_mode[0])
			fprintf(f, " IPoIB %s,", nd->ipoib_mode);
		if (nd->mtu.known)
			fprintf(f, " MTU %" PRIu64 ",", nd->mtu.value);
		if (nd->pkey.known)
			fprintf(f, " P_Key 0x%04" PRIx64 ",", nd->pkey.value);
		if (nd->parent[0])
			fprintf(f, " on %s,", nd->parent);
		fprintf(f, " %s\n", nd->operstate[0] ? nd->operstate : "state unknown");
	}
}

void show_ports_text(FILE *f, const struct fab_host *h)
{
	for (size_t i = 0; i < h->ndevs; i++) {
		const struct fab_device *d = &h->devs[i];

		fprintf(f, "%s%s (%s)\n", i ? "\n" : "", d->name, or_dash(d->node_type));
		fprintf(f, "  firmware %-16s hca_type %-10s board_id %-16s hw_rev %s\n",
			or_dash(d->fw_ver), or_dash(d->hca_type), or_dash(d->board_id), or_dash(d->hw_rev));
		fprintf(f, "  node_guid %-20s sys_image_guid %s\n", or_dash(d->node_guid),
			or_dash(d->sys_image_guid));
		if (d->node_desc[0])
			fprintf(f, "  node_desc %s\n", d->node_desc);
		if (!d->nports) {
			fprintf(f, "  (no ports)\n");
			continue;
		}
		fprintf(f, "  %-4s %-12s %-18s %-22s %-10s %-6s %-6s %-3s %-5s %s\n",
			"PORT", "STATE", "PHYS_STATE", "RATE", "LINK", "LID", "SM_LID", "LMC", "MTU", "NETDEVS");
		for (size_t k = 0; k < d->nports; k++) {
			const struct fab_port *p = &d->ports[k];
			char lid[24], smlid[24], lmc[24], mtu[24], nds[256];

			port_netdevs_str(p, nds, sizeof(nds));
			if (p->active_mtu.known)
				snprintf(mtu, sizeof(mtu), "%" PRIu64, p->active_mtu.value);
			else
				snprintf(mtu, sizeof(mtu), "-");
			fprintf(f, "  %-4u %-12s %-18s %-22s %-10s %-6s %-6s %-3s %-5s %s\n", p->num,
				p->state_raw[0] ? fab_port_state_str(p->state) : "-",
				p->phys_state_raw[0] ? fab_phys_state_str(p->phys_state) : "-",
				or_dash(p->rate),
				p->link_layer_raw[0] ? p->link_layer_raw : "-",
				opt_str(lid, sizeof(lid), &p->lid), opt_str(smlid, sizeof(smlid), &p->sm_lid),
				opt_str(lmc, sizeof(lmc), &p->lmc), mtu, nds);
			netdevs_text(f, p);
			if (p->default_roce_mode[0])
				fprintf(f, "       rdma_cm default RoCE mode: %s\n", p->default_roce_mode);
		}
	}
	if (!h->ndevs)
		fprintf(f, "No RDMA devices found.\n");
}

static const char *counter_flags(const struct fab_counter *c)
{
	if (c->saturated)
		return "saturated (latched at all-ones; true value unknown)";
	if (!c->known)
		return c->raw[0] ? c->raw : "unreadable";
	return "";
}

void show_counters_text(FILE *f, const struct fab_host *h)
{
	bool any = false;

	for (size_t i = 0; i < h->ndevs; i++) {
		struct fab_device *d = &h->devs[i];

		for (size_t k = 0; k < d->nports; k++) {
			struct fab_port *p = &d->ports[k];
			char xb[32], rb[32];
			uint64_t v;

			fprintf(f, "%s%s port %u%s\n", any ? "\n" : "", d->name, p->num,
				p->has_pma ? "" : "  (no PMA counters)");
			any = true;
			fprintf(f, "  data: xmit %s, rcv %s (data counters x 4 octets)\n",
				port_bytes(p, DIR_XMIT, &v) ? units_bytes(xb, sizeof(xb), v) : "unknown",
				port_bytes(p, DIR_RCV, &v) ? units_bytes(rb, sizeof(rb), v) : "unknown");
			if (!p->ncounters) {
				fprintf(f, "  (no counters)\n");
				continue;
			}
			/* Columns as wide as the port's longest name and source (cm_rx_duplicates). */
			int nw = 36, sw = 12;
			for (size_t c = 0; c < p->ncounters; c++) {
				int n = (int)strlen(p->counters[c].name);
				int sl = (int)strlen(fab_counter_source_str(p->counters[c].source));

				nw = n > nw ? n : nw;
				sw = sl > sw ? sl : sw;
			}
			fprintf(f, "  %-*s %-*s %4s %20s\n", nw, "COUNTER", sw, "SOURCE", "BITS", "VALUE");
			for (size_t c = 0; c < p->ncounters; c++) {
				const struct fab_counter *ct = &p->counters[c];
				char val[32];

				if (ct->known && !ct->saturated)
					snprintf(val, sizeof(val), "%" PRIu64, ct->value);
				else if (ct->saturated)
					snprintf(val, sizeof(val), ">= %" PRIu64, ct->value);
				else
					snprintf(val, sizeof(val), "-");
				const char *flags = counter_flags(ct);
				bool err = ct->kind == COUNTER_KIND_ERROR && ct->known && ct->value && !ct->saturated;

				fprintf(f, "  %-*s %-*s %4u %20s%s%s\n", nw, ct->name,
					sw, fab_counter_source_str(ct->source), ct->bits, val,
					err ? "  error" : *flags ? "  " : "", flags);
			}
		}
	}
	if (!any)
		fprintf(f, "No RDMA ports found.\n");
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

void show_gids_text(FILE *f, const struct fab_host *h)
{
	bool any = false;

	for (size_t i = 0; i < h->ndevs; i++) {
		const struct fab_device *d = &h->devs[i];

		for (size_t k = 0; k < d->nports; k++) {
			const struct fab_port *p = &d->ports[k];

			for (size_t g = 0; g < p->ngids; g++) {
				const struct fab_gid *e = &p->gids[g];

				if (!any)
					fprintf(f, "%-16s %-4s %-5s %-39s %-15s %-8s %s\n", "DEV", "PORT", "INDEX",
						"GID", "IPv4", "VER", "NETDEV");
				any = true;
				fprintf(f, "%-16s %-4u %-5u %-39s %-15s %-8s %s%s\n", d->name, p->num, e->index,
					e->gid, e->has_ipv4 ? e->ipv4 : "", fab_gid_type_str(e->type),
					or_dash(e->netdev),
					e->netdev[0] && !e->netdev_in_ns ? "  (not in this network namespace)" : "");
			}
		}
	}
	if (!any)
		fprintf(f, "No GID entries found.\n");
}

void show_ports_json(struct json *j, const struct fab_host *h)
{
	json_key(j, "devices");
	json_arr_begin(j);
	for (size_t i = 0; i < h->ndevs; i++) {
		const struct fab_device *d = &h->devs[i];

		json_obj_begin(j);
		json_key(j, "name"); json_str(j, d->name);
		json_key(j, "node_type"); json_str_or_null(j, d->node_type);
		json_key(j, "node_guid"); json_str_or_null(j, d->node_guid);
		json_key(j, "sys_image_guid"); json_str_or_null(j, d->sys_image_guid);
		json_key(j, "fw_ver"); json_str_or_null(j, d->fw_ver);
		json_key(j, "board_id"); json_str_or_null(j, d->board_id);
		json_key(j, "hca_type"); json_str_or_null(j, d->hca_type);
		json_key(j, "hw_rev"); json_str_or_null(j, d->hw_rev);
		json_key(j, "node_desc"); json_str_or_null(j, d->node_desc);
		json_key(j, "ports");
		json_arr_begin(j);
		for (size_t k = 0; k < d->nports; k++) {
			const struct fab_port *p = &d->ports[k];

			json_obj_begin(j);
			json_key(j, "port"); json_u64(j, p->num);
			json_key(j, "state");
			json_str(j, p->state != PORT_STATE_UNKNOWN ? fab_port_state_str(p->state) : NULL);
			json_key(j, "phys_state");
			json_str(j, p->phys_state != PHYS_STATE_UNKNOWN ? fab_phys_state_str(p->phys_state) : NULL);
			json_key(j, "rate"); json_str_or_null(j, p->rate);
			json_key(j, "rate_gbps");
			if (p->rate_known)
				json_double(j, p->rate_gbps, 3);
			else
				json_null(j);
			json_key(j, "link_layer");
			json_str(j, p->link_layer != LINK_LAYER_UNKNOWN ? fab_link_layer_str(p->link_layer) : NULL);
			json_key(j, "lid"); json_opt_u64(j, &p->lid);
			json_key(j, "sm_lid"); json_opt_u64(j, &p->sm_lid);
			json_key(j, "lmc"); json_opt_u64(j, &p->lmc);
			json_key(j, "sm_sl"); json_opt_u64(j, &p->sm_sl);
			json_key(j, "cap_mask"); json_opt_u64(j, &p->cap_mask);
			json_key(j, "active_mtu"); json_opt_u64(j, &p->active_mtu);
			json_key(j, "max_mtu"); json_opt_u64(j, &p->max_mtu);
			json_key(j, "default_roce_mode"); json_str_or_null(j, p->default_roce_mode);
			json_key(j, "pkeys");
			json_arr_begin(j);
			for (unsigned int q = 0; q < p->npkeys; q++) {
				char pk[8];

				snprintf(pk, sizeof(pk), "0x%04x", p->pkeys[q]);
				json_str(j, pk);
			}
			json_arr_end(j);
			json_key(j, "netdevs");
			json_arr_begin(j);
			for (unsigned int q = 0; q < p->nnetdevs; q++)
				json_str(j, p->netdevs[q].name);
			json_arr_end(j);
			json_key(j, "netdev_attrs");
			json_arr_begin(j);
			for (unsigned int q = 0; q < p->nnetdevs; q++)
				netdev_json(j, &p->netdevs[q]);
			json_arr_end(j);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void show_counters_json(struct json *j, const struct fab_host *h)
{
	json_key(j, "ports");
	json_arr_begin(j);
	for (size_t i = 0; i < h->ndevs; i++) {
		struct fab_device *d = &h->devs[i];

		for (size_t k = 0; k < d->nports; k++) {
			struct fab_port *p = &d->ports[k];
			struct port_rates r;
			uint64_t v;

			json_obj_begin(j);
			json_key(j, "device"); json_str(j, d->name);
			json_key(j, "port"); json_u64(j, p->num);
			json_key(j, "pma"); json_bool(j, p->has_pma);
			json_key(j, "xmit_bytes");
			if (port_bytes(p, DIR_XMIT, &v))
				json_u64(j, v);
			else
				json_null(j);
			json_key(j, "rcv_bytes");
			if (port_bytes(p, DIR_RCV, &v))
				json_u64(j, v);
			else
				json_null(j);
			if (p->prev_sample_ns) {
				port_rates(p, &r);
				json_key(j, "xmit_gbps");
				if (r.xmit_known) json_double(j, r.xmit_gbps, 6); else json_null(j);
				json_key(j, "rcv_gbps");
				if (r.rcv_known) json_double(j, r.rcv_gbps, 6); else json_null(j);
				json_key(j, "xmit_pps");
				if (r.xmit_pkts_known) json_double(j, r.xmit_pps, 3); else json_null(j);
				json_key(j, "rcv_pps");
				if (r.rcv_pkts_known) json_double(j, r.rcv_pps, 3); else json_null(j);
			}
			json_key(j, "counters");
			json_arr_begin(j);
			for (size_t c = 0; c < p->ncounters; c++) {
				const struct fab_counter *ct = &p->counters[c];
				uint64_t dv;

				json_obj_begin(j);
				json_key(j, "name"); json_str(j, ct->name);
				json_key(j, "source"); json_str(j, fab_counter_source_str(ct->source));
				json_key(j, "value");
				if (ct->known)
					json_u64(j, ct->value);
				else
					json_null(j);
				json_key(j, "bits"); json_u64(j, ct->bits);
				json_key(j, "saturated"); json_bool(j, ct->saturated);
				json_key(j, "error"); json_bool(j, ct->kind == COUNTER_KIND_ERROR);
				if (!ct->known) {
					json_key(j, "raw"); json_str(j, ct->raw);
				}
				if (p->prev_sample_ns) {
					json_key(j, "delta");
					if (counter_delta(ct, &dv))
						json_u64(j, dv);
					else
						json_null(j);
				}
				json_obj_end(j);
			}
			json_arr_end(j);
			json_obj_end(j);
		}
	}
	json_arr_end(j);
}

void show_gids_json(struct json *j, const struct fab_host *h)
{
	json_key(j, "gids");
	json_arr_begin(j);
	for (size_t i = 0; i < h->ndevs; i++) {
		const struct fab_device *d = &h->devs[i];

		for (size_t k = 0; k < d->nports; k++) {
			const struct fab_port *p = &d->ports[k];

			for (size_t g = 0; g < p->ngids; g++) {
				const struct fab_gid *e = &p->gids[g];

				json_obj_begin(j);
				json_key(j, "device"); json_str(j, d->name);
				json_key(j, "port"); json_u64(j, p->num);
				json_key(j, "index"); json_u64(j, e->index);
				json_key(j, "gid"); json_str(j, e->gid);
				json_key(j, "type");
				json_str(j, e->type != GID_TYPE_UNKNOWN ? fab_gid_type_str(e->type) : NULL);
				json_key(j, "netdev"); json_str_or_null(j, e->netdev);
				json_key(j, "ipv4"); json_str(j, e->has_ipv4 ? e->ipv4 : NULL);
				json_key(j, "netdev_in_netns");
				if (e->netdev[0])
					json_bool(j, e->netdev_in_ns);
				else
					json_null(j);
				json_obj_end(j);
			}
		}
	}
	json_arr_end(j);
}
