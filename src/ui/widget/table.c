// SPDX-License-Identifier: GPL-2.0-or-later
/* Table widget: filter, stable sort, selection by key, column fitting, drawing, clicks. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ui/widget/graph.h"
#include "ui/widget/table.h"
#include "ui/widget/theme.h"

void table_init(struct table *t, const struct table_col *cols, int ncols, int sort_col, bool desc)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols > TABLE_MAX_COLS ? TABLE_MAX_COLS : ncols;
	t->sort_col = sort_col >= 0 && sort_col < t->ncols ? sort_col : 0;
	t->sort_desc = desc;
	t->page = 1;
}

void table_free(struct table *t)
{
	free(t->rows);
	free(t->view);
	t->rows = NULL;
	t->view = NULL;
	t->nrows = t->cap = t->nview = t->view_cap = 0;
}

void table_begin(struct table *t)
{
	t->nrows = 0;
}

struct table_row *table_add(struct table *t, const char *key_fmt, ...)
{
	struct table_row *r;
	va_list ap;

	if (t->nrows == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;
		struct table_row *nr = realloc(t->rows, ncap * sizeof(*nr));

		if (!nr)
			return NULL;
		t->rows = nr;
		t->cap = ncap;
	}
	r = &t->rows[t->nrows++];
	memset(r, 0, sizeof(*r));
	va_start(ap, key_fmt);
	vsnprintf(r->key, sizeof(r->key), key_fmt, ap);
	va_end(ap);
	return r;
}

void table_cell(struct table_row *r, int col, int role, const char *fmt, ...)
{
	va_list ap;

	if (!r || col < 0 || col >= TABLE_MAX_COLS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->cells[col].text, sizeof(r->cells[col].text), fmt, ap);
	va_end(ap);
	/* Cells are measured in bytes: keep them single-column ASCII. */
	for (char *p = r->cells[col].text; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
	r->cells[col].role = role;
}

void table_cell_num(struct table_row *r, int col, double num)
{
	if (!r || col < 0 || col >= TABLE_MAX_COLS)
		return;
	r->cells[col].num = num;
	r->cells[col].has_num = !isnan(num);
}

static bool table_match(const struct table *t, const struct table_row *r)
{
	if (!t->filter[0])
		return true;
	if (strcasestr(r->key, t->filter))
		return true;
	for (int c = 0; c < t->ncols; c++)
		if (strcasestr(r->cells[c].text, t->filter))
			return true;
	return false;
}

static int table_cmp(const void *a, const void *b, void *arg)
{
	const struct table *t = arg;
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	const struct table_cell *ca = &t->rows[ia].cells[t->sort_col];
	const struct table_cell *cb = &t->rows[ib].cells[t->sort_col];
	int r = 0;

	if (t->cols[t->sort_col].numeric) {
		/* Unknown numbers go last whatever the direction. */
		if (ca->has_num != cb->has_num)
			return ca->has_num ? -1 : 1;
		if (ca->has_num)
			r = ca->num < cb->num ? -1 : ca->num > cb->num ? 1 : 0;
	} else {
		r = strcasecmp(ca->text, cb->text);
	}
	if (t->sort_desc)
		r = -r;
	if (r)
		return r;
	/* Stable: the collection order (device, port, index) breaks ties. */
	return ia < ib ? -1 : ia > ib ? 1 : 0;
}

static void table_fix_scroll(struct table *t)
{
	size_t page = t->page > 0 ? (size_t)t->page : 1;

	if (t->nview == 0) {
		t->sel = t->top = 0;
		return;
	}
	if (t->sel >= t->nview)
		t->sel = t->nview - 1;
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + page)
		t->top = t->sel - page + 1;
	if (t->top + page > t->nview)
		t->top = t->nview > page ? t->nview - page : 0;
	snprintf(t->sel_key, sizeof(t->sel_key), "%s", t->rows[t->view[t->sel]].key);
}

