// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop doctor: findings, route decisions for a peer, printed fixes, and the confirmed --apply. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/host.h"
#include "change/net_apply.h"
#include "kernel/netconf.h"
#include "kernel/netlink.h"
#include "source/snapshot.h"
#include "source/source.h"
#include "cmd/commands.h"
#include "opts.h"
#include "derive/doctor.h"
#include "model/roce.h"
#include "derive/fix.h"
#include "report/doctor.h"
#include "report/out.h"

#define MAX_RDMA_NETDEVS 32

struct doctor_opts {
	const char *peer;
	const char *from;
	const char *fix;
	bool apply, yes, undo;
	const char *rdma_netdevs[MAX_RDMA_NETDEVS];
	unsigned int nrdma_netdevs;
};

/* The --fix formats, "A|B|C", from fix.c's table. */
static void print_formats(FILE *f, const char *sep)
{
	for (int i = 0; i < FIX_FORMAT_COUNT; i++)
		fprintf(f, "%s%s", i ? sep : "", fix_format_name((enum fix_format)i));
}

static void doctor_usage(FILE *f)
{
	fprintf(f, "Usage: fabtop doctor [PEER] [--from ADDR|IFACE] [--json]\n"
		   "       fabtop doctor --fix ");
	print_formats(f, "|");
	fprintf(f, "\n"
		   "       fabtop doctor --apply --yes\n"
		   "       fabtop --demo [NAME] doctor --undo\n\n"
		   "Explains what will break RDMA connections on this host and why, with the fix:\n"
		   "routing of RDMA netdevs sharing a subnet, ARP flux, rp_filter, port states,\n"
		   "RoCE GIDs and IPoIB settings. With PEER, shows which interface and source the\n"
		   "kernel uses for PEER from each local RDMA address (and from --from).\n\n"
		   "  --fix FORMAT        print the routing fix (per-interface tables + ip rule from\n"
		   "                      ADDR, ARP sysctls) as commands or persistent configuration\n"
		   "  --apply --yes       apply the runtime (ip) fix now: root only; the previous state\n"
		   "                      is printed first and restored if any step fails (--demo:\n"
		   "                      to the simulated host, nothing on this machine changes)\n"
		   "  --undo              --demo: take the routing fix back from the simulated host\n"
		   "                      (it keeps a fix until this machine reboots, as a real one)\n"
		   "  --rdma-netdev IFACE treat IFACE as an RDMA netdev too (repeatable; for hosts\n"
		   "                      where sysfs does not link the netdev to its RDMA device)\n\n"
		   "Exit status: 0 no problem found, 1 problems found (or a runtime failure),\n"
		   "2 usage error.\n");
}

enum { OPT_FROM = OPT_FIRST_OWN, OPT_FIX, OPT_RDMA_NETDEV, OPT_APPLY, OPT_YES, OPT_UNDO };

static const struct option own[] = {
	{ "from", required_argument, NULL, OPT_FROM },
	{ "fix", required_argument, NULL, OPT_FIX },
	{ "rdma-netdev", required_argument, NULL, OPT_RDMA_NETDEV },
	{ "apply", no_argument, NULL, OPT_APPLY },
	{ "yes", no_argument, NULL, OPT_YES },
	{ "undo", no_argument, NULL, OPT_UNDO },
	{ NULL, 0, NULL, 0 },
};

