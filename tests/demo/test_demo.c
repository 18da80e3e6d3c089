// SPDX-License-Identifier: GPL-2.0-or-later
/* The demo fabric: deterministic, plausible, and read through the normal derive code. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/tap.h"
#include "demo/demo.h"
#include "kernel/host.h"
#include "source/source.h"
#include "derive/counters.h"
#include "util.h"

#define TICK_NS		UINT64_C(1000000000)	/* 1 s, the monitor's default interval */
#define NTICKS		600			/* ten simulated minutes */

/* A fingerprint of every counter value, state and sample time of a host. */
static uint64_t host_digest(const struct fab_host *h)
{
	uint64_t x = 1469598103934665603u;

	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t k = 0; k < h->devs[i].nports; k++) {
			const struct fab_port *p = &h->devs[i].ports[k];

			x = (x ^ (uint64_t)p->state) * 1099511628211u;
			x = (x ^ p->sample_ns) * 1099511628211u;
			for (size_t c = 0; c < p->ncounters; c++)
				x = (x ^ (p->counters[c].known ? p->counters[c].value : 0xdead)) * 1099511628211u;
		}
	return x;
}

static uint64_t run_digest(unsigned long seed, unsigned int nticks, uint64_t dt)
{
	struct demo *d = demo_new(seed);
	struct fab_host h;
	uint64_t x;

	if (!d || demo_collect(d, &h)) {
		demo_free(d);
		return 0;
	}
	x = host_digest(&h);
	for (unsigned int t = 0; t < nticks; t++) {
		demo_tick(d, &h, dt);
		x = x * 31 + host_digest(&h);
	}
	fab_host_free(&h);
	demo_free(d);
	return x;
}

static struct fab_device *find_dev(struct fab_host *h, const char *name)
{
	for (size_t i = 0; i < h->ndevs; i++)
		if (!strcmp(h->devs[i].name, name))
			return &h->devs[i];
	return NULL;
}

/* A counter's fields for a message (one per printf: the buffer is static). */
static const char *counter_str(const struct fab_counter *c)
{
	static char buf[128];

	if (!c)
		return "missing";
	snprintf(buf, sizeof(buf), "bits %u, source %d, kind %d, known %d, value %" PRIu64 ", saturated %d",
		 c->bits, (int)c->source, (int)c->kind, c->known, c->value, c->saturated);
	return buf;
}

static void test_determinism(void)
{
	uint64_t a = run_digest(7, NTICKS, TICK_NS), b = run_digest(7, NTICKS, TICK_NS);
	uint64_t c = run_digest(8, NTICKS, TICK_NS);

	ASSERT_CMP_U64(a, !=, 0, "seed 7 builds and runs");
	ASSERT_EQ_U64(a, b, "same seed, same ticks: identical numbers over 600 ticks");
	ASSERT_CMP_U64(a, !=, c, "another seed gives other numbers");
	/* Values are a function of simulated time: ten 0.1 s ticks land where one 1 s tick does. */
	{
		struct demo *d1 = demo_new(3), *d2 = demo_new(3);
		struct fab_host h1, h2;

		demo_collect(d1, &h1);
		demo_collect(d2, &h2);
		for (int t = 0; t < 50; t++) {
			demo_tick(d1, &h1, TICK_NS);
			for (int s = 0; s < 10; s++)
				demo_tick(d2, &h2, TICK_NS / 10);
		}
		ASSERT_EQ_U64(host_digest(&h1), host_digest(&h2),
			      "the same simulated time gives the same values whatever the tick size");
		ASSERT_EQ_U64(demo_now_ns(d1), demo_now_ns(d2), "simulated clocks agree");
		fab_host_free(&h1);
		fab_host_free(&h2);
		demo_free(d1);
		demo_free(d2);
	}
}

