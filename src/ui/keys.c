// SPDX-License-Identifier: GPL-2.0-or-later
/* Key bindings in htop's habits, one table for dispatch and help. */
#include "config.h"

#include <curses.h>

#include "ui/keys.h"
#include "util.h"

#define CTRL(c) ((c) & 0x1f)

const struct key_binding key_bindings[] = {
	{ KEY_F(1),	ACT_HELP,	0, "F1 ?",	"help (this screen); any key closes it" },
	{ '?',		ACT_HELP,	0, NULL,	NULL },
	{ 'h',		ACT_HELP,	0, NULL,	NULL },
	{ 'q',		ACT_QUIT,	0, "q F10",	"quit (restores the terminal)" },
	{ KEY_F(10),	ACT_QUIT,	0, NULL,	NULL },
	{ '\t',		ACT_PANE_NEXT,	0, "Tab",	"next pane" },
	{ KEY_BTAB,	ACT_PANE_PREV,	0, "Shift-Tab",	"previous pane" },
	{ KEY_RIGHT,	ACT_PANE_NEXT,	0, "Right Left", "next / previous pane" },
	{ KEY_LEFT,	ACT_PANE_PREV,	0, NULL,	NULL },
	/* '1'..'9' and '0' (the tenth) pick the pane of that tab (keys_lookup()); the help names them from the pane table. */
	{ '1',		ACT_PANE,	0, "1..",	NULL },
	{ KEY_UP,	ACT_UP,		0, "Up Down",	"select a row (also k j)" },
	{ 'k',		ACT_UP,		0, NULL,	NULL },
	{ KEY_DOWN,	ACT_DOWN,	0, NULL,	NULL },
	{ 'j',		ACT_DOWN,	0, NULL,	NULL },
	{ KEY_PPAGE,	ACT_PGUP,	0, "PgUp PgDn",	"a page up / down" },
	{ KEY_NPAGE,	ACT_PGDN,	0, NULL,	NULL },
	{ KEY_HOME,	ACT_HOME,	0, "Home End",	"first / last row" },
	{ KEY_END,	ACT_END,	0, NULL,	NULL },
	{ '\n',		ACT_DETAILS,	0, "Enter",	"details of the row: every attribute, raw value, sysfs path" },
	{ '\r',		ACT_DETAILS,	0, NULL,	NULL },
	{ KEY_ENTER,	ACT_DETAILS,	0, NULL,	NULL },
	{ 27,		ACT_BACK,	0, "Esc",	"close the overlay; clear the filter" },
	{ '/',		ACT_FILTER,	0, "/ F4",	"filter rows (any column, case-insensitive)" },
	{ KEY_F(4),	ACT_FILTER,	0, NULL,	NULL },
	{ 's',		ACT_SORT_NEXT,	0, "s F6",	"sort by the next column (or click a header)" },
	{ KEY_F(6),	ACT_SORT_NEXT,	0, NULL,	NULL },
	{ 'I',		ACT_SORT_REVERSE, 0, "I",	"invert the sort order" },
	{ 'p',		ACT_PAUSE,	0, "p Space",	"pause / resume sampling" },
	{ ' ',		ACT_PAUSE,	0, NULL,	NULL },
	{ '+',		ACT_SLOWER,	0, "+ -",	"longer / shorter refresh interval" },
	{ '=',		ACT_SLOWER,	0, NULL,	NULL },
	{ '-',		ACT_FASTER,	0, NULL,	NULL },
	{ 'r',		ACT_RESET,	0, "r",		"reset deltas: error counts restart from now" },
	{ 'w',		ACT_WINDOW,	0, "w",		"graph window: 1 min, 10 min, 1 h" },
	{ 'W',		ACT_SAVE,	0, "W F2",	"write settings to $XDG_CONFIG_HOME/fabtop/fabtoprc" },
	{ KEY_F(2),	ACT_SAVE,	0, NULL,	NULL },
	{ 'd',		ACT_DEMO,	0, "d",		"start the demo fabric (when no RDMA device is found)" },
	{ CTRL('l'),	ACT_REDRAW,	0, "Ctrl-L",	"redraw the screen" },
	{ 'R',		ACT_RECORD,	0, "R",		"record what is shown to fabtop-HOST-TIME.ftrec / stop (doc/recording.md)" },
	{ '<',		ACT_STEP_BACK,	0, "< >",	"replay: one sample back / on (p pauses, + - change the speed)" },
	{ ',',		ACT_STEP_BACK,	0, NULL,	NULL },
	{ '>',		ACT_STEP_FWD,	0, NULL,	NULL },
	{ '.',		ACT_STEP_FWD,	0, NULL,	NULL },
	{ '[',		ACT_JUMP_BACK,	0, "[ ]",	"replay: one minute back / on" },
	{ ']',		ACT_JUMP_FWD,	0, NULL,	NULL },
	{ 'n',		ACT_NEXT_EVENT,	0, "n",		"replay: the next sample with events (the Events pane lists them)" },
	{ 'g',		ACT_GOTO,	0, "g",		"replay: go to a time (13:05:10, +5m, -30s, #120, start, end)" },
};

const size_t key_nbindings = ARRAY_SIZE(key_bindings);

enum ui_action keys_lookup(int key, int *arg)
{
	if (key >= '1' && key <= '9') {
		*arg = key - '1';
		return ACT_PANE;
	}
	if (key == '0') {	/* the tenth pane, as on a keyboard's number row */
		*arg = 9;
		return ACT_PANE;
	}
	for (size_t i = 0; i < key_nbindings; i++)
		if (key_bindings[i].key == key) {
			*arg = key_bindings[i].arg;
			return key_bindings[i].action;
		}
	*arg = 0;
	return ACT_NONE;
}
