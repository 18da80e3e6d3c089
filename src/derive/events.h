/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Events derived by comparing what a sample shows with what the previous one showed. */
#ifndef FABTOP_DERIVE_EVENTS_H
#define FABTOP_DERIVE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "derive/doctor.h"
#include "model/events.h"
#include "model/fabric.h"
#include "model/ibfabric.h"
#include "model/net.h"

/*
 * The monitor and the exporter update one host in place, so the previous
 * sample is gone when the next one arrives: what the comparison needs of it
 * is kept here, per port, per counter, per GID, per network object and per
 * finding. Everything is owned by the memory (events_memory_free()).
 * doc/events.md defines each event, "burst" and "usual".
 */
#define EVENTS_KEY_LEN	192

struct events_counter_mem {
	char name[FAB_NAME_LEN];
	bool known;
	uint64_t value;
	bool moving;			/* moved in the latest sample: a burst in progress */
};

struct events_port_mem {
	char device[FAB_NAME_LEN];
	unsigned int port;
	bool present;			/* seen in the latest host sample */
	int state, phys_state;		/* enum fab_port_state / fab_phys_state */
	uint64_t left_active_ns;	/* mono time it left ACTIVE, 0 while ACTIVE or never active */
	bool rate_known;
	double rate_gbps;
	double usual_gbps;		/* the highest rate seen while ACTIVE (0: none yet) */
	struct events_counter_mem *ctrs;
	size_t nctrs;
	char (*gids)[EVENTS_KEY_LEN];	/* "index gid type netdev ipv4", sorted */
	size_t ngids;
};

struct events_link_mem {
	char name[EVENT_IFACE_LEN];
	bool up, carrier;
	uint32_t mtu;
};

struct events_finding_mem {
	char key[EVENTS_KEY_LEN];
	char title[EVENT_WHAT_LEN];
	int severity;
	char ifname[EVENT_IFACE_LEN];
	char device[FAB_NAME_LEN];
	unsigned int port;
};

struct events_far_mem {
	char ca[FAB_NAME_LEN];
	unsigned int port;
	bool peer_known;
	uint64_t peer_guid;
	unsigned int peer_port;
	char peer_desc[IB_DESC_LEN];
	bool sm_known;
	uint16_t sm_lid;
	uint64_t sm_guid;
};

struct events_memory {
	bool have_host, have_net, have_doctor;
	struct events_port_mem *ports;
	size_t nports;
	struct events_link_mem *links;		/* RDMA-marked links */
	size_t nlinks;
	char (*addrs)[EVENTS_KEY_LEN];		/* "ifname address/prefix", sorted */
	size_t naddrs;
	char (*routes)[EVENTS_KEY_LEN];		/* routes through RDMA links, `ip route` words, sorted */
	size_t nroutes;
	char (*rules)[EVENTS_KEY_LEN];		/* every policy rule, `ip rule` words, sorted */
	size_t nrules;
	struct events_finding_mem *findings;	/* sorted by key */
	size_t nfindings;
	struct events_far_mem *far;		/* one per local IB port the MADs answered about */
	size_t nfar;
};

/*
 * What one look showed; a NULL part was not looked at this time and is
 * neither compared nor forgotten (the network is read on its own schedule).
 * The times stamp every event appended (mono_ns: the source's clock, the
 * demo's simulated one included).
 */
struct events_input {
	const struct fab_host *host;
	const struct net_state *net;		/* RDMA netdevs marked */
	const struct doctor_report *doctor;
	uint64_t real_ns, mono_ns;
};

void events_memory_init(struct events_memory *m);
void events_memory_free(struct events_memory *m);

/*
 * Compare in with m, append what changed to log, and remember in. The first
 * look at each part only remembers (there is nothing to compare with yet).
 * Pure: no I/O, in is never changed. 0, or -ENOMEM (m then holds the parts
 * that could be remembered; the next look compares against those).
 */
int events_derive(struct events_memory *m, const struct events_input *in, struct event_log *log);

/*
 * The same for the IB subnet as MADs see it (a MAD view's ports): a link
 * partner that is another node or port than before, and a subnet manager
 * that moved. Ports without an answer are not compared. 0 or -ENOMEM.
 */
int events_derive_far_end(struct events_memory *m, const struct ib_local_port *ports, size_t nports,
			  uint64_t real_ns, uint64_t mono_ns, struct event_log *log);

#endif
