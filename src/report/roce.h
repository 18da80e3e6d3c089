/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fabtop show roce: the lossless chain per RoCE port and priority, and its findings. */
#ifndef FABTOP_REPORT_ROCE_H
#define FABTOP_REPORT_ROCE_H

#include <stdio.h>

#include "derive/doctor.h"
#include "derive/roce_check.h"
#include "model/roce.h"
#include "report/out.h"

/*
 * cur, with rates against prev when prev is not NULL; then the findings
 * and the checks that could not run (roce_gaps()). "No problems found" is
 * said only when there are neither. In JSON the members "interval_s",
 * "roce_ports", "findings" and "not_checked" of the open object.
 */
void roce_report(struct out *o, const struct roce_state *prev, const struct roce_state *cur,
		 const struct doctor_finding *fs, size_t nfs, const struct roce_gap *gaps, size_t ngaps);

/* One check that could not run, as a line of text or a JSON object (the doctor lists them too). */
void roce_gap_out(struct out *o, const struct roce_gap *g);

#endif
