// SPDX-License-Identifier: GPL-2.0-or-later
/* The demo fabric: a simulated host whose counters move with simulated time. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo/demo.h"
#include "kernel/host.h"
#include "derive/counters.h"
#include "derive/gid.h"
#include "util.h"


/*
 * Time. Traffic is a smooth curve through keyframes SEG_US apart; the first
 * sample is taken START_SEG keyframes (an hour) after the counters started,
 * so they hold plausible totals. Flaps and error bursts begin at the first
 * sample: the cable "went bad" just as the demo starts.
 */
#define SEG_US		UINT64_C(3000000)
#define START_SEG	UINT64_C(1200)
#define WAVE_SEGS	8		/* the slow "job" wave spans this many keyframes */
#define NS_PER_US	UINT64_C(1000)

/* The flapping port: up for a seeded number of keyframes, then DOWN/Polling, then INIT/LinkUp. */
#define FLAP_UP_MIN	6
#define FLAP_UP_SPAN	4
#define FLAP_DOWN_SEGS	2
#define FLAP_INIT_SEGS	1

#define MC_BYTES	100		/* an IPoIB multicast/ARP packet */
#define WAIT_DIV_SAT	32		/* xmit bytes per port_xmit_wait tick on the congested port */
#define WAIT_DIV	(UINT64_C(1) << 22)	/* ... and on the others */
#define TCP_MSS		8948		/* iWARP segments on a 9000-byte MTU */

#define DEMO_HOSTNAME	"memserver34"

/* What a simulated counter file holds, computed per port and sample. */
enum demo_val {
	V_NONE = 0,		/* no PMA behind the file: "N/A (no PMA)" */
	V_ZERO,
	V_XMIT_WORDS, V_RCV_WORDS,
	V_XMIT_PKTS, V_RCV_PKTS,
	V_UC_XMIT_PKTS, V_UC_RCV_PKTS,
	V_MC_XMIT_PKTS, V_MC_RCV_PKTS,
	V_XMIT_WAIT,
	V_SYMBOL_ERR, V_RCV_ERR, V_LINK_RECOVERY, V_LINK_DOWNED,
	V_SEQ_ERR,		/* RC transport: out_of_sequence */
	V_CNP_SENT, V_CNP_HANDLED, V_ECN_MARKED,
	V_RX_WRITE, V_RX_READ,
	V_SEGS_IN, V_SEGS_OUT, V_RETRANS,
	V_COUNT
};

struct demo_counter_spec {
	const char *name;		/* the sysfs file it stands for */
	enum demo_val val;
};

/* One directory of counter files, in sysfs_list() order. */
struct demo_counter_dir {
	enum fab_counter_source src;
	const struct demo_counter_spec *v;
	size_t n;
};

#define DIR_OF(src, tbl) { src, tbl, ARRAY_SIZE(tbl) }

/* ports/N/counters/ of an mlx5 port with PortCountersExtended (so 64-bit data). */
static const struct demo_counter_spec mlx5_counters[] = {
	{ "VL15_dropped", V_ZERO },
	{ "excessive_buffer_overrun_errors", V_ZERO },
	{ "link_downed", V_LINK_DOWNED },
	{ "link_error_recovery", V_LINK_RECOVERY },
	{ "local_link_integrity_errors", V_ZERO },
	{ "multicast_rcv_packets", V_MC_RCV_PKTS },
	{ "multicast_xmit_packets", V_MC_XMIT_PKTS },
	{ "port_rcv_constraint_errors", V_ZERO },
	{ "port_rcv_data", V_RCV_WORDS },
	{ "port_rcv_errors", V_RCV_ERR },
	{ "port_rcv_packets", V_RCV_PKTS },
	{ "port_rcv_remote_physical_errors", V_ZERO },
	{ "port_rcv_switch_relay_errors", V_ZERO },
	{ "port_xmit_constraint_errors", V_ZERO },
	{ "port_xmit_data", V_XMIT_WORDS },
	{ "port_xmit_discards", V_ZERO },
	{ "port_xmit_packets", V_XMIT_PKTS },
	{ "port_xmit_wait", V_XMIT_WAIT },
	{ "symbol_error", V_SYMBOL_ERR },
	{ "unicast_rcv_packets", V_UC_RCV_PKTS },
	{ "unicast_xmit_packets", V_UC_XMIT_PKTS },
};

/* mlx5 hw_counters of an IB port (a subset of the driver's list). */
static const struct demo_counter_spec mlx5_ib_hw[] = {
	{ "duplicate_request", V_ZERO },
	{ "implied_nak_seq_err", V_ZERO },
	{ "local_ack_timeout_err", V_ZERO },
	{ "out_of_buffer", V_ZERO },
	{ "out_of_sequence", V_SEQ_ERR },
	{ "packet_seq_err", V_ZERO },
	{ "rnr_nak_retry_err", V_ZERO },
	{ "rx_atomic_requests", V_ZERO },
	{ "rx_read_requests", V_RX_READ },
	{ "rx_write_requests", V_RX_WRITE },
};

