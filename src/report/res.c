// SPDX-License-Identifier: GPL-2.0-or-later
/* Text and JSON forms of the RDMA resources report: QPs, cm_ids, and the processes holding them. */
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

static void u32_or_dash(bool has, uint32_t v, char *buf, size_t size)
{
	if (has)
		snprintf(buf, size, "%u", v);
	else
		snprintf(buf, size, "-");
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

static void qps_text(FILE *f, const struct res_state *rs)
{
	fprintf(f, "QPs: %zu\n", rs->nqps);
	if (!rs->nqps)
		return;
	fprintf(f, "  %-10s %4s %8s %-5s %-5s %8s %10s %10s %7s  %s\n",
		"DEV", "PORT", "LQPN", "TYPE", "STATE", "RQPN", "SQ-PSN", "RQ-PSN", "PID", "HOLDER");
	for (size_t i = 0; i < rs->nqps; i++) {
		const struct res_qp *q = &rs->qps[i];
		char port[12], rqpn[12], sq[12], rq[12], pid[12], who[RES_COMM_LEN + 4];

		u32_or_dash(q->port != 0, q->port, port, sizeof(port));
		u32_or_dash(q->has_rqpn, q->rqpn, rqpn, sizeof(rqpn));
		u32_or_dash(q->has_sq_psn, q->sq_psn, sq, sizeof(sq));
		u32_or_dash(q->has_rq_psn, q->rq_psn, rq, sizeof(rq));
		pid_str(&q->holder, pid, sizeof(pid));
		res_holder_str(rs, &q->holder, who, sizeof(who));
		fprintf(f, "  %-10s %4s %8u %-5s %-5s %8s %10s %10s %7s  %s\n", q->dev, port, q->lqpn,
			res_qp_type_name(q->type), res_qp_state_name(q->state), rqpn, sq, rq, pid, who);
	}
}

static void cms_text(FILE *f, const struct res_state *rs)
{
	fprintf(f, "cm_ids: %zu\n", rs->ncms);
	if (!rs->ncms)
		return;
	fprintf(f, "  %-10s %4s %-14s %-5s %-22s %-22s %8s %7s  %s\n",
		"DEV", "PORT", "STATE", "PS", "SOURCE", "DESTINATION", "LQPN", "PID", "HOLDER");
	for (size_t i = 0; i < rs->ncms; i++) {
		const struct res_cm *c = &rs->cms[i];
		char port[12], src[80], dst[80], qpn[12], pid[12], who[RES_COMM_LEN + 4];

		u32_or_dash(c->port != 0, c->port, port, sizeof(port));
		addr_port(&c->src, src, sizeof(src));
		addr_port(&c->dst, dst, sizeof(dst));
		u32_or_dash(c->has_qp, c->lqpn, qpn, sizeof(qpn));
		pid_str(&c->holder, pid, sizeof(pid));
		res_holder_str(rs, &c->holder, who, sizeof(who));
		fprintf(f, "  %-10s %4s %-14s %-5s %-22s %-22s %8s %7s  %s\n", c->dev[0] ? c->dev : "-", port,
			res_cm_state_name(c->state), res_ps_name(c->ps), src, dst, qpn, pid, who);
	}
}

static void procs_text(FILE *f, const struct res_state *rs)
{
	fprintf(f, "Holders: %zu\n", rs->nprocs);
	if (!rs->nprocs)
		return;
	fprintf(f, "  %11s %-10s %-16s %4s %4s %4s %4s %4s  %-24s %s\n",
		"PID", "USER", "COMMAND", "QP", "CM", "CQ", "MR", "PD", "RUNS IN", "CGROUP");
	for (size_t i = 0; i < rs->nprocs; i++) {
		const struct res_proc *p = &rs->procs[i];
		char pid[24], user[RES_COMM_LEN], who[RES_COMM_LEN + 4], unit[RES_ID_LEN + 16];

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
		res_unit_str(&p->unit, unit, sizeof(unit));
		fprintf(f, "  %11s %-10s %-16s %4zu %4zu %4zu %4zu %4zu  %-24s %s\n", pid, user, who, p->nqp, p->ncm,
			p->nobj[RES_OBJ_CQ], p->nobj[RES_OBJ_MR], p->nobj[RES_OBJ_PD], unit[0] ? unit : "-",
			p->holder.kern ? "-" : p->cgroup[0] ? p->cgroup : p->seen ? "-" : "(not visible in /proc)");
	}
	for (size_t i = 0; i < rs->nprocs; i++)
		if (rs->procs[i].tgid && rs->procs[i].tgid != rs->procs[i].holder.pid) {
			fprintf(f, "  PID/TID: the resources were made by thread TID of process PID.\n");
			break;
		}
	for (size_t i = 0; i < rs->nprocs; i++)
		if (rs->procs[i].other_pidns) {
			fprintf(f, "  PID(N): N is the pid inside the process's own PID namespace (a container's view).\n");
			break;
		}
}

void res_report_text(FILE *f, const struct res_state *rs, enum res_part part)
{
	if (rs->err)
		fprintf(f, "Incomplete: %s\n", rs->why);
	if (rs->restricted)
		fprintf(f, "Note: read without CAP_NET_ADMIN: the kernel lists only what this user may see "
			"(see 'fabtop show res' in doc/show.md).\n");
	if (rs->bad)
		fprintf(f, "Note: %u malformed RDMA netlink entr%s skipped.\n", rs->bad, rs->bad == 1 ? "y" : "ies");
	if (!rs->ndevs && !rs->err) {
		fprintf(f, "No RDMA devices: the kernel's resource tracker lists nothing.\n");
		return;
	}
	if (part == RES_PART_ALL || part == RES_PART_QP)
		qps_text(f, rs);
	if (part == RES_PART_ALL || part == RES_PART_CM)
		cms_text(f, rs);
	if (part == RES_PART_ALL || part == RES_PART_PROC)
		procs_text(f, rs);
}

static void holder_json(struct json *j, const struct res_state *rs, const struct res_holder *h)
{
	const struct res_proc *p = res_proc_of(rs, h);

	json_key(j, "pid");
	if (h->kern || !h->pid)
		json_null(j);
	else
		json_u64(j, h->pid);
	json_key(j, "kern"); json_bool(j, h->kern);
	json_key(j, "comm");
	if (h->kern)
		json_str(j, h->kern_name);
	else
		json_str_or_null(j, p ? p->comm : NULL);
}

static void opt_u32_json(struct json *j, const char *key, bool has, uint32_t v)
{
	json_key(j, key);
	if (has)
		json_u64(j, v);
	else
		json_null(j);
}

static void qps_json(struct json *j, const struct res_state *rs)
{
	json_key(j, "qps");
	json_arr_begin(j);
	for (size_t i = 0; i < rs->nqps; i++) {
		const struct res_qp *q = &rs->qps[i];

		json_obj_begin(j);
		json_key(j, "dev"); json_str(j, q->dev);
		json_key(j, "dev_index"); json_u64(j, q->dev_index);
		opt_u32_json(j, "port", q->port != 0, q->port);
		json_key(j, "lqpn"); json_u64(j, q->lqpn);
		opt_u32_json(j, "rqpn", q->has_rqpn, q->rqpn);
		json_key(j, "type"); json_str(j, res_qp_type_name(q->type));
		json_key(j, "state"); json_str(j, res_qp_state_name(q->state));
		opt_u32_json(j, "sq_psn", q->has_sq_psn, q->sq_psn);
		opt_u32_json(j, "rq_psn", q->has_rq_psn, q->rq_psn);
		json_key(j, "path_mig_state");
		json_str_or_null(j, q->has_path_mig ? res_path_mig_name(q->path_mig_state) : NULL);
		opt_u32_json(j, "pdn", q->has_pdn, q->pdn);
		holder_json(j, rs, &q->holder);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void sockaddr_json(struct json *j, const char *akey, const char *pkey, const struct res_sockaddr *sa)
{
	char a[64];

	res_sockaddr_str(sa, a, sizeof(a));
	json_key(j, akey); json_str_or_null(j, a);
	opt_u32_json(j, pkey, a[0] != '\0', sa->port);
}

static void cms_json(struct json *j, const struct res_state *rs)
{
	json_key(j, "cm_ids");
	json_arr_begin(j);
	for (size_t i = 0; i < rs->ncms; i++) {
		const struct res_cm *c = &rs->cms[i];

		json_obj_begin(j);
		json_key(j, "dev"); json_str_or_null(j, c->dev);
		json_key(j, "dev_index"); json_u64(j, c->dev_index);
		opt_u32_json(j, "port", c->port != 0, c->port);
		json_key(j, "state"); json_str(j, res_cm_state_name(c->state));
		json_key(j, "ps"); json_str(j, res_ps_name(c->ps));
		json_key(j, "qp_type"); json_str(j, res_qp_type_name(c->qp_type));
		opt_u32_json(j, "lqpn", c->has_qp, c->lqpn);
		opt_u32_json(j, "cm_idn", c->has_idn, c->cm_idn);
		sockaddr_json(j, "src_addr", "src_port", &c->src);
		sockaddr_json(j, "dst_addr", "dst_port", &c->dst);
		holder_json(j, rs, &c->holder);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void procs_json(struct json *j, const struct res_state *rs)
{
	json_key(j, "procs");
	json_arr_begin(j);
	for (size_t i = 0; i < rs->nprocs; i++) {
		const struct res_proc *p = &rs->procs[i];

		json_obj_begin(j);
		holder_json(j, rs, &p->holder);
		opt_u32_json(j, "tgid", p->tgid != 0, p->tgid);
		json_key(j, "fabtop_probe"); json_bool(j, res_proc_is_probe(p));
		json_key(j, "visible"); json_bool(j, p->holder.kern || p->seen);
		opt_u32_json(j, "uid", p->has_uid, p->uid);
		json_key(j, "user"); json_str_or_null(j, p->user);
		json_key(j, "cgroup"); json_str_or_null(j, p->cgroup);
		json_key(j, "unit");
		if (p->unit.kind == RES_UNIT_NONE) {
			json_null(j);
		} else {
			json_obj_begin(j);
			json_key(j, "kind"); json_str(j, res_unit_kind_name(p->unit.kind));
			json_key(j, "id"); json_str_or_null(j, p->unit.id);
			json_key(j, p->unit.kind == RES_UNIT_SLURM_JOB ? "user" : "pod");
			json_str_or_null(j, p->unit.pod);
			json_obj_end(j);
		}
		json_key(j, "other_pidns"); json_bool(j, p->other_pidns);
		opt_u32_json(j, "ns_pid", p->ns_pid != 0, p->ns_pid);
		json_key(j, "qps"); json_u64(j, p->nqp);
		json_key(j, "cm_ids"); json_u64(j, p->ncm);
		json_key(j, "cqs"); json_u64(j, p->nobj[RES_OBJ_CQ]);
		json_key(j, "mrs"); json_u64(j, p->nobj[RES_OBJ_MR]);
		json_key(j, "pds"); json_u64(j, p->nobj[RES_OBJ_PD]);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void res_report_json(struct json *j, const struct res_state *rs, enum res_part part)
{
	json_key(j, "res");
	json_obj_begin(j);
	json_key(j, "devices"); json_u64(j, rs->ndevs);
	json_key(j, "restricted"); json_bool(j, rs->restricted);
	json_key(j, "error"); json_str_or_null(j, rs->err ? rs->why : NULL);
	json_key(j, "malformed"); json_u64(j, rs->bad);
	if (part == RES_PART_ALL || part == RES_PART_QP)
		qps_json(j, rs);
	if (part == RES_PART_ALL || part == RES_PART_CM)
		cms_json(j, rs);
	if (part == RES_PART_ALL || part == RES_PART_PROC)
		procs_json(j, rs);
	json_obj_end(j);
}
