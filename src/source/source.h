/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the model comes from: a source is a const ops struct (live system, demo fabric, ...) and its state. */
#ifndef FABTOP_SOURCE_SOURCE_H
#define FABTOP_SOURCE_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ctx.h"
#include "model/fabric.h"

/* What to collect: the counters refresh is separate and cheap. */
#define COLLECT_GIDS		(1u << 0)
#define COLLECT_COUNTERS	(1u << 1)
#define COLLECT_NETDEVS		(1u << 2)
/*
 * Each device's PCI function and bridges, and the host's GPUs (model/pci.h):
 * some twenty files a device, read with the devices and never per sample.
 */
#define COLLECT_PCI		(1u << 4)
#define COLLECT_ALL		(COLLECT_GIDS | COLLECT_COUNTERS | COLLECT_NETDEVS | COLLECT_PCI)
/* Without COLLECT_GIDS: keep the GID tables of h->handover's ports (see fill_port). */
#define COLLECT_KEEP_GIDS	(1u << 3)

struct event_log;
struct ib_fabric;
struct mad_fabric;

/* What a recorder is writing. */
struct source_record_status {
	char path[4096];
	uint64_t bytes, samples;
	uint64_t started_ns;		/* CLOCK_MONOTONIC */
	int error;			/* the first write error, -errno (recording then stopped) */
};

/* Where a recording's cursor is. */
struct source_timeline {
	size_t pos, n;			/* sample pos of n */
	uint64_t wall_ns;		/* CLOCK_REALTIME when the sample was taken */
	uint64_t start_wall_ns, end_wall_ns;
	double interval_s;		/* as recorded */
	bool ended;			/* the recorder closed the file (else it was killed or is still writing) */
};

/* One record of a recording, as source_recorded() gives it (the body stays the reader's). */
struct source_rec {
	size_t index;			/* in the recording: walking back starts below it */
	const uint8_t *body;
	size_t len;
	uint64_t mono_ns, wall_ns;	/* when it was written */
};

enum source_seek {
	SOURCE_SEEK_SAMPLE,		/* to sample arg */
	SOURCE_SEEK_STEP,		/* arg samples on (negative: back) */
	SOURCE_SEEK_WALL,		/* to the sample at or before CLOCK_REALTIME arg */
	SOURCE_SEEK_WALL_REL,		/* arg ns on from the cursor's time (negative: back) */
	SOURCE_SEEK_NEXT_EVENT,		/* to the next sample that has events (arg unused) */
};
struct event_log;
struct fab_event;
struct fix_plan;
struct mad_watch;
struct net_state;
struct probe;
struct probe_opts;
struct res_state;
struct roce_state;
struct source;
struct stat_state;

/*
 * One kind of source. Commands, reports and the monitor go through these
 * ops and never ask which kind they hold; what differs between kinds is
 * said here (flags, describe()), not by testing for a kind elsewhere.
 * doc/architecture.md shows how to add one.
 */
