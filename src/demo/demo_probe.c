// SPDX-License-Identifier: GPL-2.0-or-later
/* The demo's simulated RDMA CM exchange: the simulated host's routes decide it, the simulated peers answer it. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/rdma_cma.h>

#include "demo/demo.h"
#include "demo/demo_int.h"
#include "demo/demo_probe.h"
#include "demo/demo_scenario.h"
#include "model/fabric.h"
#include "model/net.h"
#include "model/route.h"
#include "probe/cm_reason.h"
#include "probe/driven.h"
#include "util.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)

/*
 * The hosts on the simulated fabric a probe can reach. Each runs `fabtop
 * probe --listen` on the default port (every mode served). Any other
 * address of a connected subnet has no host behind it: nothing answers ARP.
 */
static const struct {
	const char *addr, *host, *ifname;
} sim_peers[] = {
	{ "172.16.16.1", "cpuserver16", "ibs5f0" },
	{ "172.16.16.2", "cpuserver16", "ibs5f1" },
	{ "10.20.0.2", "gpu07", "enp65s0f0" },
	{ "10.100.0.2", "gpu07", "enp65s0f0.100" },
	{ "10.30.0.2", "stor03", "enp3s0f4" },
};

void demo_probe_peers(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(sim_peers) && len < size; i++) {
		int n = snprintf(buf + len, size - len, "%s%s (%s)", i ? ", " : "", sim_peers[i].addr, sim_peers[i].host);

		if (n < 0)
			break;
		len += (size_t)n;
	}
}

/* Where the exchange ends badly. */
enum sim_end {
	END_NONE,		/* it connects and moves data */
	END_START,		/* at once (bad input, refused before any packet) */
	END_ADDR,		/* address resolution */
	END_CONNECT,		/* the connection request */
};

struct sim {
	struct demo *d;
	enum sim_end end;
	uint64_t t_addr, t_route, t_conn;	/* after the start, when each step answers */
	uint64_t t_fail;			/* ... and when the failure comes */
	char fail_name[PROBE_EVENT_NAME_MAX];
	int fail_status;
	char fail_text[PROBE_EVENT_TEXT_MAX];
	char device[64];
	unsigned int port;
	char local[PROBE_ADDR_MAX], remote[PROBE_ADDR_MAX];
	int sgid_index;
	char sgid_type[16];
	/* the data phase */
	uint64_t msg_ns;		/* one message (bw: one WRITE at the share of the link; else a round trip) */
	uint64_t msg_bytes;		/* the payload bytes it counts */
	uint64_t rtt_ns;		/* round trip of a ping, 0: not measured (bw) */
	uint64_t data_t0;		/* CLOCK_MONOTONIC when the data phase began */
	uint64_t done;			/* messages counted */
	uint64_t last_ns;		/* the latest step */
	unsigned long seed;
};

static uint64_t mix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

