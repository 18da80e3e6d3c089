/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live core: one source kept current for every surface that watches a host over time. */
#ifndef FABTOP_LIVE_LIVE_H
#define FABTOP_LIVE_LIVE_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source/snapshot.h"
#include "ctx.h"
#include "derive/doctor.h"
#include "derive/events.h"
#include "derive/far.h"
#include "derive/fabric_hist.h"
#include "derive/track.h"
#include "model/events.h"
#include "model/fabric.h"
#include "model/net.h"
#include "model/res.h"
#include "model/roce.h"

struct mad_lpma;
struct mad_subnet;
struct mad_path;
struct ib_trace;
struct mad_trap;
struct mad_watch;
struct source;

/*
 * The monitor, the exporter, the recorder, `show events` and `show
 * --count` are views of one struct live: it owns the source and keeps
 * current the host (with its rate history), the network state and the
 * doctor's findings over it, the events (derived and the devices' own)
 * and the MAD view with what is derived of it. A surface gives the core
 * its poll slots (live_fds()), polls, and steps it once (live_step()),
 * which says what changed; it never reads the source itself. Every policy
 * of keeping a host current lives here once: the sampling interval, the
 * structure checks and re-collections (source/snapshot.h), the network
 * read again on a netlink change (at most every SNAPSHOT_NET_GAP_NS), with
 * the structure, every SNAPSHOT_RESCAN_NS and as soon as the CM REJ
 * counters move (so the doctor's CM finding follows a reject at once),
 * the devices' notifications followed across re-collections, MAD view
 * retries and access granted later. doc/architecture.md.
 */

/* What a surface wants kept (live_open()'s flags). */
#define LIVE_FILL_LATER		(1u << 0)	/* the first look reads devices and ports, the rest over live_fill() */
#define LIVE_HISTORY		(1u << 1)	/* per-port rate history and error activity, both ends */
#define LIVE_PMA_COUNTERS	(1u << 2)	/* local IB ports' counters from the PMA (--counters pma|auto): the MAD
						 * view's, or with LIVE_HOST_ONLY asked and awaited with each sample */
#define LIVE_HOST_ONLY		(1u << 3)	/* counters alone: no network, doctor, events or MAD view */
#define LIVE_NO_WAIT		(1u << 4)	/* sample at every step (a recording's samples are there already) */

/* Parts a surface asks for while it shows them (live_want()): each costs I/O per sample. */
#define LIVE_WANT_ROCE		(1u << 0)	/* the RoCE chain of the Ethernet ports (DCB, ethtool, congestion) */
#define LIVE_WANT_FABRIC	(1u << 1)	/* the whole subnet: swept, every port's PMA counters each interval */
#define LIVE_WANT_PATH		(1u << 2)	/* the InfiniBand path to the peer of live_path(), each hop sampled */
#define LIVE_WANT_RES		(1u << 3)	/* RDMA resources and who holds them (rdma netlink dumps), at most every LIVE_RES_GAP_NS */

/* The resources are read again at most this often while wanted: a few netlink dumps per device. */
#define LIVE_RES_GAP_NS		(2ull * 1000000000ull)

/* What a step changed (live_step()'s answer). */
#define LIVE_SAMPLED		(1u << 0)	/* a new sample of the host */
#define LIVE_STRUCTURE		(1u << 1)	/* devices, ports or port states changed with it */
#define LIVE_NET		(1u << 2)	/* the network state and the findings were read again */
#define LIVE_EVENTS		(1u << 3)	/* the devices' notifications arrived */
#define LIVE_MAD		(1u << 4)	/* the MAD view changed (a sample, a re-query, opened) */
#define LIVE_FILLED		(1u << 5)	/* parts left pending were read (live_fill()) */
#define LIVE_FABRIC		(1u << 6)	/* the subnet view changed (swept, sampled, opened or failed) */
#define LIVE_PATH		(1u << 7)	/* the path to the peer changed (walked, sampled, or why not) */
#define LIVE_RES		(1u << 8)	/* the RDMA resources were read again (or failed to be) */

