/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A streaming JSON writer: compact output, proper escaping, invalid UTF-8 repaired. */
#ifndef FABTOP_REPORT_JSON_H
#define FABTOP_REPORT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/fabric.h"

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool after_key;
};

void json_init(struct json *j, FILE *f);
void json_obj_begin(struct json *j);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *key);
/* A string; NULL writes null. */
void json_str(struct json *j, const char *s);
/* A string, or null when it is NULL or empty (unknown attributes). */
void json_str_or_null(struct json *j, const char *s);
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
void json_opt_u64(struct json *j, const struct opt_u64 *v);
/* A number with up to 'prec' decimals, trailing zeros dropped; NaN/inf write null. */
void json_double(struct json *j, double v, int prec);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* Ends the document with a newline. */
void json_end(struct json *j);

#endif
