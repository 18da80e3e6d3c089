// SPDX-License-Identifier: GPL-2.0-or-later
/* Growable line lists for the help and details overlays. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ui/widget/text.h"

void text_add(struct text *t, int role, const char *fmt, ...)
{
	va_list ap;

	if (t->n == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 32;
		struct text_line *nl = realloc(t->lines, ncap * sizeof(*nl));

		if (!nl)
			return;
		t->lines = nl;
		t->cap = ncap;
	}
	va_start(ap, fmt);
	vsnprintf(t->lines[t->n].s, sizeof(t->lines[t->n].s), fmt, ap);
	va_end(ap);
	/* Model strings are sanitised, but keep the screen safe from any byte. */
	for (char *p = t->lines[t->n].s; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
	t->lines[t->n].role = role;
	t->n++;
}

void text_clear(struct text *t)
{
	t->n = 0;
}

void text_free(struct text *t)
{
	free(t->lines);
	t->lines = NULL;
	t->n = t->cap = 0;
}
