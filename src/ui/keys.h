/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The monitor's key bindings as one table: dispatch and the help screen read it. */
#ifndef FABTOP_UI_KEYS_H
#define FABTOP_UI_KEYS_H

#include <stddef.h>

enum ui_action {
	ACT_NONE = 0,
	ACT_QUIT,
	ACT_HELP,
	ACT_PANE_NEXT,
	ACT_PANE_PREV,
	ACT_PANE,		/* arg: pane index */
	ACT_UP,
	ACT_DOWN,
	ACT_PGUP,
	ACT_PGDN,
	ACT_HOME,
	ACT_END,
	ACT_FILTER,
	ACT_SORT_NEXT,
	ACT_SORT_REVERSE,
	ACT_PAUSE,
	ACT_SLOWER,		/* longer interval */
	ACT_FASTER,		/* shorter interval */
	ACT_RESET,
	ACT_DETAILS,
	ACT_BACK,		/* Esc: close an overlay, clear the filter */
	ACT_WINDOW,		/* graph window 1 min / 10 min / 1 h */
	ACT_SAVE,
	ACT_DEMO,
	ACT_REDRAW,
	ACT_STEP_BACK,		/* a recording: one sample back */
	ACT_STEP_FWD,
	ACT_JUMP_BACK,		/* a recording: one minute back */
	ACT_JUMP_FWD,
	ACT_GOTO,		/* a recording: go to a time */
	ACT_NEXT_EVENT,		/* a recording: the next sample with events */
	ACT_RECORD,		/* start / stop recording */
};

struct key_binding {
	int key;		/* a curses key code or character */
	enum ui_action action;
	int arg;
	const char *keyname;	/* as the help screen shows it, NULL: same line as the previous */
	const char *help;
};

extern const struct key_binding key_bindings[];
extern const size_t key_nbindings;

/* The action of a key (ACT_NONE when unbound); *arg gets its argument. */
enum ui_action keys_lookup(int key, int *arg);

#endif
