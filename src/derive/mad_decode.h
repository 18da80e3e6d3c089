/* SPDX-License-Identifier: GPL-2.0-or-later */
/* IB MAD wire formats: big-endian fields, sizes and offsets checked, decoders that take bytes and a length. */
#ifndef FABTOP_DERIVE_MAD_DECODE_H
#define FABTOP_DERIVE_MAD_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Big-endian wire integers are byte arrays of their own type, so a field can
 * only be read through be*_get() and never by accident in host order.
 */
typedef struct { uint8_t b[2]; } wbe16_t;
typedef struct { uint8_t b[4]; } wbe32_t;
typedef struct { uint8_t b[8]; } wbe64_t;

static inline uint16_t wbe16_get(wbe16_t v) { return (uint16_t)(v.b[0] << 8 | v.b[1]); }
static inline uint32_t wbe32_get(wbe32_t v)
{
	return (uint32_t)v.b[0] << 24 | (uint32_t)v.b[1] << 16 | (uint32_t)v.b[2] << 8 | v.b[3];
}
static inline uint64_t wbe64_get(wbe64_t v)
{
	uint64_t r = 0;

	for (int i = 0; i < 8; i++)
		r = r << 8 | v.b[i];
	return r;
}
static inline wbe16_t wbe16_put(uint16_t x) { return (wbe16_t){ { (uint8_t)(x >> 8), (uint8_t)x } }; }
static inline wbe32_t wbe32_put(uint32_t x)
{
	return (wbe32_t){ { (uint8_t)(x >> 24), (uint8_t)(x >> 16), (uint8_t)(x >> 8), (uint8_t)x } };
}
static inline wbe64_t wbe64_put(uint64_t x)
{
	wbe64_t v;

	for (int i = 7; i >= 0; i--, x >>= 8)
		v.b[i] = (uint8_t)x;
	return v;
}

#define MAD_SIZE		256
#define MAD_HDR_SIZE		24
#define MAD_SMP_DATA_OFF	64	/* SMP attribute data (IBA 14.2.1.1) */
#define MAD_SMP_DATA_SIZE	64
#define MAD_PMA_DATA_OFF	64	/* PMA: 40 reserved bytes after the header (IBA 16.1.1) */
#define MAD_PMA_DATA_SIZE	192
#define MAD_VENDOR2_DATA_OFF	40	/* vendor range 2 (0x30-0x4f): RMPP + OUI first (IBA 13.4.3.2) */
#define MAD_VENDOR2_DATA_SIZE	216
#define MAD_DR_MAX_HOPS		63

/* Management classes (IBA 13.4.4) and methods (13.4.5). */
enum {
	MAD_CLASS_SMI = 0x01,
	MAD_CLASS_SMI_DR = 0x81,
	MAD_CLASS_PMA = 0x04,
	MAD_CLASS_OPENIB_PING = 0x32,	/* ibping's vendor class, OUI 0x001405 */
	MAD_CLASS_SA = 0x03,		/* subnet administration, the SM's database (IBA 15) */
};
#define MAD_SA_CLASS_VERSION	2
/* SA MADs: the RMPP header, SM_Key, AttributeOffset, then ComponentMask and the record (IBA 15.2.1.1). */
#define MAD_SA_COMP_MASK_OFF	48
#define MAD_SA_DATA_OFF		56
#define MAD_SA_DATA_SIZE	200
#define MAD_OPENIB_OUI		0x001405
#define MAD_METHOD_GET		0x01
#define MAD_METHOD_GET_RESP	0x81
#define MAD_METHOD_RESP_BIT	0x80

/* Attribute IDs used here (IBA 14.2.5, 16.1.2, 13.4.8). */
enum {
	MAD_ATTR_CLASS_PORT_INFO = 0x0001,
	MAD_ATTR_NODE_DESC = 0x0010,
	MAD_ATTR_NODE_INFO = 0x0011,
	MAD_ATTR_PORT_INFO = 0x0015,
	MAD_ATTR_SM_INFO = 0x0020,
	MAD_ATTR_SWITCH_INFO = 0x0012,	/* SMI; the PMA's 0x0012 is PortCounters */
	MAD_ATTR_LFT = 0x0019,		/* LinearForwardingTable, 64 LIDs a block */
	MAD_ATTR_PORT_COUNTERS = 0x0012,
	MAD_ATTR_PORT_COUNTERS_EXT = 0x001d,
	MAD_ATTR_PORT_SAMPLES_CONTROL = 0x0010,	/* PMA; its Tick sizes PortXmitWait's ticks */
	MAD_ATTR_NODE_RECORD = 0x0011,	/* SA: a port's LID, its node's NodeInfo and NodeDescription */
};

