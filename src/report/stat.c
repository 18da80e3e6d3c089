// SPDX-License-Identifier: GPL-2.0-or-later
/* Text and JSON of the QP counters: per port its mode, per counter its QPs (and holders) and values. */
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

static void mask_text(FILE *f, const struct stat_port_mode *m)
{
	if (m->mode != RDMA_COUNTER_MODE_AUTO || !m->has_mask)
		return;
	fprintf(f, " (by%s%s)", m->mask & RDMA_COUNTER_MASK_QP_TYPE ? " QP type" : "",
		m->mask & RDMA_COUNTER_MASK_PID ? " pid" : "");
}

void stat_report_qp_text(FILE *f, const struct stat_state *st, const struct res_state *rs, const char *dev,
			 unsigned int port)
{
	size_t shown = 0;

	for (size_t i = 0; i < st->nmodes; i++) {
		const struct stat_port_mode *m = &st->modes[i];
		size_t n = 0;

		if (!wanted(m->dev, m->port, dev, port))
			continue;
		for (size_t k = 0; k < st->nqpc; k++)
			n += !strcmp(st->qpc[k].dev, m->dev) && st->qpc[k].port == m->port;
		fprintf(f, "%s/%u: QP counter mode %s", m->dev, m->port, stat_mode_name(m->mode));
		mask_text(f, m);
		fprintf(f, ", %zu counter%s\n", n, n == 1 ? "" : "s");
	}
	for (size_t k = 0; k < st->nqpc; k++) {
		const struct stat_qp_counter *q = &st->qpc[k];

		if (!wanted(q->dev, q->port, dev, port))
			continue;
		shown++;
		fprintf(f, "\n%s/%u counter %u (%s", q->dev, q->port, q->id, stat_mode_name(q->mode));
		if (q->has_qp_type)
			fprintf(f, ", %s QPs", res_qp_type_name(q->qp_type));
		fprintf(f, "): %zu QP%s\n", q->nqpns, q->nqpns == 1 ? "" : "s");
		for (size_t i = 0; i < q->nqpns; i++) {
			uint32_t pid = 0;
			const char *comm = "";

			fprintf(f, "  QP %-8u", q->qpns[i]);
			if (qp_holder(rs, q->dev, q->qpns[i], &pid, &comm)) {
				fprintf(f, " %s", comm);
				if (pid)
					fprintf(f, " (pid %" PRIu32 ")", pid);
			}
			fputc('\n', f);
		}
		for (size_t i = 0; i < q->n; i++)
			fprintf(f, "  %-32s %" PRIu64 "\n", q->c[i].name, q->c[i].value);
	}
	if (!shown)
		fprintf(f, "\nno QP counters%s\n", st->nmodes ? "" : " (no port answered)");
	fprintf(f, "\nnote: %s.\n", stat_qp_caveat);
}

void stat_report_qp_json(struct json *j, const struct stat_state *st, const struct res_state *rs, const char *dev,
			 unsigned int port)
{
	json_key(j, "qp_counters");
	json_obj_begin(j);
	json_key(j, "ports");
	json_arr_begin(j);
	for (size_t i = 0; i < st->nmodes; i++) {
		const struct stat_port_mode *m = &st->modes[i];

		if (!wanted(m->dev, m->port, dev, port))
			continue;
		json_obj_begin(j);
		json_key(j, "device"); json_str(j, m->dev);
		json_key(j, "port"); json_u64(j, m->port);
		json_key(j, "mode"); json_str(j, stat_mode_name(m->mode));
		json_key(j, "auto_by_qp_type");
		json_bool(j, m->mode == RDMA_COUNTER_MODE_AUTO && (m->mask & RDMA_COUNTER_MASK_QP_TYPE));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "counters");
	json_arr_begin(j);
	for (size_t k = 0; k < st->nqpc; k++) {
		const struct stat_qp_counter *q = &st->qpc[k];

		if (!wanted(q->dev, q->port, dev, port))
			continue;
		json_obj_begin(j);
		json_key(j, "device"); json_str(j, q->dev);
		json_key(j, "port"); json_u64(j, q->port);
		json_key(j, "id"); json_u64(j, q->id);
		json_key(j, "mode"); json_str(j, stat_mode_name(q->mode));
		json_key(j, "qp_type"); json_str_or_null(j, q->has_qp_type ? res_qp_type_name(q->qp_type) : NULL);
		json_key(j, "qps");
		json_arr_begin(j);
		for (size_t i = 0; i < q->nqpns; i++) {
			uint32_t pid = 0;
			const char *comm = NULL;
			bool known = qp_holder(rs, q->dev, q->qpns[i], &pid, &comm);

			json_obj_begin(j);
			json_key(j, "lqpn"); json_u64(j, q->qpns[i]);
			json_key(j, "pid");
			if (known && pid)
				json_u64(j, pid);
			else
				json_null(j);
			json_key(j, "comm"); json_str_or_null(j, known && comm[0] ? comm : NULL);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_key(j, "values");
		json_obj_begin(j);
		for (size_t i = 0; i < q->n; i++) {
			json_key(j, q->c[i].name);
			json_u64(j, q->c[i].value);
		}
		json_obj_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "caveat"); json_str(j, stat_qp_caveat);
	if (st->err) {
		json_key(j, "error"); json_str(j, st->why);
	}
	json_obj_end(j);
}
