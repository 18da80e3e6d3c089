// SPDX-License-Identifier: GPL-2.0-or-later
/* Port problems and flags (derive/port.c): the rules the Ports pane and the doctor share. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "derive/port.h"
#include "tap.h"
#include "util.h"

static void set_port(struct fab_port *p, unsigned int num, enum fab_port_state st, enum fab_phys_state ph,
		     enum fab_link_layer ll, const char *rate, double gbps)
{
	memset(p, 0, sizeof(*p));
	p->num = num;
	p->state = st;
	p->phys_state = ph;
	p->link_layer = ll;
	snprintf(p->rate, sizeof(p->rate), "%s", rate);
	p->rate_known = gbps > 0;
	p->rate_gbps = gbps;
}

static const char *flags_of(const struct fab_device *d, size_t i)
{
	static char buf[64];

	port_flags_str(port_flags(d, &d->ports[i]), buf, sizeof(buf));
	return buf;
}

static void set_sm_lid(struct fab_port *p, uint64_t v)
{
	p->sm_lid.known = true;
	p->sm_lid.value = v;
}

/* Why an InfiniBand port is INIT with the link up: each cause on both sides of its edge. */
static void init_causes(struct fab_device *d)
{
	static const struct {
		bool sm_known;
		uint64_t sm_lid;
		const char *guid;
		enum fab_link_layer ll;
		enum port_problem want;
		const char *flags;
		const char *desc;
	} cases[] = {
		{ true, 0, "0c42:a103:0065:4a20", LINK_LAYER_INFINIBAND, PORT_PROBLEM_NO_SM, "NO-SM",
		  "SM LID 0: no subnet manager reached the port" },
		{ true, 1, "0c42:a103:0065:4a20", LINK_LAYER_INFINIBAND, PORT_PROBLEM_SM_PENDING, "SM-PENDING",
		  "SM LID 1: an SM reached it, not activated" },
		{ true, 0xbfff, "0c42:a103:0065:4a20", LINK_LAYER_INFINIBAND, PORT_PROBLEM_SM_PENDING, "SM-PENDING",
		  "SM LID 0xbfff, the last unicast LID: an SM reached it" },
		{ true, 0xc000, "0c42:a103:0065:4a20", LINK_LAYER_INFINIBAND, PORT_PROBLEM_NO_SM, "NO-SM",
		  "SM LID 0xc000 is multicast, no SM's address: no SM" },
		{ true, 0xffff, "0c42:a103:0065:4a20", LINK_LAYER_INFINIBAND, PORT_PROBLEM_NO_SM, "NO-SM",
		  "SM LID 0xffff is the permissive LID, no SM's address: no SM" },
		{ true, 1, "0c42:a103:0065:4a20", LINK_LAYER_UNKNOWN, PORT_PROBLEM_SM_PENDING, "SM-PENDING",
		  "no link_layer (an old kernel) is InfiniBand" },
		{ true, 0, "0000:0000:0000:0000", LINK_LAYER_INFINIBAND, PORT_PROBLEM_NO_GUID, "NO-GUID",
		  "node GUID all zero, SM LID 0: a VF without GUID" },
		{ true, 1, "0000:0000:0000:0000", LINK_LAYER_INFINIBAND, PORT_PROBLEM_NO_GUID, "NO-GUID",
		  "node GUID all zero wins over an SM LID: no SM can activate it" },
		{ false, 0, "0000:0000:0000:0000\n", LINK_LAYER_INFINIBAND, PORT_PROBLEM_NO_GUID, "NO-GUID",
		  "node GUID all zero with its newline, SM LID unknown" },
		{ true, 0, "0000:0000:0000:0001", LINK_LAYER_INFINIBAND, PORT_PROBLEM_NO_SM, "NO-SM",
		  "node GUID with only the last byte set is not zero" },
		{ true, 1, "0000:0000:0000:0001", LINK_LAYER_INFINIBAND, PORT_PROBLEM_SM_PENDING, "SM-PENDING",
		  "node GUID with only the last byte set, SM LID 1" },
		{ true, 0, "0100:0000:0000:0000", LINK_LAYER_INFINIBAND, PORT_PROBLEM_NO_SM, "NO-SM",
		  "node GUID with only the first byte set is not zero" },
		{ true, 0, "", LINK_LAYER_INFINIBAND, PORT_PROBLEM_NO_SM, "NO-SM",
		  "node GUID unreadable is not zero" },
		{ true, 0, "0000:0000:zzzz:0000", LINK_LAYER_INFINIBAND, PORT_PROBLEM_NO_SM, "NO-SM",
		  "node GUID that does not parse is not zero" },
		{ true, 1, "0000:0000:0000:0000", LINK_LAYER_ETHERNET, PORT_PROBLEM_NONE, "",
		  "Ethernet INIT + LinkUp: neither SM LID nor GUID means an SM problem" },
	};
	struct fab_port *p = &d->ports[0];
	char desc[160];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		set_port(p, 1, PORT_STATE_INIT, PHYS_STATE_LINK_UP, cases[i].ll, "100 Gb/sec (4X EDR)", 100);
		if (cases[i].sm_known)
			set_sm_lid(p, cases[i].sm_lid);
		snprintf(d->node_guid, sizeof(d->node_guid), "%s", cases[i].guid);
		ASSERT_EQ_INT(port_problem(d, p), cases[i].want, cases[i].desc);
		snprintf(desc, sizeof(desc), "%s: the pane's flag agrees", cases[i].desc);
		ASSERT_EQ_STR(flags_of(d, 0), cases[i].flags, desc);
	}
	/* A zero GUID or an SM LID say nothing about a port that is not INIT with the link up. */
	set_port(p, 1, PORT_STATE_ACTIVE, PHYS_STATE_LINK_UP, LINK_LAYER_INFINIBAND, "100 Gb/sec (4X EDR)", 100);
	set_sm_lid(p, 1);
	snprintf(d->node_guid, sizeof(d->node_guid), "0000:0000:0000:0000");
	ASSERT_EQ_INT(port_problem(d, p), PORT_PROBLEM_NONE, "ACTIVE with a zero node GUID: no problem");
	set_port(p, 1, PORT_STATE_DOWN, PHYS_STATE_POLLING, LINK_LAYER_INFINIBAND, "100 Gb/sec (4X EDR)", 100);
	ASSERT_EQ_INT(port_problem(d, p), PORT_PROBLEM_POLLING, "DOWN/Polling with a zero node GUID stays a cable problem");
	d->node_guid[0] = '\0';
	ASSERT_EQ_INT(port_node_guid_zero(d), 0, "an empty node GUID is unknown, not zero");
}