/* How the core tells people about trouble (out of memory, a monitor that cannot be had). */
struct live_hooks {
	void (*say)(void *arg, const char *msg);
	void *arg;
};

struct live {
	const struct fab_ctx *ctx;
	unsigned int flags;		/* LIVE_* of live_open() */
	struct live_hooks hooks;
	struct source *src;

	/* The host, sampled every interval_s. */
	struct fab_host host;
	struct snapshot_clock clock;	/* structure checks and full collections */
	double interval_s;
	uint64_t next_sample_ns;	/* CLOCK_MONOTONIC */
	uint64_t last_sample_ns;	/* model time of the latest sample (simulated in the demo) */
	uint64_t samples;		/* taken so far, the first look included */
	bool paused;			/* frozen: no sample, no network read, no new MAD work */
	struct track track;		/* LIVE_HISTORY: per-port history and error activity */
	char loading[96];		/* what is still being read (LIVE_FILL_LATER), "" when nothing */

	/* The IP side and the doctor's findings over it. */
	struct net_state net;
	bool net_ok;			/* net holds a collected state */
	int net_err;			/* why not (-errno), 0 when ok */
	const struct route_ops *routes;	/* who answers route questions about net */
	struct doctor_report doctor;
	bool doctor_ok;
	int findings;			/* warnings and errors; -1: unknown */
	enum fix_host persist;		/* what configures this host: the fix's persistent form */
	uint64_t cm_rejs;		/* CM REJs sent + received when the network was last read */
	uint64_t last_net_ns;
	bool net_wanted;		/* a change arrived: read the network again (at most every NET_GAP) */
	bool net_after_fill;		/* the network waits for the pending GID tables (LIVE_FILL_LATER) */
	int nl_fd;			/* the source's network-change fd, -1 if none */

	/* What happened: derived from each look, and the devices' own notifications. */
	struct event_log events;
	struct events_memory ev_mem;	/* what the previous look showed */
	int async_fd;			/* the devices' notification fd, -1 if none */

	/* LIVE_HOST_ONLY | LIVE_PMA_COUNTERS: the local PMA asked with each sample (NULL: none). */
	struct mad_lpma *pma;

	/* The MAD view (NULL: the source has no subnet to ask) and its far ends [mad->f.nports]. */
	struct mad_watch *mad;
	struct far_end *far;

	/* The RoCE chain, read with each sample while LIVE_WANT_ROCE (two samples: rates between them). */
	unsigned int wants;		/* LIVE_WANT_* */
	struct roce_state roce, roce_prev;
	int roce_err;			/* 0, or why there is none (-EOPNOTSUPP: the demo) */

	/* RDMA resources and their holders, read while LIVE_WANT_RES (the Connections pane). */
	struct res_state res;
	bool res_ok;			/* res holds a reading */
	int res_err;			/* the last read failed: -errno (-EOPNOTSUPP: the source has none) */
	uint64_t res_ns;		/* when it was last read, 0 never */

	/*
	 * The whole subnet (LIVE_WANT_FABRIC): made when first wanted on a
	 * source with a subnet, kept (frozen) while not wanted. NULL: never
	 * wanted, or the source has none (simulated, recorded).
	 */
	struct mad_subnet *subnet;
	double fabric_interval_s;	/* its PMA rounds; 0: every interval_s */
	struct fabric_hist fhist;	/* each link's last intervals, a point per PMA round */
	/* The InfiniBand path to a peer (LIVE_WANT_PATH and live_path()): NULL when none is being kept. */
	struct mad_path *path;
	char path_peer[64];		/* the peer as given ("" none) */
	char path_why[512];		/* why there is no path ("" while there is one or none is asked) */
	uint64_t path_retry_ns;		/* when to read the ARP table again */
	size_t subnet_rec;		/* a replay: the subnet record shown (LIVE_SUBNET_NONE: none at the cursor) */
	uint64_t subnet_rec_started;	/* a recording: the one the subnet was last written into */
	/* The SM's traps, subscribed to beside the subnet: a Report sweeps it at once (NULL: none). */
	struct mad_trap *trap;

