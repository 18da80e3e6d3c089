// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop probe: the RDMA probe from the command line (client, or server with --listen). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "source/source.h"
#include "opts.h"
#include "derive/units.h"
#include "outbuf.h"
#include "probe/explain.h"
#include "probe/probe.h"
#include "probe/wire.h"
#include "report/json.h"
#include "util.h"

#define MAX_CONNS 256
/* the event channel, a completion channel per connection (closing ones too), stdout */
#define MAX_FDS (1 + 2 * MAX_CONNS + 1)
/* Lines waiting for a slow stdout: a few hundred events' worth, then they are dropped and counted. */
#define OUT_BUF (64 * 1024)
/* At exit, how long a blocked stdout may hold the summary back. */
#define OUT_DRAIN_MS 1000

static volatile sig_atomic_t stop_signals;

static void on_signal(int sig)
{
	(void)sig;
	stop_signals++;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: fabtop probe PEER [--from ADDR|IFACE] [-p PORT] [-C COUNT] [-S SIZE]\n"
		"                    [--mode rping|bw|lat] [-Q DEPTH] [--op write|send] [--timeout-ms N] [--idle-ms N] [--spin-us N] [--json]\n"
		"       fabtop probe --listen [ADDR] [-p PORT] [--max-conns N] [--max-conns-per-source N] [--once]\n"
		"                    [--spin-us N] [--json]\n"
		"       fabtop probe -c -a PEER [-I SOURCE] [-p PORT] [-C COUNT] [-S SIZE] [-vVd]   (rping's options)\n"
		"       fabtop probe -s [-a ADDR] [-p PORT] [-P] [-vVd]\n"
		"       fabtop probe --lid LID | --guid GUID   (InfiniBand: an ibping over MADs, no IP needed;\n"
		"                                               see fabtop probe --lid 1 --help)\n\n"
		"An RDMA CM connection to PEER, with the event timeline and live statistics.\n"
		"  rping  rping's protocol: works against 'rping -s' (and serves 'rping -c')\n"
		"  bw     RDMA WRITE stream (SIZE bytes, DEPTH outstanding); needs fabtop --listen\n"
		"  lat    SEND ping-pong: round-trip min/p50/p99/max; needs fabtop --listen\n\n"
		"  --from ADDR|IFACE  source address, or an interface's IPv4 address\n"
		"  -p, --port N       port (default %d, rping's)\n"
		"  -C, --count N      pings/writes/round trips (defaults: rping 10, bw 1000, lat 1000; 0: until ^C)\n"
		"  -S, --size N       bytes per message (defaults: rping 64, bw 65536, lat 64)\n"
		"  -Q, --depth N      bw: writes in flight (default 16)\n"
		"  --op write|send    bw: RDMA WRITEs (default) or SENDs the server receives and counts\n"
		"  --timeout-ms N     limit for each step: address, route, connect (default 3000)\n"
		"  --spin-us N        busy-poll completions up to N us before sleeping (as perftest; default 0)\n"
		"  --idle-ms N        data phase: no completion this long fails; server: drops a client (default 10000)\n"
		"  --listen [ADDR]    serve instead of connect (ADDR default: all)\n"
		"  --max-conns N      server: connections at once (default 16); when full, the least useful\n"
		"                     of those moving under 1/100000 of the port's rate is evicted for a newcomer\n"
		"  --max-conns-per-source N  server: connections at once from one /24 (IPv6: /64)\n"
		"                     (default half of --max-conns, at least 1)\n"
		"  --once             server: end after the first client served (like rping -s)\n"
		"rping's options, with rping's meaning (a command line from a howto works):\n"
		"  -s                 server: --listen, ending after one client as rping -s does (-P: until ^C)\n"
		"  -c                 client; -C defaults to 0 (until ^C) as in rping\n"
		"  -a ADDR            server: the address to bind; client: the peer\n"
		"  -I ADDR            client: the source address (--from)\n"
		"  -P                 server: persistent, serve clients until ^C\n"
		"  -v, --show-data    print each ping's data (client)\n"
		"  -V, --validate     check each echo against what was sent (fabtop always does: a mismatch\n"
		"                     fails the probe, as with rping -V)\n"
		"  -d, --debug        print the probe's settings and each state it goes through\n"
		"  -s/-c with -a is rping's syntax; PEER and --listen fabtop's: either works, not both roles.\n"
		"Exit status: 0 the probe succeeded, 1 it failed (the timeline says why), 2 usage.\n",
		PROBE_DEFAULT_PORT);
}

