/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text output a terminal cannot be steered by: control bytes, C1 and broken UTF-8 written as \xNN. */
#ifndef FABTOP_REPORT_ESCAPE_H
#define FABTOP_REPORT_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write s[0..n) to out with every byte a terminal could act on spelled
 * "\xNN": C0 controls but newline and tab, DEL, C1 controls (as raw bytes
 * and as UTF-8 U+0080..U+009F), and bytes that are not valid UTF-8. Names
 * from sysfs and netlink (counters, netdevs) reach text reports through it.
 */
void escape_write(FILE *out, const char *s, size_t n);

/* printf through escape_write(). */
void escape_printf(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A text report in memory: escape_begin() returns a stream to print to
 * (NULL when out of memory: print to out directly then), escape_end()
 * writes what was printed to out, escaped, and frees the stream.
 */
struct escape_buf {
	char *buf;
	size_t len;
	FILE *mem;
};
FILE *escape_begin(struct escape_buf *e, FILE *out);
void escape_end(struct escape_buf *e, FILE *out);

#endif
