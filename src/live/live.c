// SPDX-License-Identifier: GPL-2.0-or-later
/* The live core: the source, the host, the network and findings, events and the MAD view, kept current in one step. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mad/mad_port.h"
#include "mad/mad_path.h"
#include "mad/mad_subnet.h"
#include "kernel/ipoib_arp.h"
#include "record/file.h"
#include "record/subnet.h"
#include "mad/mad_trap.h"
#include "mad/mad_watch.h"
#include "source/source.h"
#include "derive/counters.h"
#include "kernel/netconf.h"
#include "live/live.h"
#include "mad/mad_lpma.h"
#include "util.h"
#include "warn.h"

static void live_say(struct live *lv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void live_say(struct live *lv, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (lv->hooks.say)
		lv->hooks.say(lv->hooks.arg, msg);
}

bool live_simulated(const struct live *lv)
{
	/* No source (switching to the demo ran out of memory): what was asked for. */
	return lv->src ? source_has(lv->src, SOURCE_SIMULATED) : lv->ctx->demo;
}

bool live_recorded(const struct live *lv)
{
	return lv->src && source_has(lv->src, SOURCE_RECORDED);
}

static uint64_t interval_ns(const struct live *lv)
{
	return (uint64_t)(lv->interval_s * 1e9);
}

/* Compare the parts just read with the previous look: what changed becomes events. */
static void live_derive(struct live *lv, bool host, bool net)
{
	struct events_input in = {
		.host = host ? &lv->host : NULL,
		.net = net && lv->net_ok ? &lv->net : NULL,
		.doctor = net && lv->doctor_ok ? &lv->doctor : NULL,
		.real_ns = util_wall_ns(),
		.mono_ns = lv->last_sample_ns ? lv->last_sample_ns : util_now_ns(),
	};

	if (lv->flags & LIVE_HOST_ONLY)
		return;
	/* A recording brings the events that were seen live (the devices' own among them): none are derived again. */
	if (live_recorded(lv)) {
		source_recorded_events(lv->src, &lv->events, false);
		return;
	}
	if (events_derive(&lv->ev_mem, &in, &lv->events))
		live_say(lv, "out of memory deriving events: some changes may go unreported");
}

/* No network state and no findings (a source closed, or a read to take in their place). */
static void live_net_drop(struct live *lv)
{
	if (lv->net_ok)
		net_state_free(&lv->net);
	if (lv->doctor_ok)
		doctor_report_free(&lv->doctor);
	lv->net_ok = lv->doctor_ok = false;
	lv->findings = -1;
}

void live_net_take(struct live *lv, struct net_state *st, int err)
{
	/* Nothing stale: a failed read shows as unavailable, not as the old state. */
	live_net_drop(lv);
	lv->net_err = err;
	if (err || !st)
		return;
	lv->net = *st;
	lv->net_ok = true;
	lv->routes = snapshot_routes(&lv->net);
	memset(&lv->doctor, 0, sizeof(lv->doctor));
	{
		struct doctor_input in = { .host = &lv->host, .net = &lv->net, .routes = lv->routes,
					   .roce = lv->roce_err ? NULL : &lv->roce, .persist = lv->persist };

		if (doctor_run(&in, NULL, &lv->doctor) == 0) {
			lv->doctor_ok = true;
			lv->findings = 0;
			for (size_t i = 0; i < lv->doctor.nfindings; i++)
				if (lv->doctor.findings[i].severity != DOCTOR_INFO)
					lv->findings++;
		} else {
			live_say(lv, "the doctor ran out of memory: its findings are left out");
		}
	}
	live_derive(lv, false, true);
}

/*
 * The doctor's RoCE findings come from the chain: while no surface keeps
 * it sampled (LIVE_WANT_ROCE), it is read with the network, so the
 * header, the Doctor pane, the exporter and `fabtop doctor` hold the same
 * findings whether the RoCE pane was ever opened or not.
 */
static void live_roce_for_doctor(struct live *lv)
{
	if ((lv->wants & LIVE_WANT_ROCE) || !lv->src)
		return;
	roce_state_free(&lv->roce_prev);
	roce_state_free(&lv->roce);
	memset(&lv->roce_prev, 0, sizeof(lv->roce_prev));
	memset(&lv->roce, 0, sizeof(lv->roce));
	lv->roce_err = source_roce(lv->src, &lv->host, &lv->roce);
}

