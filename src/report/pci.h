/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fabtop show pci: each RDMA device's PCIe link up to the root port, NUMA, and the GPUs' distance to each. */
#ifndef FABTOP_REPORT_PCI_H
#define FABTOP_REPORT_PCI_H

#include "model/fabric.h"
#include "report/out.h"

/* In JSON the members "pci" (one object a device) and "gpus" of the open object. */
void pci_report(struct out *o, const struct fab_host *h);

#endif
