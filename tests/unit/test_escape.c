// SPDX-License-Identifier: GPL-2.0-or-later
/* report/escape.c: what a terminal acts on is spelled \xNN; text, UTF-8 and a sequence cut by a flush pass. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/escape.h"
#include "report/json.h"
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

	/* One line: a name's newline, tab or CR is no line break; the line's own newline is kept. */
	buf = NULL;
	out = open_memstream(&buf, &len);
	escape_line(out, "warning: %s: %d", "x\ny\tz\r\033]52;c;eA==\007\302\235", 7);
	fclose(out);
	ASSERT_EQ_STR(buf, "warning: x\\x0ay\\x09z\\x0d\\x1b]52;c;eA==\\x07\\xc2\\x9d: 7\n",
		      "escape_line: every control escaped, one newline at the end");
	free(buf);
	{
		char small[8];

		ASSERT_EQ_STR(escape_str(small, sizeof(small), "ab\033cd"), "ab\\x1bc", "escape_str: escaped, cut to fit");
		ASSERT_EQ_STR(escape_str(small, 4, "\033\033"), "\\x1", "cut inside an escape: text, never the raw byte");
	}

	/* JSON: C1 controls as \u escapes (valid JSON raw, but a terminal acts on them). */
	buf = NULL;
	out = open_memstream(&buf, &len);
	{
		struct json j;

		json_init(&j, out);
		json_str(&j, "a\302\233b\302\200c\302\237d\302\240\033\177\233");
		json_end(&j);
	}
	fclose(out);
	ASSERT_EQ_STR(buf, "\"a\\u009bb\\u0080c\\u009fd\302\240\\u001b\\u007f\\ufffd\"\n",
		      "JSON: C1 as \\u0080..\\u009f, ESC and DEL as \\u, a raw C1 byte repaired");
	free(buf);
	return tap_done();
}
