// SPDX-License-Identifier: GPL-2.0-or-later
/* The Fabric pane's rows on hand-made fabrics: degraded width and speed, flags and their order, half and lost links. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "../unit/tap.h"
#include "derive/counters.h"
#include "derive/fabric_hist.h"
#include "derive/fabric_links.h"
#include "mad/mad_port.h"
#include "model/ibfabric.h"

#define W1X 1
#define W4X 2
#define W12X 8

/* A node of n ports, every one up at 4X QDR with ibsim's supported sets (12X, SDR..QDR). */
static void node_init(struct ib_fnode *nd, uint64_t guid, const char *desc, uint8_t type, unsigned int n)
{
	memset(nd, 0, sizeof(*nd));
	nd->id.node_guid = guid;
	nd->id.node_type = type;
	nd->id.num_ports = (uint8_t)n;
	snprintf(nd->id.desc, sizeof(nd->id.desc), "%s", desc);
	nd->lid = (uint16_t)guid;
	nd->ports = calloc(n + 1, sizeof(*nd->ports));
	for (unsigned int p = 1; p <= n; p++) {
		struct ib_port_id *pi = &nd->ports[p].pi;

		nd->ports[p].known = true;
		pi->num = (uint8_t)p;
		pi->state = PORT_STATE_ACTIVE;
		pi->phys_state = PHYS_STATE_LINK_UP;
		pi->width = W4X;
		pi->width_sup = W1X | W4X | 4 | W12X | 16;
		pi->width_en = W1X | W4X;
		pi->speed = 4;
		pi->speed_sup = pi->speed_en = 7;
	}
}

static void link(struct ib_fabric *f, size_t a, uint8_t ap, size_t b, uint8_t bp)
{
	f->links = realloc(f->links, (f->nlinks + 1) * sizeof(*f->links));
	f->links[f->nlinks++] = (struct ib_link){ .a = a, .b = b, .a_port = ap, .b_port = bp };
	f->nodes[a].ports[ap].linked = f->nodes[b].ports[bp].linked = true;
	f->nodes[a].ports[ap].peer = b;
	f->nodes[b].ports[bp].peer = a;
	f->nodes[a].ports[ap].peer_port = bp;
	f->nodes[b].ports[bp].peer_port = ap;
}

/* Two PMA samples of a port, 1 s apart: symbol errors first then second, data words. */
static struct ib_pma *pma_two(uint64_t sym0, uint64_t sym1, uint64_t words0, uint64_t words1)
{
	struct ib_pma *p = calloc(1, sizeof(*p));

	p->cap_mask = 0x0200;		/* 64-bit data (PortCountersExtended) */
	mad_port_pma_define(p);
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < p->n; i++) {
			uint64_t v = 0;

			if (!strcmp(p->c[i].name, "symbol_error"))
				v = s ? sym1 : sym0;
			else if (!strcmp(p->c[i].name, "port_xmit_data"))
				v = s ? words1 : words0;
			counter_sample_value(&p->c[i], true, v);
		}
	}
	p->prev_sample_ns = 1000000000ull;
	p->sample_ns = 2000000000ull;
	p->state = IBQ_OK;
	return p;
}

