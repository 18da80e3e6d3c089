// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop show pci: PCIe chains, what they carry against the ports, NUMA, GPUs; text or JSON from one walk. */
#include "config.h"

#include <stdio.h>

#include "derive/pci.h"
#include "model/pci.h"
#include "report/pci.h"

/* GT/s from MT/s in JSON, null when unknown. */
static void gts_out(struct out *o, const char *key, unsigned int mts)
{
	if (mts)
		out_float(o, PRINT_JSON, key, mts / 1000.0, 1, NULL);
	else
		out_null(o, PRINT_JSON, key, NULL);
}

static void width_out(struct out *o, const char *key, int w)
{
	if (w >= 0)
		out_int(o, PRINT_JSON, key, w, NULL);
	else
		out_null(o, PRINT_JSON, key, NULL);
}

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

static const char *width_str(int w, char *buf, size_t size)
{
	if (w < 0)
		return "-";
	snprintf(buf, size, "x%d", w);
	return buf;
}

static const char *aer_str(const struct pci_aer *a, char *buf, size_t size)
{
	if (!a->correctable.known && !a->nonfatal.known && !a->fatal.known)
		return "-";
	snprintf(buf, size, "%s%llu/%s%llu/%s%llu", a->correctable.known ? "" : "?",
		 (unsigned long long)a->correctable.value, a->nonfatal.known ? "" : "?",
		 (unsigned long long)a->nonfatal.value, a->fatal.known ? "" : "?", (unsigned long long)a->fatal.value);
	return buf;
}

/* A function of a chain (or a GPU's own): a row in text, an object in JSON. */
static void func_out(struct out *o, const struct pci_func *f, const char *key, const char *indent)
{
	const struct pci_link *l = &f->link;
	char w1[16], w2[16], aer[80];

	out_obj_open(o, key);
	out_str(o, PRINT_ANY, "address", f->addr, "%s%-14s ", indent, f->addr);
	out_str_or_null(o, PRINT_ANY, "current_link_speed", l->cur_speed, "%-16s ", or_dash(l->cur_speed));
	gts_out(o, "current_gts", l->cur_mts);
	width_out(o, "current_link_width", l->cur_width);
	out_printf(o, "%-5s ", width_str(l->cur_width, w1, sizeof(w1)));
	out_str_or_null(o, PRINT_ANY, "max_link_speed", l->max_speed, "%-16s ", or_dash(l->max_speed));
	gts_out(o, "max_gts", l->max_mts);
	width_out(o, "max_link_width", l->max_width);
	out_printf(o, "%-5s %s\n", width_str(l->max_width, w2, sizeof(w2)), aer_str(&f->aer, aer, sizeof(aer)));
	if (f->aer.correctable.known || f->aer.nonfatal.known || f->aer.fatal.known) {
		out_obj_open(o, "aer");
		out_opt_uint(o, PRINT_JSON, "correctable", &f->aer.correctable, NULL);
		out_opt_uint(o, PRINT_JSON, "nonfatal", &f->aer.nonfatal, NULL);
		out_opt_uint(o, PRINT_JSON, "fatal", &f->aer.fatal, NULL);
		out_obj_close(o);
	} else {
		out_null(o, PRINT_JSON, "aer", NULL);
	}
	out_obj_close(o);
}

static void place_out(struct out *o, const struct pci_place *at)
{
	out_str(o, PRINT_JSON, "path", at->path, NULL);
	if (at->numa_node >= 0)
		out_int(o, PRINT_ANY, "numa_node", at->numa_node, "  NUMA node %d", at->numa_node);
	else
		out_null(o, PRINT_ANY, "numa_node", "  NUMA node unknown");
	out_str_or_null(o, PRINT_ANY, "local_cpulist", at->cpulist, ", CPUs %s\n", or_dash(at->cpulist));
}

static void links_out(struct out *o, const struct pci_hca *h)
{
	struct pci_hop hops[PCI_MAX_CHAIN];
	size_t n = pci_hops(h, hops, PCI_MAX_CHAIN);

	out_arr_open(o, "links");
	for (size_t i = 0; i < n; i++) {
		const struct pci_hop *hp = &hops[i];

		out_obj_open(o, NULL);
		out_arr_open(o, "ends");
		out_str(o, PRINT_JSON, NULL, h->chain[hp->lower].addr, NULL);
		if (hp->upper != hp->lower)
			out_str(o, PRINT_JSON, NULL, h->chain[hp->upper].addr, NULL);
		out_arr_close(o);
		gts_out(o, "current_gts", hp->cur_mts);
		width_out(o, "current_width", hp->cur_width);
		gts_out(o, "max_gts", hp->max_mts);
		width_out(o, "max_width", hp->max_width);
		out_bool(o, PRINT_JSON, "down", hp->down, NULL);
		out_bool(o, PRINT_JSON, "degraded", hp->degraded, NULL);
		if (hp->gbps > 0)
			out_float(o, PRINT_JSON, "gbps", hp->gbps, 2, NULL);
		else
			out_null(o, PRINT_JSON, "gbps", NULL);
		out_obj_close(o);
	}
	out_arr_close(o);
}

