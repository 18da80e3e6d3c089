// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: text a hostile tree or user hands over: sysfs values (PCI ones too), numbers, GUIDs, GIDs, report escaping, --since, events. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/host.h"
#include "kernel/pci_parse.h"
#include "kernel/sysfs.h"
#include "derive/counters.h"
#include "model/events.h"
#include "model/pci.h"
#include "report/events.h"
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
	{
		unsigned int mts;
		int lanes, node;
		uint32_t cls;
		uint16_t id;

		pci_parse_speed(s, &mts);
		pci_parse_width(s, &lanes);
		pci_parse_aer_total(s, "ERR_COR", &v);
		pci_parse_numa(s, &node);
		pci_parse_class(s, &cls);
		pci_parse_id(s, &id);
		pci_is_func_name(s);
	}
	util_parse_u64(s, 0, UINT64_MAX, &v);
	util_parse_guid(s, &v);
	counter_define(&c, "port_xmit_data", COUNTER_SRC_COUNTERS, false);
	collect_counter_text(&c, s);
	collect_counter_text(&c, s);
	events_parse_since(s, UINT64_C(1767225600000000000), &v);
	null = fopen("/dev/null", "w");
	if (null) {
		struct event_log l;
		struct fab_event ev;

		escape_write(null, (const char *)data, size);
		/* An event of any bytes (a recording's, say): kept, printed and JSON'd within its arrays. */
		memset(&ev, 0, sizeof(ev));
		memcpy(&ev, data, size < sizeof(ev) ? size : sizeof(ev));
		if (!event_log_init(&l, 2)) {
			event_log_append(&l, &ev);
			event_log_append(&l, &ev);
			event_log_append(&l, &ev);
			events_report(null, false, &l, 0);
			events_report(null, true, &l, ev.real_ns);
			event_log_free(&l);
		}
		fclose(null);
	}
	free(s);
	return 0;
}
