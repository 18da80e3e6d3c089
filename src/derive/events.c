// SPDX-License-Identifier: GPL-2.0-or-later
/* Derived events: what changed between two looks at the host, its network, the doctor and the subnet. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/fib_rules.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive/events.h"
#include "util.h"

/* After net/if.h (model/net.h): IFF_LOWER_UP. */
#include <linux/if.h>

typedef char events_key[EVENTS_KEY_LEN];

/* A new event stamped with the look's times. */
static struct fab_event ev_new(const struct events_input *in, enum event_kind kind, enum event_severity sev)
{
	struct fab_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.severity = sev;
	ev.real_ns = in->real_ns;
	ev.mono_ns = in->mono_ns;
	return ev;
}

static void ev_port(struct fab_event *ev, const char *dev, unsigned int port)
{
	snprintf(ev->device, sizeof(ev->device), "%s", dev);
	ev->port = port;
}

/* A longer text cut to fit (a finding's title into an event's one line). */
static void cut_copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* ---- sorted string sets: GIDs, addresses, routes, rules ---- */

struct keyset {
	events_key *k;
	size_t n, cap;
};

static int keyset_add(struct keyset *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int keyset_add(struct keyset *s, const char *fmt, ...)
{
	va_list ap;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		events_key *k = realloc(s->k, cap * sizeof(*k));

		if (!k)
			return -ENOMEM;
		s->k = k;
		s->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(s->k[s->n++], EVENTS_KEY_LEN, fmt, ap);
	va_end(ap);
	return 0;
}

/* Sorted, duplicates dropped (two equal routes in one table are one fact). */
static void keyset_sort(struct keyset *s)
{
	size_t w = 0;

	if (s->n)
		qsort(s->k, s->n, sizeof(*s->k), key_cmp);
	for (size_t i = 0; i < s->n; i++)
		if (!w || strcmp(s->k[w - 1], s->k[i]))
			memmove(s->k[w++], s->k[i], EVENTS_KEY_LEN);
	s->n = w;
}

/* Walk two sorted sets: added(k) for what only now has, removed(k) for what only old had. */
static void keyset_diff(events_key *old, size_t nold, const struct keyset *now,
			void (*fn)(void *arg, const char *key, bool added), void *arg)
{
	size_t i = 0, j = 0;

	while (i < nold || j < now->n) {
		int c = i == nold ? 1 : j == now->n ? -1 : strcmp(old[i], now->k[j]);

		if (c < 0)
			fn(arg, old[i++], false);
		else if (c > 0)
			fn(arg, now->k[j++], true);
		else
			i++, j++;
	}
}

/* ---- ports ---- */

static bool is_flap_counter(const char *name)
{
	return !strcmp(name, "link_downed") || !strcmp(name, "link_error_recovery");
}

static struct events_port_mem *port_mem_find(struct events_memory *m, const char *dev, unsigned int port)
{
	for (size_t i = 0; i < m->nports; i++)
		if (m->ports[i].port == port && !strcmp(m->ports[i].device, dev))
			return &m->ports[i];
	return NULL;
}

static struct events_counter_mem *ctr_mem_find(struct events_port_mem *pm, const char *name)
{
	for (size_t i = 0; i < pm->nctrs; i++)
		if (!strcmp(pm->ctrs[i].name, name))
			return &pm->ctrs[i];
	return NULL;
}

static bool is_active(int state)
{
	return state == PORT_STATE_ACTIVE || state == PORT_STATE_ACTIVE_DEFER;
}

static void fmt_secs(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%.1f s", (double)ns / 1e9);
}

static void port_states(const struct events_input *in, struct event_log *log, struct events_port_mem *pm,
			const struct fab_device *d, const struct fab_port *p)
{
	struct fab_event ev;

	if (pm->state != (int)p->state) {
		enum event_severity sev = is_active(p->state) ? EVENT_INFO :
					  is_active(pm->state) ? EVENT_ERROR : EVENT_WARNING;

		ev = ev_new(in, EVENT_PORT_STATE, sev);
		ev_port(&ev, d->name, p->num);
		event_set_what(&ev, "port %s -> %s", fab_port_state_str(pm->state), fab_port_state_str(p->state));
		event_set_evidence(&ev, "state was \"%s\", now \"%s\"; physical state %s",
				   fab_port_state_str(pm->state), p->state_raw[0] ? p->state_raw : "unreadable",
				   fab_phys_state_str(p->phys_state));
		event_log_append(log, &ev);
		/* Down and up again across samples: the flap itself, with how long it lasted. */
		if (is_active(p->state) && pm->left_active_ns) {
			char dur[32];

			fmt_secs(dur, sizeof(dur), in->mono_ns - pm->left_active_ns);
			ev = ev_new(in, EVENT_LINK_FLAP, EVENT_WARNING);
			ev_port(&ev, d->name, p->num);
			event_set_what(&ev, "link flapped: back ACTIVE after %s", dur);
			event_set_evidence(&ev, "left ACTIVE %s before this sample, ACTIVE again now", dur);
			event_log_append(log, &ev);
		}
	}
	if (pm->phys_state != (int)p->phys_state) {
		enum event_severity sev = p->phys_state == PHYS_STATE_LINK_UP ? EVENT_INFO : EVENT_WARNING;

		ev = ev_new(in, EVENT_PHYS_STATE, sev);
		ev_port(&ev, d->name, p->num);
		event_set_what(&ev, "physical link %s -> %s", fab_phys_state_str(pm->phys_state),
			       fab_phys_state_str(p->phys_state));
		event_set_evidence(&ev, "phys_state was \"%s\", now \"%s\"", fab_phys_state_str(pm->phys_state),
				   p->phys_state_raw[0] ? p->phys_state_raw : "unreadable");
		event_log_append(log, &ev);
	}
	if (is_active(p->state))
		pm->left_active_ns = 0;
	else if (is_active(pm->state))
		pm->left_active_ns = in->mono_ns;
	pm->state = p->state;
	pm->phys_state = p->phys_state;
}

/*
 * The port's usual rate is the highest it trained to while ACTIVE in this
 * run: a link comes up at the best speed and width both ends and the cable
 * allow, so a later lower rate is a degrade (a lane lost, a retrain at a
 * lower speed). The drop is told once per rate, and so is the return.
 */
static void port_rate(const struct events_input *in, struct event_log *log, struct events_port_mem *pm,
		      const struct fab_device *d, const struct fab_port *p)
{
	struct fab_event ev;

	if (!is_active(p->state) || !p->rate_known || p->rate_gbps <= 0)
		return;
	if (pm->rate_known && pm->rate_gbps != p->rate_gbps && pm->usual_gbps > 0) {
		bool drop = p->rate_gbps < pm->usual_gbps;

		if (drop || pm->rate_gbps < pm->usual_gbps) {
			ev = ev_new(in, EVENT_RATE_DROP, drop ? EVENT_WARNING : EVENT_INFO);
			ev_port(&ev, d->name, p->num);
			if (drop)
				event_set_what(&ev, "link rate dropped to %g Gb/s (usual %g Gb/s)",
					       p->rate_gbps, pm->usual_gbps);
			else
				event_set_what(&ev, "link rate back to %g Gb/s", p->rate_gbps);
			event_set_evidence(&ev, "rate was %g Gb/s, now \"%s\"; usual = highest while ACTIVE: %g Gb/s",
					   pm->rate_gbps, p->rate, pm->usual_gbps);
			event_log_append(log, &ev);
		}
	}
	pm->rate_known = true;
	pm->rate_gbps = p->rate_gbps;
	if (p->rate_gbps > pm->usual_gbps)
		pm->usual_gbps = p->rate_gbps;
}

/*
 * Counters: link_downed and link_error_recovery are flaps (each increment a
 * link that went down or retrained, even between samples); any other error
 * counter that moves after a sample in which it did not is a burst. A
 * counter that went backwards was reset: it is remembered, not reported.
 */
static int port_counters(const struct events_input *in, struct event_log *log, struct events_port_mem *pm,
			 const struct fab_device *d, const struct fab_port *p)
{
	struct events_counter_mem *nc = calloc(p->ncounters ? p->ncounters : 1, sizeof(*nc));
	size_t n = 0;

	if (!nc)
		return -ENOMEM;
	for (size_t i = 0; i < p->ncounters; i++) {
		const struct fab_counter *c = &p->counters[i];
		struct events_counter_mem *old = ctr_mem_find(pm, c->name);
		struct events_counter_mem *cm = &nc[n++];
		bool flap = is_flap_counter(c->name);
		struct fab_event ev;
		uint64_t delta;

		if (!flap && c->kind != COUNTER_KIND_ERROR) {
			n--;
			continue;
		}
		snprintf(cm->name, sizeof(cm->name), "%s", c->name);
		cm->known = c->known && !c->saturated;
		cm->value = c->value;
		if (!cm->known || !old || !old->known || c->value <= old->value)
			continue;
		delta = c->value - old->value;
		cm->moving = true;
		if (flap) {
			bool recovery = !strcmp(c->name, "link_error_recovery");

			ev = ev_new(in, EVENT_LINK_FLAP, EVENT_WARNING);
			ev_port(&ev, d->name, p->num);
			if (recovery)
				event_set_what(&ev, "link retrained %" PRIu64 " time%s (error recovery)", delta,
					       delta == 1 ? "" : "s");
			else if (is_active(p->state) && is_active(pm->state))
				event_set_what(&ev, "link went down %" PRIu64 " time%s and came back between samples",
					       delta, delta == 1 ? "" : "s");
			else
				event_set_what(&ev, "link went down %" PRIu64 " time%s", delta, delta == 1 ? "" : "s");
			event_set_evidence(&ev, "%s %" PRIu64 " -> %" PRIu64 " (+%" PRIu64 ") since the previous sample",
					   c->name, old->value, c->value, delta);
			event_log_append(log, &ev);
		} else if (!old->moving) {
			ev = ev_new(in, EVENT_ERROR_BURST, EVENT_WARNING);
			ev_port(&ev, d->name, p->num);
			event_set_what(&ev, "%s errors: +%" PRIu64, c->name, delta);
			event_set_evidence(&ev, "%s %" PRIu64 " -> %" PRIu64 " (+%" PRIu64 ") since the previous sample; "
					   "it had not moved in the sample before", c->name, old->value, c->value, delta);
			event_log_append(log, &ev);
		}
	}
	free(pm->ctrs);
	pm->ctrs = nc;
	pm->nctrs = n;
	return 0;
}

struct gid_diff {
	const struct events_input *in;
	struct event_log *log;
	const char *dev;
	unsigned int port;
};

static void gid_changed(void *arg, const char *key, bool added)
{
	struct gid_diff *g = arg;
	struct fab_event ev = ev_new(g->in, added ? EVENT_GID_ADDED : EVENT_GID_REMOVED,
				     added ? EVENT_INFO : EVENT_WARNING);
	unsigned int idx = 0;
	char gid[40] = "";

	ev_port(&ev, g->dev, g->port);
	sscanf(key, "%u %39s", &idx, gid);
	event_set_what(&ev, "GID %u %s %s", idx, gid, added ? "added" : "removed");
	event_set_evidence(&ev, "index type netdev ipv4: %s", key);
	/* The netdev is the fourth word ("-" when none). */
	{
		char type1[16], type2[16], nd[EVENT_IFACE_LEN];

		if (sscanf(key, "%*u %*s %15s %15s %15s", type1, type2, nd) == 3 && strcmp(nd, "-"))
			snprintf(ev.iface, sizeof(ev.iface), "%s", nd);
	}
	event_log_append(g->log, &ev);
}

static int port_gids(const struct events_input *in, struct event_log *log, struct events_port_mem *pm,
		     const struct fab_device *d, const struct fab_port *p, bool compare)
{
	struct keyset s = { 0 };

	for (size_t i = 0; i < p->ngids; i++) {
		const struct fab_gid *g = &p->gids[i];
		const char *type = fab_gid_type_str(g->type);

		/* Types have a space ("RoCE v2"): the key keeps two words for every type. */
		if (keyset_add(&s, "%u %s %s%s %s %s", g->index, g->gid, type, strchr(type, ' ') ? "" : " -",
			       g->netdev[0] ? g->netdev : "-", g->has_ipv4 ? g->ipv4 : "-")) {
			free(s.k);
			return -ENOMEM;
		}
	}
	keyset_sort(&s);
	if (compare) {
		struct gid_diff g = { in, log, d->name, p->num };

		keyset_diff(pm->gids, pm->ngids, &s, gid_changed, &g);
	}
	free(pm->gids);
	pm->gids = s.k;
	pm->ngids = s.n;
	return 0;
}

static void port_mem_free(struct events_port_mem *pm)
{
	free(pm->ctrs);
	free(pm->gids);
}

static int derive_host(struct events_memory *m, const struct events_input *in, struct event_log *log)
{
	const struct fab_host *h = in->host;
	bool compare = m->have_host;
	int rc = 0;

	for (size_t i = 0; i < m->nports; i++)
		m->ports[i].present = false;
	for (size_t i = 0; i < h->ndevs; i++) {
		const struct fab_device *d = &h->devs[i];

		for (size_t j = 0; j < d->nports; j++) {
			const struct fab_port *p = &d->ports[j];
			struct events_port_mem *pm = port_mem_find(m, d->name, p->num);
			bool known = pm != NULL;

			if (!pm) {
				struct events_port_mem *np = realloc(m->ports, (m->nports + 1) * sizeof(*np));

				if (!np)
					return -ENOMEM;
				m->ports = np;
				pm = &m->ports[m->nports++];
				memset(pm, 0, sizeof(*pm));
				snprintf(pm->device, sizeof(pm->device), "%s", d->name);
				pm->port = p->num;
				pm->state = p->state;
				pm->phys_state = p->phys_state;
				if (compare) {
					struct fab_event ev = ev_new(in, EVENT_PORT_STATE, EVENT_INFO);

					ev_port(&ev, d->name, p->num);
					event_set_what(&ev, "port appeared (%s)", fab_port_state_str(p->state));
					event_set_evidence(&ev, "%s port %u was not there in the previous sample; "
							   "state %s, physical state %s", d->name, p->num,
							   fab_port_state_str(p->state), fab_phys_state_str(p->phys_state));
					event_log_append(log, &ev);
				}
			}
			pm->present = true;
			if (known)
				port_states(in, log, pm, d, p);
			port_rate(in, log, pm, d, p);
			if (port_counters(in, log, pm, d, p) || port_gids(in, log, pm, d, p, known))
				rc = -ENOMEM;
		}
	}
	/* Ports that vanished (a device unplugged, a driver unloaded). */
	for (size_t i = 0; i < m->nports;) {
		struct events_port_mem *pm = &m->ports[i];

		if (pm->present) {
			i++;
			continue;
		}
		if (compare) {
			struct fab_event ev = ev_new(in, EVENT_PORT_STATE, EVENT_ERROR);

			ev_port(&ev, pm->device, pm->port);
			event_set_what(&ev, "port vanished (was %s)", fab_port_state_str(pm->state));
			event_set_evidence(&ev, "%s port %u is no longer in the host's devices", pm->device, pm->port);
			event_log_append(log, &ev);
		}
		port_mem_free(pm);
		m->ports[i] = m->ports[--m->nports];
	}
	m->have_host = true;
	return rc;
}

/* ---- network ---- */

struct net_diff {
	const struct events_input *in;
	struct event_log *log;
	enum event_kind kind;
	const char *noun;
};

static void net_changed(void *arg, const char *key, bool added)
{
	struct net_diff *nd = arg;
	struct fab_event ev = ev_new(nd->in, nd->kind, added ? EVENT_INFO : EVENT_WARNING);
	const char *dev = strstr(key, " dev ");

	if (nd->kind == EVENT_ADDRESS)
		sscanf(key, "%15s", ev.iface);
	else if (dev)
		sscanf(dev + 5, "%15s", ev.iface);
	event_set_what(&ev, "%s %s: %s", nd->noun, added ? "added" : "removed", key);
	event_set_evidence(&ev, "%s: %s in this network read", key,
			   added ? "not in the previous one, there" : "in the previous one, gone");
	event_log_append(nd->log, &ev);
}

static int net_addr_keys(const struct net_state *st, struct keyset *s)
{
	for (size_t i = 0; i < st->naddrs; i++) {
		const struct net_addr *a = &st->addrs[i];
		const struct net_link *l = net_link_by_index(st, a->ifindex);
		char ip[INET6_ADDRSTRLEN];

		if (!l || !l->rdma)
			continue;
		if (keyset_add(s, "%s %s/%u", l->name, net_ip_str(&a->local, ip, sizeof(ip)), a->prefixlen))
			return -ENOMEM;
	}
	return 0;
}

/* "10.0.0.1" for a host, "10.0.0.0/24" for a prefix, "all" for none. */
static const char *prefix_str(const struct net_ip *ip, unsigned int len, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN];

	if (!ip->family)
		snprintf(buf, size, "all");
	else if (len == (ip->family == AF_INET ? 32u : 128u))
		snprintf(buf, size, "%s", net_ip_str(ip, a, sizeof(a)));
	else
		snprintf(buf, size, "%s/%u", net_ip_str(ip, a, sizeof(a)), len);
	return buf;
}

