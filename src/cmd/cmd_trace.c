// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop trace DEST: the path from a local IB port to a LID, GUID or node description, with each hop's counters. */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cmd/commands.h"
#include "derive/mad_decode.h"
#include "mad/mad.h"
#include "mad/mad_fabric.h"
#include "mad/mad_sa.h"
#include "mad/mad_trace.h"
#include "mad/umad.h"
#include "kernel/ipoib_arp.h"
#include "opts.h"
#include "report/json.h"
#include "report/trace.h"
#include "util.h"

/* The walk and each sample end within these (a fabric that does not answer cannot hold us). */
#define TRACE_WALK_NS		(10ull * 1000000000ull)
#define TRACE_SAMPLE_NS		(5ull * 1000000000ull)
#define TRACE_RESOLVE_NS	(15ull * 1000000000ull)

static void trace_usage(FILE *f)
{
	fprintf(f, "Usage: fabtop trace DEST [--from DEV/PORT] [--no-counters] [--interval S] [--json]\n"
		   "The path traffic from a local InfiniBand port to DEST takes, hop by hop, read\n"
		   "from the switches' linear forwarding tables (as ibtracert), with each hop's in\n"
		   "and out port: state, width, speed, and the rates and error deltas of two PMA\n"
		   "samples --interval seconds apart (default 1).\n"
		   "DEST: a LID (decimal), a node or port GUID (0x... or 0002:c903:...), a node\n"
		   "description (exact, else a unique part of one), or an IPoIB peer's IPv4 address\n"
		   "(its port GUID from the kernel's ARP table). A GUID is asked of the subnet\n"
		   "manager (an SA NodeRecord); a description, or a GUID the SA does not name one\n"
		   "port for, is found by sweeping the fabric.\n");
}

enum { OPT_FROM = OPT_FIRST_OWN, OPT_NO_COUNTERS };

static const struct option own[] = {
	{ "from", required_argument, NULL, OPT_FROM },
	{ "no-counters", no_argument, NULL, OPT_NO_COUNTERS },
	{ NULL, 0, NULL, 0 },
};