static void sim_fail_at(struct sim *s, enum sim_end end, uint64_t t, const char *name, int status,
			const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void sim_fail_at(struct sim *s, enum sim_end end, uint64_t t, const char *name, int status,
			const char *fmt, ...)
{
	va_list ap;

	s->end = end;
	s->t_fail = t;
	snprintf(s->fail_name, sizeof(s->fail_name), "%s", name);
	s->fail_status = status;
	va_start(ap, fmt);
	vsnprintf(s->fail_text, sizeof(s->fail_text), fmt, ap);
	va_end(ap);
}

/* The source GID rdma_cm takes on a RoCE port: the address's, of the port's default RoCE mode. */
static const struct fab_gid *roce_gid(const struct fab_port *p, const char *ip)
{
	enum fab_gid_type want = strstr(p->default_roce_mode, "v1") ? GID_TYPE_ROCE_V1 : GID_TYPE_ROCE_V2;

	for (size_t i = 0; i < p->ngids; i++)
		if (p->gids[i].has_ipv4 && p->gids[i].netdev_in_ns && p->gids[i].type == want &&
		    !strcmp(p->gids[i].ipv4, ip))
			return &p->gids[i];
	return NULL;
}

static bool peer_known(const char *ip)
{
	for (size_t i = 0; i < ARRAY_SIZE(sim_peers); i++)
		if (!strcmp(sim_peers[i].addr, ip))
			return true;
	return false;
}

/* --from: an address of the simulated host, or its interface's first IPv4 address; -1 with the text. */
static int sim_source(const struct net_state *st, const char *from, struct net_ip *src, char *err, size_t errlen)
{
	const struct net_link *l;

	if (!net_ip_parse(from, src))
		return 0;
	l = net_link_by_name(st, from);
	if (!l) {
		snprintf(err, errlen, "'%s' is neither an address nor an interface", from);
		return -1;
	}
	for (size_t i = 0; i < st->naddrs; i++)
		if (st->addrs[i].ifindex == l->ifindex && st->addrs[i].local.family == AF_INET) {
			*src = st->addrs[i].local;
			return 0;
		}
	snprintf(err, errlen, "interface %s has no IPv4 address", from);
	return -1;
}

/*
 * The share of the link a new connection gets and what one message costs.
 * Long: the rate (the port's, less the demo's own traffic on it), the
 * wire's overhead per MTU, one-way latency per link layer, each mode's cost.
 */
static void sim_data_plan(struct sim *s, const struct probe_opts *o, const char *dev, const struct fab_port *p,
			  unsigned int load_pm)
{
	/* bytes of headers per packet: IB LRH+BTH+RETH+ICRC+VCRC; RoCE v2 adds Ethernet, IP, UDP, FCS and the gap */
	unsigned int hdr = p->link_layer == LINK_LAYER_INFINIBAND ? 42 : 102;
	uint64_t mtu = p->active_mtu.known && p->active_mtu.value ? p->active_mtu.value : 1024;
	/* what the others leave, and a fair share at the least when the link is full */
	unsigned int free_pm = load_pm < 850 ? 1000 - load_pm : 150;
	double gbps = (double)p->rate_gbps * free_pm / 1000.0 * (double)mtu / (double)(mtu + hdr);
	/* HCA to HCA through one switch; iWARP goes through the RNIC's TCP engine */
	uint64_t one_way = p->link_layer == LINK_LAYER_INFINIBAND ? 1100 : strncmp(dev, "cxgb", 4) ? 1600 : 3200;
	uint64_t wire_ns = (uint64_t)((double)o->size * 8.0 / (gbps > 0.1 ? gbps : 0.1));

	switch (o->mode) {
	case PROBE_MODE_BW:
		s->msg_ns = wire_ns ? wire_ns : 1;
		s->msg_bytes = o->size;
		s->rtt_ns = 0;
		break;
	case PROBE_MODE_LAT:
		/* SEND and its echo, each woken by a completion event (a few us of the kernel each) */
		s->rtt_ns = 2 * (one_way + wire_ns) + 2 * 2500;
		s->msg_ns = s->rtt_ns;
		s->msg_bytes = 2 * (uint64_t)o->size;
		break;
	case PROBE_MODE_RPING:
	default:
		/* advertise, READ, go, advertise, WRITE, done: six crossings, four of them woken by events */
		s->rtt_ns = 6 * one_way + 2 * wire_ns + 4 * 2500;
		s->msg_ns = s->rtt_ns;
		s->msg_bytes = 2 * (uint64_t)o->size;
		break;
	}
}

/* The probe is a client with an IPv4 peer; false when it failed at the start (said in s). */
static bool sim_peer(struct sim *s, const struct probe_opts *o, struct net_ip *peer)
{
	if (o->listen) {
		sim_fail_at(s, END_START, 0, "ERROR", 0, "the demo fabric is simulated: no peer can connect to it; "
			    "probe a simulated peer instead (fabtop --demo probe 172.16.16.1)");
		return false;
	}
	if (!o->peer || !*o->peer) {
		sim_fail_at(s, END_START, 0, "ERROR", 0, "no peer address given");
		return false;
	}
	if (net_ip_parse(o->peer, peer) || peer->family != AF_INET) {
		sim_fail_at(s, END_START, 0, "ADDR_ERROR", 0, "cannot resolve '%s': the simulated host knows IPv4 "
			    "addresses only, and no names", o->peer);
		return false;
	}
	return true;
}

/* The device and port the route leaves by, and on RoCE the source's GID; false when there is none (said in s). */
static bool sim_device(struct sim *s, const char *dev, const struct fab_port *p, const char *src_s)
{
	char why[PROBE_EVENT_TEXT_MAX];
	const struct fab_gid *g;

	snprintf(s->device, sizeof(s->device), "%s", dev);
	s->port = p->num;
	/* iWARP (cxgb) has no IP-based GIDs to pick */
	if (p->link_layer != LINK_LAYER_ETHERNET || !strncmp(dev, "cxgb", 4))
		return true;
	g = roce_gid(p, src_s);
	if (!g) {
		cm_reason_explain(why, sizeof(why), RDMA_CM_EVENT_ADDR_ERROR, -ENODEV);
		sim_fail_at(s, END_ADDR, 300 * US, "ADDR_ERROR", -ENODEV, "%s (no %s GID of %s on %s port %u)",
			    why, p->default_roce_mode[0] ? p->default_roce_mode : "RoCE", src_s, dev, p->num);
		return false;
	}
	s->sgid_index = (int)g->index;
	snprintf(s->sgid_type, sizeof(s->sgid_type), "%s", fab_gid_type_str(g->type));
	return true;
}

/*
 * The whole exchange decided up front, in the order the real stack
 * meets each question: the source, the route, the device, the carrier,
 * the neighbour, the path, then who answers the connection request.
 */
static int sim_plan(struct sim *s, const struct probe_opts *o, const struct fab_host *h, const struct net_state *st)
{
	const struct route_ops *routes = &route_model_ops;
	struct net_ip peer, src = { 0 };
	struct route_answer ans;
	const struct net_addr *sa;
	const struct net_link *ol;
	const struct fab_port *p;
	const char *dev = "";
	const struct fab_device *pd;
	char peer_s[48], src_s[48], why[PROBE_EVENT_TEXT_MAX], err[PROBE_EVENT_TEXT_MAX];
	uint64_t h0 = mix64(s->seed ^ 0x70726f6265ull);
	int rc;

	s->sgid_index = -1;
	if (!sim_peer(s, o, &peer))
		return 0;
	net_ip_str(&peer, peer_s, sizeof(peer_s));
	snprintf(s->remote, sizeof(s->remote), "%s:%u", peer_s, o->port);
	if (o->from && sim_source(st, o->from, &src, err, sizeof(err))) {
		sim_fail_at(s, END_START, 0, "ADDR_ERROR", 0, "%s", err);
		return 0;
	}
	net_ip_str(&src, src_s, sizeof(src_s));
	sa = o->from ? net_addr_find(st, &src) : NULL;
	if (o->from && !sa) {
		/* rdma_resolve_addr() refuses a source the host does not hold, at once */
		cm_reason_explain(why, sizeof(why), RDMA_CM_EVENT_ADDR_ERROR, -EADDRNOTAVAIL);
		sim_fail_at(s, END_START, 0, "ADDR_ERROR", -EADDRNOTAVAIL, "%s (source %s)", why, src_s);
		return 0;
	}
	/* the route: the model's lookup, the one the doctor's evidence comes from */
	rc = routes->output(st, &peer, o->from ? &src : NULL, 0, &ans);
	if (rc) {
		cm_reason_explain(why, sizeof(why), RDMA_CM_EVENT_ADDR_ERROR, rc);
		sim_fail_at(s, END_START, 0, "ADDR_ERROR", rc, "%s%s%s%s", why, o->from ? " (source " : "",
			    o->from ? src_s : "", o->from ? ")" : "");
		return 0;
	}
	if (!o->from)
		net_ip_str(&ans.src, src_s, sizeof(src_s));
	snprintf(s->local, sizeof(s->local), "%s:%u", src_s, 32768 + (unsigned int)(h0 % 28000));
	ol = net_link_by_index(st, ans.oif);
	/* rdma_cm takes the device of the interface the route leaves by (its hardware address), not the source's */
	p = ol ? fab_host_port_of_netdev(h, ol->name, &pd) : NULL;
	if (p)
		dev = pd->name;
	if (!p) {
		cm_reason_explain(why, sizeof(why), RDMA_CM_EVENT_ADDR_ERROR, -ENODEV);
		if (ol)
			sim_fail_at(s, END_ADDR, 300 * US, "ADDR_ERROR", -ENODEV, "%s (the route to %s leaves by %s, "
				    "no RDMA netdev)", why, peer_s, ol->name);
		else
			sim_fail_at(s, END_ADDR, 300 * US, "ADDR_ERROR", -ENODEV, "%s (no interface for %s)", why, peer_s);
		return 0;
	}
	if (!sim_device(s, dev, p, src_s))
		return 0;
	/* a port that is not ACTIVE sends nothing: ARP is never answered, the probe's own deadline ends it */
	if (p->state != PORT_STATE_ACTIVE || (!peer_known(peer_s) && !net_addr_find(st, &peer))) {
		sim_fail_at(s, END_ADDR, (uint64_t)o->timeout_ms * MS, "TIMEOUT", -ETIMEDOUT,
			    "no ADDR_RESOLVED within %u ms: no neighbour answer for %s or no route to it",
			    o->timeout_ms, peer_s);
		return 0;
	}
	/* IB: ARP over IPoIB, then a path record from the SA; RoCE: ARP, the path is local */
	s->t_addr = (p->link_layer == LINK_LAYER_INFINIBAND ? 380 : 140) * US + h0 % 60 * US;
	s->t_route = s->t_addr + (p->link_layer == LINK_LAYER_INFINIBAND ? 620 : 25) * US + (h0 >> 8) % 40 * US;
	s->t_conn = s->t_route + 1150 * US + (h0 >> 16) % 200 * US;
	if (sa && sa->ifindex != ans.oif) {
		/*
		 * The request leaves by another interface than the one holding the
		 * source, and the answers to that source come back to the port that
		 * does not hold it: the stack answers as the field notes saw it.
		 */
		sim_fail_at(s, END_CONNECT, s->t_conn, "REJECTED", 8,
			    "reason 8 (invalid service ID): the peer's CM found no listener for port %u of %s", o->port, peer_s);
		return 0;
	}
	if (o->port != PROBE_DEFAULT_PORT || !peer_known(peer_s)) {
		/* a simulated peer listens on the default port; the simulated host itself on none */
		sim_fail_at(s, END_CONNECT, s->t_conn, "REJECTED", 8,
			    "reason 8 (invalid service ID): the peer's CM found no listener for port %u of %s", o->port, peer_s);
		return 0;
	}
	s->end = END_NONE;
	sim_data_plan(s, o, dev, p, demo_port_load(s->d, dev, p->num));
	/* lossy RoCE (v1 on a priority without PFC, or PFC off): drops, each a go-back-N retransmission */
	if (p->link_layer == LINK_LAYER_ETHERNET && s->sgid_index >= 0) {
		unsigned int goodput = demo_broken(s->d, DS_ROCE_V1) ? 330 : demo_broken(s->d, DS_PFC_OFF) ? 420 : 1000;

		if (o->mode == PROBE_MODE_BW)
			s->msg_ns = s->msg_ns * 1000 / goodput;
		else
			s->rtt_ns = s->msg_ns = s->rtt_ns * 1000 / goodput;
	}
	return 0;
}

/* A round trip of message i: the model's, with a little jitter and a rare tail (deterministic per seed). */
static uint64_t sim_rtt(const struct sim *s, uint64_t i)
{
	uint64_t h = mix64(s->seed * 31 + i);
	uint64_t v = s->rtt_ns * (950 + h % 100) / 1000;

	if ((h >> 16) % 100 == 0)
		v = v * (150 + (h >> 24) % 100) / 100;
	return v;
}

static const char *unit_of(const struct probe_opts *o)
{
	return o->mode == PROBE_MODE_RPING ? "pings" : o->mode == PROBE_MODE_LAT ? "round trips" :
	       o->bw_send ? "sends" : "writes";
}

/* The data phase up to now: whole messages since it began, at most the count. */
static void sim_data(struct probe *p, struct sim *s, uint64_t now)
{
	const struct probe_opts *o = probe_driven_opts(p);
	uint64_t target = now > s->data_t0 ? (now - s->data_t0) / s->msg_ns : 0, at, n;
	bool stop = probe_driven_stopping(p);

	if (o->count && target >= o->count)
		target = o->count;
	if (stop && target > s->done + 1)
		target = s->done + 1;	/* the message in flight ends, then the goodbye */
	n = target - s->done;
	at = s->data_t0 + target * s->msg_ns;
	if (at > now)
		at = now;
	if (n) {
		/* latency samples: the newest few thousand are what percentiles need */
		uint64_t first = n > 4096 ? target - 4096 : s->done;

		if (s->rtt_ns)
			for (uint64_t i = first; i < target; i++)
				probe_driven_lat(p, sim_rtt(s, i));
		probe_driven_data(p, at, n, n * s->msg_bytes);
		s->done = target;
	}
	if ((o->count && s->done >= o->count) || stop) {
		probe_driven_event(p, at + 90 * US, "DISCONNECTED", 0, "closed after %" PRIu64 " %s", s->done,
				   unit_of(o));
		probe_driven_done(p, at + 90 * US);
	}
}

/* Long: the states a real client passes, each answered at its planned time. */
static void sim_step(struct probe *p, void *priv, uint64_t now)
{
	struct sim *s = priv;
	const struct probe_opts *o = probe_driven_opts(p);
	uint64_t t0 = probe_driven_t0(p), el = now > t0 ? now - t0 : 0;
	enum probe_state state = probe_driven_state(p);

	s->last_ns = now;
	if (state == PROBE_IDLE) {
		if (s->end == END_START) {
			probe_driven_fail(p, t0, s->fail_name, s->fail_status, "%s", s->fail_text);
			return;
		}
		probe_driven_where(p, NULL, 0, NULL, s->remote, -1, NULL);
		probe_driven_set_state(p, now, state = PROBE_RESOLVING_ADDR);
	}
	if (probe_driven_stopping(p) && state != PROBE_RUNNING) {
		probe_driven_event(p, now, "STOPPED", 0, "stopped while %s", probe_state_name(state));
		probe_driven_done(p, now);
		return;
	}
	if (state == PROBE_RESOLVING_ADDR) {
		if (s->end == END_ADDR) {
			if (el >= s->t_fail)
				probe_driven_fail_event(p, t0 + s->t_fail, s->fail_name, s->fail_status, "%s", s->fail_text);
			return;
		}
		if (el < s->t_addr)
			return;
		probe_driven_where(p, s->device, s->port, s->local, NULL, -1, NULL);
		probe_driven_event(p, t0 + s->t_addr, "ADDR_RESOLVED", 0, "%s port %u, local %s", s->device, s->port,
				   s->local);
		probe_driven_set_state(p, now, state = PROBE_RESOLVING_ROUTE);
	}
	if (state == PROBE_RESOLVING_ROUTE) {
		if (el < s->t_route)
			return;
		probe_driven_event(p, t0 + s->t_route, "ROUTE_RESOLVED", 0, "path to %s known", s->remote);
		probe_driven_set_state(p, now, state = PROBE_CONNECTING);
	}
	if (state == PROBE_CONNECTING) {
		char gid[48] = "";

		if (s->end == END_CONNECT) {
			if (el >= s->t_fail)
				probe_driven_fail_event(p, t0 + s->t_fail, s->fail_name, s->fail_status, "%s", s->fail_text);
			return;
		}
		if (el < s->t_conn)
			return;
		if (s->sgid_index >= 0)
			snprintf(gid, sizeof(gid), ", GID index %d %s", s->sgid_index, s->sgid_type);
		probe_driven_where(p, NULL, 0, NULL, NULL, s->sgid_index, s->sgid_index >= 0 ? s->sgid_type : NULL);
		probe_driven_event(p, t0 + s->t_conn, "ESTABLISHED", 0,
				   "connected %s -> %s, %s mode%s, %u-byte messages%s", s->local, s->remote,
				   probe_mode_name(o->mode), o->mode != PROBE_MODE_BW ? "" :
				   o->bw_send ? " (SENDs)" : " (RDMA WRITEs)", o->size, gid);
		s->data_t0 = t0 + s->t_conn;
		probe_driven_set_state(p, s->data_t0, state = PROBE_RUNNING);
	}
	if (state == PROBE_RUNNING)
		sim_data(p, s, now);
}

static uint64_t sim_next_ns(const struct probe *p, const void *priv)
{
	const struct sim *s = priv;
	const struct probe_opts *o = probe_driven_opts(p);
	uint64_t t0 = probe_driven_t0(p), end;

	switch (probe_driven_state(p)) {
	case PROBE_IDLE:
	case PROBE_RESOLVING_ADDR:
		return t0 + (s->end == END_ADDR ? s->t_fail : s->t_addr);
	case PROBE_RESOLVING_ROUTE:
		return t0 + s->t_route;
	case PROBE_CONNECTING:
		return t0 + (s->end == END_CONNECT ? s->t_fail : s->t_conn);
	case PROBE_RUNNING:
		/* the numbers move on every 100 ms, and the last message ends the run on time */
		end = o->count ? s->data_t0 + o->count * s->msg_ns : 0;
		if (end && end < s->last_ns + 100 * MS)
			return end;
		return s->last_ns + 100 * MS;
	default:
		return 0;
	}
}

static void sim_free(void *priv)
{
	free(priv);
}

static const struct probe_driver sim_driver = {
	.step = sim_step,
	.next_ns = sim_next_ns,
	.free = sim_free,
};

struct probe *demo_probe_start(struct demo *d, const struct probe_opts *o)
{
	struct sim *s = calloc(1, sizeof(*s));
	struct fab_host h;
	struct net_state st;
	struct probe_opts eff = *o;

	if (!s)
		return NULL;
	s->d = d;
	s->seed = demo_seed(d);
	/* the defaults the probe will use, so the plan costs what the probe sends */
	if (!eff.size)
		eff.size = eff.mode == PROBE_MODE_BW ? 65536 : 64;
	if (!eff.timeout_ms)
		eff.timeout_ms = 3000;
	if (!eff.port)
		eff.port = PROBE_DEFAULT_PORT;
	if (demo_collect(d, &h)) {
		free(s);
		return NULL;
	}
	if (demo_net(d, &st)) {
		fab_host_free(&h);
		free(s);
		return NULL;
	}
	net_mark_rdma(&st, &h);
	sim_plan(s, &eff, &h, &st);
	net_state_free(&st);
	fab_host_free(&h);
	return probe_start_driven(o, &sim_driver, s);
}
