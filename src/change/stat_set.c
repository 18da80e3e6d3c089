// SPDX-License-Identifier: GPL-2.0-or-later
/* STAT_SET of the QP auto mode over RDMA netlink: a change of the kernel's state, asked for by a person. */
#include "config.h"

#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>
#include <stdint.h>

#include "change/stat_set.h"
#include "kernel/rdma_stat.h"

int stat_set_qp_auto(const char *dev, unsigned int port, bool on)
{
	struct nlmsghdr *nlh;
	struct rdma_stat *rs;
	uint32_t idx;
	int rc = 0;

	rs = rdma_stat_open(&rc);
	if (!rs)
		return rc;
	rc = rdma_stat_dev_index(rs, dev, &idx);
	if (!rc) {
		nlh = rdma_stat_port_request(rs, RDMA_NLDEV_CMD_STAT_SET, idx, port);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO);
		/* mask 0 turns auto mode off (manual when counters remain) */
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, on ? RDMA_COUNTER_MASK_QP_TYPE : 0);
		rc = rdma_stat_send(rs, nlh);
	}
	rdma_stat_close(rs);
	return rc;
}
