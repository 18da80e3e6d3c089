// SPDX-License-Identifier: GPL-2.0-or-later
/* Decoding tables for rdma_cm events, IB CM reject reasons and errno statuses. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rdma/rdma_cma.h>

#include "probe/cm_reason.h"
#include "util.h"

#define N(a) (ARRAY_SIZE(a))

/*
 * IBA vol 1 release 1.4, 12.6.7.2 Table 112 "REJ reason" (the kernel's enum
 * ib_cm_rej_reason). On RoCE and IB, an rdma_cm REJECTED event carries this
 * number as its status; iWARP reports -ECONNREFUSED instead.
 */
static const struct cm_reason reject_reasons[] = {
	{ 1, "no QP available", "the passive side could not allocate a queue pair" },
	{ 2, "no EEC available", "the passive side has no end-to-end context (RD transport)" },
	{ 3, "no resources available", "the passive side ran out of resources for the connection" },
	{ 4, "timeout", "the passive side timed out waiting for the connection to complete" },
	{ 5, "unsupported request", "the passive side does not support a parameter of the request" },
	{ 6, "invalid communication ID", "the CM message named a connection the peer does not know" },
	{ 7, "invalid communication instance", "the CM message refers to an old instance of the connection" },
	{ 8, "invalid service ID", "the peer's CM found no listener for that port (service ID): nothing listens there, or the peer's kernel refused the request's addresses" },
	{ 9, "invalid transport service type", "the listener does not accept this QP type" },
	{ 10, "stale connection", "the peer still holds a previous connection with this QP number" },
	{ 11, "RDC does not exist", "the reliable datagram channel named is unknown (RD transport)" },
	{ 12, "primary remote port GID rejected", "the peer's port does not accept the GID the request was sent to (wrong GID index, RoCE version, or interface)" },
	{ 13, "primary remote port LID rejected", "the peer's port does not accept the LID in the request" },
	{ 14, "invalid primary SL", "the peer does not accept the service level of the primary path" },
	{ 15, "invalid primary traffic class", "the peer does not accept the traffic class of the primary path" },
	{ 16, "invalid primary hop limit", "the peer does not accept the hop limit of the primary path" },
	{ 17, "invalid primary packet rate", "the peer does not accept the static rate of the primary path" },
	{ 18, "alternate remote port GID rejected", "the peer's port does not accept the alternate path's GID" },
	{ 19, "alternate remote port LID rejected", "the peer's port does not accept the alternate path's LID" },
	{ 20, "invalid alternate SL", "the peer does not accept the alternate path's service level" },
	{ 21, "invalid alternate traffic class", "the peer does not accept the alternate path's traffic class" },
	{ 22, "invalid alternate hop limit", "the peer does not accept the alternate path's hop limit" },
	{ 23, "invalid alternate packet rate", "the peer does not accept the alternate path's static rate" },
	{ 24, "port redirection (CM)", "the peer asks to send the request to another CM port (redirect)" },
	{ 25, "port redirection", "the peer asks to use another port for the connection" },
	{ 26, "invalid path MTU", "the path MTU in the request is not acceptable to the peer" },
	{ 27, "insufficient responder resources", "the peer cannot serve as many RDMA reads/atomics as asked" },
	{ 28, "consumer defined", "the peer's application refused the connection (see its private data)" },
	{ 29, "invalid RNR retry count", "the peer does not accept the RNR retry count" },
	{ 30, "duplicate local communication ID", "the request reused a communication ID already in use" },
	{ 31, "invalid class version", "the peer's CM does not speak this CM class version" },
	{ 32, "invalid primary flow label", "the peer does not accept the primary path's flow label" },
	{ 33, "invalid alternate flow label", "the peer does not accept the alternate path's flow label" },
	{ 35, "vendor option not supported", "the peer does not support the requested vendor option (ECE)" },
};

const struct cm_reason *cm_reason_reject(int reason)
{
	size_t i;

	for (i = 0; i < N(reject_reasons); i++)
		if (reject_reasons[i].code == reason)
			return &reject_reasons[i];
	return NULL;
}

size_t cm_reason_reject_count(void)
{
	return N(reject_reasons);
}

#define EV(e, m) [RDMA_CM_EVENT_##e] = { RDMA_CM_EVENT_##e, #e, m }
static const struct cm_reason events[] = {
	EV(ADDR_RESOLVED, "the peer's address maps to a local RDMA device and port"),
	EV(ADDR_ERROR, "the peer's address could not be resolved to a local RDMA device (route, ARP/neighbour, or no RDMA device on the outgoing interface)"),
	EV(ROUTE_RESOLVED, "a path to the peer is known"),
	EV(ROUTE_ERROR, "no path to the peer (IB: the subnet administrator did not answer or has no path)"),
	EV(CONNECT_REQUEST, "a client asks to connect"),
	EV(CONNECT_RESPONSE, "the peer answered the request (user-managed QP)"),
	EV(CONNECT_ERROR, "the connection failed while being established"),
	EV(UNREACHABLE, "the peer did not answer the connection request"),
	EV(REJECTED, "the peer refused the connection"),
	EV(ESTABLISHED, "the connection is up"),
	EV(DISCONNECTED, "the connection was closed"),
	EV(DEVICE_REMOVAL, "the RDMA device went away"),
	EV(MULTICAST_JOIN, "joined a multicast group"),
	EV(MULTICAST_ERROR, "a multicast join failed"),
	EV(ADDR_CHANGE, "the address moved to another device or port"),
	EV(TIMEWAIT_EXIT, "the QP left the time-wait state"),
};
#undef EV

