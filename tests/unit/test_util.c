// SPDX-License-Identifier: GPL-2.0-or-later
/* util.c: enum names, the strict number and GUID parsers, the clock. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "util.h"

int main(void)
{
	static const char *const names[] = { [1] = "one", [3] = "three" };
	static const char *const bad_nums[] = { "", "-1", "+1", " 1", "1 ", "1x", "x", "0x" };
	static const char *const bad_secs[] = { "", "x", "0.05", "3600.5", "1s", "nan", "inf", "1e999" };
	static const char *const bad_guids[] = { "", "0x", "g000", "0002:c903:0031:78f0:0", "12 34", "12\n\n" };
	uint64_t v = 42, t0, t1;
	double d;
	int rc;

	ASSERT_EQ_INT(util_parse_u64("7174", 10, 65535, &v), 0, "a port");
	ASSERT_EQ_U64(v, 7174, "its value");
	ASSERT_EQ_INT(util_parse_u64("65536", 10, 65535, &v), -1, "one past the maximum");
	ASSERT_EQ_INT(util_parse_u64("18446744073709551616", 10, UINT64_MAX, &v), -1, "past 64 bits");
	ASSERT_EQ_INT(util_parse_u64("0x1f", 0, 0xbfff, &v), 0, "base 0 takes hex");
	ASSERT_EQ_U64(v, 31, "0x1f is 31");
	ASSERT_EQ_INT(util_parse_u64("0x1f", 10, 0xbfff, &v), -1, "base 10 does not");
	for (unsigned int i = 0; i < ARRAY_SIZE(bad_nums); i++) {
		v = 42;
		rc = util_parse_u64(bad_nums[i], 0, UINT64_MAX, &v);
		TAP_OK(rc == -1 && v == 42, "'%s' is refused and the output untouched (rc %d, v %" PRIu64 ")",
		       bad_nums[i], rc, v);
	}
	ASSERT_EQ_INT(util_parse_u64(NULL, 10, 1, &v), -1, "NULL is refused");

	ASSERT_EQ_INT(util_parse_double("0.5", 0.1, 3600, &d), 0, "half a second");
	ASSERT_EQ_DBL(d, 0.5, "is 0.5");
	ASSERT_EQ_INT(util_parse_double("3600", 0.1, 3600, &d), 0, "the maximum is in range");
	ASSERT_EQ_INT(util_parse_double("1e1", 0.1, 3600, &d), 0, "an exponent");
	ASSERT_EQ_DBL(d, 10, "1e1 is 10");
	for (unsigned int i = 0; i < ARRAY_SIZE(bad_secs); i++) {
		d = 42;
		rc = util_parse_double(bad_secs[i], 0.1, 3600, &d);
		TAP_OK(rc == -1 && d == 42, "seconds '%s' are refused and the output untouched (rc %d, d %g)",
		       bad_secs[i], rc, d);
	}
	ASSERT_EQ_INT(util_parse_double(NULL, 0, 1, &d), -1, "NULL seconds are refused");

	ASSERT_EQ_INT(util_parse_guid("0002:c903:0031:78f0", &v), 0, "the kernel's spelling");
	ASSERT_EQ_U64(v, 0x0002c903003178f0ull, "its value");
	ASSERT_EQ_INT(util_parse_guid("0x0002c903003178f0", &v), 0, "ibstat's spelling");
	ASSERT_EQ_U64(v, 0x0002c903003178f0ull, "the same value");
	ASSERT_EQ_INT(util_parse_guid("0002:c903:0031:78F0\n", &v), 0, "a sysfs line, upper case");
	ASSERT_EQ_U64(v, 0x0002c903003178f0ull, "the same value");
	for (unsigned int i = 0; i < ARRAY_SIZE(bad_guids); i++) {
		v = 42;
		rc = util_parse_guid(bad_guids[i], &v);
		TAP_OK(rc == -1 && v == 42, "GUID '%s' is refused (rc %d, v %#" PRIx64 ")", bad_guids[i], rc, v);
	}

	ASSERT_EQ_STR(util_name(names, ARRAY_SIZE(names), 3, "?"), "three", "a name by index");
	ASSERT_EQ_STR(util_name(names, ARRAY_SIZE(names), 2, "?"), "?", "a hole is the default");
	ASSERT_EQ_STR(util_name(names, ARRAY_SIZE(names), 4, "?"), "?", "past the end is the default");
	ASSERT_EQ_STR(util_name(names, ARRAY_SIZE(names), -1, "?"), "?", "-1 (an unknown enum) is the default");
	ASSERT_NULL(util_name(names, ARRAY_SIZE(names), 0, NULL), "the default may be NULL");

	t0 = util_now_ns();
	t1 = util_now_ns();
	TAP_OK(t0 > 0 && t1 >= t0, "the clock runs forwards (%" PRIu64 " then %" PRIu64 ")", t0, t1);

	/* The number family: what may surround a number, and the errors that say why not. */
	{
		static const struct {
			const char *s;
			unsigned int flags;
			int base;
			uint64_t max;
			int rc;
			uint64_t v;
			const char *rest;	/* UTIL_NUM_PREFIX: what follows */
		} u[] = {
			{ "42", 0, 10, UINT64_MAX, 0, 42, NULL },
			{ "42\n", 0, 10, UINT64_MAX, -EINVAL, 0, NULL },
			{ " 42\n", UTIL_NUM_BLANKS, 10, UINT64_MAX, 0, 42, NULL },
			{ "\t 42 x", UTIL_NUM_BLANKS, 10, UINT64_MAX, -EINVAL, 0, NULL },
			{ "0x1F\n", UTIL_NUM_BLANKS | UTIL_NUM_0X, 10, UINT64_MAX, 0, 31, NULL },
			{ "0x1F", 0, 10, UINT64_MAX, -EINVAL, 0, NULL },
			{ "0x", UTIL_NUM_0X, 10, UINT64_MAX, -EINVAL, 0, NULL },
			{ "010", 0, 0, UINT64_MAX, 0, 8, NULL },
			{ "08", 0, 0, UINT64_MAX, -EINVAL, 0, NULL },
			{ "-1", UTIL_NUM_BLANKS, 10, UINT64_MAX, -EINVAL, 0, NULL },
			{ "+1", 0, 10, UINT64_MAX, -EINVAL, 0, NULL },
			{ "18446744073709551615", 0, 10, UINT64_MAX, 0, UINT64_MAX, NULL },
			{ "18446744073709551616", 0, 10, UINT64_MAX, -ERANGE, 0, NULL },
			{ "4294967296", 0, 10, UINT32_MAX, -ERANGE, 0, NULL },
			{ "4294967295", 0, 10, UINT32_MAX, 0, UINT32_MAX, NULL },
			{ "\t1234 5678", UTIL_NUM_BLANKS | UTIL_NUM_PREFIX, 10, UINT32_MAX, 0, 1234, " 5678" },
			{ "7:rest", UTIL_NUM_PREFIX, 10, 9, 0, 7, ":rest" },
			{ ":rest", UTIL_NUM_PREFIX, 10, 9, -EINVAL, 0, NULL },
		};

		for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
			uint64_t got = 12345;
			const char *rest = NULL;
			int nrc = util_num_u64(u[i].s, u[i].flags, u[i].base, u[i].max, &got, &rest);

			ASSERT_EQ_INT(nrc, u[i].rc, u[i].s);
			ASSERT_EQ_U64(got, u[i].rc ? 12345 : u[i].v, "... its value (untouched on error)");
			if (u[i].rest)
				ASSERT_EQ_STR(rest ? rest : "(null)", u[i].rest, "... and where the rest begins");
		}
	}
	{
		double dv = -7;
		const char *rest = NULL;

		ASSERT_EQ_INT(util_num_double("2.5 Gb/sec", UTIL_NUM_PREFIX, 0, 1e6, &dv, &rest), 0, "a rate before its unit");
		ASSERT_EQ_DBL(dv, 2.5, "... is 2.5");
		ASSERT_EQ_STR(rest, " Gb/sec", "... and the unit follows");
		ASSERT_EQ_INT(util_num_double("nan", 0, 0, 1e6, &dv, NULL), -ERANGE, "NaN is never in range");
		ASSERT_EQ_INT(util_num_double(" 1", 0, 0, 10, &dv, NULL), -EINVAL, "no blank before without UTIL_NUM_BLANKS");
		ASSERT_EQ_INT(util_num_double(" 1\n", UTIL_NUM_BLANKS, 0, 10, &dv, NULL), 0, "... blanks with it");
		ASSERT_EQ_INT(util_num_double("1e999", 0, 0, 1e300, &dv, NULL), -ERANGE, "past the double's range");
		ASSERT_EQ_INT(util_num_double("5x", 0, 0, 10, &dv, NULL), -EINVAL, "something after the number");
	}
	{
		/* util_clean(): what a terminal acts on becomes '?', in place; text and UTF-8 stay */
		char s[] = "a\r\nb\bc\033[2J\302\233d\233e\177f\342\224\200g\377\302\200\302\237\302\240h\tz";

		ASSERT_EQ_STR(util_clean(s), "a??b?c?[2J??d?e?f\342\224\200g\377????\302\240h?z",
			      "C0, CR/LF/BS/tab, ESC, C1 as UTF-8 and raw, DEL cleaned; U+2500, U+00A0, a stray 0xff kept");
	}
	{
		/* util_dir_of(): dirname(3)'s answers for these, and where the name starts */
		char dir[8];

		ASSERT_EQ_INT((int)util_dir_of("/run/fabtop/lab.state", dir, sizeof(dir)), -1, "a directory past dir's size");
		ASSERT_EQ_INT((int)util_dir_of("/run/ab/x", dir, sizeof(dir)), 8, "a directory of exactly 7 bytes and its NUL");
		ASSERT_EQ_STR(dir, "/run/ab", "... is the path before the last slash");
		ASSERT_EQ_INT((int)util_dir_of("/run/abc/x", dir, sizeof(dir)), -1, "one byte more does not fit");
		ASSERT_EQ_INT((int)util_dir_of("/x", dir, sizeof(dir)), 1, "a name at the root");
		ASSERT_EQ_STR(dir, "/", "... is in /");
		ASSERT_EQ_INT((int)util_dir_of("x", dir, sizeof(dir)), 0, "a bare name");
		ASSERT_EQ_STR(dir, ".", "... is in .");
		ASSERT_EQ_INT((int)util_dir_of("a/", dir, sizeof(dir)), 2, "a trailing slash: the name is empty");
		ASSERT_EQ_STR(dir, "a", "... and the directory is a");
		ASSERT_EQ_INT((int)util_dir_of("/x", dir, 1), -1, "no room for \"/\"");
	}
	return tap_done();
}
