/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Collecting the host's RDMA devices from sysfs (and verbs where it helps). */
#ifndef FABTOP_KERNEL_HOST_H
#define FABTOP_KERNEL_HOST_H

#include <stdint.h>

#include "source/source.h"
#include "ctx.h"
#include "model/fabric.h"


/*
 * Read every device under ctx->sysfs_root/class/infiniband into h (which
 * must be zeroed or freed). Counter files are opened and kept open for
 * collect_counters_refresh(); the first sample is taken. Odd values are
 * marked unknown and warned about once; only allocation failure makes it
 * fail (-ENOMEM). A missing class/infiniband sets h->sysfs_missing.
 * What is left out (COLLECT_COUNTERS, COLLECT_GIDS) is marked in each
 * port's pending bits for collect_port_fill(); COLLECT_KEEP_GIDS copies the
 * GID tables of h->handover's same ports instead of reading them.
 */
int collect_host(const struct fab_ctx *ctx, struct fab_host *h, unsigned int what);

/*
 * Read what collect_host() left out of port `port` of device `dev` of h
 * (what: COLLECT_COUNTERS, COLLECT_GIDS, as far as p->pending still asks
 * for them; with COLLECT_NETDEVS the netdevs the GIDs name are added).
 * Clears those bits of p->pending. A GID table read from sysfs stops at
 * deadline_ns (CLOCK_MONOTONIC; 0: none) and goes on at the next call, its
 * bit still pending; the old table stays until the new one is whole.
 * 0 or -ENOMEM (the bits stay pending).
 */
int collect_port_fill(const struct fab_ctx *ctx, struct fab_host *h, size_t dev, size_t port, unsigned int what,
		      uint64_t deadline_ns);

/*
 * Device `dev` of h read again into nd (zeroed here), as collect_host()
 * would with h handed over: its open counter files move to nd (and with
 * COLLECT_KEEP_GIDS its GID tables are copied). The caller swaps nd in and
 * frees the old device (fab_device_free()). 0 or -ENOMEM (nd empty).
 */
int collect_device_again(const struct fab_ctx *ctx, struct fab_host *h, size_t dev, unsigned int what,
			 struct fab_device *nd);

/*
 * Take a new counter sample of every port: one pread per open counter file,
 * no allocation. now_ns is CLOCK_MONOTONIC (see util_now_ns()).
 */
void collect_counters_refresh(struct fab_host *h, uint64_t now_ns);


/*
 * Record a counter's sysfs text as its next sample: the current value becomes
 * the previous one, then the raw text ("123", "N/A (no PMA)", garbage, a
 * number too wide for the counter) is parsed into known/value/saturated and
 * kept in c->raw. Never allocates.
 */
void collect_counter_text(struct fab_counter *c, const char *raw);

#endif
