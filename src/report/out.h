/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One emitter for text and JSON: a report walks its data once and each call says what goes where. */
#ifndef FABTOP_REPORT_OUT_H
#define FABTOP_REPORT_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/fabric.h"
#include "report/json.h"

/*
 * Where a value goes: PRINT_ANY to both (its key and value in JSON, its
 * format in text), PRINT_FP to the text only, PRINT_JSON to the JSON only.
 * The model is iproute2's print_*(PRINT_ANY, key, fmt, value), with the
 * text's format checked by the compiler: the value for JSON is typed, the
 * text's arguments follow the format (so a text line may say more, or
 * less, than the one JSON member: "mlx5_0/1" for "port": 1).
 */
enum out_to {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = PRINT_FP | PRINT_JSON,
};

/* One report's output: text to f, or JSON through j (f is then j's stream). */
struct out {
	FILE *f;
	struct json *j;		/* NULL: text */
	FILE *raw;		/* under f's escaping: for out_raw() */
	struct json doc;	/* out_open()'s document */
	FILE *esc;		/* out_open()'s escaping stream (NULL: none) */
};

/*
 * A whole document to f: JSON (one top-level object, then a newline) or
 * text through an escaping stream (report/escape.h: names from sysfs and
 * netlink must not drive a terminal). out_close() ends it.
 */
void out_open(struct out *o, FILE *f, bool json);
void out_close(struct out *o);

/* Text to f (the escaping stream of report/escape.h: names must not drive a terminal). */
void out_init_text(struct out *o, FILE *f);
/* JSON into j, which the caller opened (and closes, and ends). */
void out_init_json(struct out *o, struct json *j);
bool out_is_json(const struct out *o);
/* The text stream, NULL in JSON: for text-only helpers (wrapping, tables built in a buffer). */
FILE *out_text(const struct out *o);

/* Objects and arrays are JSON's: nothing in text. key NULL: an element of the enclosing array. */
void out_obj_open(struct out *o, const char *key);
void out_obj_close(struct out *o);
void out_arr_open(struct out *o, const char *key);
void out_arr_close(struct out *o);

/* Text only (PRINT_FP of free text). */
void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text only, past the escaping: fabtop's own control sequences (colours), never a name. */
void out_raw(struct out *o, const char *s);
/* Whether the text goes to a terminal (colours are for terminals only); false in JSON. */
bool out_isatty(const struct out *o);

/*
 * A value: key (NULL inside an array) and v for JSON, fmt and its
 * arguments for text (fmt NULL: nothing in text). t picks which of the two
 * are written.
 */
/* s NULL writes null. */
void out_str(struct out *o, enum out_to t, const char *key, const char *s, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* null when s is NULL or empty (an unknown attribute). */
void out_str_or_null(struct out *o, enum out_to t, const char *key, const char *s, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void out_uint(struct out *o, enum out_to t, const char *key, uint64_t v, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void out_int(struct out *o, enum out_to t, const char *key, int64_t v, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* null when not known. */
void out_opt_uint(struct out *o, enum out_to t, const char *key, const struct opt_u64 *v, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* JSON: up to prec decimals, trailing zeros dropped, NaN and infinities null (json_double()). */
void out_float(struct out *o, enum out_to t, const char *key, double v, int prec, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void out_bool(struct out *o, enum out_to t, const char *key, bool v, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void out_null(struct out *o, enum out_to t, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