/* DEV/PORT, or DEV alone (its first port). */
static int parse_from(const char *s, char *ca, size_t casz, unsigned int *port)
{
	const char *slash = strchr(s, '/');
	uint64_t v = 0;

	if (slash && (util_parse_u64(slash + 1, 10, 255, &v) || !v))
		return -EINVAL;
	if ((slash ? (size_t)(slash - s) : strlen(s)) + 1 > casz || slash == s || !*s)
		return -EINVAL;
	snprintf(ca, casz, "%.*s", (int)(slash ? slash - s : (ptrdiff_t)strlen(s)), s);
	*port = (unsigned int)v;
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* The LID of a swept node's port: a switch's, else the first ACTIVE port's (or the one we entered by). */
static uint16_t node_lid(const struct ib_fnode *n)
{
	if (n->id.node_type == 2)
		return n->lid;
	for (unsigned int p = 1; p <= n->id.num_ports; p++)
		if (n->ports[p].known && n->ports[p].pi.state == PORT_STATE_ACTIVE && n->ports[p].pi.lid)
			return n->ports[p].pi.lid;
	return n->lid;
}

/* A GUID or a description to a LID, by sweeping. 0 and *lid, or an exit code with the message said. */
static int resolve(const struct fab_ctx *ctx, const char *dest, bool is_guid, uint64_t guid, uint16_t *lid)
{
	struct ib_fabric f;
	const struct ib_fnode *hit = NULL;
	size_t exact = 0, part = 0;
	const struct ib_fnode *exact_hit = NULL, *part_hit = NULL;
	int rc = mad_fabric_collect(ctx, &f, MADF_SWEEP, NULL, util_now_ns() + TRACE_RESOLVE_NS);

	if (rc) {
		fprintf(stderr, "fabtop trace: sweeping the fabric failed: %s\n", strerror(-rc));
		ib_fabric_free(&f);
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < f.nnodes; i++) {
		const struct ib_fnode *n = &f.nodes[i];

		if (is_guid) {
			if (n->id.node_guid == guid || n->id.port_guid == guid) {
				/* a port GUID names the port the sweep entered by */
				hit = n;
				*lid = n->id.port_guid == guid && n->id.node_type != 2 ? n->lid : node_lid(n);
				break;
			}
		} else if (!strcmp(n->id.desc, dest)) {
			exact++;
			exact_hit = n;
		} else if (strcasestr(n->id.desc, dest)) {
			part++;
			part_hit = n;
		}
	}
	if (!is_guid) {
		hit = exact == 1 ? exact_hit : !exact && part == 1 ? part_hit : NULL;
		if (hit)
			*lid = node_lid(hit);
	}
	rc = EXIT_OK;
	if (!hit) {
		if (f.error[0])
			fprintf(stderr, "fabtop trace: %s\n", f.error);
		else if (exact > 1 || (!exact && part > 1))
			fprintf(stderr, "fabtop trace: '%s' names %zu nodes: give a LID or GUID\n", dest,
				exact > 1 ? exact : part);
		else if (is_guid && strcmp(dest, "") && !strchr(dest, ':') && strncmp(dest, "0x", 2))
			fprintf(stderr, "fabtop trace: %s (port GUID 0x%016" PRIx64 ") not found among the %zu nodes "
				"of the fabric\n", dest, guid, f.nnodes);
		else
			fprintf(stderr, "fabtop trace: %s not found among the %zu nodes of the fabric\n", dest, f.nnodes);
		rc = EXIT_RUNTIME;
	} else if (!*lid) {
		fprintf(stderr, "fabtop trace: %s (%s) has no LID: no subnet manager has configured it\n", dest,
			hit->id.desc);
		rc = EXIT_RUNTIME;
	}
	ib_fabric_free(&f);
	return rc;
}

/* A GUID's LID from the SA, else by sweeping; *by says which. */
static int guid_lid(const struct fab_ctx *ctx, const struct umad_local *lp, const char *dest, uint64_t guid,
		    uint16_t *lid, const char **by)
{
	if (mad_sa_guid_lid(ctx, lp, guid, lid)) {
		*by = "sa";
		return EXIT_OK;
	}
	*by = "sweep";
	return resolve(ctx, dest, true, guid, lid);
}

/* What DEST names: a LID now, or from the SA, or after a sweep; *by says which. */
static int parse_dest(const struct fab_ctx *ctx, const struct umad_local *lp, const char *dest, uint16_t *lid,
		      const char **by)
{
	uint64_t v;
	unsigned char addr[16];

	if (all_digits(dest)) {
		if (util_parse_u64(dest, 10, 0xbfff, &v) || !v) {
			fprintf(stderr, "fabtop trace: LID %s is not a unicast LID (1-49151)\n", dest);
			return EXIT_USAGE;
		}
		*lid = (uint16_t)v;
		*by = "lid";
		return EXIT_OK;
	}
	if (inet_pton(AF_INET6, dest, addr) == 1) {
		fprintf(stderr, "fabtop trace: %s: IPv6 neighbours are not read yet; give the peer's IPv4 "
			"address, LID, GUID or node description\n", dest);
		return EXIT_USAGE;
	}
	if (inet_pton(AF_INET, dest, addr) == 1) {
		char dev[64], why[512];
		int rc = ipoib_arp_guid(ctx, dest, &v, dev, sizeof(dev), why, sizeof(why));

		if (rc) {
			fprintf(stderr, "fabtop trace: %s\n", rc == -ENOMEM ? "out of memory" : why);
			return EXIT_RUNTIME;
		}
		/* The IPoIB address names the peer's port GUID. */
		return guid_lid(ctx, lp, dest, v, lid, by);
	}
	if ((!strncmp(dest, "0x", 2) || strchr(dest, ':')) && !util_parse_guid(dest, &v))
		return guid_lid(ctx, lp, dest, v, lid, by);
	*by = "sweep";
	return resolve(ctx, dest, false, 0, lid);
}

struct port_state {
	bool done;
	uint8_t state;
};

static void port_state_cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len)
{
	struct port_state *ps = arg;
	const uint8_t *data;
	size_t dlen;
	struct mad_hdr h;
	struct mad_port_info pi;

	(void)s;
	if (!status && !mad_decode_reply_data(mad, len, MAD_ATTR_PORT_INFO, &data, &dlen, &h) &&
	    !mad_decode_port_info(data, dlen, &pi)) {
		ps->done = true;
		ps->state = pi.port_state;
	}
}

/* The local port: the one --from names, else the first ACTIVE one (as libibumad picks), else the first. */
static int pick_port(const struct fab_ctx *ctx, const char *want_ca, unsigned int want_port,
		     struct umad_local *out)
{
	struct umad_local locals[UMAD_MAX_LOCAL_PORTS];
	char why[768];
	int n = umad_list_ports(ctx, locals, UMAD_MAX_LOCAL_PORTS, why, sizeof(why)), which = -1;

	if (n <= 0) {
		fprintf(stderr, "fabtop trace: %s\n", n < 0 ? strerror(-n) : why);
		return EXIT_RUNTIME;
	}
	for (int i = 0; i < n; i++) {
		struct mad_session *s;
		struct port_state ps = { 0 };
		uint8_t path[1] = { 0 };

		if (want_ca && (strcmp(want_ca, locals[i].ca) || (want_port && want_port != locals[i].port)))
			continue;
		if (which < 0)
			which = i;
		if (want_ca || mad_session_open(&s, ctx, &locals[i], why, sizeof(why)))
			break;
		if (!mad_get_dr(s, path, 0, MAD_ATTR_PORT_INFO, locals[i].port, port_state_cb, &ps))
			mad_run(s, util_now_ns() + 2000000000ull);
		mad_session_close(s);
		if (ps.done && ps.state == PORT_STATE_ACTIVE) {
			which = i;
			break;
		}
	}
	if (which < 0) {
		fprintf(stderr, "fabtop trace: no local IB port %s%s%.0u\n", want_ca, want_port ? "/" : "", want_port);
		return EXIT_USAGE;
	}
	*out = locals[which];
	return EXIT_OK;
}

