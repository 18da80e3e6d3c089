// SPDX-License-Identifier: GPL-2.0-or-later
/* The assertions of tap.h print both values when they fail: each runs in a child, its stdout read back. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"
#include "tap.h"

static int one = 1, two = 2;

static void fail_eq_dbl(void)		{ ASSERT_EQ_DBL(0.5, 0.25, "dbl"); }
static void fail_cmp_int(void)		{ ASSERT_CMP_INT(two, >, 20, "cmp int"); }
static void fail_cmp_u64(void)		{ ASSERT_CMP_U64(UINT64_C(18446744073709551615), <, 3, "cmp u64"); }
static void fail_cmp_dbl(void)		{ ASSERT_CMP_DBL(1.5, >=, 10, "cmp dbl"); }
static void fail_eq_ptr(void)		{ ASSERT_EQ_PTR(&one, &two, "ptr"); }
static void fail_null(void)		{ ASSERT_NULL(&one, "null"); }
static void fail_not_null(void)		{ ASSERT_NOT_NULL(NULL, "not null"); }
static void fail_contains(void)		{ ASSERT_CONTAINS("ib0 up\nib1 down\n", "ib2\n", "contains"); }
static void fail_contains_null(void)	{ ASSERT_CONTAINS(NULL, "ib2", "contains null"); }
static void fail_not_contains(void)	{ ASSERT_NOT_CONTAINS("ib0 up\nib1 down", "ib1", "not contains"); }
static void fail_eq_int(void)		{ ASSERT_EQ_INT(one, two, "int"); }
static void fail_eq_str(void)		{ ASSERT_EQ_STR("ib0", "ib1", "str"); }
static void fail_eq_str_lines(void)	{ ASSERT_EQ_STR("ok 1\n\"q\"\\", "# EOF\n", "str lines"); }

static void fail_all(void)		{ ASSERT_ALL(216, 463, "all"); }
static void fail_all_none(void)		{ ASSERT_ALL(0, 0, "all of none"); }
static void fail_exit_other(void)	{ ASSERT_EXIT(134 << 8, 1, "exit other"); }
static void fail_exit_signal(void)	{ ASSERT_EXIT(11, 0, "exit signal"); }

static void pass_all(void)
{
	ASSERT_EQ_DBL(0.5, 0.5, "dbl");
	ASSERT_CMP_INT(two, >, one, "cmp int");
	ASSERT_CMP_U64(UINT64_MAX, >, 3, "cmp u64");
	ASSERT_CMP_DBL(10, >=, 10, "cmp dbl");
	ASSERT_EQ_PTR(&one, &one, "ptr");
	ASSERT_NULL(NULL, "null");
	ASSERT_NOT_NULL(&one, "not null");
	ASSERT_CONTAINS("ib0 up\nib1 down\n", "ib1 down", "contains");
	ASSERT_NOT_CONTAINS("ib0 up\nib1 down", "ib2", "not contains");
	ASSERT_ALL(3, 3, "all");
	ASSERT_EXIT(system("exit 3"), 3, "exit");
}

static const struct tap_case {
	const char *name;
	void (*run)(void);
	bool fails;
	const char *want[3];	/* lines (or their starts) the output must have */
} cases[] = {
	{ "ASSERT_EQ_DBL", fail_eq_dbl, true,
	  { "not ok 1 - dbl\n", "#   expected 0.25, got 0.5\n" } },
	{ "ASSERT_CMP_INT", fail_cmp_int, true,
	  { "not ok 1 - cmp int\n", "#   expected two > 20, got 2\n" } },
	{ "ASSERT_CMP_U64", fail_cmp_u64, true,
	  { "not ok 1 - cmp u64\n",
	    "#   expected UINT64_C(18446744073709551615) < 3, got 18446744073709551615\n" } },
	{ "ASSERT_CMP_DBL", fail_cmp_dbl, true,
	  { "not ok 1 - cmp dbl\n", "#   expected 1.5 >= 10, got 1.5\n" } },
	{ "ASSERT_EQ_PTR", fail_eq_ptr, true,
	  { "not ok 1 - ptr\n", "#   expected 0x" } },
	{ "ASSERT_NULL", fail_null, true,
	  { "not ok 1 - null\n", "#   expected NULL, got 0x" } },
	{ "ASSERT_NOT_NULL", fail_not_null, true,
	  { "not ok 1 - not null\n", "#   expected NULL to be non-NULL, got NULL\n" } },
	{ "ASSERT_CONTAINS", fail_contains, true,
	  { "#   expected to contain \"ib2\\n\", got these lines:\n", "#   | ib0 up\n", "#   | ib1 down\n" } },
	{ "ASSERT_CONTAINS, NULL", fail_contains_null, true,
	  { "not ok 1 - contains null\n", "#   expected to contain \"ib2\", got NULL\n" } },
	{ "ASSERT_NOT_CONTAINS", fail_not_contains, true,
	  { "not ok 1 - not contains\n", "#   expected no \"ib1\", got these lines:\n", "#   | ib1 down\n" } },
	{ "ASSERT_EQ_INT", fail_eq_int, true,
	  { "not ok 1 - int\n", "#   expected 2, got 1\n" } },
	{ "ASSERT_EQ_STR", fail_eq_str, true,
	  { "not ok 1 - str\n", "#   expected \"ib1\", got \"ib0\"\n" } },
	{ "ASSERT_EQ_STR, a newline", fail_eq_str_lines, true,
	  { "not ok 1 - str lines\n", "#   expected \"# EOF\\n\", got \"ok 1\\n\\\"q\\\"\\\\\"\n" } },
	{ "ASSERT_ALL", fail_all, true,
	  { "not ok 1 - all (216 of 463)\n", "#   expected all 463, got 216\n" } },
	{ "ASSERT_ALL, none", fail_all_none, true,
	  { "not ok 1 - all of none (0 of 0)\n", "#   expected at least one, got none\n" } },
	{ "ASSERT_EXIT, another status", fail_exit_other, true,
	  { "not ok 1 - exit other\n", "#   expected exit 1, got exit 134\n" } },
	{ "ASSERT_EXIT, a signal", fail_exit_signal, true,
	  { "not ok 1 - exit signal\n", "#   expected exit 0, got killed by signal 11\n" } },
	{ "passing assertions", pass_all, false,
	  { "ok 1 - dbl\n", "ok 9 - not contains\n", "ok 11 - exit\n" } },
};

