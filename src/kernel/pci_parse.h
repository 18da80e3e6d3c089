/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The PCI attributes of sysfs as text in, numbers out: no I/O, so every format is unit-tested and fuzzed. */
#ifndef FABTOP_KERNEL_PCI_PARSE_H
#define FABTOP_KERNEL_PCI_PARSE_H

#include <stdint.h>

#include "model/fabric.h"

/*
 * current_link_speed / max_link_speed into MT/s. Both of the kernel's
 * spellings: pci_speed_string() since Linux 5.1 ("2.5 GT/s PCIe", "8.0
 * GT/s PCIe", "64.0 GT/s PCIe", "Unknown") and the switch of the older
 * pci-sysfs.c ("2.5 GT/s", "8 GT/s", "Unknown speed"). 0, or -ENOENT for
 * the kernel's unknown (a link down, a function in D3cold reads all ones),
 * -EINVAL for anything else (a conventional PCI bus speed, garbage).
 */
int pci_parse_speed(const char *s, unsigned int *mts);

/*
 * current_link_width / max_link_width ("%u\n"; an "x16" is taken too).
 * 0 is a width: the link is down. -EINVAL past 32 lanes (PCIe has at most
 * x32; a function in D3cold reads all ones, 63) and for garbage.
 */
int pci_parse_width(const char *s, int *lanes);

/*
 * The TOTAL_<key> line of aer_dev_correctable ("TOTAL_ERR_COR"),
 * aer_dev_nonfatal ("TOTAL_ERR_NONFATAL") or aer_dev_fatal
 * ("TOTAL_ERR_FATAL"): drivers/pci/pcie/aer.c prints one "NAME COUNT" line
 * per error bit, then that total. 0, or -ENOENT when there is no such line.
 */
int pci_parse_aer_total(const char *text, const char *key, uint64_t *out);

/* numa_node: a signed decimal, -1 when the firmware gave none. -EINVAL for garbage or below -1. */
int pci_parse_numa(const char *s, int *node);

/* class ("0x030200\n"): the 24-bit class code. -EINVAL otherwise. */
int pci_parse_class(const char *s, uint32_t *cls);

/* vendor / device ("0x10de\n"). -EINVAL otherwise. */
int pci_parse_id(const char *s, uint16_t *id);

#endif
