/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real lab's state file: every object `fabtop lab up` creates, written before it is created. */
#ifndef FABTOP_CHANGE_LAB_STATE_H
#define FABTOP_CHANGE_LAB_STATE_H

#include <stdbool.h>
#include <stddef.h>

#define LAB_STATE_HEADER	"# fabtop lab state 1"
#define LAB_NAME_LEN		32

enum lab_kind {
	LAB_NETNS,	/* netns NAME: the switch's network namespace */
	LAB_LINK,	/* link NAME: a veth or the peer's VRF device in the initial namespace */
	LAB_RXE,	/* rxe NAME: a Soft-RoCE device */
	LAB_RULE_L3MDEV,	/* rule-l3mdev: "ip rule add pref 0 l3mdev" */
	LAB_RULE_UDP,	/* rule-udp: "ip rule add pref 0 from 172.16.34.10 iif lo table 4793" */
	LAB_LOCAL_RULE,	/* local-rule: the local rule re-added behind the two above */
	LAB_SYSCTL,	/* sysctl udp_l3mdev_accept OLD: the value to restore */
	LAB_LISTENER,	/* listener PID: the peer's fabtop probe --listen */
};

struct lab_obj {
	enum lab_kind kind;
	char name[LAB_NAME_LEN];
	unsigned long num;	/* sysctl: the old value; listener: the pid */
};

/*
 * Parse a state file's text. Every line must be a lab object whose name
 * carries the lab's prefix ("fl-", "fl_"): anything else (another
 * program's name, a truncated line, garbage) is counted in *bad and left
 * out, with the first such line's number in *first_bad, so `lab down`
 * never removes what the lab did not create. Returns the objects (malloc'd,
 * in creation order; NULL with *n 0 when none) .
 */
struct lab_obj *lab_state_parse(const char *text, size_t *n, size_t *bad, size_t *first_bad);

/* One object's line (no newline) into buf; false when it does not fit. */
bool lab_state_format(const struct lab_obj *o, char *buf, size_t size);

#endif
