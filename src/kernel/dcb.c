// SPDX-License-Identifier: GPL-2.0-or-later
/* Ask the kernel for a netdev's DCB state: one RTM_GETDCB DCB_CMD_IEEE_GET over rtnetlink. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>

#include "kernel/dcb.h"
#include "kernel/dcb_parse.h"
#include "kernel/nl_sock.h"
#include "model/fabric.h"

#define DCB_BUF	16384	/* an IEEE answer with a full APP table is ~1.5 KiB */
#define DCB_TIMEOUT_S	1
#define DCB_READS	16

/* The first IEEE answer decides; -ENOENT: a message that is not one, read on. */
static int answer(const void *buf, size_t len, void *out)
{
	int rc = dcb_parse_buf(buf, len, out);

	return rc == -ENOENT ? 0 : rc ? rc : NL_WALK_END;
}

int dcb_query(const char *ifname, struct roce_dcb *out)
{
	struct nl_sock s;
	struct nlmsghdr *nlh;
	struct dcbmsg *dm;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!ifname[0] || strlen(ifname) >= FAB_IFNAMSIZ)
		return -EINVAL;
	rc = nl_sock_open(&s, NETLINK_ROUTE, DCB_TIMEOUT_S, DCB_BUF);
	if (rc)
		return rc;
	/* a kernel that keeps sending what is not our answer is given up on, as one that is silent */
	s.max_reads = DCB_READS;
	nlh = nl_sock_request(&s, RTM_GETDCB, 0);
	dm = mnl_nlmsg_put_extra_header(nlh, sizeof(*dm));
	dm->dcb_family = AF_UNSPEC;
	dm->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
	rc = nl_sock_ask(&s, nlh, answer, out);
	nl_sock_close(&s);
	return rc;
}
