/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tiny TAP producer for C unit tests; assertions print both values. */
#ifndef FABTOP_TESTS_TAP_H
#define FABTOP_TESTS_TAP_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

/* cond is evaluated once: it may call what it checks. */
#define TAP_OK(cond, ...) do {							\
	int _tap_ok = !!(cond);							\
	tap_n++;								\
	if (_tap_ok) {								\
		printf("ok %d - ", tap_n);					\
	} else {								\
		tap_failed++;							\
		printf("not ok %d - ", tap_n);					\
	}									\
	printf(__VA_ARGS__);							\
	printf("\n");								\
	if (!_tap_ok)								\
		printf("#   at %s:%d\n", __FILE__, __LINE__);		\
} while (0)

#define ASSERT_EQ_U64(a, b, desc) do {						\
	uint64_t _a = (uint64_t)(a), _b = (uint64_t)(b);			\
	TAP_OK(_a == _b, "%s", desc);						\
	if (_a != _b)								\
		printf("#   expected %" PRIu64 ", got %" PRIu64 "\n", _b, _a);	\
} while (0)

#define ASSERT_EQ_INT(a, b, desc) do {						\
	long long _a = (long long)(a), _b = (long long)(b);			\
	TAP_OK(_a == _b, "%s", desc);						\
	if (_a != _b)								\
		printf("#   expected %lld, got %lld\n", _b, _a);		\
} while (0)

/* A string in double quotes on one line: a newline in it must not end the TAP comment. */
static inline void tap_print_str(const char *s)
{
	if (!s) {
		printf("(null)");
		return;
	}
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			printf("\\n");
		else if (c == '\t')
			printf("\\t");
		else if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('"');
}

#define ASSERT_EQ_STR(a, b, desc) do {						\
	const char *_a = (a), *_b = (b);					\
	int _eq = _a && _b && strcmp(_a, _b) == 0;				\
	TAP_OK(_eq, "%s", desc);						\
	if (!_eq) {								\
		printf("#   expected ");					\
		tap_print_str(_b);						\
		printf(", got ");						\
		tap_print_str(_a);						\
		printf("\n");							\
	}									\
} while (0)

#define ASSERT_NEAR(a, b, eps, desc) do {					\
	double _a = (a), _b = (b);						\
	int _ok = (_a - _b) <= (eps) && (_b - _a) <= (eps);			\
	TAP_OK(_ok, "%s", desc);						\
	if (!_ok)								\
		printf("#   expected %.9g, got %.9g\n", _b, _a);		\
} while (0)

#define ASSERT_EQ_DBL(a, b, desc) do {						\
	double _a = (a), _b = (b);						\
	TAP_OK(_a == _b, "%s", desc);						\
	if (!(_a == _b))							\
		printf("#   expected %.17g, got %.17g\n", _b, _a);		\
} while (0)

/* ASSERT_CMP_INT(n, >=, 2, "..."): any comparison, shown with its bound. */
#define ASSERT_CMP_INT(a, op, b, desc) do {					\
	long long _a = (long long)(a), _b = (long long)(b);			\
	int _ok = _a op _b;							\
	TAP_OK(_ok, "%s", desc);						\
	if (!_ok)								\
		printf("#   expected %s %s %lld, got %lld\n", #a, #op, _b, _a);	\
} while (0)

#define ASSERT_CMP_U64(a, op, b, desc) do {					\
	uint64_t _a = (uint64_t)(a), _b = (uint64_t)(b);			\
	int _ok = _a op _b;							\
	TAP_OK(_ok, "%s", desc);						\
	if (!_ok)								\
		printf("#   expected %s %s %" PRIu64 ", got %" PRIu64 "\n",	\
		       #a, #op, _b, _a);					\
} while (0)

#define ASSERT_CMP_DBL(a, op, b, desc) do {					\
	double _a = (a), _b = (b);						\
	int _ok = _a op _b;							\
	TAP_OK(_ok, "%s", desc);						\
	if (!_ok)								\
		printf("#   expected %s %s %.17g, got %.17g\n", #a, #op, _b, _a); \
} while (0)

#define ASSERT_EQ_PTR(a, b, desc) do {						\
	const void *_a = (a), *_b = (b);					\
	TAP_OK(_a == _b, "%s", desc);						\
	if (_a != _b)								\
		printf("#   expected %p, got %p\n", _b, _a);			\
} while (0)