/* NodeRecord's ComponentMask bits (IBA 15.2.5.2): which template fields must match. */
#define MAD_NR_COMP_NODE_GUID	(1ull << 7)
#define MAD_NR_COMP_PORT_GUID	(1ull << 8)
/* Its layout: LID, 2 reserved bytes, NodeInfo (40 bytes), NodeDescription (64 bytes). */
#define MAD_NR_NODE_INFO_OFF	4
#define MAD_NR_NODE_DESC_OFF	44
#define MAD_NR_SIZE		108

/* PMA ClassPortInfo:CapabilityMask bits (IBA 16.1.2 Table 234, perfquery). */
#define MAD_PMA_CAP_ALL_PORT_SELECT	0x0100
#define MAD_PMA_CAP_EXT_WIDTH		0x0200
#define MAD_PMA_CAP_EXT_WIDTH_NOIETF	0x0400
#define MAD_PMA_CAP_XMIT_WAIT		0x1000
/*
 * CapabilityMask2 (the 27 bits above RespTimeValue) bit 1,
 * IsAdditionalPortCountersExtendedSupported: PortCountersExtended also
 * carries the error counters and PortXmitWait, 64 bits each, so one MAD
 * reads a port (perfquery's IB_PM_IS_ADDL_PORT_CTRS_EXT_SUP).
 */
#define MAD_PMA_CAP2_ADDL_PORT_CTRS_EXT	0x00000002

/* The common MAD header (IBA 13.4.2, Figure 144). */
struct mad_wire_hdr {
	uint8_t base_version;
	uint8_t mgmt_class;
	uint8_t class_version;
	uint8_t method;			/* R bit 0x80 | method */
	wbe16_t status;			/* DR SMP: D bit 0x8000 | status */
	wbe16_t class_specific;		/* DR SMP: hop pointer, hop count */
	wbe64_t tid;
	wbe16_t attr_id;
	wbe16_t reserved;
	wbe32_t attr_mod;
};
_Static_assert(sizeof(struct mad_wire_hdr) == MAD_HDR_SIZE, "MAD header is 24 bytes");
_Static_assert(offsetof(struct mad_wire_hdr, tid) == 8, "TID at 8");
_Static_assert(offsetof(struct mad_wire_hdr, attr_id) == 16, "AttributeID at 16");
_Static_assert(offsetof(struct mad_wire_hdr, attr_mod) == 20, "AttributeModifier at 20");

/* A directed-route SMP (IBA 14.2.1.2, Figure 156). */
struct mad_wire_dr_smp {
	struct mad_wire_hdr hdr;
	wbe64_t mkey;
	wbe16_t dr_slid;
	wbe16_t dr_dlid;
	uint8_t reserved[28];
	uint8_t data[MAD_SMP_DATA_SIZE];
	uint8_t initial_path[64];
	uint8_t return_path[64];
};
_Static_assert(sizeof(struct mad_wire_dr_smp) == MAD_SIZE, "SMP is 256 bytes");
_Static_assert(offsetof(struct mad_wire_dr_smp, dr_slid) == 32, "DrSLID at 32");
_Static_assert(offsetof(struct mad_wire_dr_smp, data) == MAD_SMP_DATA_OFF, "SMP data at 64");
_Static_assert(offsetof(struct mad_wire_dr_smp, initial_path) == 128, "InitialPath at 128");

/* NodeInfo (IBA 14.2.5.3, Table 146). */
struct mad_wire_node_info {
	uint8_t base_version;
	uint8_t class_version;
	uint8_t node_type;
	uint8_t num_ports;
	wbe64_t sys_image_guid;
	wbe64_t node_guid;
	wbe64_t port_guid;
	wbe16_t partition_cap;
	wbe16_t device_id;
	wbe32_t revision;
	uint8_t local_port_num;
	uint8_t vendor_id[3];
};
_Static_assert(sizeof(struct mad_wire_node_info) == 40, "NodeInfo is 40 bytes");
_Static_assert(offsetof(struct mad_wire_node_info, node_guid) == 12, "NodeGUID at 12");
_Static_assert(offsetof(struct mad_wire_node_info, local_port_num) == 36, "LocalPortNum at 36");

