// SPDX-License-Identifier: GPL-2.0-or-later
/* The demo host's network: the same-subnet mistake, and the doctor finds it. */
#include "config.h"

#include <arpa/inet.h>
#include <string.h>

#include "../unit/tap.h"
#include "demo/demo.h"
#include "derive/doctor.h"
#include "model/net.h"
#include "model/route.h"
#include "util.h"

#include <linux/if.h>
#include <linux/rtnetlink.h>

static size_t main_routes_for(const struct net_state *st, const char *net, unsigned int len, char *devs,
			      size_t size)
{
	struct net_ip dst;
	size_t n = 0;

	devs[0] = '\0';
	net_ip_parse(net, &dst);
	for (size_t i = 0; i < st->nroutes; i++) {
		const struct net_route *r = &st->routes[i];
		const struct net_link *l;

		if (r->table != RT_TABLE_MAIN || r->dst_len != len || !net_ip_eq(&r->dst, &dst))
			continue;
		l = net_link_by_index(st, r->oif);
		snprintf(devs + strlen(devs), size - strlen(devs), "%s%s", n ? " " : "", l ? l->name : "?");
		n++;
	}
	return n;
}

static void test_state(void)
{
	struct demo *d = demo_new(7);
	struct net_state st;
	struct net_link *ib0, *ib1, *vlan;
	char devs[128];
	size_t from_rules = 0;
	int rc = demo_net(d, &st);

	ASSERT_EQ_INT(rc, 0, "demo_net fills a state");
	ASSERT_EQ_INT(main_routes_for(&st, "172.16.0.0", 16, devs, sizeof(devs)), 2,
		      "main holds two routes for 172.16.0.0/16");
	ASSERT_EQ_STR(devs, "ib0 ib1", "through ib0 first, then ib1");
	for (size_t i = 0; i < st.nrules; i++)
		if (st.rules[i].src.family)
			from_rules++;
	ASSERT_EQ_INT(from_rules, 0, "no per-interface 'from' rules");
	ib0 = net_link_by_name(&st, "ib0");
	ib1 = net_link_by_name(&st, "ib1");
	vlan = net_link_by_name(&st, "enp65s0f0.100");
	TAP_OK(ib0 && ib1 && vlan, "ib0, ib1 and the VLAN exist%s%s%s", ib0 ? "" : " (no ib0)", ib1 ? "" : " (no ib1)",
	       vlan ? "" : " (no enp65s0f0.100)");
	if (ib0 && ib1 && vlan) {
		ASSERT_EQ_INT(ib0->ipoib_mode, NET_IPOIB_DATAGRAM, "ib0 is IPoIB datagram");
		ASSERT_EQ_INT(ib0->mtu, 2044, "ib0 MTU 2044");
		ASSERT_EQ_INT(ib0->hwaddr_len, 20, "IPoIB hardware address is 20 bytes");
		ASSERT_EQ_INT(vlan->link, net_link_by_name(&st, "enp65s0f0")->ifindex, "the VLAN sits on enp65s0f0");
	}
	{
		struct net_ip a;
		const struct net_addr *x;

		net_ip_parse("172.16.34.2", &a);
		x = net_addr_find(&st, &a);
		TAP_OK(x && ib1 && x->ifindex == ib1->ifindex && x->prefixlen == 16,
		       "172.16.34.2/16 on ib1 (ifindex %d, ib1's %d, /%d)", x ? x->ifindex : -1, ib1 ? ib1->ifindex : -1,
		       x ? x->prefixlen : -1);
		net_ip_parse("10.100.0.1", &a);
		x = net_addr_find(&st, &a);
		TAP_OK(x && vlan && x->ifindex == vlan->ifindex, "10.100.0.1 on the VLAN (ifindex %d, the VLAN's %d)",
		       x ? x->ifindex : -1, vlan ? vlan->ifindex : -1);
	}
	{
		const struct net_if_sysctls *sc = net_sysctls_of(&st, "ib1");

		TAP_OK(sc && sc->v[NET_SYSCTL_RP_FILTER].effective.known &&
		       sc->v[NET_SYSCTL_RP_FILTER].effective.value == 1, "rp_filter is strict (Ubuntu 18.04) (%s %d)",
		       !sc ? "no sysctls" : sc->v[NET_SYSCTL_RP_FILTER].effective.known ? "value" : "unknown",
		       sc ? sc->v[NET_SYSCTL_RP_FILTER].effective.value : 0);
	}
	{
		struct net_ip peer, src;
		struct route_answer ans;

		net_ip_parse("172.16.16.1", &peer);
		net_ip_parse("172.16.34.2", &src);
		rc = route_model_output(&st, &peer, &src, 0, &ans);
		ASSERT_EQ_INT(rc, 0, "route to the cpu server from 172.16.34.2 resolves");
		ASSERT_EQ_STR(ans.oif_name[0] ? ans.oif_name : (net_link_by_index(&st, ans.oif) ?
			      net_link_by_index(&st, ans.oif)->name : ""), "ib0",
			      "but leaves by ib0: the same-subnet mistake");
	}
	net_state_free(&st);
	demo_free(d);
}

