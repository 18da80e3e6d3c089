/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sparklines and bar graphs of rate history, in UTF-8 blocks or plain ASCII. */
#ifndef FABTOP_UI_WIDGET_GRAPH_H
#define FABTOP_UI_WIDGET_GRAPH_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

struct hist;

/* One line of in+out throughput over the window ending at end_ns, scaled to its own peak. */
void graph_spark(WINDOW *w, int y, int x, int width, const struct hist *h,
		 unsigned int window_s, uint64_t end_ns, bool utf8);

/*
 * A bar graph h rows high, one column per value, scaled so max fills it.
 * Columns whose known[] is false stay blank (no data, not zero).
 */
void graph_bars(WINDOW *w, int y, int x, int h, int width, const float *vals,
		const bool *known, double max, bool utf8);


#endif