/* 0 to go on, -1 when --help or --version printed, else an exit code. */
static int parse_args(struct fab_ctx *ctx, int argc, char **argv, struct doctor_opts *o)
{
	struct option longopts[OPTS_MAX];
	int c, stop;

	opts_merge(longopts, own);
	while ((c = opts_next(ctx, "doctor", argc, argv, ":hV", longopts, &stop)) != -1) {
		switch (c) {
		case 'h':
			doctor_usage(stdout);
			return -1;
		case OPT_FROM:
			o->from = optarg;
			break;
		case OPT_FIX:
			o->fix = optarg;
			break;
		case OPT_RDMA_NETDEV:
			if (o->nrdma_netdevs >= MAX_RDMA_NETDEVS) {
				fprintf(stderr, "fabtop doctor: at most %d --rdma-netdev\n", MAX_RDMA_NETDEVS);
				return EXIT_USAGE;
			}
			o->rdma_netdevs[o->nrdma_netdevs++] = optarg;
			break;
		case OPT_APPLY:
			o->apply = true;
			break;
		case OPT_YES:
			o->yes = true;
			break;
		case OPT_UNDO:
			o->undo = true;
			break;
		}
	}
	if (stop >= 0)
		return stop == EXIT_OK ? -1 : stop;
	for (int i = optind; i < argc; i++) {
		if (o->peer) {
			fprintf(stderr, "fabtop doctor: one PEER at a time ('%s' is extra)\n", argv[i]);
			return EXIT_USAGE;
		}
		o->peer = argv[i];
	}
	if (o->undo && (o->apply || o->fix || o->peer)) {
		fprintf(stderr, "fabtop doctor: --undo takes a fix back and does nothing else: not with %s\n",
			o->apply ? "--apply" : o->fix ? "--fix" : "a PEER");
		return EXIT_USAGE;
	}
	if (o->apply != o->yes) {
		fprintf(stderr, "fabtop doctor: --apply changes routing and sysctls and needs both --apply and --yes; "
			"nothing was changed\n");
		return EXIT_USAGE;
	}
	/*
	 * --apply changes this host; reading its state (or "restoring" it) from
	 * a tree would change the live host on the word of files that are not it.
	 */
	if (o->apply && (!ctx->live_sysfs || strcmp(ctx->proc_root, "/proc") ||
			 strcmp(ctx->configfs_root, "/sys/kernel/config"))) {
		fprintf(stderr, "fabtop doctor: --apply works on this host's own /sys and /proc only, not with "
			"--sysfs, --proc or --configfs; nothing was changed\n");
		return EXIT_USAGE;
	}
	if (o->fix) {
		enum fix_format fmt;

		if (fix_format_parse(o->fix, &fmt)) {
			fprintf(stderr, "fabtop doctor: unknown --fix format '%s' (", o->fix);
			print_formats(stderr, ", ");
			fprintf(stderr, ")\n");
			return EXIT_USAGE;
		}
		if (o->apply && fmt != FIX_IP) {
			fprintf(stderr, "fabtop doctor: --apply applies the runtime fix only (--fix ip)\n");
			return EXIT_USAGE;
		}
	}
	return 0;
}

static int print_fix(const struct fix_plan *plan, const char *format)
{
	enum fix_format fmt = FIX_IP;

	fix_format_parse(format, &fmt);
	for (size_t i = 0; i < plan->nroutes; i++)
		if (!fix_ifname_ok(plan->routes[i].ifname)) {
			char q[64];

			fprintf(stderr, "fabtop doctor: refusing to write a fix for interface %s: its name holds "
				"characters (control, non-ASCII, ':' or '/') fabtop will not put in a script; "
				"rename it (ip link set dev OLD name NEW)\n",
				fix_sh_quote(plan->routes[i].ifname, q, sizeof(q)));
			return EXIT_RUNTIME;
		}
	if (fix_write(stdout, fmt, plan))
		return EXIT_RUNTIME;
	return EXIT_OK;
}