/* The network state again and the doctor over it. */
static void live_net_read(struct live *lv)
{
	struct net_state st;
	int rc = -ENOMEM;

	lv->last_net_ns = util_now_ns();
	lv->net_wanted = false;
	memset(&st, 0, sizeof(st));
	if (lv->src)
		rc = snapshot_net(lv->src, &lv->host, &st);
	live_roce_for_doctor(lv);
	live_net_take(lv, &st, rc);
}

unsigned int live_net_again(struct live *lv)
{
	if (lv->flags & LIVE_HOST_ONLY)
		return 0;
	live_net_read(lv);
	return LIVE_NET;
}

/* What is still being read, for a title bar and the panes that wait for it. */
static void live_loading_update(struct live *lv)
{
	size_t nports, nctr = snapshot_host_pending(&lv->host, COLLECT_COUNTERS, &nports);
	size_t ngid = snapshot_host_pending(&lv->host, COLLECT_GIDS, &nports);
	int off = 0;

	lv->loading[0] = '\0';
	if (nctr)
		off = snprintf(lv->loading, sizeof(lv->loading), "counters: reading %zu/%zu ports", nports - nctr,
			       nports);
	if (ngid && off >= 0 && (size_t)off < sizeof(lv->loading))
		off += snprintf(lv->loading + off, sizeof(lv->loading) - (size_t)off, "%sGIDs: reading %zu/%zu ports",
				off ? ", " : "", nports - ngid, nports);
	if (lv->net_after_fill && off >= 0 && (size_t)off < sizeof(lv->loading))
		snprintf(lv->loading + off, sizeof(lv->loading) - (size_t)off, "%snetwork next", off ? ", " : "");
}

const char *live_loading(const struct live *lv)
{
	return lv->loading[0] ? lv->loading : NULL;
}

/* --counters pma or auto: the local ports' latest PMA samples replace their counters/ files in the host. */
static void mad_lpma_counters(struct live *lv)
{
	const struct mad_watch *w = lv->mad;

	if (!(lv->flags & LIVE_PMA_COUNTERS) || !mad_watch_has_view(w) || lv->ctx->counters == COUNTERS_SYSFS ||
	    lv->ctx->counters == COUNTERS_NETLINK)
		return;
	for (size_t i = 0; i < w->f.nports; i++) {
		const struct ib_local_port *lp = &w->f.ports[i];
		struct fab_port *p = fab_host_find_port(&lv->host, lp->ca, lp->port);

		if (p && lp->pma.state == IBQ_OK && lp->pma.n && mad_port_apply_pma(p, &lp->pma) < 0)
			live_say(lv, "out of memory taking the PMA counters of %s/%u", lp->ca, lp->port);
	}
}

static void live_far_sample(struct live *lv, uint64_t now)
{
	for (size_t i = 0; lv->far && i < lv->mad->f.nports; i++)
		far_sample(&lv->far[i], &lv->mad->f.ports[i], now, lv->flags & LIVE_HISTORY);
}

static void live_mad_drop(struct live *lv)
{
	mad_watch_free(lv->mad);
	lv->mad = NULL;
	free(lv->far);
	lv->far = NULL;
}

/*
 * IB ports that appeared, or access that was granted, get their MAD view
 * (the watch spaces its retries). True when a new view was opened.
 */
static bool live_mad_open(struct live *lv)
{
	if (lv->flags & LIVE_HOST_ONLY)
		return false;
	/* The source decides whether there is a subnet to ask (a simulated one has none). */
	if (!lv->mad)
		lv->mad = source_mad_watch(lv->src);
	if (!lv->mad || !mad_watch_open(lv->mad, &lv->host, lv->interval_s, util_now_ns()))
		return false;
	free(lv->far);
	lv->far = calloc(lv->mad->f.nports ? lv->mad->f.nports : 1, sizeof(*lv->far));
	if (!lv->far) {
		live_say(lv, "out of memory opening the MAD view: the far ends are left out");
		live_mad_drop(lv);
		return false;
	}
	for (size_t i = 0; i < lv->mad->f.nports; i++)
		far_init(&lv->far[i]);
	return true;
}

/* MAD answers and deadlines: never blocks, whatever the fabric does. */
static unsigned int live_mad_step(struct live *lv, uint64_t now)
{
	struct mad_watch *w = lv->mad;

	if (!w || !mad_watch_has_view(w) || !lv->far)
		return 0;
	switch (mad_watch_handle(w, lv->paused, lv->interval_s, now)) {
	case MAD_WATCH_NOTHING:
		return 0;
	case MAD_WATCH_REQUERIED:
		/* A partner replaced or an SM moved is an event; a recording has its own. */
		if (!live_recorded(lv) &&
		    events_derive_far_end(&lv->ev_mem, w->f.ports, w->f.nports, util_wall_ns(), now, &lv->events))
			live_say(lv, "out of memory deriving events: some changes may go unreported");
		/* Another partner, or none: what was derived from the old one is not this cable's. */
		for (size_t i = 0; i < w->f.nports; i++)
			if (w->partner[i].changed)
				far_init(&lv->far[i]);
		break;
	case MAD_WATCH_SAMPLED:
		break;
	}
	mad_lpma_counters(lv);
	live_far_sample(lv, now);
	return LIVE_MAD;
}

