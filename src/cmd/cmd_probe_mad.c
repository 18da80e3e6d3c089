// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop probe --lid/--guid: an ibping-style MAD probe (a GUID's LID from the SA or a sweep, then ping the ibping server at it). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mad/mad.h"
#include "mad/mad_fabric.h"
#include "mad/mad_sa.h"
#include "mad/umad.h"
#include "cmd/commands.h"
#include "derive/mad_decode.h"
#include "opts.h"
#include "report/escape.h"
#include "util.h"

struct ping_result {
	bool done;
	int status;
	char host[MAD_VENDOR2_DATA_SIZE + 1];
};

bool cmd_probe_mad_wanted(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--lid", 5) || !strncmp(argv[i], "--guid", 6))
			return true;
	return false;
}

static void probe_usage(FILE *f)
{
	fprintf(f, "Usage: fabtop probe --lid LID | --guid GUID [-C COUNT] [--timeout MS]\n"
		   "                    [--device CA] [--port N]\n"
		   "Pings the ibping server (run 'ibping -S' there) with MADs, like ibping,\n"
		   "one per --interval seconds (default 1).\n"
		   "A GUID (node or port, 0x... or 0002:c903:...) is asked of the subnet manager\n"
		   "(an SA NodeRecord), else found by sweeping the fabric.\n");
}

struct port_check {
	bool done;
	uint8_t state, phys_state;
};

static void port_check_cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len)
{
	struct port_check *pc = arg;
	const uint8_t *data;
	size_t dlen;
	struct mad_hdr h;
	struct mad_port_info pi;

	if (status || mad_decode_reply_data(mad, len, MAD_ATTR_PORT_INFO, &data, &dlen, &h) ||
	    mad_decode_port_info(data, dlen, &pi))
		return;		/* unknown: let the ping itself tell */
	pc->done = true;
	pc->state = pi.port_state;
	pc->phys_state = pi.phys_state;
}

static void ping_cb(struct mad_session *s, void *arg, int status, const uint8_t *mad, size_t len)
{
	struct ping_result *r = arg;
	const uint8_t *data;
	size_t dlen;
	struct mad_hdr h;

	r->done = true;
	r->status = status;
	if (status)
		return;
	if (mad_decode_reply_data(mad, len, 0, &data, &dlen, &h)) {
		r->status = -EBADMSG;
		return;
	}
	/* The server answers with its host name; make it printable. */
	mad_decode_node_desc(data, dlen < 64 ? dlen : 64, r->host, sizeof(r->host));
}

static int resolve_guid(const struct fab_ctx *ctx, uint64_t guid, uint16_t *lid)
{
	struct ib_fabric f;
	int rc = mad_fabric_collect(ctx, &f, MADF_SWEEP, NULL, util_now_ns() + 15000000000ull);

	*lid = 0;
	if (rc) {
		ib_fabric_free(&f);
		return rc;
	}
	for (size_t i = 0; i < f.nnodes && !*lid; i++) {
		const struct ib_fnode *n = &f.nodes[i];

		/* A CA's port GUIDs are node GUID + port in ibsim, but ask PortInfo-less: match both ids. */
		if (n->id.node_guid == guid || n->id.port_guid == guid)
			*lid = n->lid;
	}
	if (f.error[0])
		fprintf(stderr, "fabtop: %s\n", f.error);
	ib_fabric_free(&f);
	return 0;
}

enum { OPT_LID = OPT_FIRST_OWN, OPT_GUID, OPT_TIMEOUT, OPT_DEVICE, OPT_PORT };

static const struct option own[] = {
	{ "lid", required_argument, NULL, OPT_LID },
	{ "guid", required_argument, NULL, OPT_GUID },
	{ "count", required_argument, NULL, 'C' },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "port", required_argument, NULL, OPT_PORT },
	{ NULL, 0, NULL, 0 },
};

static const char *option_name(int c)
{
	for (size_t i = 0; i < ARRAY_SIZE(own) - 1; i++)
		if (own[i].val == c)
			return own[i].name;
	return "?";
}