static void sleep_s(double s)
{
	uint64_t ns = s > 0 ? (uint64_t)(s * 1e9) : 0;
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Walk, then two PMA samples; the session is the caller's. */
static void run_trace(struct mad_session *s, struct ib_trace *t, unsigned int port, uint16_t dlid,
		      bool counters, double interval_s)
{
	uint64_t t0 = util_now_ns();
	struct mad_trace *tr = mad_trace_start(s, t, port, dlid);

	if (!tr) {
		snprintf(t->error, sizeof(t->error), "out of memory");
		return;
	}
	mad_run(s, util_now_ns() + TRACE_WALK_NS);
	t->walk_ns = util_now_ns() - t0;
	if (!mad_trace_walked(tr) && !t->error[0])
		snprintf(t->error, sizeof(t->error), "the walk did not finish within %llu s",
			 TRACE_WALK_NS / 1000000000ull);
	if (counters && t->nhops) {
		mad_trace_sample(tr, util_now_ns());
		mad_run(s, util_now_ns() + TRACE_SAMPLE_NS);
		sleep_s(interval_s);
		mad_trace_sample(tr, util_now_ns());
		mad_run(s, util_now_ns() + TRACE_SAMPLE_NS);
		t->interval_s = interval_s;
	}
	mad_trace_free(tr);
}

/* Options, the destination, the local port, the session: each failing with its own message. */
int cmd_trace(struct fab_ctx *ctx, int argc, char **argv)
{
	struct option longopts[OPTS_MAX];
	char want_ca[FAB_NAME_LEN] = "";
	unsigned int want_port = 0;
	bool counters = true;
	struct umad_local lp;
	struct mad_session *s;
	struct ib_trace *t;
	struct out o;
	char why[768];
	uint16_t dlid = 0;
	const char *found_by = "lid";
	int c, stop, rc;

	opts_merge(longopts, own);
	while ((c = opts_next(ctx, "trace", argc, argv, ":hV", longopts, &stop)) != -1) {
		if (c == 'h') {
			trace_usage(stdout);
			return EXIT_OK;
		}
		if (c == OPT_FROM && !parse_from(optarg, want_ca, sizeof(want_ca), &want_port))
			continue;
		if (c == OPT_NO_COUNTERS) {
			counters = false;
			continue;
		}
		fprintf(stderr, "fabtop trace: bad value '%s' for --from (DEV/PORT, e.g. mlx5_0/1)\n", optarg);
		return EXIT_USAGE;
	}
	if (stop >= 0) {
		if (stop == EXIT_USAGE)
			trace_usage(stderr);
		return stop;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "fabtop trace: %s\n", optind >= argc ? "give one destination (LID, GUID or node description)"
								     : "one destination only");
		trace_usage(stderr);
		return EXIT_USAGE;
	}
	if (!ctx->live_sysfs) {
		fprintf(stderr, "fabtop trace: MADs need the live system, not --sysfs %s\n", ctx->sysfs_root);
		return EXIT_RUNTIME;
	}
	rc = pick_port(ctx, want_ca[0] ? want_ca : NULL, want_port, &lp);
	if (rc)
		return rc;
	rc = parse_dest(ctx, &lp, argv[optind], &dlid, &found_by);
	if (rc)
		return rc;
	if (mad_session_open(&s, ctx, &lp, why, sizeof(why))) {
		fprintf(stderr, "fabtop trace: %s\n", why);
		return EXIT_RUNTIME;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		mad_session_close(s);
		fprintf(stderr, "fabtop trace: out of memory\n");
		return EXIT_RUNTIME;
	}
	snprintf(t->ca, sizeof(t->ca), "%s", lp.ca);
	t->found_by = found_by;
	mad_session_set_opts(s, &(struct mad_opts){ .timeout_ms = 200, .retries = 2,
						    .window = ctx->fabric_smps ? ctx->fabric_smps : 32 });
	run_trace(s, t, lp.port, dlid, counters, ctx->interval_s);
	out_open(&o, stdout, ctx->json);
	trace_report(&o, t);
	out_close(&o);
	/* Out before the close, which can block (umad2sim's exit talks to the simulator). */
	fflush(stdout);
	mad_session_close(s);
	rc = t->complete ? EXIT_OK : EXIT_RUNTIME;
	free(t);
	return rc;
}
