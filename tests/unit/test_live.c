// SPDX-License-Identifier: GPL-2.0-or-later
/* The live core is a seam: a surface is a few lines over it, and its policies hold for every surface. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctx.h"
#include "live/live.h"
#include "tap.h"

/*
 * The whole of a new surface: open the core, poll what it asks for, step
 * it, print one line per step that changed something.
 */
static void one_line_surface(struct live *lv, FILE *out, unsigned int steps)
{
	while (steps) {
		struct pollfd fds[8];
		int timeout = -1, n = live_fds(lv, fds, 8, &timeout);
		unsigned int ch;

		poll(fds, (nfds_t)n, timeout);
		ch = live_step(lv);
		if (!ch)
			continue;
		fprintf(out, "sample %llu%s%s findings %d\n", (unsigned long long)lv->samples,
			ch & LIVE_SAMPLED ? " host" : "", ch & LIVE_NET ? " net" : "", lv->findings);
		steps--;
	}
}

/* Overwrite a counter file in place: the core keeps it open (pread), so a rename would not be seen. */
static void counter_write(const char *path, const char *value)
{
	FILE *f = fopen(path, "r+");

	if (f) {
		fputs(value, f);
		fclose(f);
	}
}

static bool doctor_has(const struct live *lv, const char *code)
{
	for (size_t i = 0; lv->doctor_ok && i < lv->doctor.nfindings; i++)
		if (!strcmp(lv->doctor.findings[i].code, code))
			return true;
	return false;
}

int main(void)
{
	const char *top = getenv("TOP_SRCDIR");
	char tree[4096], rej[4200], cmd[8400], *text = NULL;
	size_t len = 0;
	struct fab_ctx ctx;
	struct live lv;
	FILE *out;

	snprintf(tree, sizeof(tree), "%s/live-tree.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tree))
		return 1;
	snprintf(cmd, sizeof(cmd), "cp -a '%s/tests/data/trees/roce/.' '%s' && chmod -R u+w '%s'", top ? top : ".",
		 tree, tree);
	if (system(cmd))
		{ TAP_SKIP("cannot copy the roce tree"); return tap_done(); }
	snprintf(rej, sizeof(rej), "%s/class/infiniband/mlx5_0/ports/1/cm_rx_msgs/rej", tree);

	ctx_init(&ctx);
	ctx.sysfs_root = tree;
	ctx.live_sysfs = false;
	ctx.interval_s = 0.05;
	ASSERT_EQ_INT(live_open(&lv, &ctx, 0, NULL, 0), 0, "the core opens over the roce tree");
	ASSERT_EQ_U64(lv.samples, 1, "the first look counts as a sample");
	TAP_OK(lv.net_ok || lv.net_err, "the first look read the network (or says why not)");
	TAP_OK(!doctor_has(&lv, "cm-reject"), "no CM reject since the start: no finding");

	out = open_memstream(&text, &len);
	one_line_surface(&lv, out, 3);
	fclose(out);
	ASSERT_CONTAINS(text, "sample 2 host", "a surface of a few lines sees the second sample");
	ASSERT_CONTAINS(text, "sample 4 host", "... and the fourth");
	free(text);

	/* A reject arrives: the step that samples it reads the network and runs the doctor again. */
	counter_write(rej, "4\n");
	{
		unsigned int ch = 0;

		while (!(ch & LIVE_SAMPLED)) {
			struct pollfd fds[8];
			int timeout = -1, n = live_fds(&lv, fds, 8, &timeout);

			poll(fds, (nfds_t)n, timeout);
			ch = live_step(&lv);
		}
		TAP_OK(ch & LIVE_NET, "the sample that saw the REJ counter move read the network again");
		TAP_OK(doctor_has(&lv, "cm-reject"), "and the CM finding is there at once");
	}
	live_close(&lv);

	/*
	 * One home per live fact: the findings of the RoCE chain are the
	 * core's whether a surface wants the chain or not (the demo's roce-v1
	 * scenario: finding 8, as 'fabtop doctor' gives it).
	 */
	{
		struct fab_ctx dctx;
		char st[4300];

		snprintf(st, sizeof(st), "XDG_STATE_HOME=%s", tree);
		putenv(st);
		ctx_init(&dctx);
		dctx.demo = true;
		dctx.scenario = "roce-v1";
		dctx.interval_s = 0.05;
		ASSERT_EQ_INT(live_open(&lv, &dctx, 0, NULL, 0), 0, "the core opens on the demo's roce-v1");
		ASSERT_EQ_INT((int)lv.wants, 0, "... no surface wants the RoCE chain");
		TAP_OK(doctor_has(&lv, "roce-v1-forced"), "... yet the findings hold the chain's finding 8");
		TAP_OK(lv.findings >= 1, "... and the count of problems counts it");
		ASSERT_EQ_U64(lv.res_ns, 0, "resources are not read while no surface wants them");
		live_want(&lv, LIVE_WANT_RES);
		TAP_OK(lv.res_ns != 0, "wanted: read at once");
		ASSERT_EQ_INT(lv.res_err, -EOPNOTSUPP, "... the demo has no processes: the source says so");
		{
			uint64_t first = lv.res_ns;

			live_next_sample(&lv);
			ASSERT_EQ_U64(lv.res_ns, first, "a sample within LIVE_RES_GAP_NS reads them not again");
			lv.res_ns -= LIVE_RES_GAP_NS;
			TAP_OK(live_next_sample(&lv) & LIVE_RES, "past the gap, the next sample reads them and says so");
		}
		live_want(&lv, 0);
		{
			uint64_t last = lv.res_ns;

			lv.res_ns -= LIVE_RES_GAP_NS;
			last = lv.res_ns;
			TAP_OK(!(live_next_sample(&lv) & LIVE_RES), "no longer wanted: not read");
			ASSERT_EQ_U64(lv.res_ns, last, "... the time of the last reading stands");
		}
		live_close(&lv);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	if (system(cmd))
		TAP_OK(0, "removing %s", tree);
	return tap_done();
}
