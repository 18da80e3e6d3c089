// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of counter widths, saturation, the x4 data unit and rate maths. */
#include "config.h"

#include <stdlib.h>

#include "kernel/host.h"
#include "derive/counters.h"
#include "derive/units.h"
#include "tap.h"

static void test_widths(void)
{
	struct fab_counter c;

	counter_define(&c, "port_xmit_data", COUNTER_SRC_COUNTERS, false);
	ASSERT_EQ_INT(c.bits, 32, "data counter is 32-bit without unicast_* files");
	ASSERT_EQ_INT(c.kind, COUNTER_KIND_DATA, "port_xmit_data is a data counter");
	counter_define(&c, "port_xmit_data", COUNTER_SRC_COUNTERS, true);
	ASSERT_EQ_INT(c.bits, 64, "data counter is 64-bit with extended width");
	counter_define(&c, "port_xmit_wait", COUNTER_SRC_COUNTERS, true);
	ASSERT_EQ_INT(c.bits, 32, "port_xmit_wait stays 32-bit");
	counter_define(&c, "symbol_error", COUNTER_SRC_COUNTERS, true);
	ASSERT_EQ_INT(c.bits, 16, "symbol_error is 16-bit");
	counter_define(&c, "link_downed", COUNTER_SRC_COUNTERS, true);
	ASSERT_EQ_INT(c.bits, 8, "link_downed is 8-bit");
	counter_define(&c, "local_link_integrity_errors", COUNTER_SRC_COUNTERS, false);
	ASSERT_EQ_INT(c.bits, 4, "local_link_integrity_errors is 4-bit");
	counter_define(&c, "port_rcv_data_64", COUNTER_SRC_COUNTERS_EXT, false);
	ASSERT_EQ_INT(c.bits, 64, "counters_ext is 64-bit");
	counter_define(&c, "rnr_nak_retry_err", COUNTER_SRC_HW_COUNTERS, false);
	ASSERT_EQ_INT(c.bits, 64, "hw_counters are 64-bit");
	ASSERT_EQ_INT(c.kind, COUNTER_KIND_ERROR, "an *_err hw counter is an error");
	counter_define(&c, "link_downed", COUNTER_SRC_HW_COUNTERS, false);
	ASSERT_EQ_INT(c.kind, COUNTER_KIND_ERROR, "rxe's hw link_downed is an error, as the IB one");
	ASSERT_EQ_INT(c.bits, 64, "and 64 bits wide, as hw_counters are");
	counter_define(&c, "vendor_thing", COUNTER_SRC_COUNTERS, false);
	ASSERT_EQ_INT(c.bits, 64, "unknown counter assumed 64-bit (never falsely saturated)");
}

static void test_saturation(void)
{
	struct fab_counter c;

	counter_define(&c, "port_xmit_wait", COUNTER_SRC_COUNTERS, false);
	collect_counter_text(&c, "4294967295");
	TAP_OK(c.known && c.saturated, "32-bit all-ones is saturated (known %d, saturated %d)", c.known, c.saturated);
	counter_define(&c, "port_xmit_data", COUNTER_SRC_COUNTERS, true);
	collect_counter_text(&c, "4294967295");
	TAP_OK(c.known && !c.saturated, "the same value on a 64-bit counter is not (known %d, saturated %d)",
	       c.known, c.saturated);
	counter_define(&c, "link_downed", COUNTER_SRC_COUNTERS, false);
	collect_counter_text(&c, "255");
	TAP_OK(c.saturated, "8-bit 255 is saturated (known %d, value %" PRIu64 ")", c.known, c.value);
	collect_counter_text(&c, "256");
	TAP_OK(!c.known, "a value wider than the counter is unknown (value %" PRIu64 ")", c.value);
	collect_counter_text(&c, "N/A (no PMA)");
	TAP_OK(!c.known, "N/A (no PMA) is unknown (value %" PRIu64 ")", c.value);
	ASSERT_EQ_STR(c.raw, "N/A (no PMA)", "raw text kept");
	counter_define(&c, "x", COUNTER_SRC_HW_COUNTERS, false);
	collect_counter_text(&c, "18446744073709551615");
	TAP_OK(c.saturated, "64-bit all-ones is saturated (known %d, value %" PRIu64 ")", c.known, c.value);
}