/*
 * What the command line asked beyond struct probe_opts: rping's way of
 * naming the role and addresses (-s/-c, -a, -I, -P), resolved against
 * fabtop's own (PEER, --listen, --from) once every option is read, and
 * what only the command line prints (-v, -d).
 */
struct probe_cli {
	int role;		/* as rping's cb->server: -1 not given, 0 -c, 1 -s */
	const char *addr;	/* -a: the server's bind address, or the client's peer */
	const char *source;	/* -I: the client's source address */
	bool persistent;	/* -P: the server serves until stopped */
	bool show_data;		/* -v: each ping's data */
	bool debug;		/* -d: settings and state changes */
};

static int parse_num(const char *opt, const char *s, uint64_t max, uint64_t *out)
{
	if (util_parse_u64(s, 10, max, out) == 0)
		return 0;
	if (!s || *s < '0' || *s > '9')
		fprintf(stderr, "fabtop probe: %s wants a number, not '%s'\n", opt, s ? s : "");
	else
		fprintf(stderr, "fabtop probe: %s wants a number from 0 to %" PRIu64 ", not '%s'\n", opt, max, s);
	return -1;
}

/* Every line of a simulated probe says so (the demo fabric's exchange, doc/demo.md). */
static const char *tag_of(const struct probe_status *st)
{
	return st->simulated ? "[SIMULATED] " : "";
}

static void print_event(struct outbuf *ob, const struct probe_status *st, const struct probe_event *e)
{
	char rping[PROBE_EVENT_NAME_MAX + 48];

	outbuf_printf(ob, "  %s+%" PRIu64 ".%03" PRIu64 "s %-16s %s\n", tag_of(st), e->t_ns / UINT64_C(1000000000),
	       e->t_ns / UINT64_C(1000000) % 1000, e->name, e->text);
	/* the words rping prints for it, the ones a search finds */
	if (probe_event_rping_line(e, rping, sizeof(rping)))
		outbuf_printf(ob, "  %s%24s rping says: %s\n", tag_of(st), "", rping);
}

static void print_new_events(struct outbuf *ob, const struct probe_status *st, uint64_t *seen)
{
	uint64_t first = st->events_total - st->n_events, i;

	if (*seen < first) {
		outbuf_printf(ob, "  %s... %" PRIu64 " events not shown\n", tag_of(st), first - *seen);
		*seen = first;
	}
	for (i = *seen; i < st->events_total; i++)
		print_event(ob, st, &st->events[i - first]);
	*seen = st->events_total;
	outbuf_flush(ob);
}

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static void print_summary(struct outbuf *ob, const struct probe_status *st)
{
	char avg[32], per_s[48] = "";

	/* a server that never listened has served nothing: its counters would read as an idle server */
	if (st->listen && st->state == PROBE_FAILED && !st->local[0]) {
		outbuf_printf(ob, "%sresult: FAILED: %s (not serving)\n", tag_of(st), st->error);
		return;
	}
	if (st->listen) {
		outbuf_printf(ob, "server: %" PRIu64 " connections served, %" PRIu64 " rejected, %" PRIu64 " dropped; "
			      "%" PRIu64 " messages, %" PRIu64 " bytes, %" PRIu64 " payload errors\n",
			      st->conns_done, st->conns_rejected, st->conns_dropped, st->msgs, st->bytes,
			      st->payload_errors);
		return;
	}
	if (st->state != PROBE_DONE && st->state != PROBE_FAILED) {
		outbuf_printf(ob, "%sresult: interrupted while %s\n", tag_of(st), probe_state_name(st->state));
		return;
	}
	if (st->state != PROBE_DONE) {
		outbuf_printf(ob, "%sresult: FAILED: %s\n", tag_of(st), st->error);
		return;
	}
	units_bitrate(avg, sizeof(avg), st->avg_gbps * 1e9);
	if (st->data_ns)
		snprintf(per_s, sizeof(per_s), ", %.0f msg/s", (double)st->msgs * 1e9 / (double)st->data_ns);
	/* one piece per line: a line is dropped whole or written whole */
	outbuf_printf(ob, "%sresult: ok: %" PRIu64 " %s, %" PRIu64 " bytes in %.3f s, %s%s%s\n",
		      tag_of(st), st->msgs, st->mode == PROBE_MODE_RPING ? "pings" : st->mode == PROBE_MODE_LAT ? "round trips" :
		      st->bw_send ? "sends" : "writes",
		      st->bytes, (double)st->data_ns / 1e9, avg, per_s,
		      st->mode != PROBE_MODE_RPING ? "" : st->payload_errors ? ", payload MISMATCH" : ", payload ok");
	if (st->lat.n)
		outbuf_printf(ob, "%sround trip (us): min %.1f  p50 %.1f  p99 %.1f  max %.1f  (%" PRIu64 " samples)\n",
			      tag_of(st), us(st->lat.min_ns), us(st->lat.p50_ns), us(st->lat.p99_ns), us(st->lat.max_ns), st->lat.n);
	/* ib_send_lat reports half the round trip: the same, to compare like for like. */
	if (st->lat.n && st->mode == PROBE_MODE_LAT)
		outbuf_printf(ob, "%sone way (us, half the round trip, as ib_send_lat reports): min %.1f  p50 %.1f  "
			      "p99 %.1f  max %.1f\n", tag_of(st), us(st->lat.min_ns) / 2, us(st->lat.p50_ns) / 2,
			      us(st->lat.p99_ns) / 2, us(st->lat.max_ns) / 2);
}

