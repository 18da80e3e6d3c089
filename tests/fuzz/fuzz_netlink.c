// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: rtnetlink dump buffers (links, addresses, routes, rules, neighbours) into the model. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/nl_parse.h"
#include "model/net.h"
#include "model/route.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct net_state st;
	struct route_answer ans;
	struct net_ip peer = { .family = 2 };	/* AF_INET, 0.0.0.0 */
	int done = 0;

	memset(&st, 0, sizeof(st));
	nl_parse_buf(data, size, &st, &done);
	/* the model's own route lookup over whatever was parsed */
	route_model_output(&st, &peer, NULL, 0, &ans);
	net_state_free(&st);
	return 0;
}
