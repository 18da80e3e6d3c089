/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fabtop trace`: the path to a LID hop by hop, as text or JSON. */
#ifndef FABTOP_REPORT_TRACE_H
#define FABTOP_REPORT_TRACE_H

#include <stdio.h>

#include "model/ibfabric.h"
#include "report/out.h"

/* The trace as text, or as the member "trace" of the open JSON object. */
void trace_report(struct out *o, const struct ib_trace *t);

#endif