/* The devices' notifications follow the devices (a re-collection may have changed them). */
static void live_async_follow(struct live *lv)
{
	int fd;

	if (lv->flags & LIVE_HOST_ONLY)
		return;
	fd = source_async_fd(lv->src, &lv->host);
	lv->async_fd = fd >= 0 ? fd : -1;
}

/* The RoCE chain costs a netlink request and ioctls per port: read only while wanted. */
static void live_roce_sample(struct live *lv)
{
	if (!(lv->wants & LIVE_WANT_ROCE))
		return;
	roce_state_free(&lv->roce_prev);
	lv->roce_prev = lv->roce;
	memset(&lv->roce, 0, sizeof(lv->roce));
	lv->roce_err = source_roce(lv->src, &lv->host, &lv->roce);
}

/* The resources while wanted, at most every LIVE_RES_GAP_NS (force: now, a part just asked for). */
static unsigned int live_res_sample(struct live *lv, uint64_t now, bool force)
{
	struct res_state rs;

	if (!(lv->wants & LIVE_WANT_RES) || !lv->src)
		return 0;
	if (!force && lv->res_ns && now - lv->res_ns < LIVE_RES_GAP_NS)
		return 0;
	lv->res_ns = now;
	memset(&rs, 0, sizeof(rs));
	lv->res_err = source_res(lv->src, &rs);
	if (lv->res_err)
		return LIVE_RES;
	if (lv->res_ok)
		res_state_free(&lv->res);
	lv->res = rs;
	lv->res_ok = true;
	return LIVE_RES;
}

static void live_res_drop(struct live *lv)
{
	if (lv->res_ok)
		res_state_free(&lv->res);
	memset(&lv->res, 0, sizeof(lv->res));
	lv->res_ok = false;
	lv->res_err = 0;
	lv->res_ns = 0;
}

/* A replay's subnet, or why there is none, shown in place of the one shown. */
static void live_subnet_show(struct live *lv, struct rec_subnet *s, const char *why)
{
	mad_subnet_take(lv->subnet, &s->f, s->lost, s->nlost, why ? why : s->reason, why ? "" : s->status, s->sweeps);
	s->lost = NULL;
	s->nlost = 0;
}

/* A replay: the subnet recorded at the cursor (its record looked up each step, decoded when another). */
static unsigned int live_subnet_replay(struct live *lv)
{
	struct source_rec r;
	struct rec_subnet *s;
	struct rec_cur c;
	int rc;

	if (!source_recorded(lv->src, REC_SUBNET, (size_t)-1, &r)) {
		struct rec_subnet none = { 0 };

		if (lv->subnet_rec == LIVE_SUBNET_NONE)
			return 0;
		lv->subnet_rec = LIVE_SUBNET_NONE;
		live_subnet_show(lv, &none, "the recording holds no subnet here (it is written while the Fabric pane "
				 "or fabtop record sweeps one)");
		return LIVE_FABRIC;
	}
	if (r.index == lv->subnet_rec)
		return 0;
	lv->subnet_rec = r.index;
	s = calloc(1, sizeof(*s));
	if (!s) {
		live_say(lv, "out of memory: the recorded subnet is not shown");
		return 0;
	}
	rec_cur_init(&c, r.body, r.len, NULL);
	rc = rec_subnet_decode(&c, s);
	if (rc) {
		char why[512];

		snprintf(why, sizeof(why), "the recorded subnet does not read: %s",
			 rc == -ENOMEM ? "out of memory" : c.err ? c.err : "?");
		live_subnet_show(lv, s, why);
	} else {
		bool sampled = s->news == REC_SUBNET_SAMPLED;

		live_subnet_show(lv, s, NULL);
		if (sampled && fabric_hist_add(&lv->fhist, mad_subnet_fabric(lv->subnet)))
			live_say(lv, "out of memory: the links' history stops");
	}
	rec_subnet_free(s);
	free(s);
	return LIVE_FABRIC;
}

