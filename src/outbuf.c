// SPDX-License-Identifier: GPL-2.0-or-later
/* Bounded, never-blocking line output for event loops: lines that do not fit are dropped and counted. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outbuf.h"
#include "util.h"

int outbuf_init(struct outbuf *ob, int fd, size_t cap)
{
	struct stat st;
	char path[64];
	int nfd, fl;

	memset(ob, 0, sizeof(*ob));
	ob->fd = fd;
	ob->restore_fl = -1;
	if (cap < 2 * OUTBUF_NOTE_MAX)
		cap = 2 * OUTBUF_NOTE_MAX;
	ob->buf = malloc(cap);
	if (!ob->buf)
		return -ENOMEM;
	ob->cap = cap;
	if (fstat(fd, &st))
		return -errno;
	/* a regular file never waits for a reader */
	if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))
		return 0;
	/*
	 * A pipe or a terminal: open it again for a description of our own,
	 * so O_NONBLOCK does not leak to the shell that shares the terminal
	 * (or to whoever else writes to the pipe).
	 */
	if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		nfd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		if (nfd >= 0) {
			ob->fd = nfd;
			ob->own_fd = true;
			return 0;
		}
	}
	/* a socket, or no /proc: the shared description, put back by outbuf_free() */
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return -errno;
	if (!(fl & O_NONBLOCK)) {
		if (fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
			return -errno;
		ob->restore_fl = fl;
	}
	return 0;
}

/* Appends the note about dropped lines when there is room for it again. */
static void note_dropped(struct outbuf *ob)
{
	int n;

	if (!ob->dropped || ob->cap - ob->len < OUTBUF_NOTE_MAX * 2)
		return;
	n = snprintf(ob->buf + ob->len, OUTBUF_NOTE_MAX, "  ... %" PRIu64 " lines dropped: standard output was blocked\n",
		     ob->dropped);
	if (n > 0 && n < OUTBUF_NOTE_MAX) {
		ob->len += (size_t)n;
		ob->dropped = 0;
	}
}

bool outbuf_printf(struct outbuf *ob, const char *fmt, ...)
{
	size_t room;
	va_list ap;
	int n;

	note_dropped(ob);
	/* the note's room stays free, so a blocked reader always learns what it missed */
	room = ob->cap - ob->len > OUTBUF_NOTE_MAX ? ob->cap - ob->len - OUTBUF_NOTE_MAX : 0;
	n = -1;
	if (room) {
		va_start(ap, fmt);
		n = vsnprintf(ob->buf + ob->len, room, fmt, ap);
		va_end(ap);
	}
	if (n < 0 || (size_t)n >= room) {
		ob->dropped++;
		ob->dropped_total++;
		return false;
	}
	ob->len += (size_t)n;
	return true;
}

void outbuf_flush(struct outbuf *ob)
{
	ssize_t w;

	for (;;) {
		note_dropped(ob);
		if (!ob->len)
			return;
		if (ob->error) {
			/* nobody will read them (a closed pipe, a full disk): discard, never retry */
			ob->len = 0;
			ob->dropped = 0;
			return;
		}
		w = write(ob->fd, ob->buf, ob->len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;
			ob->error = errno;
			continue;
		}
		memmove(ob->buf, ob->buf + w, ob->len - (size_t)w);
		ob->len -= (size_t)w;
	}
}

bool outbuf_pending(const struct outbuf *ob)
{
	return ob->len > 0 && !ob->error;
}

void outbuf_drain(struct outbuf *ob, int timeout_ms)
{
	uint64_t end = util_now_ns() + (uint64_t)timeout_ms * 1000000ull, now;
	struct pollfd pfd = { .fd = ob->fd, .events = POLLOUT };

	outbuf_flush(ob);
	while (outbuf_pending(ob) && (now = util_now_ns()) < end) {
		if (poll(&pfd, 1, (int)((end - now) / 1000000ull) + 1) < 0 && errno != EINTR)
			break;
		outbuf_flush(ob);
	}
}

void outbuf_free(struct outbuf *ob)
{
	if (ob->own_fd)
		close(ob->fd);
	else if (ob->restore_fl >= 0)
		fcntl(ob->fd, F_SETFL, ob->restore_fl);
	free(ob->buf);
	memset(ob, 0, sizeof(*ob));
	ob->fd = -1;
	ob->restore_fl = -1;
}
