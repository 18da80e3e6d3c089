// SPDX-License-Identifier: GPL-2.0-or-later
/* The RDMA resources report, text or JSON from one walk: QPs, cm_ids, and the processes holding them. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "report/res.h"
#include "util.h"

int res_part_parse(const char *word)
{
	static const char *const parts[] = {
		[RES_PART_QP] = "qp", [RES_PART_CM] = "cm", [RES_PART_PROC] = "proc",
	};

	for (size_t i = 1; i < ARRAY_SIZE(parts); i++)
		if (!strcmp(word, parts[i]))
			return (int)i;
	return -1;
}

/* Only the probe makes cm_ids in fabtop (the command or the monitor's Probe pane). */
bool res_proc_is_probe(const struct res_proc *p)
{
	return p && !p->holder.kern && p->seen && !strcmp(p->comm, "fabtop") && p->ncm > 0;
}

void res_holder_str(const struct res_state *rs, const struct res_holder *h, char *buf, size_t size)
{
	const struct res_proc *p = res_proc_of(rs, h);

	if (h->kern)
		snprintf(buf, size, "[%s]", h->kern_name);
	else if (!h->pid)
		snprintf(buf, size, "(gone)");
	else if (res_proc_is_probe(p))
		snprintf(buf, size, "fabtop probe");
	else if (p && p->comm[0])
		snprintf(buf, size, "%s", p->comm);
	else
		snprintf(buf, size, "?");
}

static void pid_str(const struct res_holder *h, char *buf, size_t size)
{
	if (h->kern || !h->pid)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%u", h->pid);
}

/* A number that may be absent: null in JSON, "-" in a text column of width w (leading space). */
static void opt_u32_out(struct out *o, enum out_to t, const char *key, bool has, uint32_t v, int w)
{
	if (has)
		out_uint(o, t, key, v, " %*u", w, v);
	else
		out_null(o, t, key, " %*s", w, "-");
}

static void addr_port(const struct res_sockaddr *sa, char *buf, size_t size)
{
	char a[64];

	res_sockaddr_str(sa, a, sizeof(a));
	if (!a[0])
		snprintf(buf, size, "-");
	else if (sa->family == 10)	/* AF_INET6: brackets keep the port apart */
		snprintf(buf, size, "[%s]:%u", a, sa->port);
	else
		snprintf(buf, size, "%s:%u", a, sa->port);
}

/* The holder: "pid", "kern", "comm" in JSON; with text, the PID and HOLDER columns that end a row. */
static void holder_out(struct out *o, enum out_to t, const struct res_state *rs, const struct res_holder *h)
{
	const struct res_proc *p = res_proc_of(rs, h);
	char pid[12], who[RES_COMM_LEN + 4];

	pid_str(h, pid, sizeof(pid));
	res_holder_str(rs, h, who, sizeof(who));
	if (h->kern || !h->pid)
		out_null(o, t, "pid", " %7s", pid);
	else
		out_uint(o, t, "pid", h->pid, " %7s", pid);
	out_bool(o, PRINT_JSON, "kern", h->kern, NULL);
	if (h->kern)
		out_str(o, t, "comm", h->kern_name, "  %s\n", who);
	else
		out_str_or_null(o, t, "comm", p ? p->comm : NULL, "  %s\n", who);
}

static void qp_out(struct out *o, const struct res_state *rs, const struct res_qp *q)
{
	const char *type = res_qp_type_name(q->type), *state = res_qp_state_name(q->state);

	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "dev", q->dev, "  %-10s", q->dev);
	out_uint(o, PRINT_JSON, "dev_index", q->dev_index, NULL);
	opt_u32_out(o, PRINT_ANY, "port", q->port != 0, q->port, 4);
	out_uint(o, PRINT_ANY, "lqpn", q->lqpn, " %8u", q->lqpn);
	opt_u32_out(o, PRINT_JSON, "rqpn", q->has_rqpn, q->rqpn, 8);
	out_str(o, PRINT_ANY, "type", type, " %-5s", type);
	out_str(o, PRINT_ANY, "state", state, " %-5s", state);
	opt_u32_out(o, PRINT_FP, NULL, q->has_rqpn, q->rqpn, 8);
	opt_u32_out(o, PRINT_ANY, "sq_psn", q->has_sq_psn, q->sq_psn, 10);
	opt_u32_out(o, PRINT_ANY, "rq_psn", q->has_rq_psn, q->rq_psn, 10);
	out_str_or_null(o, PRINT_JSON, "path_mig_state", q->has_path_mig ? res_path_mig_name(q->path_mig_state) : NULL,
			NULL);
	opt_u32_out(o, PRINT_JSON, "pdn", q->has_pdn, q->pdn, 0);
	holder_out(o, PRINT_ANY, rs, &q->holder);
	out_obj_close(o);
}

