// SPDX-License-Identifier: GPL-2.0-or-later
/* Parse rtnetlink link/addr/route/rule/neigh messages into the net model, checked against policy tables. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/fib_rules.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "kernel/nl_parse.h"
#include "util.h"


/* The payload of an attribute must be this. */
enum nl_pol_kind {
	POL_NONE = 0,		/* not ours: skipped */
	POL_U8,
	POL_U16,
	POL_U32,
	POL_STR,		/* NUL-terminated within max bytes */
	POL_BIN,		/* at most max bytes */
	POL_ADDR,		/* exactly the family's address length */
	POL_NESTED,		/* well-formed attributes inside */
};

struct nl_policy {
	enum nl_pol_kind kind;
	uint16_t max;		/* POL_STR/POL_BIN: bytes, NUL included */
};

#define TB_MAX 64	/* larger than every attribute type we use */

static size_t family_len(uint8_t family)
{
	return family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
}

static bool attr_valid(const struct nlattr *a, const struct nl_policy *p, uint8_t family)
{
	size_t len = a->nla_len - NLA_HDRLEN;
	const char *data = (const char *)a + NLA_HDRLEN;

	switch (p->kind) {
	case POL_U8: return len >= 1;
	case POL_U16: return len >= 2;
	case POL_U32: return len >= 4;
	case POL_STR: return len >= 1 && len <= p->max && memchr(data, '\0', len);
	case POL_BIN: return len <= p->max;
	case POL_ADDR: return family_len(family) && len == family_len(family);
	case POL_NESTED: return true;	/* checked when opened */
	default: return true;
	}
}

/*
 * Walk the attributes in [buf, buf+len) into tb by type. Every attribute
 * must fit; types without a policy entry are skipped; one that breaks its
 * policy rejects the message (-EBADMSG).
 */