/* PortInfo (IBA 14.2.5.6, Table 155); packed nibbles are decoded in mad_decode.c. */
struct mad_wire_port_info {
	wbe64_t mkey;
	wbe64_t gid_prefix;
	wbe16_t lid;
	wbe16_t master_sm_lid;
	wbe32_t cap_mask;
	wbe16_t diag_code;
	wbe16_t mkey_lease;
	uint8_t local_port_num;
	uint8_t link_width_enabled;
	uint8_t link_width_supported;
	uint8_t link_width_active;
	uint8_t speed_supported_state;	/* LinkSpeedSupported:4 PortState:4 */
	uint8_t phys_state_down_def;	/* PortPhysicalState:4 LinkDownDefaultState:4 */
	uint8_t mkey_prot_lmc;		/* M_KeyProtectBits:2 reserved:3 LMC:3 */
	uint8_t speed_active_enabled;	/* LinkSpeedActive:4 LinkSpeedEnabled:4 */
	uint8_t neighbor_mtu_sm_sl;	/* NeighborMTU:4 MasterSMSL:4 */
	uint8_t vl_cap_init_type;
	uint8_t vl_high_limit;
	uint8_t vl_arb_high_cap;
	uint8_t vl_arb_low_cap;
	uint8_t init_type_reply_mtu_cap;/* InitTypeReply:4 MTUCap:4 */
	uint8_t vl_stall_hoq_life;
	uint8_t op_vls_enforce;
	wbe16_t mkey_violations;
	wbe16_t pkey_violations;
	wbe16_t qkey_violations;
	uint8_t guid_cap;
	uint8_t subnet_timeout;		/* ClientReregister:1 MulticastPKeyTrapSuppression:2 SubnetTimeOut:5 */
	uint8_t resp_time_value;
	uint8_t local_phy_overrun_errors;
	wbe16_t max_credit_hint;
	wbe32_t link_round_trip_latency;	/* reserved:8 latency:24 */
	wbe16_t cap_mask2;
	uint8_t speed_ext_active_supported;	/* LinkSpeedExtActive:4 LinkSpeedExtSupported:4 */
	uint8_t speed_ext_enabled;	/* reserved:3 LinkSpeedExtEnabled:5 */
};
_Static_assert(sizeof(struct mad_wire_port_info) == 64, "PortInfo is 64 bytes");
_Static_assert(offsetof(struct mad_wire_port_info, lid) == 16, "LID at 16");
_Static_assert(offsetof(struct mad_wire_port_info, cap_mask) == 20, "CapabilityMask at 20");
_Static_assert(offsetof(struct mad_wire_port_info, speed_supported_state) == 32, "PortState at 32");
_Static_assert(offsetof(struct mad_wire_port_info, neighbor_mtu_sm_sl) == 36, "MasterSMSL at 36");
_Static_assert(offsetof(struct mad_wire_port_info, cap_mask2) == 60, "CapabilityMask2 at 60");

/* SMInfo (IBA 14.2.5.13, Table 166). */
struct mad_wire_sm_info {
	wbe64_t guid;
	wbe64_t sm_key;
	wbe32_t act_count;
	uint8_t priority_state;		/* Priority:4 SMState:4 */
};
_Static_assert(offsetof(struct mad_wire_sm_info, priority_state) == 20, "Priority/SMState at 20");

/* SwitchInfo (IBA 14.2.5.4, Table 147), the forwarding table sizes read here. */
struct mad_wire_switch_info {
	wbe16_t linear_fdb_cap;
	wbe16_t random_fdb_cap;
	wbe16_t mcast_fdb_cap;
	wbe16_t linear_fdb_top;
};
_Static_assert(sizeof(struct mad_wire_switch_info) == 8, "SwitchInfo head is 8 bytes");
_Static_assert(offsetof(struct mad_wire_switch_info, linear_fdb_top) == 6, "LinearFDBTop at 6");

/* LinearForwardingTable (IBA 14.2.5.10, Table 162): block N holds the ports of LIDs 64N..64N+63. */
#define MAD_LFT_BLOCK		64
#define MAD_LFT_NO_PORT		0xff	/* an unrouted LID */

/* ClassPortInfo (IBA 13.4.8.1, Table 126), the part that is read here. */
struct mad_wire_class_port_info {
	uint8_t base_version;
	uint8_t class_version;
	wbe16_t cap_mask;
	wbe32_t cap_mask2_resp_time;	/* CapabilityMask2:27 RespTimeValue:5 */
};
_Static_assert(sizeof(struct mad_wire_class_port_info) == 8, "ClassPortInfo head is 8 bytes");