static void qps_out(struct out *o, const struct res_state *rs)
{
	out_printf(o, "QPs: %zu\n", rs->nqps);
	if (rs->nqps)
		out_printf(o, "  %-10s %4s %8s %-5s %-5s %8s %10s %10s %7s  %s\n",
			   "DEV", "PORT", "LQPN", "TYPE", "STATE", "RQPN", "SQ-PSN", "RQ-PSN", "PID", "HOLDER");
	out_arr_open(o, "qps");
	for (size_t i = 0; i < rs->nqps; i++)
		qp_out(o, rs, &rs->qps[i]);
	out_arr_close(o);
}

static void sockaddr_json(struct out *o, const char *akey, const char *pkey, const struct res_sockaddr *sa)
{
	char a[64];

	res_sockaddr_str(sa, a, sizeof(a));
	out_str_or_null(o, PRINT_JSON, akey, a, NULL);
	opt_u32_out(o, PRINT_JSON, pkey, a[0] != '\0', sa->port, 0);
}

static void cm_out(struct out *o, const struct res_state *rs, const struct res_cm *c)
{
	const char *state = res_cm_state_name(c->state), *ps = res_ps_name(c->ps);
	char src[80], dst[80];

	addr_port(&c->src, src, sizeof(src));
	addr_port(&c->dst, dst, sizeof(dst));
	out_obj_open(o, NULL);
	out_str_or_null(o, PRINT_ANY, "dev", c->dev, "  %-10s", c->dev[0] ? c->dev : "-");
	out_uint(o, PRINT_JSON, "dev_index", c->dev_index, NULL);
	opt_u32_out(o, PRINT_ANY, "port", c->port != 0, c->port, 4);
	out_str(o, PRINT_ANY, "state", state, " %-14s", state);
	out_str(o, PRINT_ANY, "ps", ps, " %-5s %-22s %-22s", ps, src, dst);
	out_str(o, PRINT_JSON, "qp_type", res_qp_type_name(c->qp_type), NULL);
	opt_u32_out(o, PRINT_ANY, "lqpn", c->has_qp, c->lqpn, 8);
	opt_u32_out(o, PRINT_JSON, "cm_idn", c->has_idn, c->cm_idn, 0);
	sockaddr_json(o, "src_addr", "src_port", &c->src);
	sockaddr_json(o, "dst_addr", "dst_port", &c->dst);
	holder_out(o, PRINT_ANY, rs, &c->holder);
	out_obj_close(o);
}

static void cms_out(struct out *o, const struct res_state *rs)
{
	out_printf(o, "cm_ids: %zu\n", rs->ncms);
	if (rs->ncms)
		out_printf(o, "  %-10s %4s %-14s %-5s %-22s %-22s %8s %7s  %s\n",
			   "DEV", "PORT", "STATE", "PS", "SOURCE", "DESTINATION", "LQPN", "PID", "HOLDER");
	out_arr_open(o, "cm_ids");
	for (size_t i = 0; i < rs->ncms; i++)
		cm_out(o, rs, &rs->cms[i]);
	out_arr_close(o);
}

/* Text: the PID, USER and COMMAND columns that open a holder's row. */
static void proc_who_text(struct out *o, const struct res_state *rs, const struct res_proc *p)
{
	char pid[24], user[RES_COMM_LEN], who[RES_COMM_LEN + 4];

	if (!out_text(o))
		return;
	/* The kernel names the thread that made the resource: the process is its Tgid. */
	if (p->tgid && p->tgid != p->holder.pid)
		snprintf(pid, sizeof(pid), "%u/%u", p->tgid, p->holder.pid);
	else
		pid_str(&p->holder, pid, sizeof(pid));
	if (p->other_pidns)
		snprintf(pid + strlen(pid), sizeof(pid) - strlen(pid), "(%u)", p->ns_pid);
	if (p->holder.kern)
		snprintf(user, sizeof(user), "kernel");
	else if (!p->has_uid)
		snprintf(user, sizeof(user), "?");
	else if (p->user[0])
		snprintf(user, sizeof(user), "%s", p->user);
	else
		snprintf(user, sizeof(user), "%u", p->uid);
	res_holder_str(rs, &p->holder, who, sizeof(who));
	out_printf(o, "  %11s %-10s %-16s", pid, user, who);
}

static void unit_json(struct out *o, const struct res_unit *u)
{
	if (u->kind == RES_UNIT_NONE) {
		out_null(o, PRINT_JSON, "unit", NULL);
		return;
	}
	out_obj_open(o, "unit");
	out_str(o, PRINT_JSON, "kind", res_unit_kind_name(u->kind), NULL);
	out_str_or_null(o, PRINT_JSON, "id", u->id, NULL);
	out_str_or_null(o, PRINT_JSON, u->kind == RES_UNIT_SLURM_JOB ? "user" : "pod", u->pod, NULL);
	out_obj_close(o);
}