/*
 * A recording runs: what the subnet just did (bits: SUBNET_*) is written,
 * and the subnet with it. What a first sweep found so far is not: a
 * recording holds whole sweeps only, so a replay never shows a partial
 * subnet as a complete one.
 */
static void live_subnet_record(struct live *lv, unsigned int bits)
{
	struct source_record_status st;
	struct rec_subnet s = { 0 };
	struct rec_buf b = { 0 };

	if (mad_subnet_fabric(lv->subnet)->partial || !source_record_status(lv->src, &st))
		return;
	lv->subnet_rec_started = st.started_ns;
	s.f = *mad_subnet_fabric(lv->subnet);		/* borrowed: only encoded */
	s.lost = (struct fabric_lost_link *)mad_subnet_lost(lv->subnet, &s.nlost);
	snprintf(s.reason, sizeof(s.reason), "%s", mad_subnet_reason(lv->subnet));
	snprintf(s.status, sizeof(s.status), "%s", mad_subnet_status(lv->subnet));
	s.sweeps = mad_subnet_sweeps(lv->subnet);
	s.news = (bits & SUBNET_SAMPLED) ? REC_SUBNET_SAMPLED : (bits & SUBNET_SWEPT) ? REC_SUBNET_SWEPT
										       : REC_SUBNET_STATE;
	rec_subnet_encode(&b, &s);
	if (!b.oom)
		source_record_add(lv->src, REC_SUBNET, b.data, b.len);
	rec_buf_free(&b);
}

/* ---- the InfiniBand path to a peer ---- */

static void live_path_stop(struct live *lv)
{
	mad_path_free(lv->path);
	lv->path = NULL;
}

/* The peer's port GUID from the ARP table, and a path towards it; else why not (asked again every 5 s). */
static void live_path_start(struct live *lv, uint64_t now)
{
	char dev[64];
	uint64_t guid;
	unsigned char a[4];
	int rc;

	lv->path_retry_ns = now + 5000000000ull;
	if (live_simulated(lv) || live_recorded(lv)) {
		snprintf(lv->path_why, sizeof(lv->path_why), "%s", live_simulated(lv) ?
			 "the demo fabric is simulated: there is no InfiniBand path to trace" :
			 "a recording holds no path: the path is traced on the live host");
		return;
	}
	if (inet_pton(AF_INET, lv->path_peer, a) != 1) {
		snprintf(lv->path_why, sizeof(lv->path_why), "the path is traced to an IPv4 peer (an IPoIB neighbour)");
		return;
	}
	rc = ipoib_arp_guid(lv->ctx, lv->path_peer, &guid, dev, sizeof(dev), lv->path_why, sizeof(lv->path_why));
	if (rc) {
		if (rc == -ENOMEM)
			snprintf(lv->path_why, sizeof(lv->path_why), "out of memory");
		return;
	}
	lv->path_why[0] = '\0';
	lv->path = mad_path_new(lv->ctx, guid);
	if (!lv->path)
		snprintf(lv->path_why, sizeof(lv->path_why), "out of memory");
}

void live_path(struct live *lv, const char *peer)
{
	if (!strcmp(peer, lv->path_peer))
		return;
	live_path_stop(lv);
	snprintf(lv->path_peer, sizeof(lv->path_peer), "%s", peer);
	lv->path_why[0] = '\0';
	lv->path_retry_ns = 0;
}

const struct ib_trace *live_path_trace(const struct live *lv, const char **why)
{
	*why = lv->path ? mad_path_status(lv->path) : lv->path_why;
	return lv->path ? mad_path_trace(lv->path) : NULL;
}

/*
 * A step of the path while it is wanted (made when wanted and a peer is
 * set). Not wanted, it is kept as it is, its sessions open and nothing
 * sent: back in the pane it goes on without a sweep.
 */
static unsigned int live_path_step(struct live *lv, uint64_t now)
{
	if (!(lv->wants & LIVE_WANT_PATH) || !lv->path_peer[0])
		return 0;
	if (!lv->path) {
		if (now < lv->path_retry_ns)
			return 0;
		live_path_start(lv, now);
		return LIVE_PATH;
	}
	return !lv->paused && mad_path_step(lv->path, lv->interval_s, now) ? LIVE_PATH : 0;
}

