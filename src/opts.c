// SPDX-License-Identifier: GPL-2.0-or-later
/* The global options as one getopt_long table, their values checked in one place. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/commands.h"
#include "opts.h"
#include "record/reader.h"
#include "record/when.h"
#include "util.h"

/* --replay and --at come in either order (and after the command word): the sample is resolved when both are known. */
static int opts_replay_at(struct fab_ctx *ctx)
{
	char err[512];

	if (!ctx->replay)
		return 0;
	ctx->replay_pos = ctx->replay->nsamples - 1;
	if (ctx->replay_at && rec_when_parse(ctx->replay, ctx->replay_at, &ctx->replay_pos, err, sizeof(err))) {
		fprintf(stderr, "fabtop: --at %s\n", err);
		return EXIT_USAGE;
	}
	return 0;
}

static int opts_replay(struct fab_ctx *ctx, const char *path)
{
	struct rec_reader *r = calloc(1, sizeof(*r));
	char err[768];

	if (!r) {
		fprintf(stderr, "fabtop: out of memory\n");
		return EXIT_RUNTIME;
	}
	if (rec_reader_open(r, path, err, sizeof(err))) {
		fprintf(stderr, "fabtop: --replay %s\n", err);
		free(r);
		return EXIT_RUNTIME;
	}
	if (r->note[0])
		fprintf(stderr, "fabtop: warning: %s\n", r->note);
	opts_free(ctx);
	ctx->replay = r;
	/* the recorded interval is the replay's 1x, unless --interval said otherwise */
	if (ctx->interval_s == 1.0 && r->info.interval_s >= 0.1 && r->info.interval_s <= 3600)
		ctx->interval_s = r->info.interval_s;
	ctx->replay_path = path;
	return opts_replay_at(ctx);
}

void opts_free(struct fab_ctx *ctx)
{
	if (ctx->replay) {
		rec_reader_close(ctx->replay);
		free(ctx->replay);
		ctx->replay = NULL;
	}
}

static const struct option global_options[] = {
	{ "sysfs", required_argument, NULL, OPT_SYSFS },
	{ "proc", required_argument, NULL, OPT_PROC },
	{ "configfs", required_argument, NULL, OPT_CONFIGFS },
	{ "etc", required_argument, NULL, OPT_ETC },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "no-colour", no_argument, NULL, OPT_NO_COLOR },
	{ "demo", no_argument, NULL, OPT_DEMO },
	{ "reset", no_argument, NULL, OPT_RESET },
	{ "prometheus", required_argument, NULL, OPT_PROMETHEUS },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "at", required_argument, NULL, OPT_AT },
	{ "counters", required_argument, NULL, OPT_COUNTERS },
	{ "fabric-mem", required_argument, NULL, OPT_FABRIC_MEM },
	{ "fabric-smps", required_argument, NULL, OPT_FABRIC_SMPS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
};

void opts_merge(struct option *out, const struct option *own)
{
	size_t n = 0;

	for (; own && own->name && n + ARRAY_SIZE(global_options) + 1 < OPTS_MAX; own++)
		out[n++] = *own;
	for (size_t i = 0; i < ARRAY_SIZE(global_options); i++)
		out[n++] = global_options[i];
	memset(&out[n], 0, sizeof(out[n]));
}

/* --sysfs DIR: a mistyped root is no host without RDMA, so it is said before anything reads it. */
static int opts_sysfs(struct fab_ctx *ctx, const char *arg)
{
	struct stat st;

	if (stat(arg, &st)) {
		fprintf(stderr, "fabtop: --sysfs %s: %s\n", arg, errno == ENOENT ? "the path does not exist" : strerror(errno));
		return EXIT_RUNTIME;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "fabtop: --sysfs %s: not a directory\n", arg);
		return EXIT_RUNTIME;
	}
	ctx->sysfs_root = arg;
	ctx->live_sysfs = false;
	return 0;
}

