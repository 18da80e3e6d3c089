/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool statistics (ETHTOOL_GSTRINGS + ETHTOOL_GSTATS answers) into struct roce_ethtool; no I/O. */
#ifndef FABTOP_KERNEL_ETHTOOL_PARSE_H
#define FABTOP_KERNEL_ETHTOOL_PARSE_H

#include <stddef.h>

#include "model/roce.h"

#define ETHTOOL_NAME_LEN	32	/* ETH_GSTRING_LEN */

/*
 * n names of ETHTOOL_NAME_LEN bytes each (not always NUL-terminated) and n
 * 64-bit values in host order, as the two ioctls return them. The counters
 * the drivers name for PFC, pause time, discards and ECN marks (the table
 * in ethtool_parse.c, each with its source) fill out; the rest are skipped.
 * Returns 0, or -EBADMSG when the lengths do not hold n of each.
 */
int ethtool_stats_parse(const void *names, size_t names_len, const void *values, size_t values_len,
			unsigned int n, struct roce_ethtool *out);

/* The counter kind a driver's name is, for tests and the docs: -1 when none. */
int ethtool_name_kind(const char *name, int *prio, bool *per_prio);

#endif
