/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The InfiniBand fabric as the subnet's own management (MADs) sees it: local ports, their partners, the SM, the swept fabric. */
#ifndef FABTOP_MODEL_IBFABRIC_H
#define FABTOP_MODEL_IBFABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/fabric.h"

#define IB_DESC_LEN		65	/* NodeDescription: 64 bytes + NUL */
#define IB_MAX_PMA_COUNTERS	24

/* Result of one query: not asked yet, answered, or why not. */
enum ib_query_state {
	IBQ_NONE = 0,		/* not asked (or not applicable: see the note) */
	IBQ_PENDING,
	IBQ_OK,
	IBQ_TIMEOUT,		/* no answer within the deadline and retries */
	IBQ_STATUS,		/* answered with a MAD status (e.g. unsupported) */
	IBQ_BAD_REPLY,		/* a reply that did not decode */
	IBQ_ERROR,		/* could not be sent */
};

/*
 * The PMA counters in the order a port's are defined (mad_port_pma_define),
 * so a reader finds one at its place instead of by name:
 * ib_pma_counter(pma, IB_PMA_XMIT_DATA). The last four are only in the
 * IETF-compatible PortCountersExtended.
 */
enum ib_pma_slot {
	IB_PMA_SYMBOL_ERROR, IB_PMA_LINK_ERROR_RECOVERY, IB_PMA_LINK_DOWNED, IB_PMA_RCV_ERRORS,
	IB_PMA_RCV_REMOTE_PHYSICAL_ERRORS, IB_PMA_RCV_SWITCH_RELAY_ERRORS, IB_PMA_XMIT_DISCARDS,
	IB_PMA_XMIT_CONSTRAINT_ERRORS, IB_PMA_RCV_CONSTRAINT_ERRORS, IB_PMA_LOCAL_LINK_INTEGRITY_ERRORS,
	IB_PMA_EXCESSIVE_BUFFER_OVERRUN_ERRORS, IB_PMA_VL15_DROPPED,
	IB_PMA_XMIT_DATA, IB_PMA_RCV_DATA, IB_PMA_XMIT_PACKETS, IB_PMA_RCV_PACKETS, IB_PMA_XMIT_WAIT,
	IB_PMA_UNICAST_XMIT_PACKETS, IB_PMA_UNICAST_RCV_PACKETS, IB_PMA_MULTICAST_XMIT_PACKETS,
	IB_PMA_MULTICAST_RCV_PACKETS,
	IB_PMA_SLOTS
};
/* Their names (sysfs's). */
extern const char *const ib_pma_names[IB_PMA_SLOTS];

/*
 * PMA counters of one port. Counters are fab_counter so the rate maths of
 * derive/counters.h applies unchanged (source COUNTER_SRC_PMA, names as in
 * sysfs). Two samples give rates: see ib_pma_sample in mad/mad_port.h.
 */
struct ib_pma {
	enum ib_query_state state;
	uint16_t status;		/* MAD status when state == IBQ_STATUS */
	bool cpi_known;			/* ClassPortInfo answered */
	uint16_t cap_mask;		/* PMA ClassPortInfo:CapabilityMask */
	uint32_t cap_mask2;		/* and its CapabilityMask2 */
	bool cpi_shared;		/* cap_mask from another node of the same model (see src/mad/mad_cpi.h) */
	bool ext;			/* data/packet counters from PortCountersExtended */
	bool ext_only;			/* every counter from PortCountersExtended: PortCounters is not asked */
	bool ext_failed;		/* advertised, but PortCountersExtended did not answer */
	uint16_t lid;			/* where the PMA was asked */
	uint8_t port_select;
	enum ib_query_state tick_state;	/* PortSamplesControl, asked once: IBQ_OK when tick is known */
	uint8_t tick;			/* PortSamplesControl:Tick: a PortXmitWait tick is tick + 1 byte times */
	struct fab_counter c[IB_MAX_PMA_COUNTERS];
	size_t n;
	uint64_t sample_ns, prev_sample_ns;
};

