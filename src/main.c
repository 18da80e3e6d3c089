// SPDX-License-Identifier: GPL-2.0-or-later
/* Entry point: global options, then dispatch to a subcommand from a table. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cmd/commands.h"
#include "demo/demo_scenario.h"
#include "demo/demo_state.h"
#include "ctx.h"
#include "opts.h"
#include "util.h"

struct command {
	const char *name;
	int (*run)(struct fab_ctx *ctx, int argc, char **argv);
	const char *usage;
	void (*synopsis)(FILE *f);	/* the usage's first words, from the command's own tables (NULL: none) */
};

static int cmd_help(struct fab_ctx *ctx, int argc, char **argv);
static int cmd_version(struct fab_ctx *ctx, int argc, char **argv);

static const struct command commands[] = {
	{ "show", cmd_show, " [--json] [--interval S --count N]\n"
			    "  fabtop show ports|gids|counters [DEV [PORT] | DEV/PORT]   (one device or port, as ibstat takes them)\n"
			    "  fabtop show res [qp|cm|proc] [--json]   (RDMA resources and who holds them)\n"
			    "  fabtop show events [--since T] [--duration D] [--json]   (what happens, as it happens)\n"
			    "  fabtop show roce [--count N]   (the RoCE lossless chain per port)\n"
			    "  fabtop show gids --for ADDR|IFACE   (the GID index an application should use)",
	  show_synopsis },
	{ "doctor", cmd_doctor, "doctor [PEER] [--from ADDR|IFACE] [--json] [--fix FORMAT] [--apply --yes]", NULL },
	{ "probe", cmd_probe, "probe PEER [--from ADDR|IFACE] [-p PORT] [-C COUNT] [-S SIZE] [--mode rping|bw|lat]\n"
			      "  fabtop probe --listen [ADDR] [-p PORT]\n"
			      "  fabtop probe -c -a PEER [-I ADDR] | -s [-a ADDR]   (rping's options, rping's meaning)\n"
			      "  fabtop probe --lid LID | --guid GUID    (ibping-style, over MADs)", NULL },
	{ "export", cmd_export, "export [--listen ADDR:PORT] [--textfile FILE [--no-http]] [--interval S] [--count N]\n"
				"                   [--probe PEER[,from=..]] [--fabric]\n"
				"                   OpenMetrics for Prometheus (default listen 127.0.0.1:9879); --probe also\n"
				"                   pings PEER over RDMA CM, --fabric also every port of the IB subnet", NULL },
	{ "record", cmd_record, "record FILE [--interval S] [--duration D | --count N] [--fabric]\n"
				"                   write what the monitor would show into FILE (see --replay)", NULL },
	{ "counters", cmd_counters, "counters qp show [DEV/PORT] [--json] | counters qp enable|disable DEV/PORT\n"
				    "                   QP counters (enable changes kernel state, needs CAP_NET_ADMIN)", NULL },
	{ "lab", cmd_lab, "lab up [NAME] | lab down   (root; Soft-RoCE; NAME: two-nics, the default)\n"
			  "                   the two-NIC host built for real on this kernel: probe, doctor, fix it (doc/lab.md)", NULL },
	{ "trace", cmd_trace, "trace DEST [--from DEV/PORT] [--no-counters] [--json]\n"
			      "                   the path to a LID, GUID or node description, each hop's counters", NULL },
	{ "monitor", cmd_monitor, "[monitor] [--pane NAME] [--device DEV [--port N]]   the interactive monitor (the default)",
	  NULL },
	{ "help", cmd_help, "help [COMMAND]     this help, or a command's (as fabtop COMMAND --help)", NULL },
	{ "version", cmd_version, "version            print the version (as --version)", NULL },
};

#define NCOMMANDS (ARRAY_SIZE(commands))

/*
 * --demo [NAME] --reset: the scenario's kept fix removed, so it is broken
 * again (what `doctor --undo` takes back, and whatever else it keeps).
 */