static void test_doctor(void)
{
	struct demo *d = demo_new(7);
	struct fab_host h;
	struct net_state st;
	struct doctor_report rep;
	const struct doctor_finding *f = NULL;
	int rc;

	demo_collect(d, &h);
	demo_net(d, &st);
	net_mark_rdma(&st, &h);
	memset(&rep, 0, sizeof(rep));
	rc = doctor_run(&(struct doctor_input){ .host = &h, .net = &st, .routes = &route_model_ops }, NULL, &rep);
	ASSERT_EQ_INT(rc, 0, "doctor_run on the demo");
	for (size_t i = 0; i < rep.nfindings; i++) {
		printf("# finding: %s %s: %s\n", rep.findings[i].code, rep.findings[i].ifname, rep.findings[i].title);
		if (rep.findings[i].id == DOCTOR_SAME_SUBNET_ROUTE && !f)
			f = &rep.findings[i];
	}
	ASSERT_NOT_NULL(f, "the doctor reports the same-subnet route");

	ASSERT_EQ_STR(f ? f->ifname : NULL, "ib1", "about ib1");
	ASSERT_EQ_STR(f ? f->addr : NULL, "172.16.34.2", "and 172.16.34.2");
	TAP_OK(rep.nrdma_netdevs >= 2, "the RDMA netdevs are marked from the demo host (%zu)", rep.nrdma_netdevs);
	TAP_OK(doctor_has_problems(&rep), "doctor would exit 1");
	doctor_report_free(&rep);
	net_state_free(&st);
	fab_host_free(&h);
	demo_free(d);
}

/* While port 2 is down, ib1 has no carrier in the network state either. */
static void test_flap(void)
{
	struct demo *d = demo_new(7);
	struct fab_host h;
	struct net_state st;
	bool seen_down = false, agree = true;

	demo_collect(d, &h);
	for (int t = 0; t < 120; t++) {
		struct fab_port *p2 = fab_host_find_port(&h, "mlx5_0", 2);
		struct net_link *ib1;

		demo_tick(d, &h, 1000000000u);
		if (demo_net(d, &st))
			break;
		ib1 = net_link_by_name(&st, "ib1");
		if (ib1 && p2) {
			bool up = ib1->operstate == IF_OPER_UP;

			agree &= up == (p2->state == PORT_STATE_ACTIVE);
			seen_down |= !up;
		}
		net_state_free(&st);
	}
	TAP_OK(seen_down, "ib1 loses carrier while its port is down");
	TAP_OK(agree, "ib1's operstate follows port 2's state");
	fab_host_free(&h);
	demo_free(d);
}

/* Set one sysctl on every interface of st: conf.all and conf.IFACE, effective as the kernel combines them. */
static void set_sysctl(struct net_state *st, enum net_sysctl_id id, int all, int iface)
{
	for (size_t i = 0; i < st->nsysctls; i++) {
		struct net_sysctl_val *v = &st->sysctls[i].v[id];

		v->all = (struct net_opt_int){ .known = true, .value = all };
		v->iface = (struct net_opt_int){ .known = true, .value = iface };
		v->effective = net_sysctl_combine(id, v->all, v->iface);
	}
}

/* The findings with id of one doctor run, as "code:ifname ..." (sorted as the doctor gives them). */
static void findings_of(const struct net_state *st, const struct fab_host *h, const char *peer, const char *from,
			enum doctor_id id, char *out, size_t size)
{
	struct doctor_report rep;

	out[0] = '\0';
	memset(&rep, 0, sizeof(rep));
	if (doctor_run(&(struct doctor_input){ .host = h, .net = st, .routes = &route_model_ops },
		       peer ? &(struct doctor_query){ .peer = peer, .from = from } : NULL, &rep)) {
		snprintf(out, size, "doctor_run failed");
		return;
	}
	for (size_t i = 0; i < rep.nfindings; i++)
		if (rep.findings[i].id == id)
			snprintf(out + strlen(out), size - strlen(out), "%s%s:%s", out[0] ? " " : "",
				 rep.findings[i].code, rep.findings[i].ifname);
	doctor_report_free(&rep);
}

/*
 * The doctor's sysctl rules at every boundary, on the model (the path of
 * the demo and of replayed recordings, where no kernel is asked): conf.all
 * and conf.IFACE each at each value, combined as the kernel does
 * (rp_filter, arp_ignore, arp_announce: the larger; accept_local: either).
 */
