// SPDX-License-Identifier: GPL-2.0-or-later
/* doctor --apply: carry out a fix plan over rtnetlink and /proc/sys, undoing it all if a step fails. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <libmnl/libmnl.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "change/net_apply.h"
#include "kernel/netlink.h"
#include "kernel/nl_parse.h"
#include "kernel/nl_sock.h"
#include "derive/fix.h"
#include "change/sysctl_write.h"
#include "kernel/sysctl.h"
#include "report/escape.h"
#include "util.h"

enum step_kind { STEP_ROUTE, STEP_RULE, STEP_SYSCTL };

/* One change made, with what it replaced, so it can be undone. */
struct step {
	enum step_kind kind;
	const struct fix_route *fr;
	const struct fix_sysctl *fs;
	/*
	 * STEP_ROUTE: the kernel's own message of the route our replace
	 * overwrote (same table, prefix, tos and metric), NULL when it added a
	 * route beside the others. Restored as it was: metrics (mtu),
	 * multipath and encap included, which the model does not hold.
	 */
	struct nlmsghdr *old;
};

/* The `ip` option for a family's commands. */
static const char *fam(uint8_t family)
{
	return family == AF_INET6 ? " -6" : "";
}

static size_t family_len(uint8_t family)
{
	return family == AF_INET ? 4 : 16;
}

#define APPLY_BUF	8192	/* a route message as the kernel dumped it, restored whole */

/* The acknowledgement (an NLMSG_ERROR, 0 for success) ends the answer; anything else is read past. */
static int ack_cb(const void *buf, size_t len, void *arg)
{
	const struct nlmsghdr *m = buf;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(m);
	int *err = arg;

	(void)len;	/* nl_sock_ask() hands over whole messages only */
	if (m->nlmsg_type != NLMSG_ERROR)
		return 0;
	*err = m->nlmsg_len >= NLMSG_HDRLEN + sizeof(*e) ? e->error : -EBADMSG;
	return NL_WALK_END;
}

/* Send one request and wait for its ack: 0 or the kernel's -errno. */
static int nl_talk(struct nl_sock *s, struct nlmsghdr *nlh)
{
	int err = 0;
	int rc;

	nlh->nlmsg_flags |= NLM_F_ACK;
	rc = nl_sock_ask(s, nlh, ack_cb, &err);
	return rc ? rc : err;
}

/* RTM_NEWROUTE/DELROUTE of a route as the model holds it. */
static int route_msg(struct nl_sock *s, uint16_t type, uint16_t flags, const struct net_route *r)
{
	struct nlmsghdr *nlh = nl_sock_request(s, type, flags);
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));

	rtm->rtm_family = r->family;
	rtm->rtm_dst_len = r->dst_len;
	rtm->rtm_tos = r->tos;
	rtm->rtm_table = r->table < 256 ? (unsigned char)r->table : RT_TABLE_UNSPEC;
	rtm->rtm_protocol = r->protocol;
	rtm->rtm_scope = r->scope;
	rtm->rtm_type = r->type;
	mnl_attr_put_u32(nlh, RTA_TABLE, r->table);
	if (r->dst.family)
		mnl_attr_put(nlh, RTA_DST, family_len(r->family), r->dst.bytes);
	if (r->prefsrc.family)
		mnl_attr_put(nlh, RTA_PREFSRC, family_len(r->family), r->prefsrc.bytes);
	if (r->gateway.family)
		mnl_attr_put(nlh, RTA_GATEWAY, family_len(r->family), r->gateway.bytes);
	if (r->oif)
		mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)r->oif);
	if (r->has_priority)
		mnl_attr_put_u32(nlh, RTA_PRIORITY, r->priority);
	return nl_talk(s, nlh);
}

static int rule_msg(struct nl_sock *s, uint16_t type, uint16_t flags, const struct fix_route *fr)
{
	struct nlmsghdr *nlh = nl_sock_request(s, type, flags);
	struct fib_rule_hdr *frh = mnl_nlmsg_put_extra_header(nlh, sizeof(*frh));

	frh->family = fr->addr.family;
	frh->src_len = (uint8_t)(family_len(fr->addr.family) * 8);
	frh->action = FR_ACT_TO_TBL;
	frh->table = fr->table < 256 ? (uint8_t)fr->table : RT_TABLE_UNSPEC;
	mnl_attr_put(nlh, FRA_SRC, family_len(fr->addr.family), fr->addr.bytes);
	mnl_attr_put_u32(nlh, FRA_TABLE, fr->table);
	mnl_attr_put_u32(nlh, FRA_PRIORITY, fr->priority);
	return nl_talk(s, nlh);
}