/* The CM timeline: every event, each marked simulated when the probe was. */
static void json_events(struct json *j, const struct probe_status *st)
{
	json_key(j, "events");
	json_arr_begin(j);
	for (unsigned int i = 0; i < st->n_events; i++) {
		const struct probe_event *e = &st->events[i];

		json_obj_begin(j);
		if (st->simulated) {
			json_key(j, "simulated");
			json_bool(j, true);
		}
		json_key(j, "t_s");
		json_double(j, (double)e->t_ns / 1e9, 6);
		json_key(j, "event");
		json_str(j, e->name);
		json_key(j, "status");
		json_i64(j, e->status);
		json_key(j, "error");
		json_bool(j, e->error);
		json_key(j, "text");
		json_str(j, e->text);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* The line rping prints for the failure that ended the probe, null when rping would print none. */
static void json_rping_error(struct json *j, const struct probe_status *st)
{
	char line[PROBE_EVENT_NAME_MAX + 48];

	for (unsigned int i = st->n_events; i-- > 0;)
		if (st->events[i].error && probe_event_rping_line(&st->events[i], line, sizeof(line))) {
			json_str(j, line);
			return;
		}
	json_null(j);
}

/* Round-trip latency in microseconds, null without samples. */
static void json_latency(struct json *j, const struct probe_status *st)
{
	json_key(j, "latency_us");
	if (!st->lat.n) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_key(j, "n");
	json_u64(j, st->lat.n);
	json_key(j, "min");
	json_double(j, us(st->lat.min_ns), 3);
	json_key(j, "p50");
	json_double(j, us(st->lat.p50_ns), 3);
	json_key(j, "p99");
	json_double(j, us(st->lat.p99_ns), 3);
	json_key(j, "max");
	json_double(j, us(st->lat.max_ns), 3);
	/* half the round trip, as ib_send_lat reports it */
	json_key(j, "one_way_p50");
	json_double(j, us(st->lat.p50_ns) / 2, 3);
	json_key(j, "one_way_p99");
	json_double(j, us(st->lat.p99_ns) / 2, 3);
	json_obj_end(j);
}

/* The probe's JSON document, member by member in its documented order (doc/probe.md). */
static void json_status(const struct probe_opts *o, const struct probe_status *st, const struct explain *ex,
			const char *from)
{
	struct json j;
	unsigned int i;

	json_init(&j, stdout);
	json_obj_begin(&j);
	json_key(&j, "simulated");
	json_bool(&j, st->simulated);
	json_key(&j, "role");
	json_str(&j, st->listen ? "server" : "client");
	json_key(&j, "mode");
	json_str(&j, probe_mode_name(st->mode));
	if (!st->listen) {
		json_key(&j, "peer");
		json_str(&j, o->peer);
	}
	json_key(&j, "port");
	json_u64(&j, o->port);
	json_key(&j, "local");
	json_str_or_null(&j, st->local);
	json_key(&j, "remote");
	json_str_or_null(&j, st->remote);
	json_key(&j, "device");
	json_str_or_null(&j, st->device);
	json_key(&j, "gid_index");
	if (st->sgid_index >= 0)
		json_u64(&j, (uint64_t)st->sgid_index);
	else
		json_null(&j);
	json_key(&j, "gid_type");
	json_str_or_null(&j, st->sgid_type);
	json_key(&j, "size");
	json_u64(&j, st->size);
	if (st->mode == PROBE_MODE_BW) {
		json_key(&j, "op");
		json_str(&j, st->bw_send ? "send" : "write");
		json_key(&j, "depth");
		json_u64(&j, st->depth);
	}
	json_key(&j, "state");
	json_str(&j, probe_state_name(st->state));
	json_key(&j, "ok");
	json_bool(&j, st->state == PROBE_DONE);
	json_key(&j, "error");
	json_str_or_null(&j, st->error);
	json_key(&j, "rping_error");
	json_rping_error(&j, st);
	json_events(&j, st);
	json_key(&j, "cause");
	json_str_or_null(&j, explain_cause_str(ex->cause));
	json_key(&j, "evidence");
	json_arr_begin(&j);
	for (i = 0; i < ex->n; i++)
		json_str(&j, ex->line[i]);
	json_arr_end(&j);
	json_key(&j, "findings_cited");
	json_arr_begin(&j);
	for (i = 0; i < ex->ncited; i++)
		json_str(&j, ex->cited[i]);
	json_arr_end(&j);
	json_key(&j, "msgs");
	json_u64(&j, st->msgs);
	json_key(&j, "bytes");
	json_u64(&j, st->bytes);
	json_key(&j, "payload_errors");
	json_u64(&j, st->payload_errors);
	json_key(&j, "seconds");
	json_double(&j, (double)st->data_ns / 1e9, 6);
	json_key(&j, "avg_gbps");
	json_double(&j, st->avg_gbps, 6);
	json_key(&j, "msgs_per_s");
	json_double(&j, st->data_ns ? (double)st->msgs * 1e9 / (double)st->data_ns : 0, 1);
	json_latency(&j, st);
	if (st->simulated) {
		json_key(&j, "simulated_by");
		json_str(&j, from);
	}
	if (st->listen) {
		json_key(&j, "conns_done");
		json_u64(&j, st->conns_done);
		json_key(&j, "conns_rejected");
		json_u64(&j, st->conns_rejected);
		json_key(&j, "conns_dropped");
		json_u64(&j, st->conns_dropped);
	}
	json_obj_end(&j);
	json_end(&j);
}

/*
 * The probe from the source, which decides what a probe is (the host's
 * RDMA CM, or the demo's simulated exchange), and the first lines; NULL
 * (said on stderr, the source closed) when there is none.
 */
static struct probe *probe_begin(const struct fab_ctx *ctx, const struct probe_opts *o, bool json,
				 struct outbuf *ob, struct source **srcp, char *from, size_t fsize)
{
	struct source *src = source_open(ctx);
	const struct probe_status *st;
	struct probe *p;
	int err = -ENOMEM;

	p = src ? source_probe_start(src, o, &err) : NULL;
	if (!p) {
		if (src && err == -EOPNOTSUPP) {
			source_describe(src, from, fsize);
			fprintf(stderr, "fabtop probe: %s cannot probe: a probe needs the live host (or --demo)\n", from);
		} else {
			fprintf(stderr, "fabtop probe: out of memory\n");
		}
		source_close(src);
		return NULL;
	}
	*srcp = src;
	source_describe(src, from, fsize);
	st = probe_status(p);
	if (json)
		return p;
	if (st->simulated)
		outbuf_printf(ob, "fabtop probe: SIMULATED on the %s: no packet leaves this machine\n", from);
	/* a server says it serves once it listens (print_serving) */
	if (!o->listen)
		outbuf_printf(ob, "%sfabtop probe: %s port %u, %s mode%s%s%s\n", tag_of(st), o->peer, o->port,
			      probe_mode_name(o->mode), o->from ? ", from " : "", o->from ? o->from : "",
			      o->count ? "" : ", until ^C");
	return p;
}

/* The server's first line, once it listens: a bind that fails never claims to serve. */
static void print_serving(struct outbuf *ob, const struct probe_opts *o, const struct probe_status *st,
			  bool *said)
{
	if (*said || st->state != PROBE_LISTENING)
		return;
	*said = true;
	outbuf_printf(ob, "%sfabtop probe: serving on %s (%s)\n", tag_of(st), st->local,
		      o->serve_conns == 1 ? "one client, then ends; ^C ends sooner" : "^C ends");
}

/*
 * -v: each ping's data, as rping prints it. The client compares every echo
 * with what it sent and fails at the first that differs, so the data of a
 * ping counted as done is the sent data, which is rping's pattern for its
 * number: it is rebuilt here rather than kept per ping.
 */
static void print_ping_data(struct outbuf *ob, const struct probe_status *st, uint64_t *seen)
{
	char *buf;

	if (st->listen || st->mode != PROBE_MODE_RPING || *seen >= st->msgs || !st->size)
		return;
	buf = malloc(st->size);
	if (!buf)
		return;
	for (; *seen < st->msgs; (*seen)++) {
		wire_rping_payload_fill(buf, st->size, *seen);
		outbuf_printf(ob, "%sping data: %s\n", tag_of(st), buf);
	}
	free(buf);
}

/* -d: the settings in force, then every state the probe goes through. */
static void print_debug(struct outbuf *ob, const struct probe_opts *o, const struct probe_status *st,
			int *last_state)
{
	if (*last_state < 0 && st->listen)
		outbuf_printf(ob, "%sdebug: server, port %u, bind %s, %s\n", tag_of(st), o->port,
			      o->listen_addr ? o->listen_addr : "any",
			      o->serve_conns == 1 ? "one client" : "clients until ^C");
	else if (*last_state < 0)
		outbuf_printf(ob, "%sdebug: client, %s mode, port %u, %u-byte messages, count %" PRIu64 "%s, peer %s%s%s\n",
			      tag_of(st), probe_mode_name(st->mode), o->port, st->size, o->count,
			      o->count ? "" : " (until ^C)", o->peer, o->from ? ", source " : "", o->from ? o->from : "");
	if (*last_state == (int)st->state)
		return;
	*last_state = (int)st->state;
	outbuf_printf(ob, "%sdebug: state %s\n", tag_of(st), probe_state_name(st->state));
}

/* A once-a-second progress line while data moves. */
static void print_live(struct outbuf *ob, const struct probe_status *st)
{
	char r[32], conns[32] = "";

	if (st->listen)
		snprintf(conns, sizeof(conns), ", %u connections", st->conns_active);
	outbuf_printf(ob, "  %slive: %s, %.0f msg/s, %" PRIu64 " messages%s\n", tag_of(st),
		      units_bitrate(r, sizeof(r), st->gbps * 1e9), st->msgs_per_s, st->msgs, conns);
}

/* What the text output has said so far. */
struct text_seen {
	uint64_t events;	/* timeline entries printed */
	uint64_t pings;		/* -v: pings whose data is printed */
	uint64_t live_ns;	/* the last progress line */
	int state;		/* -d: the last state printed, -1 none yet */
	bool serving;		/* the server's first line is out */
};

/* The text lines of whatever happened since the last call. */
static void print_progress(struct outbuf *ob, const struct probe_opts *o, const struct probe_cli *cli,
			   const struct probe_status *st, struct text_seen *ts, uint64_t now)
{
	if (cli->debug)
		print_debug(ob, o, st, &ts->state);
	print_new_events(ob, st, &ts->events);
	print_serving(ob, o, st, &ts->serving);
	if (cli->show_data)
		print_ping_data(ob, st, &ts->pings);
	if ((st->state == PROBE_RUNNING || (st->state == PROBE_LISTENING && st->conns_active)) &&
	    st->gbps > 0 && now - ts->live_ns >= 1000000000ull) {
		ts->live_ns = now;
		print_live(ob, st);
	}
	outbuf_flush(ob);
}

/* The text report's end: the last events, the summary and the why; what a blocked stdout cost. */
static void print_end(struct outbuf *ob, const struct probe_opts *o, const struct probe_cli *cli,
		      const struct probe_status *st, const struct explain *ex, struct text_seen *ts)
{
	print_progress(ob, o, cli, st, ts, util_now_ns());
	print_summary(ob, st);
	for (unsigned int k = 0; k < ex->n; k++)
		outbuf_printf(ob, "  %s%s%s\n", tag_of(st), k ? "" : "why: ", ex->line[k]);
	/* a reader that never comes holds the exit back a second at most */
	outbuf_drain(ob, OUT_DRAIN_MS);
	if (ob->dropped_total || outbuf_pending(ob))
		fprintf(stderr, "fabtop probe: %" PRIu64 " lines of output dropped, %zu bytes never written: "
			"standard output was blocked\n", ob->dropped_total, outbuf_pending(ob) ? ob->len : 0);
}

/* The probe's poll loop with its signals and progress lines, then the final report. */
static int run(const struct fab_ctx *ctx, const struct probe_opts *o, const struct probe_cli *cli, bool json)
{
	struct text_seen ts = { .state = -1 };
	struct explain ex;
	struct outbuf ob;
	struct pollfd fds[MAX_FDS];
	struct sigaction sa;
	const struct probe_status *st;
	struct probe *p;
	struct source *src;
	char from[256];
	uint64_t now, stop_ns = 0;
	sig_atomic_t stop_seen = 0;
	bool stopped = false;
	int n, rc;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll() returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/*
	 * Text goes out through a bounded buffer and non-blocking writes: a
	 * stdout nobody reads must not stop the loop (and a server's every
	 * client). --json writes once, after the loop, as before.
	 */
	fflush(stdout);
	n = outbuf_init(&ob, STDOUT_FILENO, OUT_BUF);
	if (n && !json)
		fprintf(stderr, "fabtop probe: standard output may block: %s\n", strerror(-n));
	p = probe_begin(ctx, o, json, &ob, &src, from, sizeof(from));
	if (!p) {
		outbuf_free(&ob);
		return EXIT_RUNTIME;
	}
	if (!json)
		print_progress(&ob, o, cli, probe_status(p), &ts, util_now_ns());
	while (probe_active(p)) {
		now = util_now_ns();
		if (stop_signals && !stopped) {
			probe_stop(p);
			stopped = true;
			stop_ns = now;
			stop_seen = stop_signals;
		}
		/* asked again (not the same signal twice, as timeout(1) sends to the
		 * command and its group): leave now, probe_free() cleans up */
		if (stopped && stop_signals > stop_seen && now - stop_ns > 500000000ull)
			break;
		stop_seen = stopped && now - stop_ns <= 500000000ull ? stop_signals : stop_seen;
		/* a stop that ended the probe at once (before the data phase, or a simulated one) leaves nothing to wait for */
		if (!probe_active(p))
			break;
		n = probe_fds(p, fds, MAX_FDS - 1);
		if (outbuf_pending(&ob)) {
			fds[n].fd = ob.fd;
			fds[n].events = POLLOUT;
			fds[n].revents = 0;
			n++;
		}
		if (poll(fds, (nfds_t)n, probe_timeout_ms(p, now)) < 0 && errno != EINTR) {
			fprintf(stderr, "fabtop probe: poll: %s\n", strerror(errno));
			break;
		}
		now = util_now_ns();
		probe_handle(p, now);
		if (!json)
			print_progress(&ob, o, cli, probe_status(p), &ts, now);
		outbuf_flush(&ob);
	}
	st = probe_status(p);
	/* a failure gets the doctor's view of this source and peer */
	explain_failure_src(src, o, st, &ex);
	if (json)
		json_status(o, st, &ex, from);
	else
		print_end(&ob, o, cli, st, &ex, &ts);
	outbuf_free(&ob);
	rc = st->state == PROBE_FAILED ? EXIT_RUNTIME : EXIT_OK;
	if (probe_active(p))
		rc = EXIT_RUNTIME;	/* interrupted twice */
	probe_free(p);
	source_close(src);
	return rc;
}

enum {
	OPT_LISTEN = OPT_FIRST_OWN, OPT_ONCE, OPT_FROM, OPT_MODE, OPT_OP, OPT_TIMEOUT_MS, OPT_IDLE_MS,
	OPT_SPIN_US, OPT_MAX_CONNS, OPT_MAX_PER_SOURCE,
};


/* --count here is the probe's -C (the global --count is taken before the command only). */
static const struct option own[] = {
	{ "listen", no_argument, NULL, OPT_LISTEN },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "port", required_argument, NULL, 'p' },
	{ "count", required_argument, NULL, 'C' },
	{ "size", required_argument, NULL, 'S' },
	{ "depth", required_argument, NULL, 'Q' },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "op", required_argument, NULL, OPT_OP },
	{ "timeout-ms", required_argument, NULL, OPT_TIMEOUT_MS },
	{ "idle-ms", required_argument, NULL, OPT_IDLE_MS },
	{ "spin-us", required_argument, NULL, OPT_SPIN_US },
	{ "max-conns", required_argument, NULL, OPT_MAX_CONNS },
	{ "max-conns-per-source", required_argument, NULL, OPT_MAX_PER_SOURCE },
	/* rping's -v -V -d; naming 'V' here keeps -V from meaning --version (opts.h) */
	{ "show-data", no_argument, NULL, 'v' },
	{ "validate", no_argument, NULL, 'V' },
	{ "debug", no_argument, NULL, 'd' },
	{ NULL, 0, NULL, 0 },
};