/* PortCounters (IBA 16.1.3.5, Table 247). */
struct mad_wire_port_counters {
	uint8_t reserved0;
	uint8_t port_select;
	wbe16_t counter_select;
	wbe16_t symbol_error;
	uint8_t link_error_recovery;
	uint8_t link_downed;
	wbe16_t port_rcv_errors;
	wbe16_t port_rcv_remote_physical_errors;
	wbe16_t port_rcv_switch_relay_errors;
	wbe16_t port_xmit_discards;
	uint8_t port_xmit_constraint_errors;
	uint8_t port_rcv_constraint_errors;
	uint8_t counter_select2;
	uint8_t link_integrity_overrun;	/* LocalLinkIntegrityErrors:4 ExcessiveBufferOverrunErrors:4 */
	wbe16_t reserved1;
	wbe16_t vl15_dropped;
	wbe32_t port_xmit_data;
	wbe32_t port_rcv_data;
	wbe32_t port_xmit_packets;
	wbe32_t port_rcv_packets;
	wbe32_t port_xmit_wait;
};
_Static_assert(sizeof(struct mad_wire_port_counters) == 44, "PortCounters is 44 bytes");
_Static_assert(offsetof(struct mad_wire_port_counters, vl15_dropped) == 22, "VL15Dropped at 22");
_Static_assert(offsetof(struct mad_wire_port_counters, port_xmit_data) == 24, "PortXmitData at 24");
_Static_assert(offsetof(struct mad_wire_port_counters, port_xmit_wait) == 40, "PortXmitWait at 40");

/* PortCountersExtended (IBA 16.1.4.11, Table 262), the IETF-compatible part. */
struct mad_wire_port_counters_ext {
	uint8_t reserved0;
	uint8_t port_select;
	wbe16_t counter_select;
	wbe32_t reserved1;
	wbe64_t port_xmit_data;
	wbe64_t port_rcv_data;
	wbe64_t port_xmit_packets;
	wbe64_t port_rcv_packets;
	wbe64_t unicast_xmit_packets;
	wbe64_t unicast_rcv_packets;
	wbe64_t multicast_xmit_packets;
	wbe64_t multicast_rcv_packets;
};
_Static_assert(sizeof(struct mad_wire_port_counters_ext) == 72, "PortCountersExtended is 72 bytes");
_Static_assert(offsetof(struct mad_wire_port_counters_ext, port_xmit_data) == 8, "PortXmitData at 8");
_Static_assert(offsetof(struct mad_wire_port_counters_ext, multicast_rcv_packets) == 64, "last at 64");

/* ---- decoded, host-order results ---- */

/* What a reply MAD says about itself. */
struct mad_hdr {
	uint8_t base_version, mgmt_class, class_version, method;
	bool response;
	uint16_t status;		/* 15 bits for DR SMPs, the D bit removed */
	bool dr_direction;		/* DR SMP: D bit (1: returning) */
	uint8_t hop_ptr, hop_cnt;	/* DR SMP only */
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
};

struct mad_node_info {
	uint8_t node_type;		/* 1 CA, 2 switch, 3 router */
	uint8_t num_ports;
	uint64_t sys_image_guid, node_guid, port_guid;
	uint16_t partition_cap, device_id;
	uint32_t revision, vendor_id;
	uint8_t local_port_num;
};

struct mad_port_info {
	uint64_t gid_prefix;
	uint16_t lid, sm_lid;
	uint32_t cap_mask;
	uint16_t cap_mask2;
	uint8_t local_port_num;
	uint8_t link_width_enabled, link_width_supported, link_width_active;
	uint8_t link_speed_supported, link_speed_active, link_speed_enabled;
	uint8_t link_speed_ext_active, link_speed_ext_supported;
	uint8_t port_state, phys_state;
	uint8_t lmc, sm_sl, neighbor_mtu, mtu_cap;
	uint8_t subnet_timeout;
};
/* PortInfo:CapabilityMask bits that matter here (IBA 14.2.5.6 Table 156). */
#define MAD_PORT_CAP_IS_SM		0x00000002
#define MAD_PORT_CAP_EXT_SPEEDS		0x00004000
#define MAD_PORT_CAP_CAP_MASK2		0x00008000

/* SMInfo:SMState (IBA 14.2.5.13). */
enum mad_sm_state {
	MAD_SM_NOTACTIVE = 0,
	MAD_SM_DISCOVERING = 1,
	MAD_SM_STANDBY = 2,
	MAD_SM_MASTER = 3,
};

struct mad_sm_info {
	uint64_t guid;
	uint32_t act_count;
	uint8_t priority;
	uint8_t state;			/* enum mad_sm_state */
};

struct mad_switch_info {
	uint16_t linear_fdb_cap;	/* LIDs the linear table can hold */
	uint16_t linear_fdb_top;	/* the highest LID the SM programmed */
};

struct mad_class_port_info {
	uint8_t base_version, class_version;
	uint16_t cap_mask;
	uint32_t cap_mask2;
	uint8_t resp_time_value;
};

