// SPDX-License-Identifier: GPL-2.0-or-later
/* Replay recorded rtnetlink dumps of the same-subnet host through the parsers, the route model, the doctor and the fixes; then malformed ones. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/fib_rules.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/net_fixture.h"
#include "../unit/tap.h"
#include "kernel/nl_parse.h"
#include "kernel/route_query.h"
#include "derive/doctor.h"
#include "derive/fix.h"
#include "util.h"

static const char *const kinds[] = { "link", "addr", "route", "rule", "neigh" };

/* Load one recorded state; the dumps hold several recv() buffers back to back. */
static int load(const char *dir, struct net_state *st)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[4096];
	int rc = 0;

	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		size_t len;
		unsigned char *buf;
		int done = 0;

		snprintf(path, sizeof(path), "%s/tests/data/netlink/%s/%s.bin", top ? top : ".", dir, kinds[i]);
		buf = tap_slurp(path, &len);
		if (!buf)
			return -ENOENT;
		rc = nl_parse_buf(buf, len, st, &done);
		free(buf);
		if (rc)
			return rc;
	}
	return 0;
}

static int ifindex_of(const struct net_state *st, const char *name)
{
	const struct net_link *l = net_link_by_name(st, name);

	return l ? l->ifindex : -1;
}

static size_t count_findings(const struct doctor_report *r, enum doctor_id id, const char *ifname)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nfindings; i++)
		if (r->findings[i].id == id && (!ifname || !strcmp(r->findings[i].ifname, ifname)))
			n++;
	return n;
}