int opts_global(struct fab_ctx *ctx, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case OPT_SYSFS:
		return opts_sysfs(ctx, arg);
	case OPT_PROC:
		ctx->proc_root = arg;
		return 0;
	case OPT_CONFIGFS:
		ctx->configfs_root = arg;
		return 0;
	case OPT_ETC:
		ctx->etc_root = arg;
		return 0;
	case OPT_INTERVAL:
		if (util_parse_double(arg, 0.1, 3600, &ctx->interval_s)) {
			fprintf(stderr, "fabtop: --interval wants seconds between 0.1 and 3600, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		return 0;
	case OPT_COUNT:
		if (util_parse_u64(arg, 10, 1000000, &v) || v == 0) {
			fprintf(stderr, "fabtop: --count wants a number from 1 to 1000000, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		ctx->count = (long)v;
		return 0;
	case OPT_SEED:
		if (util_parse_u64(arg, 10, 0xffffffffUL, &v)) {
			fprintf(stderr, "fabtop: --seed wants a number, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		ctx->seed = v;
		return 0;
	case OPT_JSON:
		ctx->json = true;
		return 0;
	case OPT_NO_COLOR:
		ctx->color = false;
		return 0;
	case OPT_DEMO:
		ctx->demo = true;
		return 0;
	case OPT_RESET:
		ctx->demo_reset = true;
		return 0;
	case OPT_PROMETHEUS:
		if (!util_is_http_url(arg)) {
			fprintf(stderr, "fabtop: --prometheus wants an http:// or https:// URL, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		ctx->prometheus_url = arg;
		return 0;
	case OPT_REPLAY:
		return opts_replay(ctx, arg);
	case OPT_AT:
		ctx->replay_at = arg;
		return opts_replay_at(ctx);
	case OPT_COUNTERS: {
		int m = ctx_counters_mode(arg);

		if (m < 0) {
			fprintf(stderr, "fabtop: --counters wants auto, sysfs, pma or netlink, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		ctx->counters = (enum fab_counters_mode)m;
		ctx->counters_given = true;
		return 0;
	}
	case OPT_FABRIC_MEM:
		if (util_parse_u64(arg, 10, 1024 * 1024, &v) || v == 0) {
			fprintf(stderr, "fabtop: --fabric-mem wants MiB from 1 to 1048576, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		ctx->fabric_mem_mb = (size_t)v;
		return 0;
	case OPT_FABRIC_SMPS:
		if (util_parse_u64(arg, 10, CTX_FABRIC_SMPS_MAX, &v) || v == 0) {
			fprintf(stderr, "fabtop: --fabric-smps wants a count from 1 to %u, not '%s'\n",
				CTX_FABRIC_SMPS_MAX, arg);
			return EXIT_USAGE;
		}
		ctx->fabric_smps = (unsigned int)v;
		return 0;
	case 'V':
	case OPT_VERSION:
		printf("fabtop %s\n", PACKAGE_VERSION);
		return -1;
	default:
		return OPTS_NOT_GLOBAL;
	}
}

int opts_error(const char *cmd, int c, char **argv)
{
	const char *what = argv[optind - 1];
	char shortopt[3] = { '-', (char)optopt, '\0' };

	/* A short option inside a cluster ("-xC"): name the letter. */
	if (optopt > 0 && optopt < 0x80 && what[0] == '-' && what[1] != '-' && strlen(what) > 2)
		what = shortopt;
	if (c == ':')
		fprintf(stderr, "fabtop%s%s: option %s needs a value\n", cmd ? " " : "", cmd ? cmd : "", what);
	else
		fprintf(stderr, "fabtop%s%s: unknown option '%s'\n", cmd ? " " : "", cmd ? cmd : "", what);
	return EXIT_USAGE;
}

/* A short option the command's own table claims (a long option with that value): not the global one. */
static bool opts_claimed(const struct option *longopts, int c)
{
	for (; longopts->name; longopts++)
		if (longopts->val == c && !longopts->flag)
			return true;
	return false;
}

int opts_next(struct fab_ctx *ctx, const char *cmd, int argc, char **argv, const char *shortopts,
	      const struct option *longopts, int *stop)
{
	int c, rc;

	*stop = -1;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			*stop = opts_error(cmd, c, argv);
			return -1;
		}
		if (c == 'V' && opts_claimed(longopts, c))
			return c;
		rc = opts_global(ctx, c, optarg);
		if (rc == OPTS_NOT_GLOBAL)
			return c;	/* the command's own */
		if (rc) {
			*stop = rc < 0 ? EXIT_OK : rc;
			return -1;
		}
	}
	if (ctx->replay_at && !ctx->replay) {
		fprintf(stderr, "fabtop%s%s: --at goes with --replay FILE\n", cmd ? " " : "", cmd ? cmd : "");
		*stop = EXIT_USAGE;
	}
	return -1;
}

void opts_reset(void)
{
	optind = 0;	/* glibc: a full re-initialisation, permutation state included */
	opterr = 0;
}
