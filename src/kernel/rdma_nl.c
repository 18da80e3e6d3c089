// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMA netlink dumps (libmnl): devices, then each device's QPs, cm_ids, CQs, MRs and PDs. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/capability.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kernel/nl_parse.h"
#include "kernel/nl_sock.h"
#include "kernel/rdma_nl.h"
#include "kernel/rdma_nl_parse.h"
#include "util.h"

#ifndef NETLINK_RDMA
#define NETLINK_RDMA 20
#endif

#define DUMP_BUF	32768	/* the kernel sends dumps in pages; 32K never truncates */
/* A dump ends within this: a kernel that stops answering never hangs a report. */
#define DUMP_TIMEOUT_S	5

int rdma_nl_dump_raw(int cmd, long dev_index, int (*cb)(const void *buf, size_t len, void *arg), void *arg)
{
	struct nl_sock s;
	struct nlmsghdr *nlh;
	int rc = nl_sock_open(&s, NETLINK_RDMA, DUMP_TIMEOUT_S, DUMP_BUF);

	if (rc)
		return rc;
	nlh = nl_sock_request(&s, rdma_nl_type(cmd), NLM_F_DUMP);
	if (dev_index >= 0)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, (uint32_t)dev_index);
	/* a dump the kernel flags NLM_F_DUMP_INTR is taken as it came, unlike the rtnetlink ones */
	rc = nl_sock_dump(&s, nlh, cb, arg, NULL);
	nl_sock_close(&s);
	return rc;
}

/* The devices the kernel lists. */
struct dev_list {
	uint32_t idx[64];
	size_t n;
	int bad;
};

static int dev_cb(const void *buf, size_t len, void *arg)
{
	struct dev_list *dl = arg;
	const char *p = buf;

	while (nl_msg_ok(p, len)) {
		const struct nlmsghdr *h = (const struct nlmsghdr *)(const void *)p;
		size_t step = NLMSG_ALIGN(h->nlmsg_len);
		char name[RES_NAME_LEN];
		uint32_t idx;

		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(h);

			if (h->nlmsg_len >= NLMSG_HDRLEN + sizeof(*e) && e->error)
				return e->error;
		} else if (h->nlmsg_type == rdma_nl_type(RDMA_NLDEV_CMD_GET)) {
			if (rdma_nl_parse_dev(h, &idx, name, sizeof(name)))
				dl->bad++;
			else if (dl->n < ARRAY_SIZE(dl->idx))
				dl->idx[dl->n++] = idx;
		}
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

static int res_cb(const void *buf, size_t len, void *arg)
{
	int rc = rdma_nl_parse_buf(buf, len, arg, NULL);

	/* A malformed message is skipped (counted in rs->bad), anything else stops the dump. */
	return rc == -EBADMSG ? 0 : rc;
}

/* Can this process see what CAP_NET_ADMIN shows (keys, other users' details)? */
static bool has_net_admin(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_TO_INDEX(CAP_NET_ADMIN)].effective & CAP_TO_MASK(CAP_NET_ADMIN);
}

static const struct {
	int cmd;
	const char *what;
} res_dumps[] = {
	{ RDMA_NLDEV_CMD_RES_QP_GET, "QPs" },
	{ RDMA_NLDEV_CMD_RES_CM_ID_GET, "cm_ids" },
	{ RDMA_NLDEV_CMD_RES_CQ_GET, "CQs" },
	{ RDMA_NLDEV_CMD_RES_MR_GET, "MRs" },
	{ RDMA_NLDEV_CMD_RES_PD_GET, "PDs" },
};

static void why_err(struct res_state *rs, const char *what, int err)
{
	if (rs->err)
		return;
	rs->err = err;
	if (err == -EPROTONOSUPPORT)
		snprintf(rs->why, sizeof(rs->why), "no RDMA netlink in this kernel (ib_core not loaded?)");
	else if (err == -EPERM || err == -EACCES)
		snprintf(rs->why, sizeof(rs->why), "the kernel refused to list %s: %s (run as root or with "
			 "CAP_NET_ADMIN)", what, strerror(-err));
	else
		snprintf(rs->why, sizeof(rs->why), "listing %s over RDMA netlink failed: %s", what, strerror(-err));
}

int rdma_nl_collect(struct res_state *rs)
{
	struct dev_list dl = { .n = 0 };
	int rc;

	memset(rs, 0, sizeof(*rs));
	rs->restricted = !has_net_admin();
	rc = rdma_nl_dump_raw(RDMA_NLDEV_CMD_GET, -1, dev_cb, &dl);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		why_err(rs, "RDMA devices", rc);
		return 0;
	}
	rs->ndevs = dl.n;
	rs->bad += (unsigned int)dl.bad;
	for (size_t d = 0; d < dl.n; d++) {
		for (size_t i = 0; i < ARRAY_SIZE(res_dumps); i++) {
			rc = rdma_nl_dump_raw(res_dumps[i].cmd, dl.idx[d], res_cb, rs);
			if (rc == -ENOMEM) {
				res_state_free(rs);
				return rc;
			}
			if (rc)
				why_err(rs, res_dumps[i].what, rc);
		}
	}
	return 0;
}