static int net_route_keys(const struct net_state *st, struct keyset *s)
{
	for (size_t i = 0; i < st->nroutes; i++) {
		const struct net_route *r = &st->routes[i];
		const struct net_link *l = net_link_by_index(st, r->oif);
		char dst[INET6_ADDRSTRLEN + 8], gw[INET6_ADDRSTRLEN], src[INET6_ADDRSTRLEN], tbl[16];
		char metric[24] = "";

		if (!l || !l->rdma)
			continue;
		if (r->has_priority)
			snprintf(metric, sizeof(metric), " metric %u", r->priority);
		if (r->dst.family)
			prefix_str(&r->dst, r->dst_len, dst, sizeof(dst));
		else
			snprintf(dst, sizeof(dst), "default");
		net_ip_str(&r->gateway, gw, sizeof(gw));
		net_ip_str(&r->prefsrc, src, sizeof(src));
		if (keyset_add(s, "table %s %s%s%s dev %s%s%s%s", net_table_str(r->table, tbl, sizeof(tbl)), dst,
			       gw[0] ? " via " : "", gw, l->name, src[0] ? " src " : "", src, metric))
			return -ENOMEM;
	}
	return 0;
}

static int net_rule_keys(const struct net_state *st, struct keyset *s)
{
	for (size_t i = 0; i < st->nrules; i++) {
		const struct net_rule *r = &st->rules[i];
		char src[INET6_ADDRSTRLEN + 8], dst[INET6_ADDRSTRLEN + 12] = "", tbl[16], prio[24] = "";
		char mark[40] = "", iif[IFNAMSIZ + 8] = "", oif[IFNAMSIZ + 8] = "", act[32];

		if (r->has_priority)
			snprintf(prio, sizeof(prio), "%u: ", r->priority);
		if (r->dst.family) {
			char d[INET6_ADDRSTRLEN + 8];

			snprintf(dst, sizeof(dst), " to %s", prefix_str(&r->dst, r->dst_len, d, sizeof(d)));
		}
		if (r->has_fwmark)
			snprintf(mark, sizeof(mark), " fwmark 0x%x/0x%x", r->fwmark, r->fwmask);
		if (r->iifname[0])
			snprintf(iif, sizeof(iif), " iif %s", r->iifname);
		if (r->oifname[0])
			snprintf(oif, sizeof(oif), " oif %s", r->oifname);
		if (r->action == FR_ACT_TO_TBL)
			snprintf(act, sizeof(act), "lookup %s", net_table_str(r->table, tbl, sizeof(tbl)));
		else
			snprintf(act, sizeof(act), "action %u", r->action);
		if (keyset_add(s, "%s%sfrom %s%s%s%s%s %s", prio, r->invert ? "not " : "",
			       prefix_str(&r->src, r->src_len, src, sizeof(src)), dst, iif, oif, mark, act))
			return -ENOMEM;
	}
	return 0;
}