struct source_ops {
	const char *name;		/* "live", "demo" */
	unsigned int flags;		/* SOURCE_* below */
	/* Set up s->priv from s->ctx. 0 or -errno. */
	int (*open)(struct source *s);
	/* Build h from scratch (what: COLLECT_* bits above). 0 or -ENOMEM. */
	int (*collect)(struct source *s, struct fab_host *h, unsigned int what);
	/* A new counter sample into h at now_ns (CLOCK_MONOTONIC); true when port states changed. */
	bool (*refresh)(struct source *s, struct fab_host *h, uint64_t now_ns);
	/* The network state (links, addresses, routes, rules, sysctls). 0 or -errno. */
	int (*net)(struct source *s, struct net_state *st);
	/*
	 * The InfiniBand subnet through MADs, bounded in time: local ports, their
	 * SM and partners, the swept fabric; *vp stays open for more PMA samples
	 * (NULL when no port could be asked; f->error says why). 0 or -ENOMEM.
	 * NULL op: this source has no subnet to ask.
	 */
	int (*fabric)(struct source *s, struct ib_fabric *f, struct mad_fabric **vp);
	/*
	 * An fd that becomes readable when the network state changes (the
	 * monitor polls it), opened on the first call, closed with the source;
	 * -errno when there is none. events() drains it: true when something
	 * changed. NULL ops: the network never changes by itself.
	 */
	int (*event_fd)(struct source *s);
	bool (*events)(struct source *s);
	/*
	 * The devices' own notifications (port up/down, GID/LID/SM changes,
	 * fatal errors), seen even when they come and go between two samples:
	 * an fd that becomes readable when one is pending, following the
	 * devices of h (call again after every sample: the devices are
	 * followed, and contexts renewed so that no removal waits on them),
	 * -errno when none.
	 * async_events() reads and acks what is pending without blocking and
	 * appends it to log; returns how many. NULL ops: the source has none
	 * (its changes show through the derived events alone).
	 */
	int (*async_fd)(struct source *s, const struct fab_host *h);
	unsigned int (*async_events)(struct source *s, struct event_log *log);
	/*
	 * The RDMA resources (QPs, cm_ids, CQs, MRs, PDs) and who holds them.
	 * 0 or -ENOMEM; what could not be read is said in rs->err. NULL op:
	 * this source has no processes (the demo).
	 */
	int (*res)(struct source *s, struct res_state *rs);
	/*
	 * The QP counters of h's ports (RDMA netlink statistics): each port's
	 * binding mode, every counter with its QPs and values, into a zeroed
	 * *st (free it with stat_state_free()). 0 or -ENOMEM; what could not
	 * be read is said in st->err and st->why. NULL op: this source has
	 * none (the demo, a recording).
	 */
	int (*qp_counters)(struct source *s, const struct fab_host *h, struct stat_state *st);
	/* The MAD view kept open under a poll loop (the monitor). NULL op or result: none. */
	struct mad_watch *(*mad_watch)(struct source *s);
	/*
	 * The RoCE chain of h's Ethernet ports (DCB, ethtool statistics, the
	 * congestion hw_counters of h): a fresh *st (free it with
	 * roce_state_free()). 0 or -errno; NULL op: -EOPNOTSUPP.
	 */
	int (*roce)(struct source *s, const struct fab_host *h, struct roce_state *st);
	/*
	 * Start an RDMA CM probe (probe/probe.h) over what this source is:
	 * the live host's RDMA CM, or the demo's simulated exchange (its
	 * status says simulated). NULL result: out of memory. NULL op: this
	 * source cannot probe (a recording).
	 */
	struct probe *(*probe)(struct source *s, const struct probe_opts *o);
	/* Who a probe can reach here, for people ("simulated peers listen at ..."); NULL op: not known. */
	void (*probe_peers)(const struct source *s, char *buf, size_t size);
	/*
	 * Apply the doctor's runtime fix plan (derive/fix.h) to the network
	 * net() describes, st being that network now: the steps, and what
	 * undoes them, to log. 0; 1: nothing was left to apply; -EPERM: not
	 * allowed (root only); else the failing step's -errno after a
	 * rollback (*left: steps it could not undo). The live host's
	 * rtnetlink and /proc/sys (collect/net_apply.h), or the demo's
	 * simulated host. NULL op: nothing can be changed here (a recording).
	 */
	int (*apply_fix)(struct source *s, const struct fix_plan *plan, const struct net_state *st, FILE *log,
			 size_t *left);
	/* Take back what apply_fix() did: 0, 1 nothing was applied. NULL op: not here (a real host's
	 * fix is undone by the commands apply_fix() printed first). */
	int (*undo_fix)(struct source *s, FILE *log);
	/*
	 * A scenario's lines for the monitor's header: what goes wrong and
	 * where to look, or what the fixed host shows (*fixed). false, or
	 * NULL op: no story (a real host, the default demo).
	 */
	bool (*story)(const struct source *s, char *story, size_t ssize, char *hint, size_t hsize, bool *fixed);
	/* Cheap check between full collections: is h out of date? NULL: refresh() reports changes. */
	bool (*changed)(struct source *s, const struct fab_host *h);
	/*
	 * Read what collect() left out of one port (p->pending: COLLECT_GIDS,
	 * COLLECT_COUNTERS), so a big host shows at once and fills in over
	 * the loop's steps; past deadline_ns (CLOCK_MONOTONIC) it may stop
	 * with the bits still pending and go on at the next call. 0 or -ENOMEM. NULL: collect() always reads
	 * everything it is asked for, and re-collections read everything.
	 */
	int (*fill_port)(struct source *s, struct fab_host *h, size_t dev, size_t port, unsigned int what,
			 uint64_t deadline_ns);
	/*
	 * A re-collection device by device (both NULL: the whole host is
	 * collected again). changed_devices() is changed() that names the
	 * devices (marks devs[i], h->ndevs entries): how many, -1 when devices
	 * came or went. collect_device() reads device `dev` of h again into nd
	 * as collect() would with h handed over. 0 or -ENOMEM.
	 */
	int (*changed_devices)(struct source *s, const struct fab_host *h, bool *devs);
	int (*collect_device)(struct source *s, struct fab_host *h, size_t dev, unsigned int what,
			      struct fab_device *nd);
	/* Where the data comes from, for people: "/sys", "demo fabric (simulated, seed 7)". */
	void (*describe)(const struct source *s, char *buf, size_t size);
	void (*close)(struct source *s);
	/*
	 * Recording what the source gives (the recorder around the live and
	 * demo sources): start writing path with h and st (NULL: none yet) as
	 * the first sample, stop, and what is being written. NULL ops: this
	 * source cannot be recorded.
	 */
	int (*record_start)(struct source *s, const char *path, const struct fab_host *h,
			    const struct net_state *st, char *err, size_t errlen);
	int (*record_stop)(struct source *s);
	bool (*record_status)(const struct source *s, struct source_record_status *st);
	/* A recording's time: where the cursor is and moving it (h rebuilt). NULL: time moves by itself. */
	bool (*timeline)(const struct source *s, struct source_timeline *t);
	int (*seek)(struct source *s, struct fab_host *h, enum source_seek how, int64_t arg);
	/* Write a record of kind type (REC_EVENT, ...) while recording; NULL: cannot record. */
	int (*record_add)(struct source *s, unsigned int type, const void *body, size_t len);
	/*
	 * A recording's events up to the cursor into log: those not given yet,
	 * or all of them again when the caller emptied its log (again: after a
	 * jump). Returns how many were appended. NULL: events are derived live.
	 */
	size_t (*recorded_events)(struct source *s, struct event_log *log, bool again);
	/*
	 * A recording's record of kind type (REC_PROBE, ...) in force at the
	 * cursor: the last one before the next sample whose index is below
	 * before ((size_t)-1: any), so a caller walks back through them.
	 * false: none. NULL: not a recording.
	 */
	bool (*recorded)(struct source *s, unsigned int type, size_t before, struct source_rec *out);
};