/* ... and of a RoCE port, with the congestion control (ECN/CNP) counters. */
static const struct demo_counter_spec mlx5_roce_hw[] = {
	{ "duplicate_request", V_ZERO },
	{ "implied_nak_seq_err", V_ZERO },
	{ "local_ack_timeout_err", V_ZERO },
	{ "np_cnp_sent", V_CNP_SENT },
	{ "np_ecn_marked_roce_packets", V_ECN_MARKED },
	{ "out_of_buffer", V_ZERO },
	{ "out_of_sequence", V_SEQ_ERR },
	{ "packet_seq_err", V_ZERO },
	{ "rnr_nak_retry_err", V_ZERO },
	{ "rp_cnp_handled", V_CNP_HANDLED },
	{ "rp_cnp_ignored", V_ZERO },
	{ "rx_atomic_requests", V_ZERO },
	{ "rx_read_requests", V_RX_READ },
	{ "rx_write_requests", V_RX_WRITE },
};

/* An iWARP RNIC has no PMA: kernels that create counters/ anyway print "N/A (no PMA)". */
static const struct demo_counter_spec nopma_counters[] = {
	{ "VL15_dropped", V_NONE },
	{ "excessive_buffer_overrun_errors", V_NONE },
	{ "link_downed", V_NONE },
	{ "link_error_recovery", V_NONE },
	{ "local_link_integrity_errors", V_NONE },
	{ "port_rcv_constraint_errors", V_NONE },
	{ "port_rcv_data", V_NONE },
	{ "port_rcv_errors", V_NONE },
	{ "port_rcv_packets", V_NONE },
	{ "port_rcv_remote_physical_errors", V_NONE },
	{ "port_rcv_switch_relay_errors", V_NONE },
	{ "port_xmit_constraint_errors", V_NONE },
	{ "port_xmit_data", V_NONE },
	{ "port_xmit_discards", V_NONE },
	{ "port_xmit_packets", V_NONE },
	{ "port_xmit_wait", V_NONE },
	{ "symbol_error", V_NONE },
};

/* iw_cxgb4's hw_counters: the offload engine's TCP/IP MIB. */
static const struct demo_counter_spec cxgb4_hw[] = {
	{ "ip4InSegs", V_SEGS_IN },
	{ "ip4OutRsts", V_ZERO },
	{ "ip4OutSegs", V_SEGS_OUT },
	{ "ip4RetransSegs", V_RETRANS },
	{ "ip6InSegs", V_ZERO },
	{ "ip6OutRsts", V_ZERO },
	{ "ip6OutSegs", V_ZERO },
	{ "ip6RetransSegs", V_ZERO },
};

struct demo_gid_spec {
	unsigned int index;
	const char *gid;		/* as gids/N reads */
	enum fab_gid_type type;		/* as the collector maps gid_attrs/types/N */
	const char *netdev;		/* gid_attrs/ndevs/N, "" when it has none */
};

struct demo_netdev_spec {
	const char *name;
	unsigned int ifindex;
	unsigned int mtu;
	const char *ipoib_mode;		/* "" when not IPoIB */
	unsigned int pkey;		/* IPoIB only */
	const char *parent;		/* a VLAN's lower device */
};

/* One simulated port: what sysfs would show, and how its traffic behaves. */
struct demo_port_spec {
	unsigned int num;
	enum fab_link_layer ll;
	const char *rate;		/* as ports/N/rate reads */
	unsigned int rate_gbps;		/* its leading number: the ceiling of all traffic */
	uint64_t lid, sm_lid, cap_mask;
	unsigned int mtu;		/* active and max MTU in bytes, as verbs reports */
	uint16_t pkey;			/* pkeys/0, 0 if none */
	const char *roce_mode;		/* rdma_cm configfs default_roce_mode, "" if none */
	unsigned int gid_tbl_len;
	const struct demo_gid_spec *gids;
	size_t ngids;
	const struct demo_netdev_spec *netdevs;	/* device/net first, then GID netdevs */
	size_t nnetdevs;
	struct demo_counter_dir dirs[2];
	/* the simulation */
	unsigned int xmit_lo, xmit_hi, rcv_lo, rcv_hi;	/* utilisation range, per mille */
	unsigned int pkt_bytes;		/* average data packet */
	unsigned int mc_per_s;		/* multicast packets per second, each way */
	bool flaps;			/* a bad cable: bursts of errors, then down and up */
	bool saturates;			/* port_xmit_wait climbs into its 32-bit ceiling */
	unsigned int phy_every, phy_max;	/* symbol error bursts: 1 in every keyframes */
	unsigned int seq_every, seq_max;	/* transport errors (out of sequence, retransmits) */
};

struct demo_dev_spec {
	const char *name;
	int node_type_num;
	const char *node_type;
	const char *node_guid, *sys_image_guid;
	const char *fw_ver, *hca_type, *board_id, *hw_rev, *node_desc, *driver;
	const struct demo_port_spec *ports;
	size_t nports;
};

static const struct demo_gid_spec ib1_gids[] = {
	{ 0, "fe80:0000:0000:0000:0c42:a103:0065:4a20", GID_TYPE_IB, "" },
};
static const struct demo_gid_spec ib2_gids[] = {
	{ 0, "fe80:0000:0000:0000:0c42:a103:0065:4a21", GID_TYPE_IB, "" },
};
static const struct demo_netdev_spec ib1_netdevs[] = {
	{ "ib0", 3, 2044, "datagram", 0xffff, "" },
};
static const struct demo_netdev_spec ib2_netdevs[] = {
	{ "ib1", 4, 2044, "datagram", 0xffff, "" },
};

