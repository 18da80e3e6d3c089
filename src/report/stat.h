/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fabtop counters qp show`: QP counters, their ports' binding mode, the QPs bound and who holds them. */
#ifndef FABTOP_REPORT_STAT_H
#define FABTOP_REPORT_STAT_H

#include <stdio.h>

#include "model/res.h"
#include "model/stat.h"
#include "report/out.h"

/* Why a QP's traffic may be missing from its counter: said with every report. */
extern const char stat_qp_caveat[];

/*
 * Text, or the "qp_counters" member of a JSON object. rs (may be NULL)
 * names the holder of each bound QP. dev/port (NULL/0: all) pick one port.
 */
void stat_report_qp(struct out *o, const struct stat_state *st, const struct res_state *rs, const char *dev,
		    unsigned int port);

#endif