/*
 * PMA counters by the kernel's sysfs names (so counter_define() knows their
 * kind), with their width on the wire. Order is the table order below.
 */
#define MAD_PMA_MAX_COUNTERS 22
struct mad_pma_value {
	const char *name;		/* static string, e.g. "port_xmit_data" */
	unsigned int bits;
	uint64_t value;
};
struct mad_pma_counters {
	uint8_t port_select;
	unsigned int n;
	struct mad_pma_value v[MAD_PMA_MAX_COUNTERS];
};

/* Errors of the decoders: too short, or not what was asked for. */
#define MAD_DECODE_TRUNCATED	(-1)
#define MAD_DECODE_MALFORMED	(-2)

/*
 * Each decoder takes a whole MAD as received (buf, len) unless it says
 * "data": data decoders take the attribute data (after the header) and its
 * length. Every length is checked before a byte is read. 0 or a negative
 * MAD_DECODE_* code.
 */
int mad_decode_hdr(const uint8_t *buf, size_t len, struct mad_hdr *out);
int mad_decode_node_info(const uint8_t *data, size_t len, struct mad_node_info *out);
int mad_decode_port_info(const uint8_t *data, size_t len, struct mad_port_info *out);
int mad_decode_sm_info(const uint8_t *data, size_t len, struct mad_sm_info *out);
int mad_decode_class_port_info(const uint8_t *data, size_t len, struct mad_class_port_info *out);
int mad_decode_switch_info(const uint8_t *data, size_t len, struct mad_switch_info *out);
/* PortSamplesControl data (IBA 16.1.3.2): its Tick, byte 2 (OpCode, PortSelect, Tick, CounterWidth). */
int mad_decode_psc_tick(const uint8_t *data, size_t len, uint8_t *tick);
/*
 * The egress port of lid in LinearForwardingTable block data (the block
 * lid / MAD_LFT_BLOCK): 0 (the switch itself), a port, or MAD_LFT_NO_PORT.
 */
int mad_decode_lft_port(const uint8_t *data, size_t len, uint16_t lid, uint8_t *port);
int mad_decode_port_counters(const uint8_t *data, size_t len, struct mad_pma_counters *out);
int mad_decode_port_counters_ext(const uint8_t *data, size_t len, struct mad_pma_counters *out);
/* PortCountersExtended with the additional error counters (MAD_PMA_CAP2_ADDL_PORT_CTRS_EXT), all 64 bits. */
int mad_decode_port_counters_ext_all(const uint8_t *data, size_t len, struct mad_pma_counters *out);
/* NodeDescription: 64 bytes of UTF-8, NUL-padded; out gets a printable, NUL-terminated copy. */
int mad_decode_node_desc(const uint8_t *data, size_t len, char *out, size_t outsz);
/* An SA NodeRecord: the port's LID, its node's NodeInfo and description (desc may be NULL). */
int mad_decode_node_record(const uint8_t *data, size_t len, uint16_t *lid, struct mad_node_info *ni,
			   char *desc, size_t descsz);

/*
 * Decode a whole reply MAD whose header says what it is: checks the class,
 * the response bit and the status, then hands the data part to the right
 * decoder. 'expect_attr' must match. Returns 0, a MAD_DECODE_* code, or a
 * positive MAD status (e.g. 0x0c: attribute not supported).
 */
int mad_decode_reply_data(const uint8_t *buf, size_t len, uint16_t expect_attr,
			  const uint8_t **data, size_t *data_len, struct mad_hdr *hdr);

/* Lookup tables (IBA names). Unknown values give "unknown". */
const char *mad_node_type_str(unsigned int t);
const char *mad_port_state_str(unsigned int s);
const char *mad_phys_state_str(unsigned int s);
const char *mad_sm_state_str(unsigned int s);
/* "1X", "4X", ...: LinkWidthActive (a single bit). */
const char *mad_link_width_str(unsigned int w);
/* Lanes of one LinkWidth bit (4 for 4X), 0 when unknown. */
unsigned int mad_link_width_lanes(unsigned int w);
/* "SDR", "QDR", "HDR", ... from LinkSpeedActive and, when set, LinkSpeedExtActive. */
const char *mad_link_speed_str(unsigned int speed, unsigned int speed_ext);
/* Gb/s of one lane times the width; 0 when unknown. */
double mad_link_gbps(unsigned int width, unsigned int speed, unsigned int speed_ext);
/* Text of a MAD status (IBA 13.4.7 Table 122). */
const char *mad_status_str(uint16_t status);

#endif