/* RoCE: the default (link-local, from the MAC) and IPv4-mapped GIDs, v1 and v2, for the NIC and its VLAN. */
static const struct demo_gid_spec roce_gids[] = {
	{ 0, "fe80:0000:0000:0000:0e42:a1ff:fe5e:3b70", GID_TYPE_ROCE_V1, "enp65s0f0" },
	{ 1, "fe80:0000:0000:0000:0e42:a1ff:fe5e:3b70", GID_TYPE_ROCE_V2, "enp65s0f0" },
	{ 2, "0000:0000:0000:0000:0000:ffff:0a14:0001", GID_TYPE_ROCE_V1, "enp65s0f0" },
	{ 3, "0000:0000:0000:0000:0000:ffff:0a14:0001", GID_TYPE_ROCE_V2, "enp65s0f0" },
	{ 4, "fe80:0000:0000:0000:0e42:a1ff:fe5e:3b70", GID_TYPE_ROCE_V1, "enp65s0f0.100" },
	{ 5, "fe80:0000:0000:0000:0e42:a1ff:fe5e:3b70", GID_TYPE_ROCE_V2, "enp65s0f0.100" },
	{ 6, "0000:0000:0000:0000:0000:ffff:0a64:0001", GID_TYPE_ROCE_V1, "enp65s0f0.100" },
	{ 7, "0000:0000:0000:0000:0000:ffff:0a64:0001", GID_TYPE_ROCE_V2, "enp65s0f0.100" },
};
static const struct demo_netdev_spec roce_netdevs[] = {
	{ "enp65s0f0", 5, 9000, "", 0, "" },
	{ "enp65s0f0.100", 7, 9000, "", 0, "enp65s0f0" },
};

/*
 * iWARP: one GID, the MAC in the first six bytes. The kernel's GID cache
 * types it "IB/RoCE v1"; the collector calls an RNIC's GIDs iWARP, and so
 * does the demo.
 */
static const struct demo_gid_spec iw_gids[] = {
	{ 0, "0007:43a1:b2c0:0000:0000:0000:0000:0000", GID_TYPE_IWARP, "enp3s0f4" },
};
static const struct demo_netdev_spec iw_netdevs[] = {
	{ "enp3s0f4", 6, 9000, "", 0, "" },
};

static const struct demo_port_spec mlx5_0_ports[] = {
	{
		.num = 1, .ll = LINK_LAYER_INFINIBAND, .rate = "100 Gb/sec (4X EDR)", .rate_gbps = 100,
		.lid = 7, .sm_lid = 1, .cap_mask = 0x2651e848, .mtu = 4096, .pkey = 0xffff, .roce_mode = "",
		.gid_tbl_len = 128, .gids = ib1_gids, .ngids = ARRAY_SIZE(ib1_gids),
		.netdevs = ib1_netdevs, .nnetdevs = ARRAY_SIZE(ib1_netdevs),
		.dirs = { DIR_OF(COUNTER_SRC_COUNTERS, mlx5_counters), DIR_OF(COUNTER_SRC_HW_COUNTERS, mlx5_ib_hw) },
		.xmit_lo = 150, .xmit_hi = 920, .rcv_lo = 80, .rcv_hi = 640,
		.pkt_bytes = 3600, .mc_per_s = 2, .saturates = true,
	},
	{
		.num = 2, .ll = LINK_LAYER_INFINIBAND, .rate = "100 Gb/sec (4X EDR)", .rate_gbps = 100,
		.lid = 8, .sm_lid = 1, .cap_mask = 0x2651e848, .mtu = 4096, .pkey = 0xffff, .roce_mode = "",
		.gid_tbl_len = 128, .gids = ib2_gids, .ngids = ARRAY_SIZE(ib2_gids),
		.netdevs = ib2_netdevs, .nnetdevs = ARRAY_SIZE(ib2_netdevs),
		.dirs = { DIR_OF(COUNTER_SRC_COUNTERS, mlx5_counters), DIR_OF(COUNTER_SRC_HW_COUNTERS, mlx5_ib_hw) },
		.xmit_lo = 20, .xmit_hi = 450, .rcv_lo = 20, .rcv_hi = 500,
		.pkt_bytes = 2800, .mc_per_s = 2, .flaps = true,
		.phy_every = 3, .phy_max = 40, .seq_every = 5, .seq_max = 6,
	},
};

static const struct demo_port_spec mlx5_1_ports[] = {
	{
		.num = 1, .ll = LINK_LAYER_ETHERNET, .rate = "100 Gb/sec (4X EDR)", .rate_gbps = 100,
		.lid = 0, .sm_lid = 0, .cap_mask = 0x04010000, .mtu = 4096, .pkey = 0xffff, .roce_mode = "RoCE v2",
		.gid_tbl_len = 255, .gids = roce_gids, .ngids = ARRAY_SIZE(roce_gids),
		.netdevs = roce_netdevs, .nnetdevs = ARRAY_SIZE(roce_netdevs),
		.dirs = { DIR_OF(COUNTER_SRC_COUNTERS, mlx5_counters), DIR_OF(COUNTER_SRC_HW_COUNTERS, mlx5_roce_hw) },
		.xmit_lo = 50, .xmit_hi = 800, .rcv_lo = 100, .rcv_hi = 880,
		.pkt_bytes = 4000, .mc_per_s = 1,
		.seq_every = 4, .seq_max = 12,
	},
};