/* One of the probe's own options into o or cli; -1 (the message printed) for a bad value. */
static int probe_option(struct probe_opts *o, struct probe_cli *cli, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 's':
	case 'c':
		if (cli->role >= 0 && cli->role != (c == 's')) {
			fprintf(stderr, "fabtop probe: -s (server) and -c (client) together: which one?\n");
			return -1;
		}
		cli->role = c == 's';
		break;
	case 'a':
		cli->addr = arg;
		break;
	case 'I':
		cli->source = arg;
		break;
	case 'P':
		cli->persistent = true;
		break;
	case 'v':
		cli->show_data = true;
		break;
	case 'V':
		break;	/* the client compares every echo whatever is asked (rping -V's check) */
	case 'd':
		cli->debug = true;
		break;
	case OPT_LISTEN:
		o->listen = true;
		break;
	case OPT_ONCE:
		o->serve_conns = 1;
		break;
	case OPT_FROM:
		o->from = arg;
		break;
	case 'p':
		if (parse_num("--port", arg, 65535, &v) || !v)
			return -1;
		o->port = (uint16_t)v;
		break;
	case 'C':
		if (parse_num("-C", arg, UINT64_MAX, &v))
			return -1;
		o->count = v;
		break;
	case 'S':
		if (parse_num("-S", arg, 1u << 20, &v) || !v)
			return -1;
		o->size = (uint32_t)v;
		break;
	case 'Q':
		if (parse_num("-Q", arg, 64, &v) || !v)
			return -1;
		o->depth = (uint32_t)v;
		break;
	case OPT_MODE:
		if (probe_mode_parse(arg, &o->mode)) {
			fprintf(stderr, "fabtop probe: --mode is rping, bw or lat, not '%s'\n", arg);
			return -1;
		}
		break;
	case OPT_OP:
		if (strcmp(arg, "write") && strcmp(arg, "send")) {
			fprintf(stderr, "fabtop probe: --op is write or send, not '%s'\n", arg);
			return -1;
		}
		o->bw_send = !strcmp(arg, "send");
		break;
	case OPT_TIMEOUT_MS:
		if (parse_num("--timeout-ms", arg, 600000, &v) || !v)
			return -1;
		o->timeout_ms = (uint32_t)v;
		break;
	case OPT_IDLE_MS:
		if (parse_num("--idle-ms", arg, 3600000, &v) || !v)
			return -1;
		o->idle_ms = (uint32_t)v;
		break;
	case OPT_SPIN_US:
		if (parse_num("--spin-us", arg, 1000000, &v))
			return -1;
		o->spin_us = (uint32_t)v;
		break;
	case OPT_MAX_CONNS:
		if (parse_num("--max-conns", arg, MAX_CONNS, &v) || !v)
			return -1;
		o->max_conns = (uint32_t)v;
		break;
	case OPT_MAX_PER_SOURCE:
		if (parse_num("--max-conns-per-source", arg, MAX_CONNS, &v) || !v)
			return -1;
		o->max_per_source = (uint32_t)v;
		break;
	}
	return 0;
}