	/* Where live_fds() put the core's fds in the surface's array (-1: not there). */
	struct pollfd *pfds;
	int pfd_nl, pfd_async, pfd_mad, nmad;
};

#define LIVE_SUBNET_NONE	((size_t)-1)

/* An empty core for ctx: no source, an empty host and log (what a pane test draws); live_close() frees it. */
void live_init(struct live *lv, const struct fab_ctx *ctx, size_t events_cap);
/*
 * Open the source for ctx and take the first look (what later ones are
 * compared with). events_cap: how many events the log keeps (0: its
 * default). 0 or -errno; live_close() frees what was made either way.
 */
int live_open(struct live *lv, const struct fab_ctx *ctx, unsigned int flags, const struct live_hooks *hooks,
	      size_t events_cap);
/* Another source for ctx (the monitor's switch to the demo): the event log stays. 0 or -errno. */
int live_reopen(struct live *lv);
void live_close(struct live *lv);

/*
 * The core's fds (POLLIN) into fds (at most max), its next deadline into
 * *timeout_ms (lowered, never raised; -1 is no deadline). The array must
 * stay where it is until live_step().
 */
int live_fds(struct live *lv, struct pollfd *fds, int max, int *timeout_ms);
/*
 * After the poll: serve the fds given by live_fds(), read the network
 * again when it changed, and sample the host when it is due. Never blocks
 * past a collection. Returns LIVE_* bits of what changed.
 */
unsigned int live_step(struct live *lv);
/* Step until the next sample is in (a surface with nothing else to wait for); LIVE_* bits. */
unsigned int live_next_sample(struct live *lv);
/*
 * LIVE_FILL_LATER: read what the first look or a re-collection left
 * pending for SNAPSHOT_FILL_NS (between two frames); the network follows
 * the GID tables. LIVE_* bits: 0 when nothing was pending.
 */
unsigned int live_fill(struct live *lv);
/* What is still being read ("GIDs: reading 12/64 ports"), NULL: nothing. */
const char *live_loading(const struct live *lv);

/*
 * Take st (RDMA netdevs marked, as snapshot_net() gives it) or the error
 * err as the network state and run the doctor over it (a network read
 * elsewhere: a test's fixture).
 */
void live_net_take(struct live *lv, struct net_state *st, int err);

/*
 * The network read again now, with the RoCE chain and the findings (a
 * surface changed the host: the demo's fix applied or undone). LIVE_NET,
 * or 0 for LIVE_HOST_ONLY.
 */
unsigned int live_net_again(struct live *lv);

/*
 * Read these parts with every sample from now on (LIVE_WANT_*), or no
 * longer. LIVE_WANT_FABRIC on a source with no subnet (the demo, a
 * recording) makes nothing: live_fabric_reason() says why.
 */
void live_want(struct live *lv, unsigned int wants);

/*
 * The peer whose InfiniBand path is kept while LIVE_WANT_PATH: an IPv4
 * address whose ARP entry (the --proc root's net/arp) is an IPoIB
 * neighbour; "" stops. The path: live_path_trace() (NULL and *why when
 * there is none yet or none at all).
 */
void live_path(struct live *lv, const char *peer);
const struct ib_trace *live_path_trace(const struct live *lv, const char **why);
/* Why there is no subnet view ("" when there is one or it is being asked for). */
const char *live_fabric_reason(const struct live *lv);

/* Frozen (the monitor's pause) or running again. */
void live_pause(struct live *lv, bool paused);
/* The structure (and the network) again at the next sample. */
void live_rescan(struct live *lv);
/* Sample every interval_s from now on. */
void live_set_interval(struct live *lv, double interval_s);
/* 'r': deltas since start restart now, both ends; the history stays. */
void live_reset(struct live *lv);
/* A recording's cursor moved: history, events and the network follow it. */
void live_jumped(struct live *lv);
/* Move a recording's cursor (source_seek()) and follow it (live_jumped()); 0 or -errno, nothing moved. */
int live_seek(struct live *lv, enum source_seek how, int64_t arg);

/* The source is simulated (no probe, no MADs) / a recording. */
bool live_simulated(const struct live *lv);
bool live_recorded(const struct live *lv);

#endif
