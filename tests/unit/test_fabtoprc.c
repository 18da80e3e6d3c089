// SPDX-License-Identifier: GPL-2.0-or-later
/* data/fabtoprc.example stays true: the monitor reads every line of it without a warning. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "ui/settings.h"
#include "warn.h"

int main(void)
{
	const char *top = getenv("TOP_SRCDIR");
	const char *const *warns;
	struct settings s;
	char path[4096];
	unsigned int n;

	if (!top) {
		printf("1..0 # SKIP TOP_SRCDIR is not set (run through make check)\n");
		return 0;
	}
	snprintf(path, sizeof(path), "%s/data/fabtoprc.example", top);
	warn_set_quiet(true);
	ASSERT_EQ_INT(settings_read(&s, path), 0, "the example is read");
	warns = warn_list(&n);
	ASSERT_EQ_INT((int)n, 0, "without a single warning (an unknown or bad key would be one)");
	for (unsigned int i = 0; i < n; i++)
		printf("# %s\n", warns[i]);
	TAP_OK(s.have_interval && s.interval_s == 1, "interval (have %d, %g s)", s.have_interval, s.interval_s);
	ASSERT_EQ_STR(s.pane, "counters", "pane");
	TAP_OK(s.have_color && s.color, "color (have %d, color %d)", s.have_color, s.color);
	TAP_OK(s.have_window && s.window_s == 600, "window (have %d, %u s)", s.have_window, s.window_s);
	ASSERT_EQ_INT((int)s.nsorts, 3, "three sort lines");
	ASSERT_EQ_STR(s.prometheus, "http://127.0.0.1:9090", "[cluster] prometheus");
	{
		const struct settings_sort *ss = settings_get_sort(&s, "counters");

		TAP_OK(ss && !strcmp(ss->column, "in") && ss->desc, "sort.counters=in,desc (got %s,%s)",
		       ss ? ss->column : "(none)", ss ? (ss->desc ? "desc" : "asc") : "");

	}
	return tap_done();
}
