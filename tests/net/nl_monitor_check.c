// SPDX-License-Identifier: GPL-2.0-or-later
/* Exercise netlink_monitor_open/drain: print "quiet" or "busy" at start, "ready", then "changed" per burst of events. */
#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/netlink.h"

int main(int argc, char **argv)
{
	int want = argc > 1 ? atoi(argv[1]) : 1;	/* how many change bursts to wait for */
	int fd = netlink_monitor_open(), seen = 0;

	if (fd < 0) {
		fprintf(stderr, "netlink_monitor_open failed: %d\n", fd);
		return 1;
	}
	printf("%s\nready\n", netlink_monitor_drain(fd) ? "busy" : "quiet");
	fflush(stdout);
	while (seen < want) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n = poll(&p, 1, 10000);

		if (n <= 0) {
			printf("timeout\n");
			netlink_monitor_close(fd);
			return 1;
		}
		if (netlink_monitor_drain(fd)) {
			printf("changed\n");
			fflush(stdout);
			seen++;
		}
	}
	printf("%s\n", netlink_monitor_drain(fd) ? "busy" : "quiet");
	netlink_monitor_close(fd);
	return 0;
}
