// SPDX-License-Identifier: GPL-2.0-or-later
/* Terminal ownership: curses init/restore, a self-pipe for signals, crash-time restore. */
#include "config.h"

#include <curses.h>
#include <term.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ui/widget/term.h"
#include "util.h"

static volatile sig_atomic_t term_active;
static int sig_pipe[2] = { -1, -1 };
static struct termios saved_tio;
static bool saved_tio_ok;
static SCREEN *term_screen;
static bool atexit_done;

static const int quit_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static struct sigaction old_quit[4], old_crash[5];

/* Terminating signals only wake the loop, which then leaves cleanly (no curses in a handler). */
static void on_quit_signal(int sig)
{
	int e = errno;
	unsigned char b = (unsigned char)sig;

	if (sig_pipe[1] >= 0 && write(sig_pipe[1], &b, 1) < 0) {
		/* the pipe is full: a signal is pending already */
	}
	errno = e;
}

/*
 * A crash: undo mouse reporting, the alternate screen and the hidden
 * cursor with plain writes and restore the saved termios, all
 * async-signal-safe, then die of the same signal.
 */
static void on_crash_signal(int sig)
{
	static const char reset[] = "\033[?1000l\033[?1002l\033[?1006l\033[0m\033[?25h\033[?1049l\r\n";

	if (term_active) {
		if (write(STDOUT_FILENO, reset, sizeof(reset) - 1) < 0) {
			/* nothing more can be done */
		}
		if (saved_tio_ok)
			tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
		term_active = 0;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void term_atexit(void)
{
	term_stop();
}

enum term_use term_usable(char *msg, int msgsize)
{
	const char *t = getenv("TERM");
	TERMINAL *saved = cur_term;
	const char *cup;
	bool can_move;
	int err = 0;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(msg, (size_t)msgsize, "the monitor needs a terminal (try 'fabtop show' for a report)");
		return TERM_USE_NO_TTY;
	}
	if (!t || !*t) {
		snprintf(msg, (size_t)msgsize, "TERM is not set, so the monitor cannot know how to move the cursor");
		return TERM_USE_NO_CURSOR;
	}
	/* the terminfo entry alone, not the screen: curses is started by term_start() */
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		snprintf(msg, (size_t)msgsize, "terminal type '%s' is not in the terminfo database%s", t,
			 err < 0 ? " (no terminfo database found)" : "");
		return TERM_USE_NO_CURSOR;
	}
	cup = tigetstr("cup");
	can_move = cup && cup != (const char *)-1;
	del_curterm(cur_term);
	set_curterm(saved);
	if (!can_move) {
		snprintf(msg, (size_t)msgsize, "terminal type '%s' cannot move the cursor (no cursor addressing)", t);
		return TERM_USE_NO_CURSOR;
	}
	return TERM_USE_OK;
}

int term_start(char *msg, int msgsize)
{
	struct sigaction sa;
	size_t i;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(msg, (size_t)msgsize, "the monitor needs a terminal (try 'fabtop show' for a report)");
		return -1;
	}
	if (pipe2(sig_pipe, O_NONBLOCK | O_CLOEXEC)) {
		snprintf(msg, (size_t)msgsize, "pipe: %s", strerror(errno));
		return -1;
	}
	saved_tio_ok = tcgetattr(STDIN_FILENO, &saved_tio) == 0;
	/* A short Esc delay keeps Esc responsive (htop does the same). */
	set_escdelay(25);
	term_screen = newterm(NULL, stdout, stdin);
	if (!term_screen) {
		const char *t = getenv("TERM");

		snprintf(msg, (size_t)msgsize, "cannot use terminal type '%s'", t ? t : "(unset)");
		close(sig_pipe[0]);
		close(sig_pipe[1]);
		sig_pipe[0] = sig_pipe[1] = -1;
		return -1;
	}
	set_term(term_screen);
	term_active = 1;
	if (!atexit_done) {
		atexit(term_atexit);
		atexit_done = true;
	}
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	mousemask(BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	mouseinterval(0);

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit_signal;
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < ARRAY_SIZE(quit_signals); i++)
		sigaction(quit_signals[i], &sa, &old_quit[i]);
	sa.sa_handler = on_crash_signal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	for (i = 0; i < ARRAY_SIZE(crash_signals); i++)
		sigaction(crash_signals[i], &sa, &old_crash[i]);
	return 0;
}

void term_stop(void)
{
	size_t i;

	if (!term_active)
		return;
	mousemask(0, NULL);
	curs_set(1);
	endwin();
	term_active = 0;
	if (term_screen) {
		delscreen(term_screen);
		term_screen = NULL;
	}
	if (saved_tio_ok)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
	for (i = 0; i < ARRAY_SIZE(quit_signals); i++)
		sigaction(quit_signals[i], &old_quit[i], NULL);
	for (i = 0; i < ARRAY_SIZE(crash_signals); i++)
		sigaction(crash_signals[i], &old_crash[i], NULL);
	if (sig_pipe[0] >= 0)
		close(sig_pipe[0]);
	if (sig_pipe[1] >= 0)
		close(sig_pipe[1]);
	sig_pipe[0] = sig_pipe[1] = -1;
}

int term_signal_fd(void)
{
	return sig_pipe[0];
}

int term_signal_take(void)
{
	unsigned char b;
	int sig = 0;

	while (sig_pipe[0] >= 0 && read(sig_pipe[0], &b, 1) == 1)
		sig = b;
	return sig;
}
