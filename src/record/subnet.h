/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Fabric pane's subnet as a recording keeps it: every node, port, link and PMA sample, and the lost links. */
#ifndef FABTOP_RECORD_SUBNET_H
#define FABTOP_RECORD_SUBNET_H

#include <stdint.h>

#include "derive/fabric_links.h"
#include "model/ibfabric.h"
#include "record/codec.h"

/* What the live subnet had just done when it was written (a replay does the same with it). */
enum rec_subnet_news {
	REC_SUBNET_STATE = 0,		/* opened, failed, or a sweep started: reason or status changed */
	REC_SUBNET_SWEPT = 1,		/* a new sweep is shown */
	REC_SUBNET_SAMPLED = 2,		/* a round of PMA samples of every port is in */
};

/* One subnet record (doc/recording.md). */
struct rec_subnet {
	char reason[768];		/* why there is no view ("" when there is one) */
	char status[64];		/* "sampling 2,688 ports", "" when idle */
	enum rec_subnet_news news;
	uint64_t sweeps;
	struct ib_fabric f;		/* nodes, their ports and PMA, links, truncated_nodes; no local ports */
	struct fabric_lost_link *lost;
	size_t nlost;
};

/*
 * What a decoded subnet may take in memory: a PMA is about 4.3 KB decoded,
 * so the 2,688 ports of a 1,016-node fat tree take about 12 MB and 30,000
 * ports about 130 MB. Past this a record is refused, saying so.
 */
#define REC_SUBNET_BUDGET	(256u << 20)

void rec_subnet_encode(struct rec_buf *b, const struct rec_subnet *s);
/* Into a zeroed s; 0, -ENOMEM, or -EINVAL with c->err saying what was expected. */
int rec_subnet_decode(struct rec_cur *c, struct rec_subnet *s);
/* The arrays; s is zeroed. */
void rec_subnet_free(struct rec_subnet *s);

#endif
