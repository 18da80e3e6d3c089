// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: RDMA netlink (nldev) resource dump buffers into the model, grouped by holder, through both reports. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernel/rdma_nl_parse.h"
#include "model/res.h"
#include "report/json.h"
#include "report/res.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct res_state rs;
	FILE *f = fopen("/dev/null", "w");
	int done = 0;

	memset(&rs, 0, sizeof(rs));
	rdma_nl_parse_buf(data, size, &rs, &done);
	if (res_procs_build(&rs) == 0 && f) {
		struct json j;
		struct out o;

		out_init_text(&o, f);
		res_report(&o, &rs, RES_PART_ALL);
		json_init(&j, f);
		json_obj_begin(&j);
		out_init_json(&o, &j);
		res_report(&o, &rs, RES_PART_ALL);
		json_obj_end(&j);
		json_end(&j);
	}
	if (f)
		fclose(f);
	res_state_free(&rs);
	return 0;
}
