/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading an RDMA device's PCI function, the bridges up to its root port, and the host's GPUs from sysfs. */
#ifndef FABTOP_KERNEL_PCI_H
#define FABTOP_KERNEL_PCI_H

#include <stddef.h>

#include "model/pci.h"

/*
 * The PCI side of RDMA device `name` under the sysfs root (rootfd is it
 * opened, root its path): class/infiniband/NAME/device resolved to the
 * function, then each parent directory while it is a PCI function (up to
 * the root port), with their links and AER totals, and the device's NUMA
 * node and CPUs. *out is allocated (NULL when the device has no PCI
 * function: rxe, a link leaving the tree). 0 or -ENOMEM. Read with the
 * devices, never per sample: some twenty files a device.
 */
int pci_collect_hca(int rootfd, const char *root, const char *name, struct pci_hca **out);

/*
 * The display controllers among bus/pci/devices (model/pci.h:
 * pci_class_is_gpu()), in address order, at most PCI_MAX_GPUS. One read of
 * each function's class file, more only for a GPU. *gpus is allocated
 * (NULL when none). 0 or -ENOMEM.
 */
int pci_collect_gpus(int rootfd, const char *root, struct pci_gpu **gpus, size_t *n);

#endif
