// SPDX-License-Identifier: GPL-2.0-or-later
/* The QP counters, text or JSON: per port its mode, per counter its QPs (and holders) and values. */
#include "config.h"

#include <inttypes.h>
#include <rdma/rdma_netlink.h>
#include <string.h>

#include "report/stat.h"

const char stat_qp_caveat[] =
	"QPs created (or moved to INIT) before auto mode was turned on are not bound to a counter: "
	"their traffic is not in these counts";

static bool wanted(const char *d, unsigned int p, const char *dev, unsigned int port)
{
	return (!dev || !strcmp(d, dev)) && (!port || p == port);
}

/* The holder of QP lqpn of device dev in rs: its pid and command; false when not listed. */
static bool qp_holder(const struct res_state *rs, const char *dev, uint32_t lqpn, uint32_t *pid, const char **comm)
{
	for (size_t i = 0; rs && i < rs->nqps; i++) {
		const struct res_qp *q = &rs->qps[i];
		const struct res_proc *pr;

		if (q->lqpn != lqpn || strcmp(q->dev, dev))
			continue;
		*pid = q->holder.pid;
		pr = res_proc_of(rs, &q->holder);
		*comm = pr && pr->comm[0] ? pr->comm : q->holder.kern ? q->holder.kern_name : "";
		return true;
	}
	return false;
}

/* A port's binding mode and how many counters it has. */
static void mode_out(struct out *o, const struct stat_state *st, const struct stat_port_mode *m)
{
	bool by_type = m->mode == RDMA_COUNTER_MODE_AUTO && (m->mask & RDMA_COUNTER_MASK_QP_TYPE);
	const char *mode = stat_mode_name(m->mode);
	size_t n = 0;

	for (size_t k = 0; k < st->nqpc; k++)
		n += !strcmp(st->qpc[k].dev, m->dev) && st->qpc[k].port == m->port;
	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "device", m->dev, "%s/", m->dev);
	out_uint(o, PRINT_ANY, "port", m->port, "%u: ", m->port);
	out_str(o, PRINT_ANY, "mode", mode, "QP counter mode %s", mode);
	out_bool(o, PRINT_JSON, "auto_by_qp_type", by_type, NULL);
	if (m->mode == RDMA_COUNTER_MODE_AUTO && m->has_mask)
		out_printf(o, " (by%s%s)", m->mask & RDMA_COUNTER_MASK_QP_TYPE ? " QP type" : "",
			   m->mask & RDMA_COUNTER_MASK_PID ? " pid" : "");
	out_printf(o, ", %zu counter%s\n", n, n == 1 ? "" : "s");
	out_obj_close(o);
}

/* A QP bound to a counter, and its holder when the resource tracker names it. */
static void qp_out(struct out *o, const struct res_state *rs, const char *dev, uint32_t lqpn)
{
	uint32_t pid = 0;
	const char *comm = "";
	bool known = qp_holder(rs, dev, lqpn, &pid, &comm);

	out_obj_open(o, NULL);
	out_uint(o, PRINT_ANY, "lqpn", lqpn, "  QP %-8u", lqpn);
	if (known && pid)
		out_uint(o, PRINT_JSON, "pid", pid, NULL);
	else
		out_null(o, PRINT_JSON, "pid", NULL);
	out_str_or_null(o, PRINT_ANY, "comm", known && comm[0] ? comm : NULL, known ? " %s" : NULL, comm);
	if (known && pid)
		out_printf(o, " (pid %" PRIu32 ")", pid);
	out_printf(o, "\n");
	out_obj_close(o);
}

static void counter_out(struct out *o, const struct stat_qp_counter *q, const struct res_state *rs)
{
	const char *mode = stat_mode_name(q->mode);
	const char *type = q->has_qp_type ? res_qp_type_name(q->qp_type) : NULL;

	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "device", q->dev, "\n%s/", q->dev);
	out_uint(o, PRINT_ANY, "port", q->port, "%u", q->port);
	out_uint(o, PRINT_ANY, "id", q->id, " counter %u", q->id);
	out_str(o, PRINT_ANY, "mode", mode, " (%s", mode);
	out_str_or_null(o, PRINT_ANY, "qp_type", type, type ? ", %s QPs" : NULL, type);
	out_printf(o, "): %zu QP%s\n", q->nqpns, q->nqpns == 1 ? "" : "s");
	out_arr_open(o, "qps");
	for (size_t i = 0; i < q->nqpns; i++)
		qp_out(o, rs, q->dev, q->qpns[i]);
	out_arr_close(o);
	out_obj_open(o, "values");
	for (size_t i = 0; i < q->n; i++)
		out_uint(o, PRINT_ANY, q->c[i].name, q->c[i].value, "  %-32s %" PRIu64 "\n", q->c[i].name,
			 q->c[i].value);
	out_obj_close(o);
	out_obj_close(o);
}

void stat_report_qp(struct out *o, const struct stat_state *st, const struct res_state *rs, const char *dev,
		    unsigned int port)
{
	size_t shown = 0;

	out_obj_open(o, "qp_counters");
	out_arr_open(o, "ports");
	for (size_t i = 0; i < st->nmodes; i++)
		if (wanted(st->modes[i].dev, st->modes[i].port, dev, port))
			mode_out(o, st, &st->modes[i]);
	out_arr_close(o);
	out_arr_open(o, "counters");
	for (size_t k = 0; k < st->nqpc; k++) {
		if (!wanted(st->qpc[k].dev, st->qpc[k].port, dev, port))
			continue;
		shown++;
		counter_out(o, &st->qpc[k], rs);
	}
	out_arr_close(o);
	if (!shown)
		out_printf(o, "\nno QP counters%s\n", st->nmodes ? "" : " (no port answered)");
	out_str(o, PRINT_ANY, "caveat", stat_qp_caveat, "\nnote: %s.\n", stat_qp_caveat);
	if (st->err)
		out_str(o, PRINT_JSON, "error", st->why, NULL);
	out_obj_close(o);
}
