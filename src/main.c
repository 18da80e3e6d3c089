// SPDX-License-Identifier: GPL-2.0-or-later
/* Entry point: global options, then dispatch to a subcommand from a table. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "ctx.h"
#include "util.h"

struct command {
	const char *name;
	int (*run)(struct fab_ctx *ctx, int argc, char **argv);
	const char *usage;
};

static const struct command commands[] = {
	{ "show", cmd_show, "show [ports|counters|gids|net|fabric|all] [--json] [--interval S --count N]" },
	{ "doctor", cmd_doctor, "doctor [PEER] [--from ADDR|IFACE] [--json] [--fix FORMAT] [--apply --yes]" },
	{ "probe", cmd_probe, "probe PEER [--from ADDR|IFACE] [-p PORT] [-C COUNT] [-S SIZE] [--mode rping|bw|lat]\n"
			      "  fabtop probe --listen [ADDR] [-p PORT]\n"
			      "  fabtop probe --lid LID | --guid GUID    (ibping-style, over MADs)" },
	{ "monitor", cmd_monitor, "[monitor]          the interactive monitor (the default)" },
};

#define NCOMMANDS (ARRAY_SIZE(commands))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: fabtop [GLOBAL OPTIONS] [COMMAND [ARGS]]\n\n"
		   "A live terminal monitor and doctor for RDMA fabrics (InfiniBand, RoCE, iWARP).\n\n"
		   "Commands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  fabtop %s\n", commands[i].usage);
	fprintf(f, "\nGlobal options:\n"
		   "  --demo            run on the built-in simulated fabric (no hardware needed)\n"
		   "  --seed N          seed of the demo fabric (deterministic runs)\n"
		   "  --sysfs DIR       read DIR instead of /sys (fixture trees)\n"
		   "  --proc DIR        read DIR instead of /proc\n"
		   "  --configfs DIR    read DIR instead of /sys/kernel/config\n"
		   "  --interval SECS   refresh interval (default 1)\n"
		   "  --count N         samples for repeated reports\n"
		   "  --json            machine-readable output\n"
		   "  --no-color        no colours (also when NO_COLOR is set)\n"
		   "  -h, --help        this help; fabtop COMMAND --help for a command's\n"
		   "  -V, --version     print the version\n\n"
		   "Exit status: 0 ok, 1 runtime failure, 2 usage error;\n"
		   "doctor exits 1 when it finds a problem.\n");
}

static int parse_interval(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0.1 && v <= 3600))
		return -1;
	*out = v;
	return 0;
}

/* Option NAME matched at argv[*i] as "--NAME VALUE" or "--NAME=VALUE". */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t len = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, len))
		return NULL;
	if (a[len] == '=')
		return a + len + 1;
	if (a[len] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, "fabtop: option %s needs a value\n", name);
		exit(EXIT_USAGE);
	}
	return argv[++*i];
}

int main(int argc, char **argv)
{
	struct fab_ctx ctx;
	char **rest;
	int nrest = 0, i;
	const char *v;
	uint64_t ul;
	bool help = false, no_more_opts = false;
	int rc;

	ctx_init(&ctx);
	rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!rest) {
		fprintf(stderr, "fabtop: out of memory\n");
		return EXIT_RUNTIME;
	}

	/* Global options may stand anywhere; everything else is the command's. */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (no_more_opts || a[0] != '-') {
			rest[nrest++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			no_more_opts = true;
			rest[nrest++] = argv[i];
		} else if ((v = opt_value(argc, argv, &i, "--sysfs"))) {
			ctx.sysfs_root = v;
			ctx.live_sysfs = false;
		} else if ((v = opt_value(argc, argv, &i, "--proc"))) {
			ctx.proc_root = v;
		} else if ((v = opt_value(argc, argv, &i, "--configfs"))) {
			ctx.configfs_root = v;
		} else if ((v = opt_value(argc, argv, &i, "--interval"))) {
			if (parse_interval(v, &ctx.interval_s)) {
				fprintf(stderr, "fabtop: --interval wants seconds between 0.1 and 3600, not '%s'\n", v);
				rc = EXIT_USAGE;
				goto out;
			}
		} else if ((v = opt_value(argc, argv, &i, "--count"))) {
			if (util_parse_u64(v, 10, 1000000, &ul) || ul == 0) {
				fprintf(stderr, "fabtop: --count wants a number from 1 to 1000000, not '%s'\n", v);
				rc = EXIT_USAGE;
				goto out;
			}
			ctx.count = (long)ul;
		} else if ((v = opt_value(argc, argv, &i, "--seed"))) {
			if (util_parse_u64(v, 10, 0xffffffffUL, &ul)) {
				fprintf(stderr, "fabtop: --seed wants a number, not '%s'\n", v);
				rc = EXIT_USAGE;
				goto out;
			}
			ctx.seed = ul;
		} else if (!strcmp(a, "--json")) {
			ctx.json = true;
		} else if (!strcmp(a, "--no-color") || !strcmp(a, "--no-colour")) {
			ctx.color = false;
		} else if (!strcmp(a, "--demo")) {
			ctx.demo = true;
		} else if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
			printf("fabtop %s\n", PACKAGE_VERSION);
			rc = EXIT_OK;
			goto out;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			help = true;
			rest[nrest++] = argv[i];
		} else {
			rest[nrest++] = argv[i];
		}
	}

	if (nrest == 0 || rest[0][0] == '-') {
		/* No command word: --help is ours, anything else goes to the monitor. */
		if (help) {
			usage(stdout);
			rc = EXIT_OK;
			goto out;
		}
		memmove(rest + 1, rest, (size_t)nrest * sizeof(*rest));
		rest[0] = (char *)"monitor";
		nrest++;
	}

	for (i = 0; i < (int)NCOMMANDS; i++) {
		if (!strcmp(rest[0], commands[i].name)) {
			rc = commands[i].run(&ctx, nrest, rest);
			goto out;
		}
	}
	fprintf(stderr, "fabtop: unknown command '%s'\n", rest[0]);
	fprintf(stderr, "Try 'fabtop --help'.\n");
	rc = EXIT_USAGE;
out:
	free(rest);
	return rc;
}
