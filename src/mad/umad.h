/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Access to /dev/infiniband/umad*: which local IB ports exist, opening them, and saying why not. */
#ifndef FABTOP_MAD_UMAD_H
#define FABTOP_MAD_UMAD_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"
#include "model/fabric.h"

#define UMAD_MAX_LOCAL_PORTS 32

struct umad_local {
	char ca[FAB_NAME_LEN];
	unsigned int port;
	char dev[32];			/* "/dev/infiniband/umadN" or "" */
};

/*
 * The InfiniBand ports libibumad can see (Ethernet/RoCE ports have no SMI or
 * PMA of their own and are left out). Returns how many, 0 with a reason in
 * why when there are none, or -ENOMEM.
 */
int umad_list_ports(const struct fab_ctx *ctx, struct umad_local *out, size_t max,
		    char *why, size_t whysz);

/*
 * Open a port for MADs. Returns the libibumad port id (>= 0) or -errno; on
 * failure why says which device node and what to do (root, group, udev rule).
 * dev_root is "/dev" except in tests.
 */
int umad_open(const struct fab_ctx *ctx, const struct umad_local *p, const char *dev_root,
	      char *why, size_t whysz);

/*
 * The advice for a device node that cannot be opened with err (EACCES,
 * ENOENT, ...): owner, group and mode of the node, and the fix. Pure
 * formatting over stat(2) of the node, so tests can aim it at any file.
 */
void umad_explain_open_error(const char *node, int err, char *why, size_t whysz);

/*
 * libibumad reads the system's own /sys. A --sysfs tree may be used with
 * MADs only when it describes the very devices libibumad sees (the
 * simulator's per-process tree does; a fixture tree does not): true when
 * every CA libibumad lists is in ctx's tree with the same node GUID.
 */
bool umad_tree_is_live(const struct fab_ctx *ctx);

#endif