static const struct demo_port_spec cxgb4_0_ports[] = {
	{
		.num = 1, .ll = LINK_LAYER_ETHERNET, .rate = "25 Gb/sec (1X EDR)", .rate_gbps = 25,
		.lid = 0, .sm_lid = 0, .cap_mask = 0x01890000, .mtu = 4096, .pkey = 0, .roce_mode = "",
		.gid_tbl_len = 1, .gids = iw_gids, .ngids = ARRAY_SIZE(iw_gids),
		.netdevs = iw_netdevs, .nnetdevs = ARRAY_SIZE(iw_netdevs),
		.dirs = { DIR_OF(COUNTER_SRC_COUNTERS, nopma_counters), DIR_OF(COUNTER_SRC_HW_COUNTERS, cxgb4_hw) },
		.xmit_lo = 100, .xmit_hi = 700, .rcv_lo = 100, .rcv_hi = 700,
		.pkt_bytes = TCP_MSS, .mc_per_s = 0,
		.seq_every = 2, .seq_max = 30,
	},
};

static const struct demo_dev_spec demo_devs[] = {
	{ "mlx5_0", 1, "CA", "0c42:a103:0065:4a20", "0c42:a103:0065:4a20",
	  "16.35.2000", "MT4119", "MT_0000000008", "0x0", DEMO_HOSTNAME " mlx5_0", "mlx5_core",
	  mlx5_0_ports, ARRAY_SIZE(mlx5_0_ports) },
	{ "mlx5_1", 1, "CA", "0c42:a103:005e:3b70", "0c42:a103:005e:3b70",
	  "22.36.1010", "MT4125", "MT_0000000359", "0x0", DEMO_HOSTNAME " mlx5_1", "mlx5_core",
	  mlx5_1_ports, ARRAY_SIZE(mlx5_1_ports) },
	{ "cxgb4_0", 4, "RNIC", "0007:43a1:b2c0:0000", "0007:43a1:b2c0:0000",
	  "1.27.4.0", "T6", "T62100-CR", "0x0", "", "cxgb4",
	  cxgb4_0_ports, ARRAY_SIZE(cxgb4_0_ports) },
};

#define DEMO_NDEVS	ARRAY_SIZE(demo_devs)
#define DEMO_MAX_PORTS	8

/* One direction of traffic (or a steady trickle) integrated over simulated time. */
struct demo_flow {
	uint64_t stream;		/* hash stream of its keyframes */
	unsigned int lo, hi;		/* utilisation range, per mille */
	uint64_t num, den;		/* units = integral of utilisation (per mille * us) * num / den */
	uint64_t seg, cum;		/* units of the whole keyframes before seg */
};

/* An error counter that moves in bursts at seeded moments. */
struct demo_burst {
	uint64_t stream;
	unsigned int every, max;
	uint64_t seg, cum;		/* errors of the whole keyframes before seg */
};

struct demo_port {
	const struct demo_dev_spec *ds;
	const struct demo_port_spec *ps;
	struct demo_flow xmit, rcv, mc_xmit, mc_rcv;
	struct demo_burst phy, seq;
	uint64_t xmit_bytes0;		/* xmit bytes at the first sample */
	uint64_t wait0;			/* port_xmit_wait at the first sample */
	uint64_t base_sym, base_rcv_err, base_recovery, base_downed, base_seq;
};

struct demo {
	unsigned long seed;
	uint64_t now_ns;		/* simulated time of the latest sample */
	unsigned int flap_up;		/* keyframes the flapping port stays up per cycle */
	struct demo_port ports[DEMO_MAX_PORTS];
	size_t nports;
};

enum demo_phase {
	PHASE_ACTIVE,
	PHASE_DOWN,			/* DOWN/Polling: the cable lost the link */
	PHASE_INIT,			/* INIT/LinkUp: trained, waiting for the SM */
};

/* splitmix64's finaliser: every number of the demo comes from it. */
static uint64_t mix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

static uint64_t demo_hash(const struct demo *d, uint64_t stream, uint64_t n)
{
	return mix64(mix64((uint64_t)d->seed ^ mix64(stream)) + n);
}

static enum demo_phase port_phase(const struct demo *d, const struct demo_port *p, uint64_t seg)
{
	uint64_t k, cycle = d->flap_up + FLAP_DOWN_SEGS + FLAP_INIT_SEGS;

	if (!p->ps->flaps || seg < START_SEG)
		return PHASE_ACTIVE;
	k = (seg - START_SEG) % cycle;
	if (k < d->flap_up)
		return PHASE_ACTIVE;
	return k < d->flap_up + FLAP_DOWN_SEGS ? PHASE_DOWN : PHASE_INIT;
}

/* Times the link went down up to keyframe seg (each down starts a keyframe). */
static uint64_t port_downs(const struct demo *d, const struct demo_port *p, uint64_t seg)
{
	uint64_t cycle = d->flap_up + FLAP_DOWN_SEGS + FLAP_INIT_SEGS;

	if (!p->ps->flaps || seg < START_SEG + d->flap_up)
		return 0;
	return (seg - START_SEG - d->flap_up) / cycle + 1;
}