/* Runs fn in a child with its stdout on a pipe; the output and the child's tap_done() status. */
static int capture(void (*fn)(void), char *out, size_t size, int *status)
{
	size_t len = 0;
	int fds[2];
	pid_t pid;
	ssize_t n;

	if (pipe(fds) < 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		if (dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(127);
		close(fds[1]);
		tap_n = tap_failed = 0;
		fn();
		fflush(stdout);
		_exit(tap_failed ? 1 : 0);
	}
	close(fds[1]);
	while (len + 1 < size && (n = read(fds[0], out + len, size - 1 - len)) != 0) {
		if (n < 0)
			break;
		len += (size_t)n;
	}
	out[len] = '\0';
	close(fds[0]);
	if (waitpid(pid, status, 0) != pid)
		return -1;
	return 0;
}

/* want is a whole line or a line's start: it must begin the output or follow a newline. */
static bool has_line(const char *out, const char *want)
{
	for (const char *p = out; (p = strstr(p, want)); p++)
		if (p == out || p[-1] == '\n')
			return true;
	return false;
}

int main(void)
{
	char out[4096];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct tap_case *c = &cases[i];
		int status = 0;

		if (capture(c->run, out, sizeof(out), &status) < 0) {
			TAP_OK(0, "%s: the child ran", c->name);
			continue;
		}
		TAP_OK(WIFEXITED(status) && WEXITSTATUS(status) == (c->fails ? 1 : 0),
		       "%s: the child %s (status 0x%x)", c->name, c->fails ? "failed" : "passed", status);
		for (size_t j = 0; j < ARRAY_SIZE(c->want) && c->want[j]; j++) {
			bool ok = has_line(out, c->want[j]);

			TAP_OK(ok, "%s prints: %.*s", c->name, (int)strcspn(c->want[j], "\n"), c->want[j]);
			if (!ok)
				tap_diag_text(out);
		}
		if (!c->fails)
			ASSERT_NOT_CONTAINS(out, "#   expected", "a passing assertion prints no values");
		else
			ASSERT_CONTAINS(out, "#   at ", "a failure says where");
	}
	return tap_done();
}
