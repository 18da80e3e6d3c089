// SPDX-License-Identifier: GPL-2.0-or-later
/* PCIe throughput, links as trained, and GPU-to-HCA distance classes, from the PCI model alone. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "derive/pci.h"
#include "util.h"

/*
 * Per-lane data rate after line encoding, PCI Express Base Specification:
 * 2.5 and 5.0 GT/s (1.x, 2.x) send 8b/10b, 8 data bits in 10 (x 0.8);
 * 8.0, 16.0 and 32.0 GT/s (3.x-5.x) send 128b/130b (x 128/130); 64.0 GT/s
 * (6.x) signals PAM4 in FLIT mode, with no line encoding but a 256-byte
 * flit of 236 bytes of TLPs, 6 of DLLPs, 8 of CRC and 6 of FEC: 242 of 256
 * bytes carry what the other generations count (x 242/256).
 */
static const struct {
	unsigned int mts;
	double gbps;
} lane_rates[] = {
	{ 2500, 2.5 * 8 / 10 },
	{ 5000, 5.0 * 8 / 10 },
	{ 8000, 8.0 * 128 / 130 },
	{ 16000, 16.0 * 128 / 130 },
	{ 32000, 32.0 * 128 / 130 },
	{ 64000, 64.0 * 242 / 256 },
};

double pci_lane_gbps(unsigned int mts)
{
	for (size_t i = 0; i < ARRAY_SIZE(lane_rates); i++)
		if (lane_rates[i].mts == mts)
			return lane_rates[i].gbps;
	return 0;
}

const char *pci_link_str(unsigned int mts, int width, char *buf, size_t size)
{
	char rate[16] = "?", lanes[16] = "?";

	if (width == 0) {
		snprintf(buf, size, "down");
		return buf;
	}
	if (mts)
		snprintf(rate, sizeof(rate), "%.1f GT/s", mts / 1000.0);
	if (width > 0)
		snprintf(lanes, sizeof(lanes), "%d", width);
	snprintf(buf, size, "%s x%s", rate, lanes);
	return buf;
}

static unsigned int min_rate(unsigned int a, unsigned int b)
{
	if (!a || !b)
		return a ? a : b;
	return a < b ? a : b;
}

static int min_width(int a, int b)
{
	if (a < 0 || b < 0)
		return a < 0 ? b : a;
	return a < b ? a : b;
}

static void hop_of(const struct pci_hca *h, size_t lower, size_t upper, struct pci_hop *o)
{
	const struct pci_link *a = &h->chain[lower].link, *b = &h->chain[upper].link;

	memset(o, 0, sizeof(*o));
	o->lower = lower;
	o->upper = upper;
	o->cur_mts = min_rate(a->cur_mts, b->cur_mts);
	o->max_mts = min_rate(a->max_mts, b->max_mts);
	o->cur_width = min_width(a->cur_width, b->cur_width);
	o->max_width = min_width(a->max_width, b->max_width);
	o->down = o->cur_width == 0;
	if (!o->down && o->cur_width > 0)
		o->gbps = pci_lane_gbps(o->cur_mts) * o->cur_width;
	/* only what both ends say, never a guess: a down link is not "degraded", it is down */
	o->degraded = !o->down && ((o->cur_mts && o->max_mts && o->cur_mts < o->max_mts) ||
				   (o->cur_width > 0 && o->max_width > 0 && o->cur_width < o->max_width));
}

size_t pci_hops(const struct pci_hca *h, struct pci_hop *hops, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < h->nchain && n < max; i += 2)
		hop_of(h, i, i + 1 < h->nchain ? i + 1 : i, &hops[n++]);
	return n;
}

bool pci_bottleneck(const struct pci_hca *h, struct pci_hop *out)
{
	struct pci_hop hops[PCI_MAX_CHAIN];
	size_t n = pci_hops(h, hops, ARRAY_SIZE(hops));
	bool found = false;

	for (size_t i = 0; i < n; i++)
		if (hops[i].gbps > 0 && (!found || hops[i].gbps < out->gbps)) {
			*out = hops[i];
			found = true;
		}
	return found;
}

/* A path below devices/ as components; how many (at most max). */
static size_t split(const char *path, const char **comp, size_t *len, size_t max)
{
	size_t n = 0;

	while (*path && n < max) {
		const char *slash = strchr(path, '/');
		size_t l = slash ? (size_t)(slash - path) : strlen(path);

		if (l) {
			comp[n] = path;
			len[n++] = l;
		}
		path += l + (slash != NULL);
	}
	return n;
}

static bool is_func(const char *c, size_t l)
{
	char name[PCI_ADDR_LEN];

	if (l >= sizeof(name))
		return false;
	memcpy(name, c, l);
	name[l] = '\0';
	return pci_is_func_name(name);
}

/*
 * The classes from the two paths below devices/ (the kernel's device
 * tree): a path ends in a run of PCI functions (root port, switch ports,
 * the device) under a host bridge directory ("pci0000:00", the root
 * complex). Let L be the lowest PCI function both paths pass through.
 *
 *   PIX   L exists, and between L and each device is at most one function
 *         (the downstream port of a switch whose upstream port is L, or L
 *         is the port above both: functions of one card, or one switch).
 *   PXB   L exists, and more functions lie between: several switches.
 *   PHB   no common function, the same host bridge (different root ports).
 *   NODE  different host bridges, the same NUMA node (numa_node of each).
 *   SYS   different host bridges on different NUMA nodes.
 *
 * Different host bridges with a NUMA node unknown (-1) is no class: the
 * firmware did not say where the bridges are.
 */
enum pci_dist pci_distance(const struct pci_place *a, const struct pci_place *b)
{
	const char *ca[PCI_MAX_CHAIN * 2], *cb[PCI_MAX_CHAIN * 2];
	size_t la[PCI_MAX_CHAIN * 2], lb[PCI_MAX_CHAIN * 2];
	size_t na = split(a->path, ca, la, ARRAY_SIZE(ca)), nb = split(b->path, cb, lb, ARRAY_SIZE(cb));
	size_t ha = na, hb = nb, common = 0;

	/* the host bridge: the component above the run of functions that ends each path */
	while (ha && is_func(ca[ha - 1], la[ha - 1]))
		ha--;
	while (hb && is_func(cb[hb - 1], lb[hb - 1]))
		hb--;
	if (ha == na || hb == nb)
		return PCI_DIST_UNKNOWN;	/* not a PCI function */
	while (common < na && common < nb && la[common] == lb[common] && !memcmp(ca[common], cb[common], la[common]))
		common++;
	if (common < ha || ha != hb) {
		if (a->numa_node < 0 || b->numa_node < 0)
			return PCI_DIST_UNKNOWN;
		return a->numa_node == b->numa_node ? PCI_DIST_NODE : PCI_DIST_SYS;
	}
	if (common == ha)
		return PCI_DIST_PHB;
	/* L is component common - 1; what lies strictly between it and each device */
	if (na - common <= 2 && nb - common <= 2)
		return PCI_DIST_PIX;
	return PCI_DIST_PXB;
}

const char *pci_dist_str(enum pci_dist d)
{
	static const char *const names[] = {
		[PCI_DIST_PIX] = "PIX", [PCI_DIST_PXB] = "PXB", [PCI_DIST_PHB] = "PHB",
		[PCI_DIST_NODE] = "NODE", [PCI_DIST_SYS] = "SYS",
	};

	return util_name(names, ARRAY_SIZE(names), d, NULL);
}
