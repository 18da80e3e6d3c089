// SPDX-License-Identifier: GPL-2.0-or-later
/* What a decoded record holds in memory (see cost.h and doc/recording.md). */
#include "config.h"

#include "record/cost.h"

size_t rec_cost_host(const struct fab_host *h)
{
	size_t b = sizeof(*h) + h->ndevs * sizeof(*h->devs);

	for (size_t i = 0; i < h->ndevs; i++) {
		const struct fab_device *d = &h->devs[i];

		b += d->nports * sizeof(*d->ports);
		for (size_t j = 0; j < d->nports; j++)
			b += d->ports[j].ncounters * sizeof(*d->ports[j].counters) +
			     d->ports[j].ngids * sizeof(*d->ports[j].gids);
	}
	return b;
}

size_t rec_cost_net(const struct net_state *st)
{
	return sizeof(*st) + st->nlinks * sizeof(*st->links) + st->naddrs * sizeof(*st->addrs) +
	       st->nroutes * sizeof(*st->routes) + st->nrules * sizeof(*st->rules) +
	       st->nneighs * sizeof(*st->neighs) + st->nsysctls * sizeof(*st->sysctls);
}

size_t rec_cost_mad(const struct rec_mad *m)
{
	return sizeof(*m) + m->nports * (sizeof(*m->ports) + sizeof(*m->changed));
}

size_t rec_cost_subnet(const struct rec_subnet *s)
{
	return sizeof(*s) + ib_fabric_mem_bytes(&s->f) + s->nlost * sizeof(*s->lost);
}

size_t rec_cost_roce(const struct roce_state *st)
{
	return sizeof(*st) + st->nports * sizeof(*st->ports);
}
