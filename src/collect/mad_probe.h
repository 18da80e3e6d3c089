/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An ibping-style MAD probe by LID or GUID: `fabtop probe --lid N` / `--guid G`. */
#ifndef FABTOP_COLLECT_MAD_PROBE_H
#define FABTOP_COLLECT_MAD_PROBE_H

#include <stdbool.h>

#include "ctx.h"

/* Does argv ask for the MAD probe (--lid/--guid anywhere)? */
bool mad_probe_wanted(int argc, char **argv);

/*
 * fabtop probe --lid N | --guid G [-C COUNT] [--timeout MS] [--device CA] [--port N]:
 * pings the ibping server (ibping -S) at the destination with vendor MADs
 * (class 0x32, OUI 0x001405) and prints round-trip times. Exit code: 0 when
 * at least one reply came, 1 when none (or no access), 2 on bad usage.
 */
int mad_probe_cmd(struct fab_ctx *ctx, int argc, char **argv);

#endif
