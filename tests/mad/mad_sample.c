// SPDX-License-Identifier: GPL-2.0-or-later
/* Test helper: PMA samples of every local IB port and its partner through the async view, with rates. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>

#include <infiniband/umad.h>
#include <fcntl.h>
#include <unistd.h>

#include "kernel/host.h"
#include "mad/mad_fabric.h"
#include "mad/mad_subnet.h"
#include <sys/resource.h>
#include "ctx.h"
#include "derive/counters.h"
#include "model/ibfabric.h"
#include "util.h"

/*
 * Usage: mad_sample INTERVAL_MS COUNT, mad_sample sweep MAX_NODES [MAX_MS [pma]] (pma: the counters of
 * every port too), or mad_sample subnet INTERVAL_S ROUNDS [PARTIAL_S [SMPS]] (the live core's subnet). Drives the view the way the TUI does
 * (fds + timeout + step), prints for each sample and port the byte rates
 * and error deltas of both ends, in a line-oriented form tests can grep.
 */
static void print_end(const char *who, const struct ib_pma *p, unsigned int sample)
{
	uint64_t dt = p->sample_ns - p->prev_sample_ns;

	for (size_t i = 0; i < p->n; i++) {
		const struct fab_counter *c = &p->c[i];
		double r;
		uint64_t d;

		if (c->kind == COUNTER_KIND_DATA && counter_bytes_rate(c, dt, &r))
			printf("sample %u %s %s bytes_per_s=%.0f value=%" PRIu64 " dt_ns=%" PRIu64 "\n",
			       sample, who, c->name, r, c->value, dt);
		else if (c->kind == COUNTER_KIND_ERROR && counter_delta(c, &d) && d)
			printf("sample %u %s %s delta=%" PRIu64 "\n", sample, who, c->name, d);
	}
}

