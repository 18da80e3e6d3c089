// SPDX-License-Identifier: GPL-2.0-or-later
/* Warn-once bookkeeping: odd sysfs input must not flood stderr every refresh. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "warn.h"

#define WARN_MAX 128		/* distinct warnings remembered; later ones still print */
#define WARN_LEN 256
#define WARN_PRINT_MAX 40	/* a hostile tree must not bury the output in warnings */

static char warn_seen[WARN_MAX][WARN_LEN];
static const char *warn_ptrs[WARN_MAX];
static unsigned int warn_count;
static bool warn_quiet;
static unsigned int warn_printed;

void warn_set_quiet(bool quiet)
{
	warn_quiet = quiet;
}

void warn_once(const char *fmt, ...)
{
	char raw[WARN_LEN], buf[WARN_LEN];
	va_list ap;
	unsigned int i;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	/* Warnings quote names from the tree: kept escaped, so every later reader (status line, F1, the dump at exit) gets text. */
	escape_str(buf, sizeof(buf), raw);

	for (i = 0; i < warn_count; i++)
		if (strcmp(warn_seen[i], buf) == 0)
			return;
	if (warn_count < WARN_MAX) {
		memcpy(warn_seen[warn_count], buf, sizeof(buf));
		warn_ptrs[warn_count] = warn_seen[warn_count];
		warn_count++;
	}
	if (warn_quiet)
		return;
	if (warn_printed < WARN_PRINT_MAX)
		fprintf(stderr, "fabtop: warning: %s\n", buf);
	else if (warn_printed == WARN_PRINT_MAX)
		fprintf(stderr, "fabtop: warning: more odd values found; further warnings suppressed\n");
	warn_printed++;
}

const char *const *warn_list(unsigned int *n)
{
	*n = warn_count;
	return warn_ptrs;
}


