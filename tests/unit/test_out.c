// SPDX-License-Identifier: GPL-2.0-or-later
/* report/out.c: one walk gives the text and the JSON, each call writing only where it is asked to. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/json.h"
#include "report/out.h"
#include "tap.h"

/* A small report in the style of the real ones: both halves from one walk. */
static void walk(struct out *o)
{
	static const char *const names[] = { "ib0", "ib\"1\n" };
	struct opt_u64 known = { .known = true, .value = 7 }, unknown = { 0 };

	out_str(o, PRINT_ANY, "device", "mlx5_0", "%s", "mlx5_0");
	out_uint(o, PRINT_ANY, "port", 1, "/%u:", 1u);
	out_printf(o, " text only %d\n", 42);
	out_int(o, PRINT_JSON, "delta", -3, "never in text %d", -3);
	out_float(o, PRINT_ANY, "rate", 12.50, 3, "  rate %.1f\n", 12.50);
	out_float(o, PRINT_JSON, "nan", 0.0 / 0.0, 3, NULL);
	out_bool(o, PRINT_ANY, "up", true, "  up %s\n", "yes");
	out_opt_uint(o, PRINT_ANY, "lid", &known, "  lid %llu\n", (unsigned long long)known.value);
	out_opt_uint(o, PRINT_JSON, "sm_lid", &unknown, NULL);
	out_str(o, PRINT_JSON, "none", NULL, NULL);
	out_str_or_null(o, PRINT_JSON, "empty", "", NULL);
	out_null(o, PRINT_ANY, "peer", "  peer -\n");
	out_str(o, PRINT_FP, "ignored", "x", "  fp %s\n", "only");
	out_arr_open(o, "netdevs");
	for (size_t i = 0; i < 2; i++) {
		out_obj_open(o, NULL);
		out_str(o, PRINT_ANY, "name", names[i], "  netdev %zu\n", i);
		out_obj_close(o);
	}
	out_str(o, PRINT_JSON, NULL, "bare", NULL);
	out_arr_close(o);
	out_obj_open(o, "empty_obj");
	out_obj_close(o);
}

static char *text_of(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out o;

	out_init_text(&o, f);
	ASSERT_EQ_INT(out_is_json(&o), 0, "text: not JSON");
	ASSERT_EQ_PTR(out_text(&o), f, "text: out_text() is the stream");
	walk(&o);
	fclose(f);
	return buf;
}

static char *json_of(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;
	struct out o;

	json_init(&j, f);
	json_obj_begin(&j);
	out_init_json(&o, &j);
	ASSERT_EQ_INT(out_is_json(&o), 1, "JSON: is JSON");
	ASSERT_NULL(out_text(&o), "JSON: no text stream");
	walk(&o);
	json_obj_end(&j);
	json_end(&j);
	fclose(f);
	return buf;
}

/* A whole document: out_open()/out_close() in either mode. */
static char *doc_of(bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out o;

	out_open(&o, f, json);
	out_printf(&o, "[");
	out_raw(&o, "\033[31m");
	out_str(&o, PRINT_ANY, "name", "ib\0330", "name %s\n", "ib\0330");
	out_close(&o);
	fclose(f);
	return buf;
}

/* Integers at their edges, written without printf. */
static char *numbers_of(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	json_init(&j, f);
	json_arr_begin(&j);
	json_u64(&j, 0);
	json_u64(&j, 10);
	json_u64(&j, UINT64_MAX);
	json_i64(&j, 0);
	json_i64(&j, -1);
	json_i64(&j, -10);
	json_i64(&j, INT64_MAX);
	json_i64(&j, INT64_MIN);
	json_arr_end(&j);
	fclose(f);
	return buf;
}

int main(void)
{
	char *t = text_of(), *js = json_of();
	char *dt = doc_of(false), *dj = doc_of(true);

	ASSERT_EQ_STR(dt, "[\033[31mname ib\\x1b0\n",
		      "out_open text: names through the escaping stream, out_raw() past it and in order");
	ASSERT_EQ_STR(dj, "{\"name\":\"ib\\u001b0\"}\n", "out_open JSON: one object and a newline");
	free(dt);
	free(dj);

	ASSERT_EQ_STR(t, "mlx5_0/1: text only 42\n  rate 12.5\n  up yes\n  lid 7\n  peer -\n  fp only\n"
		      "  netdev 0\n  netdev 1\n",
		      "text: PRINT_ANY and PRINT_FP formats in order, nothing of PRINT_JSON, objects or arrays");
	ASSERT_EQ_STR(js, "{\"device\":\"mlx5_0\",\"port\":1,\"delta\":-3,\"rate\":12.5,\"nan\":null,\"up\":true,"
		      "\"lid\":7,\"sm_lid\":null,\"none\":null,\"empty\":null,\"peer\":null,"
		      "\"netdevs\":[{\"name\":\"ib0\"},{\"name\":\"ib\\\"1\\n\"},\"bare\"],\"empty_obj\":{}}\n",
		      "JSON: PRINT_ANY and PRINT_JSON members, escaped, nothing of PRINT_FP or out_printf");
	free(t);
	free(js);
	js = numbers_of();
	ASSERT_EQ_STR(js, "[0,10,18446744073709551615,0,-1,-10,9223372036854775807,-9223372036854775808]",
		      "JSON integers: 0, 10, the largest u64, 0, -1, -10, the largest and smallest i64");
	free(js);
	return tap_done();
}
