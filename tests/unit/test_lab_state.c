// SPDX-License-Identifier: GPL-2.0-or-later
/* The lab's state file: round trip, and corrupt files yield only the lab's own objects. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "change/lab_state.h"
#include "tap.h"

int main(void)
{
	const struct lab_obj objs[] = {
		{ LAB_NETNS, "fl-switch", 0 }, { LAB_LINK, "fl-a", 0 }, { LAB_SYSCTL, "", 0 },
		{ LAB_RULE_L3MDEV, "", 0 }, { LAB_RULE_UDP, "", 0 }, { LAB_LOCAL_RULE, "", 0 },
		{ LAB_RXE, "fl_rxe_a", 0 }, { LAB_LISTENER, "", 4242 },
	};
	char text[2048] = LAB_STATE_HEADER "\n", line[96];
	size_t n, bad, first;
	struct lab_obj *v;

	for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		TAP_OK(lab_state_format(&objs[i], line, sizeof(line)), "format %zu: %s", i, line);
		strcat(text, line);
		strcat(text, "\n");
	}
	v = lab_state_parse(text, &n, &bad, &first);
	TAP_OK(n == 8 && !bad, "round trip: 8 objects, no bad line (%zu, %zu)", n, bad);
	for (size_t i = 0; v && i < n && i < 8; i++)
		TAP_OK(v[i].kind == objs[i].kind && !strcmp(v[i].name, objs[i].name) && v[i].num == objs[i].num,
		   "object %zu comes back as written", i);
	free(v);

	/* never someone else's: eth0, lo, a table not the lab's, a pid 1, shell in a name */
	v = lab_state_parse("link eth0\nnetns default\nrxe mlx5_0\nrule-udp eth0\nrule-l3mdev 4\n"
			    "listener 1\nlink fl-a;rm\nlink fl-\nsysctl rp_filter 1\nsysctl udp_l3mdev_accept 7\n"
			    "link fl-b extra words here\nbogus\n", &n, &bad, &first);
	TAP_OK(n == 0 && bad == 12 && first == 1, "12 foreign or malformed lines: none taken (%zu taken, %zu bad)", n, bad);
	free(v);

	/* truncated by a crash: the last line cut short is dropped, the rest kept */
	v = lab_state_parse(LAB_STATE_HEADER "\nnetns fl-switch\nlink fl-a\nli", &n, &bad, &first);
	TAP_OK(n == 2 && bad == 1 && first == 4, "a line cut short by a crash is left out (%zu, %zu, line %zu)", n, bad, first);
	free(v);

	v = lab_state_parse("", &n, &bad, &first);
	TAP_OK(!v && n == 0 && bad == 0, "an empty file: nothing");
	{
		char big[400];

		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		memcpy(big, "link fl-", 8);
		v = lab_state_parse(big, &n, &bad, &first);
		TAP_OK(n == 0 && bad == 1, "an overlong line: refused, no overflow");
		free(v);
	}
	v = lab_state_parse("link fl-a\r\n\n\n# comment\nlink\tfl-b\n", &n, &bad, &first);
	TAP_OK(n == 1 && bad == 1 && !strcmp(v[0].name, "fl-b"), "CR is not part of a name; tabs separate (%zu, %zu)", n, bad);
	free(v);
	return tap_done();
}