/*
 * Utilisation at keyframe m, per mille, within [lo, hi]: a slow wave (a
 * job's phases over WAVE_SEGS keyframes) with some jitter on top.
 */
static unsigned int flow_level(const struct demo *d, const struct demo_flow *f, uint64_t m)
{
	uint64_t w = m / WAVE_SEGS, r = m % WAVE_SEGS;
	uint64_t a0 = demo_hash(d, f->stream, 2 * w) % 1001;
	uint64_t a1 = demo_hash(d, f->stream, 2 * (w + 1)) % 1001;
	uint64_t wave = (a0 * (WAVE_SEGS - r) + a1 * r) / WAVE_SEGS;
	uint64_t jitter = demo_hash(d, f->stream, 2 * m + 1) % 1001;

	return f->lo + (unsigned int)((f->hi - f->lo) * (3 * wave + jitter) / 4000);
}

/*
 * Units moved in the first tau us of keyframe m. Utilisation goes from
 * L0 to L1 along smoothstep s(x) = 3x^2 - 2x^3, whose integral is exact in
 * integers: integral_0^tau = L0 tau + (L1 - L0)(2T tau^3 - tau^4) / 2T^3.
 * It never leaves [L0, L1], so no rate exceeds hi per mille of the link.
 */
static uint64_t flow_part(const struct demo *d, const struct demo_flow *f, uint64_t m, uint64_t tau)
{
	__int128 T = SEG_US, t = tau;
	__int128 l0 = flow_level(d, f, m), l1 = flow_level(d, f, m + 1);
	__int128 n = 2 * T * T * T * l0 * t + (l1 - l0) * (2 * T * t * t * t - t * t * t * t);

	return (uint64_t)(n * f->num / ((__int128)f->den * 2 * T * T * T));
}

/* Units moved from time 0 to t_us; only while the port is ACTIVE. Time only goes forward. */
static uint64_t flow_total(const struct demo *d, const struct demo_port *p, struct demo_flow *f,
			   uint64_t t_us)
{
	uint64_t m = t_us / SEG_US;

	for (; f->seg < m; f->seg++)
		if (port_phase(d, p, f->seg) == PHASE_ACTIVE)
			f->cum += flow_part(d, f, f->seg, SEG_US);
	return f->cum + (port_phase(d, p, m) == PHASE_ACTIVE ? flow_part(d, f, m, t_us % SEG_US) : 0);
}

/* Errors of keyframe m and when in it they come; a failing link gets worse just before it drops. */
static uint64_t burst_of(const struct demo *d, const struct demo_port *p, const struct demo_burst *b,
			 uint64_t m, uint64_t *at_us)
{
	uint64_t h = demo_hash(d, b->stream, m), n = 0;

	*at_us = (h >> 8) % SEG_US;
	if (!b->every || m < START_SEG || port_phase(d, p, m) != PHASE_ACTIVE)
		return 0;
	if (h % b->every == 0)
		n = 1 + (h >> 20) % b->max;
	if (port_phase(d, p, m + 1) == PHASE_DOWN)
		n += 2 * (uint64_t)b->max + (h >> 40) % b->max;
	return n;
}

