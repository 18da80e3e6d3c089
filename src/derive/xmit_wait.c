// SPDX-License-Identifier: GPL-2.0-or-later
/* PortXmitWait ticks as the share of an interval a port had data to send and sent none (doc/ib-management.md). */
#include "config.h"

#include "derive/xmit_wait.h"
#include "util.h"

/*
 * The byte time on one lane: 10 bits (8b/10b) at 2.5, 5 and 10 Gbaud for
 * SDR, DDR and QDR; 66 bits per 64 (64b/66b) at 14.0625 and 25.78125 Gbaud
 * for FDR and EDR. HDR and NDR (PAM4 with FEC) are left out: how their
 * devices count ticks varies by generation (NVIDIA's ibdiagnet manual says
 * so), and a share made with the wrong tick is worse than ticks per second.
 */
static const struct { bool ext; unsigned int val; double byte_ns; } byte_times[] = {
	{ false, 1, 4.0 }, { false, 2, 2.0 }, { false, 4, 1.0 },
	{ true, 1, 8.0 * 66 / 64 / 14.0625 }, { true, 2, 8.0 * 66 / 64 / 25.78125 },
};

double xmit_wait_byte_ns(unsigned int speed, unsigned int speed_ext)
{
	for (size_t i = 0; i < ARRAY_SIZE(byte_times); i++)
		if (byte_times[i].ext ? speed_ext == byte_times[i].val : !speed_ext && speed == byte_times[i].val)
			return byte_times[i].byte_ns;
	return 0;
}

enum xmit_wait_how xmit_wait_share(double ticks_per_s, bool tick_known, uint8_t tick, unsigned int speed,
				   unsigned int speed_ext, double *share)
{
	double byte_ns = xmit_wait_byte_ns(speed, speed_ext), s;

	*share = 0;
	if (ticks_per_s <= 0)
		return XWAIT_SHARE;
	if (!tick_known)
		return XWAIT_NO_TICK;
	if (!byte_ns)
		return XWAIT_NO_SPEED;
	s = ticks_per_s * (tick + 1.0) * byte_ns * 1e-9;
	/* a little over 1 is the two samples' timing; much over it is a tick of another length */
	if (s > 1.02)
		return XWAIT_OVER;
	*share = s > 1 ? 1 : s;
	return XWAIT_SHARE;
}

const char *xmit_wait_why(enum xmit_wait_how how)
{
	static const char *const why[] = {
		[XWAIT_SHARE] = "",
		[XWAIT_NO_TICK] = "the PMA did not answer PortSamplesControl, so its tick is unknown",
		[XWAIT_NO_SPEED] = "no tick length is known at this link speed (HDR and up count ticks per device generation)",
		[XWAIT_OVER] = "the ticks would fill more than the interval: this device's tick is not the one it states",
		[XWAIT_ASKING] = "its tick (PortSamplesControl) is being asked",
	};

	return (unsigned int)how < ARRAY_SIZE(why) ? why[how] : "?";
}