/* A node as NodeInfo/NodeDescription describe it. */
struct ib_node_id {
	uint64_t node_guid, sys_image_guid, port_guid;
	uint8_t node_type;		/* 1 CA, 2 switch, 3 router */
	uint8_t num_ports;
	uint32_t vendor_id;
	uint16_t device_id;
	uint32_t revision;		/* NodeInfo:Revision */
	char desc[IB_DESC_LEN];
};

/* A port as PortInfo describes it. */
struct ib_port_id {
	uint8_t num;
	uint16_t lid;			/* for a switch: the LID of its port 0 */
	uint16_t sm_lid;
	uint8_t sm_sl, lmc;
	uint8_t state, phys_state;	/* IBA PortState / PortPhysicalState numbers */
	uint8_t width, speed, speed_ext;/* LinkWidthActive / LinkSpeed(Ext)Active */
	uint32_t cap_mask;
	/* what the port can do and may do: LinkWidth/LinkSpeed Supported and Enabled, LinkSpeedExtSupported */
	uint8_t width_sup, width_en, speed_sup, speed_en, speed_ext_sup;
};

/* The subnet manager as seen from a port. */
struct ib_sm {
	enum ib_query_state state;	/* of the SMInfo query */
	uint16_t lid;			/* PortInfo:MasterSMLID */
	uint8_t sl;			/* PortInfo:MasterSMSL */
	uint64_t guid;
	uint8_t priority;
	uint8_t sm_state;		/* SMInfo:SMState (enum mad_sm_state) */
	uint32_t act_count;
};

/* One local IB port (a umad port) and what the fabric says around it. */
struct ib_local_port {
	char ca[FAB_NAME_LEN];
	unsigned int port;
	char umad_dev[32];		/* "/dev/infiniband/umad0", "" if unknown */
	enum ib_query_state self_state;
	struct ib_node_id node;		/* our own node, by directed route, zero hops */
	struct ib_port_id pi;
	struct ib_sm sm;
	/* the link partner: one hop out by directed route */
	enum ib_query_state peer_state;
	struct ib_node_id peer;
	struct ib_port_id peer_pi;
	/* PMA counters of both ends of the cable */
	struct ib_pma pma;
	struct ib_pma peer_pma;
	char note[768];			/* why something is missing, for people ("" if nothing) */
};

/* A port of a swept node and what is cabled to it. */
struct ib_fport {
	struct ib_port_id pi;		/* pi.num 0 and !known: PortInfo did not answer */
	bool known;
	bool linked;			/* peer/peer_port name the other end */
	size_t peer;			/* index into ib_fabric.nodes */
	uint8_t peer_port;
	struct ib_pma *pma;		/* its PMA counters (a sweep with counters); NULL: not asked */
};

/* A node found by the sweep, and the directed route that reached it. */
struct ib_fnode {
	struct ib_node_id id;
	uint16_t lid;			/* port 0 (switch) or the port we entered by */
	uint8_t path[64];		/* path[1..hops] egress ports from the local port */
	uint8_t hops;
	uint8_t entry_port;
	size_t via;			/* index into ib_fabric.ports of the port that found it */
	struct ib_fport *ports;		/* [0..num_ports]; port 0 is a switch's management port */
};

/* A cable between two node ports (by index into nodes[]), as the first end reports it. */
struct ib_link {
	size_t a, b;
	uint8_t a_port, b_port;
};

