// SPDX-License-Identifier: GPL-2.0-or-later
/* Overlay text boxes: a title, scrolled lines with their roles, a footer. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ui/widget/pager.h"
#include "ui/widget/theme.h"

void pager_draw(WINDOW *w, int y, int x, int h, int width, const char *title,
		const struct text *t, size_t *top, const char *footer)
{
	int rows;
	char more[64];

	if (h <= 0 || width <= 0)
		return;
	for (int i = 0; i < h; i++) {
		wattrset(w, A_NORMAL);
		mvwhline(w, y + i, x, ' ', width);
	}
	wattrset(w, theme_attr(ROLE_HEADING));
	mvwaddnstr(w, y, x, title, width);
	rows = h - (h >= 3 ? 2 : 1);
	if (rows < 0)
		rows = 0;
	if (t->n <= (size_t)rows)
		*top = 0;
	else if (*top > t->n - (size_t)rows)
		*top = t->n - (size_t)rows;
	for (int i = 0; i < rows && *top + (size_t)i < t->n; i++) {
		const struct text_line *l = &t->lines[*top + (size_t)i];

		wattrset(w, theme_attr(l->role));
		mvwaddnstr(w, y + 1 + i, x, l->s, width);
	}
	if (h >= 3) {
		if (t->n > (size_t)rows)
			snprintf(more, sizeof(more), "  [%zu-%zu of %zu]", *top + 1,
				 *top + (size_t)rows < t->n ? *top + (size_t)rows : t->n, t->n);
		else
			more[0] = '\0';
		wattrset(w, theme_attr(ROLE_DIM));
		mvwaddnstr(w, y + h - 1, x, footer, width);
		if ((int)strlen(footer) + (int)strlen(more) <= width)
			waddstr(w, more);
	}
	wattrset(w, A_NORMAL);
}
