// SPDX-License-Identifier: GPL-2.0-or-later
/* Port problems and flags (derive/port.c): the rules the Ports pane and the doctor share. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "derive/port.h"
#include "tap.h"

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

int main(void)
{
	struct fab_port ports[2];
	struct fab_device d = { .ports = ports, .nports = 2 };

	set_port(&ports[0], 1, PORT_STATE_INIT, PHYS_STATE_LINK_UP, LINK_LAYER_INFINIBAND, "100 Gb/sec (4X EDR)", 100);
	set_port(&ports[1], 2, PORT_STATE_INIT, PHYS_STATE_LINK_UP, LINK_LAYER_ETHERNET, "100 Gb/sec (4X EDR)", 100);
	ASSERT_EQ_INT(port_problem(&ports[0]), PORT_PROBLEM_NO_SM, "IB INIT + LinkUp: no subnet manager");
	ASSERT_EQ_STR(flags_of(&d, 0), "NO-SM", "and the pane says NO-SM");
	ASSERT_EQ_INT(port_problem(&ports[1]), PORT_PROBLEM_NONE, "Ethernet INIT + LinkUp is not an SM problem");

	set_port(&ports[0], 1, PORT_STATE_DOWN, PHYS_STATE_POLLING, LINK_LAYER_INFINIBAND, "10 Gb/sec (4X SDR)", 10);
	set_port(&ports[1], 2, PORT_STATE_UNKNOWN, PHYS_STATE_DISABLED, LINK_LAYER_INFINIBAND, "", 0);
	ASSERT_EQ_INT(port_problem(&ports[0]), PORT_PROBLEM_POLLING, "DOWN + Polling: no link partner");
	ASSERT_EQ_INT(port_problem(&ports[1]), PORT_PROBLEM_DISABLED, "Disabled whatever the state");
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
	{
		char small[6];

		port_flags_str(PORT_FLAG_NO_SM | PORT_FLAG_SLOW, small, sizeof(small));
		ASSERT_EQ_STR(small, "NO-SM", "a short buffer is cut, never overrun");
	}
	ASSERT_EQ_INT(port_rate_width("100 Gb/sec (4X EDR)"), 4, "width from the rate text");
	ASSERT_EQ_INT(port_rate_width("10 Gb/sec"), 0, "no width named");
	return tap_done();
}
