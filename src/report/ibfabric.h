/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fabtop show fabric`: local IB ports, their SM and partners, PMA counters of both ends, the swept fabric. */
#ifndef FABTOP_REPORT_IBFABRIC_H
#define FABTOP_REPORT_IBFABRIC_H

#include <stdio.h>

#include "model/fabric.h"
#include "model/ibfabric.h"
#include "report/json.h"

void ibfabric_text(FILE *out, const struct ib_fabric *f);
/* The "fabric" member inside an open JSON object, left open for more members (close it with json_obj_end()). */
void ibfabric_json_members(struct json *j, const struct ib_fabric *f);
/* Rates of both ends of every local port between the last two PMA samples. */
void ibfabric_rates_text(FILE *out, const struct ib_fabric *f, unsigned int sample);
void ibfabric_rates_json(struct json *j, const struct ib_fabric *f, unsigned int sample, double interval_s);
/* "0002:c903:0031:78f0", the kernel's GUID spelling. */
void ibfabric_guid_str(uint64_t guid, char *buf, size_t size);

#endif
