// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop record: what the monitor would show, written into a recording without a terminal. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "collect/snapshot.h"
#include "collect/source.h"
#include "commands.h"
#include "opts.h"
#include "record/when.h"
#include "util.h"

enum { OPT_DURATION = OPT_FIRST_OWN };

static void record_usage(FILE *f)
{
	fprintf(f, "Usage: fabtop record FILE [--interval S] [--duration D | --count N] [--demo | --sysfs DIR]\n"
		   "Samples the host every interval (default 1 s) as the monitor does and writes\n"
		   "each sample, the network state when it changes and every structure change\n"
		   "into FILE, until --duration (90s, 5m, 1h) or --count samples, or SIGINT/SIGTERM.\n"
		   "Replay with 'fabtop --replay FILE' or 'fabtop show ... --replay FILE --at TIME'.\n"
		   "The format is in doc/recording.md.\n");
}

/* SIGINT/SIGTERM/SIGHUP end the recording cleanly through the poll loop. */
static int record_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

struct recording {
	struct fab_ctx *ctx;
	struct source *src;
	struct fab_host host;
	struct snapshot_clock clock;
	uint64_t last_net_ns;
	bool net_wanted;
	int nl_fd, sig_fd;
};

static void record_net(struct recording *r)
{
	struct net_state st;

	/* the recorder writes it when it differs from the last one written */
	if (!snapshot_net(r->src, &r->host, &st))
		net_state_free(&st);
	r->last_net_ns = util_now_ns();
	r->net_wanted = false;
}

static int record_loop(struct recording *r, uint64_t duration_ns)
{
	uint64_t step = (uint64_t)(r->ctx->interval_s * 1e9), start = util_now_ns(), next = start + step;
	long done = 1;
	struct source_record_status st;

	for (;;) {
		struct pollfd fds[2];
		uint64_t now = util_now_ns();
		int nfds = 0, n, nl = -1;
		bool nomem;

		if ((r->ctx->count && done >= r->ctx->count) || (duration_ns && now - start >= duration_ns))
			return EXIT_OK;
		fds[nfds++] = (struct pollfd){ .fd = r->sig_fd, .events = POLLIN };
		if (r->nl_fd >= 0) {
			nl = nfds;
			fds[nfds++] = (struct pollfd){ .fd = r->nl_fd, .events = POLLIN };
		}
		n = poll(fds, (nfds_t)nfds, next > now ? (int)((next - now + 999999) / 1000000) : 0);
		if (n < 0 && errno != EINTR) {
			fprintf(stderr, "fabtop record: poll: %s\n", strerror(errno));
			return EXIT_RUNTIME;
		}
		if (n > 0 && fds[0].revents)
			return EXIT_OK;
		if (n > 0 && nl >= 0 && fds[nl].revents && source_events(r->src))
			r->clock.rescan_wanted = r->net_wanted = true;
		now = util_now_ns();
		if (now < next)
			continue;
		if (snapshot_host_sample(r->src, &r->host, &r->clock, now, NULL, &nomem) || r->net_wanted ||
		    now - r->last_net_ns >= SNAPSHOT_RESCAN_NS)
			record_net(r);
		if (nomem)
			fprintf(stderr, "fabtop record: out of memory while collecting: the previous snapshot was kept\n");
		if (source_record_status(r->src, &st) == false) {
			fprintf(stderr, "fabtop record: writing %s failed: %s\n", st.path, strerror(-st.error));
			return EXIT_RUNTIME;
		}
		done++;
		next += step;
		if (next <= now)
			next = now + step;
	}
}

int cmd_record(struct fab_ctx *ctx, int argc, char **argv)
{
	static const struct option own[] = {
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ NULL, 0, NULL, 0 },
	};
	struct option longopts[OPTS_MAX];
	struct recording r = { .ctx = ctx, .nl_fd = -1, .sig_fd = -1 };
	struct source_record_status st;
	struct net_state net;
	uint64_t duration_ns = 0;
	const char *path;
	char err[512];
	int c, stop, rc, net_rc;

	opts_merge(longopts, own);
	while ((c = opts_next(ctx, "record", argc, argv, ":h", longopts, &stop)) != -1) {
		if (c == 'h') {
			record_usage(stdout);
			return EXIT_OK;
		}
		if (rec_duration_parse(optarg, &duration_ns) || !duration_ns) {
			fprintf(stderr, "fabtop record: --duration wants a time like 90s, 5m or 1h, not '%s'\n", optarg);
			return EXIT_USAGE;
		}
	}
	if (stop >= 0) {
		if (stop == EXIT_USAGE)
			record_usage(stderr);
		return stop;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "fabtop record: %s\n", optind >= argc ? "which FILE?" : "one FILE only");
		record_usage(stderr);
		return EXIT_USAGE;
	}
	if (ctx->replay) {
		fprintf(stderr, "fabtop record: a recording is not recorded again (--replay)\n");
		return EXIT_USAGE;
	}
	path = argv[optind];
	r.sig_fd = record_signals();
	if (r.sig_fd < 0) {
		fprintf(stderr, "fabtop record: cannot watch signals: %s\n", strerror(-r.sig_fd));
		return EXIT_RUNTIME;
	}
	r.src = source_open(ctx);
	if (!r.src || source_collect(r.src, &r.host, COLLECT_ALL)) {
		fprintf(stderr, "fabtop record: out of memory while reading the host\n");
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (r.host.sysfs_missing)
		fprintf(stderr, "fabtop record: no RDMA devices: %s/class/infiniband is absent; "
			"recording the network only. Try --demo.\n", ctx->sysfs_root);
	r.clock.last_rescan_ns = r.clock.last_watch_ns = util_now_ns();
	net_rc = snapshot_net(r.src, &r.host, &net);
	if (net_rc)
		fprintf(stderr, "fabtop record: the network state cannot be read (%s): recording without it\n",
			snapshot_net_error(net_rc));
	r.last_net_ns = util_now_ns();
	rc = source_record_start(r.src, path, &r.host, net_rc ? NULL : &net, err, sizeof(err));
	if (!net_rc)
		net_state_free(&net);
	if (rc) {
		fprintf(stderr, "fabtop record: %s\n", err);
		rc = EXIT_RUNTIME;
		goto out;
	}
	r.nl_fd = source_event_fd(r.src);
	rc = record_loop(&r, duration_ns);
	source_record_status(r.src, &st);
	if (source_record_stop(r.src) && rc == EXIT_OK) {
		source_record_status(r.src, &st);
		fprintf(stderr, "fabtop record: writing %s failed: %s\n", path, strerror(-st.error));
		rc = EXIT_RUNTIME;
	} else if (rc == EXIT_OK) {
		fprintf(stderr, "fabtop record: %" PRIu64 " samples, %" PRIu64 " bytes in %s\n", st.samples, st.bytes,
			path);
	}
out:
	fab_host_free(&r.host);
	source_close(r.src);
	close(r.sig_fd);
	return rc;
}
