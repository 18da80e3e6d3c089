/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Diagnostics for odd input: each distinct warning reaches stderr once. */
#ifndef FABTOP_WARN_H
#define FABTOP_WARN_H

#include <stdbool.h>

/* Print "fabtop: warning: ..." unless this exact text was printed before. */
void warn_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* While quiet (the TUI owns the terminal) warnings are kept, not printed. */
void warn_set_quiet(bool quiet);
/* The kept warnings, newest last; n is set to how many. */
const char *const *warn_list(unsigned int *n);

#endif
