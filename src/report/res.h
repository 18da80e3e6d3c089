/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One-shot reports of RDMA resources and their holders (fabtop show res), as text or JSON. */
#ifndef FABTOP_REPORT_RES_H
#define FABTOP_REPORT_RES_H

#include <stdio.h>

#include "model/res.h"
#include "report/out.h"

/* Which tables: all of them, or one. */
enum res_part {
	RES_PART_ALL = 0,
	RES_PART_QP,
	RES_PART_CM,
	RES_PART_PROC,
};

/* "qp", "cm", "proc": the part, -1 when the word is none of them. */
int res_part_parse(const char *word);

/* Is this holder a fabtop probe (its cm_ids are the probe's: doc/show.md)? */
bool res_proc_is_probe(const struct res_proc *p);

/* The holder as people read it: "rping" (pid), "[ib_ipoib]" for the kernel. */
void res_holder_str(const struct res_state *rs, const struct res_holder *h, char *buf, size_t size);

/* The tables asked for as text, or the member "res" (an object) of the open JSON object. */
void res_report(struct out *o, const struct res_state *rs, enum res_part part);

#endif
