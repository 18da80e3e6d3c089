// SPDX-License-Identifier: GPL-2.0-or-later
/* make bench: the Cluster pane's refresh against a Prometheus (the fake one): time, parse+merge, peak memory. */
#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "remote/prom_cluster.h"
#include "util.h"

static long maxrss_kib(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_maxrss;
}

/* One refresh through the same calls the monitor's loop makes; 0, or -1 with the reason printed. */
static int refresh(struct prom_cluster *pc)
{
	uint64_t deadline = util_now_ns() + 30ull * 1000000000ull;

	if (prom_cluster_refresh(pc)) {
		fprintf(stderr, "bench: cannot start a refresh\n");
		return -1;
	}
	while (prom_cluster_busy(pc)) {
		struct pollfd fds[16];
		int timeout = 1000, n;

		if (util_now_ns() > deadline) {
			fprintf(stderr, "bench: a refresh took more than 30 s\n");
			return -1;
		}
		n = prom_cluster_fds(pc, fds, 16, &timeout);
		if (poll(fds, (nfds_t)n, timeout) < 0)
			return -1;
		prom_cluster_handle(pc);
	}
	if (prom_cluster_error(pc)) {
		fprintf(stderr, "bench: the refresh failed: %s\n", prom_cluster_error(pc));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct prom_cluster *pc;
	const struct cluster *c;
	uint64_t sum_ns = 0, sum_pm = 0, max_ns = 0;
	long base, peak;
	int rounds, expected;

	if (argc < 3) {
		fprintf(stderr, "usage: bench_cluster URL EXPECTED_PORTS [ROUNDS]\n");
		return 2;
	}
	expected = atoi(argv[2]);
	rounds = argc > 3 ? atoi(argv[3]) : 5;
	if (rounds < 1)
		rounds = 1;
	pc = prom_cluster_new(argv[1]);
	if (!pc) {
		fprintf(stderr, "bench: out of memory\n");
		return 1;
	}
	base = maxrss_kib();
	/* The first refresh warms the connections (and the fake's answer cache): not counted. */
	if (refresh(pc))
		return 1;
	for (int i = 0; i < rounds; i++) {
		const struct prom_cluster_stats *st;

		if (refresh(pc))
			return 1;
		st = prom_cluster_stats(pc);
		sum_ns += st->refresh_ns;
		sum_pm += st->parse_merge_ns;
		if (st->refresh_ns > max_ns)
			max_ns = st->refresh_ns;
	}
	peak = maxrss_kib();
	c = prom_cluster_model(pc, NULL);
	if (!c || c->nports != (size_t)expected) {
		fprintf(stderr, "bench: %zu ports in the model, %d expected\n", c ? c->nports : 0, expected);
		return 1;
	}
	printf("cluster refresh (%zu hosts, %zu ports, %d queries, %zu samples, %.1f MiB of JSON):\n",
	       c->nhosts, c->nports, PROM_CLUSTER_NFAMILIES, prom_cluster_stats(pc)->samples,
	       (double)prom_cluster_stats(pc)->bytes / (1 << 20));
	printf("  %.1f ms per refresh (mean of %d; max %.1f ms), of which parse+merge %.1f ms\n",
	       (double)sum_ns / rounds / 1e6, rounds, (double)max_ns / 1e6, (double)sum_pm / rounds / 1e6);
	printf("  peak RSS %.1f MiB (%.1f MiB more than before the first refresh)\n",
	       (double)peak / 1024, (double)(peak - base) / 1024);
	prom_cluster_free(pc);
	return 0;
}
