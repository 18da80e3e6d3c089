// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the rdma_cm decoding tables: reject reasons, event names, errno meanings. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <rdma/rdma_cma.h>

#include "probe/cm_reason.h"
#include "../unit/tap.h"

int main(void)
{
	const struct cm_reason *r;
	char buf[300];
	int i, n = 0, prev = 0, sorted = 1;

	r = cm_reason_reject(8);
	ASSERT_EQ_STR(r ? r->name : NULL, "invalid service ID", "reason 8 is invalid service ID");
	r = cm_reason_reject(28);
	ASSERT_EQ_STR(r ? r->name : NULL, "consumer defined", "reason 28 is consumer defined");
	r = cm_reason_reject(12);
	ASSERT_CONTAINS(r ? r->meaning : NULL, "GID", "reason 12 talks about the GID");
	TAP_OK(cm_reason_reject(0) == NULL && cm_reason_reject(34) == NULL && cm_reason_reject(36) == NULL &&
	       cm_reason_reject(-1) == NULL, "reasons outside Table 112 are unknown");
	for (i = 1; i <= 35; i++) {
		r = cm_reason_reject(i);
		if (!r)
			continue;
		n++;
		if (r->code <= prev || !r->name[0] || !r->meaning[0])
			sorted = 0;
		prev = r->code;
	}
	ASSERT_EQ_INT(n, 34, "Table 112: reasons 1-33 and 35");
	ASSERT_EQ_INT(cm_reason_reject_count(), 34, "the table holds exactly those");
	TAP_OK(sorted, "every reason has a name and a meaning, in order (the last checked: %d)", prev);

	ASSERT_EQ_STR(cm_reason_event_name(RDMA_CM_EVENT_ADDR_RESOLVED), "ADDR_RESOLVED", "event name");
	ASSERT_EQ_STR(cm_reason_event_name(RDMA_CM_EVENT_REJECTED), "REJECTED", "event REJECTED");
	ASSERT_EQ_STR(cm_reason_event_name(RDMA_CM_EVENT_TIMEWAIT_EXIT), "TIMEWAIT_EXIT", "last event");
	ASSERT_EQ_STR(cm_reason_event_name(99), "UNKNOWN", "unknown event");
	ASSERT_EQ_STR(cm_reason_event_name(-3), "UNKNOWN", "negative event");
	/* rdma_event_str() agrees on every name */
	for (i = RDMA_CM_EVENT_ADDR_RESOLVED; i <= RDMA_CM_EVENT_TIMEWAIT_EXIT; i++)
		if (strcmp(rdma_event_str((enum rdma_cm_event_type)i) + strlen("RDMA_CM_EVENT_"),
			   cm_reason_event_name(i)))
			break;
	ASSERT_EQ_INT(i, RDMA_CM_EVENT_TIMEWAIT_EXIT + 1, "names match librdmacm's rdma_event_str()");

	r = cm_reason_errno(RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT);
	ASSERT_EQ_STR(r ? r->name : NULL, "ETIMEDOUT", "UNREACHABLE -110 is ETIMEDOUT");
	ASSERT_CONTAINS(r ? r->meaning : NULL, "never answered", "UNREACHABLE -110: the peer never answered");
	r = cm_reason_errno(RDMA_CM_EVENT_ADDR_ERROR, -ETIMEDOUT);
	ASSERT_CONTAINS(r ? r->meaning : NULL, "neighbour", "ADDR_ERROR -110: no neighbour answer");
	r = cm_reason_errno(RDMA_CM_EVENT_ESTABLISHED, -ENOMEM);
	ASSERT_CONTAINS(r ? r->meaning : NULL, "memory", "generic errno fallback");
	ASSERT_NULL(cm_reason_errno(RDMA_CM_EVENT_ADDR_ERROR, -EDOM), "errno not in the table");

	cm_reason_explain(buf, sizeof(buf), RDMA_CM_EVENT_REJECTED, 8);
	ASSERT_EQ_STR(buf, "reason 8 (invalid service ID): the peer's CM found no listener for that port (service ID): nothing listens there, or the peer's kernel refused the request's addresses",
		      "explain REJECTED 8");
	cm_reason_explain(buf, sizeof(buf), RDMA_CM_EVENT_REJECTED, 99);
	ASSERT_EQ_STR(buf, "reason 99 (not in IBA Table 112)", "explain unknown reason");
	cm_reason_explain(buf, sizeof(buf), RDMA_CM_EVENT_UNREACHABLE, -110);
	TAP_OK(strstr(buf, "status -110 (ETIMEDOUT): the peer never answered") == buf, "explain UNREACHABLE -110: %s", buf);
	cm_reason_explain(buf, sizeof(buf), RDMA_CM_EVENT_ADDR_ERROR, -EDOM);
	TAP_OK(!strncmp(buf, "status -33 (", 12), "explain falls back to strerror: %s", buf);
	cm_reason_explain(buf, 8, RDMA_CM_EVENT_REJECTED, 8);
	ASSERT_EQ_INT(strlen(buf), 7, "explain truncates to the buffer");
	cm_reason_explain(buf, sizeof(buf), RDMA_CM_EVENT_ESTABLISHED, 0);
	ASSERT_EQ_STR(buf, "the connection is up", "explain a plain event");
	return tap_done();
}
