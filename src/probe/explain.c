// SPDX-License-Identifier: GPL-2.0-or-later
/* A failed probe explained by its own cause: what the attempt did, the path it took, the findings on that path. */
#include "config.h"

#include <errno.h>
#include <linux/rtnetlink.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "derive/doctor.h"
#include "model/fabric.h"
#include "model/net.h"
#include "model/route.h"
#include "probe/explain.h"
#include "source/snapshot.h"
#include "util.h"

/* What one attempt did and where it went, gathered before anything is said. */
struct attempt {
	const struct probe_event *fail;		/* the event that ended it */
	char peer[PROBE_ADDR_MAX];
	struct net_ip peer_ip, src_ip;
	char src[PROBE_ADDR_MAX];		/* the address the CM bound (else the one --from stands for) */
	bool src_bound;				/* the CM bound it (ADDR_RESOLVED came) */
	const struct net_link *src_link;	/* the interface that holds src */
	struct doctor_route route;		/* the kernel's answer for (src, peer), asked by source */
	bool have_route;
	const struct fab_device *dev;		/* the RDMA port the attempt used, or the route leads to */
	const struct fab_port *port;
	const struct net_neigh *neigh;		/* the peer's (or next hop's) entry on the way out */
};

static void add(struct explain *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct explain *out, const char *fmt, ...)
{
	va_list ap;

	if (out->n >= EXPLAIN_MAX_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(out->line[out->n++], PROBE_EVENT_TEXT_MAX, fmt, ap);
	va_end(ap);
}

const char *explain_cause_str(enum explain_cause c)
{
	static const char *const names[] = {
		[EXPLAIN_NONE] = "",
		[EXPLAIN_NO_LISTENER] = "no-listener",
		[EXPLAIN_WRONG_INTERFACE] = "wrong-interface",
		[EXPLAIN_PORT_DOWN] = "port-not-active",
		[EXPLAIN_NO_ROUTE] = "no-route",
		[EXPLAIN_NOT_RDMA] = "not-rdma-netdev",
		[EXPLAIN_REFUSED] = "refused-by-peer",
		[EXPLAIN_UNKNOWN_PAST_HOST] = "unknown-past-host",
	};

	return (size_t)c < ARRAY_SIZE(names) && names[c] ? names[c] : "";
}

/* "10.0.0.1:4242" or "[fe80::1]:4242" -> the address alone. */
static void strip_port(const char *in, char *out, size_t len)
{
	const char *colon;
	size_t n;

	if (in[0] == '[') {
		colon = strchr(in, ']');
		n = colon ? (size_t)(colon - in - 1) : strlen(in);
		in++;
	} else {
		colon = strrchr(in, ':');
		/* a bare IPv6 address has colons of its own and no port */
		n = colon && strchr(in, ':') == colon ? (size_t)(colon - in) : strlen(in);
	}
	if (n >= len)
		n = len - 1;
	memcpy(out, in, n);
	out[n] = 0;
}

/* The failures the path explains (not local ones such as a missing rdma_cm device). */
static const struct probe_event *network_failure(const struct probe_status *st)
{
	static const char *const names[] = {
		"REJECTED", "UNREACHABLE", "ADDR_ERROR", "ROUTE_ERROR", "CONNECT_ERROR", "TIMEOUT",
	};

	for (unsigned int i = st->n_events; i-- > 0;) {
		if (!st->events[i].error)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(names); k++)
			if (!strcmp(st->events[i].name, names[k]))
				return &st->events[i];
		return NULL;
	}
	return NULL;
}

static bool event_seen(const struct probe_status *st, const char *name)
{
	for (unsigned int i = 0; i < st->n_events; i++)
		if (!strcmp(st->events[i].name, name))
			return true;
	return false;
}

/* --from as the probe binds it: an address, or an interface's first IPv4 address. */
static bool from_address(const struct net_state *net, const char *from, struct net_ip *ip)
{
	const struct net_link *l;

	if (!from || !from[0])
		return false;
	if (!net_ip_parse(from, ip))
		return true;
	l = net_link_by_name(net, from);
	for (size_t i = 0; l && i < net->naddrs; i++)
		if (net->addrs[i].ifindex == l->ifindex && net->addrs[i].local.family == AF_INET) {
			*ip = net->addrs[i].local;
			return true;
		}
	return false;
}