#define ASSERT_NULL(p, desc) do {						\
	const void *_p = (p);							\
	TAP_OK(_p == NULL, "%s", desc);						\
	if (_p)									\
		printf("#   expected NULL, got %p\n", _p);			\
} while (0)

#define ASSERT_NOT_NULL(p, desc) do {						\
	const void *_p = (p);							\
	TAP_OK(_p != NULL, "%s", desc);						\
	if (!_p)								\
		printf("#   expected %s to be non-NULL, got NULL\n", #p);	\
} while (0)

/*
 * ASSERT_ALL(n, total, "..."): every one of total things passed, and there
 * was at least one: "all of none" proves nothing, so total 0 fails (the C
 * form of refusing an empty input).
 */
#define ASSERT_ALL(n, total, desc) do {						\
	uint64_t _n = (uint64_t)(n), _t = (uint64_t)(total);			\
	TAP_OK(_t > 0 && _n == _t, "%s (%" PRIu64 " of %" PRIu64 ")", desc, _n, _t);	\
	if (!_t)								\
		printf("#   expected at least one, got none\n");		\
	else if (_n != _t)							\
		printf("#   expected all %" PRIu64 ", got %" PRIu64 "\n", _t, _n);	\
} while (0)

/*
 * ASSERT_EXIT(wstatus, want, "..."): a child (waitpid/system status) exited
 * with exactly want: a signal, or another status, fails and says which
 * (the W* macros: <stdlib.h> or <sys/wait.h>).
 */
#define ASSERT_EXIT(wstatus, want, desc) do {					\
	int _w = (wstatus), _e = (want);					\
	int _ok = _w != -1 && WIFEXITED(_w) && WEXITSTATUS(_w) == _e;		\
	TAP_OK(_ok, "%s", desc);						\
	if (!_ok && _w == -1)							\
		printf("#   expected exit %d, got no child status (-1)\n", _e);	\
	else if (!_ok && WIFSIGNALED(_w))					\
		printf("#   expected exit %d, got killed by signal %d\n", _e, WTERMSIG(_w)); \
	else if (!_ok)								\
		printf("#   expected exit %d, got exit %d\n", _e, WIFEXITED(_w) ? WEXITSTATUS(_w) : -1); \
} while (0)

/* Text that may span lines goes out as TAP comments, one "#   | " per line. */
static inline void tap_diag_text(const char *s)
{
	if (!s) {
		printf("#   | (null)\n");
		return;
	}
	while (*s) {
		size_t n = strcspn(s, "\n");

		printf("#   | %.*s\n", (int)n, s);
		s += n;
		if (*s)
			s++;
	}
}

/* haystack may be NULL: that fails, as strstr's caller would have checked. */
#define ASSERT_CONTAINS(haystack, needle, desc) do {				\
	const char *_h = (haystack), *_n = (needle);				\
	int _ok = _h && _n && strstr(_h, _n) != NULL;				\
	TAP_OK(_ok, "%s", desc);						\
	if (!_ok) {								\
		printf("#   expected to contain ");				\
		tap_print_str(_n);						\
		printf(", got %s\n", _h ? "these lines:" : "NULL");		\
		if (_h)								\
			tap_diag_text(_h);					\
	}									\
} while (0)

#define ASSERT_NOT_CONTAINS(haystack, needle, desc) do {			\
	const char *_h = (haystack), *_n = (needle);				\
	int _ok = _h && _n && strstr(_h, _n) == NULL;				\
	TAP_OK(_ok, "%s", desc);						\
	if (!_ok) {								\
		printf("#   expected no ");					\
		tap_print_str(_n);						\
		printf(", got %s\n", _h ? "these lines:" : "NULL");		\
		if (_h)								\
			tap_diag_text(_h);					\
	}									\
} while (0)

/* A check that cannot run here, with the reason (TAP's SKIP directive): never a silent pass. */
#define TAP_SKIP(...) do {							\
	tap_n++;								\
	printf("ok %d # SKIP ", tap_n);						\
	printf(__VA_ARGS__);							\
	printf("\n");								\
} while (0)

/* A whole file with a NUL after it (text or not: *len, when asked, says how long); NULL if unreadable. */
static inline void *tap_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n = -1;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET))
		buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (!buf)
		return NULL;
	buf[n] = '\0';
	if (len)
		*len = (size_t)n;
	return buf;
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
