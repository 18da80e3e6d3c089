/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bounded, never-blocking line output for event loops: lines that do not fit are dropped and counted. */
#ifndef FABTOP_OUTBUF_H
#define FABTOP_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A server's stdout can be a pipe nobody reads: one blocking printf() there
 * stops every connection. Lines go into a buffer of fixed size instead and
 * out with non-blocking writes when the descriptor takes them; a line that
 * does not fit is dropped, and a note saying how many were dropped goes out
 * once there is room again (room for it is always kept).
 */
struct outbuf {
	int fd;			/* where the lines go; non-blocking unless a regular file */
	bool own_fd;		/* fd is our own open of the same file: closed by outbuf_free() */
	int restore_fl;		/* fd's file status flags to put back, or -1 */
	char *buf;
	size_t cap, len;	/* buf[0..len) waits to be written */
	uint64_t dropped;	/* lines dropped since the last note */
	uint64_t dropped_total;
	int error;		/* first write error other than EAGAIN (then lines are discarded) */
};

#define OUTBUF_NOTE_MAX 80	/* room kept for the "lines dropped" note */

/* Takes over fd (stdout: 1) for non-blocking output; cap >= 2 * OUTBUF_NOTE_MAX. 0, or -errno. */
int outbuf_init(struct outbuf *ob, int fd, size_t cap);
/* Appends one formatted piece, whole or not at all (false: dropped and counted). */
bool outbuf_printf(struct outbuf *ob, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes what the descriptor takes now, never waiting. */
void outbuf_flush(struct outbuf *ob);
bool outbuf_pending(const struct outbuf *ob);
/* Flushes, waiting for the reader at most timeout_ms in all (at exit). */
void outbuf_drain(struct outbuf *ob, int timeout_ms);
/* Puts the descriptor back as it was and frees the buffer (what is still pending is lost). */
void outbuf_free(struct outbuf *ob);

#endif
