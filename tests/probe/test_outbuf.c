// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the bounded, never-blocking output (src/outbuf.c) on a pipe nobody reads. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outbuf.h"
#include "util.h"
#include "../unit/tap.h"

static size_t read_all(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t r;

	while (n < cap && (r = read(fd, buf + n, cap - n)) > 0)
		n += (size_t)r;
	return n;
}

/* A pipe nobody reads: lines are kept up to the bound, then dropped and counted; nothing waits. */
static void test_blocked_pipe(void)
{
	struct outbuf ob;
	int pfd[2], fl, i, kept = 0;
	uint64_t t0;
	static char got[1 << 20];
	size_t n;

	if (pipe(pfd)) {
		TAP_SKIP("pipe: %s", strerror(errno));
		return;
	}
	fcntl(pfd[1], F_SETPIPE_SZ, 4096);	/* as small as Linux makes one: fills at once */
	ASSERT_EQ_INT(outbuf_init(&ob, pfd[1], 1024), 0, "outbuf_init on a pipe");
	fl = fcntl(pfd[1], F_GETFL);
	TAP_OK(!(fl & O_NONBLOCK), "the caller's descriptor is left blocking (its own open of the pipe is not)");
	t0 = util_now_ns();
	for (i = 0; i < 2000; i++) {
		if (outbuf_printf(&ob, "line %04d of a server that nobody reads .......................\n", i))
			kept++;
		outbuf_flush(&ob);
	}
	TAP_OK(util_now_ns() - t0 < 2000000000ull, "2000 lines into a full pipe never blocked (%llu ms)",
	       (unsigned long long)((util_now_ns() - t0) / 1000000));
	TAP_OK(ob.dropped_total > 0 && kept < 2000, "lines beyond the bound were dropped (%llu) and counted",
	       (unsigned long long)ob.dropped_total);
	TAP_OK(outbuf_pending(&ob) && ob.len <= ob.cap, "what waits stays inside the bound (%zu of %zu)", ob.len, ob.cap);
	/* the reader comes back: kept lines arrive whole, then the note */
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	n = 0;
	for (i = 0; i < 100 && (outbuf_pending(&ob) || !n); i++) {
		n += read_all(pfd[0], got + n, sizeof(got) - 1 - n);
		outbuf_flush(&ob);
	}
	n += read_all(pfd[0], got + n, sizeof(got) - 1 - n);
	got[n] = 0;
	TAP_OK(strstr(got, "line 0000 of a server") != NULL, "the first lines arrive");
	TAP_OK(strstr(got, "lines dropped: standard output was blocked") != NULL, "the note of dropped lines arrives");
	TAP_OK(n > 0 && got[n - 1] == '\n', "output ends on a whole line");
	outbuf_free(&ob);
	close(pfd[0]);
	close(pfd[1]);
}

/* A line longer than the buffer is dropped whole; a closed reader discards, never retries forever. */
static void test_edges(void)
{
	struct outbuf ob;
	char big[600];
	int pfd[2];

	if (pipe(pfd)) {
		TAP_SKIP("pipe: %s", strerror(errno));
		return;
	}
	ASSERT_EQ_INT(outbuf_init(&ob, pfd[1], 10), 0, "a tiny capacity is raised to the minimum");
	ASSERT_EQ_INT(ob.cap, 2 * OUTBUF_NOTE_MAX, "... of twice the note");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	TAP_OK(!outbuf_printf(&ob, "%s\n", big), "a line longer than the buffer is dropped");
	ASSERT_EQ_INT(ob.len, 0, "... whole: nothing of it is kept");
	outbuf_flush(&ob);
	close(pfd[0]);
	signal(SIGPIPE, SIG_IGN);
	outbuf_printf(&ob, "to nobody\n");
	outbuf_flush(&ob);
	TAP_OK(ob.error == EPIPE && !outbuf_pending(&ob), "a closed reader: EPIPE, nothing pending (error %d)", ob.error);
	outbuf_drain(&ob, 100);
	outbuf_free(&ob);
	close(pfd[1]);
}

/* A regular file is written as is, blocking flag untouched. */
static void test_file(void)
{
	struct outbuf ob;
	FILE *f = tmpfile();
	char got[64] = "";

	if (!f) {
		TAP_SKIP("tmpfile: %s", strerror(errno));
		return;
	}
	ASSERT_EQ_INT(outbuf_init(&ob, fileno(f), 4096), 0, "outbuf_init on a file");
	TAP_OK(!ob.own_fd && ob.restore_fl == -1, "a regular file is used as it is");
	outbuf_printf(&ob, "hello %d\n", 42);
	outbuf_drain(&ob, 100);
	TAP_OK(!outbuf_pending(&ob), "drained");
	rewind(f);
	TAP_OK(fgets(got, sizeof(got), f) && !strcmp(got, "hello 42\n"), "the file holds the line: %s", got);
	outbuf_free(&ob);
	fclose(f);
}

int main(void)
{
	test_blocked_pipe();
	test_edges();
	test_file();
	return tap_done();
}