/* What `show fabric` reports: everything reachable from the local ports. */
struct ib_fabric {
	struct ib_local_port *ports;
	size_t nports;
	struct ib_fnode *nodes;
	size_t nnodes;
	struct ib_link *links;
	size_t nlinks;
	/* the sweep's own numbers, for people and for tuning */
	bool swept;
	bool partial;			/* a first sweep still running: the nodes and links it found so far, no counters */
	size_t sweep_from;		/* index into ports of the port swept from */
	bool truncated_nodes;		/* stopped at the node limit */
	bool truncated_time;		/* stopped at the deadline */
	bool truncated_mem;		/* stopped at the memory bound (mem_budget) */
	size_t mem_budget;		/* the bound a sweep grows within, bytes (0: none) */
	/*
	 * Answers that contradict the sweep: a node GUID seen before, reached
	 * by a cable its port is not on (a duplicate GUID, or the fabric
	 * changed during the sweep). That part is left out.
	 */
	size_t guid_conflicts;
	uint64_t guid_conflict;		/* the first such GUID */
	uint64_t sweep_ns;
	uint64_t sweep_mads;		/* MADs the sweep itself sent */
	unsigned int sweep_peak;	/* the most SMPs its session had in flight at once */
	unsigned int sweep_window;	/* the most it let be in flight (--fabric-smps) */
	uint64_t mads_sent, mads_received, mads_timeout, mads_retried;
	/* the PMA counters of every swept port (MADF_PMA) */
	bool pma_swept;
	uint64_t pma_ns;		/* from the first ClassPortInfo to the last answer */
	uint64_t pma_mads;		/* MADs the counter sweep sent */
	size_t pma_ports;		/* ports asked */
	size_t pma_answered;		/* ports whose PortCounters answered */
	uint64_t pma_cpi_shared;	/* ClassPortInfo MADs not sent: a node took its model's answer */
	char error[768];		/* why nothing could be asked at all ("" if fine) */
};

void ib_fabric_free(struct ib_fabric *f);
/*
 * A port's counter by its slot: at its place when the port's counters were
 * defined in order, else found by name (a recording may list them in
 * another); NULL when the port has no such counter.
 */
const struct fab_counter *ib_pma_counter(const struct ib_pma *pma, enum ib_pma_slot slot);
/* What the swept subnet's tables take (nodes, ports, links, PMA counters), bytes. */
size_t ib_fabric_mem_bytes(const struct ib_fabric *f);

/* One end of a hop of a traced path: a port, its state and counters. */
struct ib_trace_end {
	uint8_t port;			/* 0: none (the source has no in, the destination no out) */
	bool known;			/* its PortInfo answered */
	struct ib_port_id pi;
	struct ib_pma pma;		/* two samples an interval apart give rates */
};

/* A node on the path, entered by in.port and left by out.port. */
struct ib_trace_hop {
	struct ib_node_id id;
	uint16_t lid;			/* where its PMA is asked: a switch's port 0, a CA's port */
	uint8_t lmc;
	uint16_t lft_top;		/* a switch's LinearFDBTop */
	struct ib_trace_end in, out;
};

#define IB_TRACE_MAX_HOPS	64	/* directed routes reach 63 hops out */

/* The path traffic to dlid takes from a local port, by the switches' linear forwarding tables. */
struct ib_trace {
	char ca[FAB_NAME_LEN];
	unsigned int port;		/* the local port traced from */
	uint16_t dlid;
	const char *found_by;		/* how DEST became dlid: "lid" (given), "sa" (a NodeRecord), "sweep" */
	struct ib_trace_hop hops[IB_TRACE_MAX_HOPS];
	size_t nhops;
	bool complete;			/* the destination was reached */
	bool sampled;			/* two PMA samples were taken */
	double interval_s;		/* between them */
	uint64_t walk_ns;		/* the walk, first MAD to last answer */
	char error[256];		/* why the path stops short ("" when complete) */
};

/*
 * Port 0 of a switch (the only port a switch shows its host): the switch's
 * management port, behind no cable, so there is no partner one hop out and
 * no partner PMA. The switch's cables are its external ports, in the sweep.
 */
bool ib_local_port_is_management(const struct ib_local_port *lp);
#define IB_MANAGEMENT_PORT_TEXT "none: port 0 is the switch's management port, no cable (its links are in the sweep)"
const char *ib_query_state_str(enum ib_query_state s);

#endif
