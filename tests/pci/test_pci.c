// SPDX-License-Identifier: GPL-2.0-or-later
/* derive/pci.c on models built here: throughput, links, distance classes. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "derive/pci.h"
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

int main(void)
{
	lane_rates();
	links();
	distances();
	return tap_done();
}