/* The subnet view is made the first time it is wanted, on a source that has a subnet or recorded one. */
static void live_subnet_want(struct live *lv)
{
	if (lv->subnet || !(lv->wants & LIVE_WANT_FABRIC) || !lv->src || (lv->flags & LIVE_HOST_ONLY) ||
	    live_simulated(lv))
		return;
	lv->subnet = mad_subnet_new(lv->ctx);
	if (!lv->subnet) {
		live_say(lv, "out of memory: no fabric view");
		return;
	}
	if (live_recorded(lv)) {
		lv->subnet_rec = LIVE_SUBNET_NONE - 1;	/* not looked up yet */
		live_subnet_replay(lv);
		return;
	}
	lv->trap = mad_trap_new(lv->ctx);	/* without it the subnet is swept on its timer */
}

const char *live_fabric_reason(const struct live *lv)
{
	if (lv->subnet)
		return mad_subnet_reason(lv->subnet);
	if (live_simulated(lv))
		return "the demo fabric is simulated: there is no subnet to sweep";
	if (live_recorded(lv))
		return "the recording's subnet is read when the Fabric pane is shown";
	if (lv->flags & LIVE_HOST_ONLY)
		return "this view reads the host's counters only";
	if (!lv->src)
		return "there is no source to ask";
	return "";
}

static bool live_subnet_frozen(const struct live *lv)
{
	return lv->paused || !(lv->wants & LIVE_WANT_FABRIC);
}

/* The SM's Reports are read and acknowledged even while frozen; one means the subnet changed: sweep it now. */
static unsigned int live_trap_step(struct live *lv, uint64_t now)
{
	unsigned int got = lv->trap ? mad_trap_step(lv->trap, now) : 0;

	if ((got & MAD_TRAP_REPORT) && lv->subnet)
		mad_subnet_rescan(lv->subnet);
	return got ? LIVE_FABRIC : 0;
}

void live_want(struct live *lv, unsigned int wants)
{
	unsigned int added = wants & ~lv->wants;

	lv->wants = wants;
	live_subnet_want(lv);
	/* A part just asked for is there at once; its rates come with the next sample. */
	if ((added & LIVE_WANT_ROCE) && lv->src) {
		roce_state_free(&lv->roce_prev);
		memset(&lv->roce_prev, 0, sizeof(lv->roce_prev));
		live_roce_sample(lv);
	}
	if (added & LIVE_WANT_RES)
		live_res_sample(lv, util_now_ns(), true);
}

/* One sample: counters, or the host again when its structure changed; then what follows from it. */
static unsigned int live_sample(struct live *lv, uint64_t now)
{
	unsigned int ch = LIVE_SAMPLED;
	bool changed, nomem;

	changed = snapshot_host_sample(lv->src, &lv->host, &lv->clock, now, track_carry, &nomem);
	if (nomem)
		live_say(lv, "out of memory while collecting: the previous sample stands");
	if (changed) {
		ch |= LIVE_STRUCTURE;
		/* a local port changed state: the subnet seen from it may have too */
		if (lv->subnet)
			mad_subnet_rescan(lv->subnet);
	}
	/*
	 * The kernel sets a port's state, then queues the device's notification
	 * of it: what is queued by now is logged before the changes this sample
	 * derives, so the notification never trails the change it announced
	 * (a non-blocking read; nothing queued costs one read per device).
	 */
	if (lv->async_fd >= 0 && source_async_events(lv->src, &lv->events))
		ch |= LIVE_EVENTS;
	mad_lpma_counters(lv);
	if (lv->pma)
		mad_lpma_sample(lv->pma, &lv->host, lv->hooks.say, lv->hooks.arg);
	lv->last_sample_ns = fab_host_model_now(&lv->host, now);
	lv->samples++;
	if (!(lv->flags & LIVE_HOST_ONLY)) {
		uint64_t tx, rx;

		/* REJs moved: the doctor's CM finding must say so now, not at the next re-read. */
		host_cm_rejs(&lv->host, &tx, &rx);
		if (tx + rx != lv->cm_rejs) {
			lv->cm_rejs = tx + rx;
			lv->net_wanted = true;
		}
		/* Sysctls have no notifications: the network is read with the structure, and every RESCAN. */
		if (!lv->net_after_fill && (changed || lv->net_wanted || now - lv->last_net_ns >= SNAPSHOT_RESCAN_NS)) {
			live_net_read(lv);
			ch |= LIVE_NET;
		}
		live_derive(lv, true, false);
		live_async_follow(lv);
		if (live_mad_open(lv))
			ch |= LIVE_MAD;
	}
	live_loading_update(lv);
	if (lv->flags & LIVE_HISTORY)
		track_sample(&lv->track, &lv->host, lv->last_sample_ns);
	live_roce_sample(lv);
	ch |= live_res_sample(lv, now, false);
	return ch;
}