static void test_widths(void)
{
	struct ib_fnode a, b, h1, h2;
	char why[96];

	ASSERT_EQ_U64(fabric_width_lanes(W1X | W4X), 4, "1X|4X: 4 lanes");
	ASSERT_EQ_U64(fabric_width_lanes(W1X | W4X | 4 | W12X | 16), 12, "all: 12 lanes");
	ASSERT_EQ_U64(fabric_width_lanes(16), 2, "2X: 2 lanes");
	ASSERT_EQ_U64(fabric_width_lanes(0), 0, "none: 0");

	node_init(&a, 1, "leaf", 2, 4);
	node_init(&b, 2, "spine", 2, 4);
	TAP_OK(!fabric_link_degraded(&a, &a.ports[3].pi, &b, &b.ports[1].pi, why, sizeof(why)),
	       "4X between 4X devices is not degraded, though 12X is advertised (%s)", why);
	/* the 1x-declared cable as ibsim makes it: enabled 1X on both ends, active 1X */
	a.ports[3].pi.width = b.ports[1].pi.width = W1X;
	a.ports[3].pi.width_en = b.ports[1].pi.width_en = W1X;
	TAP_OK(fabric_link_degraded(&a, &a.ports[3].pi, &b, &b.ports[1].pi, why, sizeof(why)),
	       "1X between switches whose other ports run 4X is degraded");
	ASSERT_EQ_STR(why, "1X, both ends do 4X", "and says so");

	/* one-port hosts whose only port is enabled 1X: configured so, not degraded */
	node_init(&h1, 3, "h1", 1, 1);
	node_init(&h2, 4, "h2", 1, 1);
	h1.ports[1].pi.width = h2.ports[1].pi.width = W1X;
	h1.ports[1].pi.width_en = h2.ports[1].pi.width_en = W1X;
	TAP_OK(!fabric_link_degraded(&h1, &h1.ports[1].pi, &h2, &h2.ports[1].pi, why, sizeof(why)),
	       "1X between devices that enable 1X only is what they do");
	/* a real 4X HCA port that trained at 1X: enabled = supported = 1X|4X */
	h1.ports[1].pi.width_sup = h1.ports[1].pi.width_en = W1X | W4X;
	h2.ports[1].pi.width_sup = h2.ports[1].pi.width_en = W1X | W4X;
	TAP_OK(fabric_link_degraded(&h1, &h1.ports[1].pi, &h2, &h2.ports[1].pi, why, sizeof(why)),
	       "a 4X cable at 1X between 4X HCAs is degraded");

	/* speeds: DDR where both do QDR; FDR where both do EDR; EDR where both do EDR */
	a.ports[3].pi.width = b.ports[1].pi.width = W4X;
	a.ports[3].pi.width_en = b.ports[1].pi.width_en = W1X | W4X;
	a.ports[3].pi.speed = 2;
	TAP_OK(fabric_link_degraded(&a, &a.ports[3].pi, &b, &b.ports[1].pi, why, sizeof(why)), "DDR where both do QDR");
	ASSERT_EQ_STR(why, "DDR, both ends do QDR", "and says so");
	a.ports[3].pi.speed_ext_sup = b.ports[1].pi.speed_ext_sup = 1 | 2;
	a.ports[3].pi.speed_ext = 1;
	TAP_OK(fabric_link_degraded(&a, &a.ports[3].pi, &b, &b.ports[1].pi, why, sizeof(why)), "FDR where both do EDR");
	ASSERT_EQ_STR(why, "FDR, both ends do EDR", "and says so");
	a.ports[3].pi.speed_ext = 2;
	TAP_OK(!fabric_link_degraded(&a, &a.ports[3].pi, &b, &b.ports[1].pi, why, sizeof(why)), "EDR where both do EDR");
	b.ports[1].pi.speed_ext_sup = 1;
	TAP_OK(!fabric_link_degraded(&a, &a.ports[3].pi, &b, &b.ports[1].pi, why, sizeof(why)),
	       "EDR-capable to an FDR-only port at EDR: not below what both do");
	for (struct ib_fnode *n = &a; n; n = n == &a ? &b : n == &b ? &h1 : n == &h1 ? &h2 : NULL)
		free(n->ports);
}

