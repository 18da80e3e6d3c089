// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the ethtool statistics parser: the drivers' names, priorities, lengths, unterminated names. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "collect/ethtool_parse.h"
#include "tap.h"

#define N 16

int main(void)
{
	static const char *const names[N] = {
		"rx_packets", "rx_prio3_pause", "rx_prio3_pause_duration", "tx_prio3_pause",
		"tx_prio3_pause_duration", "rx_prio3_discards", "rx_prio3_marked", "rx_out_of_buffer",
		"tx_pause_storm_warning_events", "rx_prio8_pause", "rx_pfc_ena_frames_pri5",
		"pfc_pri5_tx_duration_us", "rx_priority_2_xoff.nic", "rx_priority_2_xon.nic",
		"rx_prio3_pause_durationX", "rx_discards_phy",
	};
	char strs[N * ETHTOOL_NAME_LEN];
	uint64_t vals[N];
	struct roce_ethtool e;
	bool pp;
	int prio, rc;

	memset(strs, 0, sizeof(strs));
	for (int i = 0; i < N; i++) {
		strncpy(strs + i * ETHTOOL_NAME_LEN, names[i], ETHTOOL_NAME_LEN);
		vals[i] = 1000 + (uint64_t)i;
	}
	rc = ethtool_stats_parse(strs, sizeof(strs), vals, sizeof(vals), N, &e);
	ASSERT_EQ_INT(rc, 0, "a whole answer parses");
	ASSERT_EQ_INT(e.nstats, N, "all counted");
	ASSERT_EQ_INT(e.nmatched, 12, "the chain's counters matched, the rest skipped");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_RX_PAUSE][3].value, 1001, "mlx5 rx_prio3_pause");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_RX_PAUSE_US][3].value, 1002, "mlx5 rx_prio3_pause_duration");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_TX_PAUSE][3].value, 1003, "mlx5 tx_prio3_pause");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_TX_PAUSE_US][3].value, 1004, "mlx5 tx_prio3_pause_duration");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_RX_DISCARDS][3].value, 1005, "mlx5 rx_prio3_discards");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_RX_ECN_MARKED][3].value, 1006, "mlx5 rx_prio3_marked");
	ASSERT_EQ_U64(e.port[ROCE_PORT_RX_OUT_OF_BUFFER].value, 1007, "mlx5 rx_out_of_buffer");
	ASSERT_EQ_U64(e.port[ROCE_PORT_PAUSE_STORM_WARN].value, 1008, "mlx5 pause storm warnings");
	ASSERT_EQ_U64(e.port[ROCE_PORT_RX_DISCARDS_PHY].value, 1015, "mlx5 rx_discards_phy");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_RX_PAUSE][5].value, 1010, "bnxt rx_pfc_ena_frames_pri5");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_TX_PAUSE_US][5].value, 1011, "bnxt pfc_pri5_tx_duration_us");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_RX_PAUSE][2].value, 1012, "ice rx_priority_2_xoff.nic");
	TAP_OK(!e.prio[ROCE_PRIO_RX_PAUSE][0].known && !e.port[ROCE_PORT_PAUSE_STORM_ERR].known,
	       "counters the driver did not name stay unknown");

	ASSERT_EQ_INT(ethtool_name_kind("rx_prio8_pause", &prio, &pp), -1, "priority 8 does not exist");
	ASSERT_EQ_INT(ethtool_name_kind("rx_prio3_pause_durationX", &prio, &pp), -1, "a longer name is another counter");
	ASSERT_EQ_INT(ethtool_name_kind("rx_prio_pause", &prio, &pp), -1, "no digit, no match");
	ASSERT_EQ_INT(ethtool_name_kind("", &prio, &pp), -1, "empty name");
	ASSERT_EQ_INT(ethtool_name_kind("rx_out_of_buffer_x", &prio, &pp), -1, "port counter name must be whole");

	/* A name that fills all 32 bytes, no NUL: read as 32 characters, not past. */
	memset(strs, 'a', ETHTOOL_NAME_LEN);
	rc = ethtool_stats_parse(strs, sizeof(strs), vals, sizeof(vals), 1, &e);
	TAP_OK(rc == 0 && e.nmatched == 0, "an unterminated name is read within its 32 bytes (rc %d)", rc);

	/* Lengths that do not hold n of each. */
	ASSERT_EQ_INT(ethtool_stats_parse(strs, sizeof(strs), vals, sizeof(vals), N + 1, &e), -EBADMSG,
		      "more names than the buffer holds");
	ASSERT_EQ_INT(ethtool_stats_parse(strs, sizeof(strs), vals, 8 * 3, 4, &e), -EBADMSG,
		      "fewer values than names");
	ASSERT_EQ_INT(ethtool_stats_parse(strs, 0, vals, 0, 0, &e), 0, "no statistics is not an error");
	ASSERT_EQ_INT(e.nstats, 0, "and counts none");
	return tap_done();
}
