// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: the RoCE chain's parsers: dcbnl answers (RTM_GETDCB) and ethtool statistics. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/dcb_parse.h"
#include "kernel/ethtool_nl_parse.h"
#include "kernel/ethtool_parse.h"
#include "kernel/nl_parse.h"
#include "model/roce.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The first byte picks the parser, by its remainder of 3: 0, a netlink
 * buffer for dcb_parse_buf(); 2, ethtool netlink (a PAUSE_GET answer of
 * family 27, and a controller answer); 1, ethtool statistics: a 16-bit
 * count n (host order), then names and values shared out of what is left.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct roce_dcb d;
	struct roce_ethtool e;
	void *copy;

	if (size < 1)
		return 0;
	/* a copy, so the parsers see an aligned buffer as the kernel's recv() gives */
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if (data[0] % 3 == 0) {
		if (!dcb_parse_buf(copy, size - 1, &d))
			(void)roce_dcb_dscp_prio(&d, data[0] >> 2);
	} else if (data[0] % 3 == 2) {
		uint16_t id;

		memset(&e, 0, sizeof(e));
		(void)ethtool_nl_parse_pause_buf(copy, size - 1, 27, &e);
		if (size - 1 >= sizeof(struct nlmsghdr) && nl_msg_ok(copy, size - 1))
			(void)ethtool_nl_parse_family(copy, &id);
	} else if (size >= 3) {
		uint16_t n;
		size_t rest = size - 3, names_len;

		memcpy(&n, data + 1, 2);
		names_len = rest * 32 / 40;	/* names are 32 bytes, values 8 */
		memmove(copy, data + 3, rest);
		(void)ethtool_stats_parse(copy, names_len, (char *)copy + names_len, rest - names_len, n, &e);
	}
	free(copy);
	return 0;
}
