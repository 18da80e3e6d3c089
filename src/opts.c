// SPDX-License-Identifier: GPL-2.0-or-later
/* The global options as one getopt_long table, their values checked in one place. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "opts.h"
#include "util.h"

static const struct option global_options[] = {
	{ "sysfs", required_argument, NULL, OPT_SYSFS },
	{ "proc", required_argument, NULL, OPT_PROC },
	{ "configfs", required_argument, NULL, OPT_CONFIGFS },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "no-colour", no_argument, NULL, OPT_NO_COLOR },
	{ "demo", no_argument, NULL, OPT_DEMO },
	{ "prometheus", required_argument, NULL, OPT_PROMETHEUS },
	{ "counters", required_argument, NULL, OPT_COUNTERS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
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

int opts_global(struct fab_ctx *ctx, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case OPT_SYSFS:
		ctx->sysfs_root = arg;
		ctx->live_sysfs = false;
		return 0;
	case OPT_PROC:
		ctx->proc_root = arg;
		return 0;
	case OPT_CONFIGFS:
		ctx->configfs_root = arg;
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
	case OPT_PROMETHEUS:
		if (!util_is_http_url(arg)) {
			fprintf(stderr, "fabtop: --prometheus wants an http:// or https:// URL, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		ctx->prometheus_url = arg;
		return 0;
	case OPT_COUNTERS: {
		int m = ctx_counters_mode(arg);

		if (m < 0) {
			fprintf(stderr, "fabtop: --counters wants pma, sysfs or auto, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		ctx->counters = (enum fab_counters_mode)m;
		ctx->counters_given = true;
		return 0;
	}
	case 'V':
		printf("fabtop %s\n", PACKAGE_VERSION);
		return -1;
	default:
		return 1;
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
		rc = opts_global(ctx, c, optarg);
		if (rc == 1)
			return c;	/* the command's own */
		if (rc) {
			*stop = rc < 0 ? EXIT_OK : rc;
			return -1;
		}
	}
	return -1;
}

void opts_reset(void)
{
	optind = 0;	/* glibc: a full re-initialisation, permutation state included */
	opterr = 0;
}
