/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The doctor: findings about routing, ARP, rp_filter, ports, GIDs and IPoIB, as data. */
#ifndef FABTOP_DERIVE_DOCTOR_H
#define FABTOP_DERIVE_DOCTOR_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

#include "derive/fix.h"
#include "model/fabric.h"
#include "model/net.h"
#include "model/route.h"

#define DOCTOR_LINE_LEN		256
#define DOCTOR_MAX_LINES	12
#define DOCTOR_ADDR_LEN		INET6_ADDRSTRLEN

/* Finding ids are a contract: docs, tests and other panes cite them. */
enum doctor_id {
	DOCTOR_SAME_SUBNET_ROUTE = 1,	/* traffic from K does not leave by K's interface */
	DOCTOR_ARP_FLUX = 2,		/* arp_ignore/arp_announce 0 on a shared subnet */
	DOCTOR_RP_FILTER = 3,		/* strict rp_filter drops what arrives on the "other" NIC */
	DOCTOR_PORT_STATE = 4,		/* port not ACTIVE, or slower than it can be */
	DOCTOR_ROCE_GID = 5,		/* address without GID, GID netdev outside the netns, RoCE mode, table unusable here */
	DOCTOR_IPOIB = 6,		/* IPoIB mode/MTU, accept_local for local-to-local probes */
	DOCTOR_CM_REJECT = 7,		/* the CM's REJ counters moved while watched: connections refused */
	DOCTOR_ROCE_CHAIN = 8,		/* the lossless chain: PFC, pause, ECN/CNP, buffers, TOS, mode (derive/roce_check.h) */
	DOCTOR_PLATFORM = 9,		/* under the port: PCIe links, AER, a port far below its siblings (derive/pci_check.h) */
};

enum doctor_severity {
	DOCTOR_INFO = 0,		/* worth knowing, not a problem (exit 0) */
	DOCTOR_WARNING,			/* likely to hurt (exit 1) */
	DOCTOR_ERROR,			/* will break connections (exit 1) */
};

struct doctor_finding {
	enum doctor_id id;
	const char *code;		/* stable short key, e.g. "same-subnet-route" (static) */
	enum doctor_severity severity;
	char ifname[IFNAMSIZ];		/* the interface it is about, "" if none */
	char addr[DOCTOR_ADDR_LEN];	/* the address it is about, "" if none */
	char device[FAB_NAME_LEN];	/* the RDMA device it is about, "" if none */
	unsigned int port;		/* its port, 0 if none */
	char title[DOCTOR_LINE_LEN];	/* one line */
	char cause[2 * DOCTOR_LINE_LEN];	/* plain words: what breaks and why */
	char evidence[DOCTOR_MAX_LINES][DOCTOR_LINE_LEN];	/* what was seen */
	unsigned int nevidence;
	char fix[DOCTOR_MAX_LINES][DOCTOR_LINE_LEN];	/* commands or steps */
	unsigned int nfix;
};

/* The kernel's decision for one (source, peer) pair. */
struct doctor_route {
	char src[DOCTOR_ADDR_LEN];	/* the local address asked from ("" for an interface with none) */
	char src_ifname[IFNAMSIZ];	/* the interface that owns src */
	int rc;				/* route_query*() result: 0 or -errno */
	struct route_answer ans;
	bool own_iface;			/* leaves by src's own interface */
	bool in_subnet;			/* PEER is in src's subnet: only then must it leave by src's interface */
	bool user_from;			/* this row is --from (an address, or one of an interface's) */
};

/* What a route row comes to: the same words in `doctor`, its JSON, the Probe pane's what-if and a probe's why. */
enum doctor_route_verdict {
	DOCTOR_ROUTE_OK = 0,		/* leaves by its own interface (or is local) */
	DOCTOR_ROUTE_WRONG_IFACE,	/* the peer is in its subnet, yet it leaves by another interface */
	DOCTOR_ROUTE_BY_ROUTING,	/* the peer is outside its subnet: routed, any interface may be right */
	DOCTOR_ROUTE_NONE,		/* no route (rc) */
};

