// SPDX-License-Identifier: GPL-2.0-or-later
/* dcbnl (RTM_GETDCB DCB_CMD_IEEE_GET) answers into struct roce_dcb, each attribute checked. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <string.h>

#include "kernel/dcb_parse.h"
#include "kernel/nl_parse.h"

static int app_cb(const struct nlattr *a, void *arg)
{
	struct roce_dcb *d = arg;
	struct dcb_app app;
	uint16_t type = mnl_attr_get_type(a);

	if (type != DCB_ATTR_IEEE_APP && type != DCB_ATTR_DCB_APP_NUM) {
		d->unknown_attrs++;
		return 0;
	}
	if (mnl_attr_get_payload_len(a) < sizeof(app))
		return -EBADMSG;
	memcpy(&app, mnl_attr_get_payload(a), sizeof(app));
	if (d->napps >= ROCE_MAX_APPS) {
		d->apps_dropped++;
		return 0;
	}
	d->apps[d->napps].selector = app.selector;
	d->apps[d->napps].priority = app.priority;
	d->apps[d->napps].protocol = app.protocol;
	d->napps++;
	return 0;
}

static int trust_cb(const struct nlattr *a, void *arg)
{
	struct roce_dcb *d = arg;

	if (mnl_attr_get_type(a) != DCB_ATTR_DCB_APP_TRUST_NUM) {
		d->unknown_attrs++;
		return 0;
	}
	if (mnl_attr_get_payload_len(a) < 1)
		return -EBADMSG;
	if (d->ntrust < ROCE_MAX_TRUST)
		d->trust[d->ntrust++] = mnl_attr_get_u8(a);
	return 0;
}

static int ieee_cb(const struct nlattr *a, void *arg)
{
	struct roce_dcb *d = arg;
	size_t len = mnl_attr_get_payload_len(a);
	const void *data = mnl_attr_get_payload(a);

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IEEE_ETS: {
		struct ieee_ets ets;

		if (len < sizeof(ets))
			return -EBADMSG;
		memcpy(&ets, data, sizeof(ets));
		d->has_ets = true;
		d->ets_cap = ets.ets_cap;
		memcpy(d->prio_tc, ets.prio_tc, ROCE_PRIOS);
		memcpy(d->tc_tx_bw, ets.tc_tx_bw, ROCE_PRIOS);
		memcpy(d->tc_tsa, ets.tc_tsa, ROCE_PRIOS);
		return 0;
	}
	case DCB_ATTR_IEEE_PFC: {
		struct ieee_pfc pfc;

		if (len < sizeof(pfc))
			return -EBADMSG;
		memcpy(&pfc, data, sizeof(pfc));
		d->has_pfc = true;
		d->pfc_cap = pfc.pfc_cap;
		d->pfc_en = pfc.pfc_en;
		d->pfc_delay = pfc.delay;
		memcpy(d->pfc_requests, pfc.requests, sizeof(d->pfc_requests));
		memcpy(d->pfc_indications, pfc.indications, sizeof(d->pfc_indications));
		return 0;
	}
	case DCB_ATTR_IEEE_APP_TABLE:
		return nl_attrs_walk(data, len, app_cb, d);
	case DCB_ATTR_DCB_APP_TRUST_TABLE_NUM:
		d->has_trust = true;
		return nl_attrs_walk(data, len, trust_cb, d);
	default:
		d->unknown_attrs++;	/* peer ETS/PFC/APP, maxrate, QCN, buffer, rewrite... */
		return 0;
	}
}

static int top_cb(const struct nlattr *a, void *arg)
{
	struct roce_dcb *d = arg;

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IFNAME:
		return 0;
	case DCB_ATTR_IEEE:
		return nl_attrs_walk(mnl_attr_get_payload(a), mnl_attr_get_payload_len(a), ieee_cb, d);
	case DCB_ATTR_DCBX:
		if (mnl_attr_get_payload_len(a) < 1)
			return -EBADMSG;
		d->has_dcbx = true;
		d->dcbx = mnl_attr_get_u8(a);
		return 0;
	default:
		d->unknown_attrs++;
		return 0;
	}
}

int dcb_parse_ieee(const struct nlmsghdr *nlh, struct roce_dcb *out)
{
	const struct dcbmsg *dm;
	size_t hdr = NLMSG_LENGTH(sizeof(*dm));
	int rc;

	memset(out, 0, sizeof(*out));
	if (nlh->nlmsg_len < NLMSG_HDRLEN)
		return -EBADMSG;
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
			return -EBADMSG;
		/* error 0 is an ACK: no answer, nothing known */
		out->err = e->error < 0 ? e->error : -ENODATA;
		return 0;
	}
	if (nlh->nlmsg_type != RTM_GETDCB)
		return -ENOENT;
	if (nlh->nlmsg_len < hdr)
		return -EBADMSG;
	dm = mnl_nlmsg_get_payload(nlh);
	if (dm->cmd != DCB_CMD_IEEE_GET)
		return -ENOENT;
	/* NLMSG_LENGTH(sizeof(struct dcbmsg)) is 4-aligned: the attributes start there */
	rc = nl_attrs_walk((const char *)nlh + hdr, nlh->nlmsg_len - hdr, top_cb, out);
	if (rc) {
		memset(out, 0, sizeof(*out));
		return rc;
	}
	return 0;
}

/* The first message that is an IEEE DCB answer (or an error) decides. */
static int dcb_one(const struct nlmsghdr *nlh, void *out)
{
	int rc = dcb_parse_ieee(nlh, out);

	return rc == -ENOENT ? 0 : rc ? rc : NL_WALK_END;
}

int dcb_parse_buf(const void *buf, size_t len, struct roce_dcb *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	rc = nl_msgs_walk(buf, len, dcb_one, out);
	return rc == NL_WALK_END ? 0 : rc ? rc : -ENOENT;
}
