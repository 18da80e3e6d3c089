/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RDMA side of congestion control: which hw_counters name is which role (doc/roce.md). */
#ifndef FABTOP_DERIVE_ROCE_CTR_H
#define FABTOP_DERIVE_ROCE_CTR_H

#include <stdbool.h>

#include "model/fabric.h"

/* What a hw_counters file counts, whatever the driver calls it. */
enum roce_cc_role {
	ROCE_CC_CNP_SENT = 0,		/* notification point: CNPs sent for ECN-marked packets */
	ROCE_CC_ECN_MARKED,		/* notification point: ECN-marked RoCE packets received */
	ROCE_CC_CNP_HANDLED,		/* reaction point: CNPs received and acted on */
	ROCE_CC_CNP_IGNORED,		/* reaction point: CNPs received and not acted on */
	ROCE_CC_OUT_OF_BUFFER,		/* packets dropped: no receive WQE posted */
	ROCE_CC_OUT_OF_SEQUENCE,	/* packets received out of order (loss upstream) */
	ROCE_CC_PACKET_SEQ_ERR,		/* NAKs for sequence errors received */
	ROCE_CC_NROLES,
};

/* The role of a hw_counters name of any known driver, -1 for none. */
int roce_cc_role_of(const char *name);
/* "cnp_sent", ... for JSON and the pane. */
const char *roce_cc_role_key(enum roce_cc_role r);

/* The port's counter for a role (the first known name that is present), NULL if none. */
const struct fab_counter *roce_cc_counter(const struct fab_port *p, enum roce_cc_role r);

#endif