static int demo_reset(const struct fab_ctx *ctx)
{
	const char *name = ctx->scenario ? ctx->scenario : "the default demo";
	char path[4200];
	int rc;

	if (!ctx->demo) {
		fprintf(stderr, "fabtop: --reset puts a demo scenario back to broken: fabtop --demo NAME --reset\n");
		return EXIT_USAGE;
	}
	if (demo_state_path(ctx->scenario, path, sizeof(path))) {
		fprintf(stderr, "fabtop: --reset: no place for the demo's state (HOME and XDG_STATE_HOME unset)\n");
		return EXIT_RUNTIME;
	}
	rc = demo_state_save(ctx->scenario, &(struct demo_state){ 0 });
	if (rc) {
		fprintf(stderr, "fabtop: --reset: %s: %s\n", path, strerror(-rc));
		return EXIT_RUNTIME;
	}
	printf("[SIMULATED] %s is back to broken: the fix kept in %s is gone\n", name, path);
	return EXIT_OK;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: fabtop [GLOBAL OPTIONS] [COMMAND [ARGS]]\n\n"
		   "A live terminal monitor and doctor for RDMA fabrics (InfiniBand, RoCE, iWARP).\n\n"
		   "Commands:\n");
	for (i = 0; i < NCOMMANDS; i++) {
		fprintf(f, "  fabtop ");
		if (commands[i].synopsis)
			commands[i].synopsis(f);
		fprintf(f, "%s\n", commands[i].usage);
	}
	fprintf(f, "\nGlobal options:\n"
		   "  --demo [NAME]     run on the built-in simulated fabric (no hardware needed);\n"
		   "                    NAME: a scenario to break and fix (fabtop --demo list)\n"
		   "  --reset           with --demo [NAME]: the scenario back to broken (the fix it\n"
		   "                    keeps until reboot removed); alone, nothing else runs\n"
		   "  --seed N          seed of the demo fabric (deterministic runs)\n"
		   "  --sysfs DIR       read DIR instead of /sys (fixture trees)\n"
		   "  --proc DIR        read DIR instead of /proc\n"
		   "  --configfs DIR    read DIR instead of /sys/kernel/config\n"
		   "  --etc DIR         read DIR instead of /etc (which tool keeps the network configuration)\n"
		   "  --interval SECS   refresh interval (default 1)\n"
		   "  --count N         samples for repeated reports\n"
		   "  --json            machine-readable output\n"
		   "  --no-color        no colours (also when NO_COLOR is set)\n"
		   "  --prometheus URL  the Prometheus the monitor's Cluster pane asks (http://HOST:9090)\n"
		   "  --replay FILE     a recording (fabtop record) instead of this host: the monitor\n"
		   "                    plays it, reports show it as it was --at a time (default: its end)\n"
		   "  --at TIME         where in the recording: HH:MM[:SS], +5m, -30s, #N, start, end\n"
		   "  --counters MODE   IB port counters from pma (two MADs per port), sysfs, or auto\n"
		   "                    (default: pma when the umad device can be used, else sysfs);\n"
		   "                    netlink: the driver's counters by one RDMA netlink STAT_GET per port\n"
		   "  --fabric-mem MB   memory bound of a fabric sweep's tables (default 1024 MiB):\n"
		   "                    a bigger subnet is swept up to it, and says so\n"
		   "  --fabric-smps N   SMPs in flight at most while sweeping or tracing (1-128,\n"
		   "                    default 32): fewer for switches that drop SMPs\n"
		   "  -h, --help        this help; fabtop COMMAND --help for a command's\n"
		   "  -V, --version     print the version\n\n"
		   "Exit status: 0 ok, 1 runtime failure, 2 usage error;\n"
		   "doctor exits 1 when it finds a problem.\n");
}

static const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* fabtop help [COMMAND]: the usage, or the command's own --help. */
static int cmd_help(struct fab_ctx *ctx, int argc, char **argv)
{
	const struct command *c;
	char *help_argv[] = { NULL, (char *)"--help", NULL };

	if (argc < 2 || !strcmp(argv[1], "help")) {
		usage(stdout);
		return argc > 2 ? EXIT_USAGE : EXIT_OK;
	}
	c = command_find(argv[1]);
	if (!c || argc > 2) {
		if (!c) {
			fprintf(stderr, "fabtop help: no command '%s'; the commands:", argv[1]);
			for (size_t i = 0; i < NCOMMANDS; i++)
				fprintf(stderr, " %s", commands[i].name);
			fprintf(stderr, "\n");
		} else {
			fprintf(stderr, "fabtop help: one command at a time ('%s' is extra)\n", argv[2]);
		}
		return EXIT_USAGE;
	}
	if (c->run == cmd_version)
		return cmd_version(ctx, 1, argv + 1);
	help_argv[0] = argv[1];
	opts_reset();
	return c->run(ctx, 2, help_argv);
}