static void proc_out(struct out *o, const struct res_state *rs, const struct res_proc *p)
{
	char unit[RES_ID_LEN + 16];

	res_unit_str(&p->unit, unit, sizeof(unit));
	out_obj_open(o, NULL);
	holder_out(o, PRINT_JSON, rs, &p->holder);
	opt_u32_out(o, PRINT_JSON, "tgid", p->tgid != 0, p->tgid, 0);
	out_bool(o, PRINT_JSON, "fabtop_probe", res_proc_is_probe(p), NULL);
	out_bool(o, PRINT_JSON, "visible", p->holder.kern || p->seen, NULL);
	opt_u32_out(o, PRINT_JSON, "uid", p->has_uid, p->uid, 0);
	out_str_or_null(o, PRINT_JSON, "user", p->user, NULL);
	out_str_or_null(o, PRINT_JSON, "cgroup", p->cgroup, NULL);
	unit_json(o, &p->unit);
	out_bool(o, PRINT_JSON, "other_pidns", p->other_pidns, NULL);
	opt_u32_out(o, PRINT_JSON, "ns_pid", p->ns_pid != 0, p->ns_pid, 0);
	proc_who_text(o, rs, p);
	out_uint(o, PRINT_ANY, "qps", p->nqp, " %4zu", p->nqp);
	out_uint(o, PRINT_ANY, "cm_ids", p->ncm, " %4zu", p->ncm);
	out_uint(o, PRINT_ANY, "cqs", p->nobj[RES_OBJ_CQ], " %4zu", p->nobj[RES_OBJ_CQ]);
	out_uint(o, PRINT_ANY, "mrs", p->nobj[RES_OBJ_MR], " %4zu", p->nobj[RES_OBJ_MR]);
	out_uint(o, PRINT_ANY, "pds", p->nobj[RES_OBJ_PD], " %4zu", p->nobj[RES_OBJ_PD]);
	out_printf(o, "  %-24s %s\n", unit[0] ? unit : "-",
		   p->holder.kern ? "-" : p->cgroup[0] ? p->cgroup : p->seen ? "-" : "(not visible in /proc)");
	out_obj_close(o);
}

static void procs_out(struct out *o, const struct res_state *rs)
{
	bool thread = false, ns = false;

	out_printf(o, "Holders: %zu\n", rs->nprocs);
	if (rs->nprocs)
		out_printf(o, "  %11s %-10s %-16s %4s %4s %4s %4s %4s  %-24s %s\n",
			   "PID", "USER", "COMMAND", "QP", "CM", "CQ", "MR", "PD", "RUNS IN", "CGROUP");
	out_arr_open(o, "procs");
	for (size_t i = 0; i < rs->nprocs; i++) {
		proc_out(o, rs, &rs->procs[i]);
		thread |= rs->procs[i].tgid && rs->procs[i].tgid != rs->procs[i].holder.pid;
		ns |= rs->procs[i].other_pidns;
	}
	out_arr_close(o);
	if (thread)
		out_printf(o, "  PID/TID: the resources were made by thread TID of process PID.\n");
	if (ns)
		out_printf(o, "  PID(N): N is the pid inside the process's own PID namespace (a container's view).\n");
}

void res_report(struct out *o, const struct res_state *rs, enum res_part part)
{
	out_obj_open(o, "res");
	out_uint(o, PRINT_JSON, "devices", rs->ndevs, NULL);
	if (rs->err)
		out_printf(o, "Incomplete: %s\n", rs->why);
	out_bool(o, PRINT_ANY, "restricted", rs->restricted, rs->restricted ?
		 "Note: read without CAP_NET_ADMIN: the kernel lists only what this user may see "
		 "(see 'fabtop show res' in doc/show.md).\n" : NULL);
	out_str_or_null(o, PRINT_JSON, "error", rs->err ? rs->why : NULL, NULL);
	out_uint(o, PRINT_ANY, "malformed", rs->bad, rs->bad ? "Note: %u malformed RDMA netlink entr%s skipped.\n" : NULL,
		 rs->bad, rs->bad == 1 ? "y" : "ies");
	/* JSON keeps its (empty) tables; text says why there are none */
	if (!rs->ndevs && !rs->err && !out_is_json(o)) {
		out_printf(o, "No RDMA devices: the kernel's resource tracker lists nothing.\n");
		return;
	}
	if (part == RES_PART_ALL || part == RES_PART_QP)
		qps_out(o, rs);
	if (part == RES_PART_ALL || part == RES_PART_CM)
		cms_out(o, rs);
	if (part == RES_PART_ALL || part == RES_PART_PROC)
		procs_out(o, rs);
	out_obj_close(o);
}