/*
 * Every counter the kernel exports under ports/N/counters/, with its width
 * in PortCounters (drivers/infiniband/core/sysfs.c, PORT_PMA_ATTR: IBA
 * 16.1.3.5) and, for the data and packet counters, in PortCountersExtended
 * (PORT_PMA_ATTR_EXT: 64). unicast_* and multicast_* exist only in the
 * extended form; the legacy OFED counters_ext/ files are 64-bit.
 */
static const struct {
	const char *name;
	enum fab_counter_source src;
	unsigned int bits, ext_bits;
} kernel_widths[] = {
	{ "symbol_error",			COUNTER_SRC_COUNTERS, 16, 16 },
	{ "link_error_recovery",		COUNTER_SRC_COUNTERS,  8,  8 },
	{ "link_downed",			COUNTER_SRC_COUNTERS,  8,  8 },
	{ "port_rcv_errors",			COUNTER_SRC_COUNTERS, 16, 16 },
	{ "port_rcv_remote_physical_errors",	COUNTER_SRC_COUNTERS, 16, 16 },
	{ "port_rcv_switch_relay_errors",	COUNTER_SRC_COUNTERS, 16, 16 },
	{ "port_xmit_discards",			COUNTER_SRC_COUNTERS, 16, 16 },
	{ "port_xmit_constraint_errors",	COUNTER_SRC_COUNTERS,  8,  8 },
	{ "port_rcv_constraint_errors",		COUNTER_SRC_COUNTERS,  8,  8 },
	{ "local_link_integrity_errors",	COUNTER_SRC_COUNTERS,  4,  4 },
	{ "excessive_buffer_overrun_errors",	COUNTER_SRC_COUNTERS,  4,  4 },
	{ "VL15_dropped",			COUNTER_SRC_COUNTERS, 16, 16 },
	{ "port_xmit_data",			COUNTER_SRC_COUNTERS, 32, 64 },
	{ "port_rcv_data",			COUNTER_SRC_COUNTERS, 32, 64 },
	{ "port_xmit_packets",			COUNTER_SRC_COUNTERS, 32, 64 },
	{ "port_rcv_packets",			COUNTER_SRC_COUNTERS, 32, 64 },
	{ "port_xmit_wait",			COUNTER_SRC_COUNTERS, 32, 32 },
	{ "unicast_xmit_packets",		COUNTER_SRC_COUNTERS, 64, 64 },
	{ "unicast_rcv_packets",		COUNTER_SRC_COUNTERS, 64, 64 },
	{ "multicast_xmit_packets",		COUNTER_SRC_COUNTERS, 64, 64 },
	{ "multicast_rcv_packets",		COUNTER_SRC_COUNTERS, 64, 64 },
	{ "port_xmit_data_64",			COUNTER_SRC_COUNTERS_EXT, 64, 64 },
	{ "port_rcv_data_64",			COUNTER_SRC_COUNTERS_EXT, 64, 64 },
	{ "port_xmit_packets_64",		COUNTER_SRC_COUNTERS_EXT, 64, 64 },
	{ "port_rcv_packets_64",		COUNTER_SRC_COUNTERS_EXT, 64, 64 },
	{ "port_unicast_xmit_packets",		COUNTER_SRC_COUNTERS_EXT, 64, 64 },
	{ "port_unicast_rcv_packets",		COUNTER_SRC_COUNTERS_EXT, 64, 64 },
	{ "port_multicast_xmit_packets",	COUNTER_SRC_COUNTERS_EXT, 64, 64 },
	{ "port_multicast_rcv_packets",		COUNTER_SRC_COUNTERS_EXT, 64, 64 },
};

