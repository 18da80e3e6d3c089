/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The subcommands main() dispatches to; each lives in its own cmd_*.c file. */
#ifndef FABTOP_COMMANDS_H
#define FABTOP_COMMANDS_H

#include "ctx.h"

/* Exit codes are a contract (README, fabtop(1)). */
#define EXIT_OK		0
#define EXIT_RUNTIME	1
#define EXIT_USAGE	2

/*
 * Each command gets the context (global options already applied) and its
 * own arguments, argv[0] being the command name. It returns an exit code.
 */
int cmd_show(struct fab_ctx *ctx, int argc, char **argv);
int cmd_doctor(struct fab_ctx *ctx, int argc, char **argv);
int cmd_probe(struct fab_ctx *ctx, int argc, char **argv);
int cmd_monitor(struct fab_ctx *ctx, int argc, char **argv);

#endif