static uint64_t burst_total(const struct demo *d, const struct demo_port *p, struct demo_burst *b,
			    uint64_t t_us)
{
	uint64_t m = t_us / SEG_US, at, n;

	for (; b->seg < m; b->seg++)
		b->cum += burst_of(d, p, b, b->seg, &at);
	n = burst_of(d, p, b, m, &at);
	return b->cum + (t_us % SEG_US >= at ? n : 0);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Every simulated counter value of a port at t_us. */
static void port_values(const struct demo *d, struct demo_port *p, uint64_t t_us, uint64_t v[V_COUNT])
{
	const struct demo_port_spec *ps = p->ps;
	uint64_t seg = t_us / SEG_US;
	uint64_t xb = flow_total(d, p, &p->xmit, t_us), rb = flow_total(d, p, &p->rcv, t_us);
	uint64_t mcx = flow_total(d, p, &p->mc_xmit, t_us), mcr = flow_total(d, p, &p->mc_rcv, t_us);
	uint64_t phy = burst_total(d, p, &p->phy, t_us), seq = burst_total(d, p, &p->seq, t_us);
	uint64_t downs = port_downs(d, p, seg);

	memset(v, 0, V_COUNT * sizeof(*v));
	v[V_XMIT_WORDS] = (xb + mcx * MC_BYTES) / IB_DATA_WORD_BYTES;
	v[V_RCV_WORDS] = (rb + mcr * MC_BYTES) / IB_DATA_WORD_BYTES;
	v[V_UC_XMIT_PKTS] = xb / ps->pkt_bytes;
	v[V_UC_RCV_PKTS] = rb / ps->pkt_bytes;
	v[V_MC_XMIT_PKTS] = mcx;
	v[V_MC_RCV_PKTS] = mcr;
	v[V_XMIT_PKTS] = v[V_UC_XMIT_PKTS] + mcx;
	v[V_RCV_PKTS] = v[V_UC_RCV_PKTS] + mcr;
	/* The congested port's 32-bit wait counter climbs into all-ones and stays there. */
	if (ps->saturates)
		v[V_XMIT_WAIT] = min_u64(counter_max(32), p->wait0 + (xb - p->xmit_bytes0) / WAIT_DIV_SAT);
	else
		v[V_XMIT_WAIT] = p->wait0 + xb / WAIT_DIV;
	v[V_SYMBOL_ERR] = p->base_sym + phy;
	v[V_RCV_ERR] = p->base_rcv_err + phy / 4;
	v[V_LINK_RECOVERY] = p->base_recovery + 2 * downs;
	v[V_LINK_DOWNED] = p->base_downed + downs;
	v[V_SEQ_ERR] = p->base_seq + seq;
	v[V_RETRANS] = p->base_seq + seq;
	v[V_ECN_MARKED] = rb / (UINT64_C(1) << 19);
	v[V_CNP_SENT] = rb / (UINT64_C(1) << 21);
	v[V_CNP_HANDLED] = xb / (UINT64_C(1) << 21);
	v[V_RX_WRITE] = rb / 65536;
	v[V_RX_READ] = xb / (UINT64_C(1) << 18);
	v[V_SEGS_IN] = rb / TCP_MSS;
	v[V_SEGS_OUT] = xb / TCP_MSS + seq;
}

static void flow_init(struct demo_flow *f, uint64_t stream, unsigned int lo, unsigned int hi,
		      uint64_t num, uint64_t den)
{
	memset(f, 0, sizeof(*f));
	f->stream = stream;
	f->lo = lo;
	f->hi = hi;
	f->num = num;
	f->den = den;
}

/* Hash streams: one per port and purpose. */
enum demo_stream {
	STREAM_XMIT = 1, STREAM_RCV, STREAM_MC_XMIT, STREAM_MC_RCV, STREAM_PHY, STREAM_SEQ, STREAM_BASE,
};

static uint64_t stream_id(size_t port, enum demo_stream s)
{
	return ((uint64_t)(port + 1) << 8) | (uint64_t)s;
}

static void port_init(struct demo *d, size_t idx, const struct demo_dev_spec *ds,
		      const struct demo_port_spec *ps)
{
	struct demo_port *p = &d->ports[idx];
	/* bytes per us at full rate: Gb/s * 1e9 / 8 / 1e6 */
	uint64_t bpus = (uint64_t)ps->rate_gbps * 125;
	uint64_t h = demo_hash(d, stream_id(idx, STREAM_BASE), 0);

	memset(p, 0, sizeof(*p));
	p->ds = ds;
	p->ps = ps;
	/* utilisation (per mille) * us * bpus / 1000 = bytes */
	flow_init(&p->xmit, stream_id(idx, STREAM_XMIT), ps->xmit_lo, ps->xmit_hi, bpus, 1000);
	flow_init(&p->rcv, stream_id(idx, STREAM_RCV), ps->rcv_lo, ps->rcv_hi, bpus, 1000);
	/* a steady trickle: 1000 per mille * us * mc / 1e9 = packets */
	flow_init(&p->mc_xmit, stream_id(idx, STREAM_MC_XMIT), 1000, 1000, ps->mc_per_s, 1000000000);
	flow_init(&p->mc_rcv, stream_id(idx, STREAM_MC_RCV), 1000, 1000, ps->mc_per_s, 1000000000);
	p->phy = (struct demo_burst){ .stream = stream_id(idx, STREAM_PHY),
				      .every = ps->phy_every, .max = ps->phy_max };
	p->seq = (struct demo_burst){ .stream = stream_id(idx, STREAM_SEQ),
				      .every = ps->seq_every, .max = ps->seq_max };
	/* A bad link has a history; a good one reads zero. */
	if (ps->phy_every) {
		p->base_sym = 12 + h % 40;
		p->base_rcv_err = 3 + (h >> 8) % 10;
		p->base_recovery = 1 + (h >> 16) % 3;
		p->base_downed = 1 + (h >> 24) % 3;
	}
	if (ps->seq_every)
		p->base_seq = (h >> 32) % 200;
	/* The congested port saturates 10 to 20 s into the demo at its usual load. */
	if (ps->saturates)
		p->wait0 = counter_max(32) - UINT64_C(2000000000) - (h >> 40) % UINT64_C(2000000000);
	else
		p->wait0 = (h >> 40) % 100000;
	p->xmit_bytes0 = flow_total(d, p, &p->xmit, START_SEG * SEG_US);
}

struct demo *demo_new(unsigned long seed)
{
	struct demo *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->seed = seed;
	d->now_ns = START_SEG * SEG_US * NS_PER_US;
	d->flap_up = FLAP_UP_MIN + (unsigned int)(demo_hash(d, 0, 0) % FLAP_UP_SPAN);
	for (size_t i = 0; i < DEMO_NDEVS; i++)
		for (size_t k = 0; k < demo_devs[i].nports && d->nports < DEMO_MAX_PORTS; k++)
			port_init(d, d->nports++, &demo_devs[i], &demo_devs[i].ports[k]);
	return d;
}

void demo_free(struct demo *d)
{
	free(d);
}

uint64_t demo_now_ns(const struct demo *d)
{
	return d->now_ns;
}

/* States as the kernel prints them ("4: ACTIVE"); the netdev's carrier follows ACTIVE. */
static void port_set_phase(struct fab_port *p, enum demo_phase ph)
{
	static const struct {
		enum fab_port_state state;
		enum fab_phys_state phys;
	} phases[] = {
		[PHASE_ACTIVE] = { PORT_STATE_ACTIVE, PHYS_STATE_LINK_UP },
		[PHASE_DOWN] = { PORT_STATE_DOWN, PHYS_STATE_POLLING },
		[PHASE_INIT] = { PORT_STATE_INIT, PHYS_STATE_LINK_UP },
	};

	p->state = phases[ph].state;
	p->phys_state = phases[ph].phys;
	snprintf(p->state_raw, sizeof(p->state_raw), "%d: %s", (int)p->state, fab_port_state_str(p->state));
	snprintf(p->phys_state_raw, sizeof(p->phys_state_raw), "%d: %s", (int)p->phys_state,
		 fab_phys_state_str(p->phys_state));
	for (unsigned int i = 0; i < p->nnetdevs; i++)
		snprintf(p->netdevs[i].operstate, sizeof(p->netdevs[i].operstate), "%s",
			 ph == PHASE_ACTIVE ? "up" : "down");
}

/* Sample every counter through the collector's own parser, as if read from its file. */
static void port_sample(struct demo *d, struct demo_port *dp, struct fab_port *p)
{
	uint64_t v[V_COUNT];
	size_t c = 0;

	port_values(d, dp, d->now_ns / NS_PER_US, v);
	p->has_pma = false;
	for (size_t k = 0; k < ARRAY_SIZE(dp->ps->dirs); k++) {
		const struct demo_counter_dir *dir = &dp->ps->dirs[k];

		for (size_t i = 0; i < dir->n && c < p->ncounters; i++, c++) {
			struct fab_counter *ct = &p->counters[c];
			char buf[32];

			if (strcmp(ct->name, dir->v[i].name))
				continue;	/* not the demo's port: leave it alone */
			if (dir->v[i].val == V_NONE)
				snprintf(buf, sizeof(buf), "N/A (no PMA)");
			else if (ct->source == COUNTER_SRC_COUNTERS)
				/* A PMA counter stops at all-ones (IBA 16.1.3.5): a bad link latches symbol_error too. */
				snprintf(buf, sizeof(buf), "%" PRIu64, min_u64(v[dir->v[i].val], counter_max(ct->bits)));
			else
				snprintf(buf, sizeof(buf), "%" PRIu64, v[dir->v[i].val]);
			collect_counter_text(ct, buf);
			if (ct->known && ct->source != COUNTER_SRC_HW_COUNTERS)
				p->has_pma = true;
		}
	}
	p->prev_sample_ns = p->sample_ns;
	p->sample_ns = d->now_ns;
}

/* The raw GID and its IPv4 form, decoded as the collector decodes gids/N. */
static void gid_fill(struct fab_gid *g, const struct demo_gid_spec *gs)
{
	memset(g, 0, sizeof(*g));
	g->index = gs->index;
	gid_parse(gs->gid, g->raw);
	gid_format(g);
	g->type = gs->type;
	snprintf(g->netdev, sizeof(g->netdev), "%s", gs->netdev);
	g->netdev_in_ns = gs->netdev[0] != '\0';
}

static void opt_set(struct opt_u64 *o, uint64_t v)
{
	o->known = true;
	o->value = v;
}

static bool dir_has(const struct demo_counter_dir *dir, const char *name)
{
	for (size_t i = 0; i < dir->n; i++)
		if (!strcmp(dir->v[i].name, name))
			return true;
	return false;
}

static int port_build(struct demo *d, struct demo_port *dp, struct fab_port *p)
{
	const struct demo_port_spec *ps = dp->ps;
	size_t n = 0, c = 0;

	memset(p, 0, sizeof(*p));
	p->num = ps->num;
	snprintf(p->rate, sizeof(p->rate), "%s", ps->rate);
	p->rate_known = true;
	p->rate_gbps = ps->rate_gbps;
	p->link_layer = ps->ll;
	snprintf(p->link_layer_raw, sizeof(p->link_layer_raw), "%s", fab_link_layer_str(ps->ll));
	opt_set(&p->lid, ps->lid);
	opt_set(&p->sm_lid, ps->sm_lid);
	opt_set(&p->lmc, 0);
	opt_set(&p->sm_sl, 0);
	opt_set(&p->cap_mask, ps->cap_mask);
	opt_set(&p->active_mtu, ps->mtu);
	opt_set(&p->max_mtu, ps->mtu);
	snprintf(p->default_roce_mode, sizeof(p->default_roce_mode), "%s", ps->roce_mode);
	if (ps->pkey)
		p->pkeys[p->npkeys++] = ps->pkey;

	for (size_t i = 0; i < ps->nnetdevs && p->nnetdevs < FAB_MAX_NETDEVS; i++) {
		const struct demo_netdev_spec *ns = &ps->netdevs[i];
		struct fab_netdev *nd = &p->netdevs[p->nnetdevs++];

		snprintf(nd->name, sizeof(nd->name), "%s", ns->name);
		nd->in_ns = true;
		opt_set(&nd->mtu, ns->mtu);
		opt_set(&nd->ifindex, ns->ifindex);
		snprintf(nd->ipoib_mode, sizeof(nd->ipoib_mode), "%s", ns->ipoib_mode);
		if (ns->ipoib_mode[0])
			opt_set(&nd->pkey, ns->pkey);
		snprintf(nd->parent, sizeof(nd->parent), "%s", ns->parent);
	}
	port_set_phase(p, port_phase(d, dp, d->now_ns / NS_PER_US / SEG_US));

	p->gid_tbl_len = ps->gid_tbl_len;
	if (ps->ngids) {
		p->gids = calloc(ps->ngids, sizeof(*p->gids));
		if (!p->gids)
			return -ENOMEM;
		for (size_t i = 0; i < ps->ngids; i++)
			gid_fill(&p->gids[p->ngids++], &ps->gids[i]);
	}

	for (size_t k = 0; k < ARRAY_SIZE(ps->dirs); k++)
		n += ps->dirs[k].n;
	p->counters = calloc(n ? n : 1, sizeof(*p->counters));
	if (!p->counters)
		return -ENOMEM;
	for (size_t k = 0; k < ARRAY_SIZE(ps->dirs); k++) {
		const struct demo_counter_dir *dir = &ps->dirs[k];
		/* As the collector decides: unicast_* beside the PMA counters means 64-bit data. */
		bool ext = dir->src == COUNTER_SRC_COUNTERS && dir_has(dir, "unicast_xmit_packets");

		for (size_t i = 0; i < dir->n; i++)
			counter_define(&p->counters[c++], dir->v[i].name, dir->src, ext);
	}
	p->ncounters = c;
	port_sample(d, dp, p);
	p->prev_sample_ns = 0;
	p->first_sample_ns = p->sample_ns;
	return 0;
}

static void dev_build(const struct demo_dev_spec *ds, struct fab_device *dev)
{
	memset(dev, 0, sizeof(*dev));
	snprintf(dev->name, sizeof(dev->name), "%s", ds->name);
	dev->node_type_num = ds->node_type_num;
	snprintf(dev->node_type, sizeof(dev->node_type), "%s", ds->node_type);
	snprintf(dev->node_guid, sizeof(dev->node_guid), "%s", ds->node_guid);
	snprintf(dev->sys_image_guid, sizeof(dev->sys_image_guid), "%s", ds->sys_image_guid);
	snprintf(dev->fw_ver, sizeof(dev->fw_ver), "%s", ds->fw_ver);
	snprintf(dev->hca_type, sizeof(dev->hca_type), "%s", ds->hca_type);
	snprintf(dev->board_id, sizeof(dev->board_id), "%s", ds->board_id);
	snprintf(dev->hw_rev, sizeof(dev->hw_rev), "%s", ds->hw_rev);
	snprintf(dev->node_desc, sizeof(dev->node_desc), "%s", ds->node_desc);
	snprintf(dev->driver, sizeof(dev->driver), "%s", ds->driver);
}

int demo_collect(struct demo *d, struct fab_host *h)
{
	size_t idx = 0;
	int rc = 0;

	memset(h, 0, sizeof(*h));
	snprintf(h->hostname, sizeof(h->hostname), "%s", DEMO_HOSTNAME);
	h->devs = calloc(DEMO_NDEVS, sizeof(*h->devs));
	if (!h->devs)
		return -ENOMEM;
	for (size_t i = 0; i < DEMO_NDEVS && !rc; i++) {
		const struct demo_dev_spec *ds = &demo_devs[i];
		struct fab_device *dev = &h->devs[h->ndevs++];

		dev_build(ds, dev);
		dev->ports = calloc(ds->nports, sizeof(*dev->ports));
		if (!dev->ports) {
			rc = -ENOMEM;
			break;
		}
		for (size_t k = 0; k < ds->nports && !rc; k++) {
			rc = port_build(d, &d->ports[idx++], &dev->ports[k]);
			dev->nports++;
		}
	}
	if (rc)
		fab_host_free(h);
	return rc;
}

bool demo_link_up(const struct demo *d, const char *netdev)
{
	uint64_t seg = d->now_ns / NS_PER_US / SEG_US;

	for (size_t i = 0; i < d->nports; i++)
		for (size_t k = 0; k < d->ports[i].ps->nnetdevs; k++)
			if (!strcmp(d->ports[i].ps->netdevs[k].name, netdev))
				return port_phase(d, &d->ports[i], seg) == PHASE_ACTIVE;
	return true;
}

/* The simulated port behind a port of h, NULL if h is not the demo's shape. */
static struct demo_port *demo_port_of(struct demo *d, const struct fab_device *dev, const struct fab_port *p)
{
	for (size_t i = 0; i < d->nports; i++)
		if (d->ports[i].ps->num == p->num && !strcmp(d->ports[i].ds->name, dev->name))
			return &d->ports[i];
	return NULL;
}

bool demo_tick(struct demo *d, struct fab_host *h, uint64_t dt_ns)
{
	bool changed = false;

	d->now_ns += dt_ns;
	for (size_t i = 0; i < h->ndevs; i++) {
		struct fab_device *dev = &h->devs[i];

		for (size_t k = 0; k < dev->nports; k++) {
			struct fab_port *p = &dev->ports[k];
			struct demo_port *dp = demo_port_of(d, dev, p);
			enum fab_port_state before = p->state;

			if (!dp)
				continue;
			port_set_phase(p, port_phase(d, dp, d->now_ns / NS_PER_US / SEG_US));
			if (p->state != before)
				changed = true;
			port_sample(d, dp, p);
		}
	}
	return changed;
}