static void test_before(void)
{
	struct net_state st;
	struct fab_host host = { 0 };
	struct doctor_report rep;
	struct route_answer ans;
	struct net_ip peer = ip4("172.16.16.1"), k2 = ip4("172.16.34.2"), k1 = ip4("172.16.34.1");
	size_t main_routes = 0, first = (size_t)-1;
	struct fix_plan plan;
	int rc;

	rc = load("seed-before", &st);
	ASSERT_EQ_INT(rc, 0, "seed-before: every recorded message parses");
	TAP_OK(ifindex_of(&st, "ib0") > 0 && ifindex_of(&st, "ib1") > 0, "links ib0 and ib1 are there (ifindex %d, %d)",
	       ifindex_of(&st, "ib0"), ifindex_of(&st, "ib1"));
	ASSERT_EQ_U64(st.nlinks, 3, "three links (lo, ib0, ib1)");
	{
		const struct net_addr *a = net_addr_find(&st, &k2);

		TAP_OK(a && a->ifindex == ifindex_of(&st, "ib1") && a->prefixlen == 16,
		       "172.16.34.2/16 is on ib1 (ifindex %d, ib1's %d, /%d)", a ? a->ifindex : -1,
		       ifindex_of(&st, "ib1"), a ? a->prefixlen : -1);
	}
	for (size_t i = 0; i < st.nroutes; i++) {
		const struct net_route *r = &st.routes[i];
		char b[64];

		if (r->table == RT_TABLE_MAIN && r->dst_len == 16 &&
		    !strcmp(net_ip_str(&r->dst, b, sizeof(b)), "172.16.0.0")) {
			if (!main_routes)
				first = i;
			main_routes++;
		}
	}
	ASSERT_EQ_U64(main_routes, 2, "two main-table routes for 172.16.0.0/16");
	TAP_OK(first != (size_t)-1 && st.routes[first].oif == ifindex_of(&st, "ib0"),
	       "the first one is ib0's (the one the kernel uses) (oif %d, ib0's %d)",
	       first != (size_t)-1 ? st.routes[first].oif : -1, ifindex_of(&st, "ib0"));
	{
		size_t v4 = 0;

		for (size_t i = 0; i < st.nrules; i++)
			v4 += st.rules[i].family == AF_INET;
		ASSERT_EQ_U64(v4, 3, "the three default IPv4 rules");
	}

	rc = route_model_output(&st, &peer, &k2, 0, &ans);
	ASSERT_EQ_INT(rc, 0, "model: a route from 172.16.34.2");
	ASSERT_EQ_STR(ans.oif_name, "ib0", "model: from 172.16.34.2 leaves by ib0 (as the kernel said)");
	ASSERT_EQ_U64(ans.table, RT_TABLE_MAIN, "model: decided by the main table");
	rc = route_model_output(&st, &peer, NULL, 0, &ans);
	ASSERT_EQ_STR(ans.oif_name, "ib0", "model: unbound traffic leaves by ib0");
	{
		char b[64];

		ASSERT_EQ_STR(net_ip_str(&ans.src, b, sizeof(b)), "172.16.34.1", "model: unbound source is ib0's prefsrc");
	}
	rc = route_model_output(&st, &peer, &k1, ifindex_of(&st, "ib1"), &ans);
	ASSERT_EQ_STR(ans.oif_name, "ib1", "model: oif ib1 forces ib1");
	{
		struct net_ip stranger = ip4("10.9.9.9");

		rc = route_model_output(&st, &peer, &stranger, 0, &ans);
		ASSERT_EQ_INT(rc, -EINVAL, "model: a source that is not ours is refused, as the kernel does");
	}
	{
		struct net_ip lo = ip4("172.16.34.1");

		rc = route_model_output(&st, &lo, NULL, 0, &ans);
		ASSERT_EQ_U64(ans.type, RTN_LOCAL, "model: a local peer is local (table local)");
	}

	net_mark_rdma_name(&st, "ib0");
	net_mark_rdma_name(&st, "ib1");
	rc = doctor_run(&(struct doctor_input){ .host = &host, .net = &st, .routes = &route_model_ops }, NULL, &rep);
	ASSERT_EQ_INT(rc, 0, "doctor runs on the replayed state");
	ASSERT_EQ_U64(count_findings(&rep, DOCTOR_SAME_SUBNET_ROUTE, "ib1"), 1, "finding 1 for ib1");
	ASSERT_EQ_U64(count_findings(&rep, DOCTOR_SAME_SUBNET_ROUTE, "ib0"), 0, "no finding 1 for ib0");
	{
		const struct doctor_finding *f = doctor_find(&rep, "172.16.34.2");

		TAP_OK(f && f->id == DOCTOR_SAME_SUBNET_ROUTE && strstr(f->title, "leaves by ib0"),
		       "doctor_find(172.16.34.2): finding 1, 'leaves by ib0' (id %d: %s)", f ? (int)f->id : -1,
		       f ? f->title : "no finding");
		TAP_OK(f && f->nfix >= 2 && strstr(f->fix[1], "ip rule add from 172.16.34.2 table "),
		       "its fix adds the source rule (%u lines, the second: %s)", f ? f->nfix : 0,
		       f && f->nfix >= 2 ? f->fix[1] : "-");
	}
	TAP_OK(doctor_has_problems(&rep), "problems found (exit 1)");
	doctor_report_free(&rep);

	{
		struct doctor_query q = { .peer = "172.16.16.1", .from = "ib1" };

		rc = doctor_run(&(struct doctor_input){ .host = &host, .net = &st, .routes = &route_model_ops }, &q, &rep);
		ASSERT_EQ_INT(rc, 0, "doctor with a peer and --from IFACE");
		/* --from IFACE stands for its address, asked by source: the row of 172.16.34.2, marked */
		ASSERT_EQ_U64(rep.nroutes, 2, "route rows: the two RDMA addresses, --from ib1 one of them");
		TAP_OK(rep.nroutes == 2 && !rep.routes[1].own_iface && rep.routes[0].own_iface,
		       "172.16.34.1 ok, 172.16.34.2 by the wrong interface (own_iface %d, %d)",
		       rep.nroutes == 2 ? rep.routes[0].own_iface : -1, rep.nroutes == 2 ? rep.routes[1].own_iface : -1);
		TAP_OK(rep.nroutes == 2 && rep.routes[1].user_from && !rep.routes[0].user_from &&
		       !strcmp(rep.routes[1].ans.oif_name, "ib0") &&
		       doctor_route_verdict(&rep.routes[1]) == DOCTOR_ROUTE_WRONG_IFACE,
		       "--from ib1 is 172.16.34.2's row: it leaves by ib0, WRONG INTERFACE (user_from %d, by %s)",
		       rep.nroutes == 2 ? rep.routes[1].user_from : -1, rep.nroutes == 2 ? rep.routes[1].ans.oif_name : "-");
		doctor_report_free(&rep);
		q.from = "nosuchif";
		ASSERT_EQ_INT(doctor_run(&(struct doctor_input){ .host = &host, .net = &st, .routes = &route_model_ops }, &q, &rep), -ENODEV, "--from an unknown interface");
		q.from = "10.1.1.1";
		ASSERT_EQ_INT(doctor_run(&(struct doctor_input){ .host = &host, .net = &st, .routes = &route_model_ops }, &q, &rep), -EADDRNOTAVAIL, "--from an address not ours");
		q.from = NULL;
		q.peer = "not-an-address";
		ASSERT_EQ_INT(doctor_run(&(struct doctor_input){ .host = &host, .net = &st, .routes = &route_model_ops }, &q, &rep), -EINVAL, "a PEER that is not an address");
	}

	rc = fix_plan_build(&st, &plan);
	ASSERT_EQ_INT(rc, 0, "fix plan");
	ASSERT_EQ_U64(plan.nroutes, 2, "a table for each of ib0 and ib1");
	TAP_OK(plan.nroutes == 2 && plan.routes[0].table != plan.routes[1].table, "different tables (%u, %u)",
	       plan.nroutes == 2 ? plan.routes[0].table : 0, plan.nroutes == 2 ? plan.routes[1].table : 0);
	TAP_OK(plan.nroutes == 2 && plan.routes[0].table == fix_table_for(&st, plan.routes[0].ifname, &plan.routes[0].addr),
	       "the table is the stable one per interface (%u, fix_table_for %u)",
	       plan.nroutes == 2 ? plan.routes[0].table : 0,
	       plan.nroutes == 2 ? fix_table_for(&st, plan.routes[0].ifname, &plan.routes[0].addr) : 0);
	TAP_OK(fix_plan_needed(&plan), "the plan changes something");
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		fix_write(f, FIX_IP, &plan);
		fclose(f);
		ASSERT_CONTAINS(text, "ip route replace 172.16.0.0/16 dev ib1 scope link src 172.16.34.2 table ",
				"ip format: the same-subnet route, in a table of its own");
		free(text);
	}
	{
		struct net_state after;
		struct fix_plan p2;

		rc = load("seed-after", &after);
		ASSERT_EQ_INT(rc, 0, "seed-after parses");
		net_mark_rdma_name(&after, "ib0");
		net_mark_rdma_name(&after, "ib1");
		fix_plan_build(&after, &p2);
		TAP_OK(p2.nroutes == 2 && p2.routes[0].table == plan.routes[0].table &&
		       p2.routes[1].table == plan.routes[1].table,
		       "tables are stable: the recorded fixed host uses the same numbers (%u, %u; the plan's %u, %u)",
		       p2.nroutes == 2 ? p2.routes[0].table : 0, p2.nroutes == 2 ? p2.routes[1].table : 0,
		       plan.routes[0].table, plan.routes[1].table);
		TAP_OK(p2.nroutes == 2 && p2.routes[0].route_ok && p2.routes[0].rule_ok &&
		       p2.routes[1].route_ok && p2.routes[1].rule_ok,
		       "after the fix: routes and rules in place (%zu routes, route_ok %d %d, rule_ok %d %d)",
		       p2.nroutes, p2.nroutes == 2 && p2.routes[0].route_ok, p2.nroutes == 2 && p2.routes[1].route_ok,
		       p2.nroutes == 2 && p2.routes[0].rule_ok, p2.nroutes == 2 && p2.routes[1].rule_ok);
		rc = route_model_output(&after, &peer, &k2, 0, &ans);
		ASSERT_EQ_STR(ans.oif_name, "ib1", "after: model sends 172.16.34.2 by ib1");
		ASSERT_EQ_U64(ans.table, plan.routes[1].table, "after: by its own table");
		rc = doctor_run(&(struct doctor_input){ .host = &host, .net = &after, .routes = &route_model_ops }, NULL, &rep);
		ASSERT_EQ_U64(count_findings(&rep, DOCTOR_SAME_SUBNET_ROUTE, NULL), 0, "after: no finding 1");
		doctor_report_free(&rep);
		fix_plan_free(&p2);
		net_state_free(&after);
	}
	fix_plan_free(&plan);
	net_state_free(&st);
}