enum doctor_route_verdict doctor_route_verdict(const struct doctor_route *r);
/* The row for PEER from the local address src, asked by source as the RDMA CM binds it (a probe's why). */
void doctor_route_ask(const struct net_state *net, const struct route_ops *routes, const struct net_ip *peer,
		      const struct net_ip *src, struct doctor_route *row);
const char *doctor_route_verdict_str(enum doctor_route_verdict v);

struct doctor_query {
	const char *peer;		/* PEER address, NULL for none */
	const char *from;		/* --from ADDR|IFACE, NULL for none */
};

struct roce_gap;

struct doctor_report {
	struct doctor_finding *findings;
	size_t nfindings;
	struct roce_gap *gaps;		/* the RoCE chain's checks that could not run (derive/roce_check.h) */
	size_t ngaps;
	char peer[DOCTOR_ADDR_LEN];	/* the query's peer, "" if none */
	struct doctor_route *routes;	/* decisions for peer from each RDMA address */
	size_t nroutes;
	size_t nrdma_netdevs;		/* links marked rdma in the net state */
	size_t nports;			/* RDMA ports looked at */
};

/*
 * What the doctor examines: the host, its network state with the RDMA
 * netdevs already marked (net_mark_rdma(), done where the state is
 * collected), and who answers route questions about it (the kernel on a
 * live host, the model otherwise: kernel/route_query.h chooses).
 */
struct roce_state;

struct doctor_input {
	const struct fab_host *host;
	const struct net_state *net;
	const struct route_ops *routes;
	const struct roce_state *roce;	/* the RoCE chain (one sample) for finding 7; NULL: not looked at */
	enum fix_host persist;		/* what keeps the host's configuration: the fix's persistent format */
};

/*
 * Examine in and fill out; q may be NULL. Pure: no I/O but through
 * in->routes, and in is never changed. Returns 0, -EINVAL for a peer or
 * --from that is not an address/interface here (the message is the
 * caller's job), -ENODEV/-EADDRNOTAVAIL for a --from that is not local,
 * -ENOMEM.
 */
int doctor_run(const struct doctor_input *in, const struct doctor_query *q, struct doctor_report *out);
/*
 * The route rows for q alone, no findings (the Probe pane's what-if: the
 * findings are the live core's, made once). Same returns as doctor_run().
 */
int doctor_routes(const struct doctor_input *in, const struct doctor_query *q, struct doctor_report *out);
void doctor_report_free(struct doctor_report *r);

/*
 * A finding's words, for every check that makes findings (the doctor's,
 * the RoCE chain's, the PCIe links'): the cause, one more line of
 * evidence, one more fix (each line cut at DOCTOR_LINE_LEN, past
 * DOCTOR_MAX_LINES dropped). f may be NULL (a finding that could not be
 * added): nothing is written.
 */
void doctor_cause(struct doctor_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void doctor_evidence(struct doctor_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void doctor_fix(struct doctor_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Findings made into a caller's array of cap (the RoCE chain's, the PCIe
 * links'): past cap they are counted, not written, so a first call with
 * cap 0 says how many there are.
 */
struct doctor_sink {
	struct doctor_finding *out;
	size_t cap, n;			/* n: the findings in all, those past cap too */
	struct doctor_finding *cur;	/* the one being filled, NULL past cap */
};

/*
 * The next finding of s, about ifname, device and port ("" and 0: none),
 * titled by fmt; it is s->cur for doctor_cause() and the others after it,
 * and the return (NULL past cap).
 */
struct doctor_finding *doctor_sink_add(struct doctor_sink *s, enum doctor_id id, const char *code,
				       enum doctor_severity sev, const char *ifname, const char *device,
				       unsigned int port, const char *fmt, ...) __attribute__((format(printf, 8, 9)));

/* Does the report hold a warning or an error (doctor's exit status 1)? */
bool doctor_has_problems(const struct doctor_report *r);
const char *doctor_severity_str(enum doctor_severity s);	/* "info", "warning", "error" */

/*
 * The first finding about an address or interface name (for the probe:
 * "traffic from 172.16.34.2 leaves by ib0 — see finding 1"), NULL if none.
 */
const struct doctor_finding *doctor_find(const struct doctor_report *r, const char *addr_or_ifname);

#endif
