// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool statistics into the RoCE chain's counters: the drivers' names, each from its source (doc/roce.md). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kernel/ethtool_parse.h"
#include "util.h"

/*
 * One name pattern: prefix, a priority digit 0-7, suffix. Port-wide
 * counters have no digit (per_prio false, the whole name in prefix).
 */
struct eth_name {
	const char *prefix;
	const char *suffix;
	bool per_prio;
	int kind;		/* enum roce_prio_ctr or enum roce_port_ctr */
};

static const struct eth_name eth_names[] = {
	/* mlx5: Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst,
	 * "Priority Port Counters" and "Physical Port Counters". */
	{ "rx_prio", "_pause", true, ROCE_PRIO_RX_PAUSE },
	{ "tx_prio", "_pause", true, ROCE_PRIO_TX_PAUSE },
	{ "rx_prio", "_pause_duration", true, ROCE_PRIO_RX_PAUSE_US },
	{ "tx_prio", "_pause_duration", true, ROCE_PRIO_TX_PAUSE_US },
	{ "rx_prio", "_discards", true, ROCE_PRIO_RX_DISCARDS },
	{ "rx_prio", "_marked", true, ROCE_PRIO_RX_ECN_MARKED },
	{ "rx_out_of_buffer", "", false, ROCE_PORT_RX_OUT_OF_BUFFER },
	{ "rx_discards_phy", "", false, ROCE_PORT_RX_DISCARDS_PHY },
	{ "tx_pause_storm_warning_events", "", false, ROCE_PORT_PAUSE_STORM_WARN },
	{ "tx_pause_storm_error_events", "", false, ROCE_PORT_PAUSE_STORM_ERR },
	{ "rx_global_pause", "", false, ROCE_PORT_GLOBAL_RX_PAUSE },
	{ "tx_global_pause", "", false, ROCE_PORT_GLOBAL_TX_PAUSE },
	/* bnxt_en: drivers/net/ethernet/broadcom/bnxt/bnxt_ethtool.c,
	 * bnxt_port_stats_arr and BNXT_{RX,TX}_STATS_EXT_PFC_ENTRY. */
	{ "rx_pfc_ena_frames_pri", "", true, ROCE_PRIO_RX_PAUSE },
	{ "tx_pfc_ena_frames_pri", "", true, ROCE_PRIO_TX_PAUSE },
	{ "pfc_pri", "_rx_duration_us", true, ROCE_PRIO_RX_PAUSE_US },
	{ "pfc_pri", "_tx_duration_us", true, ROCE_PRIO_TX_PAUSE_US },
	/* ice: drivers/net/ethernet/intel/ice/ice_ethtool.c, ice_get_strings():
	 * XOFF frames are the pause requests. */
	{ "rx_priority_", "_xoff.nic", true, ROCE_PRIO_RX_PAUSE },
	{ "tx_priority_", "_xoff.nic", true, ROCE_PRIO_TX_PAUSE },
};

int ethtool_name_kind(const char *name, int *prio, bool *per_prio)
{
	for (size_t i = 0; i < ARRAY_SIZE(eth_names); i++) {
		const struct eth_name *e = &eth_names[i];
		size_t pl = strlen(e->prefix);

		if (strncmp(name, e->prefix, pl))
			continue;
		if (!e->per_prio) {
			if (name[pl])
				continue;
			*prio = -1;
			*per_prio = false;
			return e->kind;
		}
		if (name[pl] < '0' || name[pl] > '7' || strcmp(name + pl + 1, e->suffix))
			continue;
		*prio = name[pl] - '0';
		*per_prio = true;
		return e->kind;
	}
	return -1;
}

int ethtool_stats_parse(const void *names, size_t names_len, const void *values, size_t values_len,
			unsigned int n, struct roce_ethtool *out)
{
	const char *nm = names;

	memset(out, 0, sizeof(*out));
	if (n > names_len / ETHTOOL_NAME_LEN || n > values_len / sizeof(uint64_t))
		return -EBADMSG;
	out->nstats = n;
	for (unsigned int i = 0; i < n; i++) {
		char name[ETHTOOL_NAME_LEN + 1];
		uint64_t v;
		bool per_prio;
		int prio, kind;

		memcpy(name, nm + (size_t)i * ETHTOOL_NAME_LEN, ETHTOOL_NAME_LEN);
		name[ETHTOOL_NAME_LEN] = '\0';
		memcpy(&v, (const char *)values + (size_t)i * sizeof(v), sizeof(v));
		kind = ethtool_name_kind(name, &prio, &per_prio);
		if (kind < 0)
			continue;
		out->nmatched++;
		if (per_prio) {
			out->prio[kind][prio].known = true;
			out->prio[kind][prio].value = v;
		} else {
			out->port[kind].known = true;
			out->port[kind].value = v;
		}
	}
	return 0;
}
