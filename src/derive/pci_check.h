/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The doctor's findings about what lies under a port (finding 9): PCIe links, and ports far below their siblings. */
#ifndef FABTOP_DERIVE_PCI_CHECK_H
#define FABTOP_DERIVE_PCI_CHECK_H

#include <stddef.h>

#include "derive/doctor.h"
#include "model/fabric.h"

/*
 * The findings of h into out (at most cap); returns how many there are, so
 * a first call with cap 0 sizes the array. Pure: h's PCI side was read
 * with its devices (kernel/pci.h).
 */
size_t pci_check(const struct fab_host *h, struct doctor_finding *out, size_t cap);

#endif
