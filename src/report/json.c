// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON output: the one place strings from sysfs are escaped for machines. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/json.h"
#include "util.h"

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

/* Separator before a value: a comma unless first in its container or after a key. */
static void json_sep(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth > 0 && j->depth <= JSON_MAX_DEPTH) {
		if (j->need_comma[j->depth - 1])
			fputc(',', j->f);
		j->need_comma[j->depth - 1] = true;
	}
}

static void json_open(struct json *j, char c)
{
	json_sep(j);
	fputc(c, j->f);
	if (j->depth < JSON_MAX_DEPTH)
		j->need_comma[j->depth] = false;
	j->depth++;
}

static void json_close(struct json *j, char c)
{
	if (j->depth > 0)
		j->depth--;
	fputc(c, j->f);
}

void json_obj_begin(struct json *j) { json_open(j, '{'); }
void json_obj_end(struct json *j) { json_close(j, '}'); }
void json_arr_begin(struct json *j) { json_open(j, '['); }
void json_arr_end(struct json *j) { json_close(j, ']'); }

static void json_write_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		const unsigned char *run = s;
		uint32_t cp;
		size_t n;

		/* Printable ASCII that needs no escape goes out a run at a time: keys, numbers as text, most names. */
		while (*s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\')
			s++;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), f);
		if (!*s)
			break;
		switch (*s) {
		case '"': fputs("\\\"", f); s++; continue;
		case '\\': fputs("\\\\", f); s++; continue;
		case '\n': fputs("\\n", f); s++; continue;
		case '\t': fputs("\\t", f); s++; continue;
		case '\r': fputs("\\r", f); s++; continue;
		default: break;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
			s++;
			continue;
		}
		n = util_utf8_seq(s, strnlen((const char *)s, 4), &cp);
		if (n == 2 && cp <= 0x9f) {
			/* a C1 control: valid JSON raw, but a terminal acts on it */
			fprintf(f, "\\u%04x", (unsigned int)cp);
			s += n;
			continue;
		}
		if (!n) {
			/* Names from a hostile tree may not be UTF-8: keep the output valid. */
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		fwrite(s, 1, n, f);
		s += n;
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
	json_sep(j);
	json_write_string(j->f, key);
	fputc(':', j->f);
	j->after_key = true;
}

void json_str(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	json_sep(j);
	json_write_string(j->f, s);
}

void json_str_or_null(struct json *j, const char *s)
{
	json_str(j, s && *s ? s : NULL);
}

/* v in decimal, with a '-' before when neg: printf's machinery is most of a big report's cost. */
static void json_write_u64(FILE *f, uint64_t v, bool neg)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (neg)
		*--p = '-';
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

void json_u64(struct json *j, uint64_t v)
{
	json_sep(j);
	json_write_u64(j->f, v, false);
}

void json_i64(struct json *j, int64_t v)
{
	json_sep(j);
	json_write_u64(j->f, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
}

void json_opt_u64(struct json *j, const struct opt_u64 *v)
{
	if (v->known)
		json_u64(j, v->value);
	else
		json_null(j);
}

void json_double(struct json *j, double v, int prec)
{
	char buf[64];
	char *p;

	if (!isfinite(v)) {
		json_null(j);
		return;
	}
	if (prec < 0 || prec > 17)
		prec = 6;
	snprintf(buf, sizeof(buf), "%.*f", prec, v);
	if (strchr(buf, '.')) {
		p = buf + strlen(buf) - 1;
		while (*p == '0')
			*p-- = '\0';
		if (*p == '.')
			*p = '\0';
	}
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
	json_sep(j);
	fputs(buf, j->f);
}

void json_bool(struct json *j, bool v)
{
	json_sep(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	json_sep(j);
	fputs("null", j->f);
}

void json_end(struct json *j)
{
	fputc('\n', j->f);
}
