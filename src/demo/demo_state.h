/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a student fixed on the simulated host, kept between runs like a
 * real host's runtime fix: until this machine reboots. One small file per
 * scenario under $XDG_STATE_HOME/fabtop/demo/ (doc/lab.md).
 */
#ifndef FABTOP_DEMO_STATE_H
#define FABTOP_DEMO_STATE_H

#include <stdbool.h>
#include <stddef.h>

struct demo_state {
	bool route;		/* the doctor's routing fix is in */
	bool own;		/* the scenario's own fix (a new cable, PFC on, ...) is in */
};

/* The file of scenario NAME (NULL: the default demo). -1 if neither XDG_STATE_HOME nor HOME is usable. */
int demo_state_path(const char *name, char *buf, size_t size);
/*
 * Read NAME's state into st. 0 with st filled (all false when there is no
 * file, or it was written before this machine's last boot); -EINVAL for a
 * file that is not a demo state (st all false; why in err); -errno when it
 * cannot be read.
 */
int demo_state_load(const char *name, struct demo_state *st, char *err, size_t esize);
/* Keep st for NAME (an all-false st removes the file). 0 or -errno. */
int demo_state_save(const char *name, const struct demo_state *st);

#endif