static void test_width_table(void)
{
	struct fab_counter c;
	char desc[160];

	for (size_t i = 0; i < sizeof(kernel_widths) / sizeof(kernel_widths[0]); i++) {
		counter_define(&c, kernel_widths[i].name, kernel_widths[i].src, false);
		snprintf(desc, sizeof(desc), "%s is %u-bit without the extended width", kernel_widths[i].name,
			 kernel_widths[i].bits);
		ASSERT_EQ_INT(c.bits, kernel_widths[i].bits, desc);
		counter_define(&c, kernel_widths[i].name, kernel_widths[i].src, true);
		snprintf(desc, sizeof(desc), "%s is %u-bit with it", kernel_widths[i].name, kernel_widths[i].ext_bits);
		ASSERT_EQ_INT(c.bits, kernel_widths[i].ext_bits, desc);
	}
}

/*
 * Saturation at each width, both sides of the boundary, with the values
 * expected: all-ones less one is an ordinary known value, all-ones is
 * saturated (the counter has stopped), one more is no such counter's value.
 */
static void test_saturation_boundaries(void)
{
	static const struct {
		const char *name;
		enum fab_counter_source src;
		bool ext;
		unsigned int bits;
		const char *below, *max, *above;	/* as the kernel prints them */
	} b[] = {
		{ "local_link_integrity_errors", COUNTER_SRC_COUNTERS, false, 4, "14", "15", "16" },
		{ "link_downed", COUNTER_SRC_COUNTERS, false, 8, "254", "255", "256" },
		{ "symbol_error", COUNTER_SRC_COUNTERS, false, 16, "65534", "65535", "65536" },
		{ "port_xmit_wait", COUNTER_SRC_COUNTERS, true, 32, "4294967294", "4294967295", "4294967296" },
		{ "port_xmit_data", COUNTER_SRC_COUNTERS, true, 64, "18446744073709551614",
		  "18446744073709551615", NULL },
		{ "rnr_nak_retry_err", COUNTER_SRC_HW_COUNTERS, false, 64, "18446744073709551614",
		  "18446744073709551615", NULL },
	};
	struct fab_counter c;
	char desc[160];
	double rate;

	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		uint64_t max = b[i].bits == 64 ? UINT64_MAX : (UINT64_C(1) << b[i].bits) - 1;

		counter_define(&c, b[i].name, b[i].src, b[i].ext);
		ASSERT_EQ_INT(c.bits, b[i].bits, b[i].name);
		ASSERT_EQ_U64(counter_max(c.bits), max, "its all-ones value");
		collect_counter_text(&c, b[i].below);
		snprintf(desc, sizeof(desc), "%u-bit %s at %s: known, not saturated, that value", b[i].bits,
			 b[i].name, b[i].below);
		TAP_OK(c.known && !c.saturated && c.value == max - 1, "%s (known %d saturated %d value %" PRIu64 ")",
		       desc, c.known, c.saturated, c.value);
		collect_counter_text(&c, b[i].max);
		snprintf(desc, sizeof(desc), "%u-bit %s at %s: saturated", b[i].bits, b[i].name, b[i].max);
		TAP_OK(c.known && c.saturated && c.value == max, "%s (known %d saturated %d value %" PRIu64 ")",
		       desc, c.known, c.saturated, c.value);
		TAP_OK(!counter_rate(&c, 1000000000, &(double){ 0 }), "%u-bit: no rate into saturation", b[i].bits);
		if (b[i].above) {
			collect_counter_text(&c, b[i].above);
			TAP_OK(!c.known && !c.saturated, "%u-bit %s at %s: unknown, never wrapped (known %d saturated %d "
			       "value %" PRIu64 ")", b[i].bits, b[i].name, b[i].above, c.known, c.saturated, c.value);
		}
		/* the same boundary through counter_sample_value, as the PMA and netlink paths feed it */
		counter_define(&c, b[i].name, b[i].src, b[i].ext);
		counter_sample_value(&c, true, max - 2);
		counter_sample_value(&c, true, max - 1);
		rate = 0;
		TAP_OK(!c.saturated && counter_rate(&c, 1000000000, &rate) && rate == 1.0,
		       "%u-bit: max-2 -> max-1 in 1 s is a rate of 1/s (saturated %d, rate %g)", b[i].bits,
		       c.saturated, rate);
		counter_sample_value(&c, true, max);
		TAP_OK(c.saturated && !counter_rate(&c, 1000000000, &(double){ 0 }),
		       "%u-bit: max-1 -> max is saturation, no rate (saturated %d)", b[i].bits, c.saturated);
	}
}

