// SPDX-License-Identifier: GPL-2.0-or-later
/* Asking the subnet manager's SA: a GUID's LID from one NodeRecord Get. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/umad.h>

#include "derive/mad_decode.h"
#include "mad/mad.h"
#include "mad/mad_sa.h"
#include "model/fabric.h"
#include "util.h"

/* The SA's answer for a GUID: a retry included, well under a sweep. */
#define SA_ANSWER_NS		(1ull * 1000000000ull)

/* One NodeRecord Get: the port's LID, or a status (no record, too many, a timeout). */
struct sa_ask {
	bool done;
	int status;
	uint16_t lid;
	struct mad_node_info ni;
};

static void sa_cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len)
{
	struct sa_ask *a = arg;
	const uint8_t *data;
	size_t dlen;
	struct mad_hdr h;

	(void)s;
	a->done = true;
	a->status = status ? status : mad_decode_reply_data(mad, len, MAD_ATTR_NODE_RECORD, &data, &dlen, &h);
	if (!a->status)
		a->status = mad_decode_node_record(data, dlen, &a->lid, &a->ni, NULL, 0);
}

bool mad_sa_guid_lid(const struct fab_ctx *ctx, const struct umad_local *lp, uint64_t guid, uint16_t *lid)
{
	static const uint64_t masks[] = { MAD_NR_COMP_PORT_GUID, MAD_NR_COMP_NODE_GUID };
	/* where each GUID sits in the record's NodeInfo (IBA 14.2.5.3) */
	static const size_t offs[] = { MAD_NR_NODE_INFO_OFF + 20, MAD_NR_NODE_INFO_OFF + 12 };
	struct mad_session *s;
	umad_port_t up;
	uint16_t sm_lid;
	char why[768];
	bool found = false;

	if (umad_get_port(lp->ca, (int)lp->port, &up) < 0)
		return false;
	sm_lid = up.state == PORT_STATE_ACTIVE && up.sm_lid < 0xc000 ? (uint16_t)up.sm_lid : 0;
	umad_release_port(&up);
	if (!sm_lid || mad_session_open(&s, ctx, lp, why, sizeof(why)))
		return false;
	mad_session_set_opts(s, &(struct mad_opts){ .timeout_ms = 200, .retries = 1, .window = 1 });
	for (size_t i = 0; i < ARRAY_SIZE(masks) && !found; i++) {
		uint8_t rec[MAD_NR_SIZE] = { 0 };
		struct sa_ask a = { 0 };

		for (int b = 0; b < 8; b++)
			rec[offs[i] + (size_t)b] = (uint8_t)(guid >> (56 - 8 * b));
		if (mad_sa_get(s, sm_lid, MAD_ATTR_NODE_RECORD, masks[i], rec, sizeof(rec), sa_cb, &a))
			break;
		mad_run(s, util_now_ns() + SA_ANSWER_NS);
		found = a.done && !a.status && a.lid && a.lid < 0xc000;
		if (found)
			*lid = a.lid;
		/* no answer at all: the node GUID would time out the same way */
		if (a.status == -ETIMEDOUT || !a.done)
			break;
	}
	mad_session_close(s);
	return found;
}
