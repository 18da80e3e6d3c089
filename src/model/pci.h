/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What lies under an RDMA port: its PCI function, the bridges up to the root port, NUMA, and the host's GPUs. */
#ifndef FABTOP_MODEL_PCI_H
#define FABTOP_MODEL_PCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/fabric.h"

#define PCI_ADDR_LEN	24	/* "0000:03:00.0"; VMD domains have five digits ("10000:e1:00.0") */
#define PCI_PATH_LEN	512	/* below devices/: "pci0000:00/0000:00:01.0/0000:03:00.0" */
#define PCI_SPEED_LEN	32	/* "16.0 GT/s PCIe", "Unknown speed" */
#define PCI_CPULIST_LEN	256	/* local_cpulist: "0-23,48-71" */
/*
 * Functions kept per chain: the device and the bridges above it. A root
 * port, two switch levels and a card's own switch are eight; past sixteen
 * a tree is odd and the rest is left out.
 */
#define PCI_MAX_CHAIN	16
#define PCI_MAX_GPUS	64	/* GPUs kept per host */

/* A PCI Express link as one function reports it (current_link_*, max_link_* of pci-sysfs). */
struct pci_link {
	unsigned int cur_mts, max_mts;		/* transfer rate, MT/s (2500 ... 64000); 0: unknown */
	int cur_width, max_width;		/* lanes; -1: unknown; a current width 0: the link is down */
	char cur_speed[PCI_SPEED_LEN];		/* the text as read, "" when absent */
	char max_speed[PCI_SPEED_LEN];
};

/* The AER totals the kernel keeps per function (aer_dev_*: the TOTAL_ lines); unknown without AER. */
struct pci_aer {
	struct opt_u64 correctable, nonfatal, fatal;
};

struct pci_func {
	char addr[PCI_ADDR_LEN];
	struct pci_link link;
	struct pci_aer aer;
};

/*
 * Where a PCI function sits: its path below devices/ (what the distance
 * classes are derived from), its NUMA node and the CPUs near it.
 */
struct pci_place {
	char path[PCI_PATH_LEN];
	int numa_node;				/* -1: unknown (the kernel's own -1, or unreadable) */
	char cpulist[PCI_CPULIST_LEN];		/* local_cpulist, "" unknown */
};

/* An RDMA device's PCI side: [0] its own function, then each bridge up to the root port. */
struct pci_hca {
	struct pci_place at;
	struct pci_func chain[PCI_MAX_CHAIN];
	size_t nchain;
};

/* A display controller found by its PCI class (derive/pci.h: pci_class_is_gpu()). */
struct pci_gpu {
	struct pci_func fn;
	struct pci_place at;
	uint32_t pci_class;			/* the class file: 0x030200 */
	uint16_t vendor, device;		/* 0 unknown */
};

/* A VGA compatible or 3D controller (class 0x0300xx, 0x0302xx), any vendor. */
bool pci_class_is_gpu(uint32_t pci_class);

/*
 * A PCI function's sysfs name: DOMAIN:BUS:DEV.FN in hex, the domain four
 * digits or more (VMD's are five), "0000:03:00.0". Host bridges
 * ("pci0000:00") and everything else are not.
 */
bool pci_is_func_name(const char *name);

#endif
