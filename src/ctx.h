/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run context: where fabtop reads the world from, and how it presents it. */
#ifndef FABTOP_CTX_H
#define FABTOP_CTX_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The default memory bound of a fabric sweep (--fabric-mem): about 12 MiB
 * per 1,000 nodes of a fat tree with every port's counters, checked against
 * an upper bound of 16.6 MiB (doc/ib-management.md), so 1 GiB admits some
 * 64,000 nodes: more than a subnet's unicast LIDs address.
 */
#define CTX_FABRIC_MEM_MB	1024
/*
 * SMPs in flight at once while sweeping a subnet or tracing a path
 * (--fabric-smps). SMPs travel on VL15, which a switch drops when its SMA
 * is flooded; the default is the sweep's own (32, src/mad/mad_fabric.c),
 * and a fabric whose switches drop SMPs wants fewer (ibnetdiscover keeps 2,
 * OpenSM 4; doc/ib-management.md).
 */
#define CTX_FABRIC_SMPS_MAX	128

/* Where the counters of local InfiniBand ports come from (--counters). */
enum fab_counters_mode {
	COUNTERS_AUTO = 0,	/* the PMA by MAD when the umad device can be used, else sysfs */
	COUNTERS_SYSFS,		/* the kernel's counters/ files (one firmware command per file) */
	COUNTERS_PMA,		/* PortCounters + PortCountersExtended MADs; sysfs with a note when refused */
	COUNTERS_NETLINK,	/* sysfs counters/, and the driver's counters by one RDMA netlink STAT_GET per port */
};

/*
 * Every system read goes through a root held here, never a hard-coded path,
 * so that fixture trees (--sysfs DIR, --proc DIR, --etc DIR) replace the live system.
 */
struct rec_reader;

struct fab_ctx {
	const char *sysfs_root;		/* "/sys" unless --sysfs */
	const char *proc_root;		/* "/proc" unless --proc */
	const char *configfs_root;	/* "/sys/kernel/config" unless --configfs */
	const char *etc_root;		/* "/etc" unless --etc: where the host's network configuration is kept */
	double interval_s;		/* refresh interval, --interval */
	long count;			/* samples for repeated reports, --count (0: default) */
	bool json;			/* --json */
	bool color;			/* false with --no-color or NO_COLOR */
	bool demo;			/* --demo: the built-in simulated fabric */
	unsigned long seed;		/* --seed for the demo fabric */
	const char *scenario;		/* --demo NAME: a scenario of demo/demo_scenario.h, NULL: the default demo */
	bool demo_reset;		/* --reset: the scenario's kept fix removed before anything runs */
	bool live_sysfs;		/* sysfs_root is the real /sys: verbs may be used */
	enum fab_counters_mode counters;	/* --counters; fabtoprc's counters= when not given */
	bool counters_given;		/* --counters was on the command line */
	const char *prometheus_url;	/* --prometheus: the Cluster pane's server; NULL: fabtoprc's */
	struct rec_reader *replay;	/* --replay: the recording, opened and checked by main(); NULL: none */
	const char *replay_path;
	const char *replay_at;		/* --at: where in it (NULL: the start for the monitor, the end for reports) */
	size_t replay_pos;		/* the sample --at names, resolved by main() */
	const char *record_path;	/* the monitor's --record: record from the first sample */
	size_t fabric_mem_mb;		/* --fabric-mem: the byte budget of a swept subnet's tables, MiB */
	unsigned int fabric_smps;	/* --fabric-smps: SMPs in flight at most (sweeps, trace); 0: the default */
};

void ctx_init(struct fab_ctx *ctx);
/* "auto", "sysfs", "pma", "netlink" -> mode; -1 for anything else. */
int ctx_counters_mode(const char *name);
const char *ctx_counters_mode_str(enum fab_counters_mode m);

#endif
