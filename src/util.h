/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The small helpers every layer shares: array size, enum names, the monotonic clock, strict number and GUID parsing. */
#ifndef FABTOP_UTIL_H
#define FABTOP_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Enum to string: tbl[v] when v has a non-NULL entry in the n-entry table, else dflt. */
const char *util_name(const char *const *tbl, size_t n, int64_t v, const char *dflt);

/* CLOCK_MONOTONIC in nanoseconds: the clock of every deadline, sample and rate. */
uint64_t util_now_ns(void);
/*
 * A poll loop's timeout lowered to wake by due_ns (CLOCK_MONOTONIC, rounded
 * up to the millisecond, 0 when past, at most an hour): *timeout_ms < 0
 * waits forever until something lowers it.
 */
void util_lower_timeout(int *timeout_ms, uint64_t due_ns, uint64_t now_ns);
/* CLOCK_REALTIME in ns: when something happened, for people and recordings. */
uint64_t util_wall_ns(void);
/* "2026-11-24 13:05:10" (local time) of a CLOCK_REALTIME time. Returns buf. */
const char *util_wall_str(uint64_t wall_ns, char *buf, size_t size);

/*
 * The one number family: every number fabtop reads, from a person, a file,
 * the kernel or another program, is parsed here. util_num_u64() and
 * util_num_double() take flags for what may surround the number; the
 * util_parse_*() below are their strict forms for options.
 */
#define UTIL_NUM_BLANKS	(1u << 0)	/* blanks before (and, whole, after): sysfs' newline, /proc's tabs */
#define UTIL_NUM_0X	(1u << 1)	/* "0x" makes it hex (u64, base 10) */
#define UTIL_NUM_PREFIX	(1u << 2)	/* a number at the start: *end says where the rest begins */

/*
 * An unsigned number in base (0: 0x... hex, 0... octal, else decimal; no
 * sign ever) no larger than max. 0, -EINVAL (no digits, a sign, something
 * after it unless UTIL_NUM_PREFIX) or -ERANGE (past max); *out is
 * untouched on error. end may be NULL.
 */
int util_num_u64(const char *s, unsigned int flags, int base, uint64_t max, uint64_t *out, const char **end);
/* A number from min to max as strtod() spells it (NaN never in range); as util_num_u64(). */
int util_num_double(const char *s, unsigned int flags, double min, double max, double *out, const char **end);

/*
 * A whole string as an unsigned number no larger than max: digits only (base
 * 10, or with base 0 also 0x... and 0...), no sign, no space, nothing after.
 * 0, or -1 (*out untouched).
 */
int util_parse_u64(const char *s, int base, uint64_t max, uint64_t *out);

/*
 * A whole string as a number from min to max (strtod's spelling: "0.5",
 * "1e1"; nothing after it). NaN is never in range. 0, or -1 (*out untouched).
 */
int util_parse_double(const char *s, double min, double max, double *out);

/*
 * A GUID as the kernel ("0002:c903:0031:78f0"), ibstat ("0x0002c9030031 78f0"
 * without the space) or as bare hex writes it: up to 16 hex digits, colons
 * ignored, one trailing newline allowed. 0, or -1 (*out untouched).
 */
int util_parse_guid(const char *s, uint64_t *out);

/*
 * An http:// or https:// URL with a host, shorter than UTIL_URL_MAX, no
 * blank or control byte in it: what --prometheus and fabtoprc accept.
 */
#define UTIL_URL_MAX 512
bool util_is_http_url(const char *s);

/*
 * A new file at path for writing, mode 0600: made under a fresh name beside
 * it (O_EXCL, so a name someone planted is never opened) and renamed over
 * path, so whatever was there, a planted symlink included, is replaced and
 * never followed. The fd (O_CLOEXEC), or -1 with errno.
 */
int util_create_file(const char *path);

/*
 * The length of the valid UTF-8 sequence at s (at most n bytes; no overlong
 * form, surrogate or code point past U+10FFFF), 0 when there is none; its
 * code point in *cp. ASCII is a sequence of one.
 */
size_t util_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp);

/*
 * Clean a string where it enters fabtop (sysfs, MADs, netlink, /proc,
 * recordings, Prometheus answers): every byte a terminal acts on becomes
 * '?', in place and length kept: C0 controls (newline and tab too: a name
 * is one line), DEL, C1 controls as UTF-8 (U+0080..U+009F, C2 80..C2 9F)
 * and as raw bytes 0x80..0x9F outside a valid sequence. Other bytes that
 * are not UTF-8 stay (JSON repairs them, text escapes them). Returns s.
 */
char *util_clean(char *s);

/*
 * An XDG base directory path: "$VAR/TAIL" when the variable VAR holds an
 * absolute path (XDG: a relative one is invalid and ignored), else
 * "$HOME/HOME_DIR/TAIL". -1 when neither is usable or buf is too small.
 */
int util_xdg_path(char *buf, size_t size, const char *var, const char *home_dir, const char *tail);

/*
 * The directory of path into dir ("." for a bare name, "/" for one at the
 * root), as dirname(3) does for these, without changing path. Returns
 * where the last name starts in path, or -1 when dir is too small.
 */
ptrdiff_t util_dir_of(const char *path, char *dir, size_t size);

#endif