/* Every prefix of a recorded buffer: parsed or refused, never read past its end. */
static void test_truncated(void)
{
	const char *top = getenv("TOP_SRCDIR");
	unsigned int bad = 0, crashes_avoided = 0;

	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		char path[4096];
		size_t len;
		unsigned char *buf;

		snprintf(path, sizeof(path), "%s/tests/data/netlink/seed-before/%s.bin", top ? top : ".", kinds[k]);
		buf = tap_slurp(path, &len);
		if (!buf)
			continue;
		for (size_t cut = 0; cut < len; cut++) {
			/* A copy of exactly cut bytes, so ASan sees any overread. */
			unsigned char *c = malloc(cut ? cut : 1);
			struct net_state st = { 0 };
			int rc;

			memcpy(c, buf, cut);
			rc = nl_parse_buf(c, cut, &st, NULL);
			if (rc != 0 && rc != -EBADMSG)
				bad++;
			crashes_avoided++;
			net_state_free(&st);
			free(c);
		}
		free(buf);
	}
	TAP_OK(crashes_avoided > 1000 && bad == 0, "%u truncations of recorded dumps: 0 or -EBADMSG each (%u not)",
	       crashes_avoided, bad);
}

/*
 * Random corruption of recorded dumps (a fixed-seed xorshift, so runs repeat):
 * flipped bytes in headers, lengths and attributes must be parsed or refused,
 * never read out of bounds (ASan runs this in CI).
 */
