// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: RDMA netlink statistics answers (STAT_GET) into the model, through both QP counter reports. */
#include "config.h"

#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernel/rdma_stat_parse.h"
#include "model/stat.h"
#include "report/json.h"
#include "report/stat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stat_state st;
	FILE *f = fopen("/dev/null", "w");
	int done = 0;

	memset(&st, 0, sizeof(st));
	rdma_stat_parse_buf(data, size, &st, &done);
	for (size_t i = 0; i < st.nhw; i++)
		if (st.hw[i].n)
			stat_port_hw_find(&st.hw[i], st.hw[i].c[st.hw[i].n - 1].name);
	if (f) {
		struct json j;
		struct out o;

		out_init_text(&o, f);
		stat_report_qp(&o, &st, NULL, NULL, 0);
		json_init(&j, f);
		json_obj_begin(&j);
		out_init_json(&o, &j);
		stat_report_qp(&o, &st, NULL, NULL, 0);
		json_obj_end(&j);
		json_end(&j);
		fclose(f);
	}
	stat_state_free(&st);
	return 0;
}
