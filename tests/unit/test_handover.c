// SPDX-License-Identifier: GPL-2.0-or-later
/* A rescan takes the previous snapshot's open counter files over: no second descriptor per counter, nothing lost. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/host.h"
#include "ctx.h"
#include "tap.h"

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* opendir's own */
}

/* Counters with an open file, and the sum of the known values (to compare two snapshots). */
static void tally(const struct fab_host *h, size_t *open, size_t *reopen, uint64_t *sum)
{
	*open = *reopen = 0;
	*sum = 0;
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t j = 0; j < h->devs[i].nports; j++)
			for (size_t k = 0; k < h->devs[i].ports[j].ncounters; k++) {
				const struct fab_counter *c = &h->devs[i].ports[j].counters[k];

				*open += c->fd >= 0;
				*reopen += c->reopen;
				*sum += c->known ? c->value : 0;
			}
}

int main(void)
{
	const char *top = getenv("TOP_SRCDIR");
	char root[4096];
	struct fab_ctx ctx;
	struct fab_host old, now;
	size_t open1, open2, open_old, reopen_old, reopen2;
	uint64_t sum1, sum2, sum_old;
	int fds1, fds2, fds3, rc;


	snprintf(root, sizeof(root), "%s/tests/data/trees/ib-2port", top ? top : ".");
	ctx_init(&ctx);
	ctx.sysfs_root = root;
	ctx.live_sysfs = false;

	memset(&old, 0, sizeof(old));
	rc = collect_host(&ctx, &old, COLLECT_ALL);
	TAP_OK(rc == 0, "the first collection of %s (rc %d)", root, rc);
	tally(&old, &open1, &reopen2, &sum1);
	fds1 = open_fds();
	TAP_OK(open1 > 20, "its counter files are open (%zu)", open1);

	memset(&now, 0, sizeof(now));
	now.handover = &old;
	ASSERT_EQ_INT(collect_host(&ctx, &now, COLLECT_ALL), 0, "a rescan with the old snapshot handed over");
	fds2 = open_fds();
	tally(&now, &open2, &reopen2, &sum2);
	tally(&old, &open_old, &reopen_old, &sum_old);
	ASSERT_EQ_INT(fds2, fds1, "the rescan opened no second descriptor per counter");
	ASSERT_EQ_U64(open2, open1, "the new snapshot holds every counter file open");
	ASSERT_EQ_U64(open_old, 0, "the old one holds none");
	ASSERT_EQ_U64(reopen_old, open1, "and would read them by path, were it kept (a failed rescan)");
	ASSERT_EQ_U64(sum2, sum1, "the values read through the taken files are the same");
	ASSERT_NULL(now.handover, "the hand-over is cleared by the collection");

	fab_host_free(&old);
	fds3 = open_fds();
	ASSERT_EQ_INT(fds3, fds2, "freeing the old snapshot closes nothing the new one uses");
	collect_counters_refresh(&now, 1);
	tally(&now, &open2, &reopen2, &sum2);
	ASSERT_EQ_U64(sum2, sum1, "and the new one refreshes through them");

	/* No hand-over: the old behaviour, two descriptors per counter for a moment. */
	memset(&old, 0, sizeof(old));
	collect_host(&ctx, &old, COLLECT_ALL);
	ASSERT_EQ_INT(open_fds(), fds3 + (int)open1, "without it a second snapshot opens everything again");
	fab_host_free(&old);
	fab_host_free(&now);
	ASSERT_EQ_INT(open_fds(), fds1 - (int)open1, "every descriptor is closed with its snapshot");
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
