// SPDX-License-Identifier: GPL-2.0-or-later
/* Port problems and flags from one rule table, shared by the Ports pane and the doctor. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "derive/port.h"
#include "util.h"

bool port_node_guid_zero(const struct fab_device *d)
{
	uint64_t g;

	return util_parse_guid(d->node_guid, &g) == 0 && g == 0;
}

/*
 * INIT with the link up means the link trained but no subnet manager has
 * moved the port on to ARMED and ACTIVE. That only means something on
 * InfiniBand (an old kernel without link_layer is InfiniBand too). Each
 * test below names one reason, the most specific first.
 */

/* A node GUID of zero is no GUID: the SM cannot address the node (a VF whose GUID the PF never set). */
static bool init_no_guid(const struct fab_device *d, const struct fab_port *p)
{
	return fab_port_maybe_ib(p) && port_node_guid_zero(d);
}

/* The SM writes its own LID into the port when it assigns the port's LID: it has been there. */
static bool init_sm_reached(const struct fab_device *d, const struct fab_port *p)
{
	(void)d;
	return fab_port_maybe_ib(p) && p->sm_lid.known && fab_lid_is_unicast(p->sm_lid.value);
}

static bool init_on_ib(const struct fab_device *d, const struct fab_port *p)
{
	(void)d;
	return fab_port_maybe_ib(p);
}

static const struct {
	enum fab_port_state state;	/* PORT_STATE_UNKNOWN: any */
	enum fab_phys_state phys;	/* PHYS_STATE_UNKNOWN: any */
	bool (*when)(const struct fab_device *d, const struct fab_port *p);	/* NULL: always */
	enum port_problem problem;
} port_rules[] = {
	{ PORT_STATE_INIT, PHYS_STATE_LINK_UP, init_no_guid, PORT_PROBLEM_NO_GUID },
	{ PORT_STATE_INIT, PHYS_STATE_LINK_UP, init_sm_reached, PORT_PROBLEM_SM_PENDING },
	{ PORT_STATE_INIT, PHYS_STATE_LINK_UP, init_on_ib, PORT_PROBLEM_NO_SM },
	{ PORT_STATE_DOWN, PHYS_STATE_POLLING, NULL, PORT_PROBLEM_POLLING },
	{ PORT_STATE_UNKNOWN, PHYS_STATE_DISABLED, NULL, PORT_PROBLEM_DISABLED },
	{ PORT_STATE_DOWN, PHYS_STATE_UNKNOWN, NULL, PORT_PROBLEM_DOWN },
	{ PORT_STATE_ARMED, PHYS_STATE_UNKNOWN, NULL, PORT_PROBLEM_ARMED },
};

/* The Ports pane's flag of each problem: the doctor's finding and the flag come from one decision. */
static const unsigned int problem_flags[] = {
	[PORT_PROBLEM_NONE] = 0,
	[PORT_PROBLEM_NO_SM] = PORT_FLAG_NO_SM,
	[PORT_PROBLEM_SM_PENDING] = PORT_FLAG_SM_PENDING,
	[PORT_PROBLEM_NO_GUID] = PORT_FLAG_NO_GUID,
	[PORT_PROBLEM_POLLING] = PORT_FLAG_NO_LINK,
	[PORT_PROBLEM_DISABLED] = PORT_FLAG_NO_LINK,
	[PORT_PROBLEM_DOWN] = PORT_FLAG_NO_LINK,
	[PORT_PROBLEM_ARMED] = 0,
};

enum port_problem port_problem(const struct fab_device *d, const struct fab_port *p)
{
	for (size_t k = 0; k < ARRAY_SIZE(port_rules); k++) {
		if ((port_rules[k].state != PORT_STATE_UNKNOWN && port_rules[k].state != p->state) ||
		    (port_rules[k].phys != PHYS_STATE_UNKNOWN && port_rules[k].phys != p->phys_state))
			continue;
		if (port_rules[k].when && !port_rules[k].when(d, p))
			continue;
		return port_rules[k].problem;
	}
	return PORT_PROBLEM_NONE;
}

unsigned int port_rate_width(const char *rate)
{
	const char *p = strchr(rate, '(');
	unsigned int w;

	if (p && sscanf(p + 1, "%uX", &w) == 1)
		return w;
	return 0;
}

static bool port_active(const struct fab_port *p)
{
	return p->state == PORT_STATE_ACTIVE || p->state == PORT_STATE_ACTIVE_DEFER;
}

bool port_is_slow(const struct fab_device *d, const struct fab_port *p, double *best_gbps)
{
	double best = 0;

	for (size_t j = 0; j < d->nports; j++) {
		const struct fab_port *o = &d->ports[j];

		if (port_active(o) && o->rate_known && o->link_layer == p->link_layer && o->rate_gbps > best)
			best = o->rate_gbps;
	}
	if (best_gbps)
		*best_gbps = best;
	if (!port_active(p) || !p->rate_known)
		return false;
	return p->rate_gbps < best ||
	       (p->link_layer == LINK_LAYER_INFINIBAND && port_rate_width(p->rate) == 1);
}

unsigned int port_flags(const struct fab_device *d, const struct fab_port *p)
{
	enum port_problem pp = port_problem(d, p);
	unsigned int f = (size_t)pp < ARRAY_SIZE(problem_flags) ? problem_flags[pp] : 0;

	if (port_is_slow(d, p, NULL))
		f |= PORT_FLAG_SLOW;
	for (unsigned int i = 0; i < p->nnetdevs; i++)
		if (!p->netdevs[i].in_ns) {
			f |= PORT_FLAG_NETNS;
			break;
		}
	return f;
}

void port_flags_str(unsigned int flags, char *buf, size_t size)
{
	/* one name per PORT_FLAG_* bit, in bit order */
	static const char *const names[] = { "NO-SM", "NO-LINK", "SLOW", "NETNS", "SM-PENDING", "NO-GUID" };
	size_t n = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned int i = 0; i < ARRAY_SIZE(names) && n < size; i++)
		if (flags & (1u << i))
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "," : "", names[i]);
}
