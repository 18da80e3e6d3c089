// SPDX-License-Identifier: GPL-2.0-or-later
/* The event log (ring, since, seen mark, hook) and every derived kind on hand-made samples. */
#include "config.h"

#include <arpa/inet.h>
#include <linux/fib_rules.h>
#include <stdlib.h>
#include <string.h>

#include "net_fixture.h"
#include "tap.h"
#include "derive/events.h"
#include "model/events.h"

#include <linux/if.h>

static void test_ring(void)
{
	struct event_log l;
	struct fab_event ev;
	size_t hooked = 0;

	ASSERT_EQ_INT(event_log_init(&l, 3), 0, "a log of 3");
	for (int i = 0; i < 5; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.real_ns = (uint64_t)(i + 1) * 1000;
		ev.kind = EVENT_PORT_STATE;
		event_set_what(&ev, "event %d", i);
		event_log_append(&l, &ev);
	}
	ASSERT_EQ_U64(event_log_count(&l), 3, "3 kept");
	ASSERT_EQ_U64(l.dropped, 2, "2 dropped");
	ASSERT_EQ_STR(event_log_at(&l, 0)->what, "event 2", "the oldest kept is the third");
	ASSERT_EQ_U64(event_log_at(&l, 0)->seq, 3, "seq counts every append");
	ASSERT_EQ_STR(event_log_at(&l, 2)->what, "event 4", "the newest last");
	ASSERT_NULL(event_log_at(&l, 3), "past the end: NULL");
	ASSERT_EQ_U64(event_log_since(&l, 4000), 1, "since 4000: from the second kept");
	ASSERT_EQ_U64(event_log_since(&l, 99999), 3, "since the future: none");
	ASSERT_EQ_U64(event_log_since(&l, 0), 0, "since 0: all");
	ASSERT_EQ_U64(event_log_unseen(&l), 5, "5 unseen");
	event_log_mark_seen(&l);
	ASSERT_EQ_U64(event_log_unseen(&l), 0, "none unseen after the mark");
	ASSERT_EQ_U64(l.total[EVENT_PORT_STATE], 5, "total per kind counts the dropped too");
	event_log_free(&l);

	/* Strings not terminated by the caller are cut inside their arrays. */
	event_log_init(&l, 0);
	memset(&ev, 'x', sizeof(ev));
	ev.kind = 999;
	event_log_append(&l, &ev);
	ASSERT_EQ_U64(strlen(event_log_at(&l, 0)->what), EVENT_WHAT_LEN - 1, "what is terminated");
	ASSERT_EQ_U64(strlen(event_log_at(&l, 0)->device), FAB_NAME_LEN - 1, "device is terminated");
	ASSERT_NULL(event_kind_str(999), "unknown kind has no name");
	ASSERT_EQ_INT(event_kind_from_str("link-flap"), EVENT_LINK_FLAP, "kind by name");
	ASSERT_EQ_INT(event_kind_from_str("nope"), -1, "unknown name");
	event_log_free(&l);
	(void)hooked;
}

static size_t hook_calls;
static char hook_last[EVENT_WHAT_LEN];

static void hook(const struct fab_event *ev, void *arg)
{
	hook_calls += *(int *)arg;
	snprintf(hook_last, sizeof(hook_last), "%s", ev->what);
}

static void test_hook(void)
{
	struct event_log l;
	struct fab_event ev = { .kind = EVENT_ASYNC };
	int one = 1;

	event_log_init(&l, 2);
	event_log_set_hook(&l, hook, &one);
	event_set_what(&ev, "first");
	event_log_append(&l, &ev);
	event_set_what(&ev, "second");
	event_log_append(&l, &ev);
	event_set_what(&ev, "third");
	event_log_append(&l, &ev);
	ASSERT_EQ_U64(hook_calls, 3, "the hook sees every append, dropped ones too");
	ASSERT_EQ_STR(hook_last, "third", "with the event");
	event_log_free(&l);
}

/* One IB port with the counters events read. */
struct one_port {
	struct fab_host h;
	struct fab_device d;
	struct fab_port p;
	struct fab_counter c[3];
	struct fab_gid g[2];
};

