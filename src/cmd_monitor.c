// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop monitor: not built yet in this tree (its area replaces this file). */
#include "config.h"

#include <stdio.h>

#include "commands.h"

int cmd_monitor(struct fab_ctx *ctx, int argc, char **argv)
{
	fprintf(stderr, "fabtop: 'monitor' is not available in this build yet\n");
	return EXIT_RUNTIME;
}
