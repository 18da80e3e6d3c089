// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe's public API and its client: an explicit state machine on the rdma_cm event channel. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <net/if.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe/cm_reason.h"
#include "probe/probe_int.h"
#include "util.h"

_Static_assert((int)PROBE_MODE_RPING == WIRE_MODE_RPING, "modes match the wire");
_Static_assert((int)PROBE_MODE_BW == WIRE_MODE_BW, "modes match the wire");
_Static_assert((int)PROBE_MODE_LAT == WIRE_MODE_LAT, "modes match the wire");

#define MS 1000000ull
#define WC_BATCH 16

static const char *const state_names[] = {
	[PROBE_IDLE] = "idle",
	[PROBE_RESOLVING_ADDR] = "resolving address",
	[PROBE_RESOLVING_ROUTE] = "resolving route",
	[PROBE_CONNECTING] = "connecting",
	[PROBE_RUNNING] = "running",
	[PROBE_DISCONNECTING] = "disconnecting",
	[PROBE_LISTENING] = "listening",
	[PROBE_DONE] = "done",
	[PROBE_FAILED] = "failed",
};

static const char *const mode_names[] = {
	[PROBE_MODE_RPING] = "rping",
	[PROBE_MODE_BW] = "bw",
	[PROBE_MODE_LAT] = "lat",
};

/* Per-mode defaults: rping's own size; perftest-like sizes for the others. */
static const struct {
	uint32_t size, depth;
	uint64_t count;
} mode_defaults[] = {
	[PROBE_MODE_RPING] = { 64, 1, 10 },
	[PROBE_MODE_BW] = { 65536, 16, 1000 },
	[PROBE_MODE_LAT] = { 64, 1, 1000 },
};

/* The events rping's handler reports as "cma event NAME, error STATUS" before it gives up. */
static const char *const rping_reported[] = { "ADDR_ERROR", "ROUTE_ERROR", "CONNECT_ERROR", "UNREACHABLE", "REJECTED" };

static bool rping_reports(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(rping_reported); i++)
		if (!strcmp(name, rping_reported[i]))
			return true;
	return false;
}

bool probe_event_rping_line(const struct probe_event *e, char *buf, size_t len)
{
	if (!e->cm_event || !rping_reports(e->name))
		return false;
	snprintf(buf, len, "cma event RDMA_CM_EVENT_%s, error %d", e->name, e->status);
	return true;
}

const char *probe_state_name(enum probe_state s)
{
	if ((unsigned int)s >= ARRAY_SIZE(state_names))
		return "unknown";
	return state_names[s];
}

const char *probe_mode_name(enum probe_mode m)
{
	if ((unsigned int)m >= ARRAY_SIZE(mode_names))
		return "unknown";
	return mode_names[m];
}

uint64_t probe_mode_default_count(enum probe_mode m)
{
	return (unsigned int)m < ARRAY_SIZE(mode_defaults) ? mode_defaults[m].count : 0;
}

int probe_mode_parse(const char *s, enum probe_mode *out)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mode_names); i++) {
		if (!strcmp(s, mode_names[i])) {
			*out = (enum probe_mode)i;
			return 0;
		}
	}
	return -1;
}

void probe_opts_init(struct probe_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->port = PROBE_DEFAULT_PORT;
	o->mode = PROBE_MODE_RPING;
	o->timeout_ms = 3000;
	o->idle_ms = 10000;
	o->max_conns = 16;
	o->lat_samples = 100000;
}

void probe_addr_str(const struct sockaddr *sa, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";

	if (!sa || !len) {
		if (len)
			buf[0] = 0;
		return;
	}
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *s = (const struct sockaddr_in *)sa;

		inet_ntop(AF_INET, &s->sin_addr, a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, ntohs(s->sin_port));
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const struct sockaddr_in6 *)sa;

		inet_ntop(AF_INET6, &s->sin6_addr, a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, ntohs(s->sin6_port));
	} else {
		snprintf(buf, len, "(family %d)", sa->sa_family);
	}
}

