/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The local ports' PMA counters asked and awaited: a one-shot look, or a host-only watch at each sample. */
#ifndef FABTOP_MAD_MAD_LPMA_H
#define FABTOP_MAD_MAD_LPMA_H

#include "ctx.h"
#include "model/fabric.h"
#include "model/ibfabric.h"

struct mad_fabric;

/*
 * `show counters` (and the live core's LIVE_HOST_ONLY watch of `--count`)
 * with --counters pma|auto keeps no MAD view: each look asks the local
 * ports' PMA once and waits for the answers, so every printed sample is of
 * one source (as infiniband-diags' pma_query_via() blocks).
 */
struct mad_lpma {
	struct ib_fabric f;
	struct mad_fabric *v;		/* NULL: counters from sysfs */
};

/* How long the first answers (the port, ClassPortInfo, both counter sets) may take. */
#define MAD_LPMA_DEADLINE_NS	(3ull * 1000000000ull)

/*
 * Open it for h's InfiniBand ports when ctx asks for PMA counters (pma,
 * auto) and put the first answers into h. What cannot be asked is said
 * through say(arg, msg); those ports keep their sysfs counters.
 */
void mad_lpma_open(struct mad_lpma *pm, const struct fab_ctx *ctx, struct fab_host *h,
		   void (*say)(void *arg, const char *msg), void *arg);
/* A new PMA sample into h, in place of its counters/ files (nothing when not open). */
void mad_lpma_sample(struct mad_lpma *pm, struct fab_host *h, void (*say)(void *arg, const char *msg), void *arg);
void mad_lpma_close(struct mad_lpma *pm);

#endif