/* Long: each fact of the attempt is looked up once; what cannot be known stays NULL or false. */
static bool attempt_gather(const struct explain_input *in, const struct probe_opts *o, const struct probe_status *st,
			   struct attempt *a)
{
	memset(a, 0, sizeof(*a));
	a->fail = network_failure(st);
	if (!a->fail)
		return false;
	if (st->remote[0])
		strip_port(st->remote, a->peer, sizeof(a->peer));
	else
		snprintf(a->peer, sizeof(a->peer), "%s", o->peer);
	if (net_ip_parse(a->peer, &a->peer_ip))
		a->peer_ip.family = 0;
	/* the source the CM actually bound, else the one --from stands for */
	if (st->local[0]) {
		strip_port(st->local, a->src, sizeof(a->src));
		a->src_bound = !net_ip_parse(a->src, &a->src_ip);
	}
	if (!a->src_bound && from_address(in->net, o->from, &a->src_ip))
		net_ip_str(&a->src_ip, a->src, sizeof(a->src));
	if (a->src_ip.family) {
		const struct net_addr *ad = net_addr_find(in->net, &a->src_ip);

		a->src_link = ad ? net_link_by_index(in->net, ad->ifindex) : NULL;
	}
	if (a->peer_ip.family) {
		if (a->src_ip.family == a->peer_ip.family) {
			doctor_route_ask(in->net, in->routes, &a->peer_ip, &a->src_ip, &a->route);
			a->have_route = true;
		} else if (!a->src_ip.family) {
			/* no source: the kernel's choice, as the CM makes it */
			memset(&a->route, 0, sizeof(a->route));
			a->route.rc = in->routes->output(in->net, &a->peer_ip, NULL, 0, &a->route.ans);
			a->route.own_iface = true;
			a->have_route = true;
			if (!a->route.rc)
				net_ip_str(&a->route.ans.src, a->src, sizeof(a->src));
		}
	}
	/* the port the CM used, else the one the route leads to */
	if (st->device[0] && st->port_num)
		a->port = fab_host_port_of(in->host, st->device, st->port_num, &a->dev);
	if (!a->port && a->have_route && !a->route.rc)
		a->port = fab_host_port_of_netdev(in->host, a->route.ans.oif_name, &a->dev);
	if (a->have_route && !a->route.rc) {
		const struct net_ip *hop = a->route.ans.gateway.family ? &a->route.ans.gateway : &a->peer_ip;

		for (size_t i = 0; i < in->net->nneighs; i++)
			if (in->net->neighs[i].ifindex == a->route.ans.oif && net_ip_eq(&in->net->neighs[i].dst, hop))
				a->neigh = &in->net->neighs[i];
	}
	return true;
}

static bool path_wrong(const struct attempt *a)
{
	return a->have_route && doctor_route_verdict(&a->route) == DOCTOR_ROUTE_WRONG_IFACE;
}

/*
 * Does finding f bear on this attempt's path? The source address and its
 * interface's routing, ARP and reverse-path findings only when the path is
 * wrong (they are that failure's story); the port and GID findings of the
 * port it used always, and every GID finding when the way out has no RDMA
 * port (the device whose netdev is in another namespace). Nothing else: a finding about another NIC, the RoCE
 * chain's losses or the CM's counters explains no connect failure.
 */
static bool finding_bears(const struct doctor_finding *f, const struct attempt *a, enum explain_cause cause)
{
	bool on_src = (a->src[0] && !strcmp(f->addr, a->src)) ||
		      (a->src_link && !strcmp(f->ifname, a->src_link->name));
	bool on_port = a->dev && a->port && !strcmp(f->device, a->dev->name) && (!f->port || f->port == a->port->num);

	if (f->severity == DOCTOR_INFO)
		return false;
	switch (f->id) {
	case DOCTOR_SAME_SUBNET_ROUTE:
	case DOCTOR_RP_FILTER:
	case DOCTOR_ARP_FLUX:
		return on_src && path_wrong(a);
	case DOCTOR_PORT_STATE:
		return on_port || on_src;
	case DOCTOR_ROCE_GID:
		/* no RDMA netdev on the way out: a device whose netdev is elsewhere (a container) is that story */
		return on_port || on_src || cause == EXPLAIN_NOT_RDMA;
	case DOCTOR_IPOIB:
		return on_src && a->route.ans.type == RTN_LOCAL;
	default:
		return false;
	}
}

