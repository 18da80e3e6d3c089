/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probes fabtop export runs on a schedule (--probe): an RDMA CM connection and a few pings to each peer, as metrics. */
#ifndef FABTOP_EXPORT_PROBE_RUNS_H
#define FABTOP_EXPORT_PROBE_RUNS_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"
#include "report/openmetrics.h"

#define PROBE_RUNS_MAX		8	/* --probe given at most this often */
#define PROBE_RUNS_DEFAULT_S	30.0	/* --probe-interval */

struct probe_run {
	struct openmetrics_probe om;	/* what the exposition shows (points into the fields below) */
	char peer[128], from[64], port[8];
	struct probe_opts opts;
	struct probe *p;		/* the run in flight, NULL between runs */
	uint64_t next_ns;		/* when the next run starts */
};

struct probe_runs {
	struct probe_run r[PROBE_RUNS_MAX];
	size_t n;
	double every_s;			/* a run of each probe this often */
	struct openmetrics_probe om[PROBE_RUNS_MAX];	/* the latest results, for the exposition */
};

void probe_runs_init(struct probe_runs *pr);
/*
 * One more probe from "PEER[,from=ADDR|IFACE][,port=N][,mode=rping|lat][,count=N]".
 * 0, or -EINVAL / -E2BIG with the reason in err.
 */
int probe_runs_add(struct probe_runs *pr, const char *spec, char *err, size_t errsize);
/* The running probes' fds (at most max) and the next start in *timeout_ms; returns how many. */
int probe_runs_fds(struct probe_runs *pr, struct pollfd *fds, int max, int *timeout_ms, uint64_t now_ns);
/* Step the running probes, take the results of finished ones, start those that are due. Never blocks. */
void probe_runs_handle(struct probe_runs *pr, uint64_t now_ns);
/* The results so far (pr->om[0..n)), refreshed from the runs. */
const struct openmetrics_probe *probe_runs_results(struct probe_runs *pr);
void probe_runs_free(struct probe_runs *pr);

#endif
