/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RoCE lossless chain of one netdev: DCB (PFC, ETS, APP, trust) and its congestion counters. */
#ifndef FABTOP_MODEL_ROCE_H
#define FABTOP_MODEL_ROCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ROCE_PRIOS	8	/* IEEE 802.1Q priorities, and 802.1Qaz traffic classes */
#define ROCE_MAX_APPS	128	/* APP table entries kept (64 DSCP values and then some) */
#define ROCE_MAX_TRUST	8	/* selectors in the trust order */
#define ROCE_CC_ROLES	7	/* enum roce_cc_role (derive/roce_ctr.h) */

/* IEEE 802.1Qaz APP selectors (linux/dcbnl.h IEEE_8021QAZ_APP_SEL_*). */
#define ROCE_APP_SEL_ETHERTYPE	1
#define ROCE_APP_SEL_DSCP	5
/* The kernel's own selector for PCP in the trust order (DCB_APP_SEL_PCP, Linux 6.3). */
#define ROCE_APP_SEL_PCP	255

struct roce_app {
	uint8_t selector;	/* ROCE_APP_SEL_* */
	uint8_t priority;
	uint16_t protocol;	/* the DSCP value for selector 5, the ethertype for 1 */
};

/* What RTM_GETDCB DCB_CMD_IEEE_GET answered for a netdev. */
struct roce_dcb {
	int err;		/* 0: answered; -EOPNOTSUPP: the driver has no DCB; else -errno */
	bool has_ets, has_pfc, has_dcbx, has_trust;
	uint8_t ets_cap;
	uint8_t prio_tc[ROCE_PRIOS];	/* priority -> traffic class */
	uint8_t tc_tx_bw[ROCE_PRIOS];	/* percent per traffic class */
	uint8_t tc_tsa[ROCE_PRIOS];	/* 0 strict, 1 CBS, 2 ETS, 255 vendor */
	uint8_t pfc_cap;		/* traffic classes that can have PFC */
	uint8_t pfc_en;			/* bit p: PFC on priority p */
	uint16_t pfc_delay;
	uint64_t pfc_requests[ROCE_PRIOS];	/* PFC frames sent (driver-kept, often 0) */
	uint64_t pfc_indications[ROCE_PRIOS];	/* PFC frames received */
	struct roce_app apps[ROCE_MAX_APPS];
	unsigned int napps;
	unsigned int apps_dropped;	/* past ROCE_MAX_APPS */
	uint8_t trust[ROCE_MAX_TRUST];	/* selectors in trust order */
	unsigned int ntrust;
	uint8_t dcbx;			/* DCB_CAP_DCBX_* bits */
	unsigned int unknown_attrs;	/* attributes this fabtop does not know, skipped */
};

/* Per-priority counters of the netdev's ethtool statistics (doc/roce.md names each source). */
enum roce_prio_ctr {
	ROCE_PRIO_RX_PAUSE = 0,		/* PFC pause frames received */
	ROCE_PRIO_TX_PAUSE,		/* PFC pause frames sent */
	ROCE_PRIO_RX_PAUSE_US,		/* time paused by the peer, microseconds */
	ROCE_PRIO_TX_PAUSE_US,		/* time this port paused the peer, microseconds */
	ROCE_PRIO_RX_DISCARDS,		/* received packets dropped: no buffer */
	ROCE_PRIO_RX_ECN_MARKED,	/* received packets the NIC marked ECN */
	ROCE_PRIO_NCTRS,
};

/* Port-wide counters of the same statistics. */
enum roce_port_ctr {
	ROCE_PORT_RX_OUT_OF_BUFFER = 0,	/* receive queue had no buffer */
	ROCE_PORT_RX_DISCARDS_PHY,	/* dropped at the port: no buffer */
	ROCE_PORT_PAUSE_STORM_WARN,	/* sending pauses for long */
	ROCE_PORT_PAUSE_STORM_ERR,	/* ...so long that pause sending was stopped */
	ROCE_PORT_GLOBAL_RX_PAUSE,	/* link-level (802.3x) pause frames received */
	ROCE_PORT_GLOBAL_TX_PAUSE,	/* ...and sent */
	ROCE_PORT_NCTRS,
};

struct roce_ctr {
	bool known;
	uint64_t value;
};

/* What the netdev's ethtool statistics hold of the chain. */
struct roce_ethtool {
	int err;			/* 0: read; -EOPNOTSUPP: no statistics; else -errno */
	unsigned int nstats;		/* counters the driver reported in all */
	unsigned int nmatched;		/* of them, known to fabtop */
	struct roce_ctr prio[ROCE_PRIO_NCTRS][ROCE_PRIOS];
	struct roce_ctr port[ROCE_PORT_NCTRS];
	/* Link-level pause through ethtool netlink (ETHTOOL_MSG_PAUSE_GET), where the kernel has it. */
	int pause_err;			/* 0: answered; -ENOENT: no ethtool netlink; -EOPNOTSUPP: no pause */
	bool pause_known;
	bool pause_autoneg, pause_rx, pause_tx;
};

/* One RoCE port (Ethernet link layer) and what its netdev says of the chain. */
struct roce_port {
	char dev[64];			/* RDMA device */
	unsigned int port;
	char netdev[16];		/* the lower (physical) netdev DCB lives on, "" if none */
	bool recorded;			/* dcb and eth were replayed from files, not asked */
	struct roce_dcb dcb;
	struct roce_ethtool eth;
	/* The RDMA side's congestion counters (hw_counters), by enum roce_cc_role. */
	struct roce_ctr cc[ROCE_CC_ROLES];
	struct opt_tos {
		bool known;
		unsigned int value;	/* rdma_cm default_roce_tos: DSCP << 2 | ECN */
	} tos;
	char roce_mode[64];		/* rdma_cm default_roce_mode, "" if unknown */
	/*
	 * DCQCN's notification point (np: CNPs sent for ECN marks received) and
	 * reaction point (rp: the rate lowered for CNPs received) per priority,
	 * where the driver shows them: MLNX_OFED's mlx5 under
	 * /sys/class/net/IF/ecn/roce_np|roce_rp/enable/PRIO (doc/roce.md).
	 */
	struct roce_ecn {
		bool known;		/* IF/ecn exists */
		bool np_known[ROCE_PRIOS], np[ROCE_PRIOS];
		bool rp_known[ROCE_PRIOS], rp[ROCE_PRIOS];
	} ecn;
	bool has_v2_gids;		/* the port has RoCE v2 GID entries */
};

struct roce_state {
	struct roce_port *ports;
	size_t nports;
	uint64_t t_ns;			/* when sampled (CLOCK_MONOTONIC; replays: 1 s apart) */
	bool next;			/* a fixture tree's second recorded sample (fabtop-recorded/next) */
};

void roce_state_free(struct roce_state *st);

/* Why DCB could not be read, in words ("the netdev's driver has no DCB support ..."). */
const char *roce_dcb_err_str(int err);

/* The priority the APP table gives DSCP value dscp, -1 when it has none. */
int roce_dcb_dscp_prio(const struct roce_dcb *d, unsigned int dscp);

#endif