static void one_port_init(struct one_port *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->d.name, sizeof(o->d.name), "mlx5_0");
	o->p.num = 1;
	o->p.state = PORT_STATE_ACTIVE;
	o->p.phys_state = PHYS_STATE_LINK_UP;
	snprintf(o->p.state_raw, sizeof(o->p.state_raw), "4: ACTIVE");
	snprintf(o->p.phys_state_raw, sizeof(o->p.phys_state_raw), "5: LinkUp");
	o->p.rate_known = true;
	o->p.rate_gbps = 100;
	snprintf(o->p.rate, sizeof(o->p.rate), "100 Gb/sec (4X EDR)");
	snprintf(o->c[0].name, sizeof(o->c[0].name), "link_downed");
	o->c[0].kind = COUNTER_KIND_ERROR;
	snprintf(o->c[1].name, sizeof(o->c[1].name), "symbol_error");
	o->c[1].kind = COUNTER_KIND_ERROR;
	snprintf(o->c[2].name, sizeof(o->c[2].name), "port_xmit_data");
	o->c[2].kind = COUNTER_KIND_DATA;
	for (int i = 0; i < 3; i++)
		o->c[i].known = true;
	o->g[0].index = 0;
	snprintf(o->g[0].gid, sizeof(o->g[0].gid), "fe80:0000:0000:0000:0002:c903:0031:78f1");
	o->g[0].type = GID_TYPE_IB;
	o->p.counters = o->c;
	o->p.ncounters = 3;
	o->p.gids = o->g;
	o->p.ngids = 1;
	o->d.ports = &o->p;
	o->d.nports = 1;
	o->h.devs = &o->d;
	o->h.ndevs = 1;
}

/* How many events of kind the log holds from index from on; the last one in *last. */
static size_t count_kind(const struct event_log *l, size_t from, int kind, const struct fab_event **last)
{
	size_t n = 0;

	for (size_t i = from; i < event_log_count(l); i++)
		if ((int)event_log_at(l, i)->kind == kind) {
			n++;
			if (last)
				*last = event_log_at(l, i);
		}
	return n;
}

static void test_ports(void)
{
	struct events_memory m;
	struct event_log l;
	struct one_port o;
	struct events_input in = { .real_ns = 1000000000, .mono_ns = 1000000000 };
	const struct fab_event *e = NULL;
	size_t mark;

	events_memory_init(&m);
	event_log_init(&l, 0);
	one_port_init(&o);
	in.host = &o.h;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(event_log_count(&l), 0, "the first look only remembers");

	/* Errors start moving: one burst, not one per sample while they keep moving. */
	o.c[1].value = 12;
	in.mono_ns += 1000000000;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_ERROR_BURST, &e), 1, "symbol_error moved: a burst");
	ASSERT_CONTAINS(e ? e->what : "", "symbol_error errors: +12", "what says the counter and delta");
	ASSERT_CONTAINS(e ? e->evidence : "", "0 -> 12", "evidence has both values");
	o.c[1].value = 20;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_ERROR_BURST, NULL), 1, "still moving: the same burst");
	events_derive(&m, &in, &l);
	o.c[1].value = 21;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_ERROR_BURST, NULL), 2, "moved again after a still sample: a new burst");
	o.c[1].saturated = true;
	o.c[1].value = 0xffff;
	events_derive(&m, &in, &l);
	o.c[1].saturated = false;
	o.c[1].value = 3;		/* reset after saturation */
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_ERROR_BURST, NULL), 2, "saturated and reset counters are not bursts");

	/* Down and up between two samples: only link_downed tells. */
	o.c[0].value = 1;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_LINK_FLAP, &e), 1, "link_downed +1: a flap");
	ASSERT_CONTAINS(e ? e->what : "", "came back between samples", "both samples ACTIVE: between samples");
	ASSERT_EQ_STR(e ? e->device : "", "mlx5_0", "device of the flap");
	ASSERT_EQ_INT(e ? e->port : 0, 1, "port of the flap");

	/* Down, then up three seconds later. */
	mark = event_log_count(&l);
	o.p.state = PORT_STATE_DOWN;
	o.p.phys_state = PHYS_STATE_POLLING;
	in.mono_ns += 1000000000;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, mark, EVENT_PORT_STATE, &e), 1, "ACTIVE -> DOWN");
	ASSERT_EQ_STR(e ? e->what : "", "port ACTIVE -> DOWN", "what of the state change");
	ASSERT_EQ_INT(e ? e->severity : 0, EVENT_ERROR, "going down is an error");
	ASSERT_EQ_U64(count_kind(&l, mark, EVENT_PHYS_STATE, NULL), 1, "LinkUp -> Polling");
	o.p.state = PORT_STATE_ACTIVE;
	o.p.phys_state = PHYS_STATE_LINK_UP;
	in.mono_ns += 3000000000;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, mark, EVENT_PORT_STATE, NULL), 2, "DOWN -> ACTIVE");
	ASSERT_EQ_U64(count_kind(&l, mark, EVENT_LINK_FLAP, &e), 1, "back up: a derived flap");
	ASSERT_CONTAINS(e ? e->what : "", "after 3.0 s", "with how long it was down");

	/* The rate: below the usual once, back once. */
	mark = event_log_count(&l);
	o.p.rate_gbps = 50;
	events_derive(&m, &in, &l);
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, mark, EVENT_RATE_DROP, &e), 1, "100 -> 50 Gb/s: one drop");
	ASSERT_CONTAINS(e ? e->what : "", "usual 100 Gb/s", "the usual is named");
	o.p.rate_gbps = 100;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, mark, EVENT_RATE_DROP, &e), 2, "back to the usual");
	ASSERT_EQ_INT(e ? e->severity : 9, EVENT_INFO, "the return is info");

	/* GIDs. */
	mark = event_log_count(&l);
	o.g[1].index = 1;
	snprintf(o.g[1].gid, sizeof(o.g[1].gid), "0000:0000:0000:0000:0000:ffff:0a00:0001");
	o.g[1].type = GID_TYPE_ROCE_V2;
	snprintf(o.g[1].netdev, sizeof(o.g[1].netdev), "roce0");
	o.p.ngids = 2;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, mark, EVENT_GID_ADDED, &e), 1, "a GID added");
	ASSERT_EQ_STR(e ? e->iface : "", "roce0", "its netdev");
	o.p.gids = &o.g[1];
	o.p.ngids = 1;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, mark, EVENT_GID_REMOVED, &e), 1, "a GID removed");
	ASSERT_CONTAINS(e ? e->what : "", "GID 0 fe80", "the removed one");

	/* The device vanishes. */
	mark = event_log_count(&l);
	o.h.ndevs = 0;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, mark, EVENT_PORT_STATE, &e), 1, "a vanished port");
	ASSERT_CONTAINS(e ? e->what : "", "vanished", "says so");
	o.h.ndevs = 1;
	events_derive(&m, &in, &l);
	ASSERT_CONTAINS(event_log_at(&l, event_log_count(&l) - 1)->what, "appeared", "and appears again");
	events_memory_free(&m);
	event_log_free(&l);
}

