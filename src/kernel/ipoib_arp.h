/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An IPoIB neighbour's port GUID, from the kernel's ARP table (/proc/net/arp). */
#ifndef FABTOP_KERNEL_IPOIB_ARP_H
#define FABTOP_KERNEL_IPOIB_ARP_H

#include <stddef.h>
#include <stdint.h>

#include "ctx.h"

/*
 * In /proc/net/arp text, the entry of IPv4 address ip whose hardware type
 * is InfiniBand (0x20): its 20-byte IPoIB address is 4 bytes of flags and
 * QPN, then the port's GID, whose last 8 bytes are the port GUID. 0 with
 * *guid (and the device in dev), -ENOENT when ip has no complete entry,
 * -EPROTOTYPE when its entry is not InfiniBand's, -EINVAL on a malformed one.
 */
int ipoib_arp_parse(const char *text, const char *ip, uint64_t *guid, char *dev, size_t devsz);

/* The same on ctx's <proc>/net/arp; why says what to do when it fails. */
int ipoib_arp_guid(const struct fab_ctx *ctx, const char *ip, uint64_t *guid, char *dev, size_t devsz,
		   char *why, size_t whysz);

#endif
