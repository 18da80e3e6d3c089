// SPDX-License-Identifier: GPL-2.0-or-later
/* Releasing and naming parts of the IB fabric model. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/ibfabric.h"
#include "util.h"

const char *const ib_pma_names[IB_PMA_SLOTS] = {
	[IB_PMA_SYMBOL_ERROR] = "symbol_error",
	[IB_PMA_LINK_ERROR_RECOVERY] = "link_error_recovery",
	[IB_PMA_LINK_DOWNED] = "link_downed",
	[IB_PMA_RCV_ERRORS] = "port_rcv_errors",
	[IB_PMA_RCV_REMOTE_PHYSICAL_ERRORS] = "port_rcv_remote_physical_errors",
	[IB_PMA_RCV_SWITCH_RELAY_ERRORS] = "port_rcv_switch_relay_errors",
	[IB_PMA_XMIT_DISCARDS] = "port_xmit_discards",
	[IB_PMA_XMIT_CONSTRAINT_ERRORS] = "port_xmit_constraint_errors",
	[IB_PMA_RCV_CONSTRAINT_ERRORS] = "port_rcv_constraint_errors",
	[IB_PMA_LOCAL_LINK_INTEGRITY_ERRORS] = "local_link_integrity_errors",
	[IB_PMA_EXCESSIVE_BUFFER_OVERRUN_ERRORS] = "excessive_buffer_overrun_errors",
	[IB_PMA_VL15_DROPPED] = "VL15_dropped",
	[IB_PMA_XMIT_DATA] = "port_xmit_data",
	[IB_PMA_RCV_DATA] = "port_rcv_data",
	[IB_PMA_XMIT_PACKETS] = "port_xmit_packets",
	[IB_PMA_RCV_PACKETS] = "port_rcv_packets",
	[IB_PMA_XMIT_WAIT] = "port_xmit_wait",
	[IB_PMA_UNICAST_XMIT_PACKETS] = "unicast_xmit_packets",
	[IB_PMA_UNICAST_RCV_PACKETS] = "unicast_rcv_packets",
	[IB_PMA_MULTICAST_XMIT_PACKETS] = "multicast_xmit_packets",
	[IB_PMA_MULTICAST_RCV_PACKETS] = "multicast_rcv_packets",
};

const struct fab_counter *ib_pma_counter(const struct ib_pma *pma, enum ib_pma_slot slot)
{
	const char *name;

	if ((unsigned int)slot >= IB_PMA_SLOTS)
		return NULL;
	name = ib_pma_names[slot];
	if ((size_t)slot < pma->n && !strcmp(pma->c[slot].name, name))
		return &pma->c[slot];
	for (size_t i = 0; i < pma->n; i++)
		if (!strcmp(pma->c[i].name, name))
			return &pma->c[i];
	return NULL;
}

void ib_fabric_free(struct ib_fabric *f)
{
	for (size_t i = 0; i < f->nnodes; i++) {
		for (size_t p = 0; f->nodes[i].ports && p <= f->nodes[i].id.num_ports; p++)
			free(f->nodes[i].ports[p].pma);
		free(f->nodes[i].ports);
	}
	free(f->nodes);
	free(f->links);
	free(f->ports);
	memset(f, 0, sizeof(*f));
}

size_t ib_fabric_mem_bytes(const struct ib_fabric *f)
{
	size_t b = f->nnodes * sizeof(*f->nodes) + f->nlinks * sizeof(*f->links);

	for (size_t i = 0; i < f->nnodes; i++) {
		const struct ib_fnode *n = &f->nodes[i];

		if (!n->ports)
			continue;
		b += ((size_t)n->id.num_ports + 1) * sizeof(*n->ports);
		for (size_t p = 0; p <= n->id.num_ports; p++)
			if (n->ports[p].pma)
				b += sizeof(*n->ports[p].pma);
	}
	return b;
}

const char *ib_query_state_str(enum ib_query_state s)
{
	static const char *const names[] = {
		[IBQ_NONE] = "not asked", [IBQ_PENDING] = "pending", [IBQ_OK] = "ok",
		[IBQ_TIMEOUT] = "timeout", [IBQ_STATUS] = "error status",
		[IBQ_BAD_REPLY] = "bad reply", [IBQ_ERROR] = "send failed",
	};

	return util_name(names, ARRAY_SIZE(names), s, "unknown");
}

bool ib_local_port_is_management(const struct ib_local_port *lp)
{
	return lp->port == 0;
}
