/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tables that decode rdma_cm: event names, IB CM reject reasons, errno statuses, each with a meaning. */
#ifndef FABTOP_PROBE_CM_REASON_H
#define FABTOP_PROBE_CM_REASON_H

#include <stddef.h>

struct cm_reason {
	int code;		/* reject reason, rdma_cm event, or errno (positive) */
	const char *name;	/* short: "invalid service ID", "ADDR_RESOLVED", "ETIMEDOUT" */
	const char *meaning;	/* one line for a person debugging a connection */
};

/* IB CM reject reason (IBA vol 1, Table 112, "REJ reason"); NULL when unknown. */
const struct cm_reason *cm_reason_reject(int reason);

/* rdma_cm event type (enum rdma_cm_event_type); NULL when unknown. */
const struct cm_reason *cm_reason_event(int event);
/* Event name without the RDMA_CM_EVENT_ prefix; "UNKNOWN" when unknown. */
const char *cm_reason_event_name(int event);

/* A status in an ADDR_ERROR/ROUTE_ERROR/UNREACHABLE/CONNECT_ERROR event (a
 * negative errno), explained for that event; NULL when the table has nothing. */
const struct cm_reason *cm_reason_errno(int event, int status);

/*
 * One line for an event and its status, e.g.
 *   "reason 8 (invalid service ID): the peer's CM found no listener ..."
 *   "status -110 (ETIMEDOUT): the peer never answered the connection request ..."
 * Returns buf.
 */
char *cm_reason_explain(char *buf, size_t len, int event, int status);

/* The number of entries in the reject table (for tests). */
size_t cm_reason_reject_count(void);

#endif
