/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Human units for numbers shown to people (text reports and the TUI). */
#ifndef FABTOP_DERIVE_UNITS_H
#define FABTOP_DERIVE_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* "12.3 Gb/s", "950 Mb/s", "0 b/s": bits per second, SI prefixes. */
char *units_bitrate(char *buf, size_t size, double bits_per_s);
/* "1.23 Mpkt/s" style: value with an SI prefix and the given unit suffix. */
char *units_si(char *buf, size_t size, double v, const char *unit);
/* "1.5 GiB", "812 B": bytes, binary prefixes. */
char *units_bytes(char *buf, size_t size, uint64_t bytes);

#endif