/* The doctor's runtime fix, applied by the source: this host's network, or the demo's simulated one. */
static int do_apply(const struct fab_ctx *ctx, struct source *src, struct net_state *net)
{
	struct fix_plan plan;
	sigset_t stop, old;
	char hint[160];
	size_t left;
	int rc;

	if (fix_plan_build(net, &plan)) {
		fprintf(stderr, "fabtop: out of memory\n");
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < plan.nroutes; i++)
		if (!fix_ifname_ok(plan.routes[i].ifname)) {
			fprintf(stderr, "fabtop doctor: refusing to apply: an interface name holds control or "
				"non-ASCII characters\n");
			fix_plan_free(&plan);
			return EXIT_RUNTIME;
		}
	/*
	 * ^C, a kill or a hangup during the apply must not leave half a fix:
	 * they wait (blocked) until the apply has rolled back or finished.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	rc = source_apply_fix(src, &plan, net, stdout, &left);
	fflush(stdout);
	if (rc == 1)
		printf("fabtop doctor: nothing to apply: %s\n", plan.nroutes ?
		       "the per-interface tables, rules and ARP settings are already in place" :
		       "no two RDMA netdevs share an IPv4 subnet");
	else if (rc == -EPERM)
		fprintf(stderr, "fabtop doctor: --apply needs root (it changes routes, rules and sysctls); "
			"nothing was changed. Print the commands with --fix ip instead.\n");
	else if (rc && left)
		fprintf(stderr, "fabtop doctor: applying the fix %s (%s); %zu step%s could not be undone: the "
			"commands above that undo them are still to run\n", rc == -EINTR ? "was interrupted" : "failed",
			rc == -EINTR ? "signal" : strerror(-rc), left, left == 1 ? "" : "s");
	else if (rc)
		fprintf(stderr, "fabtop doctor: applying the fix %s (%s); the previous state was restored\n",
			rc == -EINTR ? "was interrupted" : "failed", rc == -EINTR ? "signal" : strerror(-rc));
	fix_plan_free(&plan);
	/* A signal that came after the last step is taken here, not by default death. */
	while (sigtimedwait(&stop, NULL, &(struct timespec){ 0, 0 }) > 0)
		;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc == 1)
		return EXIT_OK;
	if (rc)
		return EXIT_RUNTIME;
	if (!source_has(src, SOURCE_SIMULATED))
		printf("fabtop doctor: applied. Run 'fabtop doctor' again to check; this is lost at reboot: %s.\n",
		       fix_persist_hint(hint, sizeof(hint), netconf_detect(ctx)));
	return EXIT_OK;
}

/* After a fix of the simulated host: the doctor's report on it, with PEER's routes when given. */
static int doctor_after(struct source *src, struct snapshot *snap, const struct doctor_opts *o)
{
	struct doctor_query q = { .peer = o->peer, .from = o->from };
	struct doctor_report rep;
	int rc;

	snapshot_free(snap);
	if (snapshot_take(src, snap, COLLECT_ALL | SNAPSHOT_NET) || snap->net_err)
		return EXIT_RUNTIME;
	if (snapshot_doctor(src, snap, &q, &rep))
		return EXIT_RUNTIME;
	printf("[SIMULATED] the doctor on the simulated host now:\n");
	{
		char *text = NULL, *line, *save = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		if (m) {
			struct out out;

			out_open(&out, m, false);
			doctor_report(&out, &rep, false);
			out_close(&out);
			fclose(m);
			for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
				printf("[SIMULATED] %s\n", line);
			free(text);
		}
	}
	rc = doctor_has_problems(&rep) ? EXIT_RUNTIME : EXIT_OK;
	doctor_report_free(&rep);
	return rc;
}

/* Long: the snapshot, the --fix and --apply paths and the report, each with the exit code the doctor documents. */
/* The doctor's exit code for what snapshot_doctor() said (0: it ran), the message printed. */
static int doctor_run_error(int rc, const struct doctor_opts *o)
{
	if (rc == -EINVAL && o->peer && o->from) {
		fprintf(stderr, "fabtop doctor: '%s' is not an IP address, or PEER and --from differ in family\n", o->peer);
		return EXIT_USAGE;
	}
	if (rc == -EINVAL) {
		fprintf(stderr, "fabtop doctor: PEER '%s' is not an IP address\n", o->peer ? o->peer : "");
		return EXIT_USAGE;
	}
	if (rc == -ENODEV || rc == -EADDRNOTAVAIL) {
		fprintf(stderr, "fabtop doctor: --from '%s' is neither a local address nor an interface here\n", o->from);
		return EXIT_USAGE;
	}
	fprintf(stderr, "fabtop doctor: %s\n", strerror(-rc));
	return EXIT_RUNTIME;
}

