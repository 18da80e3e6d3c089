// SPDX-License-Identifier: GPL-2.0-or-later
/* escape_write(): text reports pass names through it, so a planted name cannot drive the terminal. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 when it is not one; its code point in *cp. */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and past U+10FFFF are not UTF-8 */
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

void escape_write(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		unsigned char c = p[i];
		uint32_t cp;
		size_t len;

		if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
			fputc(c, out);
			i++;
			continue;
		}
		if (c >= 0x80 && (len = utf8_seq(p + i, n - i, &cp)) && !(cp >= 0x80 && cp <= 0x9f)) {
			fwrite(p + i, 1, len, out);
			i += len;
			continue;
		}
		/* a C1 control as UTF-8 goes out as both its bytes, escaped */
		len = c >= 0x80 && utf8_seq(p + i, n - i, &cp) ? 2 : 1;
		for (size_t k = 0; k < len; k++)
			fprintf(out, "\\x%02x", p[i + k]);
		i += len;
	}
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