static void test_net(void)
{
	struct net_link links[2] = {
		{ .ifindex = 2, .name = "ib0", .flags = IFF_UP | IFF_LOWER_UP, .mtu = 2044, .rdma = true },
		{ .ifindex = 3, .name = "eth0", .flags = IFF_UP | IFF_LOWER_UP, .mtu = 1500 },
	};
	struct net_addr addrs[2] = { { .ifindex = 2, .prefixlen = 16 }, { .ifindex = 3, .prefixlen = 24 } };
	struct net_route routes[2] = {
		{ .table = 254, .family = AF_INET, .dst_len = 16, .oif = 2 },
		{ .table = 254, .family = AF_INET, .dst_len = 24, .oif = 3 },
	};
	struct net_rule rules[2] = {
		{ .family = AF_INET, .action = FR_ACT_TO_TBL, .table = 254, .has_priority = true, .priority = 32766 },
		{ .family = AF_INET, .action = FR_ACT_TO_TBL, .table = 100, .has_priority = true, .priority = 100,
		  .src_len = 32 },
	};
	struct net_state st = { .links = links, .nlinks = 2, .addrs = addrs, .naddrs = 2, .routes = routes,
				.nroutes = 2, .rules = rules, .nrules = 1 };
	struct events_input in = { .net = &st };
	struct events_memory m;
	struct event_log l;
	const struct fab_event *e = NULL;

	addrs[0].local = ip4("172.16.34.1");
	addrs[1].local = ip4("192.168.1.5");
	routes[0].dst = ip4("172.16.0.0");
	routes[1].dst = ip4("192.168.1.0");
	rules[1].src = ip4("172.16.34.1");
	events_memory_init(&m);
	event_log_init(&l, 0);
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(event_log_count(&l), 0, "the first look only remembers");

	st.nrules = 2;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_RULE, &e), 1, "a rule added");
	ASSERT_EQ_STR(e ? e->what : "", "rule added: 100: from 172.16.34.1 lookup 100", "the rule as ip rule says it");

	st.nroutes = 1;		/* eth0's route goes: not an RDMA netdev, no event */
	st.naddrs = 1;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_ROUTE, NULL), 0, "routes of other netdevs are not events");
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_ADDRESS, NULL), 0, "nor their addresses");

	links[0].flags = IFF_UP;
	st.nroutes = 0;
	st.naddrs = 0;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_NETDEV, &e), 1, "ib0 lost carrier");
	ASSERT_EQ_STR(e ? e->what : "", "ib0 carrier lost", "what of the netdev");
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_ROUTE, &e), 1, "ib0's route removed");
	ASSERT_EQ_STR(e ? e->what : "", "route removed: table main 172.16.0.0/16 dev ib0", "the route");
	ASSERT_EQ_STR(e ? e->iface : "", "ib0", "its netdev");
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_ADDRESS, &e), 1, "ib0's address removed");
	ASSERT_EQ_STR(e ? e->what : "", "address removed: ib0 172.16.34.1/16", "the address");

	links[0].mtu = 4092;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_NETDEV, &e), 2, "MTU change");
	ASSERT_EQ_STR(e ? e->what : "", "ib0 MTU 2044 -> 4092", "both MTUs");
	events_memory_free(&m);
	event_log_free(&l);
}