/* The findings for the snapshot (and PEER/--from), as text or JSON; exit 1 when there is a problem. */
static int diagnose(const struct fab_ctx *ctx, struct source *src, struct snapshot *snap, const struct doctor_opts *o)
{
	struct doctor_query q = { .peer = o->peer, .from = o->from };
	struct doctor_report rep;
	struct out out;
	int rc;

	rc = snapshot_doctor(src, snap, &q, &rep);
	if (rc)
		return doctor_run_error(rc, o);
	if (!ctx->json && snap->host.sysfs_missing && !o->nrdma_netdevs && !source_has(src, SOURCE_SIMULATED))
		printf("fabtop doctor: no RDMA devices (%s/class/infiniband is absent: no RDMA driver loaded?)\n",
		       ctx->sysfs_root);
	out_open(&out, stdout, ctx->json);
	doctor_report(&out, &rep, ctx->color);
	out_close(&out);
	rc = doctor_has_problems(&rep) ? EXIT_RUNTIME : EXIT_OK;
	doctor_report_free(&rep);
	return rc;
}

/* --undo: only the simulated host's fix can be taken back by fabtop (a real one by the commands --apply printed). */
static int undo(struct source *src, struct snapshot *snap, const struct doctor_opts *o)
{
	int rc = source_undo_fix(src, stdout);

	if (rc == -EOPNOTSUPP) {
		fprintf(stderr, "fabtop doctor: --undo takes back a fix applied to the demo's simulated host "
			"(fabtop --demo [NAME] doctor --undo); on a real host, run the commands that undo it, "
			"which --apply printed before it changed anything\n");
		return EXIT_USAGE;
	}
	if (rc == 1) {
		printf("[SIMULATED] fabtop doctor: nothing to undo: the simulated host's routing has no fix in\n");
		return EXIT_OK;
	}
	if (rc)
		return EXIT_RUNTIME;
	return doctor_after(src, snap, o);
}

/* --apply, or the fix printed in a format (--fix). */
static int fix(const struct fab_ctx *ctx, struct source *src, struct snapshot *snap, const struct doctor_opts *o)
{
	struct fix_plan plan;
	int rc;

	if (o->apply) {
		rc = do_apply(ctx, src, &snap->net);
		/* the simulated host was changed in this process: show what the doctor sees now */
		if (rc == EXIT_OK && source_has(src, SOURCE_SIMULATED))
			rc = doctor_after(src, snap, o);
		return rc;
	}
	if (fix_plan_build(&snap->net, &plan))
		return EXIT_RUNTIME;
	rc = print_fix(&plan, o->fix);
	fix_plan_free(&plan);
	return rc;
}

int cmd_doctor(struct fab_ctx *ctx, int argc, char **argv)
{
	struct doctor_opts o = { 0 };
	struct snapshot snap;
	struct source *src;
	int rc;

	rc = parse_args(ctx, argc, argv, &o);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	/* The demo's simulated host and network under --demo, never this machine's. */
	src = source_open(ctx);
	if (!src || snapshot_take(src, &snap, COLLECT_ALL | SNAPSHOT_NET)) {
		fprintf(stderr, "fabtop: out of memory while reading %s\n", ctx->sysfs_root);
		source_close(src);
		return EXIT_RUNTIME;
	}
	if (snap.net_err) {
		fprintf(stderr, "fabtop: reading the network state over rtnetlink failed: %s\n",
			snapshot_net_error(snap.net_err));
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (o.apply && !source_can_fix(src)) {
		char what[256];

		source_describe(src, what, sizeof(what));
		fprintf(stderr, "fabtop doctor: --apply cannot change the %s; nothing was changed\n", what);
		rc = EXIT_USAGE;
		goto out;
	}
	for (unsigned int i = 0; i < o.nrdma_netdevs; i++)
		if (!net_mark_rdma_name(&snap.net, o.rdma_netdevs[i])) {
			fprintf(stderr, "fabtop doctor: --rdma-netdev %s: no such interface in this network namespace\n",
				o.rdma_netdevs[i]);
			rc = EXIT_USAGE;
			goto out;
		}
	if (o.undo)
		rc = undo(src, &snap, &o);
	else
		rc = o.apply || o.fix ? fix(ctx, src, &snap, &o) : diagnose(ctx, src, &snap, &o);
out:
	snapshot_free(&snap);
	source_close(src);
	return rc;
}
