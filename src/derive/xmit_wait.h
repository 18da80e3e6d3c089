/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PortXmitWait as a share of the interval: the tick's length from PortSamplesControl:Tick and the link's speed. */
#ifndef FABTOP_DERIVE_XMIT_WAIT_H
#define FABTOP_DERIVE_XMIT_WAIT_H

#include <stdbool.h>
#include <stdint.h>

/* Whether a share could be given, and why not (doc/ib-management.md, "PortXmitWait"). */
enum xmit_wait_how {
	XWAIT_SHARE = 0,	/* *share is the part of the interval the port waited */
	XWAIT_NO_TICK,		/* the PMA did not say its tick (PortSamplesControl did not answer) */
	XWAIT_NO_SPEED,		/* no byte time for the link's speed (HDR and up, or unknown) */
	XWAIT_OVER,		/* the ticks would cover more than the interval: the device's tick is another */
	XWAIT_ASKING,		/* the tick is being asked (it is asked when the counter first moves) */
};

/*
 * The time one byte takes on one lane at LinkSpeedActive speed (1 SDR, 2
 * DDR, 4 QDR) or LinkSpeedExtActive speed_ext (1 FDR, 2 EDR), in ns: the
 * IBA's "symbol time" a PortXmitWait tick is a multiple of. 0 when unknown.
 */
double xmit_wait_byte_ns(unsigned int speed, unsigned int speed_ext);

/*
 * ticks_per_s of PortXmitWait as a share (0..1) of the time, for a PMA whose
 * PortSamplesControl:Tick is tick (tick_known) on a link at speed/speed_ext:
 * one tick lasts (tick + 1) byte times. No tick at all is a share of 0
 * whatever a tick's length.
 */
enum xmit_wait_how xmit_wait_share(double ticks_per_s, bool tick_known, uint8_t tick, unsigned int speed,
				   unsigned int speed_ext, double *share);

/* Why there is no share, for people ("" for XWAIT_SHARE). */
const char *xmit_wait_why(enum xmit_wait_how how);

#endif
