// SPDX-License-Identifier: GPL-2.0-or-later
/* derive/pci.c and derive/pci_check.c on models built here: throughput, links, distance classes, finding 9. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "derive/pci.h"
#include "derive/pci_check.h"
#include "model/pci.h"
#include "../unit/tap.h"

static void func(struct pci_func *f, const char *addr, unsigned int cur, int cw, unsigned int max, int mw)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->addr, sizeof(f->addr), "%s", addr);
	f->link.cur_mts = cur;
	f->link.cur_width = cw;
	f->link.max_mts = max;
	f->link.max_width = mw;
}

static void place(struct pci_place *p, const char *path, int numa)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->path, sizeof(p->path), "%s", path);
	p->numa_node = numa;
}

static void lane_rates(void)
{
	/* the figures of derive/pci.c, by hand: 8b/10b, 128b/130b, FLIT 242/256 */
	ASSERT_NEAR(pci_lane_gbps(2500), 2.0, 1e-9, "2.5 GT/s: 2 Gb/s a lane");
	ASSERT_NEAR(pci_lane_gbps(5000), 4.0, 1e-9, "5 GT/s: 4 Gb/s a lane");
	ASSERT_NEAR(pci_lane_gbps(8000), 7.876923, 1e-6, "8 GT/s: 7.877 Gb/s a lane");
	ASSERT_NEAR(pci_lane_gbps(16000), 15.753846, 1e-6, "16 GT/s: 15.754 Gb/s a lane");
	ASSERT_NEAR(pci_lane_gbps(32000), 31.507692, 1e-6, "32 GT/s: 31.508 Gb/s a lane");
	ASSERT_NEAR(pci_lane_gbps(64000), 60.5, 1e-9, "64 GT/s: 60.5 Gb/s a lane");
	ASSERT_EQ_DBL(pci_lane_gbps(0), 0.0, "unknown rate: 0");
	ASSERT_EQ_DBL(pci_lane_gbps(128000), 0.0, "a rate no generation has: 0, not a guess");
}

/* Links pair off from the device up; the narrowest decides; degraded only below both ends. */
static void links(void)
{
	struct pci_hca h = { 0 };
	struct pci_hop hops[PCI_MAX_CHAIN], b;
	size_t n;

	/* HCA x16 Gen4 under a switch (downstream, upstream) under a root port */
	func(&h.chain[0], "0000:03:00.0", 16000, 16, 16000, 16);
	func(&h.chain[1], "0000:02:08.0", 16000, 16, 16000, 16);
	func(&h.chain[2], "0000:01:00.0", 8000, 16, 16000, 16);
	func(&h.chain[3], "0000:00:01.0", 8000, 16, 8000, 16);
	h.nchain = 4;
	n = pci_hops(&h, hops, PCI_MAX_CHAIN);
	ASSERT_EQ_U64(n, 2, "four functions are two links");
	ASSERT_EQ_U64(hops[0].lower * 10 + hops[0].upper, 1, "link 1: the device and the port above it");
	ASSERT_EQ_U64(hops[1].lower * 10 + hops[1].upper, 23, "link 2: the switch's upstream port and the root port");
	ASSERT_EQ_INT(hops[1].degraded, 0, "Gen3 root port: the uplink at 8 GT/s is all it can do");
	ASSERT_NEAR(hops[0].gbps, 16 * 15.753846, 1e-4, "link 1 carries 252 Gb/s");
	TAP_OK(pci_bottleneck(&h, &b), "a bottleneck is known");
	ASSERT_EQ_U64(b.lower, 2, "the uplink decides");
	ASSERT_NEAR(b.gbps, 16 * 7.876923, 1e-4, "126 Gb/s");

	/* the same root port able to do Gen4: now the uplink trained below both ends */
	h.chain[3].link.max_mts = 16000;
	pci_hops(&h, hops, PCI_MAX_CHAIN);
	ASSERT_EQ_INT(hops[1].degraded, 1, "8 GT/s where both ends do 16: degraded");
	h.chain[3].link.max_mts = 8000;

	/* narrower: the device trained x8 */
	h.chain[0].link.cur_width = 8;
	h.chain[1].link.cur_width = 8;
	pci_hops(&h, hops, PCI_MAX_CHAIN);
	ASSERT_EQ_INT(hops[0].degraded, 1, "x8 where both ends do x16: degraded");
	/* a bridge narrower than its device: the slot is x8, nothing trained down */
	h.chain[1].link.max_width = 8;
	pci_hops(&h, hops, PCI_MAX_CHAIN);
	ASSERT_EQ_INT(hops[0].degraded, 0, "x8 where the port above can do only x8: not degraded");
	ASSERT_EQ_INT(hops[0].max_width, 8, "the link can do x8");
	pci_bottleneck(&h, &b);
	ASSERT_EQ_U64(b.lower, 0, "the x8 link decides now (126 vs 126: the first)");

	/* width 0: down, not degraded, no throughput */
	h.chain[0].link.cur_width = 0;
	pci_hops(&h, hops, PCI_MAX_CHAIN);
	ASSERT_EQ_INT(hops[0].down, 1, "width 0 at one end: the link is down");
	ASSERT_EQ_INT(hops[0].degraded, 0, "a down link is not called degraded");
	ASSERT_EQ_DBL(hops[0].gbps, 0.0, "a down link carries no made-up number");

	/* unknown speed at both ends: no throughput, no verdict */
	func(&h.chain[0], "0000:03:00.0", 0, 16, 0, 16);
	func(&h.chain[1], "0000:02:08.0", 0, 16, 0, 16);
	h.nchain = 2;
	TAP_OK(!pci_bottleneck(&h, &b), "unknown speeds: no bottleneck");

	/* one end only (a device right under a host bridge) */
	func(&h.chain[0], "0000:00:05.0", 8000, 4, 8000, 8);
	h.nchain = 1;
	n = pci_hops(&h, hops, PCI_MAX_CHAIN);
	ASSERT_EQ_U64(n, 1, "one function is one link");
	ASSERT_EQ_U64(hops[0].upper, 0, "seen from one end");
	ASSERT_EQ_INT(hops[0].degraded, 1, "x4 of x8 from one end: degraded");
}

