// SPDX-License-Identifier: GPL-2.0-or-later
/* Ask the kernel for a netdev's DCB state: one RTM_GETDCB DCB_CMD_IEEE_GET over rtnetlink. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include "collect/dcb.h"
#include "collect/dcb_parse.h"
#include "model/fabric.h"

#define DCB_BUF	16384	/* an IEEE answer with a full APP table is ~1.5 KiB */

int dcb_query(const char *ifname, struct roce_dcb *out)
{
	struct timeval tmo = { .tv_sec = 1 };
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct dcbmsg *dm;
	unsigned int seq = (unsigned int)time(NULL), portid;
	char *buf;
	ssize_t n;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!ifname[0] || strlen(ifname) >= FAB_IFNAMSIZ)
		return -EINVAL;
	buf = malloc(DCB_BUF);
	if (!buf)
		return -ENOMEM;
	nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!nl) {
		rc = -errno;
		free(buf);
		return rc;
	}
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo)) < 0) {
		rc = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(nl);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETDCB;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	dm = mnl_nlmsg_put_extra_header(nlh, sizeof(*dm));
	dm->dcb_family = AF_UNSPEC;
	dm->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		rc = -errno;
		goto out;
	}
	/* Skip anything not ours (another sequence number); stop at the first answer. */
	for (int tries = 0; tries < 16; tries++) {
		const struct nlmsghdr *m = (const struct nlmsghdr *)(const void *)buf;

		n = mnl_socket_recvfrom(nl, buf, DCB_BUF);
		if (n < 0) {
			rc = errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
			goto out;
		}
		if ((size_t)n < sizeof(*m) || m->nlmsg_seq != seq || m->nlmsg_pid != portid)
			continue;
		rc = dcb_parse_buf(buf, (size_t)n, out);
		if (rc == -ENOENT)
			continue;
		goto out;
	}
	rc = -ETIMEDOUT;
out:
	mnl_socket_close(nl);
	free(buf);
	return rc;
}