/* Address without the port, for messages about the peer. */
void probe_addr_only(const struct sockaddr *sa, char *buf, size_t len)
{
	const void *a = sa->sa_family == AF_INET6 ?
		(const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr :
		(const void *)&((const struct sockaddr_in *)sa)->sin_addr;

	if (!inet_ntop(sa->sa_family, a, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}

struct probe_event *probe_event_add(struct probe *p, uint64_t now, const char *name,
				    int status, bool error, const char *fmt, ...)
{
	struct probe_event *e = &p->ev[p->ev_total % PROBE_MAX_EVENTS];
	va_list ap;

	memset(e, 0, sizeof(*e));
	e->t_ns = now > p->t0_ns ? now - p->t0_ns : 0;
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->status = status;
	e->error = error;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	p->ev_total++;
	return e;
}

static void client_release(struct probe *p)
{
	conn_teardown(&p->conn);
	if (p->id) {
		rdma_destroy_id(p->id);
		p->id = NULL;
	}
	if (p->ech) {
		rdma_destroy_event_channel(p->ech);
		p->ech = NULL;
	}
}

static void probe_release(struct probe *p)
{
	if (p->srv) {
		/* keep the server's final counters readable after release */
		server_status(p, &p->st);
		server_free(p);
	}
	client_release(p);
	if (p->drv && p->drv_priv) {
		p->drv->free(p->drv_priv);
		p->drv_priv = NULL;
	}
	p->deadline_ns = 0;
}

void probe_fail(struct probe *p, uint64_t now, const char *name, int status, const char *fmt, ...)
{
	struct probe_event *e = probe_event_add(p, now, name, status, true, "%s", "");
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	snprintf(p->st.error, sizeof(p->st.error), "%s: %s", name, e->text);
	p->state = PROBE_FAILED;
	p->step = STEP_NONE;
}

static void finish_ok(struct probe *p, uint64_t now)
{
	(void)now;
	p->state = PROBE_DONE;
	p->step = STEP_NONE;
}

/* --from: an address, or an interface whose first IPv4 address is used. */
static int parse_from(struct probe *p, const char *from, char *err, size_t errlen)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)&p->src;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&p->src;
	struct ifaddrs *ifa, *i;
	int found = 0, exists = 0;

	memset(&p->src, 0, sizeof(p->src));
	if (inet_pton(AF_INET, from, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, from, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		return 0;
	}
	if (getifaddrs(&ifa)) {
		snprintf(err, errlen, "cannot list interfaces: %s", strerror(errno));
		return -1;
	}
	for (i = ifa; i; i = i->ifa_next) {
		if (strcmp(i->ifa_name, from))
			continue;
		exists = 1;
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
			continue;
		memcpy(s4, i->ifa_addr, sizeof(*s4));
		found = 1;
		break;
	}
	freeifaddrs(ifa);
	if (found)
		return 0;
	if (exists)
		snprintf(err, errlen, "interface %s has no IPv4 address", from);
	else
		snprintf(err, errlen, "'%s' is neither an address nor an interface", from);
	return -1;
}

int probe_parse_addr(const char *peer, uint16_t port, struct sockaddr_storage *out,
		      char *err, size_t errlen)
{
	const char *scope = strchr(peer, '%');
	struct addrinfo hints, *res;
	int e;

	/*
	 * A link-local address's %IFACE that names no interface: getaddrinfo
	 * only says "Name or service not known", which sends one looking for
	 * a DNS problem.
	 */
	if (scope && scope[1] && strspn(scope + 1, "0123456789") != strlen(scope + 1) && !if_nametoindex(scope + 1)) {
		snprintf(err, errlen, "cannot resolve '%s': no interface '%s' on this host (the part after %% names "
			 "the interface a link-local address is reached by)", peer, scope + 1);
		return -1;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST;
	e = getaddrinfo(peer, NULL, &hints, &res);
	if (e) {
		/* a name: resolved once, here (may take a resolver round trip) */
		hints.ai_flags = 0;
		e = getaddrinfo(peer, NULL, &hints, &res);
	}
	if (e) {
		snprintf(err, errlen, "cannot resolve '%s': %s", peer, gai_strerror(e));
		return -1;
	}
	memset(out, 0, sizeof(*out));
	memcpy(out, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	if (out->ss_family == AF_INET)
		((struct sockaddr_in *)out)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)out)->sin6_port = htons(port);
	return 0;
}

int probe_channel_open(struct probe *p, char *err, size_t errlen)
{
	int fl;

	p->ech = rdma_create_event_channel();
	if (!p->ech) {
		snprintf(err, errlen, "rdma_create_event_channel: %s%s", strerror(errno),
			 errno == ENOENT || errno == ENODEV ?
			 " (no /dev/infiniband/rdma_cm: is rdma_ucm loaded?)" : "");
		return -1;
	}
	fl = fcntl(p->ech->fd, F_GETFL);
	if (fl < 0 || fcntl(p->ech->fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		snprintf(err, errlen, "event channel: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void probe_set_deadline(struct probe *p, uint64_t now, uint32_t ms, const char *what)
{
	p->deadline_ns = now + (uint64_t)ms * MS;
	p->waiting_for = what;
}

/*
 * The kernel is asked to resolve the address for at most ADDR_TRY_MS at a
 * time, and asked again on its timeout until the step's own deadline: when
 * the ARP answer comes before the kernel starts waiting for it, the kernel
 * misses the neighbour update and sleeps to the end of its timeout, where
 * it looks again and finds the answer. A short try bounds that loss.
 */
#define ADDR_TRY_MS 1000

static int resolve_addr(struct probe *p, uint32_t left_ms)
{
	return rdma_resolve_addr(p->id, p->have_src ? (struct sockaddr *)&p->src : NULL,
				 (struct sockaddr *)&p->dst, (int)(left_ms < ADDR_TRY_MS ? left_ms : ADDR_TRY_MS));
}

/* An address try ran out with time left in the step: try again, true if asked. */
static bool resolve_addr_again(struct probe *p, uint64_t now, const struct rdma_cm_event *ev)
{
	uint64_t left_ms = p->deadline_ns > now ? (p->deadline_ns - now) / MS : 0;

	if (p->state != PROBE_RESOLVING_ADDR || ev->status != -ETIMEDOUT || left_ms < 10)
		return false;
	return resolve_addr(p, (uint32_t)left_ms) == 0;
}

static void client_begin(struct probe *p, uint64_t now)
{
	char err[PROBE_EVENT_TEXT_MAX];

	if (!p->o.peer || !*p->o.peer) {
		probe_fail(p, now, "ERROR", 0, "no peer address given");
		return;
	}
	if (probe_parse_addr(p->o.peer, p->o.port, &p->dst, err, sizeof(err)) ||
	    (p->o.from && parse_from(p, p->o.from, err, sizeof(err)))) {
		probe_fail(p, now, "ADDR_ERROR", 0, "%s", err);
		return;
	}
	p->have_src = p->o.from != NULL;
	probe_addr_str((struct sockaddr *)&p->dst, p->st.remote, sizeof(p->st.remote));
	if (probe_channel_open(p, err, sizeof(err))) {
		probe_fail(p, now, "ERROR", 0, "%s", err);
		return;
	}
	if (rdma_create_id(p->ech, &p->id, p, RDMA_PS_TCP)) {
		probe_fail(p, now, "ERROR", -errno, "rdma_create_id: %s", strerror(errno));
		return;
	}
	if (resolve_addr(p, p->o.timeout_ms)) {
		/* refused at once (no route, source not local): decoded like the event would be */
		int e = errno;
		char src[PROBE_ADDR_MAX] = "", why[PROBE_EVENT_TEXT_MAX];

		if (p->have_src)
			probe_addr_only((struct sockaddr *)&p->src, src, sizeof(src));
		cm_reason_explain(why, sizeof(why), RDMA_CM_EVENT_ADDR_ERROR, -e);
		probe_fail(p, now, "ADDR_ERROR", -e, "%s%s%s%s", why,
			   p->have_src ? " (source " : "", src, p->have_src ? ")" : "");
		return;
	}
	p->state = PROBE_RESOLVING_ADDR;
	probe_set_deadline(p, now, p->o.timeout_ms, "ADDR_RESOLVED");
}

/*
 * A probe with o copied and its defaults filled in, and what a client would
 * send checked (PROBE_FAILED with the reason when it is wrong). NULL: no memory.
 */
static struct probe *probe_new(const struct probe_opts *o, uint64_t now)
{
	struct probe *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->o = *o;
	p->st.sgid_index = -1;
	/* own copies: the caller's strings may not outlive the probe */
	if (o->peer) {
		snprintf(p->peer_buf, sizeof(p->peer_buf), "%s", o->peer);
		p->o.peer = p->peer_buf;
	}
	if (o->from) {
		snprintf(p->from_buf, sizeof(p->from_buf), "%s", o->from);
		p->o.from = p->from_buf;
	}
	if (o->listen_addr) {
		snprintf(p->listen_buf, sizeof(p->listen_buf), "%s", o->listen_addr);
		p->o.listen_addr = p->listen_buf;
	}
	if ((unsigned int)p->o.mode >= ARRAY_SIZE(mode_defaults))
		p->o.mode = PROBE_MODE_RPING;
	if (!p->o.size)
		p->o.size = mode_defaults[p->o.mode].size;
	if (!p->o.depth)
		p->o.depth = mode_defaults[p->o.mode].depth;
	if (!p->o.timeout_ms)
		p->o.timeout_ms = 3000;
	if (!p->o.idle_ms)
		p->o.idle_ms = 10000;
	if (!p->o.max_conns)
		p->o.max_conns = 16;
	if (!p->o.port)
		p->o.port = PROBE_DEFAULT_PORT;
	p->t0_ns = now;
	p->state = PROBE_IDLE;
	if (stats_init(&p->stats, p->o.lat_samples ? p->o.lat_samples : 100000)) {
		free(p);
		return NULL;
	}
	if (p->o.listen)
		return p;

	/* validate what the client sends before touching the network */
	if (p->o.mode == PROBE_MODE_RPING &&
	    (p->o.size < WIRE_RPING_MIN_SIZE || p->o.size > WIRE_RPING_MAX_SIZE))
		probe_fail(p, now, "ERROR", 0, "rping size must be %d..%d bytes, not %u",
			   WIRE_RPING_MIN_SIZE, WIRE_RPING_MAX_SIZE, p->o.size);
	else if (p->o.mode == PROBE_MODE_BW && p->o.size > WIRE_MAX_BW_SIZE)
		probe_fail(p, now, "ERROR", 0, "bw size must be 1..%u bytes, not %u", WIRE_MAX_BW_SIZE, p->o.size);
	else if (p->o.mode == PROBE_MODE_BW && p->o.depth > WIRE_MAX_DEPTH)
		probe_fail(p, now, "ERROR", 0, "bw depth must be 1..%u, not %u", WIRE_MAX_DEPTH, p->o.depth);
	else if (p->o.mode == PROBE_MODE_BW && p->o.bw_send &&
		 (p->o.size < WIRE_MSG_HDR_LEN || p->o.size > WIRE_MAX_SEND_SIZE || p->o.depth > WIRE_MAX_SEND_DEPTH))
		probe_fail(p, now, "ERROR", 0, "bw with SENDs takes sizes %d..%u and depths 1..%u, not %u and %u",
			   WIRE_MSG_HDR_LEN, WIRE_MAX_SEND_SIZE, WIRE_MAX_SEND_DEPTH, p->o.size, p->o.depth);
	else if (p->o.mode == PROBE_MODE_LAT &&
		 (p->o.size < WIRE_MSG_HDR_LEN || p->o.size > WIRE_MAX_LAT_SIZE))
		probe_fail(p, now, "ERROR", 0, "lat size must be %d..%u bytes, not %u",
			   WIRE_MSG_HDR_LEN, WIRE_MAX_LAT_SIZE, p->o.size);
	return p;
}

struct probe *probe_start(const struct probe_opts *o)
{
	uint64_t now = util_now_ns();
	struct probe *p = probe_new(o, now);

	if (!p)
		return NULL;
	if (p->o.listen)
		server_start(p, now);
	else if (p->state != PROBE_FAILED)
		client_begin(p, now);
	if (p->state == PROBE_FAILED)
		probe_release(p);
	return p;
}

struct probe *probe_start_driven(const struct probe_opts *o, const struct probe_driver *drv, void *priv)
{
	uint64_t now = util_now_ns();
	struct probe *p = probe_new(o, now);

	if (!p) {
		drv->free(priv);
		return NULL;
	}
	p->drv = drv;
	p->drv_priv = priv;
	if (p->state != PROBE_FAILED)
		drv->step(p, priv, now);
	if (!probe_active(p))
		probe_release(p);
	return p;
}

/* ---- client data phase ---- */

static void rping_next(struct probe *p, uint64_t now)
{
	struct wire_rping_info info;
	uint8_t msg[WIRE_RPING_INFO_LEN];
	uint64_t t0;
	int e;

	wire_rping_payload_fill(p->conn.buf[0], p->o.size, p->iter);
	info.addr = (uintptr_t)p->conn.buf[0];
	info.rkey = p->conn.mr[0]->rkey;
	info.len = p->o.size;
	wire_rping_info_pack(&info, msg);
	t0 = util_now_ns();	/* the caller's now may be stale by a batch */
	e = conn_send(&p->conn, msg, sizeof(msg));
	if (e) {
		probe_fail(p, now, "ERROR", e, "post send: %s", strerror(-e));
		return;
	}
	p->msg_t0 = t0;
	p->step = STEP_RPING_WAIT_GO;
}

/* Ping number iter's payload after the header: it differs from one ping to the next. */
static void lat_fill(struct probe *p, uint64_t iter)
{
	uint8_t *b = p->conn.buf[0];
	uint32_t i;

	for (i = WIRE_MSG_HDR_LEN; i < p->o.size; i++)
		b[i] = (uint8_t)(iter + i);
}

static bool lat_payload_ok(const uint8_t *b, uint32_t len, uint64_t iter)
{
	uint32_t i;

	for (i = WIRE_MSG_HDR_LEN; i < len; i++)
		if (b[i] != (uint8_t)(iter + i))
			return false;
	return true;
}

/* Post ping p->iter, its payload already in place; then write the next one's while it travels. */
static void lat_next(struct probe *p, uint64_t now)
{
	struct wire_msg m = { .type = WIRE_MSG_PING, .len = p->o.size, .seq = p->iter };
	int e;

	wire_msg_pack(&m, p->conn.buf[0]);
	/*
	 * The first round trip's clock starts before its post, as
	 * ib_send_lat's does: the post itself may carry the message all the
	 * way (Soft-RoCE runs the send inline in the syscall). Later ones are
	 * timed by lat_echoed().
	 */
	if (!p->iter)
		p->msg_t0 = util_now_ns();
	e = conn_send(&p->conn, p->conn.buf[0], p->o.size);
	if (e) {
		probe_fail(p, now, "ERROR", e, "post send: %s", strerror(-e));
		return;
	}
	p->step = STEP_LAT_WAIT_PONG;
	lat_fill(p, p->iter + 1);	/* the post copied the message */
}

static bool more_to_do(const struct probe *p, uint64_t done)
{
	if (p->stop_requested)
		return false;
	return !p->o.count || done < p->o.count;
}

static void start_disconnect(struct probe *p, uint64_t now)
{
	p->step = STEP_NONE;
	p->state = PROBE_DISCONNECTING;
	probe_set_deadline(p, now, p->o.timeout_ms, "DISCONNECTED");
	if (rdma_disconnect(p->id)) {
		/* nothing to wait for */
		finish_ok(p, now);
	}
}

/* A ping came back intact: count it, then the next one or the goodbye. */
static void round_trip_done(struct probe *p, uint64_t now, void (*next)(struct probe *, uint64_t))
{
	stats_lat(&p->stats, now - p->msg_t0);
	stats_add(&p->stats, now, 1, 2ull * p->o.size);
	p->iter++;
	if (more_to_do(p, p->iter))
		next(p, now);
	else
		start_disconnect(p, now);
}

/*
 * Echo number p->iter came back (its header checked): post the next ping,
 * check the echo's payload, then read the clock. The readings are one round
 * trip apart, each after a post, as ib_send_lat times consecutive posts;
 * what comes after the post (the payload check, a clock reading that in a
 * VM can be a trap into the host, the statistics) overlaps the ping's
 * travel instead of delaying it. One reading per round trip, shared by the
 * statistics and the busy-poll (cq_ns).
 */
static void lat_echoed(struct probe *p, uint64_t now, const uint8_t *b, uint32_t len)
{
	uint64_t echo = p->iter, t;
	bool more;

	p->iter++;
	more = more_to_do(p, p->iter);
	if (more) {
		lat_next(p, now);
		if (p->state != PROBE_RUNNING)
			return;
	}
	if (!lat_payload_ok(b, len, echo)) {
		p->payload_errors++;
		probe_fail(p, now, "PAYLOAD", 0, "message %llu: echoed data differs", (unsigned long long)echo);
		return;
	}
	t = p->cq_ns = util_now_ns();
	stats_lat(&p->stats, t - p->msg_t0);
	stats_add(&p->stats, t, 1, 2ull * p->o.size);
	p->msg_t0 = t;
	if (!more)
		start_disconnect(p, t);
}

/*
 * Fill the queue up to depth with one chain of WRs, a quarter of them
 * signalled: fewer completions and one doorbell per chain, as perftest does.
 */
static void bw_fill(struct probe *p, uint64_t now)
{
	uint64_t n = p->o.depth - (p->posted - p->bw_done), i;
	unsigned int sig = p->o.depth >= 4 ? p->o.depth / 4 : 1;
	int e;

	if (!more_to_do(p, p->posted))
		return;
	if (p->o.count && p->o.count - p->posted < n)
		n = p->o.count - p->posted;
	if (!n)
		return;
	if (p->o.bw_send) {
		/* one buffer slot per message in flight: a posted SEND's bytes must not change */
		for (i = 0; i < n; i++) {
			struct wire_msg m = { .type = WIRE_MSG_DATA, .len = p->o.size, .seq = p->posted + i };

			wire_msg_pack(&m, p->conn.buf[0] + (size_t)((p->posted + i) % p->o.depth) * p->o.size);
		}
		e = conn_post_chain(&p->conn, IBV_WR_SEND, 0, p->posted, (unsigned int)n, p->o.depth, p->o.size,
				    p->o.size, 0, 0, sig);
	} else {
		e = conn_post_chain(&p->conn, IBV_WR_RDMA_WRITE, 0, p->posted, (unsigned int)n, 1, 0,
				    p->o.size, p->acc.addr, p->acc.rkey, sig);
	}
	if (e) {
		probe_fail(p, now, "ERROR", e, "post %s: %s", p->o.bw_send ? "SEND" : "RDMA WRITE", strerror(-e));
		return;
	}
	p->posted += n;
}

/* A signalled completion with index idx: it and every WR before it are done. */
static void bw_completed(struct probe *p, uint64_t now, unsigned int idx)
{
	uint64_t k = p->bw_done + ((idx - p->bw_done) & 0xffff);

	if (k >= p->posted)
		return;	/* not one of ours in flight: cannot happen on an RC queue */
	stats_add(&p->stats, now, k + 1 - p->bw_done, (k + 1 - p->bw_done) * p->o.size);
	p->bw_done = k + 1;
}

static void bw_send_fin(struct probe *p, uint64_t now)
{
	struct wire_msg m = { .type = WIRE_MSG_FIN, .len = WIRE_MSG_HDR_LEN, .seq = p->stats.msgs };
	uint8_t b[WIRE_MSG_HDR_LEN];
	int e;

	wire_msg_pack(&m, b);
	e = conn_send(&p->conn, b, sizeof(b));
	if (e) {
		probe_fail(p, now, "ERROR", e, "post send: %s", strerror(-e));
		return;
	}
	p->step = STEP_BW_WAIT_FIN_ACK;
}

static void data_begin(struct probe *p, uint64_t now)
{
	p->iter = 0;
	p->posted = 0;
	p->bw_done = 0;
	p->progress_ns = now;
	stats_start(&p->stats, now);
	probe_set_deadline(p, now, p->o.idle_ms, "a completion");
	switch (p->o.mode) {
	case PROBE_MODE_RPING:
		rping_next(p, now);
		break;
	case PROBE_MODE_BW:
		p->step = STEP_BW_STREAM;
		bw_fill(p, now);
		break;
	case PROBE_MODE_LAT:
		lat_fill(p, 0);
		lat_next(p, now);
		break;
	}
}

static void on_recv(struct probe *p, uint64_t now, const uint8_t *b, uint32_t len)
{
	struct wire_rping_info info;
	struct wire_msg m;
	enum wire_err we;
	int e;

	switch (p->step) {
	case STEP_RPING_WAIT_GO:
		we = wire_rping_info_parse(b, len, &info);
		if (we) {
			probe_fail(p, now, "PROTOCOL", 0, "bogus message from the server, %u bytes: %s",
				   len, wire_err_str(we));
			return;
		}
		/* clear the sink so that an echo that never lands cannot pass the compare */
		memset(p->conn.buf[1], 0, p->o.size);
		info.addr = (uintptr_t)p->conn.buf[1];
		info.rkey = p->conn.mr[1]->rkey;
		info.len = p->o.size;
		{
			uint8_t msg[WIRE_RPING_INFO_LEN];

			wire_rping_info_pack(&info, msg);
			e = conn_send(&p->conn, msg, sizeof(msg));
		}
		if (e) {
			probe_fail(p, now, "ERROR", e, "post send: %s", strerror(-e));
			return;
		}
		p->step = STEP_RPING_WAIT_ECHO;
		break;
	case STEP_RPING_WAIT_ECHO:
		we = wire_rping_info_parse(b, len, &info);
		if (we) {
			probe_fail(p, now, "PROTOCOL", 0, "bogus message from the server, %u bytes: %s",
				   len, wire_err_str(we));
			return;
		}
		if (memcmp(p->conn.buf[0], p->conn.buf[1], p->o.size)) {
			p->payload_errors++;
			probe_fail(p, now, "PAYLOAD", 0, "ping %llu: echoed data differs from what was sent",
				   (unsigned long long)p->iter);
			return;
		}
		round_trip_done(p, now, rping_next);
		break;
	case STEP_LAT_WAIT_PONG:
		we = wire_msg_parse(b, len, &m);
		if (we || m.type != WIRE_MSG_PONG || m.seq != p->iter || len != p->o.size) {
			probe_fail(p, now, "PROTOCOL", 0, "bad echo for message %llu (%u bytes): %s",
				   (unsigned long long)p->iter, len, we ? wire_err_str(we) : "wrong type/seq/size");
			return;
		}
		lat_echoed(p, now, b, len);
		break;
	case STEP_BW_WAIT_FIN_ACK:
		we = wire_msg_parse(b, len, &m);
		if (we || m.type != WIRE_MSG_FIN_ACK || m.seq != p->stats.msgs) {
			/* with SENDs the server counts what it received: a difference is data lost */
			probe_fail(p, now, "PROTOCOL", 0, "bad FIN acknowledgement (%u bytes): %s%llu, sent %llu",
				   len, we ? wire_err_str(we) : "server counted ", we ? 0ull : (unsigned long long)m.seq,
				   (unsigned long long)p->stats.msgs);
			return;
		}
		start_disconnect(p, now);
		break;
	default:
		probe_fail(p, now, "PROTOCOL", 0, "unexpected %u-byte message from the server", len);
		break;
	}
}

/*
 * WRITEs leave no completion at the server: a PROGRESS message now and then
 * tells it the stream is alive (and how far), so its idle timer does not drop
 * a long run. A busy send slot just means: next time.
 */
static void bw_progress(struct probe *p, uint64_t now)
{
	struct wire_msg m = { .type = WIRE_MSG_PROGRESS, .len = WIRE_MSG_HDR_LEN, .seq = p->stats.msgs };
	uint8_t b[WIRE_MSG_HDR_LEN];

	if (p->o.bw_send || now - p->progress_ns < 500 * MS)
		return;
	wire_msg_pack(&m, b);
	if (!conn_send(&p->conn, b, sizeof(b)))
		p->progress_ns = now;
}

/*
 * Completions are handled in batches, at most CQ_BUDGET of them per call, so
 * that a fast stream cannot keep probe_handle() from returning to the
 * caller's loop (the terminal, signals); cq_more makes the next poll() not wait.
 */
#define CQ_BUDGET (8 * WC_BATCH)
static void client_cq(struct probe *p, uint64_t now)
{
	struct ibv_wc wc[WC_BATCH];
	int n = 0, i, budget = CQ_BUDGET;
	bool timed;

	p->cq_more = false;
	while (p->conn.cq && (n = conn_poll(&p->conn, wc, WC_BATCH)) > 0) {
		timed = false;
		for (i = 0; i < n && p->state == PROBE_RUNNING; i++) {
			unsigned int kind = conn_wr_kind(wc[i].wr_id), idx = conn_wr_index(wc[i].wr_id);

			/*
			 * Completions time the data phase: one clock reading per
			 * batch, none for send completions alone, and lat's echo
			 * reads it itself after the next post (lat_echoed()). In a
			 * VM a reading can cost a microsecond.
			 */
			if (!timed && kind != CONN_WR_SEND && !(kind == CONN_WR_RECV && p->step == STEP_LAT_WAIT_PONG)) {
				now = p->cq_ns = util_now_ns();
				timed = true;
			}

			if (wc[i].status != IBV_WC_SUCCESS) {
				probe_fail(p, now, "COMPLETION", (int)wc[i].status, "%s failed: %s",
					   kind == CONN_WR_RECV ? "receive" : kind == CONN_WR_SEND ? "send" : "RDMA",
					   ibv_wc_status_str(wc[i].status));
				return;
			}
			probe_set_deadline(p, now, p->o.idle_ms, "a completion");
			if (kind == CONN_WR_RECV) {
				/* copy out: the slot is reposted before the message is acted on */
				uint8_t tmp[WIRE_MAX_LAT_SIZE];
				uint32_t len = wc[i].byte_len;

				if (len > sizeof(tmp) || len > p->conn.slot_size || idx >= p->conn.recv_slots) {
					probe_fail(p, now, "PROTOCOL", 0, "a %u-byte message from the server", len);
					return;
				}
				memcpy(tmp, conn_recv_slot(&p->conn, idx), len);
				if (conn_post_recv(&p->conn, idx)) {
					probe_fail(p, now, "ERROR", 0, "cannot repost a receive");
					return;
				}
				on_recv(p, now, tmp, len);
				if (p->cq_ns > now)
					now = p->cq_ns;
			} else if (kind == CONN_WR_RDMA && p->step == STEP_BW_STREAM) {
				bw_completed(p, now, idx);
				if (more_to_do(p, p->posted))
					bw_fill(p, now);
				else if (p->bw_done == p->posted)
					bw_send_fin(p, now);	/* every write completed */
				if (p->step == STEP_BW_STREAM)
					bw_progress(p, now);
			}
		}
		if (n < WC_BATCH || p->state != PROBE_RUNNING)
			break;
		budget -= n;
		if (budget <= 0) {
			p->cq_more = true;
			break;
		}
	}
	if (n < 0 && p->state == PROBE_RUNNING)
		probe_fail(p, now, "ERROR", 0, "ibv_poll_cq failed");
}

/* ---- client CM events ---- */

static void fail_on_event_why(struct probe *p, uint64_t now, struct rdma_cm_event *ev)
{
	char why[PROBE_EVENT_TEXT_MAX], peer[PROBE_ADDR_MAX];
	const char *name = cm_reason_event_name(ev->event);
	struct wire_reject rj;

	probe_addr_only((struct sockaddr *)&p->dst, peer, sizeof(peer));
	if (ev->event == RDMA_CM_EVENT_REJECTED && ev->status == 8) {
		probe_fail(p, now, name, ev->status,
			   "reason 8 (invalid service ID): the peer's CM found no listener for port %u of %s",
			   p->o.port, peer);
		return;
	}
	if (ev->event == RDMA_CM_EVENT_REJECTED && ev->param.conn.private_data &&
	    wire_reject_parse(ev->param.conn.private_data, ev->param.conn.private_data_len, &rj) == WIRE_OK) {
		cm_reason_explain(why, sizeof(why), ev->event, ev->status);
		probe_fail(p, now, name, ev->status, "%s; fabtop server at %s says: %s%s%s",
			   why, peer, wire_reject_code_str(rj.code), rj.text[0] ? ": " : "", rj.text);
		return;
	}
	cm_reason_explain(why, sizeof(why), ev->event, ev->status);
	if (ev->event == RDMA_CM_EVENT_REJECTED && ev->status == 28 && p->o.mode != PROBE_MODE_RPING)
		probe_fail(p, now, name, ev->status, "%s (is %s a stock rping server? bw and lat need 'fabtop probe --listen')",
			   why, peer);
	else
		probe_fail(p, now, name, ev->status, "%s", why);
}

/* The event that ends the connection, decoded; marked as an event, for the line rping prints. */
static void fail_on_event(struct probe *p, uint64_t now, struct rdma_cm_event *ev)
{
	fail_on_event_why(p, now, ev);
	p->ev[(p->ev_total - 1) % PROBE_MAX_EVENTS].cm_event = true;
}

static void on_addr_resolved(struct probe *p, uint64_t now)
{
	char local[PROBE_ADDR_MAX] = "";

	if (p->id->verbs)
		snprintf(p->st.device, sizeof(p->st.device), "%s", ibv_get_device_name(p->id->verbs->device));
	p->st.port_num = p->id->port_num;
	probe_addr_str(rdma_get_local_addr(p->id), local, sizeof(local));
	snprintf(p->st.local, sizeof(p->st.local), "%s", local);
	probe_event_add(p, now, "ADDR_RESOLVED", 0, false, "%s port %u, local %s",
			p->st.device[0] ? p->st.device : "?", p->st.port_num, local);
	if (rdma_resolve_route(p->id, (int)p->o.timeout_ms)) {
		probe_fail(p, now, "ROUTE_ERROR", -errno, "rdma_resolve_route: %s", strerror(errno));
		return;
	}
	p->state = PROBE_RESOLVING_ROUTE;
	probe_set_deadline(p, now, p->o.timeout_ms, "ROUTE_RESOLVED");
}

static void on_route_resolved(struct probe *p, uint64_t now)
{
	struct conn_params cp;
	struct rdma_conn_param prm;
	uint8_t hello[WIRE_HELLO_LEN];
	char err[PROBE_EVENT_TEXT_MAX];
	int e;

	probe_event_add(p, now, "ROUTE_RESOLVED", 0, false, "path to %s known", p->st.remote);
	memset(&cp, 0, sizeof(cp));
	cp.recv_slots = 2;
	switch (p->o.mode) {
	case PROBE_MODE_RPING:
		cp.rdma_depth = 1;
		cp.slot_size = 64;	/* larger than rping's 16 so oversized messages are seen */
		cp.buf_len[0] = cp.buf_len[1] = p->o.size;
		cp.buf_access[0] = IBV_ACCESS_REMOTE_READ;	/* server READs the source */
		cp.buf_access[1] = IBV_ACCESS_REMOTE_WRITE;	/* and WRITEs the sink */
		break;
	case PROBE_MODE_BW:
		cp.rdma_depth = p->o.depth;
		cp.slot_size = 64;
		cp.buf_len[0] = p->o.bw_send ? (size_t)p->o.size * p->o.depth : p->o.size;
		break;
	case PROBE_MODE_LAT:
		cp.rdma_depth = 0;
		cp.slot_size = p->o.size;
		cp.buf_len[0] = p->o.size;
		break;
	}
	e = conn_setup(&p->conn, p->id, &cp, err, sizeof(err));
	if (e) {
		probe_fail(p, now, "ERROR", e, "%s", err);
		return;
	}
	memset(&prm, 0, sizeof(prm));
	prm.responder_resources = 1;
	prm.initiator_depth = 1;
	prm.retry_count = 7;
	prm.rnr_retry_count = 7;
	if (p->o.mode != PROBE_MODE_RPING) {
		/* rping sends no private data; fabtop's server reads the mode from it */
		struct wire_hello h = {
			.version = WIRE_VERSION, .mode = (uint8_t)p->o.mode,
			.flags = p->o.mode == PROBE_MODE_BW && p->o.bw_send ? WIRE_HELLO_SEND : 0,
			.depth = (uint8_t)p->o.depth, .size = p->o.size, .count = p->o.count,
		};

		wire_hello_pack(&h, hello);
		prm.private_data = hello;
		prm.private_data_len = sizeof(hello);
	}
	if (rdma_connect(p->id, &prm)) {
		probe_fail(p, now, "CONNECT_ERROR", -errno, "rdma_connect: %s", strerror(errno));
		return;
	}
	p->state = PROBE_CONNECTING;
	probe_set_deadline(p, now, p->o.timeout_ms, "ESTABLISHED");
}

static void on_established(struct probe *p, uint64_t now, struct rdma_cm_event *ev)
{
	char gid[48] = "";
	enum wire_err we;

	if (p->o.mode == PROBE_MODE_BW) {
		we = ev->param.conn.private_data ?
			wire_accept_parse(ev->param.conn.private_data, ev->param.conn.private_data_len, &p->acc) :
			WIRE_NOT_OURS;
		if (we == WIRE_NOT_OURS) {
			probe_fail(p, now, "PROTOCOL", 0, "the peer accepted but is not a fabtop server "
				   "(bw and lat need 'fabtop probe --listen'; use --mode rping against rping -s)");
			return;
		}
		if (we || p->acc.mode != PROBE_MODE_BW || (!p->o.bw_send && p->acc.size < p->o.size)) {
			probe_fail(p, now, "PROTOCOL", 0, "bad accept data from the server: %s",
				   we ? wire_err_str(we) : "mode or size differs");
			return;
		}
	}
	p->st.sgid_index = conn_sgid_index(&p->conn, p->st.port_num, p->st.sgid_type, sizeof(p->st.sgid_type));
	if (p->st.sgid_index >= 0)
		snprintf(gid, sizeof(gid), ", GID index %d%s%s", p->st.sgid_index,
			 p->st.sgid_type[0] ? " " : "", p->st.sgid_type);
	probe_event_add(p, now, "ESTABLISHED", 0, false, "connected %s -> %s, %s mode%s, %u-byte messages%s",
			p->st.local, p->st.remote, probe_mode_name(p->o.mode),
			p->o.mode != PROBE_MODE_BW ? "" : p->o.bw_send ? " (SENDs)" : " (RDMA WRITEs)", p->o.size, gid);
	p->state = PROBE_RUNNING;
	data_begin(p, now);
}

static void client_cm_event(struct probe *p, uint64_t now, struct rdma_cm_event *ev)
{
	enum rdma_cm_event_type t = ev->event;

	switch (t) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		if (p->state == PROBE_RESOLVING_ADDR)
			on_addr_resolved(p, now);
		return;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		if (p->state == PROBE_RESOLVING_ROUTE)
			on_route_resolved(p, now);
		return;
	case RDMA_CM_EVENT_ESTABLISHED:
		if (p->state == PROBE_CONNECTING)
			on_established(p, now, ev);
		return;
	case RDMA_CM_EVENT_ADDR_ERROR:
		if (resolve_addr_again(p, now, ev))
			return;
		/* fall through */
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
		fail_on_event(p, now, ev);
		return;
	case RDMA_CM_EVENT_DISCONNECTED:
		if (p->state == PROBE_DISCONNECTING) {
			probe_event_add(p, now, "DISCONNECTED", 0, false, "closed after %llu %s",
					(unsigned long long)p->stats.msgs,
					p->o.mode == PROBE_MODE_RPING ? "pings" : p->o.mode == PROBE_MODE_LAT ? "round trips" :
					p->o.bw_send ? "sends" : "writes");
			finish_ok(p, now);
		} else {
			probe_fail(p, now, "DISCONNECTED", 0, "the peer closed the connection after %llu messages%s",
				   (unsigned long long)p->stats.msgs,
				   p->o.mode == PROBE_MODE_RPING && !p->stats.msgs ?
				   " (a stock rping -s must run with the same -S as this probe)" : "");
		}
		return;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		probe_fail(p, now, "DEVICE_REMOVAL", 0, "the RDMA device %s went away", p->st.device);
		return;
	default:
		probe_event_add(p, now, cm_reason_event_name(t), ev->status, false, "%s",
				cm_reason_event(t) ? cm_reason_event(t)->meaning : "");
		return;
	}
}

static void client_deadline(struct probe *p, uint64_t now)
{
	char peer[PROBE_ADDR_MAX];

	probe_addr_only((struct sockaddr *)&p->dst, peer, sizeof(peer));
	switch (p->state) {
	case PROBE_RESOLVING_ADDR:
		probe_fail(p, now, "TIMEOUT", -ETIMEDOUT, "no ADDR_RESOLVED within %u ms: no neighbour answer for %s "
			   "or no route to it", p->o.timeout_ms, peer);
		break;
	case PROBE_RESOLVING_ROUTE:
		probe_fail(p, now, "TIMEOUT", -ETIMEDOUT, "no ROUTE_RESOLVED within %u ms", p->o.timeout_ms);
		break;
	case PROBE_CONNECTING:
		probe_fail(p, now, "TIMEOUT", -ETIMEDOUT, "no answer to the connection request within %u ms: "
			   "nothing answers at %s, or packets are lost on the way (wrong interface, rp_filter)",
			   p->o.timeout_ms, peer);
		break;
	case PROBE_RUNNING:
		probe_fail(p, now, "TIMEOUT", -ETIMEDOUT, "no completion for %u ms after %llu messages: the peer stopped answering",
			   p->o.idle_ms, (unsigned long long)p->stats.msgs);
		break;
	case PROBE_DISCONNECTING:
		probe_event_add(p, now, "TIMEOUT", 0, false, "no DISCONNECTED within %u ms; closing anyway",
				p->o.timeout_ms);
		finish_ok(p, now);
		break;
	default:
		p->deadline_ns = 0;
		break;
	}
}

/* Busy-poll while completions keep coming within spin_us, for at most SPIN_MAX_NS. */
#define SPIN_MAX_NS (50 * MS)
static void client_spin(struct probe *p)
{
	uint64_t t = util_now_ns(), end = t + SPIN_MAX_NS, until = t + p->o.spin_us * 1000ull;
	uint64_t before;
	unsigned int idle = 0;

	p->conn.spinning = true;
	while (p->state == PROBE_RUNNING && t < until && t < end) {
		before = p->stats.msgs;
		client_cq(p, t);
		if (p->stats.msgs != before) {
			t = p->cq_ns;
			until = t + p->o.spin_us * 1000ull;
			idle = 0;
		} else if (++idle == SPIN_IDLE_POLLS) {
			idle = 0;
			sched_yield();
			t = util_now_ns();
		}
	}
	p->conn.spinning = false;
}

static void client_handle(struct probe *p, uint64_t now)
{
	struct rdma_cm_event *ev;

	/* CM events first: they move the state; then completions */
	while (p->ech && probe_active(p) && rdma_get_cm_event(p->ech, &ev) == 0) {
		/* private data and status are read inside; acked before anything is destroyed */
		client_cm_event(p, now, ev);
		rdma_ack_cm_event(ev);
	}
	if (p->state == PROBE_RUNNING)
		client_cq(p, now);
	if (p->state == PROBE_RUNNING && p->o.spin_us)
		client_spin(p);
	if (probe_active(p) && p->deadline_ns && now >= p->deadline_ns)
		client_deadline(p, now);
	if (p->state == PROBE_RUNNING)
		stats_tick(&p->stats, now);
}

/* ---- public API ---- */

bool probe_active(const struct probe *p)
{
	return p && p->state != PROBE_DONE && p->state != PROBE_FAILED;
}

int probe_fds(struct probe *p, struct pollfd *fds, int max)
{
	int n = 0;

	if (!probe_active(p))
		return 0;
	if (p->srv)
		return server_fds(p, fds, max);
	if (p->ech && n < max) {
		fds[n].fd = p->ech->fd;
		fds[n].events = POLLIN;
		fds[n].revents = 0;
		n++;
	}
	if (p->conn.ch && n < max) {
		fds[n].fd = conn_fd(&p->conn);
		fds[n].events = POLLIN;
		fds[n].revents = 0;
		n++;
	}
	return n;
}

int probe_timeout_ms(const struct probe *p, uint64_t now_ns)
{
	uint64_t d, w;

	if (!probe_active(p))
		return -1;
	if (p->cq_more)
		return 0;	/* completions are waiting: no sleeping */
	if (p->drv)
		d = p->drv->next_ns(p, p->drv_priv);
	else
		d = p->srv ? server_deadline(p) : p->deadline_ns;
	/* wake at least once a second while data moves, for the rate window */
	if (p->state == PROBE_RUNNING || p->state == PROBE_LISTENING) {
		w = now_ns + 1000 * MS;
		if (!d || w < d)
			d = w;
	}
	if (!d)
		return -1;
	if (d <= now_ns)
		return 0;
	return (int)((d - now_ns + MS - 1) / MS);
}

int probe_handle(struct probe *p, uint64_t now_ns)
{
	if (!probe_active(p))
		return 0;
	p->cq_more = false;	/* set again below when a completion budget runs out */
	if (p->drv) {
		p->drv->step(p, p->drv_priv, now_ns);
		if (p->state == PROBE_RUNNING)
			stats_tick(&p->stats, now_ns);
	} else if (p->srv) {
		server_handle(p, now_ns);
	} else {
		client_handle(p, now_ns);
	}
	if (!probe_active(p))
		probe_release(p);
	return probe_active(p);
}

void probe_stop(struct probe *p)
{
	uint64_t now = util_now_ns();

	if (!probe_active(p))
		return;
	p->stop_requested = true;
	if (p->drv && p->state == PROBE_RUNNING) {
		p->drv->step(p, p->drv_priv, now);	/* it ends the data phase */
	} else if (p->srv) {
		server_stop(p, now);
	} else if (p->state == PROBE_RUNNING) {
		/* bw: stop posting; finish once the writes in flight are done */
		if (p->step == STEP_BW_STREAM && p->bw_done == p->posted)
			bw_send_fin(p, now);
	} else if (p->state != PROBE_DISCONNECTING) {
		probe_event_add(p, now, "STOPPED", 0, false, "stopped while %s", probe_state_name(p->state));
		finish_ok(p, now);
	}
	if (!probe_active(p))
		probe_release(p);
}

void probe_free(struct probe *p)
{
	if (!p)
		return;
	probe_release(p);
	stats_free(&p->stats);
	free(p);
}

const struct probe_status *probe_status(const struct probe *cp)
{
	/* the status is a cache inside the probe: refreshing it does not change the probe's state */
	struct probe *p = (struct probe *)cp;
	struct probe_status *st = &p->st;
	uint64_t n = p->ev_total < PROBE_MAX_EVENTS ? p->ev_total : PROBE_MAX_EVENTS;
	uint64_t first = p->ev_total - n, i;

	for (i = 0; i < n; i++)
		p->ev_lin[i] = p->ev[(first + i) % PROBE_MAX_EVENTS];
	st->events = p->ev_lin;
	st->n_events = (unsigned int)n;
	st->events_total = p->ev_total;
	st->state = p->state;
	st->simulated = p->drv != NULL;
	st->mode = p->o.mode;
	st->listen = p->o.listen;
	st->size = p->o.size;
	st->depth = p->o.depth;
	st->bw_send = p->o.bw_send;
	st->msgs = p->stats.msgs;
	st->bytes = p->stats.bytes;
	st->payload_errors = p->payload_errors;
	st->data_ns = p->stats.start_ns ? p->stats.last_ns - p->stats.start_ns : 0;
	st->gbps = p->stats.gbps;
	st->msgs_per_s = p->stats.msgs_per_s;
	st->avg_gbps = stats_avg_gbps(&p->stats);
	/* percentiles sort the samples: at most 5 times a second while running, then once at the end */
	if (st->lat.n != p->stats.lat_n) {
		uint64_t now = util_now_ns();

		if (!probe_active(p) || now - p->pct_ns >= 200 * MS) {
			stats_latency(&p->stats, &st->lat);
			p->pct_ns = now;
		}
	}
	if (p->srv)
		server_status(p, st);
	return st;
}

/* ---- the driven probe's side (probe/driven.h) ---- */

const struct probe_opts *probe_driven_opts(const struct probe *p)
{
	return &p->o;
}

uint64_t probe_driven_t0(const struct probe *p)
{
	return p->t0_ns;
}

enum probe_state probe_driven_state(const struct probe *p)
{
	return p->state;
}

bool probe_driven_stopping(const struct probe *p)
{
	return p->stop_requested;
}

void probe_driven_event(struct probe *p, uint64_t now, const char *name, int status, const char *fmt, ...)
{
	struct probe_event *e = probe_event_add(p, now, name, status, false, "%s", "");
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
}

static void driven_fail(struct probe *p, uint64_t now, const char *name, int status, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
static void driven_fail(struct probe *p, uint64_t now, const char *name, int status, const char *fmt, va_list ap)
{
	char text[PROBE_EVENT_TEXT_MAX];

	vsnprintf(text, sizeof(text), fmt, ap);
	probe_fail(p, now, name, status, "%s", text);
}

void probe_driven_fail(struct probe *p, uint64_t now, const char *name, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	driven_fail(p, now, name, status, fmt, ap);
	va_end(ap);
}

void probe_driven_fail_event(struct probe *p, uint64_t now, const char *name, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	driven_fail(p, now, name, status, fmt, ap);
	va_end(ap);
	p->ev[(p->ev_total - 1) % PROBE_MAX_EVENTS].cm_event = true;
}

void probe_driven_where(struct probe *p, const char *device, unsigned int port, const char *local,
			const char *remote, int sgid_index, const char *sgid_type)
{
	if (device)
		snprintf(p->st.device, sizeof(p->st.device), "%s", device);
	if (port)
		p->st.port_num = (uint8_t)port;
	if (local)
		snprintf(p->st.local, sizeof(p->st.local), "%s", local);
	if (remote)
		snprintf(p->st.remote, sizeof(p->st.remote), "%s", remote);
	if (sgid_index >= 0)
		p->st.sgid_index = sgid_index;
	if (sgid_type)
		snprintf(p->st.sgid_type, sizeof(p->st.sgid_type), "%s", sgid_type);
}

void probe_driven_set_state(struct probe *p, uint64_t now, enum probe_state s)
{
	if (s == PROBE_RUNNING && p->state != PROBE_RUNNING)
		stats_start(&p->stats, now);
	p->state = s;
}

void probe_driven_data(struct probe *p, uint64_t now, uint64_t msgs, uint64_t bytes)
{
	if (!p->stats.start_ns)
		stats_start(&p->stats, now);
	stats_add(&p->stats, now, msgs, bytes);
}

void probe_driven_lat(struct probe *p, uint64_t ns)
{
	stats_lat(&p->stats, ns);
}

void probe_driven_done(struct probe *p, uint64_t now)
{
	finish_ok(p, now);
}
