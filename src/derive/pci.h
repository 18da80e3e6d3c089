/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a PCIe chain can carry and how far a GPU is from an HCA: pure functions of model/pci.h. */
#ifndef FABTOP_DERIVE_PCI_H
#define FABTOP_DERIVE_PCI_H

#include <stdbool.h>
#include <stddef.h>

#include "model/pci.h"

/*
 * Gb/s one lane carries at a transfer rate (MT/s) after its line
 * encoding; 0 for a rate no generation has (derive/pci.c says where each
 * figure comes from). Packet overheads (TLP headers, DLLPs) take a further
 * 5-15 %: a link below a port's rate by this figure is surely too slow.
 */
double pci_lane_gbps(unsigned int mts);

/*
 * One physical link of a chain. sysfs shows a link at both of its ends:
 * an endpoint or a switch's upstream port reports the link above it, a
 * root port or a switch's downstream port the link below it. Walking up
 * from the device, the functions therefore pair off: (device, the port
 * above it), (a switch's upstream port, the port above that), ...; the
 * link from a switch's upstream port to its own downstream ports is
 * inside the switch and has no link registers. A function left over
 * (a device right under a host bridge, as in most virtual machines) is a
 * link seen from one end.
 */
struct pci_hop {
	size_t lower, upper;		/* chain indexes of its two ends (equal: one end seen) */
	unsigned int cur_mts;		/* the slower current rate of the two ends; 0 unknown */
	unsigned int max_mts;		/* the lower maximum: what the link could train at */
	int cur_width, max_width;	/* the same for lanes; -1 unknown */
	bool down;			/* an end reads width 0: the link is down or powered down */
	double gbps;			/* what it carries as trained (pci_lane_gbps() x lanes); 0 unknown */
	bool degraded;			/* trained below what both ends can do */
};

/* "16.0 GT/s x16", "8.0 GT/s x?", "? x8", "down" (width 0): a link's rate and lanes for people. */
const char *pci_link_str(unsigned int mts, int width, char *buf, size_t size);

/* The links of h's chain, device first, at most max (PCI_MAX_CHAIN is enough). Returns how many. */
size_t pci_hops(const struct pci_hca *h, struct pci_hop *hops, size_t max);

/*
 * The link that decides what h's chain carries: the known hop that carries
 * least. false when no hop's throughput is known (every link down,
 * unknown, or no PCIe attributes at all).
 */
bool pci_bottleneck(const struct pci_hca *h, struct pci_hop *out);

/*
 * The distance classes of `nvidia-smi topo -m`, nearest first. Defined
 * on the paths below devices/ (derive/pci.c: pci_distance()).
 */
enum pci_dist {
	PCI_DIST_UNKNOWN = 0,	/* different host bridges and a NUMA node unknown */
	PCI_DIST_PIX,
	PCI_DIST_PXB,
	PCI_DIST_PHB,
	PCI_DIST_NODE,
	PCI_DIST_SYS,
};

enum pci_dist pci_distance(const struct pci_place *a, const struct pci_place *b);
/* "PIX", "PXB", "PHB", "NODE", "SYS"; NULL for unknown. */
const char *pci_dist_str(enum pci_dist d);

#endif
