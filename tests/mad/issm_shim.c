// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A preload for tests/mad/trap.sh, put before umad2sim's: when a process
 * registers an agent for the SA's Reports, also open the simulated issm
 * device, so ibsim hands it unsolicited MADs.
 *
 * Why: on a real port the kernel gives an unsolicited MAD to the agent
 * registered for its class, version and method (fabtop registers SA class
 * version 2 with the Report method). ibsim does not look at agents: its
 * find_client() gives a request to QP 0 or 1 only to a client that opened
 * the issm device, so opensm's Reports to fabtop would be dropped ("no one
 * to handle pkt: class 0x3, attr 0x2") and opensm would log
 * SubnAdmReport(Notice) IB_TIMEOUT. This stands in for the kernel's
 * dispatch and nothing else: the subscription, opensm's forwarding and
 * fabtop's acknowledgement are all real.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>

#include <infiniband/umad.h>

int umad_register(int portid, int mgmt_class, int mgmt_version, uint8_t rmpp_version,
		  long method_mask[16 / sizeof(long)])
{
	static int (*real)(int, int, int, uint8_t, long *);
	int id;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "umad_register");
	if (!real)
		return -1;
	id = real(portid, mgmt_class, mgmt_version, rmpp_version, method_mask);
	/* The SA class with the Report method (0x06) in the mask: the trap subscriber. */
	if (id >= 0 && mgmt_class == 0x03 && method_mask && (method_mask[0] & (1L << 0x06)))
		open("/dev/infiniband/issm0", O_RDWR);
	return id;
}
