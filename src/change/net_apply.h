/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Applying a fix plan at runtime (doctor --apply --yes): netlink + sysctl writes with rollback. */
#ifndef FABTOP_CHANGE_NET_APPLY_H
#define FABTOP_CHANGE_NET_APPLY_H

#include <stdio.h>

#include "derive/fix.h"

/*
 * Apply every step of plan not already in place (st is the state the plan
 * was built from: routes it replaces are restored on failure), in order: routes in the
 * per-interface tables, rules, then sysctls under proc_root. The previous
 * state of each step is recorded first (printed to log as the commands that
 * restore it); if any step fails, the completed ones are undone in reverse.
 * SIGINT, SIGTERM and SIGHUP pending (the caller blocks them around this)
 * stop it the same way, -EINTR. A route overwritten is restored from the
 * kernel's own message of it. Returns 0, or the failing step's -errno after
 * the rollback; *left counts the steps the rollback could not undo (their
 * undo commands are on log).
 */
int net_apply(const struct fix_plan *plan, const struct net_state *st, const char *proc_root, FILE *log,
	      size_t *left);

#endif
