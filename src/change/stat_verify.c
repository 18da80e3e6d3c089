// SPDX-License-Identifier: GPL-2.0-or-later
/* Whether the kernel binds a new QP to a counter in auto mode: one QP of our own, created, looked for, destroyed. */
#include "config.h"

#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <string.h>

#include "kernel/rdma_stat.h"
#include "change/stat_verify.h"
#include "model/stat.h"

/*
 * A driver without QP counter support (rxe, siw: no counter_alloc_stats
 * op) still accepts auto mode, and then silently binds nothing: the only
 * way to know is to create a QP after turning it on and look.
 */
int stat_verify_qp_auto(const char *dev, unsigned int port, bool *bound)
{
	struct ibv_device **list;
	struct ibv_context *vctx = NULL;
	struct ibv_pd *pd = NULL;
	struct ibv_cq *cq = NULL;
	struct ibv_qp *qp = NULL;
	struct stat_state st = { 0 };
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr qa;
	int n, rc = -ENODEV;

	*bound = false;
	list = ibv_get_device_list(&n);
	if (!list)
		return -errno ? -errno : -ENODEV;
	for (int i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev)) {
			vctx = ibv_open_device(list[i]);
			break;
		}
	ibv_free_device_list(list);
	if (!vctx)
		return rc;
	rc = -ENOMEM;
	pd = ibv_alloc_pd(vctx);
	cq = pd ? ibv_create_cq(vctx, 1, NULL, NULL, 0) : NULL;
	if (!cq)
		goto out;
	memset(&ia, 0, sizeof(ia));
	ia.send_cq = ia.recv_cq = cq;
	ia.qp_type = IBV_QPT_RC;
	ia.cap.max_send_wr = ia.cap.max_recv_wr = 1;
	ia.cap.max_send_sge = ia.cap.max_recv_sge = 1;
	qp = ibv_create_qp(pd, &ia);
	if (!qp)
		goto out;
	memset(&qa, 0, sizeof(qa));
	qa.qp_state = IBV_QPS_INIT;
	qa.port_num = (uint8_t)port;
	qa.pkey_index = 0;
	qa.qp_access_flags = 0;
	rc = -ibv_modify_qp(qp, &qa, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (rc)
		goto out;
	{
		struct fab_device d = { 0 };
		struct fab_port p = { .num = port };
		struct fab_host h = { .devs = &d, .ndevs = 1 };

		snprintf(d.name, sizeof(d.name), "%s", dev);
		d.ports = &p;
		d.nports = 1;
		rc = rdma_stat_collect_qp(&h, &st);
		if (!rc && st.err)
			rc = st.err;
	}
	for (size_t i = 0; !rc && i < st.nqpc; i++)
		for (size_t j = 0; st.qpc[i].port == port && j < st.qpc[i].nqpns; j++)
			if (st.qpc[i].qpns[j] == qp->qp_num)
				*bound = true;
	stat_state_free(&st);
out:
	if (qp)
		ibv_destroy_qp(qp);
	if (cq)
		ibv_destroy_cq(cq);
	if (pd)
		ibv_dealloc_pd(pd);
	ibv_close_device(vctx);
	return rc;
}