static void test_rows(void)
{
	struct ib_fabric f;
	struct fabric_lost_link lost;
	struct fabric_link_row rows[8];
	size_t total, n;

	memset(&f, 0, sizeof(f));
	f.nodes = calloc(4, sizeof(*f.nodes));
	f.nnodes = 4;
	node_init(&f.nodes[0], 10, "leaf", 2, 4);
	node_init(&f.nodes[1], 11, "h1", 1, 1);
	node_init(&f.nodes[2], 12, "h2", 1, 1);
	node_init(&f.nodes[3], 13, "spine", 2, 4);
	link(&f, 0, 1, 1, 1);			/* leaf/1 - h1/1: errors */
	link(&f, 0, 2, 2, 1);			/* leaf/2 - h2/1: fine, 8 Gb/s */
	link(&f, 0, 3, 3, 1);			/* leaf/3 - spine/1: spine's PMA times out */
	/* leaf/4 is up and leads nowhere the sweep reached; spine/2..4 down */
	for (unsigned int p = 2; p <= 4; p++)
		f.nodes[3].ports[p].pi.phys_state = 2;
	f.nodes[0].ports[1].pma = pma_two(0, 0, 0, 0);
	f.nodes[1].ports[1].pma = pma_two(4, 7, 0, 0);
	f.nodes[0].ports[2].pma = pma_two(0, 0, 0, 250000000);	/* 1e9 B/s */
	f.nodes[2].ports[1].pma = pma_two(0, 0, 0, 0);
	f.nodes[3].ports[1].pma = calloc(1, sizeof(struct ib_pma));
	f.nodes[3].ports[1].pma->state = IBQ_TIMEOUT;
	memset(&lost, 0, sizeof(lost));
	snprintf(lost.a.desc, sizeof(lost.a.desc), "leaf9");
	snprintf(lost.why, sizeof(lost.why), "leaf9 port 2 DOWN/Polling");

	n = fabric_links_build(&f, &lost, 1, rows, 8, &total);
	ASSERT_EQ_U64(n, 5, "3 links, 1 half, 1 lost");
	ASSERT_EQ_U64(total, 5, "total counts them all");
	ASSERT_EQ_U64(rows[0].flags, FLINK_ERRORS, "h1's symbol errors flag its link ERR");
	ASSERT_EQ_U64(rows[0].eb.errors, 3, "... 3 of them, at h1's end");
	ASSERT_EQ_STR(rows[0].why, "+3 errors, moving", "... said so");
	ASSERT_EQ_U64(rows[1].flags, 0, "leaf/2 - h2 is fine");
	TAP_OK(rows[1].ea.rates && rows[1].ea.xmit_bps > 0.99e9 && rows[1].ea.xmit_bps < 1.01e9,
	       "leaf/2 sends 1e9 B/s (250M words x 4 in 1 s): %.0f", rows[1].ea.xmit_bps);
	ASSERT_EQ_U64(rows[2].flags, FLINK_NO_ANSWER, "spine's PMA times out: NOANS");
	ASSERT_EQ_STR(rows[2].why, "spine's counters do not answer", "... naming it");
	TAP_OK(rows[3].half && rows[3].a == 0 && rows[3].a_port == 4, "leaf/4: up, far end unknown: a half row");
	ASSERT_EQ_U64(rows[3].flags, FLINK_NO_ANSWER, "... NOANS");
	ASSERT_EQ_STR(rows[3].why, "far end does not answer the sweep", "... said so");
	TAP_OK(rows[4].lost == &lost && rows[4].flags == FLINK_DOWN, "the lost link: DOWN");
	ASSERT_EQ_STR(rows[4].why, "down since the last sweep: leaf9 port 2 DOWN/Polling", "... with why");
	TAP_OK(FLINK_DOWN > FLINK_NO_ANSWER && FLINK_NO_ANSWER > FLINK_ERRORS && FLINK_ERRORS > FLINK_DEGRADED &&
	       FLINK_DEGRADED > FLINK_SATURATED, "flags sort: down, no answer, errors, slow, saturated");

	/* only room for 2 rows: 2 written, total still 5 */
	n = fabric_links_build(&f, &lost, 1, rows, 2, &total);
	TAP_OK(n == 2 && total == 5, "a short array: %zu written of %zu", n, total);
	f.truncated_nodes = true;
	n = fabric_links_build(&f, NULL, 0, rows, 8, &total);
	ASSERT_EQ_STR(rows[3].why, "far end not swept (node limit)", "past the node limit the half row says so");
	f.truncated_mem = true;
	n = fabric_links_build(&f, NULL, 0, rows, 8, &total);
	ASSERT_EQ_STR(rows[3].why, "far end not swept (memory bound, --fabric-mem)",
		      "past the memory bound the half row says so, and what raises it");
	ib_fabric_free(&f);
}

