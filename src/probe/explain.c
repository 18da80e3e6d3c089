// SPDX-License-Identifier: GPL-2.0-or-later
/* A failed probe explained with the doctor's evidence for its source and peer. */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kernel/host.h"
#include "source/snapshot.h"
#include "derive/doctor.h"
#include "probe/explain.h"
#include "util.h"

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
		n = colon ? (size_t)(colon - in) : strlen(in);
	}
	if (n >= len)
		n = len - 1;
	memcpy(out, in, n);
	out[n] = 0;
}

/* Failures the network explains (not local ones like a missing rdma_cm device). */
static bool network_failure(const struct probe_status *st, bool *reason8)
{
	static const char *const names[] = {
		"REJECTED", "UNREACHABLE", "ADDR_ERROR", "ROUTE_ERROR", "CONNECT_ERROR", "TIMEOUT",
	};
	const struct probe_event *e = NULL;
	unsigned int i;

	for (i = st->n_events; i-- > 0;)
		if (st->events[i].error) {
			e = &st->events[i];
			break;
		}
	*reason8 = false;
	if (!e)
		return false;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(e->name, names[i])) {
			*reason8 = i == 0 && e->status == 8;
			return true;
		}
	}
	return false;
}

/* Long: the route line, the matching finding and the other findings, each only when it applies. */
unsigned int explain_failure(const struct fab_ctx *ctx, const struct probe_opts *o,
			     const struct probe_status *st, struct explain *out)
{
	struct snapshot snap;
	struct doctor_input in;
	struct source *source;
	struct doctor_query q;
	struct doctor_report rep;
	const struct doctor_finding *f = NULL;
	char src[PROBE_ADDR_MAX] = "", peer[PROBE_ADDR_MAX];
	const char *from;
	bool reason8;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (st->listen || st->state != PROBE_FAILED || !o->peer || !network_failure(st, &reason8))
		return 0;
	if (st->remote[0])
		strip_port(st->remote, peer, sizeof(peer));
	else
		snprintf(peer, sizeof(peer), "%s", o->peer);
	/* the source the CM actually bound, else what was asked, else the kernel's choice */
	if (st->local[0])
		strip_port(st->local, src, sizeof(src));
	from = src[0] ? src : o->from;

	source = source_open(ctx);
	if (!source || snapshot_take(source, &snap, COLLECT_GIDS | COLLECT_NETDEVS | SNAPSHOT_NET)) {
		source_close(source);
		return 0;
	}
	source_close(source);
	q.peer = peer;
	q.from = from;
	in = (struct doctor_input){ .host = &snap.host, .net = &snap.net, .routes = snap.routes };
	if (!snap.has_net || doctor_run(&in, &q, &rep)) {
		snapshot_free(&snap);
		return 0;
	}

	for (i = 0; i < rep.nroutes; i++) {
		const struct doctor_route *r = &rep.routes[i];
		char psrc[DOCTOR_ADDR_LEN];

		if (!r->user_from)
			continue;
		if (r->rc) {
			add(out, "route: no route from %s to %s (%s)", r->src[0] ? r->src : from, peer,
			    strerror(r->rc < 0 ? -r->rc : r->rc));
		} else if (r->own_iface) {
			add(out, "route: traffic from %s to %s leaves by %s, its own interface (table %u)",
			    r->src[0] ? r->src : from, peer, r->ans.oif_name, r->ans.table);
		} else {
			net_ip_str(&r->ans.src, psrc, sizeof(psrc));
			add(out, "route: traffic from %s to %s leaves by %s, not by %s which holds %s (table %u)",
			    r->src[0] ? r->src : from, peer, r->ans.oif_name,
			    r->src_ifname[0] ? r->src_ifname : "the interface", r->src[0] ? r->src : from,
			    r->ans.table);
		}
		f = doctor_find(&rep, r->src[0] ? r->src : from);
		if (!f && r->src_ifname[0])
			f = doctor_find(&rep, r->src_ifname);
		break;
	}
	if (!from || !from[0]) {
		struct route_answer ans;
		struct net_ip pip;

		if (!net_ip_parse(peer, &pip) && !snap.routes->output(&snap.net, &pip, NULL, 0, &ans)) {
			char s[DOCTOR_ADDR_LEN];

			add(out, "route: traffic to %s leaves by %s from %s (table %u)", peer, ans.oif_name,
			    net_ip_str(&ans.src, s, sizeof(s)), ans.table);
		}
	}
	if (f)
		add(out, "see doctor finding %d (%s): %s", (int)f->id, f->code, f->title);
	for (i = 0; i < rep.nfindings; i++) {
		const struct doctor_finding *x = &rep.findings[i];

		if (x == f || x->severity == DOCTOR_INFO)
			continue;
		add(out, "doctor finding %d (%s): %s", (int)x->id, x->code, x->title);
	}
	if (!f && !doctor_has_problems(&rep) && !reason8)
		add(out, "this host's routing looks right for this pair: look at the path and at the peer "
			 "(its routes, rp_filter, ARP) — run 'fabtop doctor' there");
	doctor_report_free(&rep);
	snapshot_free(&snap);
	return out->n;
}