void table_end(struct table *t)
{
	size_t i;

	if (t->view_cap < t->nrows) {
		size_t *nv = realloc(t->view, t->nrows * sizeof(*nv));

		if (!nv) {
			t->nview = 0;
			return;
		}
		t->view = nv;
		t->view_cap = t->nrows;
	}
	t->nview = 0;
	for (i = 0; i < t->nrows; i++)
		if (table_match(t, &t->rows[i]))
			t->view[t->nview++] = i;
	if (t->ncols > 0 && t->nview > 1)
		qsort_r(t->view, t->nview, sizeof(*t->view), table_cmp, t);
	/* Keep the selection on the same entity when it still exists. */
	if (t->sel_key[0])
		for (i = 0; i < t->nview; i++)
			if (!strcmp(t->rows[t->view[i]].key, t->sel_key)) {
				t->sel = i;
				break;
			}
	table_fix_scroll(t);
}

const struct table_row *table_selected(const struct table *t)
{
	if (t->sel >= t->nview)
		return NULL;
	return &t->rows[t->view[t->sel]];
}

void table_move(struct table *t, long delta)
{
	long s = (long)t->sel + delta;

	if (t->nview == 0)
		return;
	if (s < 0)
		s = 0;
	if ((size_t)s >= t->nview)
		s = (long)t->nview - 1;
	t->sel = (size_t)s;
	table_fix_scroll(t);
}

void table_home(struct table *t)
{
	t->sel = 0;
	table_fix_scroll(t);
}

void table_end_key(struct table *t)
{
	if (t->nview)
		t->sel = t->nview - 1;
	table_fix_scroll(t);
}

void table_sort_by(struct table *t, int col)
{
	if (col < 0 || col >= t->ncols || t->cols[col].spark)
		return;
	if (col == t->sort_col)
		t->sort_desc = !t->sort_desc;
	else {
		t->sort_col = col;
		/* Numbers are most useful biggest first, names A to Z. */
		t->sort_desc = t->cols[col].numeric;
	}
	table_end(t);
}

void table_sort_next(struct table *t)
{
	for (int i = 1; i <= t->ncols; i++) {
		int c = (t->sort_col + i) % t->ncols;

		if (t->cols[c].spark || (t->col_w[0] && !t->col_on[c]))
			continue;
		t->sort_col = c;
		t->sort_desc = t->cols[c].numeric;
		break;
	}
	table_end(t);
}

void table_set_filter(struct table *t, const char *filter)
{
	snprintf(t->filter, sizeof(t->filter), "%s", filter);
	table_end(t);
}

/* Fit columns into width: which are shown and how wide. */
static void table_layout(struct table *t, int width)
{
	int total = 0, c, flex = -1;

	for (c = 0; c < t->ncols; c++) {
		t->col_on[c] = true;
		t->col_w[c] = t->cols[c].width;
		total += t->col_w[c] + (c ? 1 : 0);
		if (t->cols[c].flex && flex < 0)
			flex = c;
	}
	/* Drop the least important columns (highest prio, rightmost first). */
	while (total > width) {
		int drop = -1;

		for (c = t->ncols - 1; c >= 0; c--)
			if (t->col_on[c] && t->cols[c].prio > 0 &&
			    (drop < 0 || t->cols[c].prio > t->cols[drop].prio))
				drop = c;
		if (drop < 0)
			break;
		t->col_on[drop] = false;
		total -= t->col_w[drop] + 1;
	}
	/*
	 * Still too wide: the rightmost of the columns that matter go too, whole
	 * (a column cut to a few letters says nothing); the first one stays.
	 */
	for (c = t->ncols - 1; c > 0 && total > width; c--) {
		if (!t->col_on[c])
			continue;
		t->col_on[c] = false;
		total -= t->col_w[c] + 1;
	}
	/* Only the first is left, and it is wider than the screen: squeeze it. */
	for (c = t->ncols - 1; c >= 0 && total > width; c--) {
		int cut;

		if (!t->col_on[c])
			continue;
		cut = total - width;
		if (cut > t->col_w[c] - 1)
			cut = t->col_w[c] - 1;
		t->col_w[c] -= cut;
		total -= cut;
	}
	if (flex >= 0 && t->col_on[flex] && total < width)
		t->col_w[flex] += width - total;
}

