/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's RDMA statistics as RDMA netlink gives them: a port's hw counters, QP counters and their binding mode. */
#ifndef FABTOP_MODEL_STAT_H
#define FABTOP_MODEL_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/res.h"

/*
 * Plain data, filled by kernel/rdma_stat_parse.h (or by hand); arrays
 * are malloc'd and released by stat_state_free(). Modes and masks keep
 * the kernel's numbers (uapi rdma_netlink.h: enum rdma_nl_counter_mode,
 * enum rdma_nl_counter_mask).
 */

#define STAT_NAME_LEN	64

/* One hw counter entry: its name as the driver gives it, and its value (u64 in the kernel). */
struct stat_hwcounter {
	char name[STAT_NAME_LEN];
	uint64_t value;
};

/* The answer to a port's STAT_GET: every hw counter the driver has enabled, optional ones included. */
struct stat_port_hw {
	uint32_t dev_index;
	char dev[RES_NAME_LEN];
	uint32_t port;
	struct stat_hwcounter *c;
	size_t n;
};

/* How a port binds QPs to counters (STAT_GET with STAT_RES = QP, no counter id). */
struct stat_port_mode {
	uint32_t dev_index;
	char dev[RES_NAME_LEN];
	uint32_t port;
	uint32_t mode;			/* RDMA_COUNTER_MODE_NONE, _AUTO, _MANUAL */
	uint32_t mask;			/* has_mask (auto mode): RDMA_COUNTER_MASK_QP_TYPE, _PID */
	bool has_mask;
};

/* One QP counter (an entry of the STAT_GET dump with STAT_RES = QP). */
struct stat_qp_counter {
	uint32_t dev_index;
	char dev[RES_NAME_LEN];
	uint32_t port;
	uint32_t id;			/* the counter's id on its device */
	uint32_t mode;			/* how its QPs were bound */
	uint8_t qp_type;		/* has_qp_type: auto mode by QP type (enum ib_qp_type) */
	bool has_qp_type;
	struct res_holder holder;	/* auto mode by pid: whose QPs it counts */
	uint32_t *qpns;			/* the QPs bound to it */
	size_t nqpns;
	struct stat_hwcounter *c;	/* its counts since it was allocated */
	size_t n;
};

struct stat_state {
	struct stat_port_hw *hw;
	size_t nhw;
	struct stat_port_mode *modes;
	size_t nmodes;
	struct stat_qp_counter *qpc;
	size_t nqpc;
	unsigned int bad;		/* entries or messages left out as malformed */
	int err;			/* the first failure reading (-errno), 0: none */
	char why[256];			/* err for people */
};

void stat_state_free(struct stat_state *st);
/* "none", "auto", "manual"; "unknown" otherwise. */
const char *stat_mode_name(uint32_t mode);
/* A port's hw counter by name; NULL: none. */
const struct stat_hwcounter *stat_port_hw_find(const struct stat_port_hw *hw, const char *name);

#endif
