// SPDX-License-Identifier: GPL-2.0-or-later
/* Drawing history: sparklines in table cells and the selected port's bar graph. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "ui/widget/graph.h"
#include "derive/track.h"

#define GRAPH_MAX_COLS 1024

/* U+2581..U+2588 lower blocks; ASCII steps when the locale is not UTF-8. */
static const char *const glyph_utf8[9] = {
	" ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
	"\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88",
};
static const char *const glyph_ascii[9] = { " ", "_", "_", ".", ".", ":", ":", "#", "#" };

/* The glyph for a level 0..8 (eighths of a cell), UTF-8 or ASCII. */
static const char *graph_glyph(int eighths, bool utf8)
{
	if (eighths < 0)
		eighths = 0;
	if (eighths > 8)
		eighths = 8;
	return utf8 ? glyph_utf8[eighths] : glyph_ascii[eighths];
}

void graph_spark(WINDOW *w, int y, int x, int width, const struct hist *h,
		 unsigned int window_s, uint64_t end_ns, bool utf8)
{
	static float in[GRAPH_MAX_COLS], out[GRAPH_MAX_COLS];
	static bool known[GRAPH_MAX_COLS];
	double max = 0;

	if (width <= 0)
		return;
	if (width > GRAPH_MAX_COLS)
		width = GRAPH_MAX_COLS;
	if (!hist_series(h, window_s, end_ns, width, in, out, known))
		return;
	for (int c = 0; c < width; c++)
		if (known[c] && in[c] + out[c] > max)
			max = in[c] + out[c];
	for (int c = 0; c < width; c++) {
		int e;

		if (!known[c])
			continue;
		/* Idle shows as a baseline, so "no traffic" differs from "no data". */
		e = max > 0 ? 1 + (int)((in[c] + out[c]) / max * 7.0 + 0.5) : 1;
		mvwaddstr(w, y, x + c, graph_glyph(e, utf8));
	}
}

void graph_bars(WINDOW *w, int y, int x, int h, int width, const float *vals,
		const bool *known, double max, bool utf8)
{
	if (h <= 0 || width <= 0)
		return;
	for (int c = 0; c < width; c++) {
		long eighths;

		if (!known[c])
			continue;
		eighths = max > 0 ? lround(vals[c] / max * h * 8) : 0;
		/* Any traffic at all gets at least a sliver. */
		if (eighths == 0 && vals[c] > 0)
			eighths = 1;
		for (int r = 0; r < h; r++) {
			long cell = eighths - (long)r * 8;

			if (cell <= 0)
				break;
			mvwaddstr(w, y + h - 1 - r, x + c, graph_glyph(cell > 8 ? 8 : (int)cell, utf8));
		}
	}
}