/* A client's -I is --from, in one of the two spellings. 0, or -1 with the message printed. */
static int probe_rping_source(struct probe_opts *o, const struct probe_cli *cli)
{
	if (cli->source && o->from) {
		fprintf(stderr, "fabtop probe: -I and --from both give the source address: one of them\n");
		return -1;
	}
	if (cli->source)
		o->from = cli->source;
	return 0;
}

/*
 * rping's -s/-c, -a, -I and -P as fabtop's --listen, PEER and --from, with
 * rping's rules: -a and -P need a role, -c a peer; -I is the client's.
 * *peer is -a's address when given. -1 with the message printed.
 */
static int probe_rping_role(struct probe_opts *o, const struct probe_cli *cli, const char **peer)
{
	if (cli->role < 0) {
		if (cli->addr || cli->persistent) {
			fprintf(stderr, "fabtop probe: %s needs -s (server) or -c (client), as in rping\n",
				cli->addr ? "-a" : "-P");
			return -1;
		}
		return probe_rping_source(o, cli);
	}
	if (cli->role == 0 && o->listen) {
		fprintf(stderr, "fabtop probe: -c (client) and --listen together: which one?\n");
		return -1;
	}
	if (cli->addr && *peer) {
		fprintf(stderr, "fabtop probe: -a %s and '%s': one %s only\n", cli->addr, *peer,
			cli->role ? "address to bind" : "peer");
		return -1;
	}
	if (cli->addr)
		*peer = cli->addr;
	if (cli->role == 1) {
		if (cli->source) {
			fprintf(stderr, "fabtop probe: -I is the client's source address; a server (-s) binds with -a\n");
			return -1;
		}
		o->listen = true;
		/* rping -s serves one client and ends; -P keeps serving */
		if (!cli->persistent && !o->serve_conns)
			o->serve_conns = 1;
		return 0;
	}
	if (cli->persistent) {
		fprintf(stderr, "fabtop probe: -P is for the server (-s)\n");
		return -1;
	}
	if (!*peer) {
		fprintf(stderr, "fabtop probe: -c needs -a ADDR, the server to connect to\n");
		return -1;
	}
	return probe_rping_source(o, cli);
}

