/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fabtop trace`: the path to a LID hop by hop, as text or JSON. */
#ifndef FABTOP_REPORT_TRACE_H
#define FABTOP_REPORT_TRACE_H

#include <stdio.h>

#include "model/ibfabric.h"
#include "report/json.h"

void trace_text(FILE *out, const struct ib_trace *t);
/* The trace as one JSON object (the caller opens and ends the document). */
void trace_json(struct json *j, const struct ib_trace *t);

#endif
