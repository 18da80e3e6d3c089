// SPDX-License-Identifier: GPL-2.0-or-later
/* A main() for a libFuzzer harness under the plain build: runs each seed once, in a child, one TAP line each. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Named replay_NAME, it replays tests/data/fuzz/NAME/ under $TOP_SRCDIR
 * (make check sets it), or the files and directories given as arguments.
 * Each input runs in a forked child, so one that aborts is reported as
 * "not ok" with its signal and the rest still run.
 */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int seed_filter(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static int read_file(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return -1;
	do {
		if (n == cap) {
			uint8_t *nb = realloc(b, cap = cap ? cap * 2 : 4096);

			if (!nb) {
				free(b);
				fclose(f);
				return -1;
			}
			b = nb;
		}
		r = fread(b + n, 1, cap - n, f);
		n += r;
	} while (r);
	fclose(f);
	*out = b;
	*len = n;
	return 0;
}

/* 0: the input ran to its end; else the child's wait status, described in why. */
static int run_one(const char *path, char *why, size_t whylen)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		uint8_t *b;
		size_t n;

		if (read_file(path, &b, &n)) {
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
			_exit(2);
		}
		LLVMFuzzerTestOneInput(b, n);
		free(b);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) < 0) {
		snprintf(why, whylen, "waitpid: %s", strerror(errno));
		return -1;
	}
	if (WIFSIGNALED(st))
		snprintf(why, whylen, "killed by signal %d", WTERMSIG(st));
	else if (WEXITSTATUS(st))
		snprintf(why, whylen, "exit status %d", WEXITSTATUS(st));
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : 1;
}

/* The files of dir (sorted), or dir itself when it is a file. */
static int list(const char *dir, char ***out)
{
	struct dirent **ents;
	char **v;
	int n, i;

	n = scandir(dir, &ents, seed_filter, alphasort);
	if (n < 0) {
		if (errno != ENOTDIR)
			return -1;
		v = malloc(sizeof(*v));
		if (!v || !(v[0] = strdup(dir)))
			return -1;
		*out = v;
		return 1;
	}
	v = calloc((size_t)n + 1, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		size_t l = strlen(dir) + strlen(ents[i]->d_name) + 2;

		v[i] = malloc(l);
		if (!v[i])
			return -1;
		snprintf(v[i], l, "%s/%s", dir, ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	*out = v;
	return n;
}

int main(int argc, char **argv)
{
	const char *me = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *top = getenv("TOP_SRCDIR");
	char defdir[4096], why[128];
	char **files[64];
	int nf[64], ndirs = 0, d, i, t = 0, total = 0, failed = 0;

	/* libtool-less automake names the program as built: replay_NAME */
	if (strncmp(me, "replay_", 7)) {
		fprintf(stderr, "%s: name me replay_NAME\n", me);
		return 2;
	}
	if (argc > 1) {
		for (d = 1; d < argc && ndirs < 64; d++, ndirs++)
			if ((nf[ndirs] = list(argv[d], &files[ndirs])) < 0) {
				printf("Bail out! %s: %s\n", argv[d], strerror(errno));
				return 1;
			}
	} else {
		if (!top) {
			printf("1..0 # SKIP TOP_SRCDIR is not set (run through make check)\n");
			return 0;
		}
		snprintf(defdir, sizeof(defdir), "%s/tests/data/fuzz/%s", top, me + 7);
		if ((nf[0] = list(defdir, &files[0])) < 0) {
			printf("Bail out! %s: %s\n", defdir, strerror(errno));
			return 1;
		}
		ndirs = 1;
	}
	for (d = 0; d < ndirs; d++)
		total += nf[d];
	if (!total) {
		printf("Bail out! no seeds\n");
		return 1;
	}
	printf("1..%d\n", total);
	for (d = 0; d < ndirs; d++)
		for (i = 0; i < nf[d]; i++) {
			const char *base = strrchr(files[d][i], '/') ? strrchr(files[d][i], '/') + 1 : files[d][i];

			why[0] = '\0';
			if (run_one(files[d][i], why, sizeof(why))) {
				failed++;
				printf("not ok %d - %s: %s (its stderr is above)\n", ++t, base, why);
			} else {
				printf("ok %d - %s\n", ++t, base);
			}
			free(files[d][i]);
		}
	for (d = 0; d < ndirs; d++)
		free(files[d]);
	/* LeakSanitizer reports at exit and _exits: nothing printed may wait in the buffer */
	fflush(stdout);
	return failed ? 1 : 0;
}