static void test_doctor(void)
{
	struct doctor_finding f[2];
	struct doctor_report r = { .findings = f, .nfindings = 0 };
	struct events_input in = { .doctor = &r };
	struct events_memory m;
	struct event_log l;
	const struct fab_event *e = NULL;

	memset(f, 0, sizeof(f));
	f[0].id = DOCTOR_SAME_SUBNET_ROUTE;
	f[0].code = "same-subnet-route";
	f[0].severity = DOCTOR_ERROR;
	snprintf(f[0].ifname, sizeof(f[0].ifname), "ib1");
	snprintf(f[0].title, sizeof(f[0].title), "traffic from 172.16.34.2 leaves by ib0");
	events_memory_init(&m);
	event_log_init(&l, 0);
	events_derive(&m, &in, &l);
	r.nfindings = 1;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_FINDING_NEW, &e), 1, "a finding appeared");
	ASSERT_EQ_INT(e ? e->severity : 0, EVENT_ERROR, "with its severity");
	ASSERT_EQ_STR(e ? e->iface : "", "ib1", "and interface");
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_FINDING_NEW, NULL), 1, "the same finding again: nothing new");
	r.nfindings = 0;
	events_derive(&m, &in, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_FINDING_CLEARED, &e), 1, "the finding cleared");
	ASSERT_CONTAINS(e ? e->what : "", "cleared: traffic from", "says which");
	events_memory_free(&m);
	event_log_free(&l);
}

static void test_far_end(void)
{
	struct ib_local_port p;
	struct events_memory m;
	struct event_log l;
	const struct fab_event *e = NULL;

	memset(&p, 0, sizeof(p));
	snprintf(p.ca, sizeof(p.ca), "mlx4_0");
	p.port = 1;
	p.self_state = IBQ_OK;
	p.peer_state = IBQ_OK;
	p.peer.node_guid = 0x1111;
	p.peer_pi.num = 7;
	p.pi.sm_lid = 1;
	snprintf(p.peer.desc, sizeof(p.peer.desc), "switch A");
	events_memory_init(&m);
	event_log_init(&l, 0);
	events_derive_far_end(&m, &p, 1, 0, 0, &l);
	ASSERT_EQ_U64(event_log_count(&l), 0, "the first look only remembers");
	p.peer.node_guid = 0x2222;
	snprintf(p.peer.desc, sizeof(p.peer.desc), "switch B");
	p.pi.sm_lid = 5;
	events_derive_far_end(&m, &p, 1, 0, 0, &l);
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_FAR_END, &e), 1, "partner replaced");
	ASSERT_CONTAINS(e ? e->what : "", "\"switch B\" port 7", "names the new partner");
	ASSERT_EQ_U64(count_kind(&l, 0, EVENT_SM_MOVED, &e), 1, "SM moved");
	ASSERT_CONTAINS(e ? e->what : "", "LID 1 -> 5", "from and to");
	p.peer_state = IBQ_TIMEOUT;
	events_derive_far_end(&m, &p, 1, 0, 0, &l);
	ASSERT_EQ_U64(event_log_count(&l), 2, "no answer: nothing compared");
	events_memory_free(&m);
	event_log_free(&l);
}

int main(void)
{
	test_ring();
	test_hook();
	test_ports();
	test_net();
	test_doctor();
	test_far_end();
	return tap_done();
}
