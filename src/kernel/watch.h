/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cheap check, between full collections, whether the RDMA structure or port states changed. */
#ifndef FABTOP_KERNEL_WATCH_H
#define FABTOP_KERNEL_WATCH_H

#include <stdbool.h>

#include "ctx.h"
#include "model/fabric.h"

/*
 * Compare the devices and ports under ctx->sysfs_root with h: names, port
 * numbers, and each port's state, phys_state, rate, lid and sm_lid as read.
 * A few reads per port instead of a full collection (whose GID tables cost
 * ~3 reads per entry): true when h is out of date and must be collected again.
 */
bool watch_changed(const struct fab_ctx *ctx, const struct fab_host *h);

/*
 * The same, device by device: -1 when devices came, went or were renamed
 * (collect the host again), else how many devices changed, each marked
 * true in devs (h->ndevs entries; NULL: stop at the first).
 */
int watch_changed_devices(const struct fab_ctx *ctx, const struct fab_host *h, bool *devs);

#endif