static void line_route(struct explain *out, const struct attempt *a)
{
	char s[DOCTOR_ADDR_LEN], tb[24];
	const struct doctor_route *r = &a->route;
	const char *tbl;

	if (!a->have_route)
		return;
	if (r->rc) {
		add(out, "route: none from %s to %s (%s)", a->src[0] ? a->src : "any source", a->peer, strerror(-r->rc));
		return;
	}
	tbl = net_table_str(r->ans.table, tb, sizeof(tb));
	if (!a->src_ip.family)
		add(out, "route: to %s leaves by %s from %s (table %s), the kernel's choice", a->peer, r->ans.oif_name,
		    net_ip_str(&r->ans.src, s, sizeof(s)), tbl);
	else
		add(out, "route: from %s to %s leaves by %s%s%s (table %s) -> %s", a->src, a->peer, r->ans.oif_name,
		    r->own_iface ? ", its own interface" : ", not by ",
		    r->own_iface ? "" : (r->src_ifname[0] ? r->src_ifname : "the interface that holds it"), tbl,
		    doctor_route_verdict_str(doctor_route_verdict(r)));
}

/* The device, port and GID of the attempt, and the neighbour on the way out. */
static void line_port(struct explain *out, const struct attempt *a, const struct probe_status *st)
{
	char gid[48] = "";

	if (!a->port)
		return;
	if (st->sgid_index >= 0)
		snprintf(gid, sizeof(gid), ", GID index %d%s%s", st->sgid_index, st->sgid_type[0] ? " " : "",
			 st->sgid_type);
	add(out, "port: %s port %u %s, link %s%s%s", a->dev->name, a->port->num,
	    fab_port_state_str(a->port->state), fab_phys_state_str(a->port->phys_state), gid,
	    a->src_bound ? ", as the CM bound it" : "");
}

static void line_neigh(struct explain *out, const struct attempt *a)
{
	char s[DOCTOR_ADDR_LEN];

	if (!a->have_route || a->route.rc || a->route.ans.type == RTN_LOCAL)
		return;
	if (a->neigh)
		add(out, "neighbour: %s on %s %s", net_ip_str(&a->neigh->dst, s, sizeof(s)), a->route.ans.oif_name,
		    net_nud_str(a->neigh->state));
	else
		add(out, "neighbour: no entry for %s on %s (never asked, or no answer)",
		    a->route.ans.gateway.family ? net_ip_str(&a->route.ans.gateway, s, sizeof(s)) : a->peer,
		    a->route.ans.oif_name);
}

/* Long: one cause per kind of failure, each from the facts gathered; the words name it and what follows. */
static enum explain_cause cause_line(struct explain *out, const struct attempt *a, const struct probe_opts *o,
				     const struct probe_status *st)
{
	const struct probe_event *e = a->fail;
	const char *src_if = a->route.src_ifname[0] ? a->route.src_ifname : "the interface that holds it";
	bool rejected = !strcmp(e->name, "REJECTED");

	if (!a->peer_ip.family) {
		/* a name, or an address with a scope (fe80::1%if): only the CM's own answer says why */
		add(out, "cause: the CM could not resolve %s: %s", a->peer, e->text[0] ? e->text : e->name);
		return EXPLAIN_NO_ROUTE;
	}
	if (a->have_route && a->route.rc) {
		add(out, "cause: no route from %s to %s: the CM cannot resolve the peer", a->src[0] ? a->src : "this host",
		    a->peer);
		return EXPLAIN_NO_ROUTE;
	}
	if (a->have_route && !a->port && a->route.ans.type != RTN_LOCAL && !st->device[0]) {
		add(out, "cause: the route to %s leaves by %s, which has no RDMA port here (not an IPoIB/RoCE netdev, or "
		    "its device is not visible in this namespace)", a->peer, a->route.ans.oif_name);
		return EXPLAIN_NOT_RDMA;
	}
	if (a->port && a->port->state != PORT_STATE_ACTIVE) {
		add(out, "cause: %s port %u is %s (link %s): it carries no traffic, so the CM never hears the peer",
		    a->dev->name, a->port->num, fab_port_state_str(a->port->state), fab_phys_state_str(a->port->phys_state));
		return EXPLAIN_PORT_DOWN;
	}
	if (path_wrong(a)) {
		add(out, "cause: the request for %s left by %s, not by %s which holds it: the peer answers %s by the other "
		    "port, and its kernel refuses what arrives the wrong way (the two-NIC host; see the findings below)",
		    a->src, a->route.ans.oif_name, src_if, a->src);
		add(out, "the same cause shows as REJECTED error 8 (the peer's CM matches no listener), a timeout (no CM "
		    "event) or UNREACHABLE -110, as the peer's rp_filter and stack decide: fix the path first, then a "
		    "REJECTED 8 means nothing listens on port %u", o->port);
		return EXPLAIN_WRONG_INTERFACE;
	}
	if (rejected && e->status == 8) {
		add(out, "cause: nothing listens on port %u of %s (start 'fabtop probe --listen' or 'rping -s' there), or a "
		    "firewall there refuses it: this host's path is right", o->port, a->peer);
		return EXPLAIN_NO_LISTENER;
	}
	if (rejected) {
		add(out, "cause: the peer's CM refused the request for a reason of its own (%s): this host's path is right",
		    e->text);
		return EXPLAIN_REFUSED;
	}
	add(out, "cause: not known from this host: its side is right (%s%s%s); what lies past it is not checked: the "
	    "peer up and reachable, a switch or router between, the peer's routes and rp_filter (run 'fabtop doctor' "
	    "there)", event_seen(st, "ADDR_RESOLVED") ? "the peer's address resolved, " : "",
	    a->src_ip.family ? "the source leaves by its own interface" : "the kernel's route", a->port ? ", the port ACTIVE" : "");
	return EXPLAIN_UNKNOWN_PAST_HOST;
}

