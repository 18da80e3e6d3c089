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
/* CLOCK_REALTIME in ns: when something happened, for people and recordings. */
uint64_t util_wall_ns(void);
/* "2026-11-24 13:05:10" (local time) of a CLOCK_REALTIME time. Returns buf. */
const char *util_wall_str(uint64_t wall_ns, char *buf, size_t size);

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

#endif
