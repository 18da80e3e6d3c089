// SPDX-License-Identifier: GPL-2.0-or-later
/* The cost of one port's driver counters: one RDMA netlink STAT_GET against reading hw_counters/ in sysfs. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/rdma_stat.h"
#include "model/stat.h"
#include "util.h"

/*
 * usage: bench_nlstat DEV PORT N. Prints per sample of the port: the
 * netlink request and answer (one socket kept open, as --counters netlink
 * does), every hw_counters/ file opened, read and closed, and every file
 * kept open and pread (as the sysfs source does); and how many counters
 * each gave. Exit 1, and no figures, when any of them cannot be read.
 */
int main(int argc, char **argv)
{
	char dir[512], path[1024], buf[64];
	int fds[512], nfds = 0, err = 0;
	struct rdma_stat *rs;
	struct dirent *de;
	uint32_t idx;
	uint64_t n, t0, nl_ns, open_ns, pread_ns;
	size_t ncounters = 0;
	unsigned int port;
	DIR *d;

	if (argc != 4 || !(port = (unsigned int)atoi(argv[2])) || !(n = strtoull(argv[3], NULL, 10))) {
		fprintf(stderr, "usage: bench_nlstat DEV PORT N\n");
		return 2;
	}
	rs = rdma_stat_open(&err);
	if (!rs || rdma_stat_dev_index(rs, argv[1], &idx)) {
		fprintf(stderr, "bench_nlstat: %s: %s\n", argv[1], rdma_stat_strerror(err ? err : -ENODEV));
		return 1;
	}
	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%u/hw_counters", argv[1], port);
	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "bench_nlstat: %s: cannot be listed\n", dir);
		return 1;
	}
	while ((de = readdir(d)) && nfds < (int)ARRAY_SIZE(fds)) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "lifespan"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if ((fds[nfds] = open(path, O_RDONLY | O_CLOEXEC)) >= 0)
			nfds++;
	}
	closedir(d);

	t0 = util_now_ns();
	for (uint64_t i = 0; i < n; i++) {
		struct stat_state st = { 0 };
		int rc = rdma_stat_port_hw(rs, idx, port, &st);

		if (rc) {
			fprintf(stderr, "bench_nlstat: STAT_GET %s/%u: %s\n", argv[1], port, rdma_stat_strerror(rc));
			return 1;
		}
		ncounters = st.hw[0].n;
		stat_state_free(&st);
	}
	nl_ns = (util_now_ns() - t0) / n;

	t0 = util_now_ns();
	for (uint64_t i = 0; i < n; i++) {
		d = opendir(dir);
		while (d && (de = readdir(d))) {
			int fd;

			if (de->d_name[0] == '.' || !strcmp(de->d_name, "lifespan"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0) {
				fprintf(stderr, "bench_nlstat: %s: unreadable\n", path);
				return 1;
			}
			close(fd);
		}
		if (d)
			closedir(d);
	}
	open_ns = (util_now_ns() - t0) / n;

	t0 = util_now_ns();
	for (uint64_t i = 0; i < n; i++)
		for (int k = 0; k < nfds; k++)
			if (pread(fds[k], buf, sizeof(buf), 0) <= 0) {
				fprintf(stderr, "bench_nlstat: a hw_counters file stopped reading\n");
				return 1;
			}
	pread_ns = (util_now_ns() - t0) / n;
	if (!ncounters || !nfds) {
		fprintf(stderr, "bench_nlstat: %s/%u has no hw counters to time\n", argv[1], port);
		return 1;
	}
	printf("netlink_counters=%zu sysfs_files=%d netlink_us=%.1f sysfs_open_us=%.1f sysfs_pread_us=%.1f\n",
	       ncounters, nfds, nl_ns / 1e3, open_ns / 1e3, pread_ns / 1e3);
	rdma_stat_close(rs);
	return 0;
}
