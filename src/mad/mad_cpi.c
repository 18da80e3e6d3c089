// SPDX-License-Identifier: GPL-2.0-or-later
/* A PMA's ClassPortInfo asked once per node model, its answer given to the model's other nodes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mad/mad_cpi.h"

static bool same_model(const struct mad_cpi_model *m, const struct ib_node_id *id)
{
	return m->vendor_id == id->vendor_id && m->device_id == id->device_id && m->revision == id->revision &&
	       m->node_type == id->node_type;
}

static struct mad_cpi_model *model_find(struct mad_cpi_cache *c, const struct ib_node_id *id)
{
	for (size_t i = 0; i < c->n; i++)
		if (same_model(&c->m[i], id))
			return &c->m[i];
	return NULL;
}

static bool wait_add(struct mad_cpi_model *m, size_t node)
{
	if (m->nwaiting == m->cap) {
		size_t nc = m->cap ? m->cap * 2 : 16;
		size_t *nv = realloc(m->waiting, nc * sizeof(*nv));

		if (!nv)
			return false;
		m->waiting = nv;
		m->cap = nc;
	}
	m->waiting[m->nwaiting++] = node;
	return true;
}

enum mad_cpi_look mad_cpi_look(struct mad_cpi_cache *c, const struct ib_node_id *id, size_t node,
			       struct mad_class_port_info *cpi)
{
	struct mad_cpi_model *m = model_find(c, id);

	if (!m) {
		if (c->n >= MAD_CPI_MAX_MODELS)
			return MAD_CPI_ASK;
		if (!c->n && !(c->m = calloc(MAD_CPI_MAX_MODELS, sizeof(*c->m))))
			return MAD_CPI_ASK;
		m = &c->m[c->n++];
		*m = (struct mad_cpi_model){ .vendor_id = id->vendor_id, .revision = id->revision,
					     .device_id = id->device_id, .node_type = id->node_type, .asked = true };
		return MAD_CPI_ASK;
	}
	if (m->known) {
		*cpi = m->cpi;
		c->shared++;
		return MAD_CPI_KNOWN;
	}
	if (m->failed)
		return MAD_CPI_ASK;
	if (!m->asked) {
		m->asked = true;	/* the first of its model in a new sweep */
		return MAD_CPI_ASK;
	}
	return wait_add(m, node) ? MAD_CPI_WAIT : MAD_CPI_ASK;
}

void mad_cpi_answer(struct mad_cpi_cache *c, const struct ib_node_id *id, const struct mad_class_port_info *cpi,
		    size_t **waiting, size_t *nwaiting)
{
	struct mad_cpi_model *m = model_find(c, id);

	*waiting = NULL;
	*nwaiting = 0;
	if (!m)
		return;
	if (cpi && !m->known) {
		m->known = true;
		m->cpi = *cpi;
	} else if (!cpi && !m->known) {
		m->failed = true;	/* each node of the model asks its own from now on */
	}
	if (cpi)
		c->shared += m->nwaiting;
	*waiting = m->waiting;
	*nwaiting = m->nwaiting;
	m->waiting = NULL;
	m->nwaiting = m->cap = 0;
}

bool mad_cpi_refused(const struct ib_pma *pma, int status, const uint8_t *mad, size_t len)
{
	const uint8_t *data;
	size_t dlen;
	struct mad_hdr h;

	if (!pma->cpi_shared || status)
		return false;
	return mad_decode_reply_data(mad, len, MAD_ATTR_PORT_COUNTERS_EXT, &data, &dlen, &h) > 0;
}

void mad_cpi_drop_waiting(struct mad_cpi_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->m[i].waiting);
		c->m[i].waiting = NULL;
		c->m[i].nwaiting = c->m[i].cap = 0;
		/* a model asked in a sweep now gone is asked again */
		if (!c->m[i].known)
			c->m[i].asked = c->m[i].failed = false;
	}
}

void mad_cpi_free(struct mad_cpi_cache *c)
{
	mad_cpi_drop_waiting(c);
	free(c->m);
	memset(c, 0, sizeof(*c));
}
