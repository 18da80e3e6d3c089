// SPDX-License-Identifier: GPL-2.0-or-later
/* The one emitter: each call writes its text, its JSON member, both or neither, by the report's mode. */
#include "config.h"

#include <stdarg.h>
#include <unistd.h>

#include "report/escape.h"
#include "report/out.h"

void out_init_text(struct out *o, FILE *f)
{
	o->f = f;
	o->raw = f;
	o->j = NULL;
	o->esc = NULL;
}

void out_init_json(struct out *o, struct json *j)
{
	o->f = j->f;
	o->raw = j->f;
	o->j = j;
	o->esc = NULL;
}

void out_open(struct out *o, FILE *f, bool json)
{
	if (json) {
		json_init(&o->doc, f);
		out_init_json(o, &o->doc);
		json_obj_begin(o->j);
		return;
	}
	/* out of memory for the stream: straight to f */
	o->esc = escape_open(f);
	o->f = o->esc ? o->esc : f;
	o->raw = f;
	o->j = NULL;
}

void out_close(struct out *o)
{
	if (o->j) {
		json_obj_end(o->j);
		json_end(o->j);
	}
	escape_close(o->esc);
	o->esc = NULL;
}

bool out_is_json(const struct out *o)
{
	return o->j != NULL;
}

FILE *out_text(const struct out *o)
{
	return o->j ? NULL : o->f;
}

static void out_key(struct out *o, const char *key)
{
	if (key)
		json_key(o->j, key);
}

void out_obj_open(struct out *o, const char *key)
{
	if (!o->j)
		return;
	out_key(o, key);
	json_obj_begin(o->j);
}

void out_obj_close(struct out *o)
{
	if (o->j)
		json_obj_end(o->j);
}

void out_arr_open(struct out *o, const char *key)
{
	if (!o->j)
		return;
	out_key(o, key);
	json_arr_begin(o->j);
}

void out_arr_close(struct out *o)
{
	if (o->j)
		json_arr_end(o->j);
}

void out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->j)
		return;
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}

void out_raw(struct out *o, const char *s)
{
	if (o->j)
		return;
	/* what the escaping stream holds goes first */
	if (o->f != o->raw)
		fflush(o->f);
	fputs(s, o->raw);
}

bool out_isatty(const struct out *o)
{
	return !o->j && isatty(fileno(o->raw));
}

/*
 * The text half of a value: fmt with its arguments when the report is
 * text and t asks for it. True when the JSON half is to be written (the
 * key is then out).
 */
__attribute__((format(printf, 4, 0)))
static bool out_value(struct out *o, enum out_to t, const char *key, const char *fmt, va_list ap)
{
	if (!o->j) {
		if ((t & PRINT_FP) && fmt)
			vfprintf(o->f, fmt, ap);
		return false;
	}
	if (!(t & PRINT_JSON))
		return false;
	out_key(o, key);
	return true;
}

/* Each typed value: its text by out_value(), then json_WRITE(o->j, ...) when JSON wants it. */
#define OUT_VALUE(o, t, key, fmt, write) do {			\
		va_list ap;					\
		bool json;					\
								\
		va_start(ap, fmt);				\
		json = out_value(o, t, key, fmt, ap);		\
		va_end(ap);					\
		if (json)					\
			write;					\
	} while (0)

void out_str(struct out *o, enum out_to t, const char *key, const char *s, const char *fmt, ...)
{
	OUT_VALUE(o, t, key, fmt, json_str(o->j, s));
}

void out_str_or_null(struct out *o, enum out_to t, const char *key, const char *s, const char *fmt, ...)
{
	OUT_VALUE(o, t, key, fmt, json_str_or_null(o->j, s));
}

void out_uint(struct out *o, enum out_to t, const char *key, uint64_t v, const char *fmt, ...)
{
	OUT_VALUE(o, t, key, fmt, json_u64(o->j, v));
}

void out_int(struct out *o, enum out_to t, const char *key, int64_t v, const char *fmt, ...)
{
	OUT_VALUE(o, t, key, fmt, json_i64(o->j, v));
}

void out_opt_uint(struct out *o, enum out_to t, const char *key, const struct opt_u64 *v, const char *fmt, ...)
{
	OUT_VALUE(o, t, key, fmt, json_opt_u64(o->j, v));
}

void out_float(struct out *o, enum out_to t, const char *key, double v, int prec, const char *fmt, ...)
{
	OUT_VALUE(o, t, key, fmt, json_double(o->j, v, prec));
}

void out_bool(struct out *o, enum out_to t, const char *key, bool v, const char *fmt, ...)
{
	OUT_VALUE(o, t, key, fmt, json_bool(o->j, v));
}

void out_null(struct out *o, enum out_to t, const char *key, const char *fmt, ...)
{
	OUT_VALUE(o, t, key, fmt, json_null(o->j));
}