static void link_event(const struct events_input *in, struct event_log *log, const char *name,
		       enum event_severity sev, const char *what, const char *evidence)
{
	struct fab_event ev = ev_new(in, EVENT_NETDEV, sev);

	snprintf(ev.iface, sizeof(ev.iface), "%s", name);
	event_set_what(&ev, "%s %s", name, what);
	event_set_evidence(&ev, "%s", evidence);
	event_log_append(log, &ev);
}

static int derive_links(struct events_memory *m, const struct events_input *in, struct event_log *log)
{
	const struct net_state *st = in->net;
	struct events_link_mem *nl = calloc(st->nlinks ? st->nlinks : 1, sizeof(*nl));
	size_t n = 0;
	char buf[EVENT_EVIDENCE_LEN];

	if (!nl)
		return -ENOMEM;
	for (size_t i = 0; i < st->nlinks; i++) {
		const struct net_link *l = &st->links[i];
		struct events_link_mem *lm = &nl[n++], *old = NULL;

		if (!l->rdma) {
			n--;
			continue;
		}
		snprintf(lm->name, sizeof(lm->name), "%s", l->name);
		lm->up = l->flags & IFF_UP;
		lm->carrier = l->flags & IFF_LOWER_UP;
		lm->mtu = l->mtu;
		for (size_t j = 0; j < m->nlinks; j++)
			if (!strcmp(m->links[j].name, lm->name))
				old = &m->links[j];
		if (!m->have_net)
			continue;
		snprintf(buf, sizeof(buf), "%s, %s, carrier %s, mtu %u", lm->name, lm->up ? "UP" : "DOWN",
			 lm->carrier ? "yes" : "no", lm->mtu);
		if (!old) {
			link_event(in, log, lm->name, EVENT_INFO, "appeared", buf);
			continue;
		}
		if (old->up != lm->up)
			link_event(in, log, lm->name, lm->up ? EVENT_INFO : EVENT_ERROR,
				   lm->up ? "set up" : "set down", buf);
		else if (old->carrier != lm->carrier)
			link_event(in, log, lm->name, lm->carrier ? EVENT_INFO : EVENT_ERROR,
				   lm->carrier ? "carrier up" : "carrier lost", buf);
		if (old->mtu != lm->mtu) {
			char what[48];

			snprintf(what, sizeof(what), "MTU %u -> %u", old->mtu, lm->mtu);
			link_event(in, log, lm->name, EVENT_WARNING, what, buf);
		}
	}
	for (size_t j = 0; m->have_net && j < m->nlinks; j++) {
		bool still = false;

		for (size_t i = 0; i < n; i++)
			still |= !strcmp(nl[i].name, m->links[j].name);
		if (!still)
			link_event(in, log, m->links[j].name, EVENT_WARNING, "vanished",
				   "no longer an RDMA netdev in this network namespace");
	}
	free(m->links);
	m->links = nl;
	m->nlinks = n;
	return 0;
}