static void test_structure(void)
{
	struct demo *d = demo_new(7);
	struct fab_host h;
	struct fab_device *ib, *roce, *iw;
	struct fab_port *p;
	bool v1 = false, v2 = false, mapped = false, ll = false, vlan = false;
	int rc = demo_collect(d, &h);

	ASSERT_EQ_INT(rc, 0, "demo_collect builds a host");
	ASSERT_EQ_INT(h.ndevs, 3, "three devices: IB HCA, RoCE NIC, iWARP RNIC");
	ib = find_dev(&h, "mlx5_0");
	roce = find_dev(&h, "mlx5_1");
	iw = find_dev(&h, "cxgb4_0");
	TAP_OK(ib && roce && iw, "mlx5_0, mlx5_1 and cxgb4_0 exist%s%s%s",
	       ib ? "" : " (no mlx5_0)", roce ? "" : " (no mlx5_1)", iw ? "" : " (no cxgb4_0)");
	if (!ib || !roce || !iw) {
		fab_host_free(&h);
		demo_free(d);
		return;
	}
	ASSERT_EQ_INT(ib->nports, 2, "the IB HCA has two ports");
	ASSERT_EQ_STR(ib->ports[0].netdevs[0].name, "ib0", "port 1 carries ib0");
	ASSERT_EQ_STR(ib->ports[1].netdevs[0].name, "ib1", "port 2 carries ib1");
	ASSERT_EQ_STR(ib->ports[0].netdevs[0].ipoib_mode, "datagram", "ib0 is in datagram mode");
	ASSERT_EQ_U64(ib->ports[0].netdevs[0].mtu.value, 2044, "ib0 MTU 2044");
	ASSERT_EQ_INT(ib->ports[0].state, PORT_STATE_ACTIVE, "IB port 1 starts ACTIVE");
	ASSERT_EQ_STR(ib->ports[0].state_raw, "4: ACTIVE", "state reads as the kernel prints it");
	ASSERT_EQ_STR(ib->ports[0].phys_state_raw, "5: LinkUp", "phys_state too");
	TAP_OK(ib->ports[0].has_pma, "the IB port has PMA counters");
	{
		struct fab_counter *c = fab_port_find_counter(&ib->ports[0], "port_xmit_data");

		TAP_OK(c && c->bits == 64 && c->source == COUNTER_SRC_COUNTERS && c->kind == COUNTER_KIND_DATA,
		       "port_xmit_data: counters/, 64-bit (PortCountersExtended), a data counter (%s)", counter_str(c));
		c = fab_port_find_counter(&ib->ports[0], "port_xmit_wait");
		TAP_OK(c && c->bits == 32, "port_xmit_wait is 32 bits wide (%s)", counter_str(c));
		c = fab_port_find_counter(&ib->ports[0], "symbol_error");
		TAP_OK(c && c->bits == 16 && c->kind == COUNTER_KIND_ERROR, "symbol_error is a 16-bit error counter (%s)",
		       counter_str(c));
	}

	p = &roce->ports[0];
	ASSERT_EQ_INT(p->link_layer, LINK_LAYER_ETHERNET, "the RoCE port is Ethernet");
	for (size_t g = 0; g < p->ngids; g++) {
		v1 |= p->gids[g].type == GID_TYPE_ROCE_V1;
		v2 |= p->gids[g].type == GID_TYPE_ROCE_V2;
		mapped |= p->gids[g].has_ipv4 && !strcmp(p->gids[g].ipv4, "10.20.0.1");
		ll |= !strncmp(p->gids[g].gid, "fe80:", 5);
		vlan |= !strcmp(p->gids[g].netdev, "enp65s0f0.100") && p->gids[g].has_ipv4;
	}
	TAP_OK(v1 && v2, "RoCE GIDs come in v1/v2 pairs (v1 %d, v2 %d of %zu)", v1, v2, p->ngids);
	TAP_OK(mapped, "an IPv4-mapped GID (10.20.0.1)");
	TAP_OK(ll, "an IPv6 link-local GID");
	TAP_OK(vlan, "the VLAN netdev has its own IPv4 GID");
	ASSERT_EQ_INT(p->nnetdevs, 2, "the RoCE port has the NIC and its VLAN");
	ASSERT_EQ_STR(p->netdevs[1].parent, "enp65s0f0", "the VLAN's parent is the NIC");

	p = &iw->ports[0];
	ASSERT_EQ_STR(iw->node_type, "RNIC", "cxgb4_0 is an RNIC");
	TAP_OK(!p->has_pma, "the iWARP port has no PMA");
	{
		struct fab_counter *c = fab_port_find_counter(p, "port_xmit_data");
		struct fab_counter *hw = fab_port_find_counter(p, "ip4OutSegs");

		TAP_OK(c && !c->known, "its port_xmit_data has no value (%s)", counter_str(c));
		ASSERT_EQ_STR(c ? c->raw : NULL, "N/A (no PMA)", "it reads N/A (no PMA)");
		TAP_OK(hw && hw->known && hw->source == COUNTER_SRC_HW_COUNTERS, "hw_counters have values (%s)",
		       counter_str(hw));
	}
	fab_host_free(&h);
	demo_free(d);
}