/* PEER (or --listen's ADDR) and the checks between options; -1 with the message printed. */
static int probe_target(struct probe_opts *o, const struct probe_cli *cli, int argc, char **argv)
{
	const char *peer = NULL;

	for (int i = optind; i < argc; i++) {
		if (peer) {
			fprintf(stderr, "fabtop probe: one peer only ('%s' and '%s')\n", peer, argv[i]);
			return -1;
		}
		peer = argv[i];
	}
	if (probe_rping_role(o, cli, &peer))
		return -1;
	if (o->listen) {
		o->listen_addr = peer;
		if (o->from) {
			fprintf(stderr, "fabtop probe: --from is for clients; give the server's address after --listen\n");
			return -1;
		}
		return 0;
	}
	if (!peer) {
		fprintf(stderr, "fabtop probe: which peer? (fabtop probe PEER, or --listen)\n");
		return -1;
	}
	if (o->serve_conns) {
		fprintf(stderr, "fabtop probe: --once is for --listen\n");
		return -1;
	}
	o->peer = peer;
	return 0;
}

int cmd_probe(struct fab_ctx *ctx, int argc, char **argv)
{
	struct option longopts[OPTS_MAX];
	struct probe_cli cli = { .role = -1 };
	struct probe_opts o;
	bool count_given;
	int c, stop;

	/*
	 * Other probe kinds hook in here, before the RDMA CM options are parsed
	 * (e.g. an ibping-style MAD probe for --lid/--guid).
	 */
	if (cmd_probe_mad_wanted(argc, argv))
		return cmd_probe_mad(ctx, argc, argv);

	probe_opts_init(&o);
	count_given = ctx->count > 0;
	if (ctx->count > 0)
		o.count = (uint64_t)ctx->count;	/* the global --count before the command means -C here */
	opts_merge(longopts, own);
	while ((c = opts_next(ctx, "probe", argc, argv, ":hVp:C:S:Q:sca:I:Pvd", longopts, &stop)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		if (probe_option(&o, &cli, c, optarg))
			goto bad;
		count_given |= c == 'C';
	}
	/* the mode's default count, as --help says (-C 0: until ^C); rping's client pings until stopped */
	if (!count_given)
		o.count = cli.role == 0 ? 0 : probe_mode_default_count(o.mode);
	if (stop == EXIT_USAGE)
		goto bad;
	if (stop >= 0)
		return stop;
	if (probe_target(&o, &cli, argc, argv))
		goto bad;
	return run(ctx, &o, &cli, ctx->json);
bad:
	fprintf(stderr, "Try 'fabtop probe --help'.\n");
	return EXIT_USAGE;
}
