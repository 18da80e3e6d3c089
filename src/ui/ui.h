/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The interactive monitor's state (struct ui), the pane ops and what every part of the monitor draws with. */
#ifndef FABTOP_UI_UI_H
#define FABTOP_UI_UI_H

#include <curses.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source/snapshot.h"
#include "ctx.h"
#include "live/live.h"
#include "derive/doctor.h"
#include "derive/events.h"
#include "model/events.h"
#include "model/fabric.h"
#include "model/net.h"
#include "model/roce.h"
#include "ui/settings.h"
#include "ui/widget/table.h"
#include "ui/widget/text.h"
#include "derive/track.h"

struct ui_rect {
	int y, x, h, w;
};

struct ui;

/* The help and the details of a row, drawn over the pane. */
struct ui_overlay {
	bool help;
	size_t help_top;
	bool details;
	char details_key[TABLE_KEY_LEN];
	char details_title[3 * TABLE_CELL_LEN];	/* the row's first cells, for the overlay's title */
	size_t details_top;
};

/* Line editing in the bottom line. */
struct ui_edit {
	bool filter;			/* '/' in progress */
	bool go;			/* 'g' in progress (replay) */
	char goto_buf[64];
};

/* A transient message in the bottom line (ui_status()). */
struct ui_message {
	char text[160];
	uint64_t until_ns;
	unsigned int nwarn_seen;	/* warnings already announced */
};

/* What the loop does after the keys, asked for by them (ui->react). */
#define UI_REACT_DEMO	(1u << 0)	/* switch to the demo fabric ('d' when no device is found) */
#define UI_REACT_JUMPED	(1u << 1)	/* a recording's cursor moved: the panes follow the core */

/* What a pane's key handler did with a key: the loop acts on it. */
enum ui_key_result {
	UI_KEY_IGNORED,			/* not this pane's: the common bindings get it */
	UI_KEY_TAKEN,			/* handled: redraw */
	UI_KEY_RESCAN,			/* handled, and the model must be collected again */
	UI_KEY_QUIT,			/* handled, and the monitor ends */
};

/*
 * A pane of the monitor: a const ops struct, registered in panes.c (the
 * tab order, the number keys, the tab names, --pane and the help all come
 * from there), and its private state, made by create() with the monitor and
 * given back to every op that needs it. Panes only read the model (ui->host,
 * ui->net, the trackers); collection happens in the loop before they draw.
 * doc/architecture.md walks through adding one.
 */
struct ui_view {
	const char *id;			/* "ports": settings and --pane names */
	unsigned int wants;		/* LIVE_WANT_* the core keeps while this pane shows (they cost I/O) */
	const char *title;		/* the tab label */
	const char *tab;		/* its short form, when the tab line is narrow (NULL: title) */
	bool port_rows;			/* rows keyed DEV/PORT[/...]: --device and --port start it filtered */
	const struct table_col *cols;	/* NULL: the view draws itself */
	int ncols;
	int default_sort;		/* column index */
	bool default_desc;
	/* Fill t with one row per entity of the model. */
	void (*build)(struct ui *ui, struct table *t);
	/* Draw the body; NULL draws the table alone. */
	void (*draw)(struct ui *ui, WINDOW *w, struct ui_rect r);
	/* A warning line above the table (NULL, or returning NULL: none). */
	const char *(*note)(struct ui *ui, char *buf, size_t size);
	/* Everything known about the row with this key, for Enter. */
	void (*details)(struct ui *ui, const char *key, struct text *out);
	/* What the body says when there are no rows (after filtering). */
	const char *(*empty)(struct ui *ui);
	/* Keys of this pane only (when it is shown), tried before the common ones. */
	enum ui_key_result (*key)(struct ui *ui, void *state, int ch);
	const char *keys_help;		/* those keys, for the help: "e peer, f source, ..." */