static void test_mutated(void)
{
	const char *top = getenv("TOP_SRCDIR");
	uint32_t x = 2463534242u;
	unsigned int runs = 0, bad = 0;

	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		char path[4096];
		size_t len;
		unsigned char *buf;

		snprintf(path, sizeof(path), "%s/tests/data/netlink/seed-after/%s.bin", top ? top : ".", kinds[k]);
		buf = tap_slurp(path, &len);
		if (!buf || !len) {
			free(buf);
			continue;
		}
		for (int i = 0; i < 3000; i++) {
			unsigned char *c = malloc(len);
			struct net_state st = { 0 };
			int rc, flips = 1 + i % 4;

			memcpy(c, buf, len);
			while (flips--) {
				x ^= x << 13;
				x ^= x >> 17;
				x ^= x << 5;
				c[x % len] ^= (unsigned char)(1u << (x >> 8) % 8);
			}
			/* 0, -EBADMSG, or an NLMSG_ERROR's errno when a type turned into one. */
			rc = nl_parse_buf(c, len, &st, NULL);
			if (rc > 0)
				bad++;
			/* Whatever was accepted is consistent: names are terminated, lengths bounded. */
			for (size_t l = 0; l < st.nlinks; l++)
				if (strnlen(st.links[l].name, IFNAMSIZ) >= IFNAMSIZ || st.links[l].hwaddr_len > NET_HWADDR_MAX)
					bad++;
			for (size_t r = 0; r < st.nroutes; r++)
				if (st.routes[r].dst_len > 128)
					bad++;
			net_state_free(&st);
			free(c);
			runs++;
		}
		free(buf);
	}
	TAP_OK(runs >= 3000 && bad == 0, "%u corrupted dumps: parsed or refused, accepted data well-formed (%u bad)", runs,
	       bad);
}

