// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: text a hostile tree or user hands over: sysfs values, numbers, GUIDs, GIDs, report escaping. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/host.h"
#include "collect/sysfs.h"
#include "derive/counters.h"
#include "report/escape.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	const char *text;
	struct fab_counter c;
	uint64_t v;
	FILE *null;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	sysfs_parse_u64(s, &v);
	sysfs_parse_enum(s, &text);
	util_parse_u64(s, 0, UINT64_MAX, &v);
	util_parse_guid(s, &v);
	counter_define(&c, "port_xmit_data", COUNTER_SRC_COUNTERS, false);
	collect_counter_text(&c, s);
	collect_counter_text(&c, s);
	null = fopen("/dev/null", "w");
	if (null) {
		escape_write(null, (const char *)data, size);
		fclose(null);
	}
	free(s);
	return 0;
}