/* One set of the network: build, compare, remember. */
static int derive_netset(struct events_memory *m, const struct events_input *in, struct event_log *log,
			 int (*keys)(const struct net_state *, struct keyset *), events_key **mem, size_t *nmem,
			 enum event_kind kind, const char *noun)
{
	struct keyset s = { 0 };

	if (keys(in->net, &s)) {
		free(s.k);
		return -ENOMEM;
	}
	keyset_sort(&s);
	if (m->have_net) {
		struct net_diff nd = { in, log, kind, noun };

		keyset_diff(*mem, *nmem, &s, net_changed, &nd);
	}
	free(*mem);
	*mem = s.k;
	*nmem = s.n;
	return 0;
}

static int derive_net(struct events_memory *m, const struct events_input *in, struct event_log *log)
{
	int rc = 0;

	rc |= derive_links(m, in, log);
	rc |= derive_netset(m, in, log, net_addr_keys, &m->addrs, &m->naddrs, EVENT_ADDRESS, "address");
	rc |= derive_netset(m, in, log, net_route_keys, &m->routes, &m->nroutes, EVENT_ROUTE, "route");
	rc |= derive_netset(m, in, log, net_rule_keys, &m->rules, &m->nrules, EVENT_RULE, "rule");
	m->have_net = true;
	return rc ? -ENOMEM : 0;
}