const struct cm_reason *cm_reason_event(int event)
{
	if (event < 0 || (size_t)event >= N(events) || !events[event].name)
		return NULL;
	return &events[event];
}

const char *cm_reason_event_name(int event)
{
	const struct cm_reason *r = cm_reason_event(event);

	return r ? r->name : "UNKNOWN";
}

/* An errno in the context of one event; event -1 matches any event. */
struct errno_reason {
	int event;
	struct cm_reason r;
};

#define ER(ev, e, m) { ev, { e, #e, m } }
static const struct errno_reason errno_reasons[] = {
	ER(RDMA_CM_EVENT_UNREACHABLE, ETIMEDOUT, "the peer never answered the connection request (CM REQ retries ran out): packets are lost or dropped on the way, e.g. they leave by the wrong interface, rp_filter drops them, or nothing answers at that address"),
	ER(RDMA_CM_EVENT_UNREACHABLE, ECONNREFUSED, "the peer refused the connection"),
	ER(RDMA_CM_EVENT_UNREACHABLE, ENETUNREACH, "the peer's network is unreachable"),
	ER(RDMA_CM_EVENT_ADDR_ERROR, ETIMEDOUT, "no neighbour (ARP/ND) answer for the peer's address"),
	ER(RDMA_CM_EVENT_ADDR_ERROR, EHOSTUNREACH, "no route to the peer, or the neighbour entry failed"),
	ER(RDMA_CM_EVENT_ADDR_ERROR, ENETUNREACH, "no route to the peer's network"),
	ER(RDMA_CM_EVENT_ADDR_ERROR, ENODEV, "the interface the route uses has no RDMA device (or its GID is missing)"),
	ER(RDMA_CM_EVENT_ADDR_ERROR, EADDRNOTAVAIL, "the source address is not configured on this host, or not on an RDMA device"),
	ER(RDMA_CM_EVENT_ROUTE_ERROR, ETIMEDOUT, "the path query timed out (IB: no answer from the subnet administrator)"),
	ER(RDMA_CM_EVENT_ROUTE_ERROR, ENODEV, "the device or GID needed for the route is missing"),
	ER(RDMA_CM_EVENT_CONNECT_ERROR, ETIMEDOUT, "the connection handshake timed out"),
	ER(RDMA_CM_EVENT_CONNECT_ERROR, ECONNRESET, "the peer reset the connection during the handshake"),
	ER(-1, ETIMEDOUT, "timed out"),
	ER(-1, ECONNREFUSED, "connection refused by the peer"),
	ER(-1, ECONNRESET, "connection reset by the peer"),
	ER(-1, EHOSTUNREACH, "no route to the host"),
	ER(-1, ENETUNREACH, "network unreachable"),
	ER(-1, ENODEV, "no such RDMA device"),
	ER(-1, EADDRNOTAVAIL, "address not available on this host"),
	ER(-1, EADDRINUSE, "address and port already in use"),
	ER(-1, ENOMEM, "out of memory (or locked-memory limit, ulimit -l)"),
	ER(-1, EINVAL, "invalid argument"),
	ER(-1, EPERM, "operation not permitted"),
	ER(-1, EACCES, "permission denied"),
};
#undef ER

const struct cm_reason *cm_reason_errno(int event, int status)
{
	int e = status < 0 ? -status : status;
	size_t i;

	for (i = 0; i < N(errno_reasons); i++)
		if (errno_reasons[i].r.code == e && errno_reasons[i].event == event)
			return &errno_reasons[i].r;
	for (i = 0; i < N(errno_reasons); i++)
		if (errno_reasons[i].r.code == e && errno_reasons[i].event == -1)
			return &errno_reasons[i].r;
	return NULL;
}

char *cm_reason_explain(char *buf, size_t len, int event, int status)
{
	const struct cm_reason *r;

	if (!len)
		return buf;
	if (event == RDMA_CM_EVENT_REJECTED && status > 0) {
		r = cm_reason_reject(status);
		if (r)
			snprintf(buf, len, "reason %d (%s): %s", status, r->name, r->meaning);
		else
			snprintf(buf, len, "reason %d (not in IBA Table 112)", status);
		return buf;
	}
	if (status == 0) {
		r = cm_reason_event(event);
		snprintf(buf, len, "%s", r ? r->meaning : "unknown event");
		return buf;
	}
	r = cm_reason_errno(event, status);
	if (r)
		snprintf(buf, len, "status %d (%s): %s", status, r->name, r->meaning);
	else
		snprintf(buf, len, "status %d (%s)", status, strerror(status < 0 ? -status : status));
	return buf;
}
