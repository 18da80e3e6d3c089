/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What is wrong with a port, decided once for the Ports pane's flags and the doctor's findings. */
#ifndef FABTOP_DERIVE_PORT_H
#define FABTOP_DERIVE_PORT_H

#include <stddef.h>

#include "model/fabric.h"

/*
 * A port that cannot carry traffic, by its state and physical state and,
 * for INIT with the link up on InfiniBand, by what says why the subnet
 * manager has not activated it (first match wins).
 */
enum port_problem {
	PORT_PROBLEM_NONE,
	PORT_PROBLEM_NO_SM,		/* INIT with the link up (InfiniBand), no SM LID: no subnet manager */
	PORT_PROBLEM_SM_PENDING,	/* INIT with the link up, SM LID set: the SM reached it, not activated yet */
	PORT_PROBLEM_NO_GUID,		/* INIT with the link up, node GUID zero: a VF no SM can configure */
	PORT_PROBLEM_POLLING,		/* DOWN and Polling: no link partner */
	PORT_PROBLEM_DISABLED,		/* physically Disabled */
	PORT_PROBLEM_DOWN,		/* DOWN otherwise */
	PORT_PROBLEM_ARMED,		/* ARMED: the SM has not finished */
};

enum port_problem port_problem(const struct fab_device *d, const struct fab_port *p);

/* The Ports pane's flags, as bits; port_flags_str() writes "NO-SM,SLOW". */
#define PORT_FLAG_NO_SM		(1u << 0)
#define PORT_FLAG_NO_LINK	(1u << 1)	/* polling, disabled or down */
#define PORT_FLAG_SLOW		(1u << 2)	/* see port_is_slow() */
#define PORT_FLAG_NETNS		(1u << 3)	/* a netdev of the port is not in this namespace */
#define PORT_FLAG_SM_PENDING	(1u << 4)	/* PORT_PROBLEM_SM_PENDING */
#define PORT_FLAG_NO_GUID	(1u << 5)	/* PORT_PROBLEM_NO_GUID */

unsigned int port_flags(const struct fab_device *d, const struct fab_port *p);
void port_flags_str(unsigned int flags, char *buf, size_t size);

/*
 * An ACTIVE port that runs below what it can: slower than the fastest
 * ACTIVE port of the same link layer on its device, or an InfiniBand link
 * of width 1X (a lane lost in training; 2X is what split cables give).
 * *best_gbps is that fastest rate (0 when there is none).
 */
bool port_is_slow(const struct fab_device *d, const struct fab_port *p, double *best_gbps);

/* The device's node GUID reads as all zero (unreadable is not zero). */
bool port_node_guid_zero(const struct fab_device *d);

/* "(4X EDR)" -> 4; 0 when the rate text names no width. */
unsigned int port_rate_width(const char *rate);

#endif
