/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The doctor's report for people (text) and scripts (JSON). */
#ifndef FABTOP_REPORT_DOCTOR_H
#define FABTOP_REPORT_DOCTOR_H

#include <stdio.h>

#include "derive/doctor.h"
#include "report/json.h"

void doctor_report_text(FILE *f, const struct doctor_report *r, bool color);
/* Members "findings", "peer", "routes", "problems" inside an open object. */
void doctor_report_json(struct json *j, const struct doctor_report *r);
/* A finding's title, cause, evidence and fix as JSON members (every report of findings ends its object so). */
void doctor_finding_json_story(struct json *j, const struct doctor_finding *x);

#endif
