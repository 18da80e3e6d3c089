// SPDX-License-Identifier: GPL-2.0-or-later
/* `ip route get PEER from SRC` as a function, asked of the kernel of this network namespace. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/fib_rules.h>
#include <net/if.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "kernel/nl_parse.h"
#include "kernel/nl_sock.h"
#include "kernel/route_query.h"

#define QUERY_BUF	8192	/* one route answer */

static void answer_reset(struct route_answer *ans)
{
	memset(ans, 0, sizeof(*ans));
}

static int query(const struct net_ip *peer, const struct net_ip *src, int oif, int iif,
		 struct route_answer *ans);

/* route_query() with parsed arguments; oif 0 and src family 0 mean "unset". */
static int route_query_ip(const struct net_ip *peer, const struct net_ip *src, int oif, struct route_answer *ans)
{
	return query(peer, src, oif, 0, ans);
}

/*
 * The input side, as `ip route get DST from SRC iif IFACE`: would the kernel
 * accept a packet from SRC to DST arriving on iif? Strict rp_filter and
 * martian checks refuse it (-EINVAL or -EXDEV). Returns 0 when accepted.
 */
static int route_query_input(const struct net_ip *dst, const struct net_ip *src, int iif, struct route_answer *ans)
{
	if (iif <= 0 || !src || !src->family)
		return -EINVAL;
	return query(dst, src, 0, iif, ans);
}

/* What the answer buffer said: 0 with ans filled, or an error (its first message decides). */
struct answer {
	struct route_answer *ans;
	int rc;
};

static int answer_cb(const void *buf, size_t len, void *arg)
{
	const struct nlmsghdr *m = buf;
	struct answer *a = arg;
	struct route_answer *ans = a->ans;
	struct net_route r;

	(void)len;	/* nl_sock_ask() hands over whole messages only */
	if (m->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(m);

		a->rc = m->nlmsg_len >= NLMSG_HDRLEN + sizeof(*e) && e->error ? e->error : -EBADMSG;
		return NL_WALK_END;
	}
	if (nl_parse_route_answer(m, &r)) {
		a->rc = -EBADMSG;
		return NL_WALK_END;
	}
	ans->oif = r.oif;
	/* With a source given the kernel echoes it as RTA_SRC, not PREFSRC. */
	ans->src = r.prefsrc.family ? r.prefsrc : r.src;
	ans->gateway = r.gateway;
	ans->table = r.table;
	ans->type = r.type;
	if (ans->oif <= 0 || !if_indextoname((unsigned int)ans->oif, ans->oif_name))
		ans->oif_name[0] = '\0';
	return NL_WALK_END;
}

/* One RTM_GETROUTE request and its answer. */
static int query(const struct net_ip *peer, const struct net_ip *src, int oif, int iif,
		 struct route_answer *ans)
{
	struct answer a = { .ans = ans };
	struct nl_sock s;
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	int rc;

	answer_reset(ans);
	if (!route_family_len(peer->family) || (src && src->family && src->family != peer->family))
		return -EINVAL;
	rc = nl_sock_open(&s, NETLINK_ROUTE, 0, QUERY_BUF);
	if (rc)
		goto out;
	/* the answer is one message: one that is not whole is an error, not skipped */
	s.strict = true;
	nlh = nl_sock_request(&s, RTM_GETROUTE, 0);
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = peer->family;
	rtm->rtm_dst_len = (unsigned char)(route_family_len(peer->family) * 8);
	/* Report the table the lookup ended in, as `ip route get` shows it. */
	rtm->rtm_flags = RTM_F_LOOKUP_TABLE;
	mnl_attr_put(nlh, RTA_DST, route_family_len(peer->family), peer->bytes);
	if (src && src->family) {
		mnl_attr_put(nlh, RTA_SRC, route_family_len(src->family), src->bytes);
		rtm->rtm_src_len = (unsigned char)(route_family_len(src->family) * 8);
	}
	if (oif > 0)
		mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)oif);
	if (iif > 0)
		mnl_attr_put_u32(nlh, RTA_IIF, (uint32_t)iif);
	rc = nl_sock_ask(&s, nlh, answer_cb, &a);
	if (!rc)
		rc = a.rc;
	nl_sock_close(&s);
out:
	if (rc)
		ans->error = -rc;
	return rc;
}

int route_query(const char *peer, const char *src_or_iface, struct route_answer *ans)
{
	struct net_ip p, s = { 0 };
	int oif = 0;

	answer_reset(ans);
	if (net_ip_parse(peer, &p))
		return -EINVAL;
	if (src_or_iface && src_or_iface[0] && net_ip_parse(src_or_iface, &s)) {
		if (strlen(src_or_iface) >= IFNAMSIZ)
			return -ENODEV;
		oif = (int)if_nametoindex(src_or_iface);
		if (oif <= 0)
			return -ENODEV;
	}
	return route_query_ip(&p, &s, oif, ans);
}

static int kernel_output(const struct net_state *st, const struct net_ip *peer, const struct net_ip *src,
			 int oif, struct route_answer *ans)
{
	return route_query_ip(peer, src, oif, ans);
}

static int kernel_input(const struct net_state *st, const struct net_ip *dst, const struct net_ip *src,
			int iif, struct route_answer *ans)
{
	return route_query_input(dst, src, iif, ans);
}

static const struct route_ops kernel_ops = {
	.name = "kernel",
	.output = kernel_output,
	.input = kernel_input,
};

const struct route_ops *route_query_ops(const struct net_state *st)
{
	return st->live ? &kernel_ops : &route_model_ops;
}