/* Hand-built messages with broken attributes. */
struct msg {
	struct nlmsghdr h;
	unsigned char body[256];
};

static size_t put_attr(unsigned char *p, uint16_t type, const void *data, uint16_t len)
{
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + len), .nla_type = type };

	memcpy(p, &a, sizeof(a));
	memcpy(p + NLA_HDRLEN, data, len);
	return NLA_ALIGN(a.nla_len);
}

static void addr_msg(struct msg *m, const void *addr, uint16_t alen)
{
	struct ifaddrmsg ifa = { .ifa_family = AF_INET, .ifa_prefixlen = 16, .ifa_index = 2 };
	size_t off = NLMSG_ALIGN(sizeof(ifa));

	memset(m, 0, sizeof(*m));
	memcpy(m->body, &ifa, sizeof(ifa));
	off += put_attr(m->body + off, IFA_LOCAL, addr, alen);
	m->h.nlmsg_type = RTM_NEWADDR;
	m->h.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + off);
}

static void test_malformed(void)
{
	struct msg m;
	struct net_addr a;
	struct net_link l;
	struct net_route r;
	struct net_rule u;
	const unsigned char good[4] = { 172, 16, 34, 2 }, shortaddr[3] = { 1, 2, 3 };

	addr_msg(&m, good, 4);
	ASSERT_EQ_INT(nl_parse_addr(&m.h, &a), 0, "a well-formed RTM_NEWADDR parses");
	addr_msg(&m, shortaddr, 3);
	ASSERT_EQ_INT(nl_parse_addr(&m.h, &a), -EBADMSG, "IFA_LOCAL of 3 bytes is refused (policy)");
	addr_msg(&m, good, 4);
	{
		struct nlattr *at = (struct nlattr *)(void *)(m.body + NLMSG_ALIGN(sizeof(struct ifaddrmsg)));

		at->nla_len = 200;	/* runs past the message */
		ASSERT_EQ_INT(nl_parse_addr(&m.h, &a), -EBADMSG, "an attribute longer than its message is refused");
		at->nla_len = 2;	/* shorter than its own header */
		ASSERT_EQ_INT(nl_parse_addr(&m.h, &a), -EBADMSG, "an attribute shorter than a header is refused");
	}
	addr_msg(&m, good, 4);
	m.h.nlmsg_len = NLMSG_HDRLEN + 3;
	ASSERT_EQ_INT(nl_parse_addr(&m.h, &a), -EBADMSG, "a header cut short is refused");
	addr_msg(&m, good, 4);
	((struct ifaddrmsg *)(void *)m.body)->ifa_prefixlen = 33;
	ASSERT_EQ_INT(nl_parse_addr(&m.h, &a), -EBADMSG, "prefix length 33 for IPv4 is refused");
	addr_msg(&m, good, 4);
	((struct ifaddrmsg *)(void *)m.body)->ifa_family = AF_PACKET;
	ASSERT_EQ_INT(nl_parse_addr(&m.h, &a), -ENOENT, "another family is not ours (skipped, not an error)");
	addr_msg(&m, good, 4);
	ASSERT_EQ_INT(nl_parse_link(&m.h, &l), -ENOENT, "an address message is not a link");

	{	/* a link whose name is not NUL-terminated */
		struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 5 };
		size_t off = NLMSG_ALIGN(sizeof(ifi));

		memset(&m, 0, sizeof(m));
		memcpy(m.body, &ifi, sizeof(ifi));
		off += put_attr(m.body + off, IFLA_IFNAME, "abcd", 4);
		m.h.nlmsg_type = RTM_NEWLINK;
		m.h.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + off);
		ASSERT_EQ_INT(nl_parse_link(&m.h, &l), -EBADMSG, "IFLA_IFNAME without a NUL is refused");
		off = NLMSG_ALIGN(sizeof(ifi));
		off += put_attr(m.body + off, IFLA_IFNAME, "eth0", 5);
		off += put_attr(m.body + off, 0x7ff, "x", 1);	/* unknown attribute: skipped */
		m.h.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + off);
		ASSERT_EQ_INT(nl_parse_link(&m.h, &l), 0, "unknown attributes are skipped");
		ASSERT_EQ_STR(l.name, "eth0", "and the known ones read");
		off = NLMSG_ALIGN(sizeof(ifi));
		off += put_attr(m.body + off, IFLA_MTU, "\x01\x02", 2);
		off += put_attr(m.body + off, IFLA_IFNAME, "eth0", 5);
		m.h.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + off);
		ASSERT_EQ_INT(nl_parse_link(&m.h, &l), -EBADMSG, "a 2-byte IFLA_MTU is refused");
		/* the kernel takes any byte but '/', ':' and blanks in a name: ESC, BS, C1 come in cleaned */
		off = NLMSG_ALIGN(sizeof(ifi));
		off += put_attr(m.body + off, IFLA_IFNAME, "e\033[2J\b\302\233", 9);
		m.h.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + off);
		ASSERT_EQ_INT(nl_parse_link(&m.h, &l), 0, "a link named with control bytes parses");
		ASSERT_EQ_STR(l.name, "e?[2J???", "its name is cleaned as it is read");
	}
	{	/* a route with a prefix length but no RTA_DST */
		struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_dst_len = 16, .rtm_table = RT_TABLE_MAIN };

		memset(&m, 0, sizeof(m));
		memcpy(m.body, &rtm, sizeof(rtm));
		m.h.nlmsg_type = RTM_NEWROUTE;
		m.h.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(rtm)));
		ASSERT_EQ_INT(nl_parse_route(&m.h, &r), -EBADMSG, "a /16 route without a destination is refused");
	}
	{	/* a rule "from" length without FRA_SRC */
		struct fib_rule_hdr frh = { .family = AF_INET, .src_len = 32, .action = FR_ACT_TO_TBL };

		memset(&m, 0, sizeof(m));
		memcpy(m.body, &frh, sizeof(frh));
		m.h.nlmsg_type = RTM_NEWRULE;
		m.h.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(frh)));
		ASSERT_EQ_INT(nl_parse_rule(&m.h, &u), -EBADMSG, "a /32 rule without FRA_SRC is refused");
	}
	{	/* a buffer whose message claims more than the buffer holds */
		struct net_state st = { 0 };

		addr_msg(&m, good, 4);
		m.h.nlmsg_len = 4096;
		ASSERT_EQ_INT(nl_parse_buf(&m, sizeof(m), &st, NULL), -EBADMSG, "nlmsg_len past the buffer");
		net_state_free(&st);
	}
	{	/* a bad message among good ones is skipped, the rest kept */
		unsigned char buf[2 * sizeof(struct msg)];
		struct msg good_m, bad_m;
		struct net_state st = { 0 };
		size_t off;

		addr_msg(&good_m, good, 4);
		addr_msg(&bad_m, shortaddr, 3);
		memcpy(buf, &bad_m, bad_m.h.nlmsg_len);
		off = NLMSG_ALIGN(bad_m.h.nlmsg_len);
		memcpy(buf + off, &good_m, good_m.h.nlmsg_len);
		ASSERT_EQ_INT(nl_parse_buf(buf, off + good_m.h.nlmsg_len, &st, NULL), -EBADMSG,
			      "a malformed message is reported");
		ASSERT_EQ_U64(st.naddrs, 1, "and the good one after it is kept");
		net_state_free(&st);
	}
}

