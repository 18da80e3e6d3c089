// SPDX-License-Identifier: GPL-2.0-or-later
/* Link pause through ethtool netlink: the family id from the controller, then one PAUSE_GET with statistics. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include "collect/ethtool_nl.h"
#include "collect/ethtool_nl_parse.h"
#include "model/fabric.h"

#define ENL_BUF 8192

/* Send nlh and parse the answer with the same sequence number: family (id NULL) or pause. */
static int ask(struct mnl_socket *nl, char *buf, struct nlmsghdr *nlh, uint16_t *id, uint16_t family,
	       struct roce_ethtool *out)
{
	unsigned int seq = nlh->nlmsg_seq, portid = mnl_socket_get_portid(nl);

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (int tries = 0; tries < 16; tries++) {
		ssize_t n = mnl_socket_recvfrom(nl, buf, ENL_BUF);
		const struct nlmsghdr *m = (const struct nlmsghdr *)(const void *)buf;
		int rc;

		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
		if ((size_t)n < sizeof(*m) || m->nlmsg_seq != seq || m->nlmsg_pid != portid)
			continue;
		if (id)
			return (size_t)n >= m->nlmsg_len ? ethtool_nl_parse_family(m, id) : -EBADMSG;
		rc = ethtool_nl_parse_pause_buf(buf, (size_t)n, family, out);
		if (rc != -ENOENT)
			return rc;
	}
	return -ETIMEDOUT;
}

int ethtool_nl_pause(const char *ifname, struct roce_ethtool *out)
{
	struct timeval tmo = { .tv_sec = 1 };
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	struct nlattr *hdr;
	unsigned int seq = (unsigned int)time(NULL);
	uint16_t family = 0;
	char *buf;
	int rc;

	if (!ifname[0] || strlen(ifname) >= FAB_IFNAMSIZ)
		return out->pause_err = -EINVAL;
	buf = malloc(ENL_BUF);
	if (!buf)
		return -ENOMEM;
	nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl) {
		rc = out->pause_err = -errno;
		free(buf);
		return rc;
	}
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo)) < 0) {
		rc = out->pause_err = -errno;
		goto out;
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	rc = ask(nl, buf, nlh, &family, 0, out);
	if (rc) {
		/* no ethtool netlink here (the ioctls still give the per-priority counters) */
		out->pause_err = rc;
		rc = rc == -ENOENT ? 0 : rc;
		goto out;
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq + 1;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = ETHTOOL_MSG_PAUSE_GET;
	g->version = ETHTOOL_GENL_VERSION;
	hdr = mnl_attr_nest_start(nlh, ETHTOOL_A_PAUSE_HEADER);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, ETHTOOL_FLAG_STATS);
	mnl_attr_nest_end(nlh, hdr);
	rc = ask(nl, buf, nlh, NULL, family, out);
out:
	mnl_socket_close(nl);
	free(buf);
	return rc;
}
