// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMA resources: names of the kernel's enumerations, grouping by holder, freeing. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "model/res.h"
#include "util.h"

void res_state_free(struct res_state *rs)
{
	free(rs->qps);
	free(rs->cms);
	free(rs->objs);
	free(rs->procs);
	memset(rs, 0, sizeof(*rs));
}

/* enum ib_qp_type (include/rdma/ib_verbs.h); IB_QPT_DRIVER is 0xFF. */
static const char *const qp_types[] = {
	[0] = "SMI", [1] = "GSI", [2] = "RC", [3] = "UC", [4] = "UD",
	[5] = "RAW_IPV6", [6] = "RAW_ETHERTYPE", [8] = "RAW_PACKET",
	[9] = "XRC_INI", [10] = "XRC_TGT", [0xFF] = "DRIVER",
};

/* enum ib_qp_state */
static const char *const qp_states[] = {
	"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR",
};

/* enum ib_mig_state */
static const char *const path_mig_states[] = { "MIGRATED", "REARM", "ARMED" };

/* enum rdma_cm_state (drivers/infiniband/core/cma_priv.h) */
static const char *const cm_states[] = {
	"IDLE", "ADDR_QUERY", "ADDR_RESOLVED", "ROUTE_QUERY", "ROUTE_RESOLVED",
	"CONNECT", "DISCONNECT", "ADDR_BOUND", "LISTEN", "DEVICE_REMOVAL", "DESTROYING",
};

static const char *const obj_kinds[] = {
	[RES_OBJ_CQ] = "cq", [RES_OBJ_MR] = "mr", [RES_OBJ_PD] = "pd",
};

static const char *const unit_kinds[] = {
	[RES_UNIT_NONE] = "", [RES_UNIT_DOCKER] = "docker", [RES_UNIT_PODMAN] = "podman",
	[RES_UNIT_CONTAINERD] = "containerd", [RES_UNIT_CRIO] = "cri-o",
	[RES_UNIT_K8S_POD] = "pod", [RES_UNIT_SLURM_JOB] = "slurm",
};

const char *res_qp_type_name(uint8_t type)
{
	return util_name(qp_types, ARRAY_SIZE(qp_types), type, "UNKNOWN");
}

const char *res_qp_state_name(uint8_t state)
{
	return util_name(qp_states, ARRAY_SIZE(qp_states), state, "UNKNOWN");
}

const char *res_path_mig_name(uint8_t st)
{
	return util_name(path_mig_states, ARRAY_SIZE(path_mig_states), st, "UNKNOWN");
}

const char *res_cm_state_name(uint8_t state)
{
	return util_name(cm_states, ARRAY_SIZE(cm_states), state, "UNKNOWN");
}

/* enum rdma_ucm_port_space (include/uapi/rdma/rdma_user_cm.h): sparse, so a list. */
const char *res_ps_name(uint32_t ps)
{
	static const struct { uint32_t ps; const char *name; } tbl[] = {
		{ 0x0002, "IPOIB" }, { 0x0106, "TCP" }, { 0x0111, "UDP" }, { 0x013F, "IB" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(tbl); i++)
		if (tbl[i].ps == ps)
			return tbl[i].name;
	return "UNKNOWN";
}

const char *res_obj_kind_name(enum res_obj_kind k)
{
	return util_name(obj_kinds, ARRAY_SIZE(obj_kinds), k, "?");
}

const char *res_unit_kind_name(enum res_unit_kind k)
{
	return util_name(unit_kinds, ARRAY_SIZE(unit_kinds), k, "");
}

void res_sockaddr_str(const struct res_sockaddr *sa, char *buf, size_t size)
{
	if (!size)
		return;
	buf[0] = '\0';
	if (sa->family == AF_INET || sa->family == AF_INET6)
		inet_ntop(sa->family, sa->addr, buf, (socklen_t)size);
}

bool res_holder_eq(const struct res_holder *a, const struct res_holder *b)
{
	if (a->kern != b->kern)
		return false;
	if (a->kern)
		return !strcmp(a->kern_name, b->kern_name);
	return a->pid == b->pid;
}

static int holder_cmp(const struct res_holder *a, const struct res_holder *b)
{
	if (a->kern != b->kern)
		return a->kern ? 1 : -1;
	if (a->kern)
		return strcmp(a->kern_name, b->kern_name);
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static int proc_cmp(const void *a, const void *b)
{
	return holder_cmp(&((const struct res_proc *)a)->holder, &((const struct res_proc *)b)->holder);
}

const struct res_proc *res_proc_of(const struct res_state *rs, const struct res_holder *h)
{
	for (size_t i = 0; i < rs->nprocs; i++)
		if (res_holder_eq(&rs->procs[i].holder, h))
			return &rs->procs[i];
	return NULL;
}

/* The holder's entry, appended when new (procs has room for every resource). */
static struct res_proc *proc_slot(struct res_state *rs, const struct res_holder *h)
{
	struct res_proc *p = (struct res_proc *)res_proc_of(rs, h);

	if (p)
		return p;
	p = &rs->procs[rs->nprocs++];
	memset(p, 0, sizeof(*p));
	p->holder = *h;
	if (h->kern)
		snprintf(p->comm, sizeof(p->comm), "%s", h->kern_name);
	return p;
}

int res_procs_build(struct res_state *rs)
{
	size_t most = rs->nqps + rs->ncms + rs->nobjs;

	free(rs->procs);
	rs->procs = NULL;
	rs->nprocs = 0;
	if (!most)
		return 0;
	rs->procs = calloc(most, sizeof(*rs->procs));
	if (!rs->procs)
		return -ENOMEM;
	for (size_t i = 0; i < rs->nqps; i++)
		proc_slot(rs, &rs->qps[i].holder)->nqp++;
	for (size_t i = 0; i < rs->ncms; i++)
		proc_slot(rs, &rs->cms[i].holder)->ncm++;
	for (size_t i = 0; i < rs->nobjs; i++)
		proc_slot(rs, &rs->objs[i].holder)->nobj[rs->objs[i].kind]++;
	qsort(rs->procs, rs->nprocs, sizeof(*rs->procs), proc_cmp);
	return 0;
}

void res_unit_str(const struct res_unit *u, char *buf, size_t size)
{
	switch (u->kind) {
	case RES_UNIT_NONE:
		snprintf(buf, size, "%s", "");
		break;
	case RES_UNIT_SLURM_JOB:
		snprintf(buf, size, "slurm job %s", u->id);
		break;
	case RES_UNIT_K8S_POD:
		/* The pod says more than the container in it: its uid's first group. */
		snprintf(buf, size, "pod %.8s", u->pod);
		break;
	default:
		/* Docker's own short form: the first 12 hex digits. */
		snprintf(buf, size, "%s %.12s", res_unit_kind_name(u->kind), u->id);
		break;
	}
}
