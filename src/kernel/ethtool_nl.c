// SPDX-License-Identifier: GPL-2.0-or-later
/* Link pause through ethtool netlink: the family id from the controller, then one PAUSE_GET with statistics. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <string.h>

#include "kernel/ethtool_nl.h"
#include "kernel/ethtool_nl_parse.h"
#include "kernel/nl_sock.h"
#include "model/fabric.h"

#define ENL_BUF 8192
#define ENL_TIMEOUT_S	1
#define ENL_READS	16	/* a kernel that keeps sending what is not our answer is given up on */

/* The controller's answer: the family's id, whatever its first message says. */
static int family_answer(const void *buf, size_t len, void *id)
{
	int rc = ethtool_nl_parse_family(buf, id);

	(void)len;	/* nl_sock_ask() hands over whole messages only */
	return rc ? rc : NL_WALK_END;
}

struct pause_ask {
	uint16_t family;	/* ethtool's generic netlink family id */
	struct roce_ethtool *out;
};

/* The first PAUSE_GET answer decides; -ENOENT: a message that is not one, read on. */
static int pause_answer(const void *buf, size_t len, void *arg)
{
	struct pause_ask *pa = arg;
	int rc = ethtool_nl_parse_pause_buf(buf, len, pa->family, pa->out);

	return rc == -ENOENT ? 0 : rc ? rc : NL_WALK_END;
}

/* A generic netlink request of family: its header and command. */
static struct nlmsghdr *genl_request(struct nl_sock *s, uint16_t family, uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh = nl_sock_request(s, family, 0);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	g->cmd = cmd;
	g->version = version;
	return nlh;
}

int ethtool_nl_pause(const char *ifname, struct roce_ethtool *out)
{
	struct nl_sock s;
	struct nlmsghdr *nlh;
	struct nlattr *hdr;
	struct pause_ask pa = { .out = out };
	int rc;

	if (!ifname[0] || strlen(ifname) >= FAB_IFNAMSIZ)
		return out->pause_err = -EINVAL;
	rc = nl_sock_open(&s, NETLINK_GENERIC, ENL_TIMEOUT_S, ENL_BUF);
	/* out of memory too: the report says so rather than "no ethtool netlink" */
	if (rc)
		return out->pause_err = rc;
	s.max_reads = ENL_READS;
	nlh = genl_request(&s, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	rc = nl_sock_ask(&s, nlh, family_answer, &pa.family);
	if (rc) {
		/* no ethtool netlink here (the ioctls still give the per-priority counters) */
		out->pause_err = rc;
		rc = rc == -ENOENT ? 0 : rc;
		goto out;
	}
	nlh = genl_request(&s, pa.family, ETHTOOL_MSG_PAUSE_GET, ETHTOOL_GENL_VERSION);
	hdr = mnl_attr_nest_start(nlh, ETHTOOL_A_PAUSE_HEADER);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, ETHTOOL_FLAG_STATS);
	mnl_attr_nest_end(nlh, hdr);
	rc = nl_sock_ask(&s, nlh, pause_answer, &pa);
out:
	nl_sock_close(&s);
	return rc;
}