/* PortXmitWait as a share: (Tick + 1) byte times a tick, the byte time from the speed; else why not. */
static void test_xmit_wait(void)
{
	struct ib_port_id qdr = { .speed = 4 }, hdr = { .speed = 4, .speed_ext = 4 };
	struct ib_pma *p = pma_two(0, 0, 0, 0);
	struct fabric_end e;
	double sh;

	ASSERT_EQ_INT(xmit_wait_share(125e6, true, 0, 1, 0, &sh), XWAIT_SHARE, "SDR, Tick 0: a share");
	ASSERT_NEAR(sh, 0.5, 1e-9, "... 125 M ticks/s of 4 ns are half the time");
	ASSERT_EQ_INT(xmit_wait_share(62.5e6, true, 7, 4, 0, &sh), XWAIT_SHARE, "QDR, Tick 7: a share");
	ASSERT_NEAR(sh, 0.5, 1e-9, "... 62.5 M ticks/s of 8 x 1 ns are half the time");
	ASSERT_EQ_INT(xmit_wait_share(1e9, true, 0, 1, 2, &sh), XWAIT_SHARE, "EDR: a share");
	ASSERT_NEAR(sh, 0.32, 1e-9, "... a byte on an EDR lane is 0.32 ns (64b/66b at 25.78125 Gbaud)");
	ASSERT_NEAR(xmit_wait_byte_ns(1, 1), 0.586667, 1e-6, "FDR: 0.5867 ns a byte");
	ASSERT_EQ_INT(xmit_wait_share(1e6, true, 0, 4, 4, &sh), XWAIT_NO_SPEED, "HDR: no share claimed");
	ASSERT_EQ_INT(xmit_wait_share(1e6, false, 0, 4, 0, &sh), XWAIT_NO_TICK, "no tick: no share");
	ASSERT_EQ_INT(xmit_wait_share(300e6, true, 0, 1, 0, &sh), XWAIT_OVER, "ticks past the interval: no share");
	ASSERT_EQ_INT(xmit_wait_share(0, false, 0, 4, 4, &sh), XWAIT_SHARE, "no tick at all: 0 whatever the tick");
	ASSERT_EQ_DBL(sh, 0.0, "... 0");
	/* an end: the counter moved by 62.5 M ticks in the 1 s between the samples */
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->c[i].name, "port_xmit_wait")) {
			counter_sample_value(&p->c[i], true, 1000);
			counter_sample_value(&p->c[i], true, 1000 + 62500000);
		}
	fabric_end_from(p, &e);
	fabric_end_wait(&e, p, &qdr);
	ASSERT_EQ_INT(e.wait_how, XWAIT_ASKING, "an end whose tick was not asked yet: being asked");
	p->tick_state = IBQ_TIMEOUT;
	fabric_end_wait(&e, p, &qdr);
	ASSERT_EQ_INT(e.wait_how, XWAIT_NO_TICK, "... not answered: ticks/s only");
	p->tick_state = IBQ_OK;
	p->tick = 7;
	fabric_end_wait(&e, p, &qdr);
	ASSERT_EQ_INT(e.wait_how, XWAIT_SHARE, "... answered: a share");
	ASSERT_NEAR(e.wait_share, 0.5, 1e-6, "... half the interval");
	fabric_end_wait(&e, p, &hdr);
	ASSERT_EQ_INT(e.wait_how, XWAIT_NO_SPEED, "... at HDR: ticks/s only");
	free(p);
}

/* Each link's last intervals: a point per new sample, oriented by the lower GUID, bounded, carried by GUID. */
static void test_hist(void)
{
	struct ib_fabric f;
	struct fabric_hist h = { 0 };
	const struct fhist_link *l;

	memset(&f, 0, sizeof(f));
	f.nodes = calloc(2, sizeof(*f.nodes));
	f.nnodes = 2;
	node_init(&f.nodes[0], 20, "leaf", 2, 2);
	node_init(&f.nodes[1], 11, "h1", 1, 1);
	link(&f, 0, 1, 1, 1);
	f.nodes[0].ports[1].pma = pma_two(0, 2, 0, 250000000);	/* leaf sends 8 Gb/s, 2 errors */
	f.nodes[1].ports[1].pma = pma_two(0, 0, 0, 0);
	ASSERT_EQ_INT(fabric_hist_add(&h, &f), 0, "a round in");
	l = fabric_hist_find(&h, 20, 1, 11, 1);
	ASSERT_NOT_NULL(l, "the link is found by its row's ends");
	TAP_OK(l && l == fabric_hist_find(&h, 11, 1, 20, 1), "... and the other way round");
	TAP_OK(l && l->guid_a == 11 && l->port_a == 1, "its first end is the lower GUID (h1)");
	ASSERT_EQ_U64(l ? l->n : 0, 1, "one point");
	TAP_OK(l && fabric_hist_point(l, 0)->ba_gbps > 7.9 && fabric_hist_point(l, 0)->ba_gbps < 8.1,
	       "... leaf's 8 Gb/s is B>A from h1's side");
	ASSERT_EQ_U64(l ? fabric_hist_point(l, 0)->errors : 0, 2, "... the 2 errors of the interval");
	ASSERT_EQ_INT(fabric_hist_add(&h, &f), 0, "the same samples again");
	l = fabric_hist_find(&h, 20, 1, 11, 1);
	ASSERT_EQ_U64(l ? l->n : 0, 1, "... add no point");
	for (int i = 0; i < FHIST_N + 5; i++) {
		f.nodes[1].ports[1].pma->prev_sample_ns = f.nodes[1].ports[1].pma->sample_ns;
		f.nodes[1].ports[1].pma->sample_ns += 1000000000ull;
		fabric_hist_add(&h, &f);
	}
	l = fabric_hist_find(&h, 20, 1, 11, 1);
	ASSERT_EQ_U64(l ? l->n : 0, FHIST_N, "a point per new sample, at most FHIST_N kept");
	f.nlinks = 0;
	fabric_hist_add(&h, &f);
	ASSERT_NULL(fabric_hist_find(&h, 20, 1, 11, 1), "a link gone from the sweep is dropped");
	fabric_hist_free(&h);
	ib_fabric_free(&f);
}

int main(void)
{
	test_widths();
	test_rows();
	test_xmit_wait();
	test_hist();
	return tap_done();
}
