/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iproute2's `rdma res show qp -j` output read back for the replay test (apart: jansson's names clash with report/json.h). */
#ifndef FABTOP_TESTS_RES_RDMA_JSON_H
#define FABTOP_TESTS_RES_RDMA_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rdma_json_qp {
	char ifname[64], type[32], state[32], comm[64];
	uint32_t lqpn, port, pid, rqpn;
	bool has_pid, has_rqpn;
};

/* The QPs of a file, malloc'd into *out; the count, or -1 when it does not load. */
int rdma_json_qps(const char *path, struct rdma_json_qp **out);

/* Whether a whole text parses as one JSON value, and the length of the array at "res"."key" (-1: none). */
long rdma_json_res_array_len(const char *text, const char *key);

#endif