/* What the chain carries, and whether each port fits in it. */
static void carry_out(struct out *o, const struct fab_device *d)
{
	struct pci_hop b;
	bool known = pci_bottleneck(d->pci, &b);
	char rate[32];

	if (known) {
		out_float(o, PRINT_ANY, "gbps", b.gbps, 2, "  carries %.1f Gb/s", b.gbps);
		out_printf(o, " (%s, %s%s%s)", pci_link_str(b.cur_mts, b.cur_width, rate, sizeof(rate)),
			   d->pci->chain[b.lower].addr, b.upper != b.lower ? " - " : "",
			   b.upper != b.lower ? d->pci->chain[b.upper].addr : "");
	} else {
		out_null(o, PRINT_ANY, "gbps", "  carries: unknown (no link speed and width read)");
	}
	out_arr_open(o, "ports");
	for (size_t j = 0; j < d->nports; j++) {
		const struct fab_port *p = &d->ports[j];

		out_obj_open(o, NULL);
		out_uint(o, PRINT_ANY, "port", p->num, "%s port %u ", j ? "," : ";", p->num);
		if (p->rate_known)
			out_float(o, PRINT_ANY, "rate_gbps", p->rate_gbps, 3, "%g Gb/s", p->rate_gbps);
		else
			out_null(o, PRINT_ANY, "rate_gbps", "rate unknown");
		if (known && p->rate_known)
			out_bool(o, PRINT_ANY, "fits", p->rate_gbps <= b.gbps, "%s",
				 p->rate_gbps <= b.gbps ? " fits" : " does NOT fit");
		else
			out_null(o, PRINT_JSON, "fits", NULL);
		out_obj_close(o);
	}
	out_arr_close(o);
	out_printf(o, "\n");
}

static void hca_out(struct out *o, const struct fab_device *d)
{
	const struct pci_hca *h = d->pci;

	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "device", d->name, "%s", d->name);
	if (!h) {
		out_null(o, PRINT_ANY, "address", ": no PCI function (its device link names none)\n");
		out_obj_close(o);
		return;
	}
	out_str(o, PRINT_ANY, "address", h->chain[0].addr, " at %s\n", h->chain[0].addr);
	place_out(o, &h->at);
	out_printf(o, "  %-14s %-16s %-5s %-16s %-5s %s\n", "FUNCTION", "SPEED", "WIDTH", "MAX SPEED", "MAX",
		   "AER COR/NONFATAL/FATAL");
	out_arr_open(o, "chain");
	for (size_t i = 0; i < h->nchain; i++)
		func_out(o, &h->chain[i], NULL, "  ");
	out_arr_close(o);
	links_out(o, h);
	carry_out(o, d);
	out_obj_close(o);
}

static void gpu_out(struct out *o, const struct fab_host *h, const struct pci_gpu *g)
{
	enum pci_dist best = PCI_DIST_UNKNOWN;
	char cls[16], id[16];

	snprintf(cls, sizeof(cls), "0x%06x", g->pci_class);
	snprintf(id, sizeof(id), "%04x:%04x", g->vendor, g->device);
	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "address", g->fn.addr, "%s", g->fn.addr);
	out_str(o, PRINT_ANY, "class", cls, "  %s", g->pci_class >> 8 == 0x0302 ? "3D controller" : "VGA controller");
	out_str(o, PRINT_ANY, "id", id, "  %s\n", id);
	place_out(o, &g->at);
	func_out(o, &g->fn, "link", "  ");
	out_arr_open(o, "hcas");
	out_printf(o, "  distance:");
	for (size_t i = 0; i < h->ndevs; i++) {
		const struct fab_device *d = &h->devs[i];
		enum pci_dist dist;
		const char *s;

		if (!d->pci)
			continue;
		dist = pci_distance(&g->at, &d->pci->at);
		s = pci_dist_str(dist);
		if (dist != PCI_DIST_UNKNOWN && (best == PCI_DIST_UNKNOWN || dist < best))
			best = dist;
		out_obj_open(o, NULL);
		out_str(o, PRINT_ANY, "device", d->name, " %s", d->name);
		out_str_or_null(o, PRINT_ANY, "distance", s, " %s", s ? s : "unknown");
		out_obj_close(o);
	}
	out_arr_close(o);
	/* every HCA at the nearest class: a GPU on one switch with two HCAs has two */
	out_arr_open(o, "nearest");
	out_printf(o, "\n  nearest:");
	for (size_t i = 0; i < h->ndevs && best != PCI_DIST_UNKNOWN; i++)
		if (h->devs[i].pci && pci_distance(&g->at, &h->devs[i].pci->at) == best)
			out_str(o, PRINT_ANY, NULL, h->devs[i].name, " %s", h->devs[i].name);
	if (best == PCI_DIST_UNKNOWN)
		out_printf(o, " unknown");
	out_arr_close(o);
	out_printf(o, "\n");
	out_obj_close(o);
}

void pci_report(struct out *o, const struct fab_host *h)
{
	out_arr_open(o, "pci");
	for (size_t i = 0; i < h->ndevs; i++) {
		out_printf(o, "%s", i ? "\n" : "");
		hca_out(o, &h->devs[i]);
	}
	out_arr_close(o);
	if (!h->ndevs)
		out_printf(o, "No RDMA devices found.\n");
	out_arr_open(o, "gpus");
	out_printf(o, "%sGPUs (PCI class 0x0300, 0x0302): %zu\n", h->ndevs ? "\n" : "", h->ngpus);
	for (size_t i = 0; i < h->ngpus; i++)
		gpu_out(o, h, &h->gpus[i]);
	out_arr_close(o);
}
