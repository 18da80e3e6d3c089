/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The doctor's report for people (text) and scripts (JSON), from one walk. */
#ifndef FABTOP_REPORT_DOCTOR_H
#define FABTOP_REPORT_DOCTOR_H

#include <stdio.h>

#include "derive/doctor.h"
#include "report/out.h"

/*
 * The report: text for people (colour only when asked and the stream is a
 * terminal), or the members "problems", "rdma_netdevs", "ports",
 * "findings", "peer", "routes" of the open JSON object.
 */
void doctor_report(struct out *o, const struct doctor_report *r, bool color);
/*
 * A finding's title, cause, evidence and fix (every report of findings
 * ends a finding so): text lines, the cause wrapped when wrap; in JSON
 * members of the finding's open object.
 */
void doctor_finding_story(struct out *o, const struct doctor_finding *x, bool wrap);

#endif
