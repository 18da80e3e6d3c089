/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host's RDMA devices, ports, counters and GIDs as plain structs. */
#ifndef FABTOP_MODEL_FABRIC_H
#define FABTOP_MODEL_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAB_NAME_LEN	64	/* device names, counter names, short attributes */
#define FAB_TEXT_LEN	128	/* firmware, rate, node description */
#define FAB_MAX_NETDEVS	8	/* netdevs remembered per port */
#define FAB_MAX_PKEYS	128	/* non-zero P_Keys remembered per port */
/*
 * The most the collector reads (collect/host.c); a recording's reader
 * refuses more (record/schema.c), so a file cannot ask for what no host gave.
 */
#define FAB_MAX_DEVICES		1024
#define FAB_MAX_PORTS		256	/* port numbers are 8-bit in IB */
#define FAB_MAX_DIR_COUNTERS	512	/* per port and directory */
#define FAB_MAX_COUNTER_DIRS	7	/* counters, counters_ext, hw_counters, the four CM directories */
#define FAB_MAX_PORT_COUNTERS	(FAB_MAX_DIR_COUNTERS * FAB_MAX_COUNTER_DIRS)
#define FAB_MAX_GIDS		4096	/* per port */
/* IFNAMSIZ without <net/if.h>, which clashes with <linux/if.h> in netlink code. */
#define FAB_IFNAMSIZ	16

/* An attribute that may be unknown: missing, unreadable or not a number. */
struct opt_u64 {
	bool known;
	uint64_t value;
};

/* IBA 14.2.5.6 PortInfo:PortState, as the kernel prints it ("4: ACTIVE"). */
enum fab_port_state {
	PORT_STATE_UNKNOWN = -1,
	PORT_STATE_NOP = 0,
	PORT_STATE_DOWN = 1,
	PORT_STATE_INIT = 2,
	PORT_STATE_ARMED = 3,
	PORT_STATE_ACTIVE = 4,
	PORT_STATE_ACTIVE_DEFER = 5,
};

/* IBA 14.2.5.6 PortInfo:PortPhysicalState ("5: LinkUp"). */
enum fab_phys_state {
	PHYS_STATE_UNKNOWN = -1,
	PHYS_STATE_NOP = 0,
	PHYS_STATE_SLEEP = 1,
	PHYS_STATE_POLLING = 2,
	PHYS_STATE_DISABLED = 3,
	PHYS_STATE_TRAINING = 4,
	PHYS_STATE_LINK_UP = 5,
	PHYS_STATE_ERROR_RECOVERY = 6,
	PHYS_STATE_PHY_TEST = 7,
};

enum fab_link_layer {
	LINK_LAYER_UNKNOWN = 0,
	LINK_LAYER_INFINIBAND,
	LINK_LAYER_ETHERNET,
};

/* Where a counter's value came from. */
enum fab_counter_source {
	COUNTER_SRC_COUNTERS = 0,	/* ports/N/counters/ (PMA PortCounters via the kernel) */
	COUNTER_SRC_COUNTERS_EXT,	/* ports/N/counters_ext/ *_64 (legacy OFED) */
	COUNTER_SRC_HW_COUNTERS,	/* ports/N/hw_counters/ (driver-specific) */
	COUNTER_SRC_PMA,		/* a MAD to the PMA (libibmad) */
	COUNTER_SRC_DEMO,		/* the simulated demo fabric */
	/*
	 * The IB CM's own MAD counts per port (drivers/infiniband/core/cm.c):
	 * ports/N/cm_tx_msgs/, cm_tx_retries/, cm_rx_msgs/, cm_rx_duplicates/,
	 * one file per message type (req, mra, rej, rep, rtu, dreq, drep,
	 * sidr_req, sidr_rep, lap, apr). The counter's name is "DIR/FILE".
	 */
	COUNTER_SRC_CM_TX_MSGS,
	COUNTER_SRC_CM_TX_RETRIES,
	COUNTER_SRC_CM_RX_MSGS,
	COUNTER_SRC_CM_RX_DUPLICATES,
	/*
	 * The same driver counters as hw_counters/, asked with one RDMA
	 * netlink STAT_GET per port (--counters netlink), optional counters
	 * included, which have no sysfs file (doc/monitor.md).
	 */
	COUNTER_SRC_NETLINK,
};

/* What a counter counts; decides units and how a rate is shown. */
enum fab_counter_kind {
	COUNTER_KIND_OTHER = 0,
	COUNTER_KIND_DATA,		/* 4-octet words: bytes = value * 4 */
	COUNTER_KIND_PACKETS,
	COUNTER_KIND_ERROR,		/* any movement is worth attention */
	COUNTER_KIND_WAIT,		/* port_xmit_wait: ticks of congestion */
};