static void run_until_idle(struct mad_fabric *v, uint64_t deadline)
{
	while (!mad_fabric_idle(v) && util_now_ns() < deadline) {
		struct pollfd pfd[8];
		int fds[8], n = mad_fabric_fds(v, fds, 8), t = mad_fabric_timeout_ms(v, util_now_ns());

		for (int i = 0; i < n; i++)
			pfd[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
		if (t != 0)
			poll(pfd, (nfds_t)n, t < 0 ? 100 : t);
		mad_fabric_step(v, util_now_ns());
	}
}

/*
 * mad_sample pingd: an ibping server (vendor class 0x32, OUI 0x001405:
 * answers a Get with GetResp carrying the host name) for the simulator.
 * ibsim hands such requests only to clients attached as "SM", and umad2sim
 * crashes when such a client has no agent for a request that arrives (the
 * SMInfo the real SM sends it), so this one registers the SMI classes too,
 * drops what arrives there, and claims the SM role only after registering.
 * Runs until killed.
 */
static int pingd(void)
{
	char cas[4][UMAD_CA_NAME_LEN];
	uint8_t oui[3] = { 0x00, 0x14, 0x05 };
	size_t usz;
	void *umad;
	int port, agent;

	umad_init();
	if (umad_get_cas_names(cas, 4) < 1 || (port = umad_open_port(cas[0], 0)) < 0) {
		fprintf(stderr, "pingd: no port\n");
		return 1;
	}
	usz = umad_size() + 256 + 64;
	umad = calloc(1, usz);
	agent = umad_register_oui(port, 0x32, 0, oui, NULL);
	umad_register(port, 0x01, 1, 0, NULL);
	umad_register(port, 0x81, 1, 0, NULL);
	if (!umad || agent < 0) {
		fprintf(stderr, "pingd: cannot register class 0x32\n");
		return 1;
	}
	/*
	 * Only now claim to be an SM (opening issmN, as opensm does): requests
	 * then start to arrive, and every class has an agent to land on.
	 */
	{
		char issm[256];

		if (umad_get_issm_path(cas[0], 0, issm, sizeof(issm)) < 0 || open(issm, O_RDWR) < 0) {
			fprintf(stderr, "pingd: cannot open the issm device\n");
			return 1;
		}
	}
	printf("pingd ready\n");
	fflush(stdout);
	for (;;) {
		int len = 256, rc = umad_recv(port, umad, &len, -1);
		uint8_t *m = umad_get_mad(umad);

		if (rc < 0 || len < 64 || m[1] != 0x32 || m[3] != 0x01)
			continue;
		m[3] = 0x81;	/* GetResp */
		memset(m + 40, 0, 216);
		gethostname((char *)m + 40, 64);
		umad_send(port, agent, umad, 256, 0, 0);
	}
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

/*
 * mad_sample subnet INTERVAL_S ROUNDS [PARTIAL_S [SMPS]]: the live core's subnet (mad/mad_subnet.h,
 * its partial showings every PARTIAL_S when given and not 0, its sweeps'
 * SMPs in flight SMPS, as --fabric-smps sets them)
 * driven as the monitor drives it (its fds and timeout, then a step): when
 * it first showed a partial sweep (the nodes so far, from start), the
 * first whole sweep's time (from start; the sweep's own; the most MADs it had in
 * flight), then for each round of PMA samples its wall time (from
 * the interval's start to the last answer), the ports it asked, and the CPU
 * the process used since the previous round, the ClassPortInfo MADs
 * saved so far (nodes that took their model's answer) and the MADs the
 * round sent; at the end the wakeups.
 */
static int subnet(const struct fab_ctx *ctx, double interval_s, long rounds, double partial_s)
{
	struct mad_subnet *sn = mad_subnet_new(ctx);
	uint64_t t0 = util_now_ns(), deadline = t0 + (uint64_t)((interval_s * (double)rounds + 60) * 1e9);
	unsigned long wakeups = 0;
	long got = -1;
	unsigned int partial = 0;
	uint64_t mads0 = 0;
	double cpu0 = 0;

	if (!sn)
		return 1;
	if (partial_s > 0)
		mad_subnet_set_partial_ns(sn, (uint64_t)(partial_s * 1e9));
	while (got < rounds && util_now_ns() < deadline) {
		struct pollfd pfd[16];
		int t = -1, n = mad_subnet_fds(sn, false, pfd, 16, &t, util_now_ns());
		unsigned int news;

		if (t != 0)
			poll(pfd, (nfds_t)n, t < 0 || t > 1000 ? 1000 : t);
		wakeups++;
		news = mad_subnet_step(sn, false, interval_s, util_now_ns());
		if (mad_subnet_reason(sn)[0] && !mad_subnet_fabric(sn)->nnodes) {
			fprintf(stderr, "mad_sample: %s\n", mad_subnet_reason(sn));
			mad_subnet_free(sn);
			return 1;
		}
		if ((news & SUBNET_PARTIAL) && got < 0 && !partial++)
			printf("partial nodes=%zu links=%zu ms=%.1f flag=%d status=%s\n", mad_subnet_fabric(sn)->nnodes,
			       mad_subnet_fabric(sn)->nlinks, (double)(util_now_ns() - t0) / 1e6,
			       mad_subnet_fabric(sn)->partial, mad_subnet_status(sn));
		if ((news & SUBNET_SWEPT) && got < 0) {
			printf("swept nodes=%zu ms=%.1f sweep_ms=%.1f peak=%u flag=%d\n", mad_subnet_fabric(sn)->nnodes,
			       (double)(util_now_ns() - t0) / 1e6, (double)mad_subnet_fabric(sn)->sweep_ns / 1e6,
			       mad_subnet_fabric(sn)->sweep_peak, mad_subnet_fabric(sn)->partial);
			got = 0;
			cpu0 = cpu_s();
			mads0 = mad_subnet_mads(sn);
			wakeups = 0;
		}
		if ((news & SUBNET_SAMPLED) && got >= 0) {
			size_t ports;
			uint64_t ns = mad_subnet_round_ns(sn, &ports);
			double c = cpu_s();

			printf("round %ld ports=%zu ms=%.1f cpu_ms=%.1f cpi_shared=%" PRIu64 " mads=%" PRIu64 "\n", got, ports,
			       (double)ns / 1e6, (c - cpu0) * 1e3, mad_subnet_cpi_shared(sn), mad_subnet_mads(sn) - mads0);
			mads0 = mad_subnet_mads(sn);
			fflush(stdout);
			cpu0 = c;
			got++;
		}
	}
	printf("wakeups=%lu\n", wakeups);
	mad_subnet_free(sn);
	return got < rounds;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "pingd"))
		return pingd();

	struct fab_ctx ctx;
	struct ib_fabric f;
	struct mad_fabric *v;
	long interval_ms = argc > 1 ? atol(argv[1]) : 1000;
	long count = argc > 2 ? atol(argv[2]) : 1;

	memset(&ctx, 0, sizeof(ctx));
	ctx.sysfs_root = "/sys";
	ctx.live_sysfs = true;
	ctx.fabric_mem_mb = CTX_FABRIC_MEM_MB;
	if (argc > 3 && !strcmp(argv[1], "subnet")) {
		ctx.fabric_smps = argc > 5 ? (unsigned int)atoi(argv[5]) : 0;
		return subnet(&ctx, atof(argv[2]), atol(argv[3]), argc > 4 ? atof(argv[4]) : 0);
	}
	/* mad_sample sweep MAX_NODES [MAX_MS]: a bounded sweep, its numbers. */
	if (argc > 2 && !strcmp(argv[1], "sweep")) {
		struct mad_sweep_limits lim = { .max_nodes = (size_t)atol(argv[2]),
						.max_ns = argc > 3 ? (uint64_t)atol(argv[3]) * 1000000u : 0 };
		uint64_t t0 = util_now_ns();

		bool pma = argc > 4 && !strcmp(argv[4], "pma");

		if (mad_fabric_collect(&ctx, &f, MADF_SWEEP | (pma ? MADF_PMA | MADF_PORTS : 0), &lim,
				       t0 + (lim.max_ns ? lim.max_ns : 20000000000ull)))
			return 1;
		printf("nodes=%zu links=%zu truncated_nodes=%d truncated_time=%d sweep_ms=%.1f sweep_mads=%" PRIu64
		       " timeouts=%" PRIu64 " pma_ports=%zu pma_answered=%zu pma_ms=%.1f pma_mads=%" PRIu64
		       " total_ms=%.1f\n", f.nnodes, f.nlinks, f.truncated_nodes, f.truncated_time,
		       (double)f.sweep_ns / 1e6, f.sweep_mads, f.mads_timeout, f.pma_ports, f.pma_answered,
		       (double)f.pma_ns / 1e6, f.pma_mads, (double)(util_now_ns() - t0) / 1e6);
		/*
		 * A sweep cut at its deadline leaves answers on their way; umad2sim's
		 * exit handler then deadlocks joining its receiver thread (which
		 * waits for a lock the handler holds): leave without the exit
		 * handlers. Only then: that handler also tells ibsim the client is
		 * gone, and ibsim has room for a few clients only.
		 */
		fflush(stdout);	/* the figures are out even should umad2sim's exit handler hang */
		if (f.truncated_time) {
			ib_fabric_free(&f);
			_exit(0);
		}
		ib_fabric_free(&f);
		return 0;
	}
	if (mad_fabric_open(&ctx, &f, &v) || !v) {
		fprintf(stderr, "mad_sample: %s\n", f.error[0] ? f.error : "cannot open");
		ib_fabric_free(&f);
		return 1;
	}
	mad_fabric_query_ports(v, util_now_ns());
	run_until_idle(v, util_now_ns() + 5000000000ull);
	for (size_t i = 0; i < f.nports; i++)
		printf("port %s/%u lid=%u sm_lid=%u partner_lid=%u partner_port=%u local_pma=%s partner_pma=%s\n",
		       f.ports[i].ca, f.ports[i].port, f.ports[i].pi.lid, f.ports[i].sm.lid,
		       f.ports[i].peer_pi.lid, f.ports[i].peer_pi.num,
		       ib_query_state_str(f.ports[i].pma.state), ib_query_state_str(f.ports[i].peer_pma.state));
	fflush(stdout);
	for (long s = 1; s <= count; s++) {
		struct timespec ts = { interval_ms / 1000, (interval_ms % 1000) * 1000000L };

		/* The test drives the fabric meanwhile: "go" lines on stdout tell it when. */
		printf("waiting %ld\n", s);
		fflush(stdout);
		nanosleep(&ts, NULL);
		mad_fabric_pma_refresh(v, MAD_PMA_LOCAL | MAD_PMA_PEER, util_now_ns());
		run_until_idle(v, util_now_ns() + 5000000000ull);
		for (size_t i = 0; i < f.nports; i++) {
			print_end("local", &f.ports[i].pma, (unsigned int)s);
			print_end("partner", &f.ports[i].peer_pma, (unsigned int)s);
		}
		fflush(stdout);
	}
	mad_fabric_close(v);
	printf("mads sent=%" PRIu64 " received=%" PRIu64 " timeouts=%" PRIu64 "\n",
	       f.mads_sent, f.mads_received, f.mads_timeout);
	ib_fabric_free(&f);
	return 0;
}
