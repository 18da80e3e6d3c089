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

/*
 * One line for a terminal: printf, every control escaped (newline and tab
 * too: what a name holds is never a line break), then the line's own
 * newline. Messages that carry names (warnings, the --apply log, the
 * source's description) leave through it.
 */
void escape_line(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* escape_line()'s escaping of s into dst (size bytes, cut short if need be, no newline). Returns dst. */
char *escape_str(char *dst, size_t size, const char *s);

/* printf through escape_write(). */
void escape_printf(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A stream that writes to out through escape_write() as it is flushed (so
 * a report printed in steps, show fabric --count, still comes out in
 * steps); a UTF-8 sequence cut by a flush is held until its end comes.
 * NULL when out of memory: print to out directly then. escape_close()
 * flushes and frees it.
 */
FILE *escape_open(FILE *out);
void escape_close(FILE *f);

#endif
