/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDMA resources (QPs, cm_ids, CQs, MRs, PDs) as the kernel's resource tracker lists them, and who holds them. */
#ifndef FABTOP_MODEL_RES_H
#define FABTOP_MODEL_RES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Plain data, filled by the RDMA netlink parsers (kernel/rdma_nl_parse.h)
 * or by hand; arrays are malloc'd and released by res_state_free().
 * Enumerations keep the kernel's numbers (uapi rdma_netlink.h, ib_verbs.h,
 * rdma_cm.h); res_*_name() turn them into the words `rdma res` prints.
 */

#define RES_NAME_LEN	64	/* IB_DEVICE_NAME_MAX; kernel owner names are module names */
#define RES_COMM_LEN	64	/* comm is 16 with its NUL; kept roomy for a kernel owner */
#define RES_CGROUP_LEN	512
#define RES_ID_LEN	80	/* a container id, a pod uid, a job id */

/* Who holds a resource: a process (pid as this PID namespace sees it) or the kernel. */
struct res_holder {
	uint32_t pid;			/* 0: the kernel, or a task already gone */
	bool kern;			/* RDMA_NLDEV_ATTR_RES_KERN_NAME was given */
	char kern_name[RES_COMM_LEN];	/* "ib_ipoib", "rdma_cm", "svcrdma" (kern only) */
};

/* An IPv4/IPv6 address and port from a cm_id (sockaddr_storage on the wire). */
struct res_sockaddr {
	uint8_t family;			/* AF_INET, AF_INET6, AF_IB or 0 (none) */
	uint8_t addr[16];		/* network order: 4 bytes for AF_INET */
	uint16_t port;			/* host order */
};

struct res_qp {
	uint32_t dev_index;
	char dev[RES_NAME_LEN];
	uint32_t port;			/* 0: not bound to a port yet (RESET/INIT) */
	uint32_t lqpn;
	uint32_t rqpn;			/* has_rqpn: connected types (RC, UC) */
	uint32_t rq_psn, sq_psn;
	uint32_t pdn;
	uint8_t type;			/* enum ib_qp_type */
	uint8_t state;			/* enum ib_qp_state */
	uint8_t path_mig_state;		/* enum ib_mig_state */
	bool has_rqpn, has_rq_psn, has_sq_psn, has_pdn, has_path_mig;
	struct res_holder holder;
};

struct res_cm {
	uint32_t dev_index;
	char dev[RES_NAME_LEN];
	uint32_t port;			/* 0: not bound to a port */
	uint32_t lqpn;			/* has_qp: a QP is attached */
	uint32_t ps;			/* enum rdma_ucm_port_space: RDMA_PS_TCP, ... */
	uint32_t cm_idn;		/* has_idn */
	uint8_t qp_type;		/* enum ib_qp_type */
	uint8_t state;			/* enum rdma_cm_state */
	bool has_qp, has_idn;
	struct res_sockaddr src, dst;
	struct res_holder holder;
};

/* CQs, MRs and PDs are counted per holder, not kept one by one. */
enum res_obj_kind {
	RES_OBJ_CQ = 0,
	RES_OBJ_MR,
	RES_OBJ_PD,
	RES_OBJ_KINDS,
};

struct res_obj {
	uint32_t dev_index;
	char dev[RES_NAME_LEN];
	enum res_obj_kind kind;
	uint32_t id;			/* cqn, mrn, pdn (0 when not given) */
	struct res_holder holder;
};

/* What a cgroup path says a process belongs to (derive/cgroup.h). */
enum res_unit_kind {
	RES_UNIT_NONE = 0,		/* a plain service or session */
	RES_UNIT_DOCKER,
	RES_UNIT_PODMAN,
	RES_UNIT_CONTAINERD,
	RES_UNIT_CRIO,
	RES_UNIT_K8S_POD,		/* a container of a Kubernetes pod */
	RES_UNIT_SLURM_JOB,
	RES_UNIT_KINDS,
};

struct res_unit {
	enum res_unit_kind kind;
	char id[RES_ID_LEN];		/* container id (hex), or the job number */
	char pod[RES_ID_LEN];		/* K8S_POD: the pod's uid; SLURM_JOB: "uid_N" when known */
};

/* One holder (a process or a kernel consumer) with what it holds and who it is. */
struct res_proc {
	struct res_holder holder;
	char comm[RES_COMM_LEN];	/* /proc/PID/comm; the kernel owner's name when kern */
	bool seen;			/* /proc/PID was readable */
	bool has_uid;
	uint32_t uid;
	char user[RES_COMM_LEN];	/* the uid's name, "" when it has none */
	char cgroup[RES_CGROUP_LEN];	/* the unified (v2) path, else the first v1 line's */
	struct res_unit unit;
	uint32_t tgid;			/* the process of a thread holder (Tgid), 0 when unknown */
	uint32_t ns_pid;		/* the pid inside its own PID namespace (NSpid's last) */
	bool other_pidns;		/* it runs in a PID namespace below ours */
	size_t nqp, ncm, nobj[RES_OBJ_KINDS];
};

/*
 * Everything one look gave. A dump the kernel refused (no RDMA netlink,
 * no permission) leaves its part empty with the reason in err/why.
 */
struct res_state {
	struct res_qp *qps;
	size_t nqps;
	struct res_cm *cms;
	size_t ncms;
	struct res_obj *objs;
	size_t nobjs;
	struct res_proc *procs;		/* res_procs_build() */
	size_t nprocs;
	size_t ndevs;			/* devices the kernel listed */
	int err;			/* 0 or -errno of the first dump that failed */
	char why[160];			/* err for people, with what was left out */
	bool restricted;		/* read without CAP_NET_ADMIN: see doc/show.md */
	unsigned int bad;		/* malformed messages skipped */
};

void res_state_free(struct res_state *rs);

/* The kernel's enumerations as `rdma res` spells them; "UNKNOWN" outside the tables. */
const char *res_qp_type_name(uint8_t type);
const char *res_qp_state_name(uint8_t state);
const char *res_path_mig_name(uint8_t st);
const char *res_cm_state_name(uint8_t state);
const char *res_ps_name(uint32_t ps);
const char *res_obj_kind_name(enum res_obj_kind k);
const char *res_unit_kind_name(enum res_unit_kind k);

/* The address without its port ("10.9.0.1", "fe80::1"); "" for none. */
void res_sockaddr_str(const struct res_sockaddr *sa, char *buf, size_t size);

/* Same holder: the same pid, or the same kernel owner. */
bool res_holder_eq(const struct res_holder *a, const struct res_holder *b);

/*
 * Group qps, cms and objs by holder into rs->procs (counts filled, the
 * rest zero: kernel/proc_attr.h fills who they are). Kernel holders sort
 * after processes, processes by pid. 0 or -ENOMEM.
 */
int res_procs_build(struct res_state *rs);

/* The holder's entry in rs->procs, NULL when none. */
const struct res_proc *res_proc_of(const struct res_state *rs, const struct res_holder *h);

/* A short name for what a process runs in: "docker 3f2a1b4c5d6e", "slurm job 42", "" when none. */
void res_unit_str(const struct res_unit *u, char *buf, size_t size);

#endif