/* SIGINT, SIGTERM or SIGHUP came (the caller blocks them during an apply): stop and roll back. */
static bool interrupted(void)
{
	sigset_t pending;

	return sigpending(&pending) == 0 && (sigismember(&pending, SIGINT) == 1 ||
					     sigismember(&pending, SIGTERM) == 1 || sigismember(&pending, SIGHUP) == 1);
}

/* Does r have the key of the route a fix adds (table, prefix, tos 0, metric 0)? */
static bool same_key(const struct net_route *r, const struct fix_route *fr)
{
	return r->table == fr->table && r->family == fr->subnet.family && r->dst_len == fr->prefixlen &&
	       net_ip_eq(&r->dst, &fr->subnet) && !r->tos && (r->has_priority ? r->priority : 0) == 0;
}

struct find_arg {
	const struct fix_route *fr;
	struct nlmsghdr *found;		/* a copy of the kernel's message, malloc'd */
	int err;
};

static int find_cb(const void *buf, size_t len, void *arg)
{
	struct find_arg *fa = arg;

	for (const char *p = buf; nl_msg_ok(p, len);) {
		const struct nlmsghdr *m = (const struct nlmsghdr *)(const void *)p;
		size_t step = NLMSG_ALIGN(m->nlmsg_len);
		struct net_route r;

		if (m->nlmsg_type == RTM_NEWROUTE && nl_parse_route(m, &r) == 0 && same_key(&r, fa->fr) && !fa->found) {
			fa->found = malloc(m->nlmsg_len);
			if (!fa->found)
				fa->err = -ENOMEM;
			else
				memcpy(fa->found, m, m->nlmsg_len);
		}
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return fa->err;
}

/* The route a replace of fr's route would overwrite, as the kernel holds it now; NULL if none. */
static int find_replaced(const struct fix_route *fr, struct nlmsghdr **out)
{
	struct find_arg fa = { .fr = fr };
	int rc = netlink_dump_raw(RTM_GETROUTE, find_cb, &fa);

	if (rc == -EAGAIN)	/* the table changed meanwhile: ask again, once */
		rc = (free(fa.found), fa.found = NULL, netlink_dump_raw(RTM_GETROUTE, find_cb, &fa));
	if (rc) {
		free(fa.found);
		return rc;
	}
	*out = fa.found;
	return 0;
}

/* Put a route back from the kernel's own message of it: every attribute as it was. */
static int restore_route(struct nl_sock *s, const struct nlmsghdr *old)
{
	struct nlmsghdr *nlh;

	if (old->nlmsg_len > s->size)
		return -E2BIG;
	memcpy(s->buf, old, old->nlmsg_len);
	nlh = (struct nlmsghdr *)(void *)s->buf;
	nlh->nlmsg_type = RTM_NEWROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE;
	nlh->nlmsg_pid = 0;
	return nl_talk(s, nlh);
}

static void route_of_fix(const struct fix_route *fr, int oif, struct net_route *r)
{
	memset(r, 0, sizeof(*r));
	r->family = fr->subnet.family;
	r->dst_len = fr->prefixlen;
	r->dst = fr->subnet;
	r->prefsrc = fr->addr;
	r->table = fr->table;
	r->oif = oif;
	r->type = RTN_UNICAST;
	/* IPv6 routes carry no scope; IPv4 subnet routes are on-link. */
	r->scope = fr->subnet.family == AF_INET ? RT_SCOPE_LINK : RT_SCOPE_UNIVERSE;
	r->protocol = RTPROT_BOOT;	/* what `ip route add` uses */
}

static void print_route(FILE *log, const char *verb, const struct net_route *r, const struct net_state *st)
{
	char cmd[700];

	fix_route_cmd(cmd, sizeof(cmd), verb, r, st);
	escape_line(log, "%s", cmd);	/* interface names are the kernel's: any byte but '/' */
}

/* A saved route as the command that gives it back whole, or labelled as approximate when it cannot be. */
static void print_restore(FILE *log, const struct net_route *r, const struct net_state *st)
{
	static const char *const what[] = { "next hops", "encapsulation", "MPLS/IPv6 next hop", "expiry",
					    "metrics", "device" };
	char cmd[1200], lost[128] = "";
	uint32_t inexact = fix_route_restore_cmd(cmd, sizeof(cmd), "replace", r, st);

	if (!inexact) {
		escape_line(log, "%s", cmd);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(what); i++)
		if (inexact & (1u << i))
			snprintf(lost + strlen(lost), sizeof(lost) - strlen(lost), "%s%s", lost[0] ? ", " : "", what[i]);
	escape_line(log, "%s  # approximate: its %s not shown", cmd, lost);
}

static void print_sysctl(FILE *log, const char *ifname, enum net_sysctl_id id, int value)
{
	char cmd[700];

	fix_sysctl_cmd(cmd, sizeof(cmd), ifname, id, value);
	escape_line(log, "%s", cmd);
}

static int undo(struct nl_sock *nl, const struct step *s, const struct net_state *st,
		const char *proc_root)
{
	struct net_route r;
	struct net_link *l;

	switch (s->kind) {
	case STEP_ROUTE:
		if (s->old)
			return restore_route(nl, s->old);
		/* ours was added beside the others: only ours goes (its device and source pick it) */
		l = net_link_by_name(st, s->fr->ifname);
		route_of_fix(s->fr, l ? l->ifindex : 0, &r);
		return route_msg(nl, RTM_DELROUTE, 0, &r);
	case STEP_RULE:
		return rule_msg(nl, RTM_DELRULE, 0, s->fr);
	case STEP_SYSCTL:
		return sysctl_write_iface(proc_root, s->fs->ifname, s->fs->id, s->fs->old.value);
	}
	return -EINVAL;
}

/* The command that undoes a step, for a step the rollback could not undo. */
static void print_undo(FILE *log, const struct step *s, const struct net_state *st)
{
	const struct net_link *l;
	struct net_route r;
	char a[INET6_ADDRSTRLEN];

	switch (s->kind) {
	case STEP_ROUTE:
		if (s->old && nl_parse_route(s->old, &r) == 0) {
			print_restore(log, &r, st);
			break;
		}
		l = net_link_by_name(st, s->fr->ifname);
		route_of_fix(s->fr, l ? l->ifindex : 0, &r);
		print_route(log, "del", &r, st);
		break;
	case STEP_RULE:
		fprintf(log, "ip%s rule del from %s table %u priority %u\n", fam(s->fr->addr.family),
			net_ip_str(&s->fr->addr, a, sizeof(a)), s->fr->table, s->fr->priority);
		break;
	case STEP_SYSCTL:
		print_sysctl(log, s->fs->ifname, s->fs->id, s->fs->old.value);
		break;
	}
}

/* Long: the transaction in order: save, apply each step, and on the first failure restore what was saved; apart, the rollback would be harder to check. */
int net_apply(const struct fix_plan *plan, const struct net_state *st, const char *proc_root, FILE *log,
	      size_t *left)
{
	struct nl_sock nl;
	struct step *steps;
	size_t nsteps = 0;
	char a[INET6_ADDRSTRLEN];
	int rc = 0;

	*left = 0;
	steps = calloc(2 * plan->nroutes + plan->nsysctls + 1, sizeof(*steps));
	if (!steps)
		return -ENOMEM;
	rc = nl_sock_open(&nl, NETLINK_ROUTE, 0, APPLY_BUF);
	if (rc) {
		free(steps);
		return rc;
	}
	/* an answer that is not whole messages fails the step (and the plan rolls back) */
	nl.strict = true;

	/* The previous state first: how to get back to it, as commands. */
	fprintf(log, "# previous state (commands that restore it):\n");
	for (size_t i = 0; i < plan->nroutes; i++) {
		const struct fix_route *fr = &plan->routes[i];
		bool had = false;

		if (fr->route_ok)
			continue;
		/* Routes at another metric are not touched by a replace of ours: nothing to restore. */
		for (size_t k = 0; k < st->nroutes && !had; k++) {
			if (same_key(&st->routes[k], fr)) {
				print_restore(log, &st->routes[k], st);
				had = true;
			}
		}
		if (!had) {
			const struct net_link *l = net_link_by_name(st, fr->ifname);
			struct net_route r;

			route_of_fix(fr, l ? l->ifindex : 0, &r);
			print_route(log, "del", &r, st);
		}
	}
	for (size_t i = 0; i < plan->nroutes; i++)
		if (!plan->routes[i].rule_ok)
			fprintf(log, "ip%s rule del from %s table %u priority %u\n", fam(plan->routes[i].addr.family),
				net_ip_str(&plan->routes[i].addr, a, sizeof(a)), plan->routes[i].table,
				plan->routes[i].priority);
	for (size_t i = 0; i < plan->nsysctls; i++)
		if (!plan->sysctls[i].ok && plan->sysctls[i].old.known)
			print_sysctl(log, plan->sysctls[i].ifname, plan->sysctls[i].id, plan->sysctls[i].old.value);
	fprintf(log, "# applying:\n");

	for (size_t i = 0; i < plan->nroutes && !rc; i++) {
		const struct fix_route *fr = &plan->routes[i];
		const struct net_link *l = net_link_by_name(st, fr->ifname);
		struct step *s = &steps[nsteps];
		struct net_route r;

		if (fr->route_ok)
			continue;
		if (interrupted()) {
			rc = -EINTR;
			break;
		}
		if (!l) {
			rc = -ENODEV;
			break;
		}
		s->kind = STEP_ROUTE;
		s->fr = fr;
		rc = find_replaced(fr, &s->old);
		if (rc)
			break;
		route_of_fix(fr, l->ifindex, &r);
		print_route(log, "replace", &r, st);
		rc = route_msg(&nl, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, &r);
		if (!rc) {
			nsteps++;
		} else {
			free(s->old);
			s->old = NULL;
		}
	}
	for (size_t i = 0; i < plan->nroutes && !rc; i++) {
		const struct fix_route *fr = &plan->routes[i];

		if (fr->rule_ok)
			continue;
		if (interrupted()) {
			rc = -EINTR;
			break;
		}
		fprintf(log, "ip%s rule add from %s table %u priority %u\n", fam(fr->addr.family),
			net_ip_str(&fr->addr, a, sizeof(a)),
			fr->table, fr->priority);
		rc = rule_msg(&nl, RTM_NEWRULE, NLM_F_CREATE | NLM_F_EXCL, fr);
		if (!rc) {
			steps[nsteps].kind = STEP_RULE;
			steps[nsteps].fr = fr;
			nsteps++;
		}
	}
	for (size_t i = 0; i < plan->nsysctls && !rc; i++) {
		const struct fix_sysctl *fs = &plan->sysctls[i];

		if (fs->ok)
			continue;
		if (interrupted()) {
			rc = -EINTR;
			break;
		}
		if (!fs->old.known) {
			/* Without the old value there is nothing to restore: refuse. */
			escape_line(log, "# %s: %s is unreadable, not changed", fs->ifname, net_sysctl_name(fs->id));
			rc = -EIO;
			break;
		}
		print_sysctl(log, fs->ifname, fs->id, fs->value);
		rc = sysctl_write_iface(proc_root, fs->ifname, fs->id, fs->value);
		if (!rc) {
			steps[nsteps].kind = STEP_SYSCTL;
			steps[nsteps].fs = fs;
			nsteps++;
		}
	}
	if (rc) {
		fprintf(log, "# %s; restoring the previous state\n",
			rc == -EINTR ? "interrupted" : strerror(-rc));
		while (nsteps > 0) {
			const struct step *s = &steps[--nsteps];
			int urc = undo(&nl, s, st, proc_root);

			escape_line(log, "# %s %s: %s", urc ? "could not undo" : "undone",
				s->kind == STEP_ROUTE ? "route" : s->kind == STEP_RULE ? "rule" : "sysctl",
				s->kind == STEP_SYSCTL ? s->fs->ifname : s->fr->ifname);
			if (urc) {
				fprintf(log, "#   (%s); left as applied, undo it by hand with:\n", strerror(-urc));
				print_undo(log, s, st);
				(*left)++;
			}
		}
	}
	nl_sock_close(&nl);
	for (size_t i = 0; i < 2 * plan->nroutes + plan->nsysctls + 1; i++)
		free(steps[i].old);
	free(steps);
	fflush(log);
	return rc;
}
