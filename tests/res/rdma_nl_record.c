// SPDX-License-Identifier: GPL-2.0-or-later
/* Record raw RDMA netlink dumps (devices, and each device's QPs, cm_ids, CQs, MRs, PDs) into files for replay tests. */
#include "config.h"

#include <errno.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <string.h>

#include "kernel/rdma_nl.h"
#include "kernel/rdma_nl_parse.h"
#include "util.h"

static int save_cb(const void *buf, size_t len, void *arg)
{
	FILE *f = arg;

	return fwrite(buf, 1, len, f) == len ? 0 : -EIO;
}

/* Device indexes from the device dump, for the per-device resource dumps. */
static int dev_cb(const void *buf, size_t len, void *arg)
{
	long *idx = arg;
	const char *p = buf;

	while (len >= NLMSG_HDRLEN) {
		const struct nlmsghdr *h = (const struct nlmsghdr *)(const void *)p;
		size_t step = NLMSG_ALIGN(h->nlmsg_len);
		uint32_t i;
		char name[RES_NAME_LEN];

		if (h->nlmsg_len < NLMSG_HDRLEN || h->nlmsg_len > len)
			break;
		if (rdma_nl_parse_dev(h, &i, name, sizeof(name)) == 0 && idx[0] < 15)
			idx[1 + idx[0]++] = i;
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

static const struct {
	int cmd;
	const char *name;
} kinds[] = {
	{ RDMA_NLDEV_CMD_RES_QP_GET, "qp" }, { RDMA_NLDEV_CMD_RES_CM_ID_GET, "cm_id" },
	{ RDMA_NLDEV_CMD_RES_CQ_GET, "cq" }, { RDMA_NLDEV_CMD_RES_MR_GET, "mr" },
	{ RDMA_NLDEV_CMD_RES_PD_GET, "pd" },
};

int main(int argc, char **argv)
{
	long idx[16] = { 0 };
	char path[4096];
	FILE *f;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: rdma_nl_record DIR  (writes DIR/{dev,qp,cm_id,cq,mr,pd}.bin)\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/dev.bin", argv[1]);
	if (!(f = fopen(path, "wb"))) {
		perror(path);
		return 1;
	}
	rc = rdma_nl_dump_raw(RDMA_NLDEV_CMD_GET, -1, save_cb, f);
	fclose(f);
	if (!rc)
		rc = rdma_nl_dump_raw(RDMA_NLDEV_CMD_GET, -1, dev_cb, idx);
	if (rc) {
		fprintf(stderr, "rdma_nl_record: devices: %s\n", strerror(-rc));
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		snprintf(path, sizeof(path), "%s/%s.bin", argv[1], kinds[i].name);
		if (!(f = fopen(path, "wb"))) {
			perror(path);
			return 1;
		}
		for (long d = 0; d < idx[0] && !rc; d++)
			rc = rdma_nl_dump_raw(kinds[i].cmd, idx[1 + d], save_cb, f);
		if (fclose(f) || rc) {
			fprintf(stderr, "rdma_nl_record: %s: %s\n", kinds[i].name, strerror(rc ? -rc : errno));
			return 1;
		}
	}
	return 0;
}