static int nl_attrs(const void *buf, size_t len, const struct nl_policy *pol, size_t npol,
		    uint8_t family, const struct nlattr **tb)
{
	const char *p = buf;

	memset(tb, 0, TB_MAX * sizeof(*tb));
	while (len > 0) {
		const struct nlattr *a = (const struct nlattr *)(const void *)p;
		size_t alen, step;
		uint16_t type;

		if (len < NLA_HDRLEN)
			return -EBADMSG;
		alen = a->nla_len;
		if (alen < NLA_HDRLEN || alen > len)
			return -EBADMSG;
		type = a->nla_type & NLA_TYPE_MASK;
		if (type < npol && type < TB_MAX && pol[type].kind != POL_NONE) {
			if (!attr_valid(a, &pol[type], family))
				return -EBADMSG;
			tb[type] = a;
		}
		step = NLA_ALIGN(alen);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

static const void *attr_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static size_t attr_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static uint8_t attr_u8(const struct nlattr *a)
{
	return *(const uint8_t *)attr_data(a);
}

static uint16_t attr_u16(const struct nlattr *a)
{
	uint16_t v;

	memcpy(&v, attr_data(a), sizeof(v));
	return v;
}

static uint32_t attr_u32(const struct nlattr *a)
{
	uint32_t v;

	memcpy(&v, attr_data(a), sizeof(v));
	return v;
}

static void attr_str(const struct nlattr *a, char *buf, size_t size)
{
	const char *s = attr_data(a);
	size_t n = strnlen(s, attr_len(a));

	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	util_clean(buf);
}

static void attr_ip(const struct nlattr *a, uint8_t family, struct net_ip *ip)
{
	ip->family = family;
	memcpy(ip->bytes, attr_data(a), family_len(family));
}

/* The fixed header after nlmsghdr must fit; returns a pointer to it or NULL. */
static const void *msg_header(const struct nlmsghdr *nlh, size_t hdrlen, const void **attrs, size_t *alen)
{
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(hdrlen);

	if (nlh->nlmsg_len < NLMSG_HDRLEN + hdrlen)
		return NULL;
	if (nlh->nlmsg_len < off) {
		*attrs = NULL;
		*alen = 0;
	} else {
		*attrs = (const char *)nlh + off;
		*alen = nlh->nlmsg_len - off;
	}
	return (const char *)nlh + NLMSG_HDRLEN;
}

/* IFLA_* we use (include/uapi/linux/if_link.h). */
static const struct nl_policy link_policy[] = {
	[IFLA_ADDRESS] = { POL_BIN, 32 },
	[IFLA_IFNAME] = { POL_STR, IFNAMSIZ },
	[IFLA_MTU] = { POL_U32, 0 },
	[IFLA_LINK] = { POL_U32, 0 },
	[IFLA_MASTER] = { POL_U32, 0 },
	[IFLA_OPERSTATE] = { POL_U8, 0 },
	[IFLA_LINKINFO] = { POL_NESTED, 0 },
};

static const struct nl_policy linkinfo_policy[] = {
	[IFLA_INFO_KIND] = { POL_STR, 64 },
	[IFLA_INFO_DATA] = { POL_NESTED, 0 },
};

static const struct nl_policy ipoib_policy[] = {
	[IFLA_IPOIB_PKEY] = { POL_U16, 0 },
	[IFLA_IPOIB_MODE] = { POL_U16, 0 },
};

int nl_parse_link(const struct nlmsghdr *nlh, struct net_link *out)
{
	const struct nlattr *tb[TB_MAX], *li[TB_MAX];
	const struct ifinfomsg *ifi;
	const void *attrs;
	size_t alen;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return -ENOENT;
	ifi = msg_header(nlh, sizeof(*ifi), &attrs, &alen);
	if (!ifi)
		return -EBADMSG;
	if (ifi->ifi_family == AF_BRIDGE)
		return -ENOENT;
	if (nl_attrs(attrs, alen, link_policy, ARRAY_SIZE(link_policy), 0, tb))
		return -EBADMSG;
	if (!tb[IFLA_IFNAME] || ifi->ifi_index <= 0)
		return -EBADMSG;
	memset(out, 0, sizeof(*out));
	out->ifindex = ifi->ifi_index;
	out->type = ifi->ifi_type;
	out->flags = ifi->ifi_flags;
	out->ipoib_pkey = -1;
	attr_str(tb[IFLA_IFNAME], out->name, sizeof(out->name));
	if (tb[IFLA_MTU])
		out->mtu = attr_u32(tb[IFLA_MTU]);
	if (tb[IFLA_LINK])
		out->link = (int)attr_u32(tb[IFLA_LINK]);
	if (tb[IFLA_MASTER])
		out->master = (int)attr_u32(tb[IFLA_MASTER]);
	if (tb[IFLA_OPERSTATE])
		out->operstate = attr_u8(tb[IFLA_OPERSTATE]);
	if (tb[IFLA_ADDRESS]) {
		out->hwaddr_len = (uint8_t)attr_len(tb[IFLA_ADDRESS]);
		memcpy(out->hwaddr, attr_data(tb[IFLA_ADDRESS]), out->hwaddr_len);
	}
	if (tb[IFLA_LINKINFO]) {
		if (nl_attrs(attr_data(tb[IFLA_LINKINFO]), attr_len(tb[IFLA_LINKINFO]),
			     linkinfo_policy, ARRAY_SIZE(linkinfo_policy), 0, li))
			return -EBADMSG;
		if (li[IFLA_INFO_KIND])
			attr_str(li[IFLA_INFO_KIND], out->kind, sizeof(out->kind));
		if (li[IFLA_INFO_DATA] && !strcmp(out->kind, "ipoib")) {
			const struct nlattr *ib[TB_MAX];

			if (nl_attrs(attr_data(li[IFLA_INFO_DATA]), attr_len(li[IFLA_INFO_DATA]),
				     ipoib_policy, ARRAY_SIZE(ipoib_policy), 0, ib))
				return -EBADMSG;
			if (ib[IFLA_IPOIB_PKEY])
				out->ipoib_pkey = attr_u16(ib[IFLA_IPOIB_PKEY]);
			if (ib[IFLA_IPOIB_MODE])
				out->ipoib_mode = attr_u16(ib[IFLA_IPOIB_MODE]) == IPOIB_MODE_CONNECTED ?
						  NET_IPOIB_CONNECTED : NET_IPOIB_DATAGRAM;
		}
	}
	return 0;
}

static const struct nl_policy addr_policy[] = {
	[IFA_ADDRESS] = { POL_ADDR, 0 },
	[IFA_LOCAL] = { POL_ADDR, 0 },
	[IFA_LABEL] = { POL_STR, IFNAMSIZ },
	[IFA_FLAGS] = { POL_U32, 0 },
};

int nl_parse_addr(const struct nlmsghdr *nlh, struct net_addr *out)
{
	const struct nlattr *tb[TB_MAX];
	const struct ifaddrmsg *ifa;
	const void *attrs;
	size_t alen;
	struct net_ip address = { 0 };

	if (nlh->nlmsg_type != RTM_NEWADDR)
		return -ENOENT;
	ifa = msg_header(nlh, sizeof(*ifa), &attrs, &alen);
	if (!ifa)
		return -EBADMSG;
	if (!family_len(ifa->ifa_family))
		return -ENOENT;
	if (ifa->ifa_prefixlen > family_len(ifa->ifa_family) * 8)
		return -EBADMSG;
	if (nl_attrs(attrs, alen, addr_policy, ARRAY_SIZE(addr_policy), ifa->ifa_family, tb))
		return -EBADMSG;
	if (!tb[IFA_ADDRESS] && !tb[IFA_LOCAL])
		return -EBADMSG;
	memset(out, 0, sizeof(*out));
	out->ifindex = (int)ifa->ifa_index;
	out->prefixlen = ifa->ifa_prefixlen;
	out->scope = ifa->ifa_scope;
	out->flags = tb[IFA_FLAGS] ? attr_u32(tb[IFA_FLAGS]) : ifa->ifa_flags;
	if (tb[IFA_ADDRESS])
		attr_ip(tb[IFA_ADDRESS], ifa->ifa_family, &address);
	if (tb[IFA_LOCAL]) {
		attr_ip(tb[IFA_LOCAL], ifa->ifa_family, &out->local);
		/* IFA_ADDRESS differs from IFA_LOCAL only on point-to-point links. */
		if (tb[IFA_ADDRESS] && !net_ip_eq(&address, &out->local))
			out->peer = address;
	} else {
		out->local = address;
	}
	if (tb[IFA_LABEL])
		attr_str(tb[IFA_LABEL], out->label, sizeof(out->label));
	return 0;
}

static const struct nl_policy route_policy[] = {
	[RTA_DST] = { POL_ADDR, 0 },
	[RTA_SRC] = { POL_ADDR, 0 },
	[RTA_OIF] = { POL_U32, 0 },
	[RTA_GATEWAY] = { POL_ADDR, 0 },
	[RTA_PRIORITY] = { POL_U32, 0 },
	[RTA_PREFSRC] = { POL_ADDR, 0 },
	[RTA_TABLE] = { POL_U32, 0 },
	[RTA_METRICS] = { POL_NESTED, 0 },
	[RTA_MULTIPATH] = { POL_BIN, UINT16_MAX },
	[RTA_FLOW] = { POL_U32, 0 },
	[RTA_CACHEINFO] = { POL_BIN, UINT16_MAX },
	[RTA_PREF] = { POL_U8, 0 },
	[RTA_ENCAP] = { POL_BIN, UINT16_MAX },
	[RTA_VIA] = { POL_BIN, UINT16_MAX },
	[RTA_NEWDST] = { POL_BIN, UINT16_MAX },
	[RTA_NH_ID] = { POL_U32, 0 },
};

static const struct nl_policy metrics_policy[] = {
	[RTAX_LOCK ... RTAX_INITRWND] = { POL_U32, 0 },
	[RTAX_QUICKACK] = { POL_U32, 0 },
	[RTAX_CC_ALGO] = { POL_STR, 16 },
	[RTAX_FASTOPEN_NO_COOKIE] = { POL_U32, 0 },
};

/* RTA_METRICS into r->metrics; a metric this table does not know makes the route inexact. */
static int parse_metrics(const struct nlattr *a, uint8_t family, struct net_route *r)
{
	const struct nlattr *mx[TB_MAX];
	const char *p = attr_data(a);
	size_t len = attr_len(a);

	if (nl_attrs(p, len, metrics_policy, ARRAY_SIZE(metrics_policy), family, mx))
		return -EBADMSG;
	for (unsigned int i = 1; i < ARRAY_SIZE(metrics_policy) && i < NET_RTAX_N; i++) {
		if (!mx[i])
			continue;
		r->metrics_set |= 1u << i;
		if (i == RTAX_CC_ALGO)
			attr_str(mx[i], r->congctl, sizeof(r->congctl));
		else
			r->metrics[i] = attr_u32(mx[i]);
	}
	/* metrics past the table (a newer kernel's): seen, not printable */
	while (len >= NLA_HDRLEN) {
		const struct nlattr *m = (const struct nlattr *)(const void *)p;
		size_t step = NLA_ALIGN(m->nla_len);

		if ((m->nla_type & NLA_TYPE_MASK) >= ARRAY_SIZE(metrics_policy))
			r->inexact |= NET_ROUTE_METRIC;
		if (m->nla_len < NLA_HDRLEN || step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

static int parse_route(const struct nlmsghdr *nlh, struct net_route *out, bool answer)
{
	const struct nlattr *tb[TB_MAX];
	const struct rtmsg *rtm;
	const void *attrs;
	size_t alen;

	if (nlh->nlmsg_type != RTM_NEWROUTE)
		return -ENOENT;
	rtm = msg_header(nlh, sizeof(*rtm), &attrs, &alen);
	if (!rtm)
		return -EBADMSG;
	if (!family_len(rtm->rtm_family))
		return -ENOENT;
	/* Cached clones (IPv6 exceptions) are not configuration; a lookup's answer is one. */
	if ((rtm->rtm_flags & RTM_F_CLONED) && !answer)
		return -ENOENT;
	if (rtm->rtm_dst_len > family_len(rtm->rtm_family) * 8 ||
	    rtm->rtm_src_len > family_len(rtm->rtm_family) * 8)
		return -EBADMSG;
	if (nl_attrs(attrs, alen, route_policy, ARRAY_SIZE(route_policy), rtm->rtm_family, tb))
		return -EBADMSG;
	memset(out, 0, sizeof(*out));
	out->family = rtm->rtm_family;
	out->dst_len = rtm->rtm_dst_len;
	out->src_len = rtm->rtm_src_len;
	out->tos = rtm->rtm_tos;
	out->type = rtm->rtm_type;
	out->protocol = rtm->rtm_protocol;
	out->scope = rtm->rtm_scope;
	out->table = tb[RTA_TABLE] ? attr_u32(tb[RTA_TABLE]) : rtm->rtm_table;
	if (tb[RTA_DST])
		attr_ip(tb[RTA_DST], rtm->rtm_family, &out->dst);
	else if (rtm->rtm_dst_len)
		return -EBADMSG;	/* a prefix length without a prefix */
	if (tb[RTA_SRC])
		attr_ip(tb[RTA_SRC], rtm->rtm_family, &out->src);
	if (tb[RTA_PREFSRC])
		attr_ip(tb[RTA_PREFSRC], rtm->rtm_family, &out->prefsrc);
	if (tb[RTA_GATEWAY])
		attr_ip(tb[RTA_GATEWAY], rtm->rtm_family, &out->gateway);
	if (tb[RTA_OIF])
		out->oif = (int)attr_u32(tb[RTA_OIF]);
	if (tb[RTA_PRIORITY]) {
		out->has_priority = true;
		out->priority = attr_u32(tb[RTA_PRIORITY]);
	}
	out->flags = rtm->rtm_flags;
	if (tb[RTA_METRICS] && parse_metrics(tb[RTA_METRICS], rtm->rtm_family, out))
		out->inexact |= NET_ROUTE_METRIC;	/* the route stands; its metrics cannot be said */
	if (tb[RTA_PREF]) {
		out->has_pref = true;
		out->pref = attr_u8(tb[RTA_PREF]);
	}
	if (tb[RTA_FLOW]) {
		out->has_realms = true;
		out->realms = attr_u32(tb[RTA_FLOW]);
	}
	if (tb[RTA_NH_ID])
		out->nhid = attr_u32(tb[RTA_NH_ID]);
	if (tb[RTA_MULTIPATH])
		out->inexact |= NET_ROUTE_MULTIPATH;
	if (tb[RTA_ENCAP])
		out->inexact |= NET_ROUTE_ENCAP;
	if (tb[RTA_VIA] || tb[RTA_NEWDST])
		out->inexact |= NET_ROUTE_VIA;
	if (tb[RTA_CACHEINFO]) {
		struct rta_cacheinfo ci;

		if (attr_len(tb[RTA_CACHEINFO]) >= sizeof(ci)) {
			memcpy(&ci, attr_data(tb[RTA_CACHEINFO]), sizeof(ci));
			if (ci.rta_expires)
				out->inexact |= NET_ROUTE_EXPIRES;
		}
	}
	return 0;
}

int nl_parse_route(const struct nlmsghdr *nlh, struct net_route *out)
{
	return parse_route(nlh, out, false);
}

int nl_parse_route_answer(const struct nlmsghdr *nlh, struct net_route *out)
{
	return parse_route(nlh, out, true);
}

static const struct nl_policy rule_policy[] = {
	[FRA_DST] = { POL_ADDR, 0 },
	[FRA_SRC] = { POL_ADDR, 0 },
	[FRA_IIFNAME] = { POL_STR, IFNAMSIZ },
	[FRA_PRIORITY] = { POL_U32, 0 },
	[FRA_FWMARK] = { POL_U32, 0 },
	[FRA_TABLE] = { POL_U32, 0 },
	[FRA_FWMASK] = { POL_U32, 0 },
	[FRA_OIFNAME] = { POL_STR, IFNAMSIZ },
};

int nl_parse_rule(const struct nlmsghdr *nlh, struct net_rule *out)
{
	const struct nlattr *tb[TB_MAX];
	const struct fib_rule_hdr *frh;
	const void *attrs;
	size_t alen;

	if (nlh->nlmsg_type != RTM_NEWRULE)
		return -ENOENT;
	frh = msg_header(nlh, sizeof(*frh), &attrs, &alen);
	if (!frh)
		return -EBADMSG;
	if (!family_len(frh->family))
		return -ENOENT;
	if (frh->src_len > family_len(frh->family) * 8 || frh->dst_len > family_len(frh->family) * 8)
		return -EBADMSG;
	if (nl_attrs(attrs, alen, rule_policy, ARRAY_SIZE(rule_policy), frh->family, tb))
		return -EBADMSG;
	if ((frh->src_len && !tb[FRA_SRC]) || (frh->dst_len && !tb[FRA_DST]))
		return -EBADMSG;
	memset(out, 0, sizeof(*out));
	out->family = frh->family;
	out->action = frh->action;
	out->src_len = frh->src_len;
	out->dst_len = frh->dst_len;
	out->tos = frh->tos;
	out->invert = frh->flags & FIB_RULE_INVERT;
	out->table = tb[FRA_TABLE] ? attr_u32(tb[FRA_TABLE]) : frh->table;
	if (tb[FRA_PRIORITY]) {
		out->has_priority = true;
		out->priority = attr_u32(tb[FRA_PRIORITY]);
	}
	if (tb[FRA_SRC])
		attr_ip(tb[FRA_SRC], frh->family, &out->src);
	if (tb[FRA_DST])
		attr_ip(tb[FRA_DST], frh->family, &out->dst);
	if (tb[FRA_FWMARK]) {
		out->has_fwmark = true;
		out->fwmark = attr_u32(tb[FRA_FWMARK]);
		out->fwmask = tb[FRA_FWMASK] ? attr_u32(tb[FRA_FWMASK]) : 0xffffffffu;
	}
	if (tb[FRA_IIFNAME])
		attr_str(tb[FRA_IIFNAME], out->iifname, sizeof(out->iifname));
	if (tb[FRA_OIFNAME])
		attr_str(tb[FRA_OIFNAME], out->oifname, sizeof(out->oifname));
	return 0;
}

static const struct nl_policy neigh_policy[] = {
	[NDA_DST] = { POL_ADDR, 0 },
	[NDA_LLADDR] = { POL_BIN, NET_HWADDR_MAX },
};

int nl_parse_neigh(const struct nlmsghdr *nlh, struct net_neigh *out)
{
	const struct nlattr *tb[TB_MAX];
	const struct ndmsg *ndm;
	const void *attrs;
	size_t alen;

	if (nlh->nlmsg_type != RTM_NEWNEIGH)
		return -ENOENT;
	ndm = msg_header(nlh, sizeof(*ndm), &attrs, &alen);
	if (!ndm)
		return -EBADMSG;
	if (!family_len(ndm->ndm_family))
		return -ENOENT;
	if (nl_attrs(attrs, alen, neigh_policy, ARRAY_SIZE(neigh_policy), ndm->ndm_family, tb))
		return -EBADMSG;
	if (!tb[NDA_DST])
		return -EBADMSG;
	memset(out, 0, sizeof(*out));
	out->ifindex = ndm->ndm_ifindex;
	out->family = ndm->ndm_family;
	out->state = ndm->ndm_state;
	attr_ip(tb[NDA_DST], ndm->ndm_family, &out->dst);
	if (tb[NDA_LLADDR]) {
		out->lladdr_len = (uint8_t)attr_len(tb[NDA_LLADDR]);
		memcpy(out->lladdr, attr_data(tb[NDA_LLADDR]), out->lladdr_len);
	}
	return 0;
}

int nl_attrs_walk(const void *buf, size_t len, int (*cb)(const struct nlattr *a, void *arg), void *arg)
{
	const char *p = buf;

	while (len >= sizeof(struct nlattr)) {
		const struct nlattr *a = (const struct nlattr *)(const void *)p;
		size_t step;
		int rc;

		if (!mnl_attr_ok(a, (int)len))
			return -EBADMSG;
		rc = cb(a, arg);
		if (rc)
			return rc;
		step = MNL_ALIGN(a->nla_len);
		if (step >= len)
			return 0;
		p += step;
		len -= step;
	}
	return len ? -EBADMSG : 0;
}

int nl_msgs_walk(const void *buf, size_t len, int (*cb)(const struct nlmsghdr *nlh, void *arg), void *arg)
{
	const char *p = buf;

	while (len > 0) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)(const void *)p;
		size_t step;
		int rc;

		if (!nl_msg_ok(p, len))
			return -EBADMSG;
		rc = cb(nlh, arg);
		if (rc)
			return rc;
		step = NLMSG_ALIGN(nlh->nlmsg_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

int nl_msg_control(const struct nlmsghdr *nlh, bool *ended)
{
	if (nlh->nlmsg_type == NLMSG_DONE) {
		*ended = true;
		return NL_WALK_END;
	}
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = (const struct nlmsgerr *)(const void *)((const char *)nlh + NLMSG_HDRLEN);

		if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e))
			return -EBADMSG;
		return e->error;	/* 0: an acknowledgement, the walk goes on */
	}
	return -ENOENT;
}

int nl_msg_ok(const void *buf, size_t len)
{
	const struct nlmsghdr *nlh = buf;

	return len >= sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) && nlh->nlmsg_len <= len;
}

/* Grow an array by one element; NULL on allocation failure. */
static void *grow(void **arr, size_t *n, size_t elem)
{
	size_t cap = *n;
	char *p;

	/* capacity doubles at powers of two: 1, 2, 4, ... */
	if (*n == 0 || (cap & (cap - 1)) == 0) {
		p = realloc(*arr, (*n ? *n * 2 : 16) * elem);
		if (!p)
			return NULL;
		*arr = p;
	}
	p = (char *)*arr + *n * elem;
	(*n)++;
	return p;
}

#define GROW(arr, n) grow((void **)&(arr), &(n), sizeof(*(arr)))

static int parse_one(const struct nlmsghdr *nlh, void *arg)
{
	struct net_state *st = arg;
	union {
		struct net_link l;
		struct net_addr a;
		struct net_route r;
		struct net_rule u;
		struct net_neigh n;
	} v;
	int rc;
	void *slot;

	switch (nlh->nlmsg_type) {
	case RTM_NEWLINK:
		rc = nl_parse_link(nlh, &v.l);
		if (rc)
			return rc;
		if (!(slot = GROW(st->links, st->nlinks)))
			return -ENOMEM;
		memcpy(slot, &v.l, sizeof(v.l));
		return 0;
	case RTM_NEWADDR:
		rc = nl_parse_addr(nlh, &v.a);
		if (rc)
			return rc;
		if (!(slot = GROW(st->addrs, st->naddrs)))
			return -ENOMEM;
		memcpy(slot, &v.a, sizeof(v.a));
		return 0;
	case RTM_NEWROUTE:
		rc = nl_parse_route(nlh, &v.r);
		if (rc)
			return rc;
		if (!(slot = GROW(st->routes, st->nroutes)))
			return -ENOMEM;
		memcpy(slot, &v.r, sizeof(v.r));
		return 0;
	case RTM_NEWRULE:
		rc = nl_parse_rule(nlh, &v.u);
		if (rc)
			return rc;
		if (!(slot = GROW(st->rules, st->nrules)))
			return -ENOMEM;
		memcpy(slot, &v.u, sizeof(v.u));
		return 0;
	case RTM_NEWNEIGH:
		rc = nl_parse_neigh(nlh, &v.n);
		if (rc)
			return rc;
		if (!(slot = GROW(st->neighs, st->nneighs)))
			return -ENOMEM;
		memcpy(slot, &v.n, sizeof(v.n));
		return 0;
	default:
		return -ENOENT;
	}
}

struct dump_walk {
	int (*parse)(const struct nlmsghdr *nlh, void *arg);
	void *arg;
	bool ended;		/* NLMSG_DONE came */
	int bad;		/* -EBADMSG when a message was skipped */
};

static int dump_one(const struct nlmsghdr *nlh, void *arg)
{
	struct dump_walk *w = arg;
	int rc = nl_msg_control(nlh, &w->ended);

	if (rc != -ENOENT)
		return rc;
	rc = w->parse(nlh, w->arg);
	if (rc == -ENOMEM)
		return rc;
	/* One bad message is skipped; the caller learns it happened. */
	if (rc == -EBADMSG)
		w->bad = -EBADMSG;
	return 0;
}

int nl_dump_walk(const void *buf, size_t len, int (*parse)(const struct nlmsghdr *nlh, void *arg), void *arg,
		 int *done)
{
	struct dump_walk w = { .parse = parse, .arg = arg };
	int rc = nl_msgs_walk(buf, len, dump_one, &w);

	if (w.ended) {
		if (done)
			*done = 1;
		return w.bad;
	}
	return rc ? rc : w.bad;
}

int nl_parse_buf(const void *buf, size_t len, struct net_state *st, int *done)
{
	return nl_dump_walk(buf, len, parse_one, st, done);
}
