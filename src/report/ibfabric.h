/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fabtop show fabric`: local IB ports, their SM and partners, PMA counters of both ends, the swept fabric. */
#ifndef FABTOP_REPORT_IBFABRIC_H
#define FABTOP_REPORT_IBFABRIC_H

#include <stdio.h>

#include "model/fabric.h"
#include "model/ibfabric.h"
#include "report/out.h"

/*
 * Local ports, their SM and partners, the swept nodes: text, or the
 * "fabric" member of the open JSON object, left open for more members
 * (close it with out_obj_close()).
 */
void ibfabric_report(struct out *o, const struct ib_fabric *f);
/* Rates of both ends of every local port between the last two PMA samples (JSON: an array element). */
void ibfabric_rates(struct out *o, const struct ib_fabric *f, unsigned int sample, double interval_s);
/* "0002:c903:0031:78f0", the kernel's GUID spelling. */
void ibfabric_guid_str(uint64_t guid, char *buf, size_t size);

#endif