/* The rtnetlink monitor: a network change wakes the surface's poll. */
static void live_netlink_open(struct live *lv)
{
	if (lv->flags & LIVE_HOST_ONLY)
		return;
	lv->nl_fd = source_event_fd(lv->src);
	if (lv->nl_fd < 0) {
		if (lv->nl_fd != -EOPNOTSUPP)
			warn_once("rtnetlink monitor: %s; network changes show at the next re-read (%llu s)",
				  strerror(-lv->nl_fd), SNAPSHOT_RESCAN_NS / 1000000000ull);
		lv->nl_fd = -1;
	}
}

/* The first look of a source: what later ones are compared with (it derives nothing by itself). */
static int live_first_look(struct live *lv)
{
	uint64_t now = util_now_ns();
	size_t nports;
	int rc;

	lv->src = source_open(lv->ctx);
	if (!lv->src)
		return -ENOMEM;
	/* A recorder writes every event (its hook does nothing while no recording runs). */
	event_log_set_hook(&lv->events, source_record_event_hook, lv->src);
	if (lv->flags & LIVE_FILL_LATER) {
		lv->clock.fills_between = true;		/* live_fill() */
		rc = snapshot_host_start(lv->src, &lv->host, &lv->clock, now);
	} else {
		rc = source_collect(lv->src, &lv->host, COLLECT_ALL);
		lv->clock.last_rescan_ns = lv->clock.last_watch_ns = now;
	}
	if (rc)
		return rc;
	lv->last_sample_ns = fab_host_model_now(&lv->host, lv->clock.last_rescan_ns);
	lv->samples = 1;
	if (lv->flags & LIVE_HISTORY)
		track_sample(&lv->track, &lv->host, lv->last_sample_ns);
	if (!(lv->flags & LIVE_HOST_ONLY)) {
		uint64_t tx, rx;

		/* the fix's persistent form fits what configures this host (the demo's: every form) */
		lv->persist = source_has(lv->src, SOURCE_OWN_NETWORK) ? netconf_detect(lv->ctx) : FIX_HOST_UNKNOWN;
		host_cm_rejs(&lv->host, &tx, &rx);
		lv->cm_rejs = tx + rx;
		/* The doctor on half the GID tables would report netdevs as not RDMA's. */
		lv->net_after_fill = snapshot_host_pending(&lv->host, COLLECT_GIDS, &nports) != 0;
		if (!lv->net_after_fill)
			live_net_read(lv);
	}
	live_loading_update(lv);
	live_derive(lv, true, false);
	live_async_follow(lv);
	live_netlink_open(lv);
	live_mad_open(lv);
	/* a host-only watch keeps no MAD view: its PMA counters are asked with each sample */
	if ((lv->flags & LIVE_HOST_ONLY) && (lv->flags & LIVE_PMA_COUNTERS)) {
		lv->pma = calloc(1, sizeof(*lv->pma));
		if (lv->pma)
			mad_lpma_open(lv->pma, lv->ctx, &lv->host, lv->hooks.say, lv->hooks.arg);
		else
			live_say(lv, "out of memory: counters from sysfs");
	}
	lv->next_sample_ns = util_now_ns() + interval_ns(lv);
	return 0;
}

void live_init(struct live *lv, const struct fab_ctx *ctx, size_t events_cap)
{
	memset(lv, 0, sizeof(*lv));
	lv->ctx = ctx;
	lv->interval_s = ctx->interval_s;
	lv->findings = -1;
	lv->nl_fd = lv->async_fd = -1;
	lv->pfd_nl = lv->pfd_async = lv->pfd_mad = -1;
	events_memory_init(&lv->ev_mem);
	/* Out of memory leaves a log of no room: appends are then dropped, nothing breaks. */
	event_log_init(&lv->events, events_cap);
}

int live_open(struct live *lv, const struct fab_ctx *ctx, unsigned int flags, const struct live_hooks *hooks,
	      size_t events_cap)
{
	live_init(lv, ctx, events_cap);
	lv->flags = flags;
	if (hooks)
		lv->hooks = *hooks;
	return live_first_look(lv);
}