/* What a source can do; what it cannot, the surfaces explain instead of trying. */
#define SOURCE_SIMULATED	(1u << 0)	/* made-up devices: no verbs, no MADs; its probe is simulated */
#define SOURCE_OWN_NETWORK	(1u << 1)	/* net() is this host's own network: --apply may change it */
#define SOURCE_RECORDED		(1u << 2)	/* a recording: no verbs, no probe, no MADs; time moves by refresh() */

struct source {
	const struct source_ops *ops;
	const struct fab_ctx *ctx;	/* outlives the source; its interval is read live */
	void *priv;			/* the kind's own state */
};

extern const struct source_ops source_live_ops;
extern const struct source_ops source_demo_ops;
extern const struct source_ops source_replay_ops;

/*
 * The source ctx asks for (--replay: the recording; --demo: the demo
 * fabric, else the live system under ctx's roots), the last two inside a
 * recorder (source_record_start()). NULL: no memory.
 */
struct source *source_open(const struct fab_ctx *ctx);
/* A source of the given kind. NULL: no memory or open() failed. */
struct source *source_open_ops(const struct fab_ctx *ctx, const struct source_ops *ops);
void source_close(struct source *s);

/* The ops, for callers that read like sentences. */
int source_collect(struct source *s, struct fab_host *h, unsigned int what);
bool source_refresh(struct source *s, struct fab_host *h, uint64_t now_ns);
int source_net(struct source *s, struct net_state *st);
int source_roce(struct source *s, const struct fab_host *h, struct roce_state *st);
bool source_changed(struct source *s, const struct fab_host *h);
/* The RDMA resources and their holders (see source_ops.res); -EOPNOTSUPP when the source has none. */
int source_res(struct source *s, struct res_state *rs);
/* The QP counters (see source_ops.qp_counters); -EOPNOTSUPP when the source has none. */
int source_qp_counters(struct source *s, const struct fab_host *h, struct stat_state *st);
/* A port's pending parts (see source_ops' fill_port); source_fills(): the source has that op. */
int source_fill_port(struct source *s, struct fab_host *h, size_t dev, size_t port, unsigned int what,
		     uint64_t deadline_ns);