/* LID-routed MADs need our port ACTIVE: say so instead of timing out. */
static bool port_usable(struct mad_session *s, const struct umad_local *lp)
{
	struct port_check pc = { 0 };
	uint8_t path[1] = { 0 };

	if (!mad_get_dr(s, path, 0, MAD_ATTR_PORT_INFO, lp->port, port_check_cb, &pc))
		mad_run(s, util_now_ns() + 3000000000ull);
	if (pc.done && pc.state != PORT_STATE_ACTIVE) {
		fprintf(stderr, "fabtop probe: %s port %u is %s/%s: %s\n", lp->ca, lp->port,
			mad_port_state_str(pc.state), mad_phys_state_str(pc.phys_state),
			pc.phys_state != PHYS_STATE_LINK_UP ? "the link is down" :
			"no subnet manager has made it ACTIVE (no LID), so nothing can be sent by LID");
		return false;
	}
	return true;
}

/* COUNT pings to LID, one per --interval, as ibping prints them; the summary last. Returns the answers. */
static uint64_t ping_loop(const struct fab_ctx *ctx, struct mad_session *s, const struct umad_local *lp,
			  uint16_t lid, uint64_t count, uint64_t timeout_ms)
{
	uint64_t sent = 0, got = 0, min = UINT64_MAX, max = 0, sum = 0;

	mad_session_set_opts(s, &(struct mad_opts){ .timeout_ms = (unsigned int)timeout_ms, .retries = 0, .window = 1 });
	printf("MAD ping to LID %u from %s port %u (ibping class 0x32)\n", lid, lp->ca, lp->port);
	for (uint64_t k = 0; k < count; k++) {
		struct ping_result r = { 0 };
		uint64_t t0 = util_now_ns(), rtt;
		int rc = mad_ping(s, lid, ping_cb, &r);

		if (rc) {
			fprintf(stderr, "fabtop probe: cannot send: %s\n", strerror(-rc));
			break;
		}
		sent++;
		mad_run(s, t0 + (timeout_ms + 1000) * 1000000u);
		rtt = util_now_ns() - t0;
		if (r.done && !r.status) {
			got++;
			sum += rtt;
			min = rtt < min ? rtt : min;
			max = rtt > max ? rtt : max;
			escape_line(stdout, "Pong from %s (LID %u): time %.3f ms", r.host[0] ? r.host : "?",
			       lid, (double)rtt / 1e6);
		} else {
			printf("no answer from LID %u: %s\n", lid,
			       r.status == -ETIMEDOUT ? "timeout (is 'ibping -S' running there?)"
						      : strerror(r.status < 0 ? -r.status : EIO));
		}
		fflush(stdout);
		/* One ping per --interval (1 s by default, as ibping). */
		if (k + 1 < count) {
			uint64_t next = t0 + (uint64_t)(ctx->interval_s * 1e9), now = util_now_ns();

			if (next > now) {
				struct timespec ts = { (time_t)((next - now) / 1000000000u),
						       (long)((next - now) % 1000000000u) };

				nanosleep(&ts, NULL);
			}
		}
	}
	printf("--- LID %u: %" PRIu64 " sent, %" PRIu64 " received, %" PRIu64 "%% loss",
	       lid, sent, got, sent ? (sent - got) * 100 / sent : 0);
	if (got)
		printf(", rtt min/avg/max %.3f/%.3f/%.3f ms", (double)min / 1e6,
		       (double)sum / (double)got / 1e6, (double)max / 1e6);
	printf("\n");
	return got;
}

