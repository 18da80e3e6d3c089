// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop probe: not built yet in this tree (its area replaces this file). */
#include "config.h"

#include <stdio.h>

#include "commands.h"

int cmd_probe(struct fab_ctx *ctx, int argc, char **argv)
{
	fprintf(stderr, "fabtop: 'probe' is not available in this build yet\n");
	return EXIT_RUNTIME;
}
