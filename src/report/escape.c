// SPDX-License-Identifier: GPL-2.0-or-later
/* The one way out to a terminal: text reports and messages pass names through it, so a planted name cannot drive the terminal. */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "util.h"

/* Write s[0..n) escaped; newlines (and tabs) kept only when keep_nl. */
static void escape_bytes(FILE *out, const char *s, size_t n, bool keep_nl)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned char c = p[i];
		uint32_t cp;
		size_t len;

		if ((keep_nl && (c == '\n' || c == '\t')) || (c >= 0x20 && c < 0x7f)) {
			fputc(c, out);
			i++;
			continue;
		}
		if (c >= 0x80 && (len = util_utf8_seq(p + i, n - i, &cp)) && !(cp >= 0x80 && cp <= 0x9f)) {
			fwrite(p + i, 1, len, out);
			i += len;
			continue;
		}
		/* a C1 control as UTF-8 goes out as both its bytes, escaped */
		len = c >= 0x80 && util_utf8_seq(p + i, n - i, &cp) ? 2 : 1;
		for (size_t k = 0; k < len; k++)
			fprintf(out, "\\x%02x", p[i + k]);
		i += len;
	}
}

void escape_write(FILE *out, const char *s, size_t n)
{
	escape_bytes(out, s, n, true);
}

void escape_line(FILE *out, const char *fmt, ...)
{
	char *buf = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	escape_bytes(out, buf, (size_t)n, false);
	fputc('\n', out);
	free(buf);
}

char *escape_str(char *dst, size_t size, const char *s)
{
	FILE *f;

	if (!size)
		return dst;
	dst[0] = '\0';
	f = fmemopen(dst, size, "w");
	if (!f) {
		snprintf(dst, size, "%s", s);
		return util_clean(dst);
	}
	/* fmemopen's buffer may end mid-escape: a shorter line, never a raw byte */
	setvbuf(f, NULL, _IONBF, 0);
	escape_bytes(f, s, strlen(s), false);
	fclose(f);
	dst[size - 1] = '\0';
	return dst;
}

void escape_printf(FILE *out, const char *fmt, ...)
{
	char *buf = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	escape_write(out, buf, (size_t)n);
	free(buf);
}

struct escape_cookie {
	FILE *out;
	unsigned char carry[4];		/* the start of a UTF-8 sequence cut by a flush */
	size_t ncarry;
};

/* Bytes at the end of s[0..n) that may be the start of an unfinished UTF-8 sequence. */
static size_t unfinished_tail(const unsigned char *s, size_t n)
{
	for (size_t back = 1; back <= 3 && back <= n; back++) {
		unsigned char c = s[n - back];
		size_t need = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;

		if ((c & 0xc0) == 0x80)
			continue;		/* a continuation byte: look further back */
		return need > back ? back : 0;
	}
	return 0;
}

static ssize_t cookie_write(void *arg, const char *buf, size_t size)
{
	struct escape_cookie *ck = arg;
	unsigned char tmp[4096 + 4];
	size_t done = 0;

	while (done < size) {
		size_t take = size - done < 4096 ? size - done : 4096, n, tail;

		memcpy(tmp, ck->carry, ck->ncarry);
		memcpy(tmp + ck->ncarry, buf + done, take);
		n = ck->ncarry + take;
		tail = done + take == size ? unfinished_tail(tmp, n) : 0;
		escape_write(ck->out, (const char *)tmp, n - tail);
		memcpy(ck->carry, tmp + n - tail, tail);
		ck->ncarry = tail;
		done += take;
	}
	fflush(ck->out);
	return (ssize_t)size;
}

static int cookie_close(void *arg)
{
	struct escape_cookie *ck = arg;

	escape_write(ck->out, (const char *)ck->carry, ck->ncarry);
	fflush(ck->out);
	free(ck);
	return 0;
}

FILE *escape_open(FILE *out)
{
	struct escape_cookie *ck = calloc(1, sizeof(*ck));
	FILE *f;

	if (!ck)
		return NULL;
	ck->out = out;
	f = fopencookie(ck, "w", (cookie_io_functions_t){ .write = cookie_write, .close = cookie_close });
	if (!f)
		free(ck);
	return f;
}

void escape_close(FILE *f)
{
	if (f)
		fclose(f);
}
