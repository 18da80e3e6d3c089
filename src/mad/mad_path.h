/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The path to one port GUID kept live under a poll loop: a sweep finds its LID, mad_trace walks to it, each hop sampled every interval. */
#ifndef FABTOP_MAD_MAD_PATH_H
#define FABTOP_MAD_MAD_PATH_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "ctx.h"
#include "model/ibfabric.h"

struct mad_path;

/* Towards the port (or node) whose GUID is guid; NULL when out of memory. Nothing is sent before the first step. */
struct mad_path *mad_path_new(const struct fab_ctx *ctx, uint64_t guid);
void mad_path_free(struct mad_path *p);
/* The path so far: its hops, and rates once two samples are in (t->sampled); NULL before the walk is done. */
const struct ib_trace *mad_path_trace(const struct mad_path *p);
/* What it is doing or why there is no path ("sweeping to find the LID", "no node has port GUID ..."). */
const char *mad_path_status(const struct mad_path *p);
int mad_path_fds(const struct mad_path *p, struct pollfd *fds, int max, int *timeout_ms, uint64_t now_ns);
/* Serve answers, move on; true when the trace or the status changed. Never blocks. */
bool mad_path_step(struct mad_path *p, double interval_s, uint64_t now_ns);

#endif
