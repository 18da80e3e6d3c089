/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Does a port's QP auto mode really bind new QPs? Asked with a QP of our own. */
#ifndef FABTOP_CHANGE_STAT_VERIFY_H
#define FABTOP_CHANGE_STAT_VERIFY_H

#include <stdbool.h>

/*
 * Create one RC QP on dev/port through verbs, move it to INIT (where the
 * kernel binds a QP in auto mode), look whether a QP counter now lists
 * it, and destroy it again. *bound tells. 0, or -errno when the test
 * could not be made (no such verbs device, no memory, ...).
 */
int stat_verify_qp_auto(const char *dev, unsigned int port, bool *bound);

#endif
