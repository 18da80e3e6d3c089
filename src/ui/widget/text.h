/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A growable list of text lines: what help and details overlays show. */
#ifndef FABTOP_UI_WIDGET_TEXT_H
#define FABTOP_UI_WIDGET_TEXT_H

#include <stddef.h>

#define TEXT_LINE_LEN 200

struct text_line {
	char s[TEXT_LINE_LEN];
	int role;		/* a theme role (theme.h) */
};

struct text {
	struct text_line *lines;
	size_t n, cap;
};

/* Append one line (printf-style); silently drops it when memory runs out. */
void text_add(struct text *t, int role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void text_clear(struct text *t);
void text_free(struct text *t);

#endif
