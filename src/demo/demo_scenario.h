/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The demo's scenarios: one thing broken on a quiet simulated host, a story, a hint, a fix. */
#ifndef FABTOP_DEMO_DEMO_SCENARIO_H
#define FABTOP_DEMO_DEMO_SCENARIO_H

#include <stddef.h>
#include <stdio.h>

/* What a scenario breaks (doc/lab.md tells each as an exercise). */
enum demo_break {
	DS_NOISE	= 1u << 0,	/* the default demo's other trouble: a flapping cable, a latched counter, pause storms */
	DS_SAME_SUBNET	= 1u << 1,	/* ib0 and ib1 in one /16 without per-interface routing */
	DS_BAD_CABLE	= 1u << 2,	/* mlx5_0 port 2: symbol errors, flaps, trained at 1X */
	DS_NO_SM	= 1u << 3,	/* no subnet manager: the IB ports stay in INIT */
	DS_CONTAINER	= 1u << 4,	/* a container's view: the RDMA devices, not their netdevs */
	DS_ROCE_V1	= 1u << 5,	/* rdma_cm default_roce_mode IB/RoCE v1 on mlx5_1 */
	DS_PFC_OFF	= 1u << 6,	/* PFC off on priority 3, where the RDMA traffic lands */
};

struct demo_scenario {
	const char *name;		/* fabtop --demo NAME; NULL: the default demo */
	unsigned int breaks;		/* DS_* */
	const char *story;		/* one line: what goes wrong, as a student meets it */
	const char *hint;		/* where to look */
	/* The fix a real host needs besides the doctor's routing fix (NULL: that one alone), as a command. */
	const char *fix_cmd;
	const char *fixed;		/* what the fixed host shows */
};

/* The default demo (doc/demo.md): everything at once, no story. */
const struct demo_scenario *demo_scenario_default(void);
/* A scenario by name; NULL when there is none. */
const struct demo_scenario *demo_scenario_find(const char *name);
/* The scenarios, for fabtop --demo list. */
void demo_scenario_list(FILE *f);

#endif