unsigned int explain_attempt(const struct explain_input *in, const struct probe_opts *o,
			     const struct probe_status *st, struct explain *out)
{
	struct attempt a;

	memset(out, 0, sizeof(*out));
	if (st->listen || st->state != PROBE_FAILED || !o->peer || !in->net || !in->routes ||
	    !attempt_gather(in, o, st, &a))
		return 0;
	out->cause = cause_line(out, &a, o, st);
	line_route(out, &a);
	line_port(out, &a, st);
	line_neigh(out, &a);
	for (size_t i = 0; in->doctor && i < in->doctor->nfindings; i++) {
		const struct doctor_finding *f = &in->doctor->findings[i];

		if (!finding_bears(f, &a, out->cause) || out->n >= EXPLAIN_MAX_LINES)
			continue;
		add(out, "finding %d (%s): %s", (int)f->id, f->code, f->title);
		out->cited[out->ncited++] = f->code;
	}
	return out->n;
}

void explain_merge_again(struct explain *out, const struct explain *then, const struct explain *now)
{
	memset(out, 0, sizeof(*out));
	out->cause = now->cause;
	add(out, "the network changed after this attempt failed (a fix applied or undone, a route): Enter tries again");
	if (then->n)
		add(out, "then: %.200s", then->line[0]);
	/* now's route and findings: what the attempt's event would mean now is not known until it is tried */
	for (unsigned int i = 0; i < now->n; i++)
		if (!strncmp(now->line[i], "route: ", 7) || !strncmp(now->line[i], "finding ", 8))
			add(out, "now %.230s", now->line[i]);
	for (unsigned int i = 0; i < now->ncited; i++)
		out->cited[out->ncited++] = now->cited[i];
}

unsigned int explain_failure_src(struct source *src, const struct probe_opts *o, const struct probe_status *st,
				 struct explain *out)
{
	struct doctor_report rep;
	struct snapshot snap;
	struct explain_input in;
	unsigned int n;

	memset(out, 0, sizeof(*out));
	if (st->listen || st->state != PROBE_FAILED || !o->peer || !network_failure(st))
		return 0;
	if (!src || snapshot_take(src, &snap, COLLECT_ALL | SNAPSHOT_NET))
		return 0;
	in = (struct explain_input){ .host = &snap.host, .net = &snap.net, .routes = snap.routes };
	if (snapshot_doctor(src, &snap, NULL, &rep) == 0)
		in.doctor = &rep;
	n = snap.has_net && !snap.net_err ? explain_attempt(&in, o, st, out) : 0;
	if (in.doctor)
		doctor_report_free(&rep);
	snapshot_free(&snap);
	return n;
}
