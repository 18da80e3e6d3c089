/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The subcommands main() dispatches to; each lives in its own cmd_*.c file. */
#ifndef FABTOP_CMD_COMMANDS_H
#define FABTOP_CMD_COMMANDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ctx.h"

/* Exit codes are a contract (README, fabtop(1)). */
#define EXIT_OK		0
#define EXIT_RUNTIME	1
#define EXIT_USAGE	2

/*
 * Each command gets the context (global options already applied) and its
 * own arguments, argv[0] being the command name. It returns an exit code.
 * The monitor's argv[0] is "" when no command word was given: its usage
 * errors are then the program's (main prints the program's usage).
 */
int cmd_show(struct fab_ctx *ctx, int argc, char **argv);
int cmd_doctor(struct fab_ctx *ctx, int argc, char **argv);
int cmd_probe(struct fab_ctx *ctx, int argc, char **argv);
int cmd_monitor(struct fab_ctx *ctx, int argc, char **argv);
int cmd_export(struct fab_ctx *ctx, int argc, char **argv);
int cmd_record(struct fab_ctx *ctx, int argc, char **argv);
int cmd_counters(struct fab_ctx *ctx, int argc, char **argv);
int cmd_trace(struct fab_ctx *ctx, int argc, char **argv);
int cmd_lab(struct fab_ctx *ctx, int argc, char **argv);

/* "show [ports|counters|...|all]": show's sections from its own table, for fabtop --help. */
void show_synopsis(FILE *f);

/*
 * fabtop show events, live (cmd/cmd_show_events.c): watch the source for
 * duration_s seconds (0: until SIGINT/SIGTERM) and print the events at or
 * after since_ns (CLOCK_REALTIME) as they come, or with ctx->json one
 * document at the end. Returns an exit code.
 */
int show_events_watch(const struct fab_ctx *ctx, double duration_s, uint64_t since_ns);

/*
 * The watch behind `show events` and `fabtop record`: sample the source as
 * the monitor does, derive events, drain the devices' notifications; print
 * them (print), and/or record everything into record_path; until
 * duration_s, count samples, or SIGINT/SIGTERM/SIGHUP.
 */
struct events_watch_opts {
	double duration_s;		/* 0: no limit */
	long count;			/* samples, the first look included; 0: no limit */
	uint64_t since_ns;		/* printed events: those at or after (CLOCK_REALTIME) */
	const char *record_path;	/* NULL: no recording */
	bool fabric;			/* the whole subnet too (record --fabric) */
	bool print;
	const char *who;		/* "show events", "record": for messages */
};
int events_watch(const struct fab_ctx *ctx, const struct events_watch_opts *o);

/*
 * fabtop probe --lid N | --guid G [-C COUNT] [--timeout MS] [--device CA] [--port N]
 * (cmd/cmd_probe_mad.c): pings the ibping server (ibping -S) at the destination
 * with vendor MADs (class 0x32, OUI 0x001405) and prints round-trip times.
 * Exit code: 0 when at least one reply came, 1 when none (or no access), 2
 * on bad usage. cmd_probe() hands over when cmd_probe_mad_wanted().
 */
bool cmd_probe_mad_wanted(int argc, char **argv);
int cmd_probe_mad(struct fab_ctx *ctx, int argc, char **argv);

#endif