/* Each class on both sides of its edge. */
static void distances(void)
{
	static const struct {
		const char *a, *b;
		int na, nb;
		enum pci_dist want;
		const char *why;
	} t[] = {
		{ "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:08.0/0000:03:00.0",
		  "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:10.0/0000:04:00.0", 0, 0, PCI_DIST_PIX,
		  "two downstream ports of one switch: PIX" },
		{ "pci0000:00/0000:00:01.0/0000:03:00.0", "pci0000:00/0000:00:01.0/0000:03:00.1", 0, 0, PCI_DIST_PIX,
		  "two functions under one root port: PIX" },
		{ "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:08.0/0000:03:00.0",
		  "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:18.0/0000:06:00.0/0000:07:00.0/0000:08:00.0", 0, 0,
		  PCI_DIST_PXB, "a second switch below the first: PXB" },
		{ "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:08.0/0000:03:00.0",
		  "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:18.0/0000:06:00.0", 0, 0, PCI_DIST_PIX,
		  "one switch, a device at each downstream port: still PIX (edge of PXB)" },
		{ "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:08.0/0000:03:00.0",
		  "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:18.0/0000:06:00.0/0000:07:00.0", 0, 0, PCI_DIST_PXB,
		  "one more bridge on the card below a downstream port: PXB (edge of PIX)" },
		{ "pci0000:00/0000:00:01.0/0000:03:00.0", "pci0000:00/0000:00:03.0/0000:09:00.0", 0, 0, PCI_DIST_PHB,
		  "different root ports of one host bridge: PHB" },
		{ "pci0000:00/0000:00:05.0", "pci0000:00/0000:00:06.0", -1, -1, PCI_DIST_PHB,
		  "right under one host bridge (a VM), NUMA unknown: PHB" },
		{ "pci0000:00/0000:00:01.0/0000:03:00.0", "pci0000:40/0000:40:01.0/0000:41:00.0", 0, 0, PCI_DIST_NODE,
		  "different host bridges, one NUMA node: NODE" },
		{ "pci0000:00/0000:00:01.0/0000:03:00.0", "pci0000:80/0000:80:01.0/0000:81:00.0", 0, 1, PCI_DIST_SYS,
		  "different host bridges, NUMA nodes 0 and 1: SYS" },
		{ "pci0000:00/0000:00:01.0/0000:03:00.0", "pci0000:40/0000:40:01.0/0000:41:00.0", 0, -1,
		  PCI_DIST_UNKNOWN, "different host bridges, a NUMA node unknown: no class" },
		{ "pci0000:00/0000:00:01.0/0000:03:00.0", "pci0000:40/0000:40:01.0/0000:41:00.0", -1, -1,
		  PCI_DIST_UNKNOWN, "different host bridges, both NUMA nodes unknown: no class" },
		{ "pci0000:00/0000:00:01.0/0000:03:00.0", "pci0000:000/0000:00:01.0/0000:03:00.1", 0, 0,
		  PCI_DIST_NODE, "a host bridge whose name only starts alike is another one" },
		{ "platform/soc/rxe", "pci0000:00/0000:00:01.0/0000:03:00.0", 0, 0, PCI_DIST_UNKNOWN,
		  "not a PCI function: no class" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pci_place a, b;
		const char *got, *want = pci_dist_str(t[i].want);
		char d[160];

		place(&a, t[i].a, t[i].na);
		place(&b, t[i].b, t[i].nb);
		got = pci_dist_str(pci_distance(&a, &b));
		ASSERT_EQ_STR(got ? got : "unknown", want ? want : "unknown", t[i].why);
		snprintf(d, sizeof(d), "%s (the other way round)", t[i].why);
		ASSERT_EQ_INT(pci_distance(&b, &a), pci_distance(&a, &b), d);
	}
}

/* A host of four devices of one model, each with one ACTIVE InfiniBand port. */
static struct fab_device devs[4];
static struct fab_port ports[4];
static struct pci_hca hcas[4];

static void host_init(struct fab_host *h)
{
	static const char *const names[] = { "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3" };

	memset(h, 0, sizeof(*h));
	for (size_t i = 0; i < 4; i++) {
		memset(&devs[i], 0, sizeof(devs[i]));
		memset(&ports[i], 0, sizeof(ports[i]));
		snprintf(devs[i].name, sizeof(devs[i].name), "%s", names[i]);
		snprintf(devs[i].hca_type, sizeof(devs[i].hca_type), "MT4123");
		ports[i].num = 1;
		ports[i].state = PORT_STATE_ACTIVE;
		ports[i].phys_state = PHYS_STATE_LINK_UP;
		ports[i].link_layer = LINK_LAYER_INFINIBAND;
		ports[i].rate_known = true;
		ports[i].rate_gbps = 200;
		snprintf(ports[i].rate, sizeof(ports[i].rate), "200 Gb/sec (4X HDR)");
		devs[i].ports = &ports[i];
		devs[i].nports = 1;
		memset(&hcas[i], 0, sizeof(hcas[i]));
		func(&hcas[i].chain[0], "0000:03:00.0", 16000, 16, 16000, 16);
		func(&hcas[i].chain[1], "0000:00:01.0", 16000, 16, 16000, 16);
		hcas[i].nchain = 2;
		devs[i].pci = &hcas[i];
	}
	h->devs = devs;
	h->ndevs = 4;
}

static size_t count(const struct fab_host *h, const char *code, const char *dev)
{
	struct doctor_finding fs[32];
	size_t n = pci_check(h, fs, 32), k = 0;

	for (size_t i = 0; i < n && i < 32; i++)
		if (!strcmp(fs[i].code, code) && (!dev || !strcmp(fs[i].device, dev))) {
			k++;
			ASSERT_EQ_INT(fs[i].id, DOCTOR_PLATFORM, "its id is 9");
		}
	return k;
}

static void findings(void)
{
	struct fab_host h;

	host_init(&h);
	ASSERT_EQ_U64(pci_check(&h, NULL, 0), 0, "four healthy HCAs: no finding");

	/* pcie-link-degraded: x8 of x16 */
	hcas[1].chain[0].link.cur_width = 8;
	ASSERT_EQ_U64(count(&h, "pcie-link-degraded", "mlx5_1"), 1, "x8 of x16: pcie-link-degraded");
	hcas[1].chain[1].link.max_width = 8;
	ASSERT_EQ_U64(count(&h, "pcie-link-degraded", NULL), 0, "x8 under an x8 port: no pcie-link-degraded");

	/* pcie-below-port-rate: the x8 Gen4 link carries 126 Gb/s, the port runs at 200 */
	ASSERT_EQ_U64(count(&h, "pcie-below-port-rate", "mlx5_1"), 1, "126 Gb/s under 200 Gb/s: pcie-below-port-rate");
	ports[1].rate_gbps = 100;
	ASSERT_EQ_U64(count(&h, "pcie-below-port-rate", NULL), 0, "126 Gb/s under 100 Gb/s: fits");
	ports[1].rate_gbps = 8 * pci_lane_gbps(16000);
	ASSERT_EQ_U64(count(&h, "pcie-below-port-rate", NULL), 0, "a port at exactly what the link carries: fits (edge)");
	ports[1].rate_gbps = 8 * pci_lane_gbps(16000) + 0.01;
	ASSERT_EQ_U64(count(&h, "pcie-below-port-rate", NULL), 1, "... and 0.01 Gb/s more does not (edge)");
	ports[1].rate_gbps = 200;
	ports[1].state = PORT_STATE_DOWN;
	ASSERT_EQ_U64(count(&h, "pcie-below-port-rate", NULL), 0, "a port that is not ACTIVE is not judged");
	host_init(&h);

	/* port-slow-sibling: one at 40 beside three at 200 */
	ports[3].rate_gbps = 40;
	ASSERT_EQ_U64(count(&h, "port-slow-sibling", "mlx5_3"), 1, "40 beside three at 200: port-slow-sibling");
	ASSERT_EQ_U64(count(&h, "port-slow-sibling", NULL), 1, "... and only that port");
	ports[3].rate_gbps = 100;
	ASSERT_EQ_U64(count(&h, "port-slow-sibling", NULL), 0, "100 beside 200: half is not far below (edge)");
	ports[3].rate_gbps = 99;
	ASSERT_EQ_U64(count(&h, "port-slow-sibling", NULL), 1, "99 beside 200: far below (edge)");
	snprintf(devs[3].hca_type, sizeof(devs[3].hca_type), "MT4117");
	ASSERT_EQ_U64(count(&h, "port-slow-sibling", NULL), 0, "another model is no sibling");
	host_init(&h);
	ports[2].rate_gbps = 40;
	ports[3].rate_gbps = 40;
	h.ndevs = 3;
	ASSERT_EQ_U64(count(&h, "port-slow-sibling", "mlx5_2"), 1, "200, 200, 40: two ports make a usual rate");
	h.ndevs = 2;
	ports[1].rate_gbps = 40;
	ASSERT_EQ_U64(count(&h, "port-slow-sibling", NULL), 0, "one at 200, one at 40: no usual rate, no finding");
	host_init(&h);

	/* pcie-aer-uncorrectable */
	hcas[2].chain[1].aer.nonfatal = (struct opt_u64){ true, 1 };
	ASSERT_EQ_U64(count(&h, "pcie-aer-uncorrectable", "mlx5_2"), 1, "a non-fatal error at the root port");
	hcas[2].chain[1].aer.nonfatal = (struct opt_u64){ true, 0 };
	hcas[2].chain[0].aer.correctable = (struct opt_u64){ true, 40 };
	ASSERT_EQ_U64(count(&h, "pcie-aer-uncorrectable", NULL), 0, "correctable errors alone: none");
	hcas[2].chain[0].aer.fatal = (struct opt_u64){ true, 2 };
	ASSERT_EQ_U64(count(&h, "pcie-aer-uncorrectable", "mlx5_2"), 1, "a fatal error on the device");
	hcas[2].chain[0].aer.fatal = (struct opt_u64){ false, 2 };
	ASSERT_EQ_U64(count(&h, "pcie-aer-uncorrectable", NULL), 0, "an unknown count is no error");
}

int main(void)
{
	lane_rates();
	links();
	distances();
	findings();
	return tap_done();
}