	/* The pane's own state: made with the monitor (NULL is a valid state), freed with it. */
	void *(*create)(struct ui *ui);
	void (*destroy)(void *state);
	/* Its fds for the loop's poll (at most max) and its next deadline in *timeout_ms. */
	int (*fds)(struct ui *ui, void *state, struct pollfd *fds, int max, int *timeout_ms);
	/* After every poll: serve the fds; true when the pane must be redrawn. */
	bool (*handle)(struct ui *ui, void *state);
	/* Once per loop, after the keys: work the keys asked for (keys only ask). */
	bool (*tick)(struct ui *ui, void *state);
	/* The network state (and the doctor's findings) changed. */
	void (*net_changed)(struct ui *ui, void *state);
};

/* Graph windows selectable with 'w'. */
#define UI_NWINDOWS 3
extern const unsigned int ui_windows_s[UI_NWINDOWS];

#define UI_MAX_VIEWS 12	/* the number keys reach ten (1..9 and 0); Tab and --pane the rest */

struct source;

struct ui {
	struct fab_ctx *ctx;
	struct live live;		/* the source and everything kept current: what the panes read */
	bool quit;
	bool dirty;			/* redraw before the next wait */
	struct table tables[UI_MAX_VIEWS];
	size_t pane;

	uint64_t now_ns;		/* CLOCK_MONOTONIC of the frame being drawn */
	unsigned int window;		/* index into ui_windows_s */
	bool utf8;
	bool color;

	struct ui_overlay overlay;	/* help and details over the pane */
	struct ui_edit edit;		/* a line being edited */
	struct ui_message msg;		/* the bottom line's transient message */
	unsigned int react;		/* UI_REACT_*: what keys and controls asked the loop to do */

	/* layout of the last frame, for mouse clicks */
	struct ui_rect tabs;
	int tab_x[UI_MAX_VIEWS + 1];
	struct ui_rect body;
	struct ui_rect fbar;
	int fbar_x[16];
	int fbar_key[16];
	int nfbar;

	struct text net_text;		/* the `show net` report of the network, for the Network pane */
	FILE *frame_log;		/* FABTOP_FRAME_LOG: one line per frame (the benchmarks) */
	bool mad_announced;		/* why there is no MAD view went to the status line once */

	const struct ui_view *const *views;	/* the panes, in tab order (panes_default) */
	size_t nviews;
	void *pane_state[UI_MAX_VIEWS];	/* each pane's own, from its create() */

	struct settings settings;
};

static inline struct table *ui_table(struct ui *ui)
{
	return &ui->tables[ui->pane];
}


/* What every part of the monitor draws with: up to maxw characters of s, cleaned, in attr. */
void ui_puts(WINDOW *w, int y, int x, int maxw, chtype attr, const char *s);
void ui_fill(WINDOW *w, int y, int x, int n, chtype attr);
/* Word-wrap s into r; returns the lines used. */
int ui_wrap(WINDOW *w, struct ui_rect r, chtype attr, const char *s);
/* A transient message in the bottom line. */
void ui_status(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Take st or the error err as the network state (live_net_take()); the panes follow. */
void ui_net_set(struct ui *ui, struct net_state *st, int err);
/* The network state (and the doctor's findings) changed: its text and the panes that keep state over it follow. */
void ui_net_changed(struct ui *ui);

/* What the screen still waits for ("GIDs: reading 12/64 ports"), NULL: nothing. */
const char *ui_loading(const struct ui *ui);

/*
 * The monitor's state for ctx with these panes (at most UI_MAX_VIEWS),
 * settings already in ui->settings: tables sorted as the settings say,
 * every pane's state made. panes_init() gives it the monitor's panes;
 * tests give their own. ui_free() gives everything back.
 */
void ui_init_views(struct ui *ui, struct fab_ctx *ctx, const struct ui_view *const *views, size_t nviews);
void ui_free(struct ui *ui);
/* The source is simulated (the demo): no probe, no MADs, no real paths to show. */
bool ui_simulated(const struct ui *ui);
/* The monitor shows a recording (--replay): nothing to probe or ask, the time is the recording's. */
bool ui_recorded(const struct ui *ui);
/* The state a pane's create() made (NULL when it has none). */
void *ui_pane_state(struct ui *ui, const struct ui_view *v);
/* Copy each table's sort column into ui->settings. */
void ui_save_sorts(struct ui *ui);

#endif