/*
 * Ten simulated minutes at 1 s: every rate within the link, the flapping
 * port goes down and comes back, errors move, port_xmit_wait latches.
 */
static void test_dynamics(void)
{
	struct demo *d = demo_new(7);
	struct fab_host h;
	struct fab_device *ib, *iw;
	struct fab_port *p1, *p2;
	struct fab_counter *wait, *sym, *downed;
	uint64_t sym0, downed0, wait_first_sat = 0;
	bool over = false, rates = false, down = false, back = false, changed = false;
	bool sat_rate = false, latched = true, iw_rate = false, moved_rcv = false, any_zero_rate = false;
	bool rose = false, fell = false;
	double maxg = 0, prev_g = -1;
	unsigned int changes = 0;

	demo_collect(d, &h);
	ib = find_dev(&h, "mlx5_0");
	iw = find_dev(&h, "cxgb4_0");
	if (!ib || !iw) {
		TAP_OK(0, "demo devices present");
		return;
	}
	p1 = &ib->ports[0];
	p2 = &ib->ports[1];
	wait = fab_port_find_counter(p1, "port_xmit_wait");
	sym = fab_port_find_counter(p2, "symbol_error");
	downed = fab_port_find_counter(p2, "link_downed");
	sym0 = sym->value;
	downed0 = downed->value;
	TAP_OK(!wait->saturated, "port_xmit_wait is not saturated at the start (%s)", counter_str(wait));

	for (int t = 0; t < NTICKS; t++) {
		bool ch = demo_tick(d, &h, TICK_NS);

		changes += ch;
		for (size_t i = 0; i < h.ndevs; i++)
			for (size_t k = 0; k < h.devs[i].nports; k++) {
				struct fab_port *p = &h.devs[i].ports[k];
				struct port_rates r;

				port_rates(p, &r);
				if (r.xmit_known) {
					rates = true;
					over |= r.xmit_gbps > p->rate_gbps || r.rcv_gbps > p->rate_gbps;
					if (r.xmit_gbps > maxg)
						maxg = r.xmit_gbps;
				}
				if (p == p2 && r.xmit_known && r.xmit_gbps == 0)
					any_zero_rate = true;
				if (&h.devs[i] == iw && (r.xmit_known || r.rcv_known))
					iw_rate = true;
			}
		{
			struct port_rates r;

			port_rates(p1, &r);
			if (prev_g >= 0 && r.xmit_gbps > prev_g + 1)
				rose = true;
			if (prev_g >= 0 && r.xmit_gbps < prev_g - 1)
				fell = true;
			prev_g = r.xmit_gbps;
		}
		if (p2->state == PORT_STATE_DOWN) {
			down = true;
			if (p2->phys_state != PHYS_STATE_POLLING)
				over = true;
			changed |= ch;
		}
		if (down && p2->state == PORT_STATE_ACTIVE && p2->phys_state == PHYS_STATE_LINK_UP)
			back = true;
		if (wait->saturated) {
			double v;

			if (!wait_first_sat)
				wait_first_sat = (uint64_t)t + 1;
			sat_rate |= counter_rate(wait, p1->sample_ns - p1->prev_sample_ns, &v);
			latched &= wait->value == UINT64_C(4294967295);
		} else if (wait_first_sat) {
			latched = false;
		}
		{
			struct fab_counter *re = fab_port_find_counter(p2, "port_rcv_errors");
			uint64_t dv;

			if (re && counter_delta(re, &dv) && dv)
				moved_rcv = true;
		}
	}
	TAP_OK(rates, "rates are computed by port_rates() from the data counters");
	TAP_OK(!over, "no rate ever exceeds the port's link rate (max seen %.2f Gb/s)", maxg);
	TAP_OK(maxg > 10, "traffic reaches plausible heights (%.2f Gb/s)", maxg);
	TAP_OK(rose && fell, "traffic rises and falls (rose %d, fell %d)", rose, fell);
	TAP_OK(down, "the flapping port goes DOWN/Polling");
	TAP_OK(back, "and comes back ACTIVE/LinkUp");
	TAP_OK(changed && changes >= 2, "demo_tick reports the structure change (changed %d, %u changes)", changed,
	       changes);
	TAP_OK(any_zero_rate, "no traffic while the link is down");
	TAP_OK(downed->value > downed0, "link_downed counts the flaps (%" PRIu64 " -> %" PRIu64 ")",
	       downed0, downed->value);
	TAP_OK(sym->value > sym0, "symbol_error moves (%" PRIu64 " -> %" PRIu64 ")", sym0, sym->value);
	TAP_OK(moved_rcv, "port_rcv_errors moves between samples");
	TAP_OK(wait_first_sat > 0 && wait_first_sat < 120,
	       "port_xmit_wait saturates within two minutes (after %" PRIu64 " s)", wait_first_sat);
	TAP_OK(wait->saturated && latched, "and stays latched at 4294967295, flagged saturated (latched %d, %s)",
	       latched, counter_str(wait));
	TAP_OK(!sat_rate, "a saturated counter has no rate");
	{
		uint64_t dv = 0;

		TAP_OK(!counter_delta(wait, &dv), "nor a delta (delta %" PRIu64 ")", dv);
	}
	TAP_OK(!iw_rate, "the iWARP port (no PMA) has no data rate");
	TAP_OK(!iw->ports[0].has_pma, "and stays without PMA");
	fab_host_free(&h);
	demo_free(d);
}

