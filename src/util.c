// SPDX-License-Identifier: GPL-2.0-or-later
/* The shared helpers of util.h. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

const char *util_name(const char *const *tbl, size_t n, int64_t v, const char *dflt)
{
	if (v < 0 || (uint64_t)v >= n || !tbl[v])
		return dflt;
	return tbl[v];
}

void util_lower_timeout(int *timeout_ms, uint64_t due_ns, uint64_t now_ns)
{
	uint64_t ms = due_ns > now_ns ? (due_ns - now_ns + 999999) / 1000000 : 0;

	if (ms > 3600000)
		ms = 3600000;
	if (*timeout_ms < 0 || (int)ms < *timeout_ms)
		*timeout_ms = (int)ms;
}

uint64_t util_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t util_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *util_wall_str(uint64_t wall_ns, char *buf, size_t size)
{
	time_t t = (time_t)(wall_ns / 1000000000u);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, size, "@%" PRIu64, wall_ns / 1000000000u);
	return buf;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\v' || *s == '\f')
		s++;
	return s;
}

/* What follows a number: nothing (blanks too with UTIL_NUM_BLANKS), or anything with UTIL_NUM_PREFIX. */
static int num_tail(const char *p, unsigned int flags, const char **end)
{
	if (end)
		*end = p;
	if (flags & UTIL_NUM_PREFIX)
		return 0;
	if (flags & UTIL_NUM_BLANKS)
		p = skip_blanks(p);
	return *p ? -EINVAL : 0;
}

int util_num_u64(const char *s, unsigned int flags, int base, uint64_t max, uint64_t *out, const char **end)
{
	uint64_t v = 0;
	unsigned int b = base > 0 ? (unsigned int)base : 10;
	int digits = 0, rc;

	if (!s || base < 0 || base == 1 || base > 36)
		return -EINVAL;
	if (flags & UTIL_NUM_BLANKS)
		s = skip_blanks(s);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && (base == 0 || base == 16 || (flags & UTIL_NUM_0X)) &&
	    isxdigit((unsigned char)s[2])) {
		b = 16;
		s += 2;
	} else if (base == 0 && s[0] == '0') {
		b = 8;
	}
	for (; *s; s++) {
		unsigned int d;

		if (isdigit((unsigned char)*s))
			d = (unsigned int)(*s - '0');
		else if (isalpha((unsigned char)*s))
			d = (unsigned int)(tolower((unsigned char)*s) - 'a' + 10);
		else
			break;
		if (d >= b)
			break;
		if (v > (UINT64_MAX - d) / b)
			return -ERANGE;
		v = v * b + d;
		digits++;
	}
	if (!digits)
		return -EINVAL;
	rc = num_tail(s, flags, end);
	if (rc)
		return rc;
	if (v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int util_num_double(const char *s, unsigned int flags, double min, double max, double *out, const char **end)
{
	char *e;
	double v;
	int rc;

	if (!s)
		return -EINVAL;
	if (flags & UTIL_NUM_BLANKS)
		s = skip_blanks(s);
	/* strtod would take leading blanks itself: only where the flags allow them */
	if (!*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &e);
	if (e == s)
		return -EINVAL;
	rc = num_tail(e, flags, end);
	if (rc)
		return rc;
	/* !(in range) rather than (out of range): NaN compares false both ways. */
	if (errno || !(v >= min && v <= max))
		return -ERANGE;
	*out = v;
	return 0;
}

int util_parse_u64(const char *s, int base, uint64_t max, uint64_t *out)
{
	return util_num_u64(s, 0, base, max, out, NULL) ? -1 : 0;
}

int util_parse_double(const char *s, double min, double max, double *out)
{
	return util_num_double(s, 0, min, max, out, NULL) ? -1 : 0;
}

int util_parse_guid(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int digits = 0;

	if (!s)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s && !(s[0] == '\n' && !s[1]); s++) {
		int d;

		if (*s == ':')
			continue;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		if (++digits > 16)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	if (!digits)
		return -1;
	*out = v;
	return 0;
}

bool util_is_http_url(const char *s)
{
	size_t n;

	if (!s)
		return false;
	if (!strncasecmp(s, "http://", 7))
		n = 7;
	else if (!strncasecmp(s, "https://", 8))
		n = 8;
	else
		return false;
	if (!s[n] || s[n] == '/' || strlen(s) >= UTIL_URL_MAX)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

int util_create_file(const char *path)
{
	char tmp[PATH_MAX];
	int fd, e;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (rename(tmp, path)) {
		e = errno;
		unlink(tmp);
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

size_t util_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c;

	if (!n)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
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
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

char *util_clean(char *s)
{
	unsigned char *p = (unsigned char *)s;
	size_t n = strlen(s), i = 0;

	while (i < n) {
		uint32_t cp;
		size_t len = util_utf8_seq(p + i, n - i, &cp);

		if (!len) {
			/* not UTF-8: a raw C1 byte is a control to a Latin-1 terminal */
			if (p[i] >= 0x80 && p[i] <= 0x9f)
				p[i] = '?';
			i++;
			continue;
		}
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
			memset(p + i, '?', len);
		i += len;
	}
	return s;
}

ptrdiff_t util_dir_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		if (size < 2)
			return -1;
		snprintf(dir, size, ".");
		return 0;
	}
	/* "/name": the root itself; else everything before the last slash */
	if ((slash == path ? 2 : (size_t)(slash - path) + 1) > size)
		return -1;
	if (slash == path) {
		snprintf(dir, size, "/");
	} else {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
	}
	return slash - path + 1;
}

int util_xdg_path(char *buf, size_t size, const char *var, const char *home_dir, const char *tail)
{
	const char *xdg = getenv(var);
	const char *home = getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(buf, size, "%s/%s", xdg, tail);
	else if (home && home[0] == '/')
		n = snprintf(buf, size, "%s/%s/%s", home, home_dir, tail);
	else
		return -1;
	return n < 0 || (size_t)n >= size ? -1 : 0;
}