static void put_cell(WINDOW *w, int y, int x, int width, bool right, chtype attr, const char *s)
{
	int len = (int)strlen(s);

	if (width <= 0)
		return;
	wattrset(w, attr);
	if (len > width) {
		/* Cut visibly: a truncated number must not pass for a smaller one. */
		mvwaddnstr(w, y, x, s, width - 1);
		waddch(w, '~');
		return;
	}
	mvwprintw(w, y, x, right ? "%*s" : "%-*s", width, s);
}

int table_draw(struct table *t, WINDOW *w, int y, int x, int h, int width,
	       const struct table_draw_opts *o)
{
	int c, cx, shown = 0;

	if (h <= 0 || width <= 0)
		return 0;
	table_layout(t, width);
	t->hdr_y = y;
	t->x0 = x;
	t->first_y = y + 1;
	t->page = h - 1 > 0 ? h - 1 : 1;
	table_fix_scroll(t);

	/* Header line, the sort column marked (htop's habit). */
	wattrset(w, theme_attr(ROLE_COL_HEADER));
	mvwhline(w, y, x, ' ', width);
	for (c = 0, cx = x; c < t->ncols; c++) {
		char title[TABLE_CELL_LEN + 2];

		if (!t->col_on[c])
			continue;
		t->col_x[c] = cx;
		snprintf(title, sizeof(title), "%s", t->cols[c].title);
		if (c == t->sort_col) {
			/* The arrow takes the title's last column when there is no room. */
			int tl = (int)strlen(t->cols[c].title), cw = t->col_w[c];
			int keep = tl + 1 <= cw ? tl : cw - 1;
			int pad = t->cols[c].right ? cw - keep - 1 : 0;

			wattrset(w, theme_attr(ROLE_COL_SORTED));
			mvwhline(w, y, cx, ' ', cw);
			if (keep >= 0) {
				mvwaddnstr(w, y, cx + (pad > 0 ? pad : 0), t->cols[c].title, keep);
				waddstr(w, t->sort_desc ? (o->utf8 ? "\xe2\x96\xbc" : "v") : (o->utf8 ? "\xe2\x96\xb2" : "^"));
			}
			wattrset(w, theme_attr(ROLE_COL_HEADER));
		} else {
			put_cell(w, y, cx, t->col_w[c], t->cols[c].right, theme_attr(ROLE_COL_HEADER), title);
		}
		cx += t->col_w[c] + 1;
	}

	for (int i = 0; i < t->page && t->top + (size_t)i < t->nview; i++) {
		const struct table_row *r = &t->rows[t->view[t->top + (size_t)i]];
		bool sel = o->focused && t->top + (size_t)i == t->sel;
		chtype rowattr = sel ? theme_attr(ROLE_SELECTED) : theme_attr(r->role);
		int ry = y + 1 + i;

		wattrset(w, rowattr);
		mvwhline(w, ry, x, ' ', width);
		for (c = 0; c < t->ncols; c++) {
			const struct table_cell *cell = &r->cells[c];
			chtype a = rowattr;

			if (!t->col_on[c])
				continue;
			if (!sel && cell->role && !r->role)
				a = theme_attr(cell->role);
			if (t->cols[c].spark) {
				wattrset(w, a);
				if (r->spark)
					graph_spark(w, ry, t->col_x[c], t->col_w[c], r->spark,
						    o->window_s, o->now_ns, o->utf8);
				continue;
			}
			put_cell(w, ry, t->col_x[c], t->col_w[c], t->cols[c].right, a, cell->text);
		}
		shown++;
	}
	wattrset(w, A_NORMAL);
	return shown;
}

enum table_hit table_click(struct table *t, int y, int x)
{
	if (y == t->hdr_y) {
		for (int c = 0; c < t->ncols; c++)
			if (t->col_on[c] && x >= t->col_x[c] && x < t->col_x[c] + t->col_w[c] + 1) {
				table_sort_by(t, c);
				return TABLE_HIT_HEADER;
			}
		return TABLE_HIT_NONE;
	}
	if (y >= t->first_y && y < t->first_y + t->page) {
		size_t idx = t->top + (size_t)(y - t->first_y);

		if (idx >= t->nview)
			return TABLE_HIT_NONE;
		if (idx == t->sel)
			return TABLE_HIT_ROW_AGAIN;
		t->sel = idx;
		table_fix_scroll(t);
		return TABLE_HIT_ROW;
	}
	return TABLE_HIT_NONE;
}
