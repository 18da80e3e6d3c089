// SPDX-License-Identifier: GPL-2.0-or-later
/* Port problems and flags from one rule table, shared by the Ports pane and the doctor. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "derive/port.h"
#include "util.h"

static const struct {
	enum fab_port_state state;	/* PORT_STATE_UNKNOWN: any */
	enum fab_phys_state phys;	/* PHYS_STATE_UNKNOWN: any */
	enum port_problem problem;
} port_rules[] = {
	{ PORT_STATE_INIT, PHYS_STATE_LINK_UP, PORT_PROBLEM_NO_SM },
	{ PORT_STATE_DOWN, PHYS_STATE_POLLING, PORT_PROBLEM_POLLING },
	{ PORT_STATE_UNKNOWN, PHYS_STATE_DISABLED, PORT_PROBLEM_DISABLED },
	{ PORT_STATE_DOWN, PHYS_STATE_UNKNOWN, PORT_PROBLEM_DOWN },
	{ PORT_STATE_ARMED, PHYS_STATE_UNKNOWN, PORT_PROBLEM_ARMED },
};

enum port_problem port_problem(const struct fab_port *p)
{
	for (size_t k = 0; k < ARRAY_SIZE(port_rules); k++) {
		if ((port_rules[k].state != PORT_STATE_UNKNOWN && port_rules[k].state != p->state) ||
		    (port_rules[k].phys != PHYS_STATE_UNKNOWN && port_rules[k].phys != p->phys_state))
			continue;
		/* INIT without an SM only means something on InfiniBand. */
		if (port_rules[k].problem == PORT_PROBLEM_NO_SM && p->link_layer == LINK_LAYER_ETHERNET)
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
	unsigned int f = 0;

	switch (port_problem(p)) {
	case PORT_PROBLEM_NO_SM:
		f |= PORT_FLAG_NO_SM;
		break;
	case PORT_PROBLEM_POLLING:
	case PORT_PROBLEM_DISABLED:
	case PORT_PROBLEM_DOWN:
		f |= PORT_FLAG_NO_LINK;
		break;
	case PORT_PROBLEM_ARMED:
	case PORT_PROBLEM_NONE:
		break;
	}
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
	static const char *const names[] = { "NO-SM", "NO-LINK", "SLOW", "NETNS" };
	size_t n = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned int i = 0; i < ARRAY_SIZE(names) && n < size; i++)
		if (flags & (1u << i))
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "," : "", names[i]);
}
