// SPDX-License-Identifier: GPL-2.0-or-later
/* Record a port's raw RDMA netlink statistics answers (hw counters, QP mode, QP counter dump) into files for replay tests. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/rdma_stat.h"
#include "model/stat.h"

static void save(const void *buf, size_t len, void *arg)
{
	if (fwrite(buf, 1, len, arg) != len)
		fprintf(stderr, "rdma_stat_record: short write\n");
}

/* usage: rdma_stat_record DIR DEV PORT -> DIR/port_hw.bin, DIR/mode.bin, DIR/counters.bin */
int main(int argc, char **argv)
{
	static const char *const names[] = { "port_hw", "mode", "counters" };
	struct rdma_stat *rs;
	uint32_t idx;
	int err = 0, rc = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: rdma_stat_record DIR DEV PORT\n");
		return 2;
	}
	rs = rdma_stat_open(&err);
	if (!rs || rdma_stat_dev_index(rs, argv[2], &idx)) {
		fprintf(stderr, "rdma_stat_record: %s\n", rdma_stat_strerror(err ? err : -ENODEV));
		return 1;
	}
	for (int i = 0; i < 3 && !rc; i++) {
		struct stat_state st = { 0 };
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.bin", argv[1], names[i]);
		f = fopen(path, "wb");
		if (!f)
			return 1;
		rdma_stat_tap(rs, save, f);
		if (i == 0)
			rc = rdma_stat_port_hw(rs, idx, (uint32_t)atoi(argv[3]), &st);
		else if (i == 1)
			rc = rdma_stat_qp_mode(rs, idx, (uint32_t)atoi(argv[3]), &st);
		else
			rc = rdma_stat_qp_counters(rs, idx, &st);
		rdma_stat_tap(rs, NULL, NULL);
		fclose(f);
		stat_state_free(&st);
		if (rc)
			fprintf(stderr, "rdma_stat_record: %s: %s\n", names[i], rdma_stat_strerror(rc));
	}
	rdma_stat_close(rs);
	return rc ? 1 : 0;
}