static int cmd_version(struct fab_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	if (argc > 1) {
		fprintf(stderr, "fabtop version: takes no arguments ('%s')\n", argv[1]);
		return EXIT_USAGE;
	}
	printf("fabtop %s\n", PACKAGE_VERSION);
	return EXIT_OK;
}

/*
 * A host with dozens of RDMA ports keeps thousands of counter files open
 * (one pread each per refresh): take all the descriptors the hard limit
 * allows. Past half of them counters are reopened each time (kernel/host.c).
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	struct option longopts[OPTS_MAX];
	const struct command *cmd;
	struct fab_ctx ctx;
	char **rest;
	bool implied;
	int nrest, i, c, prev, rc;

	ctx_init(&ctx);
	raise_fd_limit();
	rest = calloc((size_t)argc + 2, sizeof(*rest));
	if (!rest) {
		fprintf(stderr, "fabtop: out of memory\n");
		return EXIT_RUNTIME;
	}
	/*
	 * Global options before the command ("+": stop at the first word). An
	 * option that is not global starts the command's arguments: with no
	 * command word that is the monitor's ("fabtop --pane counters").
	 * Global options after the command word are the command's to accept
	 * (every command merges them into its own table: opts.h).
	 */
	opts_merge(longopts, NULL);
	opts_reset();
	for (;;) {
		prev = optind;
		c = getopt_long(argc, argv, "+:hV", longopts, NULL);
		if (c == -1)
			break;
		if (c == '?') {
			optind = prev ? prev : 1;
			break;
		}
		if (c == ':') {
			rc = opts_error(NULL, c, argv);
			goto out;
		}
		if (c == 'h') {
			usage(stdout);
			rc = EXIT_OK;
			goto out;
		}
		rc = opts_global(&ctx, c, optarg);
		if (rc) {
			rc = rc < 0 ? EXIT_OK : rc;
			goto out;
		}
		/* --demo NAME: a scenario (or "list"), when the word after it names one */
		if (c == OPT_DEMO && optind < argc && (!strcmp(argv[optind], "list") ||
						       demo_scenario_find(argv[optind]))) {
			if (!strcmp(argv[optind], "list")) {
				demo_scenario_list(stdout);
				rc = EXIT_OK;
				goto out;
			}
			ctx.scenario = argv[optind++];
		}
	}

	implied = optind >= argc || argv[optind][0] == '-';
	if (ctx.demo_reset) {
		rc = demo_reset(&ctx);
		if (rc || implied)
			goto out;
	}

	/*
	 * No command word: the monitor, told so by an empty name (its usage
	 * errors are then the program's: `fabtop --bogus` gets this usage).
	 */
	nrest = 0;
	if (implied)
		rest[nrest++] = (char *)"";
	for (i = optind; i < argc; i++)
		rest[nrest++] = argv[i];
	cmd = implied ? command_find("monitor") : command_find(rest[0]);
	if (!cmd) {
		fprintf(stderr, "fabtop: unknown command '%s'%s\n", rest[0],
			ctx.demo ? " (nor a scenario of the demo: fabtop --demo list)" : "");
		fprintf(stderr, "Try 'fabtop --help'.\n");
		rc = EXIT_USAGE;
		goto out;
	}
	opts_reset();
	rc = cmd->run(&ctx, nrest, rest);
	if (implied && rc == EXIT_USAGE)
		usage(stderr);
	/* Every command's output: a full disk or a closed pipe is a failure, said so. */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "fabtop: writing output failed\n");
		rc = EXIT_RUNTIME;
	}
out:
	opts_free(&ctx);
	free(rest);
	return rc;
}