/* ---- doctor ---- */

static int finding_cmp(const void *a, const void *b)
{
	return strcmp(((const struct events_finding_mem *)a)->key, ((const struct events_finding_mem *)b)->key);
}

static void finding_event(const struct events_input *in, struct event_log *log, const struct events_finding_mem *f,
			  bool appeared)
{
	struct fab_event ev = ev_new(in, appeared ? EVENT_FINDING_NEW : EVENT_FINDING_CLEARED,
				     appeared ? (f->severity == DOCTOR_ERROR ? EVENT_ERROR :
						 f->severity == DOCTOR_WARNING ? EVENT_WARNING : EVENT_INFO) : EVENT_INFO);

	ev_port(&ev, f->device, f->port);
	snprintf(ev.iface, sizeof(ev.iface), "%s", f->ifname);
	event_set_what(&ev, "%s: %s", appeared ? "finding" : "cleared", f->title);
	event_set_evidence(&ev, "doctor finding %s (%s)%s", f->key, doctor_severity_str(f->severity),
			   appeared ? "" : " no longer seen");
	event_log_append(log, &ev);
}

static int derive_doctor(struct events_memory *m, const struct events_input *in, struct event_log *log)
{
	const struct doctor_report *r = in->doctor;
	struct events_finding_mem *nf = calloc(r->nfindings ? r->nfindings : 1, sizeof(*nf));
	size_t i = 0, j = 0;

	if (!nf)
		return -ENOMEM;
	for (size_t k = 0; k < r->nfindings; k++) {
		const struct doctor_finding *f = &r->findings[k];

		snprintf(nf[k].key, sizeof(nf[k].key), "%d/%s/%s/%s/%s/%u", (int)f->id, f->code, f->ifname, f->addr,
			 f->device, f->port);
		cut_copy(nf[k].title, sizeof(nf[k].title), f->title);
		nf[k].severity = f->severity;
		snprintf(nf[k].ifname, sizeof(nf[k].ifname), "%s", f->ifname);
		snprintf(nf[k].device, sizeof(nf[k].device), "%s", f->device);
		nf[k].port = f->port;
	}
	if (r->nfindings)
		qsort(nf, r->nfindings, sizeof(*nf), finding_cmp);
	while (m->have_doctor && (i < m->nfindings || j < r->nfindings)) {
		int c = i == m->nfindings ? 1 : j == r->nfindings ? -1 : strcmp(m->findings[i].key, nf[j].key);

		if (c < 0)
			finding_event(in, log, &m->findings[i++], false);
		else if (c > 0)
			finding_event(in, log, &nf[j++], true);
		else
			i++, j++;
	}
	free(m->findings);
	m->findings = nf;
	m->nfindings = r->nfindings;
	m->have_doctor = true;
	return 0;
}

