// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool netlink answers: the family id and the pause settings and frame counters, each attribute checked. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <string.h>

#include "kernel/ethtool_nl_parse.h"
#include "kernel/nl_parse.h"

/* An NLMSG_ERROR's error (0 for an ACK), or 1 when nlh is no error message; -EBADMSG if cut. */
static int nl_error(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e;

	if (nlh->nlmsg_type != NLMSG_ERROR)
		return 1;
	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
		return -EBADMSG;
	e = mnl_nlmsg_get_payload(nlh);
	return e->error;
}

static int family_cb(const struct nlattr *a, void *arg)
{
	uint16_t *id = arg;

	if (mnl_attr_get_type(a) != CTRL_ATTR_FAMILY_ID)
		return 0;
	if (mnl_attr_get_payload_len(a) < sizeof(uint16_t))
		return -EBADMSG;
	*id = mnl_attr_get_u16(a);
	return 0;
}

int ethtool_nl_parse_family(const struct nlmsghdr *nlh, uint16_t *id)
{
	size_t hdr = NLMSG_LENGTH(GENL_HDRLEN);
	int rc = nl_error(nlh);

	*id = 0;
	if (rc <= 0)
		return rc ? rc : -ENOENT;
	if (nlh->nlmsg_type != GENL_ID_CTRL)
		return -ENOENT;
	if (nlh->nlmsg_len < hdr)
		return -EBADMSG;
	rc = nl_attrs_walk((const char *)nlh + hdr, nlh->nlmsg_len - hdr, family_cb, id);
	if (rc)
		return rc;
	return *id ? 0 : -EBADMSG;
}

static int stats_cb(const struct nlattr *a, void *arg)
{
	struct roce_ethtool *out = arg;
	int k;

	switch (mnl_attr_get_type(a)) {
	case ETHTOOL_A_PAUSE_STAT_TX_FRAMES:
		k = ROCE_PORT_GLOBAL_TX_PAUSE;
		break;
	case ETHTOOL_A_PAUSE_STAT_RX_FRAMES:
		k = ROCE_PORT_GLOBAL_RX_PAUSE;
		break;
	default:
		return 0;	/* padding, and counters newer than this fabtop */
	}
	if (mnl_attr_get_payload_len(a) < sizeof(uint64_t))
		return -EBADMSG;
	out->port[k].known = true;
	memcpy(&out->port[k].value, mnl_attr_get_payload(a), sizeof(uint64_t));
	return 0;
}

static int pause_cb(const struct nlattr *a, void *arg)
{
	struct roce_ethtool *out = arg;
	uint16_t t = mnl_attr_get_type(a) & NLA_TYPE_MASK;

	switch (t) {
	case ETHTOOL_A_PAUSE_AUTONEG:
	case ETHTOOL_A_PAUSE_RX:
	case ETHTOOL_A_PAUSE_TX:
		if (mnl_attr_get_payload_len(a) < 1)
			return -EBADMSG;
		out->pause_known = true;
		if (t == ETHTOOL_A_PAUSE_AUTONEG)
			out->pause_autoneg = mnl_attr_get_u8(a);
		else if (t == ETHTOOL_A_PAUSE_RX)
			out->pause_rx = mnl_attr_get_u8(a);
		else
			out->pause_tx = mnl_attr_get_u8(a);
		return 0;
	case ETHTOOL_A_PAUSE_STATS:
		return nl_attrs_walk(mnl_attr_get_payload(a), mnl_attr_get_payload_len(a), stats_cb, out);
	default:
		return 0;	/* the header, and attributes newer than this fabtop */
	}
}

int ethtool_nl_parse_pause(const struct nlmsghdr *nlh, uint16_t family, struct roce_ethtool *out)
{
	size_t hdr = NLMSG_LENGTH(GENL_HDRLEN);
	const struct genlmsghdr *g;
	struct roce_ethtool tmp;
	int rc = nl_error(nlh);

	if (rc <= 0) {
		if (rc == -EBADMSG)
			return rc;
		out->pause_err = rc ? rc : -ENODATA;
		return 0;
	}
	if (!family || nlh->nlmsg_type != family)
		return -ENOENT;
	if (nlh->nlmsg_len < hdr)
		return -EBADMSG;
	g = mnl_nlmsg_get_payload(nlh);
	if (g->cmd != ETHTOOL_MSG_PAUSE_GET_REPLY)
		return -ENOENT;
	/* into a copy: a rejected message leaves out as it was */
	tmp = *out;
	tmp.pause_known = false;
	tmp.port[ROCE_PORT_GLOBAL_RX_PAUSE].known = tmp.port[ROCE_PORT_GLOBAL_TX_PAUSE].known = false;
	rc = nl_attrs_walk((const char *)nlh + hdr, nlh->nlmsg_len - hdr, pause_cb, &tmp);
	if (rc)
		return rc;
	tmp.pause_err = 0;
	*out = tmp;
	return 0;
}

struct pause_walk {
	uint16_t family;
	struct roce_ethtool *out;
};

/* The first message that is the PAUSE_GET answer (or an error) decides. */
static int pause_one(const struct nlmsghdr *nlh, void *arg)
{
	struct pause_walk *w = arg;
	int rc = ethtool_nl_parse_pause(nlh, w->family, w->out);

	return rc == -ENOENT ? 0 : rc ? rc : NL_WALK_END;
}

int ethtool_nl_parse_pause_buf(const void *buf, size_t len, uint16_t family, struct roce_ethtool *out)
{
	struct pause_walk w = { family, out };
	int rc = nl_msgs_walk(buf, len, pause_one, &w);

	return rc == NL_WALK_END ? 0 : rc ? rc : -ENOENT;
}