enum fab_dir {
	DIR_NONE = 0,
	DIR_XMIT,
	DIR_RCV,
};

struct pci_hca;
struct pci_gpu;

struct fab_counter {
	char name[FAB_NAME_LEN];	/* sysfs file name, e.g. "port_xmit_data" */
	enum fab_counter_source source;
	enum fab_counter_kind kind;
	enum fab_dir dir;
	unsigned int bits;		/* width per IBA 16.1.3.5, 64 for extended/hw */
	bool known;			/* value holds a number read this sample */
	bool saturated;			/* value == all-ones of its width: latched, unknown */
	uint64_t value;
	char raw[48];			/* the text as read ("N/A (no PMA)"), for details */
	int fd;				/* kept open between refreshes, -1 if none */
	bool reopen;			/* past the fd budget: opened, read and closed each refresh */
	/* the previous sample, for rates (see derive/rates.h) */
	bool prev_known;
	bool prev_saturated;
	uint64_t prev_value;
	uint64_t first_value;		/* value at the first known sample, for deltas since start */
	bool first_known;
};

/* IB or RoCE GID type as the kernel names it in gid_attrs/types/N. */
enum fab_gid_type {
	GID_TYPE_UNKNOWN = 0,
	GID_TYPE_IB,			/* "IB/RoCE v1" on an IB port */
	GID_TYPE_ROCE_V1,		/* "IB/RoCE v1" on an Ethernet port */
	GID_TYPE_ROCE_V2,		/* "RoCE v2" */
	GID_TYPE_IWARP,			/* an iWARP RNIC's MAC-based GID ("IB/RoCE v1" to the kernel) */
};

struct fab_gid {
	unsigned int index;
	uint8_t raw[16];
	char gid[40];			/* "fe80:0000:...": 8 groups of 4 hex digits */
	enum fab_gid_type type;
	char netdev[FAB_IFNAMSIZ];		/* "" when the entry has no netdev */
	bool netdev_in_ns;		/* the netdev exists in this network namespace */
	bool has_ipv4;			/* ::ffff:a.b.c.d */
	char ipv4[16];
};

/* A network interface bound to an RDMA port (IPoIB, RoCE, iWARP). */
struct fab_netdev {
	char name[FAB_IFNAMSIZ];
	bool in_ns;			/* /sys/class/net/NAME exists here */
	struct opt_u64 mtu;
	struct opt_u64 ifindex;
	char operstate[16];		/* "up", "down", ... or "" */
	char ipoib_mode[16];		/* "datagram"/"connected" for IPoIB, else "" */
	struct opt_u64 pkey;		/* IPoIB P_Key (0x8001 -> 32769) */
	char parent[FAB_IFNAMSIZ];		/* VLAN/child's lower device, if known */
};

struct fab_port {
	unsigned int num;
	enum fab_port_state state;
	enum fab_phys_state phys_state;
	char state_raw[FAB_NAME_LEN];	/* as read, "" if unreadable */
	char phys_state_raw[FAB_NAME_LEN];
	char rate[FAB_TEXT_LEN];	/* "100 Gb/sec (4X EDR)" */
	bool rate_known;
	double rate_gbps;		/* the leading number of rate */
	enum fab_link_layer link_layer;
	char link_layer_raw[FAB_NAME_LEN];
	struct opt_u64 lid, sm_lid, lmc, sm_sl, cap_mask;
	struct opt_u64 active_mtu, max_mtu;	/* bytes, from verbs when the device opens */
	char default_roce_mode[FAB_NAME_LEN];	/* rdma_cm configfs, "" if unknown */
	struct opt_u64 default_roce_tos;	/* rdma_cm configfs: the TOS byte (DSCP << 2) */
	uint16_t pkeys[FAB_MAX_PKEYS];
	unsigned int npkeys;

	struct fab_netdev netdevs[FAB_MAX_NETDEVS];
	unsigned int nnetdevs;

	bool has_pma;			/* counters/ present and not "N/A (no PMA)" */
	struct fab_counter *counters;
	size_t ncounters;
	uint64_t sample_ns;		/* CLOCK_MONOTONIC of the latest counter sample */
	uint64_t prev_sample_ns;	/* of the one before, 0 if none */
	uint64_t first_sample_ns;

