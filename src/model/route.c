// SPDX-License-Identifier: GPL-2.0-or-later
/* `ip route get PEER from SRC` computed from a network model (replayed or simulated state). */
#include "config.h"

#include <errno.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <string.h>

#include "model/route.h"
#include "util.h"

size_t route_family_len(uint8_t family)
{
	return family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
}

/* Does rule r select this flow (output lookup: iif is the loopback)? */
static bool rule_matches(const struct net_state *st, const struct net_rule *r,
			 const struct net_ip *peer, const struct net_ip *src, int oif)
{
	bool m = true;

	if (r->family != peer->family)
		return false;
	if (r->src_len && !(src && src->family && net_ip_prefix_eq(src, &r->src, r->src_len)))
		m = false;
	if (m && r->dst_len && !net_ip_prefix_eq(peer, &r->dst, r->dst_len))
		m = false;
	if (m && r->iifname[0]) {
		const struct net_link *lo = NULL;

		for (size_t i = 0; i < st->nlinks; i++)
			if (st->links[i].flags & IFF_LOOPBACK)
				lo = &st->links[i];
		m = lo && !strcmp(lo->name, r->iifname);
	}
	if (m && r->oifname[0]) {
		const struct net_link *l = net_link_by_index(st, oif);

		m = l && !strcmp(l->name, r->oifname);
	}
	/* Our flows carry no mark and tos 0. */
	if (m && r->has_fwmark && (r->fwmark & r->fwmask))
		m = false;
	if (m && r->tos)
		m = false;
	return r->invert ? !m : m;
}

/* Longest prefix, then lowest metric, first in dump order: the kernel's FIB choice. */
static const struct net_route *table_lookup(const struct net_state *st, uint32_t table,
					    const struct net_ip *peer, int oif)
{
	const struct net_route *best = NULL;

	for (size_t i = 0; i < st->nroutes; i++) {
		const struct net_route *r = &st->routes[i];

		if (r->table != table || r->family != peer->family)
			continue;
		if (r->dst_len && !net_ip_prefix_eq(peer, &r->dst, r->dst_len))
			continue;
		if (r->src_len)
			continue;	/* source-specific (IPv6) routes: not modelled */
		if (r->type == RTN_BROADCAST || r->type == RTN_MULTICAST)
			continue;
		if (oif > 0 && r->type == RTN_UNICAST && r->oif != oif)
			continue;
		if (!best || r->dst_len > best->dst_len ||
		    (r->dst_len == best->dst_len && r->priority < best->priority))
			best = r;
	}
	return best;
}

static int route_type_error(uint8_t type)
{
	switch (type) {
	case RTN_UNREACHABLE: return -EHOSTUNREACH;
	case RTN_PROHIBIT: return -EACCES;
	case RTN_BLACKHOLE: return -EINVAL;
	default: return 0;
	}
}

static int model_fill(const struct net_state *st, const struct net_route *r,
		      const struct net_ip *src, struct route_answer *ans)
{
	int err = route_type_error(r->type);

	if (err)
		return err;
	ans->table = r->table;
	ans->type = r->type;
	ans->oif = r->oif;
	ans->gateway = r->gateway;
	if (r->type == RTN_LOCAL) {
		/* Local destinations leave by the loopback, as the kernel reports. */
		for (size_t i = 0; i < st->nlinks; i++)
			if (st->links[i].flags & IFF_LOOPBACK)
				ans->oif = st->links[i].ifindex;
	}
	if (src && src->family)
		ans->src = *src;
	else if (r->prefsrc.family)
		ans->src = r->prefsrc;
	else
		for (size_t i = 0; i < st->naddrs; i++)
			if (st->addrs[i].ifindex == ans->oif && st->addrs[i].local.family == r->family &&
			    st->addrs[i].scope == RT_SCOPE_UNIVERSE) {
				ans->src = st->addrs[i].local;
				break;
			}
	{
		const struct net_link *l = net_link_by_index(st, ans->oif);

		if (l)
			memcpy(ans->oif_name, l->name, sizeof(ans->oif_name));
	}
	return 0;
}

/* A hand-made state without rules gets the kernel's three default rules. */
static const struct net_rule default_rules[] = {
	{ .action = FR_ACT_TO_TBL, .table = RT_TABLE_LOCAL, .has_priority = true, .priority = 0 },
	{ .action = FR_ACT_TO_TBL, .table = RT_TABLE_MAIN, .has_priority = true, .priority = 32766 },
	{ .action = FR_ACT_TO_TBL, .table = RT_TABLE_DEFAULT, .has_priority = true, .priority = 32767 },
};

int route_model_output(const struct net_state *st, const struct net_ip *peer,
		       const struct net_ip *src, int oif, struct route_answer *ans)
{
	const struct net_rule *rules = st->rules;
	size_t nrules = st->nrules;
	bool dflt = false;
	int rc = -ENETUNREACH;

	memset(ans, 0, sizeof(*ans));
	ans->from_model = true;
	if (!route_family_len(peer->family) || (src && src->family && src->family != peer->family))
		return -EINVAL;
	/* The kernel refuses a source address that is not ours. */
	if (src && src->family && !net_addr_find(st, src)) {
		ans->error = EINVAL;
		return -EINVAL;
	}
	if (!nrules) {
		rules = default_rules;
		nrules = ARRAY_SIZE(default_rules);
		dflt = true;
	}
	for (size_t i = 0; i < nrules; i++) {
		struct net_rule dr;
		const struct net_rule *r = &rules[i];
		const struct net_route *rt;

		if (dflt) {
			dr = *r;
			dr.family = peer->family;
			r = &dr;
		}
		if (!rule_matches(st, r, peer, src, oif))
			continue;
		switch (r->action) {
		case FR_ACT_TO_TBL:
			rt = table_lookup(st, r->table, peer, oif);
			if (!rt || rt->type == RTN_THROW)
				continue;
			rc = model_fill(st, rt, src, ans);
			goto done;
		case FR_ACT_UNREACHABLE: rc = -ENETUNREACH; goto done;
		case FR_ACT_PROHIBIT: rc = -EACCES; goto done;
		case FR_ACT_BLACKHOLE: rc = -EINVAL; goto done;
		default: continue;	/* goto/nop: not modelled, like a non-match */
		}
	}
done:
	if (rc)
		ans->error = -rc;
	ans->from_model = true;
	return rc;
}

/* The model has no input-side check: a lookup without one says so. */
static int model_output(const struct net_state *st, const struct net_ip *peer, const struct net_ip *src,
			int oif, struct route_answer *ans)
{
	return route_model_output(st, peer, src, oif, ans);
}

const struct route_ops route_model_ops = {
	.name = "model",
	.output = model_output,
	.input = NULL,
};
