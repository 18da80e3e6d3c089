// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop lab up [two-nics] | lab down: the real lab on this kernel (doc/lab.md, "The real lab"). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "change/lab.h"
#include "cmd/commands.h"

int cmd_lab(struct fab_ctx *ctx, int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	bool up = !strcmp(what, "up"), down = !strcmp(what, "down");

	(void)ctx;
	if (!strcmp(what, "--help") || !strcmp(what, "-h")) {
		printf("usage: fabtop lab up [two-nics] | fabtop lab down\n"
		       "  the two-NIC host of `fabtop --demo two-nics`, built for real with Soft-RoCE (doc/lab.md);\n"
		       "  root only; state in $FABTOP_LAB_STATE (default /run/fabtop/lab.state)\n");
		return EXIT_OK;
	}
	if ((!up && !down) || argc > 3 || (down && argc > 2) ||
	    (up && argc == 3 && strcmp(argv[2], "two-nics"))) {
		fprintf(stderr, "usage: fabtop lab up [two-nics] | fabtop lab down\n"
			"  the two-NIC host of `fabtop --demo two-nics`, built for real with Soft-RoCE (doc/lab.md)\n");
		return EXIT_USAGE;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "fabtop lab: root only: it creates a network namespace, links, Soft-RoCE devices "
			"and routing rules (try sudo, or `fabtop --demo two-nics` without root)\n");
		return EXIT_RUNTIME;
	}
	if (up) {
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		/* the listener shows as fabtop in ps and rdma resource, not as "exe" */
		if (n <= 0 || (size_t)n >= sizeof(self) - 1)
			snprintf(self, sizeof(self), "/proc/self/exe");
		else
			self[n] = '\0';
		return lab_up(self, stdout, stderr) ? EXIT_RUNTIME : EXIT_OK;
	}
	return lab_down(stdout, stderr) ? EXIT_RUNTIME : EXIT_OK;
}
