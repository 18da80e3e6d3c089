/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Owning the terminal: curses set-up, restore on every exit path, signals into the poll loop. */
#ifndef FABTOP_UI_WIDGET_TERM_H
#define FABTOP_UI_WIDGET_TERM_H

#include <stdbool.h>

/* What term_usable() found. */
enum term_use {
	TERM_USE_OK,		/* a terminal that can move the cursor: the monitor runs */
	TERM_USE_NO_TTY,	/* standard input or output is no terminal */
	TERM_USE_NO_CURSOR,	/* a terminal, but its type cannot address the cursor (dumb, unknown, unset) */
};

/*
 * Whether the monitor can draw here, before anything is taken: the why in
 * msg when it cannot ("terminal type 'dumb' cannot move the cursor").
 */
enum term_use term_usable(char *msg, int msgsize);

/*
 * Take the terminal: curses in cbreak/noecho/keypad/nodelay mode, mouse on,
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT delivered through term_signal_fd(), and
 * handlers that restore the terminal before a crash signal kills us.
 * Returns 0, or -1 with a message in msg when there is no usable terminal.
 */
int term_start(char *msg, int msgsize);
/* Give the terminal back (idempotent; also run at exit). */
void term_stop(void);
/* Readable when a terminating signal arrived. */
int term_signal_fd(void);
/* The signal that arrived (0: none); drains the pipe. */
int term_signal_take(void);

#endif