	struct fab_gid *gids;		/* non-empty entries only */
	size_t ngids;
	unsigned int gid_tbl_len;	/* entries in the table, empty ones included */
	/*
	 * COLLECT_* bits (source/source.h) not read yet: a big host is shown
	 * first and filled port by port (source/snapshot.h). 0: all read.
	 */
	unsigned int pending;
	/* A GID table read over several steps: the entries so far (not shown yet), where to go on. */
	struct fab_gid *gids_next;
	size_t ngids_next, gids_next_cap;
	unsigned int gids_next_at;
};

struct fab_device {
	char name[FAB_NAME_LEN];
	int node_type_num;		/* 1 CA, 2 switch, 3 router, 4 RNIC; -1 unknown */
	char node_type[FAB_NAME_LEN];	/* "CA", "Switch", "RNIC", ... */
	char node_guid[24];		/* "0002:c903:0031:78f0" */
	char sys_image_guid[24];
	char fw_ver[FAB_TEXT_LEN];
	char hca_type[FAB_TEXT_LEN];
	char board_id[FAB_TEXT_LEN];
	char hw_rev[FAB_NAME_LEN];
	char node_desc[FAB_TEXT_LEN];
	char driver[FAB_NAME_LEN];	/* device/driver link name, or rxe's "rxe" */
	struct pci_hca *pci;		/* its PCI function and bridges (model/pci.h); NULL: not PCI, or not read */
	struct fab_port *ports;
	size_t nports;
};

/* Everything collected about the host's RDMA side in one snapshot. */
struct fab_host {
	struct fab_device *devs;
	size_t ndevs;
	bool sysfs_missing;		/* no class/infiniband under the root at all */
	char hostname[FAB_TEXT_LEN];
	const char *root;		/* the sysfs root it was read from (the context's), for reopening */
	struct pci_gpu *gpus;		/* display controllers by PCI class (model/pci.h), read with the devices */
	size_t ngpus;
	/*
	 * Set by the caller before collecting into this host: the previous
	 * snapshot of the same source. Its open counter files are taken over
	 * (their fds there become -1) instead of opened again, so a rescan
	 * never holds two descriptors per counter. Cleared by the collection.
	 */
	struct fab_host *handover;
};

/* Lookups used by every view; names are the kernel's. */
const char *fab_port_state_str(enum fab_port_state s);
const char *fab_phys_state_str(enum fab_phys_state s);
const char *fab_link_layer_str(enum fab_link_layer l);
const char *fab_gid_type_str(enum fab_gid_type t);
const char *fab_counter_source_str(enum fab_counter_source s);
/* A driver's own counter (hw_counters/ or the same through netlink), not the PMA's. */
bool fab_counter_source_is_hw(enum fab_counter_source s);

/* Close and free what a device holds (its ports' counter files, GIDs). */
void fab_device_free(struct fab_device *d);
/* Forget a GID table half read (free: its entries too; else they were taken). */
void fab_port_gids_next_drop(struct fab_port *p, bool free_entries);
struct fab_port *fab_host_find_port(struct fab_host *h, const char *dev, unsigned int port);
/* The same of a host that is only read, with its device into *d. */
const struct fab_port *fab_host_port_of(const struct fab_host *h, const char *dev, unsigned int port,
					const struct fab_device **d);
/*
 * The RDMA port whose netdev, in this network namespace, is ifname (the
 * interface a route leaves by), its device into *dev; NULL when it has
 * none (not an RDMA netdev, or only another namespace's of that name).
 */
const struct fab_port *fab_host_port_of_netdev(const struct fab_host *h, const char *ifname,
					       const struct fab_device **dev);
/*
 * Whether h has device dev and its port (-1: any port): 0, or -ENODEV
 * with why saying which is missing and naming the devices (or ports)
 * there are, as a command line's DEV PORT is answered.
 */
int fab_host_has(const struct fab_host *h, const char *dev, int port, char *why, size_t len);
/* InfiniBand, or unknown (an old kernel has no link_layer file: InfiniBand was all there was). */
bool fab_port_maybe_ib(const struct fab_port *p);
/* IBA 4.1.3: 0x0001-0xBFFF address one port; 0 is none, above is multicast or permissive. */
bool fab_lid_is_unicast(uint64_t lid);
struct fab_counter *fab_port_find_counter(struct fab_port *p, const char *name);

/* Model time of the latest sample: the demo's simulated clock, CLOCK_MONOTONIC otherwise; fallback when none. */
uint64_t fab_host_model_now(const struct fab_host *h, uint64_t fallback);

/* Release everything a collector allocated (closes counter fds). */
void fab_host_free(struct fab_host *h);

#endif
