/* SPDX-License-Identifier: GPL-2.0-or-later */
/* GID text <-> bytes, empty entries, IPv4-mapped addresses, type names. */
#ifndef FABTOP_DERIVE_GID_H
#define FABTOP_DERIVE_GID_H

#include <stdbool.h>
#include <stdint.h>

#include "model/fabric.h"

/* "fe80:0000:...:0001" (exactly 8 groups of up to 4 hex digits) into 16 bytes. */
bool gid_parse(const char *s, uint8_t raw[16]);
/*
 * An empty slot of a port's table: its interface ID (bytes 8-15) is zero,
 * all zeros (today's kernels) or the subnet prefix alone (older kernels' IB
 * ports); on an iWARP device (iwarp: node type RNIC), whose GIDs are a MAC
 * address and zeros, only all zeros. The one rule: collection, recordings
 * and so every view use it.
 */
bool gid_is_empty(const uint8_t raw[16], bool iwarp);
/* Fill g->gid (8 groups of 4 digits) and the IPv4 of a ::ffff:a.b.c.d GID from g->raw. */
void gid_format(struct fab_gid *g);
/* gid_attrs/types/N text ("IB/RoCE v1", "RoCE v2", "" on old kernels) to a type. */
enum fab_gid_type gid_type_parse(const char *s, enum fab_link_layer ll);

#endif
