// SPDX-License-Identifier: GPL-2.0-or-later
/* export --fabric while the first sweep runs: what it found so far is served, marked partial, fabtop_fabric_up 0. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/ibfabric.h"
#include "report/openmetrics.h"
#include "../unit/tap.h"

/* A switch and a CA cabled port 1 to port 1, as a sweep leaves them (no counters). */
static void two_nodes(struct ib_fabric *f, struct ib_fnode *n, struct ib_fport ports[2][2], struct ib_link *l)
{
	memset(f, 0, sizeof(*f));
	memset(n, 0, 2 * sizeof(*n));
	memset(ports, 0, 2 * sizeof(ports[0]));
	for (int i = 0; i < 2; i++) {
		n[i].id = (struct ib_node_id){ .node_guid = 0x10 + (uint64_t)i, .node_type = i ? 1 : 2, .num_ports = 1 };
		snprintf(n[i].id.desc, sizeof(n[i].id.desc), "%s", i ? "h0 mlx5_0" : "leaf0");
		n[i].lid = (uint16_t)(1 + i);
		n[i].ports = ports[i];
		ports[i][1] = (struct ib_fport){ .known = true, .linked = true, .peer = (size_t)!i, .peer_port = 1 };
		ports[i][1].pi = (struct ib_port_id){ .num = 1, .lid = n[i].lid, .state = 4, .phys_state = PHYS_STATE_LINK_UP,
						      .width = 2, .speed = 4 };
	}
	*l = (struct ib_link){ .a = 0, .b = 1, .a_port = 1, .b_port = 1 };
	f->nodes = n;
	f->nnodes = 2;
	f->links = l;
	f->nlinks = 1;
}

static char *render(const struct ib_fabric *f, uint64_t sweeps)
{
	struct openmetrics_input in = { .fabric = f, .fabric_sweeps = sweeps };
	char *buf = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);

	openmetrics_write_fabric(o, OPENMETRICS_PROM_0_0_4, &in);
	fclose(o);
	return buf;
}

int main(void)
{
	struct ib_fabric f;
	struct ib_fnode n[2];
	struct ib_fport ports[2][2];
	struct ib_link l;
	char *s;

	two_nodes(&f, n, ports, &l);
	f.partial = true;
	s = render(&f, 0);
	ASSERT_CONTAINS(s, "fabtop_fabric_up 0\n", "partial: not up (no whole sweep yet)");
	ASSERT_CONTAINS(s, "fabtop_fabric_sweep_partial 1\n", "partial: said so");
	ASSERT_CONTAINS(s, "fabtop_fabric_nodes{type=\"CA\"} 1\n", "partial: the nodes found so far are served");
	ASSERT_CONTAINS(s, "fabtop_fabric_links 1\n", "partial: and the links");
	ASSERT_CONTAINS(s, "fabtop_fabric_port_up{node_guid=\"0x0000000000000011\"", "partial: and their ports");
	ASSERT_NOT_CONTAINS(s, "fabtop_fabric_port_count_total{", "partial: no counters yet");
	free(s);

	f.partial = false;
	s = render(&f, 0);
	ASSERT_CONTAINS(s, "fabtop_fabric_sweep_partial 0\n", "nothing shown yet: not partial");
	ASSERT_NOT_CONTAINS(s, "fabtop_fabric_nodes{", "nothing shown yet: no nodes");
	free(s);

	s = render(&f, 1);
	ASSERT_CONTAINS(s, "fabtop_fabric_up 1\n", "the whole sweep in its place: up");
	ASSERT_CONTAINS(s, "fabtop_fabric_sweep_partial 0\n", "... and not partial");
	ASSERT_CONTAINS(s, "fabtop_fabric_links 1\n", "... its links");
	free(s);
	return tap_done();
}
