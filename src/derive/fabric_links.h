/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The links of a swept fabric as rows: both ends, rates each way, error deltas, and what is wrong with each. */
#ifndef FABTOP_DERIVE_FABRIC_LINKS_H
#define FABTOP_DERIVE_FABRIC_LINKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "derive/xmit_wait.h"
#include "model/ibfabric.h"

/* What is wrong with a link; the higher bits are the worse trouble (rows sort by the value). */
#define FLINK_SATURATED	(1u << 0)	/* a counter of an end is latched at its maximum */
#define FLINK_DEGRADED	(1u << 1)	/* trained below the width or speed both ends can do */
#define FLINK_ERRORS	(1u << 2)	/* error counters moved since the first sample */
#define FLINK_NO_ANSWER	(1u << 3)	/* an end does not answer (its PMA, or the far node's SMA) */
#define FLINK_DOWN	(1u << 4)	/* down since the last sweep, or LinkDowned moved */

/* A link that was up at the sweep before and is not now: its ends as they were. */
struct fabric_lost_link {
	struct ib_node_id a, b;
	uint8_t a_port, b_port;
	uint16_t a_lid, b_lid;
	char why[64];			/* "port DOWN/Polling", "node gone" */
};

/* One end's last interval. */
struct fabric_end {
	bool rates;			/* xmit/rcv known */
	double xmit_bps, rcv_bps;	/* bytes per second */
	bool wait_known;
	double wait_per_s;		/* PortXmitWait ticks per second */
	enum xmit_wait_how wait_how;	/* XWAIT_SHARE: wait_share is known (derive/xmit_wait.h) */
	double wait_share;		/* the share of the interval the port waited to send, 0..1 */
	uint64_t errors;		/* sum of the error counters' deltas since the first sample */
	uint64_t errors_now;		/* ... over the last interval */
	uint64_t link_downed;		/* LinkDownedCounter's delta since the first sample */
	uint64_t link_downed_now;	/* ... over the last interval */
	bool saturated;
	enum ib_query_state pma;	/* IBQ_NONE: no counters asked */
};

struct fabric_link_row {
	size_t a, b;			/* node indexes; b is meaningless when half */
	uint8_t a_port, b_port;
	bool half;			/* the far end did not answer the sweep */
	const struct fabric_lost_link *lost;	/* a lost link (a, b unused) */
	struct fabric_end ea, eb;
	unsigned int flags;		/* FLINK_* */
	char why[96];			/* the worst trouble in words ("" when none) */
};

/*
 * The lanes of a LinkWidth bit set's widest member (1X 1, 2X 2, 4X 4, 8X 8,
 * 12X 12), 0 when none.
 */
unsigned int fabric_width_lanes(unsigned int width_bits);

/*
 * The width and speed a cable between ports pa (of node na) and pb (of
 * nb) should train at. A port's width is the widest of LinkWidthSupported
 * that its node enables on any port (a simulator or firmware may
 * advertise widths no port of the device can use: ibsim says 12X of every
 * port); its speed is the fastest LinkSpeedSupported (and
 * LinkSpeedExtSupported) both ends share. True when it trained below:
 * why then says how ("1X, both ends do 4X").
 */
bool fabric_link_degraded(const struct ib_fnode *na, const struct ib_port_id *pa, const struct ib_fnode *nb,
			  const struct ib_port_id *pb, char *why, size_t whysz);

/* One end's interval from its PMA samples. */
void fabric_end_from(const struct ib_pma *pma, struct fabric_end *e);
/* ... and its PortXmitWait as a share of the interval, at the speed of port pi (wait_how says whether). */
void fabric_end_wait(struct fabric_end *e, const struct ib_pma *pma, const struct ib_port_id *pi);

/*
 * The rows of f: every link, every port that is up whose far end did not
 * answer, and the lost links. Returns how many were written to rows (at
 * most max); *total gets how many there are.
 */
size_t fabric_links_build(const struct ib_fabric *f, const struct fabric_lost_link *lost, size_t nlost,
			  struct fabric_link_row *rows, size_t max, size_t *total);

#endif
