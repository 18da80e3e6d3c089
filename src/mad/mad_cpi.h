/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A PMA's ClassPortInfo asked once per node model (vendor, device, revision, type), not once per node. */
#ifndef FABTOP_MAD_MAD_CPI_H
#define FABTOP_MAD_MAD_CPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "derive/mad_decode.h"
#include "model/ibfabric.h"

/*
 * Nodes of one model (NodeInfo VendorID, DeviceID, Revision and node
 * type) run one firmware and answer ClassPortInfo alike, so a sweep asks
 * the first node of a model and gives its answer to the others: on a
 * fabric of a few switch and adapter models that is a handful of MADs
 * instead of one a node. A node whose PortCountersExtended then answers
 * with a bad status was given the wrong answer (a mixed-firmware fabric):
 * its own ClassPortInfo is asked (mad_cpi_refused()).
 *
 * Only answers that decoded are shared; a model whose first node timed
 * out or answered with an error status is asked node by node. Past
 * MAD_CPI_MAX_MODELS models every further node is asked by itself.
 */
#define MAD_CPI_MAX_MODELS 256

enum mad_cpi_look {
	MAD_CPI_ASK,			/* ask this node: the first of its model, or a model that is not shared */
	MAD_CPI_KNOWN,			/* *cpi holds the model's answer */
	MAD_CPI_WAIT,			/* another node of the model is being asked: this one waits for it */
};

struct mad_cpi_model {
	uint32_t vendor_id, revision;
	uint16_t device_id;
	uint8_t node_type;
	bool asked, known, failed;
	struct mad_class_port_info cpi;
	size_t *waiting;		/* node indices waiting for the answer */
	size_t nwaiting, cap;
};

struct mad_cpi_cache {
	struct mad_cpi_model *m;
	size_t n;
	uint64_t shared;		/* ClassPortInfo MADs not sent: answers given from a model */
};

/* What to do about node (an index the caller keeps) of model id. */
enum mad_cpi_look mad_cpi_look(struct mad_cpi_cache *c, const struct ib_node_id *id, size_t node,
			       struct mad_class_port_info *cpi);
/*
 * The asked node of model id answered (cpi) or not (NULL). The nodes that
 * waited are handed back in *waiting (*nwaiting of them, the caller
 * frees): with cpi they take it, without it each asks its own.
 */
void mad_cpi_answer(struct mad_cpi_cache *c, const struct ib_node_id *id, const struct mad_class_port_info *cpi,
		    size_t **waiting, size_t *nwaiting);
/*
 * A node given its model's answer (pma->cpi_shared) whose
 * PortCountersExtended answered with a MAD status: true when its own
 * ClassPortInfo should now be asked (its counters redefined from that).
 */
bool mad_cpi_refused(const struct ib_pma *pma, int status, const uint8_t *mad, size_t len);
/* Forget the waiting nodes (their indices are stale: a new sweep); answers stay. */
void mad_cpi_drop_waiting(struct mad_cpi_cache *c);
void mad_cpi_free(struct mad_cpi_cache *c);

#endif
