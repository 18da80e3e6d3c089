/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Asking the subnet manager's SA (subnet administration, IBA 15): a GUID's LID. */
#ifndef FABTOP_MAD_MAD_SA_H
#define FABTOP_MAD_MAD_SA_H

#include <stdbool.h>
#include <stdint.h>

#include "ctx.h"
#include "mad/umad.h"

/*
 * A GUID to a LID through the SA, without a sweep: a NodeRecord Get to the
 * SM of lp's port by port GUID, then by node GUID (a switch, or a CA with
 * one port). true with *lid when the SA named one port; false when there
 * is no SM, it did not answer, or the GUID names no port or several (a
 * CA's node GUID with two): a sweep decides then.
 */
bool mad_sa_guid_lid(const struct fab_ctx *ctx, const struct umad_local *lp, uint64_t guid, uint16_t *lid);

#endif
