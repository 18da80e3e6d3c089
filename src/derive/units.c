// SPDX-License-Identifier: GPL-2.0-or-later
/* Formatting numbers with SI or binary prefixes, three significant digits. */
#include "config.h"

#include <stdio.h>

#include "derive/units.h"
#include "util.h"

char *units_si(char *buf, size_t size, double v, const char *unit)
{
	static const char *const prefix[] = { "", "k", "M", "G", "T", "P", "E" };
	unsigned int i = 0;

	if (!(v == v)) {	/* NaN */
		snprintf(buf, size, "? %s", unit);
		return buf;
	}
	while ((v >= 999.5 || v <= -999.5) && i + 1 < ARRAY_SIZE(prefix)) {
		v /= 1000;
		i++;
	}
	if (i == 0 && v == (double)(long long)v)
		snprintf(buf, size, "%lld %s", (long long)v, unit);
	else if (v >= 99.95 || v <= -99.95)
		snprintf(buf, size, "%.0f %s%s", v, prefix[i], unit);
	else if (v >= 9.995 || v <= -9.995)
		snprintf(buf, size, "%.1f %s%s", v, prefix[i], unit);
	else
		snprintf(buf, size, "%.2f %s%s", v, prefix[i], unit);
	return buf;
}

char *units_bitrate(char *buf, size_t size, double bits_per_s)
{
	return units_si(buf, size, bits_per_s, "b/s");
}

char *units_bytes(char *buf, size_t size, uint64_t bytes)
{
	static const char *const prefix[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	unsigned int i = 0;

	if (bytes < 1024) {
		snprintf(buf, size, "%llu B", (unsigned long long)bytes);
		return buf;
	}
	while (v >= 1023.95 && i + 1 < ARRAY_SIZE(prefix)) {
		v /= 1024;
		i++;
	}
	snprintf(buf, size, v >= 99.95 ? "%.0f %s" : v >= 9.995 ? "%.1f %s" : "%.2f %s", v, prefix[i]);
	return buf;
}