static void test_sysctl_boundaries(void)
{
	static const struct {
		int all, iface;
		const char *want;
	} rp[] = {
		{ 0, 0, "" }, { 0, 1, "strict-rp-filter:ib1" }, { 1, 0, "strict-rp-filter:ib1" },
		{ 1, 1, "strict-rp-filter:ib1" }, { 0, 2, "" }, { 2, 0, "" }, { 1, 2, "" }, { 2, 1, "" }, { 2, 2, "" },
	};
	static const struct {
		int ignore_all, ignore, announce_all, announce;
		const char *want;
	} arp[] = {
		{ 0, 0, 0, 0, "arp-flux:ib0 arp-flux:ib1" },	/* both at their defaults */
		{ 0, 1, 0, 2, "" },				/* the fix */
		{ 0, 1, 0, 0, "arp-flux:ib0 arp-flux:ib1" },	/* arp_ignore alone */
		{ 0, 0, 0, 2, "arp-flux:ib0 arp-flux:ib1" },	/* arp_announce alone */
		{ 1, 0, 2, 0, "" },				/* both through conf.all */
		{ 1, 0, 0, 0, "arp-flux:ib0 arp-flux:ib1" },	/* arp_ignore through conf.all alone */
		{ 0, 0, 2, 0, "arp-flux:ib0 arp-flux:ib1" },	/* arp_announce through conf.all alone */
		{ 0, 2, 0, 1, "" },				/* any value above 0 is no flux */
		{ 0, 8, 0, 1, "" },
	};
	static const struct {
		int all, iface;
		const char *want;
	} al[] = {
		{ 0, 0, "accept-local:ib1" }, { 1, 0, "" }, { 0, 1, "" }, { 1, 1, "" },
	};
	struct demo *d = demo_new(7);
	struct fab_host h;
	struct net_state st;
	char got[256], desc[200];

	demo_collect(d, &h);
	demo_net(d, &st);
	net_mark_rdma(&st, &h);
	for (size_t i = 0; i < ARRAY_SIZE(rp); i++) {
		set_sysctl(&st, NET_SYSCTL_RP_FILTER, rp[i].all, rp[i].iface);
		findings_of(&st, &h, NULL, NULL, DOCTOR_RP_FILTER, got, sizeof(got));
		snprintf(desc, sizeof(desc), "model: rp_filter all=%d iface=%d: finding 3 '%s'", rp[i].all, rp[i].iface,
			 rp[i].want);
		ASSERT_EQ_STR(got, rp[i].want, desc);
	}
	set_sysctl(&st, NET_SYSCTL_RP_FILTER, 0, 0);
	for (size_t i = 0; i < ARRAY_SIZE(arp); i++) {
		set_sysctl(&st, NET_SYSCTL_ARP_IGNORE, arp[i].ignore_all, arp[i].ignore);
		set_sysctl(&st, NET_SYSCTL_ARP_ANNOUNCE, arp[i].announce_all, arp[i].announce);
		findings_of(&st, &h, NULL, NULL, DOCTOR_ARP_FLUX, got, sizeof(got));
		snprintf(desc, sizeof(desc), "model: arp_ignore all=%d iface=%d, arp_announce all=%d iface=%d: "
			 "finding 2 '%s'", arp[i].ignore_all, arp[i].ignore, arp[i].announce_all, arp[i].announce,
			 arp[i].want);
		ASSERT_EQ_STR(got, arp[i].want, desc);
	}
	for (size_t i = 0; i < ARRAY_SIZE(al); i++) {
		set_sysctl(&st, NET_SYSCTL_ACCEPT_LOCAL, al[i].all, al[i].iface);
		findings_of(&st, &h, "172.16.34.2", "172.16.34.1", DOCTOR_IPOIB, got, sizeof(got));
		snprintf(desc, sizeof(desc), "model: accept_local all=%d iface=%d, local peer: finding 6 '%s'",
			 al[i].all, al[i].iface, al[i].want);
		ASSERT_EQ_STR(got, al[i].want, desc);
	}
	/*
	 * The peer's address on a VRF device (fabtop lab's peer, whose rxe is
	 * on the VRF device): the source of the main table is not local in the
	 * VRF's table, so accept_local plays no part. A link enslaved to a VRF
	 * is not one of the doctor's sources at all.
	 */
	{
		struct net_link *ib1 = net_link_by_name(&st, "ib1");
		char kind[sizeof(ib1->kind)];

		TAP_OK(ib1 != NULL, "the demo has ib1");
		if (ib1) {
			set_sysctl(&st, NET_SYSCTL_ACCEPT_LOCAL, 0, 0);
			memcpy(kind, ib1->kind, sizeof(kind));
			snprintf(ib1->kind, sizeof(ib1->kind), "vrf");
			findings_of(&st, &h, "172.16.34.2", "172.16.34.1", DOCTOR_IPOIB, got, sizeof(got));
			ASSERT_EQ_STR(got, "", "model: the local peer's address on a VRF device, the source in main: no finding 6");
			memcpy(ib1->kind, kind, sizeof(kind));
			findings_of(&st, &h, "172.16.34.2", "172.16.34.1", DOCTOR_IPOIB, got, sizeof(got));
			ASSERT_EQ_STR(got, "accept-local:ib1", "model: the same peer out of the VRF: finding 6");
		}
	}
	net_state_free(&st);
	fab_host_free(&h);
	demo_free(d);
}

int main(void)
{
	test_state();
	test_doctor();
	test_flap();
	test_sysctl_boundaries();
	return tap_done();
}