static void test_fix_quoting(void)
{
	struct fix_plan plan = { 0 };
	struct fix_route routes[2];
	char q[64], *text = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ_STR(fix_sh_quote("ib0", q, sizeof(q)), "ib0", "plain names are not quoted");
	ASSERT_EQ_STR(fix_sh_quote("a$(id)", q, sizeof(q)), "'a$(id)'", "$( ) is quoted");
	ASSERT_EQ_STR(fix_sh_quote("a'b", q, sizeof(q)), "'a'\\''b'", "a quote is escaped");
	TAP_OK(fix_ifname_ok("ib0.8001"), "ib0.8001 is acceptable");
	TAP_OK(fix_ifname_ok("x;reboot"), "x;reboot is acceptable (it gets quoted)");
	TAP_OK(!fix_ifname_ok("a\nb"), "a newline is refused");
	TAP_OK(!fix_ifname_ok("a b"), "a space is refused");
	TAP_OK(!fix_ifname_ok("\xc3\xa9th0"), "non-ASCII is refused");
	TAP_OK(!fix_ifname_ok(""), "empty is refused");
	TAP_OK(!fix_ifname_ok("0123456789abcdef"), "16 bytes is refused");

	memset(routes, 0, sizeof(routes));
	snprintf(routes[0].ifname, sizeof(routes[0].ifname), "x$(id)");
	snprintf(routes[1].ifname, sizeof(routes[1].ifname), "y'`id`");
	for (int i = 0; i < 2; i++) {
		routes[i].addr = ip4(i ? "10.0.0.2" : "10.0.0.1");
		routes[i].prefixlen = 24;
		routes[i].subnet = ip4("10.0.0.0");
		routes[i].table = 1000 + (uint32_t)i;
		routes[i].priority = FIX_RULE_PRIORITY;
	}
	plan.routes = routes;
	plan.nroutes = 2;
	f = open_memstream(&text, &len);
	ASSERT_EQ_INT(fix_write(f, FIX_NM_DISPATCHER, &plan), 0, "hostile names: written, quoted");
	fclose(f);
	ASSERT_CONTAINS(text, "'x$(id)')", "the name appears only single-quoted");
	ASSERT_CONTAINS(text, "dev 'x$(id)' scope", "also in the route");
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	fix_write(f, FIX_NETPLAN, &plan);
	fclose(f);
	ASSERT_CONTAINS(text, "    \"y'`id`\":", "netplan: the name is a double-quoted YAML key");
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	fix_write(f, FIX_NMCLI, &plan);
	fclose(f);
	ASSERT_CONTAINS(text, "device show 'x$(id)')\n", "nmcli: the name is single-quoted in the lookup");
	ASSERT_CONTAINS(text, "nmcli device reapply 'y'\\''`id`'\n", "nmcli: and in the reapply");
	ASSERT_CONTAINS(text, "nmcli connection modify \"$c\" +ipv4.routes", "nmcli: the connection name is quoted");
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	fix_write(f, FIX_NM_KEYFILE, &plan);
	fclose(f);
	ASSERT_CONTAINS(text, "\n# interface-name=x$(id)\n[ipv4]\nroute1000=10.0.0.0/24\n", "nm-keyfile: the name only in a comment");
	free(text);
	snprintf(routes[0].ifname, sizeof(routes[0].ifname), "a\nrm -rf x");
	text = NULL;
	f = open_memstream(&text, &len);
	ASSERT_EQ_INT(fix_write(f, FIX_IP, &plan), -EINVAL, "a name with a newline: refused");
	fclose(f);
	TAP_OK(!text || !text[0], "and nothing is written (%zu bytes)", text ? strlen(text) : 0);

	free(text);
}

int main(void)
{
	test_before();
	test_truncated();
	test_mutated();
	test_malformed();
	test_fix_quoting();
	return tap_done();
}