void events_memory_init(struct events_memory *m)
{
	memset(m, 0, sizeof(*m));
}

void events_memory_free(struct events_memory *m)
{
	for (size_t i = 0; i < m->nports; i++)
		port_mem_free(&m->ports[i]);
	free(m->ports);
	free(m->links);
	free(m->addrs);
	free(m->routes);
	free(m->rules);
	free(m->findings);
	free(m->far);
	memset(m, 0, sizeof(*m));
}

int events_derive(struct events_memory *m, const struct events_input *in, struct event_log *log)
{
	int rc = 0;

	if (in->host && derive_host(m, in, log))
		rc = -ENOMEM;
	if (in->net && derive_net(m, in, log))
		rc = -ENOMEM;
	if (in->doctor && derive_doctor(m, in, log))
		rc = -ENOMEM;
	return rc;
}

/* ---- the subnet through MADs ---- */

int events_derive_far_end(struct events_memory *m, const struct ib_local_port *ports, size_t nports,
			  uint64_t real_ns, uint64_t mono_ns, struct event_log *log)
{
	struct events_input in = { .real_ns = real_ns, .mono_ns = mono_ns };

	for (size_t i = 0; i < nports; i++) {
		const struct ib_local_port *lp = &ports[i];
		struct events_far_mem *fm = NULL;
		struct fab_event ev;

		for (size_t j = 0; j < m->nfar; j++)
			if (m->far[j].port == lp->port && !strcmp(m->far[j].ca, lp->ca))
				fm = &m->far[j];
		if (!fm) {
			struct events_far_mem *nf = realloc(m->far, (m->nfar + 1) * sizeof(*nf));

			if (!nf)
				return -ENOMEM;
			m->far = nf;
			fm = &m->far[m->nfar++];
			memset(fm, 0, sizeof(*fm));
			snprintf(fm->ca, sizeof(fm->ca), "%s", lp->ca);
			fm->port = lp->port;
		}
		if (lp->peer_state == IBQ_OK) {
			if (fm->peer_known && (fm->peer_guid != lp->peer.node_guid || fm->peer_port != lp->peer_pi.num)) {
				ev = ev_new(&in, EVENT_FAR_END, EVENT_WARNING);
				ev_port(&ev, lp->ca, lp->port);
				event_set_what(&ev, "link partner changed: now \"%s\" port %u", lp->peer.desc,
					       lp->peer_pi.num);
				event_set_evidence(&ev, "partner was node 0x%016" PRIx64 " port %u (\"%s\"), now "
						   "0x%016" PRIx64 " port %u", fm->peer_guid, fm->peer_port, fm->peer_desc,
						   lp->peer.node_guid, lp->peer_pi.num);
				event_log_append(log, &ev);
			}
			fm->peer_known = true;
			fm->peer_guid = lp->peer.node_guid;
			fm->peer_port = lp->peer_pi.num;
			snprintf(fm->peer_desc, sizeof(fm->peer_desc), "%s", lp->peer.desc);
		}
		if (lp->self_state == IBQ_OK && lp->pi.sm_lid) {
			uint64_t guid = lp->sm.state == IBQ_OK ? lp->sm.guid : 0;

			if (fm->sm_known && (fm->sm_lid != lp->pi.sm_lid || (guid && fm->sm_guid && guid != fm->sm_guid))) {
				ev = ev_new(&in, EVENT_SM_MOVED, EVENT_WARNING);
				ev_port(&ev, lp->ca, lp->port);
				event_set_what(&ev, "subnet manager moved: LID %u -> %u", fm->sm_lid, lp->pi.sm_lid);
				event_set_evidence(&ev, "PortInfo:MasterSMLID %u -> %u; SM GUID 0x%016" PRIx64
						   " -> 0x%016" PRIx64 " (0: not answered)", fm->sm_lid, lp->pi.sm_lid,
						   fm->sm_guid, guid);
				event_log_append(log, &ev);
			}
			fm->sm_known = true;
			fm->sm_lid = lp->pi.sm_lid;
			if (guid)
				fm->sm_guid = guid;
		}
	}
	return 0;
}