static void test_rates(void)
{
	struct fab_counter c;
	double v = 0;
	uint64_t d = 0;

	counter_define(&c, "port_xmit_data", COUNTER_SRC_COUNTERS, true);
	counter_sample_value(&c, true, 1000);
	TAP_OK(!counter_rate(&c, 1000000000, &v), "no rate from one sample (rate %g)", v);
	counter_sample_value(&c, true, 1000 + 250000000);	/* 250M words in 1 s */
	TAP_OK(counter_bytes_rate(&c, 1000000000, &v), "rate from two samples");
	ASSERT_NEAR(v, 1e9, 1e-3, "250M words/s is 1e9 bytes/s (x4)");
	TAP_OK(counter_delta(&c, &d), "delta known");
	ASSERT_EQ_U64(d, 250000000, "delta value");
	counter_sample_value(&c, true, 5);
	TAP_OK(!counter_rate(&c, 1000000000, &v), "a counter going backwards gives no rate (rate %g)", v);
	counter_sample_value(&c, true, 10);
	TAP_OK(counter_rate(&c, 500000000, &v), "rate after the reset");
	ASSERT_NEAR(v, 10.0, 1e-9, "5 words in 0.5 s is 10/s");
	TAP_OK(counter_delta_since_start(&c, &d) == false, "since-start delta lost across a reset (delta %" PRIu64 ")",
	       d);
	counter_reset_delta(&c);
	TAP_OK(counter_delta_since_start(&c, &d) && d == 0, "r resets the since-start delta (delta %" PRIu64 ")", d);

	counter_define(&c, "port_xmit_wait", COUNTER_SRC_COUNTERS, false);
	counter_sample_value(&c, true, 4294967000u);
	counter_sample_value(&c, true, 4294967295u);
	TAP_OK(!counter_rate(&c, 1000000000, &v), "no rate into saturation (never a wrap) (rate %g)", v);
	counter_sample_value(&c, true, 4294967295u);
	TAP_OK(!counter_rate(&c, 1000000000, &v), "no rate while saturated (rate %g)", v);
}

static void test_port_units(void)
{
	/* A 1X link (procfs mlx5 fixture: "25 Gb/sec (1X EDR)") still uses x4. */
	struct fab_port p = { .num = 1, .rate_known = true, .rate_gbps = 25 };
	struct fab_counter cs[2];
	struct port_rates r;
	uint64_t bytes = 0;

	counter_define(&cs[0], "port_xmit_data", COUNTER_SRC_COUNTERS, true);
	counter_define(&cs[1], "port_rcv_data", COUNTER_SRC_COUNTERS, true);
	p.counters = cs;
	p.ncounters = 2;
	counter_sample_value(&cs[0], true, 1000);
	counter_sample_value(&cs[1], true, 0);
	p.sample_ns = 1000000000;
	TAP_OK(port_bytes(&p, DIR_XMIT, &bytes), "port bytes known");
	ASSERT_EQ_U64(bytes, 4000, "1X link: 1000 words are 4000 bytes, not 1000");
	counter_sample_value(&cs[0], true, 1000 + 312500000);	/* 10 Gb/s = 1.25e9 B/s */
	counter_sample_value(&cs[1], true, 0);
	p.prev_sample_ns = p.sample_ns;
	p.sample_ns += 1000000000;
	port_rates(&p, &r);
	TAP_OK(r.xmit_known, "xmit rate known");
	ASSERT_NEAR(r.xmit_gbps, 10.0, 1e-9, "312.5M words/s is 10 Gb/s");
	TAP_OK(r.rcv_known && r.rcv_gbps == 0, "idle rcv is 0, known (known %d, %g Gb/s)", r.rcv_known, r.rcv_gbps);
	TAP_OK(!r.xmit_pkts_known, "no packet counter, no packet rate (%g pkts/s)", r.xmit_pps);
}

