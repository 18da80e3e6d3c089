/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One snapshot of what a source shows: host, network state, who answers route questions, when. */
#ifndef FABTOP_SOURCE_SNAPSHOT_H
#define FABTOP_SOURCE_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "source/source.h"
#include "model/fabric.h"
#include "model/ibfabric.h"
#include "model/net.h"
#include "model/res.h"
#include "model/route.h"

/*
 * Every surface (show, doctor, the probe's explanation, the monitor) reads
 * a snapshot instead of wiring collection by hand. The network part is
 * taken with the RDMA netdevs already marked from the host, so what
 * derives from it (the doctor, the reports) never changes its input.
 */
struct snapshot {
	struct fab_host host;
	struct net_state net;
	int net_err;			/* 0, or -errno: the network state could not be read */
	bool has_net;			/* the network part was asked for and read */
	const struct route_ops *routes;	/* the kernel on a live host, the model otherwise */
	struct ib_fabric fabric;	/* the IB subnet through MADs (SNAPSHOT_FABRIC) */
	struct mad_fabric *mad;		/* open for more PMA samples, NULL: none */
	struct res_state res;		/* RDMA resources and holders (SNAPSHOT_RES) */
	bool has_res;			/* the source could list resources (res.err may still say some failed) */
	bool has_fabric;		/* the source could ask a subnet (f.error may still say none answered) */
	uint64_t taken_ns;		/* CLOCK_MONOTONIC when it was taken */
};

/*
 * How a kept snapshot stays current (the monitor, the exporter): the
 * structure (devices, ports, port states) is checked this often with a few
 * reads per port (source_changed()); a full collection, GID tables
 * included, follows a change, a netlink notification, or
 * SNAPSHOT_FULL_RESCAN_NS at the latest. Netlink bursts (a routing
 * daemon's updates) re-read the network at most every SNAPSHOT_NET_GAP_NS.
 */
#define SNAPSHOT_RESCAN_NS	(5ull * 1000000000ull)
#define SNAPSHOT_FULL_RESCAN_NS	(60ull * 1000000000ull)
#define SNAPSHOT_NET_GAP_NS	(250ull * 1000000ull)

/* When a kept host was last looked at (see snapshot_host_sample()). */
struct snapshot_clock {
	uint64_t last_watch_ns;		/* latest cheap structure check */
	uint64_t last_rescan_ns;	/* latest full collection */
	bool rescan_wanted;		/* structure may have changed (a netlink event, a key): collect again */
	bool roce_event;		/* a netlink event: read the RoCE ports' GID tables again */
	/* A re-collection device by device, spread over samples: devices [roll_next, roll_end) still to read. */
	size_t roll_next, roll_end;
	bool roll_all;			/* ... every port's GID table again (the periodic one) */
	bool roll_roce;			/* ... the RoCE ports' (a netlink event) */
	uint64_t recollections;		/* devices or hosts read again so far (the frame log's mark) */
	bool fills_between;		/* the caller runs snapshot_host_fill() between samples (the monitor) */
};

/*
 * The first collection of a host kept under a loop (the monitor): when the
 * source can fill parts in later (source_ops' fill_port), only devices,
 * ports and netdevs are read now (a frame's worth: ~1 ms a port) and each
 * port's counters and GID tables are left pending for snapshot_host_fill().
 * 0 or -ENOMEM.
 */
int snapshot_host_start(struct source *src, struct fab_host *h, struct snapshot_clock *k, uint64_t now_ns);

/*
 * One sample of a host kept under a loop (the monitor, the exporter): the
 * counters, or the host again when the source says its structure changed,
 * when k->rescan_wanted, or every SNAPSHOT_FULL_RESCAN_NS. A re-collection
 * takes the open counter files and the GID tables over from the old host
 * and marks pending the GID tables to read again: every port's on the
 * periodic one, else those of the ports whose state, rate or LID moved
 * (and the RoCE ports' after k->roce_event). A source that re-collects
 * device by device (source_by_device()) reads again only the devices the
 * structure check names, and spreads a whole pass (periodic, asked for)
 * over samples, SNAPSHOT_FILL_NS of devices each; the whole host only when
 * devices came or went. So a re-collection never stalls a frame. Pending parts are filled in here
 * within SNAPSHOT_FILL_NS (a loop may call snapshot_host_fill() more
 * often). A source that reports changes in refresh() (the demo) is never
 * re-collected. carry(new, old) runs before the old host is freed (what
 * the caller keeps per port); NULL: nothing to carry. Returns true when
 * the structure or port states changed; *nomem tells a re-collection that
 * ran out of memory (the old host was refreshed instead).
 */
bool snapshot_host_sample(struct source *src, struct fab_host *h, struct snapshot_clock *k, uint64_t now_ns,
			  void (*carry)(struct fab_host *nh, const struct fab_host *old), bool *nomem);

/* How long one fill step may take: well inside a frame. */
#define SNAPSHOT_FILL_NS	(10ull * 1000000ull)

/*
 * Read pending parts of h's ports (see snapshot_host_start()), port by
 * port, until budget_ns has passed (at least one port). True when anything
 * was read.
 */
bool snapshot_host_fill(struct source *src, struct fab_host *h, uint64_t budget_ns);

/* How many of h's ports (of *nports) still have any of what pending. */
size_t snapshot_host_pending(const struct fab_host *h, unsigned int what, size_t *nports);

/* What to take: COLLECT_* bits of source/source.h for the host, and: */
#define SNAPSHOT_NET	(1u << 16)	/* the network state too */
#define SNAPSHOT_FABRIC	(1u << 17)	/* the IB subnet through MADs (seconds on a big fabric) */
#define SNAPSHOT_RES	(1u << 18)	/* RDMA resources through RDMA netlink, and their holders */

/*
 * Take s (zeroed or freed) from src. Returns 0 or -ENOMEM when the host
 * could not be read; a network state that could not be read is not an
 * error here but s->net_err (callers decide whether it matters).
 */
int snapshot_take(struct source *src, struct snapshot *s, unsigned int what);

/*
 * Read the network part again for host (the monitor on a netlink event):
 * st is overwritten with the state, RDMA netdevs marked. 0 or -errno.
 */
int snapshot_net(struct source *src, const struct fab_host *host, struct net_state *st);

/* The next PMA sample of both ends of every local IB port, interval_s after the last. */
void snapshot_fabric_sample(struct snapshot *s, double interval_s);

/* Why the network part could not be read, for people (net_err). */
const char *snapshot_net_error(int err);

/* Who answers route questions about st: the kernel for this host's own state, the model otherwise. */
const struct route_ops *snapshot_routes(const struct net_state *st);

void snapshot_free(struct snapshot *s);

/*
 * The doctor over a snapshot taken with SNAPSHOT_NET, exactly as the live
 * core runs it (the RoCE chain read from src, the fix's persistent form
 * from what configures a host of its own), with q's PEER and --from: the
 * one-shot commands' findings are the live surfaces' findings. 0 or
 * doctor_run()'s -errno (-ENODATA: the snapshot holds no network).
 */
struct doctor_query;
struct doctor_report;
int snapshot_doctor(struct source *src, const struct snapshot *s, const struct doctor_query *q,
		    struct doctor_report *rep);

#endif
