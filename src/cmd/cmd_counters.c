// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop counters qp enable|disable|show: the kernel's QP counters, turned on only when asked. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "change/stat_set.h"
#include "kernel/rdma_stat.h"
#include "source/source.h"
#include "change/stat_verify.h"
#include "cmd/commands.h"
#include "model/res.h"
#include "model/stat.h"
#include "opts.h"
#include "report/out.h"
#include "report/stat.h"
#include "util.h"

static void counters_usage(FILE *f)
{
	fprintf(f, "Usage: fabtop counters qp show [DEV/PORT] [--json]\n"
		   "       fabtop counters qp enable DEV/PORT\n"
		   "       fabtop counters qp disable DEV/PORT\n"
		   "QP counters count a port's traffic per group of QPs (rdma statistic qp).\n"
		   "enable turns the port's auto mode on: from then on the kernel binds every\n"
		   "new QP to a counter of its QP type. It changes kernel state (until disable or\n"
		   "a reboot) and needs CAP_NET_ADMIN; fabtop never does it by itself.\n"
		   "QPs created before enable are not counted. See doc/monitor.md.\n");
}

/* "rxe0/1" -> "rxe0", 1. */
static int parse_dev_port(const char *arg, char *dev, size_t size, unsigned int *port)
{
	const char *slash = strrchr(arg, '/');
	uint64_t v;

	if (!slash || slash == arg || (size_t)(slash - arg) >= size || util_parse_u64(slash + 1, 10, 255, &v) || !v)
		return -1;
	memcpy(dev, arg, (size_t)(slash - arg));
	dev[slash - arg] = '\0';
	*port = (unsigned int)v;
	return 0;
}

static int qp_show(struct fab_ctx *ctx, const char *dev, unsigned int port)
{
	struct source *src = source_open(ctx);
	struct fab_host h = { 0 };
	struct stat_state st = { 0 };
	struct res_state rs = { 0 };
	bool have_res;
	struct out o;
	char desc[256];
	int rc;

	if (!src) {
		fprintf(stderr, "fabtop counters: out of memory\n");
		return EXIT_RUNTIME;
	}
	rc = source_collect(src, &h, 0);
	if (!rc)
		rc = source_qp_counters(src, &h, &st);
	if (rc == -EOPNOTSUPP) {
		source_describe(src, desc, sizeof(desc));
		fprintf(stderr, "fabtop counters qp: %s has no QP counters (they are the kernel's, on a live host)\n",
			desc);
		fab_host_free(&h);
		source_close(src);
		return EXIT_RUNTIME;
	}
	if (rc) {
		fprintf(stderr, "fabtop counters qp: %s\n", strerror(-rc));
		fab_host_free(&h);
		source_close(src);
		return EXIT_RUNTIME;
	}
	/* who holds each bound QP: the resource tracker, when it answers */
	have_res = source_res(src, &rs) == 0;
	if (dev && !fab_host_find_port(&h, dev, port))
		fprintf(stderr, "fabtop counters qp: %s/%u: no such port here\n", dev, port);
	if (st.err)
		fprintf(stderr, "fabtop counters qp: %s\n", st.why);
	out_open(&o, stdout, ctx->json);
	stat_report_qp(&o, &st, have_res ? &rs : NULL, dev, port);
	out_close(&o);
	rc = st.err && !st.nmodes ? EXIT_RUNTIME : EXIT_OK;
	if (have_res)
		res_state_free(&rs);
	stat_state_free(&st);
	fab_host_free(&h);
	source_close(src);
	return rc;
}

static int qp_set(const char *dev, unsigned int port, bool on)
{
	bool bound = false;
	int rc = stat_set_qp_auto(dev, port, on);

	if (rc) {
		fprintf(stderr, "fabtop counters qp %s %s/%u: %s\n", on ? "enable" : "disable", dev, port,
			rdma_stat_strerror(rc));
		return EXIT_RUNTIME;
	}
	if (!on) {
		printf("%s/%u: QP auto mode off: new QPs are no longer bound to counters "
		       "(counters that still have QPs stay, in manual mode)\n", dev, port);
		return EXIT_OK;
	}
	/* the kernel accepts auto mode from drivers that then bind nothing: look with a QP of our own */
	rc = stat_verify_qp_auto(dev, port, &bound);
	if (!rc && !bound) {
		stat_set_qp_auto(dev, port, false);
		fprintf(stderr, "fabtop counters qp enable %s/%u: the driver does not support QP counters "
			"(a QP created after auto mode was turned on was bound to none); auto mode turned off again\n",
			dev, port);
		return EXIT_RUNTIME;
	}
	printf("%s/%u: QP auto mode on: every new QP is bound to a counter of its QP type%s\n", dev, port,
	       rc ? "" : " (checked with a QP of fabtop's own)");
	if (rc)
		printf("note: whether the driver binds QPs could not be checked (%s)\n", strerror(-rc));
	printf("note: %s. 'fabtop counters qp disable %s/%u' turns it off.\n", stat_qp_caveat, dev, port);
	return EXIT_OK;
}

int cmd_counters(struct fab_ctx *ctx, int argc, char **argv)
{
	struct option longopts[OPTS_MAX];
	char dev[FAB_NAME_LEN];
	unsigned int port = 0;
	const char *verb;
	int c, stop;

	opts_merge(longopts, NULL);
	while ((c = opts_next(ctx, "counters", argc, argv, ":h", longopts, &stop)) != -1) {
		if (c == 'h') {
			counters_usage(stdout);
			return EXIT_OK;
		}
	}
	if (stop >= 0) {
		if (stop == EXIT_USAGE)
			counters_usage(stderr);
		return stop;
	}
	if (optind >= argc || strcmp(argv[optind], "qp") || optind + 1 >= argc) {
		fprintf(stderr, "fabtop counters: %s\n", optind < argc && strcmp(argv[optind], "qp") ?
			"unknown counters; only 'qp' has a command" : "qp what? (show, enable, disable)");
		counters_usage(stderr);
		return EXIT_USAGE;
	}
	verb = argv[optind + 1];
	if (optind + 3 < argc || (optind + 2 < argc && parse_dev_port(argv[optind + 2], dev, sizeof(dev), &port))) {
		fprintf(stderr, "fabtop counters qp: a port is named DEV/PORT (rxe0/1), not '%s'\n",
			argv[argc - 1]);
		return EXIT_USAGE;
	}
	if (!strcmp(verb, "show"))
		return qp_show(ctx, port ? dev : NULL, port);
	if (strcmp(verb, "enable") && strcmp(verb, "disable")) {
		fprintf(stderr, "fabtop counters qp: unknown action '%s' (show, enable, disable)\n", verb);
		return EXIT_USAGE;
	}
	if (!port) {
		fprintf(stderr, "fabtop counters qp %s: which port? (DEV/PORT, e.g. rxe0/1)\n", verb);
		return EXIT_USAGE;
	}
	if (ctx->demo || ctx->replay || !ctx->live_sysfs) {
		fprintf(stderr, "fabtop counters qp %s: changes the kernel of this host: not with --demo, --replay "
			"or --sysfs\n", verb);
		return EXIT_USAGE;
	}
	return qp_set(dev, port, !strcmp(verb, "enable"));
}
