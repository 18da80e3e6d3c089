// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: Prometheus /api/v1/query answers through the parser and into the cluster model. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "remote/prom.h"
#include "remote/prom_cluster.h"
#include "model/cluster.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prom_vector v;
	struct cluster c;
	char err[PROM_ERR_LEN];

	/* Whatever the answer, parsing gives samples or a reason, and every family merges it. */
	if (prom_parse((const char *)data, size, &v, err, sizeof(err)) == PROM_OK) {
		cluster_init(&c);
		for (int f = 0; f < PROM_CLUSTER_NFAMILIES; f++)
			prom_cluster_merge(&c, (enum prom_cluster_family)f, &v);
		prom_cluster_finish(&c);
		for (size_t i = 0; i < c.nports; i++)
			(void)cluster_port_find(&c, cluster_port_instance(&c, &c.ports[i]), c.ports[i].device,
						c.ports[i].port);
		cluster_free(&c);
	}
	prom_vector_free(&v);
	return 0;
}