/* Counters never go backwards (no reset happens in the demo) and stay within their width. */
static void test_monotonic(void)
{
	struct demo *d = demo_new(12345);
	struct fab_host h;
	bool ok = true, width = true;
	char back[256] = "", wide[256] = "";

	demo_collect(d, &h);
	for (int t = 0; t < 300; t++) {
		demo_tick(d, &h, TICK_NS / 2);
		for (size_t i = 0; i < h.ndevs; i++)
			for (size_t k = 0; k < h.devs[i].nports; k++) {
				struct fab_port *p = &h.devs[i].ports[k];

				for (size_t c = 0; c < p->ncounters; c++) {
					struct fab_counter *ct = &p->counters[c];

					if (ct->known && ct->prev_known && ct->value < ct->prev_value && ok) {
						ok = false;
						snprintf(back, sizeof(back), ": %s %s %" PRIu64 " -> %" PRIu64,
							 h.devs[i].name, ct->name, ct->prev_value, ct->value);
					}
					if (ct->known && ct->value > counter_max(ct->bits) && width) {
						width = false;
						snprintf(wide, sizeof(wide), ": %s %s %" PRIu64 " in %u bits",
							 h.devs[i].name, ct->name, ct->value, ct->bits);
					}
				}
			}
	}
	TAP_OK(ok, "no counter goes backwards%s", back);
	TAP_OK(width, "every value fits its counter's width%s", wide);
	fab_host_free(&h);
	demo_free(d);
}