static void test_rxe_packets(void)
{
	/* rxe: no counters/, only hw_counters: sent_pkts/rcvd_pkts give packet rates. */
	struct fab_port p = { .num = 1 };
	struct fab_counter cs[3];
	const struct fab_counter *pc;
	struct port_rates r;


	counter_define(&cs[0], "sent_pkts", COUNTER_SRC_HW_COUNTERS, false);
	counter_define(&cs[1], "rcvd_pkts", COUNTER_SRC_HW_COUNTERS, false);
	counter_define(&cs[2], "port_xmit_packets", COUNTER_SRC_COUNTERS, false);
	ASSERT_EQ_INT(cs[0].kind, COUNTER_KIND_PACKETS, "rxe sent_pkts is a packet counter");
	ASSERT_EQ_INT(cs[1].dir, DIR_RCV, "rxe rcvd_pkts is inbound");
	p.counters = cs;
	p.ncounters = 2;
	counter_sample_value(&cs[0], true, 100);
	counter_sample_value(&cs[1], true, 200);
	p.sample_ns = 1000000000;
	counter_sample_value(&cs[0], true, 150);
	counter_sample_value(&cs[1], true, 260);
	p.prev_sample_ns = p.sample_ns;
	p.sample_ns += 500000000;
	port_rates(&p, &r);
	TAP_OK(r.xmit_pkts_known && r.rcv_pkts_known, "packet rates from hw_counters (xmit known %d, rcv known %d)",
	       r.xmit_pkts_known, r.rcv_pkts_known);
	ASSERT_NEAR(r.xmit_pps, 100.0, 1e-9, "50 packets in 0.5 s");
	TAP_OK(!r.xmit_known, "still no byte rate: rxe has no data counter (%g Gb/s)", r.xmit_gbps);
	p.ncounters = 3;
	collect_counter_text(&cs[2], "N/A (no PMA)");
	pc = port_packets_counter(&p, DIR_XMIT);
	TAP_OK(pc == &cs[0], "an N/A PMA counter loses to a readable driver one (got %s)", pc ? pc->name : "NULL");
	counter_sample_value(&cs[2], true, 5);
	pc = port_packets_counter(&p, DIR_XMIT);
	TAP_OK(pc == &cs[2], "a readable PMA counter wins over the driver's (got %s)", pc ? pc->name : "NULL");
}

static void test_units(void)
{
	char b[32];

	ASSERT_EQ_STR(units_bitrate(b, sizeof(b), 10e9), "10.0 Gb/s", "10 Gb/s");
	ASSERT_EQ_STR(units_bitrate(b, sizeof(b), 0), "0 b/s", "zero");
	ASSERT_EQ_STR(units_bitrate(b, sizeof(b), 999.6e6), "1.00 Gb/s", "rounding crosses a prefix");
	ASSERT_EQ_STR(units_bytes(b, sizeof(b), 4000), "3.91 KiB", "KiB");
	ASSERT_EQ_STR(units_bytes(b, sizeof(b), 512), "512 B", "bytes");
}

int main(void)
{
	test_widths();
	test_saturation();
	test_saturation_boundaries();
	test_width_table();
	test_rates();
	test_port_units();
	test_rxe_packets();
	test_units();
	return tap_done();
}
