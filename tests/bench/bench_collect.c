// SPDX-License-Identifier: GPL-2.0-or-later
/* Benchmark: one full collection and one counter refresh over a large tree. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/host.h"
#include "ctx.h"
#include "util.h"

/* Allocation counting through the linker's --wrap (see mk/core.mk). */
static unsigned long n_allocs;
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n) { n_allocs++; return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { n_allocs++; return __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { n_allocs++; return __real_realloc(p, n); }

static void put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, val, strlen(val)) < 0) {
		fprintf(stderr, "bench: cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	close(fd);
}

static void mk(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST) {
		fprintf(stderr, "bench: mkdir %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static const char *const counters[] = {
	"symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors",
	"port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors", "port_xmit_discards",
	"port_xmit_constraint_errors", "port_rcv_constraint_errors", "local_link_integrity_errors",
	"excessive_buffer_overrun_errors", "VL15_dropped", "port_xmit_data", "port_rcv_data",
	"port_xmit_packets", "port_rcv_packets", "port_xmit_wait", "unicast_xmit_packets",
	"unicast_rcv_packets", "multicast_xmit_packets", "multicast_rcv_packets",
};

/* 32 RoCE devices x 2 ports x 1024-entry GID tables, 4 entries used per port. */
static void generate(const char *root, int ndev, int nport, int ngid)
{
	char p[4096], v[128];

	snprintf(p, sizeof(p), "%s", root); mk(p);
	snprintf(p, sizeof(p), "%s/class", root); mk(p);
	snprintf(p, sizeof(p), "%s/class/net", root); mk(p);
	snprintf(p, sizeof(p), "%s/class/infiniband", root); mk(p);
	for (int d = 0; d < ndev; d++) {
		char dev[2048];

		snprintf(dev, sizeof(dev), "%s/class/infiniband/mlx5_%d", root, d);
		mk(dev);
		snprintf(p, sizeof(p), "%s/node_type", dev); put(p, "1: CA\n");
		snprintf(v, sizeof(v), "b859:9f03:00a1:%04x\n", d);
		snprintf(p, sizeof(p), "%s/node_guid", dev); put(p, v);
		snprintf(p, sizeof(p), "%s/fw_ver", dev); put(p, "16.35.1012\n");
		/* As a real ConnectX has them (node_exporter's collector needs both). */
		snprintf(p, sizeof(p), "%s/board_id", dev); put(p, "MT_0000000010\n");
		snprintf(p, sizeof(p), "%s/hca_type", dev); put(p, "MT4119\n");
		snprintf(p, sizeof(p), "%s/ports", dev); mk(p);
		for (int n = 1; n <= nport; n++) {
			char port[2600];

			snprintf(port, sizeof(port), "%s/ports/%d", dev, n);
			mk(port);
			snprintf(p, sizeof(p), "%s/state", port); put(p, "4: ACTIVE\n");
			snprintf(p, sizeof(p), "%s/phys_state", port); put(p, "5: LinkUp\n");
			snprintf(p, sizeof(p), "%s/rate", port); put(p, "100 Gb/sec (4X EDR)\n");
			snprintf(p, sizeof(p), "%s/link_layer", port); put(p, "Ethernet\n");
			snprintf(p, sizeof(p), "%s/counters", port); mk(p);
			for (size_t c = 0; c < ARRAY_SIZE(counters); c++) {
				snprintf(p, sizeof(p), "%s/counters/%s", port, counters[c]);
				put(p, "7\n");
			}
			snprintf(p, sizeof(p), "%s/gids", port); mk(p);
			snprintf(p, sizeof(p), "%s/gid_attrs", port); mk(p);
			snprintf(p, sizeof(p), "%s/gid_attrs/types", port); mk(p);
			snprintf(p, sizeof(p), "%s/gid_attrs/ndevs", port); mk(p);
			for (int g = 0; g < ngid; g++) {
				bool used = g < 4;

				snprintf(p, sizeof(p), "%s/gids/%d", port, g);
				if (used)
					snprintf(v, sizeof(v), "0000:0000:0000:0000:0000:ffff:0a%02x:%02x%02x\n", d, n, g);
				else
					snprintf(v, sizeof(v), "0000:0000:0000:0000:0000:0000:0000:0000\n");
				put(p, v);
				if (!used)
					continue;
				snprintf(p, sizeof(p), "%s/gid_attrs/types/%d", port, g);
				put(p, g % 2 ? "RoCE v2\n" : "IB/RoCE v1\n");
				snprintf(p, sizeof(p), "%s/gid_attrs/ndevs/%d", port, g);
				snprintf(v, sizeof(v), "eth%d_%d\n", d, n);
				put(p, v);
			}
		}
	}
}

static double now_s(void)
{
	return (double)util_now_ns() / 1e9;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct fab_ctx ctx;
	struct fab_host h;
	size_t nctr = 0;
	int refreshes;
	double t0, t1, c0, c1;
	unsigned long a0;

	if (argc == 3 && !strcmp(argv[1], "--generate")) {
		generate(argv[2], 32, 2, 1024);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: bench_collect --generate DIR | bench_collect SYSFS_DIR REFRESHES\n");
		return 2;
	}
	refreshes = atoi(argv[2]);
	ctx_init(&ctx);
	ctx.sysfs_root = argv[1];
	ctx.live_sysfs = false;

	t0 = now_s();
	c0 = cpu_s();
	if (collect_host(&ctx, &h, COLLECT_ALL)) {
		fprintf(stderr, "bench: collection failed\n");
		return 1;
	}
	t1 = now_s();
	c1 = cpu_s();
	for (size_t i = 0; i < h.ndevs; i++)
		for (size_t j = 0; j < h.devs[i].nports; j++)
			nctr += h.devs[i].ports[j].ncounters;
	printf("full collection: %zu devices, %zu counter files: %.1f ms wall, %.1f ms CPU\n",
	       h.ndevs, nctr, (t1 - t0) * 1e3, (c1 - c0) * 1e3);

	a0 = n_allocs;
	t0 = now_s();
	c0 = cpu_s();
	for (int r = 0; r < refreshes; r++)
		collect_counters_refresh(&h, util_now_ns());
	t1 = now_s();
	c1 = cpu_s();
	if (refreshes > 0)
		printf("counter refresh: %.3f ms wall, %.3f ms CPU, %.2f allocations per refresh (%d refreshes)\n",
		       (t1 - t0) * 1e3 / refreshes, (c1 - c0) * 1e3 / refreshes,
		       (double)(n_allocs - a0) / refreshes, refreshes);
	fab_host_free(&h);
	return 0;
}