int main(void)
{
	struct fab_port ports[2];
	struct fab_device d = { .ports = ports, .nports = 2 };

	set_port(&ports[0], 1, PORT_STATE_INIT, PHYS_STATE_LINK_UP, LINK_LAYER_INFINIBAND, "100 Gb/sec (4X EDR)", 100);
	set_port(&ports[1], 2, PORT_STATE_INIT, PHYS_STATE_LINK_UP, LINK_LAYER_ETHERNET, "100 Gb/sec (4X EDR)", 100);
	ASSERT_EQ_INT(port_problem(&d, &ports[0]), PORT_PROBLEM_NO_SM, "IB INIT + LinkUp, SM LID unknown: no subnet manager");
	ASSERT_EQ_STR(flags_of(&d, 0), "NO-SM", "and the pane says NO-SM");
	ASSERT_EQ_INT(port_problem(&d, &ports[1]), PORT_PROBLEM_NONE, "Ethernet INIT + LinkUp is not an SM problem");
	init_causes(&d);

	set_port(&ports[0], 1, PORT_STATE_DOWN, PHYS_STATE_POLLING, LINK_LAYER_INFINIBAND, "10 Gb/sec (4X SDR)", 10);
	set_port(&ports[1], 2, PORT_STATE_UNKNOWN, PHYS_STATE_DISABLED, LINK_LAYER_INFINIBAND, "", 0);
	ASSERT_EQ_INT(port_problem(&d, &ports[0]), PORT_PROBLEM_POLLING, "DOWN + Polling: no link partner");
	ASSERT_EQ_INT(port_problem(&d, &ports[1]), PORT_PROBLEM_DISABLED, "Disabled whatever the state");
	ASSERT_EQ_STR(flags_of(&d, 0), "NO-LINK", "polling is NO-LINK");
	ASSERT_EQ_STR(flags_of(&d, 1), "NO-LINK", "disabled is NO-LINK");

	/* SLOW compares ACTIVE ports only: a DOWN port's rate is not a link's. */
	set_port(&ports[0], 1, PORT_STATE_ACTIVE, PHYS_STATE_LINK_UP, LINK_LAYER_INFINIBAND, "100 Gb/sec (4X EDR)", 100);
	set_port(&ports[1], 2, PORT_STATE_DOWN, PHYS_STATE_POLLING, LINK_LAYER_INFINIBAND, "200 Gb/sec (4X HDR)", 200);
	ASSERT_EQ_STR(flags_of(&d, 0), "", "the only ACTIVE port is not slow beside a DOWN faster one");
	set_port(&ports[1], 2, PORT_STATE_ACTIVE_DEFER, PHYS_STATE_LINK_UP, LINK_LAYER_INFINIBAND, "200 Gb/sec (4X HDR)", 200);
	ASSERT_EQ_STR(flags_of(&d, 0), "SLOW", "slower than an ACTIVE_DEFER port of the same device");
	{
		double best = 0;

		TAP_OK(port_is_slow(&d, &ports[0], &best) && best == 200, "best rate is the fastest active port (%g)", best);
	}
	/* Split cables give 2X on every port: not slow. 1X is a lost lane. */
	set_port(&ports[0], 1, PORT_STATE_ACTIVE, PHYS_STATE_LINK_UP, LINK_LAYER_INFINIBAND, "100 Gb/sec (2X HDR)", 100);
	set_port(&ports[1], 2, PORT_STATE_ACTIVE, PHYS_STATE_LINK_UP, LINK_LAYER_INFINIBAND, "100 Gb/sec (2X HDR)", 100);
	ASSERT_EQ_STR(flags_of(&d, 0), "", "2X beside 2X is a split cable, not slow");
	set_port(&ports[0], 1, PORT_STATE_ACTIVE, PHYS_STATE_LINK_UP, LINK_LAYER_INFINIBAND, "25 Gb/sec (1X EDR)", 25);
	set_port(&ports[1], 2, PORT_STATE_ACTIVE, PHYS_STATE_LINK_UP, LINK_LAYER_INFINIBAND, "25 Gb/sec (1X EDR)", 25);
	ASSERT_EQ_STR(flags_of(&d, 0), "SLOW", "a 1X IB link is slow even alone");
	/* Ethernet and IB ports of one device are not compared. */
	set_port(&ports[0], 1, PORT_STATE_ACTIVE, PHYS_STATE_LINK_UP, LINK_LAYER_ETHERNET, "25 Gb/sec (1X EDR)", 25);
	set_port(&ports[1], 2, PORT_STATE_ACTIVE, PHYS_STATE_LINK_UP, LINK_LAYER_INFINIBAND, "100 Gb/sec (4X EDR)", 100);
	ASSERT_EQ_STR(flags_of(&d, 0), "", "a 25 Gb/s Ethernet port beside a 100 Gb/s IB port is not slow");

	ports[1].nnetdevs = 1;
	ports[1].netdevs[0].in_ns = false;
	ASSERT_EQ_STR(flags_of(&d, 1), "NETNS", "a netdev in another namespace");
	set_port(&ports[1], 2, PORT_STATE_INIT, PHYS_STATE_LINK_UP, LINK_LAYER_INFINIBAND, "100 Gb/sec (4X EDR)", 100);
	set_sm_lid(&ports[1], 1);
	ports[1].nnetdevs = 1;
	ports[1].netdevs[0].in_ns = false;
	ASSERT_EQ_STR(flags_of(&d, 1), "NETNS,SM-PENDING", "flags after NETNS keep their names");
	{
		char small[6];

		port_flags_str(PORT_FLAG_NO_SM | PORT_FLAG_SLOW, small, sizeof(small));
		ASSERT_EQ_STR(small, "NO-SM", "a short buffer is cut, never overrun");
	}
	ASSERT_EQ_INT(port_rate_width("100 Gb/sec (4X EDR)"), 4, "width from the rate text");
	ASSERT_EQ_INT(port_rate_width("10 Gb/sec"), 0, "no width named");
	return tap_done();
}
