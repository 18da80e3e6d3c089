/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line options through getopt_long: the global ones, accepted before the command and among its own. */
#ifndef FABTOP_OPTS_H
#define FABTOP_OPTS_H

#include <getopt.h>

#include "ctx.h"

/* getopt_long values of the global options (short ones: 'h', 'V'). */
enum {
	OPT_SYSFS = 0x100,
	OPT_PROC,
	OPT_CONFIGFS,
	OPT_INTERVAL,
	OPT_COUNT,
	OPT_SEED,
	OPT_JSON,
	OPT_NO_COLOR,
	OPT_DEMO,
	OPT_RESET,		/* --reset: the demo's scenario back to broken */
	OPT_PROMETHEUS,
	OPT_REPLAY,
	OPT_AT,
	OPT_COUNTERS,
	OPT_FABRIC_MEM,
	OPT_FABRIC_SMPS,
	OPT_ETC,
	OPT_VERSION,		/* --version; -V too, unless the command gives -V a meaning of its own */
	OPT_FIRST_OWN,		/* a command's own long-only options start here */
};

/* What the options opened (the recording of --replay). */
void opts_free(struct fab_ctx *ctx);

/* Room for a command's own options and the global ones, and the terminator. */
#define OPTS_MAX 48

/* out = own (terminated by a zero entry), then the global options, then a zero entry. */
void opts_merge(struct option *out, const struct option *own);

/*
 * A global option getopt_long returned (c) with its argument: applied to
 * ctx. Returns 0; EXIT_USAGE with the message printed (a bad value);
 * EXIT_RUNTIME with the message printed (a --replay file that cannot be
 * read); -1 when it was --version and the version is printed (exit 0);
 * OPTS_NOT_GLOBAL when c is not a global option at all.
 */
#define OPTS_NOT_GLOBAL 64
int opts_global(struct fab_ctx *ctx, int c, const char *arg);

/*
 * getopt_long returned '?' or ':' (opterr off, optstring starting with
 * ':'): print "fabtop CMD: ..." naming the option, and return EXIT_USAGE.
 */
int opts_error(const char *cmd, int c, char **argv);

/*
 * The next option of a command's argv (shortopts starts with ":" and has
 * "hV"): its own options and 'h' are returned for the command to handle;
 * so is 'V' when the command's own table names a long option for it (probe:
 * rping's -V, --validate), --version staying the version;
 * the global ones are applied to ctx here. Returns -1 at the end of the
 * options, or when parsing must stop: then *stop is the exit code (an
 * unknown option or a missing or bad value: EXIT_USAGE, the message
 * printed; --version: EXIT_OK, the version printed). *stop is -1 otherwise.
 */
int opts_next(struct fab_ctx *ctx, const char *cmd, int argc, char **argv, const char *shortopts,
	      const struct option *longopts, int *stop);

/* Start a new getopt_long pass over another argv (a command's after main's). */
void opts_reset(void);

#endif