/* Hours later the bad port's narrow error counters latch at all-ones like a PMA's: saturated, not unknown. */
static void test_latch(void)
{
	struct demo *d = demo_new(7);
	struct fab_host h;
	struct fab_port *p2;
	struct fab_counter *sym, *downed;
	bool unknown = false;

	demo_collect(d, &h);
	p2 = fab_host_find_port(&h, "mlx5_0", 2);
	for (int t = 0; t < 8 * 60 && p2; t++) {
		demo_tick(d, &h, 60 * TICK_NS);
		for (size_t c = 0; c < p2->ncounters; c++)
			unknown |= !p2->counters[c].known;
	}
	sym = p2 ? fab_port_find_counter(p2, "symbol_error") : NULL;
	downed = p2 ? fab_port_find_counter(p2, "link_downed") : NULL;
	TAP_OK(sym && sym->saturated && sym->value == 65535, "after 8 h symbol_error latches at 65535 (%s)",
	       counter_str(sym));
	TAP_OK(downed && downed->saturated && downed->value == 255, "link_downed at 255 (%s)", counter_str(downed));
	TAP_OK(!unknown, "no counter of the port ever reads unknown");
	fab_host_free(&h);
	demo_free(d);
}

/* The source abstraction picks the demo from the context. */
static void test_source(void)
{
	struct fab_ctx ctx;
	struct source *s;
	struct fab_host h;
	int rc;

	memset(&ctx, 0, sizeof(ctx));
	ctx.demo = true;
	ctx.seed = 7;
	ctx.interval_s = 1.0;
	ctx.sysfs_root = "/nonexistent";
	/* the kind, by name: source_open() puts a recorder around it (its ops are the recorder's own) */
	s = source_open(&ctx);
	TAP_OK(s && !strcmp(s->ops->name, "demo") && source_has(s, SOURCE_SIMULATED),
	       "source_open gives the demo when ctx->demo (source %s, simulated %d)", s ? s->ops->name : "NULL",
	       s ? source_has(s, SOURCE_SIMULATED) : 0);
	rc = source_collect(s, &h, COLLECT_ALL);
	TAP_OK(rc == 0 && h.ndevs == 3, "source_collect builds the demo host (rc %d, %zu devices)", rc, h.ndevs);
	{
		uint64_t t0 = h.devs[0].ports[0].sample_ns;

		/* The wall clock is ignored beyond whole intervals: 1.4 s elapsed counts as one. */
		source_refresh(s, &h, util_now_ns() + UINT64_C(1400000000));
		ASSERT_EQ_U64(h.devs[0].ports[0].sample_ns - t0, TICK_NS, "one refresh, one simulated interval");
		ASSERT_EQ_U64(h.devs[0].ports[0].prev_sample_ns, t0, "the previous sample is kept for rates");
	}
	{
		uint64_t t0 = h.devs[0].ports[0].sample_ns, now = util_now_ns();

		/* Refreshes must be relative to the last one: take it now, then step by hand. */
		source_refresh(s, &h, now);
		t0 = h.devs[0].ports[0].sample_ns;
		source_refresh(s, &h, now + UINT64_C(2030000000));
		ASSERT_EQ_U64(h.devs[0].ports[0].sample_ns - t0, 2 * TICK_NS, "2.03 s late is two intervals");
		t0 = h.devs[0].ports[0].sample_ns;
		source_refresh(s, &h, now + UINT64_C(2530000000));
		ASSERT_EQ_U64(h.devs[0].ports[0].sample_ns - t0, UINT64_C(500000000),
			      "off schedule (0.5 s on a 1 s interval): the elapsed time, never more");
	}
	fab_host_free(&h);
	source_close(s);

	ctx.demo = false;
	s = source_open(&ctx);
	TAP_OK(s && !strcmp(s->ops->name, "live") && !source_has(s, SOURCE_SIMULATED),
	       "without --demo the source is sysfs (source %s, simulated %d)", s ? s->ops->name : "NULL",
	       s ? source_has(s, SOURCE_SIMULATED) : 0);
	rc = source_collect(s, &h, COLLECT_ALL);
	TAP_OK(rc == 0 && h.sysfs_missing, "a missing sysfs root is reported, not faked (rc %d, sysfs_missing %d)", rc,
	       h.sysfs_missing);

	fab_host_free(&h);
	source_close(s);
}

int main(void)
{
	test_determinism();
	test_structure();
	test_dynamics();
	test_monotonic();
	test_latch();
	test_source();
	return tap_done();
}