/* Long: options, the local port, the GUID's LID and the session, each failing with its own message. */
int cmd_probe_mad(struct fab_ctx *ctx, int argc, char **argv)
{
	struct option longopts[OPTS_MAX];
	int c, stop;
	uint64_t v, lid = 0, guid = 0, count = 4, timeout_ms = 1000, want_port = 0;
	const char *want_ca = NULL;
	bool have_guid = false;
	struct umad_local locals[UMAD_MAX_LOCAL_PORTS];
	struct mad_session *s = NULL;
	char why[768];
	uint64_t got;
	int n, which = -1;

	/* The global --count means -C here, as for the RDMA CM probe. */
	if (ctx->count > 0)
		count = (uint64_t)ctx->count;
	opts_merge(longopts, own);
	while ((c = opts_next(ctx, "probe", argc, argv, ":hVC:", longopts, &stop)) != -1) {
		if (c == 'h') {
			probe_usage(stdout);
			return EXIT_OK;
		}
		if (c == OPT_LID && !util_parse_u64(optarg, 0, 0xbfff, &v) && v) {
			lid = v;
		} else if (c == OPT_GUID && !util_parse_guid(optarg, &guid)) {
			have_guid = true;
		} else if (c == 'C' && !util_parse_u64(optarg, 0, 1000000, &v) && v) {
			count = v;
		} else if (c == OPT_TIMEOUT && !util_parse_u64(optarg, 0, 60000, &v) && v) {
			timeout_ms = v;
		} else if (c == OPT_DEVICE) {
			want_ca = optarg;
		} else if (c == OPT_PORT && !util_parse_u64(optarg, 0, 255, &v) && v) {
			want_port = v;
		} else {
			fprintf(stderr, "fabtop probe: bad value '%s' for --%s\n", optarg, option_name(c));
			probe_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (stop >= 0) {
		if (stop == EXIT_USAGE)
			probe_usage(stderr);
		return stop;
	}
	if (optind < argc) {
		fprintf(stderr, "fabtop probe: unexpected argument '%s' (a MAD probe names its target with --lid or --guid)\n",
			argv[optind]);
		probe_usage(stderr);
		return EXIT_USAGE;
	}
	if (!lid == !have_guid) {
		fprintf(stderr, "fabtop probe: give exactly one of --lid and --guid\n");
		probe_usage(stderr);
		return EXIT_USAGE;
	}
	if (!ctx->live_sysfs) {
		fprintf(stderr, "fabtop probe: MADs need the live system, not --sysfs %s\n", ctx->sysfs_root);
		return EXIT_RUNTIME;
	}

	n = umad_list_ports(ctx, locals, UMAD_MAX_LOCAL_PORTS, why, sizeof(why));
	for (int i = 0; i < n && which < 0; i++)
		if ((!want_ca || !strcmp(want_ca, locals[i].ca)) && (!want_port || want_port == locals[i].port))
			which = i;
	if (which < 0) {
		fprintf(stderr, "fabtop probe: %s\n", n > 0 ? "no such local IB port" : why);
		return EXIT_RUNTIME;
	}
	if (have_guid) {
		uint16_t l = 0;

		if (mad_sa_guid_lid(ctx, &locals[which], guid, &l))
			printf("GUID 0x%016" PRIx64 " is LID %u (the SA's NodeRecord)\n", guid, l);
		else if (!resolve_guid(ctx, guid, &l) && l)
			printf("GUID 0x%016" PRIx64 " is LID %u (found by sweeping the fabric)\n", guid, l);
		if (!l) {
			fprintf(stderr, "fabtop probe: GUID 0x%016" PRIx64 " not found in the fabric "
				"reachable from %s port %u\n", guid, locals[which].ca, locals[which].port);
			return EXIT_RUNTIME;
		}
		lid = l;
	}
	if (mad_session_open(&s, ctx, &locals[which], why, sizeof(why))) {
		fprintf(stderr, "fabtop probe: %s\n", why);
		return EXIT_RUNTIME;
	}
	if (!port_usable(s, &locals[which])) {
		mad_session_close(s);
		return EXIT_RUNTIME;
	}
	got = ping_loop(ctx, s, &locals[which], (uint16_t)lid, count, timeout_ms);
	/* Out before anything else can block (umad2sim's exit handler talks to the simulator). */
	fflush(stdout);
	mad_session_close(s);
	return got ? EXIT_OK : EXIT_RUNTIME;
}