/* Everything of the source: the host, its network, the MAD view and the memory of the last look. */
static void live_drop_source(struct live *lv)
{
	if (lv->pma)
		mad_lpma_close(lv->pma);
	free(lv->pma);
	lv->pma = NULL;
	live_mad_drop(lv);
	mad_trap_free(lv->trap);
	lv->trap = NULL;
	mad_subnet_free(lv->subnet);
	lv->subnet = NULL;
	fabric_hist_free(&lv->fhist);
	live_path_stop(lv);
	live_net_drop(lv);
	live_res_drop(lv);
	track_free(&lv->track);
	roce_state_free(&lv->roce);
	roce_state_free(&lv->roce_prev);
	memset(&lv->roce, 0, sizeof(lv->roce));
	memset(&lv->roce_prev, 0, sizeof(lv->roce_prev));
	fab_host_free(&lv->host);
	events_memory_free(&lv->ev_mem);
	events_memory_init(&lv->ev_mem);
	source_close(lv->src);
	lv->src = NULL;
	lv->nl_fd = lv->async_fd = -1;		/* the source's, closed with it */
	memset(&lv->clock, 0, sizeof(lv->clock));
	lv->loading[0] = '\0';
	lv->net_after_fill = lv->net_wanted = false;
}

int live_reopen(struct live *lv)
{
	int rc;

	live_drop_source(lv);
	rc = live_first_look(lv);
	live_subnet_want(lv);
	return rc;
}

void live_close(struct live *lv)
{
	live_drop_source(lv);
	events_memory_free(&lv->ev_mem);
	event_log_free(&lv->events);
}

int live_fds(struct live *lv, struct pollfd *fds, int max, int *timeout_ms)
{
	uint64_t now = util_now_ns();
	int n = 0;

	lv->pfds = fds;
	lv->pfd_nl = lv->pfd_async = lv->pfd_mad = -1;
	lv->nmad = 0;
	if (lv->nl_fd >= 0 && n < max) {
		lv->pfd_nl = n;
		fds[n++] = (struct pollfd){ .fd = lv->nl_fd, .events = POLLIN };
	}
	if (lv->async_fd >= 0 && n < max) {
		lv->pfd_async = n;
		fds[n++] = (struct pollfd){ .fd = lv->async_fd, .events = POLLIN };
	}
	if (!lv->paused) {
		util_lower_timeout(timeout_ms, lv->flags & LIVE_NO_WAIT ? now : lv->next_sample_ns, now);
		if (lv->net_wanted)
			util_lower_timeout(timeout_ms, lv->last_net_ns + SNAPSHOT_NET_GAP_NS, now);
	}
	if (lv->mad && lv->far && n < max) {
		lv->pfd_mad = n;
		lv->nmad = mad_watch_fds(lv->mad, lv->paused, fds + n, max - n, timeout_ms, now);
		n += lv->nmad;
	}
	/* The subnet's answers are read in live_step() whether or not its fds fired (umad2sim has none). */
	if (lv->subnet && n < max)
		n += mad_subnet_fds(lv->subnet, live_subnet_frozen(lv), fds + n, max - n, timeout_ms, now);
	if (lv->path && !lv->paused && (lv->wants & LIVE_WANT_PATH) && n < max)
		n += mad_path_fds(lv->path, fds + n, max - n, timeout_ms, now);
	if (!lv->path && lv->path_peer[0] && (lv->wants & LIVE_WANT_PATH) && !lv->paused)
		util_lower_timeout(timeout_ms, lv->path_retry_ns, now);
	if (lv->trap && n < max)
		n += mad_trap_fds(lv->trap, fds + n, max - n, timeout_ms, now);
	/* Parts still to read: look at the other fds, then read on. */
	if (lv->loading[0])
		*timeout_ms = 0;
	return n;
}

unsigned int live_step(struct live *lv)
{
	struct pollfd *fds = lv->pfds;
	unsigned int ch = 0;
	uint64_t now = util_now_ns();

	if (!lv->src)
		return 0;
	/* A device's notification (a flap shorter than the interval) is logged as it comes. */
	if (fds && lv->pfd_async >= 0 && fds[lv->pfd_async].revents && source_async_events(lv->src, &lv->events))
		ch |= LIVE_EVENTS;
	ch |= live_mad_step(lv, now);
	ch |= live_trap_step(lv, now);
	if (lv->subnet) {
		unsigned int sn = mad_subnet_step(lv->subnet, live_subnet_frozen(lv),
						  lv->fabric_interval_s > 0 ? lv->fabric_interval_s : lv->interval_s, now);

		if (sn)
			ch |= LIVE_FABRIC;
		if ((sn & SUBNET_SAMPLED) && fabric_hist_add(&lv->fhist, mad_subnet_fabric(lv->subnet)))
			live_say(lv, "out of memory: the links' history stops");
		if (sn)
			live_subnet_record(lv, sn);
		if (live_recorded(lv))
			ch |= live_subnet_replay(lv);
	}
	ch |= live_path_step(lv, now);
	/* A network change shows within NET_GAP; the sysfs side (GIDs) at the next sample. */
	if (fds && lv->pfd_nl >= 0 && fds[lv->pfd_nl].revents && source_events(lv->src)) {
		lv->clock.rescan_wanted = true;
		lv->clock.roce_event = true;
		/* Paused means frozen: the change is read when sampling resumes. */
		lv->net_wanted = true;
	}
	lv->pfds = NULL;
	lv->pfd_nl = lv->pfd_async = lv->pfd_mad = -1;
	now = util_now_ns();
	if (lv->net_wanted && !lv->paused && !lv->net_after_fill && now - lv->last_net_ns >= SNAPSHOT_NET_GAP_NS) {
		live_net_read(lv);
		ch |= LIVE_NET;
	}
	if (!lv->paused && (now >= lv->next_sample_ns || (lv->flags & LIVE_NO_WAIT))) {
		ch |= live_sample(lv, now);
		lv->next_sample_ns += interval_ns(lv);
		if (lv->next_sample_ns <= now)	/* we were stopped (Ctrl-Z, SIGSTOP) or slow: no burst of catch-up */
			lv->next_sample_ns = now + interval_ns(lv);
	}
	return ch;
}

