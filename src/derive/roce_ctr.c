// SPDX-License-Identifier: GPL-2.0-or-later
/* The RDMA side of congestion control: hw_counters names of mlx5, bnxt_re and irdma by role. */
#include "config.h"

#include <string.h>

#include "derive/roce_ctr.h"
#include "model/roce.h"
#include "util.h"

_Static_assert(ROCE_CC_ROLES == ROCE_CC_NROLES, "model/roce.h sizes the roles");

static const struct {
	const char *name;
	enum roce_cc_role role;
} cc_names[] = {
	/* mlx5: drivers/infiniband/hw/mlx5/counters.c, cong_cnts[], basic_q_cnts[],
	 * out_of_seq_q_cnts[], retrans_q_cnts[]. */
	{ "np_cnp_sent", ROCE_CC_CNP_SENT },
	{ "np_ecn_marked_roce_packets", ROCE_CC_ECN_MARKED },
	{ "rp_cnp_handled", ROCE_CC_CNP_HANDLED },
	{ "rp_cnp_ignored", ROCE_CC_CNP_IGNORED },
	{ "out_of_buffer", ROCE_CC_OUT_OF_BUFFER },
	{ "out_of_sequence", ROCE_CC_OUT_OF_SEQUENCE },
	{ "packet_seq_err", ROCE_CC_PACKET_SEQ_ERR },
	/* bnxt_re: drivers/infiniband/hw/bnxt_re/hw_counters.c, bnxt_re_stat_descs[]
	 * (older kernels: tx_cnp_pkts, rx_cnp_pkts, rx_ecn_marked_pkts,
	 * rx_out_of_buffer, oos_drop_count, seq_err_naks_rcvd; later ones took
	 * mlx5's names and np_cnp_pkts). */
	{ "np_cnp_pkts", ROCE_CC_CNP_SENT },
	{ "tx_cnp_pkts", ROCE_CC_CNP_SENT },
	{ "rx_ecn_marked_pkts", ROCE_CC_ECN_MARKED },
	{ "rx_cnp_pkts", ROCE_CC_CNP_HANDLED },
	{ "rx_out_of_buffer", ROCE_CC_OUT_OF_BUFFER },
	{ "oos_drop_count", ROCE_CC_OUT_OF_SEQUENCE },
	{ "seq_err_naks_rcvd", ROCE_CC_PACKET_SEQ_ERR },
	/* irdma: drivers/infiniband/hw/irdma/verbs.c, irdma_hw_stat_names[]. */
	{ "cnpSent", ROCE_CC_CNP_SENT },
	{ "RxECNMrkd", ROCE_CC_ECN_MARKED },
	{ "cnpHandled", ROCE_CC_CNP_HANDLED },
	{ "cnpIgnored", ROCE_CC_CNP_IGNORED },
};

static const char *const role_keys[ROCE_CC_NROLES] = {
	[ROCE_CC_CNP_SENT] = "cnp_sent",
	[ROCE_CC_ECN_MARKED] = "ecn_marked",
	[ROCE_CC_CNP_HANDLED] = "cnp_handled",
	[ROCE_CC_CNP_IGNORED] = "cnp_ignored",
	[ROCE_CC_OUT_OF_BUFFER] = "out_of_buffer",
	[ROCE_CC_OUT_OF_SEQUENCE] = "out_of_sequence",
	[ROCE_CC_PACKET_SEQ_ERR] = "packet_seq_err",
};

int roce_cc_role_of(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(cc_names); i++)
		if (!strcmp(cc_names[i].name, name))
			return (int)cc_names[i].role;
	return -1;
}

const char *roce_cc_role_key(enum roce_cc_role r)
{
	return (unsigned int)r < ROCE_CC_NROLES ? role_keys[r] : "unknown";
}

const struct fab_counter *roce_cc_counter(const struct fab_port *p, enum roce_cc_role r)
{
	for (size_t i = 0; i < p->ncounters; i++) {
		const struct fab_counter *c = &p->counters[i];

		if (fab_counter_source_is_hw(c->source) || c->source == COUNTER_SRC_DEMO)
			if (roce_cc_role_of(c->name) == (int)r)
				return c;
	}
	return NULL;
}
