// SPDX-License-Identifier: GPL-2.0-or-later
/* Releasing and naming parts of the IB fabric model. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/ibfabric.h"
#include "util.h"

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
