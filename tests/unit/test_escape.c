// SPDX-License-Identifier: GPL-2.0-or-later
/* report/escape.c: what a terminal acts on is spelled \xNN; text, UTF-8 and a sequence cut by a flush pass. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/escape.h"
#include "tap.h"

static char *escaped(const char *s, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	escape_write(out, s, n);
	fclose(out);
	return buf;
}

int main(void)
{
	static const char mix[] = "ib0\tok\n\033]0;pwned\007 del\177 c1\233 utf8-c1\302\233 bad\377 \342\224\200";
	char *buf = NULL, *e;
	size_t len = 0;
	FILE *out, *esc;

	e = escaped(mix, sizeof(mix) - 1);
	ASSERT_EQ_STR(e, "ib0\tok\n\\x1b]0;pwned\\x07 del\\x7f c1\\x9b utf8-c1\\xc2\\x9b bad\\xff \342\224\200",
		      "controls, C1 both ways and bad UTF-8 escaped; text, tab, newline and UTF-8 kept");
	free(e);
	e = escaped("\342\224", 2);
	ASSERT_EQ_STR(e, "\\xe2\\x94", "a cut sequence at the very end is escaped, not printed half");
	free(e);

	/* Through the stream: a sequence cut by a flush comes out whole. */
	out = open_memstream(&buf, &len);
	esc = escape_open(out);
	ASSERT_NOT_NULL(esc, "escape_open");

	fputs("a\342", esc);
	fflush(esc);
	fputs("\224\200b\033", esc);
	escape_close(esc);
	fclose(out);
	ASSERT_EQ_STR(buf, "a\342\224\200b\\x1b", "the stream holds a cut sequence until its end comes");
	free(buf);
	return tap_done();
}
