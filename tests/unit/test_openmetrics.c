// SPDX-License-Identifier: GPL-2.0-or-later
/* The OpenMetrics writer: label escaping, exact byte counts past 2^64, both formats' metadata, negotiation. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "derive/counters.h"
#include "model/events.h"
#include "model/ibfabric.h"
#include "report/openmetrics.h"
#include "tap.h"

static char *label(const char *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	openmetrics_label_value(f, v);
	fclose(f);
	return buf;
}

static void check_label(const char *in, const char *want, const char *desc)
{
	char *got = label(in);

	ASSERT_EQ_STR(got, want, desc);
	free(got);
}

/* A one-port host whose port_xmit_data is value (64 bits wide). */
static char *render(enum openmetrics_format fmt, uint64_t value, bool saturated)
{
	struct fab_counter c;
	struct fab_port p = { .num = 1, .state = PORT_STATE_ACTIVE, .phys_state = PHYS_STATE_LINK_UP,
			      .counters = &c, .ncounters = 1 };
	struct fab_device d = { .name = "mlx5_0", .ports = &p, .nports = 1 };
	struct fab_host h = { .devs = &d, .ndevs = 1 };
	uint64_t totals[EVENT_KIND_COUNT] = { [EVENT_LINK_FLAP] = 3 };
	struct openmetrics_input in = { .host = &h, .event_totals = totals };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	counter_define(&c, "port_xmit_data", COUNTER_SRC_COUNTERS, true);
	c.known = true;
	c.value = value;
	c.saturated = saturated;
	openmetrics_write_host(f, fmt, &in);
	openmetrics_write_end(f, fmt);
	fclose(f);
	return buf;
}

/* A subnet of one CA port that is up, its PMA in state with symbol_error at 7 from an earlier answer. */
static char *render_fabric(enum ib_query_state state, uint64_t prev_sample_ns)
{
	struct ib_pma pma = { .state = state, .n = 1, .sample_ns = 2000000000, .prev_sample_ns = prev_sample_ns };
	struct ib_fport ports[2] = { 0 };
	struct ib_fnode node = { .id = { .node_guid = 0x1111, .node_type = 1, .num_ports = 1, .desc = "h1 mlx5_0" },
				 .ports = ports };
	struct ib_fabric fab = { .nodes = &node, .nnodes = 1 };
	struct openmetrics_input in = { .fabric = &fab, .fabric_sweeps = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ports[1] = (struct ib_fport){ .known = true, .pma = &pma,
				     .pi = { .num = 1, .lid = 5, .state = PORT_STATE_ACTIVE, .phys_state = PHYS_STATE_LINK_UP } };
	counter_define(&pma.c[0], "symbol_error", COUNTER_SRC_COUNTERS, false);
	pma.c[0].kind = COUNTER_KIND_ERROR;
	pma.c[0].bits = 16;
	pma.c[0].known = true;
	pma.c[0].value = 7;
	openmetrics_write_fabric(f, OPENMETRICS_PROM_0_0_4, &in);
	fclose(f);
	return buf;
}

/* A page published while a PMA round is in flight keeps the last round's counters. */
static void test_fabric_round_in_flight(void)
{
	static const char sample[] = "counter=\"symbol_error\",kind=\"error\",bits=\"16\"} 7\n";
	char *s;

	s = render_fabric(IBQ_OK, 1000000000);
	ASSERT_CONTAINS(s, sample, "fabric: an answered port's counter is exported");
	free(s);
	s = render_fabric(IBQ_PENDING, 1000000000);
	ASSERT_CONTAINS(s, sample, "fabric: while the next round asks, the last round's value stays");
	free(s);
	s = render_fabric(IBQ_PENDING, 0);
	ASSERT_NOT_CONTAINS(s, "counter=\"symbol_error\"", "fabric: before any answer, no counter");
	free(s);
	s = render_fabric(IBQ_TIMEOUT, 1000000000);
	ASSERT_NOT_CONTAINS(s, "counter=\"symbol_error\"", "fabric: a port that stopped answering has none");
	free(s);
}

int main(void)
{
	char *s;

	check_label("mlx5_0", "mlx5_0", "plain text stays");
	check_label("a\"b\\c\nd", "a\\\"b\\\\c\\nd", "quote, backslash and newline are escaped");
	check_label("caf\xc3\xa9", "caf\xc3\xa9", "valid UTF-8 stays");
	check_label("x\xffy", "x\xef\xbf\xbdy", "an invalid byte becomes U+FFFD");
	check_label("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd", "an overlong form is not UTF-8");
	check_label("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "a surrogate is not UTF-8");
	check_label("\xe2\x82", "\xef\xbf\xbd\xef\xbf\xbd", "a cut sequence is not UTF-8");

	s = render(OPENMETRICS_PROM_0_0_4, UINT64_MAX - 1, false);
	ASSERT_CONTAINS(s, "fabtop_port_transmit_bytes_total{device=\"mlx5_0\",port=\"1\"} 73786976294838206456\n",
			"words x 4 past 2^64 are printed exactly");
	ASSERT_CONTAINS(s, "# TYPE fabtop_port_transmit_bytes_total counter\n", "0.0.4 names a counter with _total");
	ASSERT_NOT_CONTAINS(s, "# UNIT", "0.0.4 has no UNIT");
	ASSERT_NOT_CONTAINS(s, "# EOF", "and no EOF");
	ASSERT_CONTAINS(s, "# TYPE fabtop_port_info gauge\n", "0.0.4 has no info type");
	ASSERT_CONTAINS(s, "fabtop_events_total{kind=\"link-flap\"} 3\n", "events counted by kind");
	ASSERT_CONTAINS(s, "fabtop_events_total{kind=\"async\"} 0\n", "every kind, zero too");
	free(s);

	s = render(OPENMETRICS_1_0, 5, false);
	ASSERT_CONTAINS(s, "# TYPE fabtop_port_transmit_bytes counter\n# UNIT fabtop_port_transmit_bytes bytes\n",
			"OpenMetrics: a counter family without _total, with its unit");
	ASSERT_CONTAINS(s, "fabtop_port_transmit_bytes_total{device=\"mlx5_0\",port=\"1\"} 20\n",
			"and its sample with _total, in bytes");
	ASSERT_CONTAINS(s, "# TYPE fabtop_port info\n", "OpenMetrics has info families");
	ASSERT_EQ_STR(s && strlen(s) > 6 ? s + strlen(s) - 6 : "", "# EOF\n", "OpenMetrics ends with # EOF");
	free(s);

	s = render(OPENMETRICS_PROM_0_0_4, UINT64_MAX, true);
	ASSERT_NOT_CONTAINS(s, "fabtop_port_transmit_bytes_total{", "a saturated data counter has no value");
	ASSERT_CONTAINS(s, "fabtop_saturated{device=\"mlx5_0\",port=\"1\",counter=\"port_xmit_data\",source=\"counters\",bits=\"64\"} 1\n",
			"it is flagged instead");

	free(s);

	ASSERT_EQ_INT(openmetrics_negotiate(NULL), OPENMETRICS_PROM_0_0_4, "no Accept: 0.0.4");
	ASSERT_EQ_INT(openmetrics_negotiate("text/plain;version=0.0.4;q=0.5,*/*;q=0.1"), OPENMETRICS_PROM_0_0_4,
		      "text/plain: 0.0.4");
	ASSERT_EQ_INT(openmetrics_negotiate("application/openmetrics-text;version=1.0.0,text/plain;q=0.5"),
		      OPENMETRICS_1_0, "OpenMetrics when named");
	test_fabric_round_in_flight();
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
