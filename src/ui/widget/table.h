/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table widget: rows built from the model, filtered, sorted, scrolled, clicked. */
#ifndef FABTOP_UI_WIDGET_TABLE_H
#define FABTOP_UI_WIDGET_TABLE_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TABLE_MAX_COLS	20
#define TABLE_CELL_LEN	64
#define TABLE_KEY_LEN	96
#define TABLE_FILTER_LEN 64

struct hist;

struct table_col {
	const char *title;
	int width;		/* preferred width in columns */
	int prio;		/* 0: always shown; higher ones are dropped first when narrow */
	bool right;		/* right-aligned (numbers) */
	bool numeric;		/* sort by the cell's number, not its text */
	bool spark;		/* a sparkline of the row's history */
	bool flex;		/* takes the width left over */
};

struct table_cell {
	char text[TABLE_CELL_LEN];
	double num;
	bool has_num;
	int role;		/* theme role, 0: the row's */
};

struct table_row {
	char key[TABLE_KEY_LEN];	/* stable identity: selection survives refreshes */
	int role;			/* theme role of the whole row */
	const struct hist *spark;	/* history for spark columns, or NULL */
	struct table_cell cells[TABLE_MAX_COLS];
};

struct table {
	const struct table_col *cols;
	int ncols;
	struct table_row *rows;
	size_t nrows, cap;
	size_t *view;			/* row indices after filtering and sorting */
	size_t nview, view_cap;
	int sort_col;
	bool sort_desc;
	char filter[TABLE_FILTER_LEN];
	char sel_key[TABLE_KEY_LEN];
	size_t sel;			/* index into view */
	size_t top;			/* first visible view index */
	/* geometry of the last draw, for clicks and paging */
	int hdr_y, x0, first_y, page;
	int col_x[TABLE_MAX_COLS], col_w[TABLE_MAX_COLS];
	bool col_on[TABLE_MAX_COLS];
};

/* How spark columns are drawn (set by the monitor before table_draw). */
struct table_draw_opts {
	bool utf8;
	unsigned int window_s;
	uint64_t now_ns;
	bool focused;		/* draw the selection bar */
};

void table_init(struct table *t, const struct table_col *cols, int ncols, int sort_col, bool desc);
void table_free(struct table *t);

/* Rebuilding: begin, add rows, fill cells, end (filters, sorts, keeps the selection). */
void table_begin(struct table *t);
struct table_row *table_add(struct table *t, const char *key_fmt, ...) __attribute__((format(printf, 2, 3)));
void table_cell(struct table_row *r, int col, int role, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void table_cell_num(struct table_row *r, int col, double num);
void table_end(struct table *t);

/* Draw into r (header line first). Returns the rows actually shown. */
int table_draw(struct table *t, WINDOW *w, int y, int x, int h, int width,
	       const struct table_draw_opts *o);

const struct table_row *table_selected(const struct table *t);
void table_move(struct table *t, long delta);
void table_home(struct table *t);
void table_end_key(struct table *t);
/* Cycle the sort column through the shown ones; same column again reverses. */
void table_sort_next(struct table *t);
void table_sort_by(struct table *t, int col);
void table_set_filter(struct table *t, const char *filter);

enum table_hit {
	TABLE_HIT_NONE = 0,
	TABLE_HIT_HEADER,	/* sort changed */
	TABLE_HIT_ROW,		/* selection moved to the row */
	TABLE_HIT_ROW_AGAIN,	/* the row was already selected */
};
enum table_hit table_click(struct table *t, int y, int x);


#endif