bool source_fills(const struct source *s);
/* Device by device re-collection (see source_ops), when the source has both ops. */
bool source_by_device(const struct source *s);
int source_changed_devices(struct source *s, const struct fab_host *h, bool *devs);
int source_collect_device(struct source *s, struct fab_host *h, size_t dev, unsigned int what,
			  struct fab_device *nd);
/* The structure can change without refresh() saying so: watch it with source_changed() and re-collect. */
bool source_watched(const struct source *s);
/* The network-change fd (-errno: none) and its draining: see source_ops. */
int source_event_fd(struct source *s);
bool source_events(struct source *s);
/* The device-notification fd (-errno: none) and its draining: see source_ops. */
int source_async_fd(struct source *s, const struct fab_host *h);
unsigned int source_async_events(struct source *s, struct event_log *log);
/* A new MAD watch for the monitor (free it with mad_watch_free()); NULL: none or no memory. */
struct mad_watch *source_mad_watch(struct source *s);
/*
 * A probe over src (see source_ops.probe). NULL: out of memory, or the
 * source cannot probe (-EOPNOTSUPP in *err, else -ENOMEM).
 */
struct probe *source_probe_start(struct source *s, const struct probe_opts *o, int *err);
/* See source_ops.probe_peers; false (buf empty) when the source does not know. */
bool source_probe_peers(const struct source *s, char *buf, size_t size);
/* The fix ops (see source_ops); -EOPNOTSUPP when the source has none. */
int source_apply_fix(struct source *s, const struct fix_plan *plan, const struct net_state *st, FILE *log,
		     size_t *left);
int source_undo_fix(struct source *s, FILE *log);
bool source_can_fix(const struct source *s);
bool source_story(const struct source *s, char *story, size_t ssize, char *hint, size_t hsize, bool *fixed);
void source_describe(const struct source *s, char *buf, size_t size);
bool source_has(const struct source *s, unsigned int flag);
/* Recording and a recording's time: see source_ops. -EOPNOTSUPP / false when the source has none. */
int source_record_start(struct source *s, const char *path, const struct fab_host *h, const struct net_state *st,
			char *err, size_t errlen);
int source_record_stop(struct source *s);
bool source_record_status(const struct source *s, struct source_record_status *st);
int source_record_add(struct source *s, unsigned int type, const void *body, size_t len);
/* An event_log hook (model/events.h): every event appended is written while src records. */
void source_record_event_hook(const struct fab_event *ev, void *src);
size_t source_recorded_events(struct source *s, struct event_log *log, bool again);
bool source_recorded(struct source *s, unsigned int type, size_t before, struct source_rec *out);
bool source_timeline(const struct source *s, struct source_timeline *t);
int source_seek(struct source *s, struct fab_host *h, enum source_seek how, int64_t arg);
/* The recorder around inner (which it then owns). NULL: no memory (inner is closed). */
struct source *source_recorder_wrap(struct source *inner);

#endif
