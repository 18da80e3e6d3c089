// SPDX-License-Identifier: GPL-2.0-or-later
/* The cluster rows: hosts and ports found by name through open-addressing indexes, so a refresh of thousands stays linear. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"

void cluster_init(struct cluster *c)
{
	memset(c, 0, sizeof(*c));
}

void cluster_free(struct cluster *c)
{
	free(c->hosts);
	free(c->ports);
	free(c->host_index.slots);
	free(c->port_index.slots);
	cluster_init(c);
}

/* FNV-1a over the parts, each ended by a NUL so "a","bc" and "ab","c" differ. */
static uint64_t hash_parts(const char *a, const char *b, const char *d)
{
	const char *parts[3] = { a, b, d };
	uint64_t h = 1469598103934665603ull;

	for (int i = 0; i < 3 && parts[i]; i++) {
		for (const unsigned char *p = (const unsigned char *)parts[i]; *p; p++)
			h = (h ^ *p) * 1099511628211ull;
		h = (h ^ 0xff) * 1099511628211ull;
	}
	return h;
}

static bool host_eq(const struct cluster *c, size_t i, const char *instance, const char *device, const char *port)
{
	return !strcmp(c->hosts[i].instance, instance);
}

static bool port_eq(const struct cluster *c, size_t i, const char *instance, const char *device, const char *port)
{
	const struct cluster_port *p = &c->ports[i];

	return !strcmp(p->device, device) && !strcmp(p->port, port) && !strcmp(c->hosts[p->host].instance, instance);
}

typedef bool (*item_eq)(const struct cluster *c, size_t i, const char *instance, const char *device, const char *port);

/* The slot of the item, or the empty slot where it would go. */
static uint32_t *index_slot(const struct cluster *c, const struct cluster_index *ix, item_eq eq,
			    const char *instance, const char *device, const char *port)
{
	size_t mask = ix->size - 1, i = hash_parts(instance, device, port) & mask;

	while (ix->slots[i] && !eq(c, ix->slots[i] - 1, instance, device, port))
		i = (i + 1) & mask;
	return &ix->slots[i];
}

/* Keep the index at most half full: rebuild it twice as large from the items. */
static int index_grow(struct cluster *c, struct cluster_index *ix, size_t nitems, bool hosts)
{
	size_t size = ix->size ? ix->size : 64;
	uint32_t *slots;

	if (nitems + 1 <= size / 2 && ix->slots)
		return 0;
	while (nitems + 1 > size / 2)
		size *= 2;
	if (nitems + 1 > UINT32_MAX)
		return -1;
	slots = calloc(size, sizeof(*slots));
	if (!slots)
		return -1;
	free(ix->slots);
	ix->slots = slots;
	ix->size = size;
	for (size_t i = 0; i < nitems; i++) {
		uint32_t *s;

		if (hosts) {
			s = index_slot(c, ix, host_eq, c->hosts[i].instance, NULL, NULL);
		} else {
			const struct cluster_port *p = &c->ports[i];

			s = index_slot(c, ix, port_eq, c->hosts[p->host].instance, p->device, p->port);
		}
		*s = (uint32_t)i + 1;
	}
	return 0;
}

static bool fits(const char *s, size_t size)
{
	return s && strlen(s) < size;
}

static struct cluster_host *host_find(const struct cluster *c, const char *instance)
{
	uint32_t *s;

	if (!c->host_index.slots)
		return NULL;
	s = index_slot(c, &c->host_index, host_eq, instance, NULL, NULL);
	return *s ? &c->hosts[*s - 1] : NULL;
}

struct cluster_host *cluster_host_get(struct cluster *c, const char *instance)
{
	struct cluster_host *h;

	if (!fits(instance, CLUSTER_INSTANCE_LEN) || !instance[0])
		return NULL;
	h = host_find(c, instance);
	if (h)
		return h;
	if (index_grow(c, &c->host_index, c->nhosts, true))
		return NULL;
	if (c->nhosts == c->hosts_cap) {
		size_t ncap = c->hosts_cap ? c->hosts_cap * 2 : 64;
		struct cluster_host *nh = realloc(c->hosts, ncap * sizeof(*nh));

		if (!nh)
			return NULL;
		c->hosts = nh;
		c->hosts_cap = ncap;
	}
	h = &c->hosts[c->nhosts];
	memset(h, 0, sizeof(*h));
	snprintf(h->instance, sizeof(h->instance), "%s", instance);
	h->findings = -1;
	*index_slot(c, &c->host_index, host_eq, instance, NULL, NULL) = (uint32_t)++c->nhosts;
	return h;
}

const struct cluster_port *cluster_port_find(const struct cluster *c, const char *instance, const char *device,
					     const char *port)
{
	uint32_t *s;

	if (!c->port_index.slots || !instance || !device || !port)
		return NULL;
	s = index_slot(c, &c->port_index, port_eq, instance, device, port);
	return *s ? &c->ports[*s - 1] : NULL;
}

struct cluster_port *cluster_port_get(struct cluster *c, const char *instance, const char *device, const char *port)
{
	const struct cluster_port *found;
	struct cluster_host *h;
	struct cluster_port *p;

	if (!fits(device, CLUSTER_DEVICE_LEN) || !fits(port, CLUSTER_PORT_LEN) || !device[0] || !port[0])
		return NULL;
	found = cluster_port_find(c, instance, device, port);
	if (found)
		return &c->ports[found - c->ports];
	h = cluster_host_get(c, instance);
	if (!h || index_grow(c, &c->port_index, c->nports, false))
		return NULL;
	if (c->nports == c->ports_cap) {
		size_t ncap = c->ports_cap ? c->ports_cap * 2 : 64;
		struct cluster_port *np = realloc(c->ports, ncap * sizeof(*np));

		if (!np)
			return NULL;
		c->ports = np;
		c->ports_cap = ncap;
	}
	p = &c->ports[c->nports];
	memset(p, 0, sizeof(*p));
	snprintf(p->device, sizeof(p->device), "%s", device);
	snprintf(p->port, sizeof(p->port), "%s", port);
	p->host = (size_t)(h - c->hosts);
	p->state = PORT_STATE_UNKNOWN;
	p->rate_bytes_per_s = p->in_bits_per_s = p->out_bits_per_s = p->err_delta = NAN;
	*index_slot(c, &c->port_index, port_eq, instance, device, port) = (uint32_t)++c->nports;
	return p;
}
