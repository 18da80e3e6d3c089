/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fabtop lab up|down: the two-NIC host built for real on this kernel (doc/lab.md, "The real lab"). */
#ifndef FABTOP_CHANGE_LAB_H
#define FABTOP_CHANGE_LAB_H

#include <stdio.h>

/* The state file: FABTOP_LAB_STATE, else /run/fabtop/lab.state. */
const char *lab_state_path(void);

/*
 * Build the lab: load rdma_rxe (and vrf, veth, bridge, rdma_ucm), then
 * create each object after writing it to the state file. Refuses (1, with
 * the reason on err) when the state file's directory is not root's alone,
 * another up or down holds the lock, a state file exists (a lab is up, or
 * an `up` was killed: `lab down` first), 172.16.0.0/16 is in use here or
 * routed, one of the lab's objects exists already (each named), or a
 * module cannot be loaded. On a failing step everything made so far is
 * removed again. self: this program (/proc/self/exe), started as the peer's
 * listener. Returns 0 or 1.
 */
int lab_up(const char *self, FILE *out, FILE *err);

/*
 * Remove every object the state file names, newest first, then the file.
 * Objects already gone are fine; lines that are not the lab's own are
 * reported and left alone. Returns 0 (also when no lab is up) or 1.
 */
int lab_down(FILE *out, FILE *err);

#endif