unsigned int live_next_sample(struct live *lv)
{
	unsigned int ch = 0;

	while (lv->src && !(ch & LIVE_SAMPLED)) {
		struct pollfd fds[16];
		int timeout = -1, n = live_fds(lv, fds, 16, &timeout);

		if (poll(fds, (nfds_t)n, timeout) < 0 && errno != EINTR)
			break;
		ch |= live_step(lv);
	}
	return ch;
}

unsigned int live_fill(struct live *lv)
{
	unsigned int ch = LIVE_FILLED;
	size_t nports;

	if (!lv->src || !lv->loading[0])
		return 0;
	snapshot_host_fill(lv->src, &lv->host, SNAPSHOT_FILL_NS);
	if (lv->net_after_fill && !snapshot_host_pending(&lv->host, COLLECT_GIDS, &nports)) {
		lv->net_after_fill = false;
		live_net_read(lv);
		ch |= LIVE_NET;
	}
	live_loading_update(lv);
	return ch;
}

void live_pause(struct live *lv, bool paused)
{
	lv->paused = paused;
}

void live_rescan(struct live *lv)
{
	lv->clock.rescan_wanted = true;
}

void live_set_interval(struct live *lv, double interval_s)
{
	lv->interval_s = interval_s;
	lv->next_sample_ns = util_now_ns() + interval_ns(lv);
}

void live_reset(struct live *lv)
{
	for (size_t i = 0; i < lv->host.ndevs; i++)
		for (size_t j = 0; j < lv->host.devs[i].nports; j++) {
			struct fab_port *p = &lv->host.devs[i].ports[j];

			for (size_t k = 0; k < p->ncounters; k++)
				counter_reset_delta(&p->counters[k]);
		}
	track_reset(&lv->track);
	track_sample(&lv->track, &lv->host, lv->last_sample_ns);
	/* track_sample counted this interval's movement again: it is history now. */
	track_reset(&lv->track);
	if (!mad_watch_has_view(lv->mad) || !lv->far)
		return;
	mad_watch_reset(lv->mad);
	/* Totals since start become 0; the history is kept (it is not a delta). */
	live_far_sample(lv, util_now_ns());
	for (size_t i = 0; i < lv->mad->f.nports; i++)
		lv->far[i].err_moved_ns = 0;
}

void live_jumped(struct live *lv)
{
	/* the events up to the new cursor, no more */
	event_log_free(&lv->events);
	event_log_init(&lv->events, 0);
	event_log_set_hook(&lv->events, source_record_event_hook, lv->src);
	source_recorded_events(lv->src, &lv->events, true);
	track_free(&lv->track);
	/* the links' history starts again at the new cursor */
	fabric_hist_free(&lv->fhist);
	lv->last_sample_ns = fab_host_model_now(&lv->host, util_now_ns());
	if (lv->flags & LIVE_HISTORY)
		track_sample(&lv->track, &lv->host, lv->last_sample_ns);
	live_net_read(lv);
	/* the MAD view recorded at the new cursor (other ports: the per-port state starts again) */
	live_mad_open(lv);
	lv->next_sample_ns = util_now_ns() + interval_ns(lv);
}

int live_seek(struct live *lv, enum source_seek how, int64_t arg)
{
	int rc = lv->src ? source_seek(lv->src, &lv->host, how, arg) : -ENODEV;

	if (!rc)
		live_jumped(lv);
	return rc;
}
