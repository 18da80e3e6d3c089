// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop show roce: the lossless chain per RoCE port and priority, and its findings. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "derive/roce_check.h"
#include "derive/roce_ctr.h"
#include "report/doctor.h"
#include "report/roce.h"

static const char *const prio_keys[ROCE_PRIO_NCTRS] = {
	[ROCE_PRIO_RX_PAUSE] = "rx_pause",
	[ROCE_PRIO_TX_PAUSE] = "tx_pause",
	[ROCE_PRIO_RX_PAUSE_US] = "rx_pause_us",
	[ROCE_PRIO_TX_PAUSE_US] = "tx_pause_us",
	[ROCE_PRIO_RX_DISCARDS] = "rx_discards",
	[ROCE_PRIO_RX_ECN_MARKED] = "rx_ecn_marked",
};

static const char *const port_keys[ROCE_PORT_NCTRS] = {
	[ROCE_PORT_RX_OUT_OF_BUFFER] = "rx_out_of_buffer",
	[ROCE_PORT_RX_DISCARDS_PHY] = "rx_discards_phy",
	[ROCE_PORT_PAUSE_STORM_WARN] = "pause_storm_warning_events",
	[ROCE_PORT_PAUSE_STORM_ERR] = "pause_storm_error_events",
	[ROCE_PORT_GLOBAL_RX_PAUSE] = "link_rx_pause_frames",
	[ROCE_PORT_GLOBAL_TX_PAUSE] = "link_tx_pause_frames",
};

static const struct roce_port *match(const struct roce_state *s, const struct roce_port *rp)
{
	for (size_t i = 0; s && i < s->nports; i++)
		if (!strcmp(s->ports[i].dev, rp->dev) && s->ports[i].port == rp->port)
			return &s->ports[i];
	return NULL;
}

static double dt_of(const struct roce_state *a, const struct roce_state *b)
{
	return a && b->t_ns > a->t_ns ? (double)(b->t_ns - a->t_ns) / 1e9 : 0;
}

/* A counter as text: its rate per second over dt (two samples), else its value; "-" unknown. */
static const char *ctr_str(char *buf, size_t len, const struct roce_ctr *a, const struct roce_ctr *b, double dt)
{
	if (!b->known)
		return "-";
	if (a && dt > 0) {
		if (!a->known || b->value < a->value)
			return "-";
		snprintf(buf, len, "%.0f", (double)(b->value - a->value) / dt);
	} else {
		snprintf(buf, len, "%llu", (unsigned long long)b->value);
	}
	return buf;
}

static const char *share_str(char *buf, size_t len, const struct roce_ctr *a, const struct roce_ctr *b, double dt)
{
	double s = a && dt > 0 ? roce_pause_share(a, b, dt) : -1;

	if (s < 0)
		return "-";
	snprintf(buf, len, "%.1f%%", 100 * s);
	return buf;
}

static const char *dcb_state(const struct roce_port *rp, char *buf, size_t len)
{
	if (rp->dcb.err)
		snprintf(buf, len, "not available: %s", roce_dcb_err_str(rp->dcb.err));
	else
		snprintf(buf, len, "IEEE%s%s", rp->dcb.has_dcbx ? (rp->dcb.dcbx & 0x02 ? ", DCBX managed by the NIC" :
			 rp->dcb.dcbx & 0x01 ? ", DCBX by a host agent" : "") : "",
			 rp->dcb.has_trust ? (rp->dcb.ntrust && rp->dcb.trust[0] == ROCE_APP_SEL_DSCP ? ", trust DSCP" :
			 rp->dcb.ntrust && rp->dcb.trust[0] == ROCE_APP_SEL_PCP ? ", trust PCP" : ", trust other") : "");
	return buf;
}

static const char *pause_err_str(int err)
{
	switch (err) {
	case -ENOENT:
		return "not available (no ethtool netlink here, or no recording)";
	case -EOPNOTSUPP:
		return "the driver has no pause settings";
	default:
		return strerror(-err);
	}
}

/* "3,4", "none", or "unknown" when the driver showed no priority. */
static void roce_ecn_prios(const bool *known, const bool *on, char *buf, size_t len)
{
	size_t o = 0;
	bool any = false;

	buf[0] = '\0';
	for (int p = 0; p < ROCE_PRIOS && o < len; p++) {
		any |= known[p];
		if (known[p] && on[p])
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", p);
	}
	if (!o)
		snprintf(buf, len, "%s", any ? "none" : "unknown");
}

static void pause_text(FILE *f, const struct roce_port *a, const struct roce_port *b, double dt)
{
	char s1[32], s2[32];

	if (!b->eth.pause_known) {
		fprintf(f, "  link pause (ethtool netlink): %s\n", pause_err_str(b->eth.pause_err ? b->eth.pause_err : -ENOENT));
		return;
	}
	fprintf(f, "  link pause (ethtool netlink): autoneg %s, rx %s, tx %s; pause frames rx %s tx %s%s\n",
		b->eth.pause_autoneg ? "on" : "off", b->eth.pause_rx ? "on" : "off", b->eth.pause_tx ? "on" : "off",
		ctr_str(s1, sizeof(s1), a ? &a->eth.port[ROCE_PORT_GLOBAL_RX_PAUSE] : NULL,
			&b->eth.port[ROCE_PORT_GLOBAL_RX_PAUSE], dt),
		ctr_str(s2, sizeof(s2), a ? &a->eth.port[ROCE_PORT_GLOBAL_TX_PAUSE] : NULL,
			&b->eth.port[ROCE_PORT_GLOBAL_TX_PAUSE], dt),
		a && dt > 0 ? " per second" : "");
}

static void port_text(FILE *f, const struct roce_port *a, const struct roce_port *b, double dt)
{
	struct roce_tc tc;
	char s1[32], s2[32], s3[32], s4[32], s5[32], s6[32], s7[32], s8[32], d[200];

	roce_tc_of(b, &tc);
	fprintf(f, "%s port %u  netdev %s%s\n", b->dev, b->port, b->netdev[0] ? b->netdev : "-",
		b->recorded ? "  (recorded answers)" : "");
	fprintf(f, "  DCB: %s\n", dcb_state(b, d, sizeof(d)));
	if (b->tos.known)
		fprintf(f, "  rdma_cm default_roce_tos %u (DSCP %d)", b->tos.value, tc.dscp);
	else
		fprintf(f, "  rdma_cm default_roce_tos unknown");
	if (tc.prio >= 0)
		fprintf(f, " -> priority %d", tc.prio);
	else if (tc.dscp >= 0 && !b->dcb.err)
		fprintf(f, " -> no APP entry for DSCP %d", tc.dscp);
	fprintf(f, "; RoCE mode %s\n", b->roce_mode[0] ? b->roce_mode : "unknown");
	if (b->ecn.known) {
		char np[32], rp[32];

		roce_ecn_prios(b->ecn.np_known, b->ecn.np, np, sizeof(np));
		roce_ecn_prios(b->ecn.rp_known, b->ecn.rp, rp, sizeof(rp));
		fprintf(f, "  ECN (DCQCN): notification point on priorities %s; reaction point on %s\n", np, rp);
	}
	if (b->eth.err)
		fprintf(f, "  ethtool statistics: %s\n", b->eth.err == -EOPNOTSUPP ? "none (the driver has no statistics)" :
			strerror(-b->eth.err));
	else
		fprintf(f, "  ethtool statistics: %u counters, %u of the chain\n", b->eth.nstats, b->eth.nmatched);
	pause_text(f, a, b, dt);
	fprintf(f, "  %-4s %-3s %-3s %-4s %-4s %12s %12s %9s %9s %12s %12s  (%s)\n", "PRIO", "PFC", "TC", "BW%",
		"RDMA", "RX_PAUSE", "TX_PAUSE", "RX_PAUSED", "TX_PAUSED", "ECN_MARKED", "DISCARDS",
		a && dt > 0 ? "per second" : "totals");
	for (int p = 0; p < ROCE_PRIOS; p++) {
		const struct roce_ctr *A[ROCE_PRIO_NCTRS] = { 0 };
		bool any = false;

		/* priorities that carry nothing and matter to nothing are left out */
		for (int k = 0; k < ROCE_PRIO_NCTRS; k++) {
			A[k] = a ? &a->eth.prio[k][p] : NULL;
			any |= b->eth.prio[k][p].known && b->eth.prio[k][p].value;
		}
		if (!any && !(b->dcb.has_pfc && (b->dcb.pfc_en & (1u << p))) && tc.prio != p)
			continue;
		fprintf(f, "  %-4d %-3s %-3s %-4s %-4s %12s %12s %9s %9s %12s %12s\n", p,
			b->dcb.has_pfc ? (b->dcb.pfc_en & (1u << p) ? "on" : "off") : "-",
			b->dcb.has_ets ? (snprintf(s6, sizeof(s6), "%u", b->dcb.prio_tc[p]), s6) : "-",
			b->dcb.has_ets && b->dcb.prio_tc[p] < ROCE_PRIOS ?
			(snprintf(s7, sizeof(s7), "%u", b->dcb.tc_tx_bw[b->dcb.prio_tc[p]]), s7) : "-",
			tc.prio == p ? "<-" : "",
			ctr_str(s1, sizeof(s1), A[ROCE_PRIO_RX_PAUSE], &b->eth.prio[ROCE_PRIO_RX_PAUSE][p], dt),
			ctr_str(s2, sizeof(s2), A[ROCE_PRIO_TX_PAUSE], &b->eth.prio[ROCE_PRIO_TX_PAUSE][p], dt),
			share_str(s3, sizeof(s3), A[ROCE_PRIO_RX_PAUSE_US], &b->eth.prio[ROCE_PRIO_RX_PAUSE_US][p], dt),
			share_str(s4, sizeof(s4), A[ROCE_PRIO_TX_PAUSE_US], &b->eth.prio[ROCE_PRIO_TX_PAUSE_US][p], dt),
			ctr_str(s5, sizeof(s5), A[ROCE_PRIO_RX_ECN_MARKED], &b->eth.prio[ROCE_PRIO_RX_ECN_MARKED][p], dt),
			ctr_str(s8, sizeof(s8), A[ROCE_PRIO_RX_DISCARDS], &b->eth.prio[ROCE_PRIO_RX_DISCARDS][p], dt));
	}
	fprintf(f, "  RDMA congestion (hw_counters):");
	for (int r = 0; r < ROCE_CC_NROLES; r++)
		fprintf(f, " %s %s", roce_cc_role_key((enum roce_cc_role)r),
			ctr_str(s1, sizeof(s1), a ? &a->cc[r] : NULL, &b->cc[r], dt));
	fprintf(f, "\n");
}

void roce_report_text(FILE *f, const struct roce_state *prev, const struct roce_state *cur,
		      const struct doctor_finding *fs, size_t nfs)
{
	double dt = dt_of(prev, cur);

	if (!cur->nports) {
		fprintf(f, "No RoCE ports (Ethernet link layer).\n");
		return;
	}
	if (prev && dt > 0)
		fprintf(f, "Rates over %.1f s.\n", dt);
	for (size_t i = 0; i < cur->nports; i++) {
		if (i)
			fprintf(f, "\n");
		port_text(f, prev ? match(prev, &cur->ports[i]) : NULL, &cur->ports[i], dt);
	}
	fprintf(f, "\n");
	if (!nfs)
		fprintf(f, "No problems found in the lossless chain%s.\n",
			prev && dt > 0 ? "" : " (rate findings need --count 1 or more)");
	for (size_t i = 0; i < nfs; i++) {
		const struct doctor_finding *x = &fs[i];

		fprintf(f, "[%s] finding %d (%s): %s\n    %s\n", doctor_severity_str(x->severity), (int)x->id,
			x->code, x->title, x->cause);
		if (x->nevidence)
			fprintf(f, "  evidence:\n");
		for (unsigned int k = 0; k < x->nevidence; k++)
			fprintf(f, "    %s\n", x->evidence[k]);
		if (x->nfix)
			fprintf(f, "  fix:\n");
		for (unsigned int k = 0; k < x->nfix; k++)
			fprintf(f, "    %s\n", x->fix[k]);
	}
}

static void ctr_json(struct json *j, const char *key, const struct roce_ctr *a, const struct roce_ctr *b, double dt)
{
	json_key(j, key);
	json_obj_begin(j);
	json_key(j, "value");
	if (b->known)
		json_u64(j, b->value);
	else
		json_null(j);
	json_key(j, "rate");
	if (a && dt > 0 && a->known && b->known && b->value >= a->value)
		json_double(j, (double)(b->value - a->value) / dt, 3);
	else
		json_null(j);
	json_obj_end(j);
}

/* A nullable unsigned number: null when v is negative (unknown). */
static void json_u64_or_null(struct json *j, int64_t v)
{
	if (v >= 0)
		json_u64(j, (uint64_t)v);
	else
		json_null(j);
}

/* The priorities whose bit is set, as an array. */
static void prio_set_json(struct json *j, const bool *known, const bool *on)
{
	json_arr_begin(j);
	for (int p = 0; p < ROCE_PRIOS; p++)
		if ((!known || known[p]) && on[p])
			json_u64(j, (uint64_t)p);
	json_arr_end(j);
}

/* DCB as the kernel's dcbnl says it: PFC, ETS priority -> TC, DSCP -> priority, trust. */
static void dcb_json(struct json *j, const struct roce_port *b)
{
	json_key(j, "dcb");
	json_obj_begin(j);
	json_key(j, "error"); json_str(j, b->dcb.err ? roce_dcb_err_str(b->dcb.err) : NULL);
	json_key(j, "errno"); json_i64(j, -b->dcb.err);
	json_key(j, "pfc_enabled");
	if (b->dcb.has_pfc) {
		bool on[ROCE_PRIOS];

		for (int p = 0; p < ROCE_PRIOS; p++)
			on[p] = b->dcb.pfc_en & (1u << p);
		prio_set_json(j, NULL, on);
	} else {
		json_null(j);
	}
	json_key(j, "prio_tc");
	if (b->dcb.has_ets) {
		json_arr_begin(j);
		for (int p = 0; p < ROCE_PRIOS; p++)
			json_u64(j, b->dcb.prio_tc[p]);
		json_arr_end(j);
	} else {
		json_null(j);
	}
	json_key(j, "dscp_prio");
	json_obj_begin(j);
	for (unsigned int k = 0; k < b->dcb.napps && k < ROCE_MAX_APPS; k++)
		if (b->dcb.apps[k].selector == ROCE_APP_SEL_DSCP) {
			char key[8];

			snprintf(key, sizeof(key), "%u", b->dcb.apps[k].protocol);
			json_key(j, key);
			json_u64(j, b->dcb.apps[k].priority);
		}
	json_obj_end(j);
	json_key(j, "trust");
	json_arr_begin(j);
	for (unsigned int k = 0; k < b->dcb.ntrust; k++)
		json_str(j, b->dcb.trust[k] == ROCE_APP_SEL_DSCP ? "dscp" : b->dcb.trust[k] == ROCE_APP_SEL_PCP ?
			 "pcp" : "other");
	json_arr_end(j);
	json_obj_end(j);
}

/* DCQCN's enables per priority (null where the driver does not show them). */
static void ecn_json(struct json *j, const struct roce_port *b)
{
	json_key(j, "ecn");
	if (!b->ecn.known) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_key(j, "np_enabled");
	prio_set_json(j, b->ecn.np_known, b->ecn.np);
	json_key(j, "rp_enabled");
	prio_set_json(j, b->ecn.rp_known, b->ecn.rp);
	json_obj_end(j);
}

/* A nullable boolean of the link's PAUSE settings. */
static void pause_bool_json(struct json *j, const char *key, bool known, bool v)
{
	json_key(j, key);
	if (known)
		json_bool(j, v);
	else
		json_null(j);
}

/* ethtool: link PAUSE, and the counters per priority and per port with their rates. */
static void ethtool_json(struct json *j, const struct roce_port *a, const struct roce_port *b, double dt)
{
	int perr = b->eth.pause_err ? b->eth.pause_err : -ENOENT;

	json_key(j, "ethtool");
	json_obj_begin(j);
	json_key(j, "error"); json_str(j, b->eth.err ? strerror(-b->eth.err) : NULL);
	json_key(j, "link_pause");
	json_obj_begin(j);
	json_key(j, "error"); json_str(j, b->eth.pause_known ? NULL : pause_err_str(perr));
	json_key(j, "errno"); json_i64(j, b->eth.pause_known ? 0 : -perr);
	pause_bool_json(j, "autoneg", b->eth.pause_known, b->eth.pause_autoneg);
	pause_bool_json(j, "rx", b->eth.pause_known, b->eth.pause_rx);
	pause_bool_json(j, "tx", b->eth.pause_known, b->eth.pause_tx);
	json_obj_end(j);
	json_key(j, "stats"); json_u64(j, b->eth.nstats);
	json_key(j, "known"); json_u64(j, b->eth.nmatched);
	json_key(j, "priorities");
	json_arr_begin(j);
	for (int p = 0; p < ROCE_PRIOS; p++) {
		json_obj_begin(j);
		json_key(j, "priority"); json_u64(j, (uint64_t)p);
		for (int k = 0; k < ROCE_PRIO_NCTRS; k++)
			ctr_json(j, prio_keys[k], a ? &a->eth.prio[k][p] : NULL, &b->eth.prio[k][p], dt);
		json_obj_end(j);
	}
	json_arr_end(j);
	for (int k = 0; k < ROCE_PORT_NCTRS; k++)
		ctr_json(j, port_keys[k], a ? &a->eth.port[k] : NULL, &b->eth.port[k], dt);
	json_obj_end(j);
}

/* One RoCE port's chain (b), with rates against its previous sample (a, NULL: none). */
static void port_json(struct json *j, const struct roce_port *a, const struct roce_port *b, double dt)
{
	struct roce_tc tc;

	roce_tc_of(b, &tc);
	json_obj_begin(j);
	json_key(j, "device"); json_str(j, b->dev);
	json_key(j, "port"); json_u64(j, b->port);
	json_key(j, "netdev"); json_str_or_null(j, b->netdev);
	json_key(j, "recorded"); json_bool(j, b->recorded);
	dcb_json(j, b);
	json_key(j, "default_roce_tos"); json_u64_or_null(j, b->tos.known ? (int64_t)b->tos.value : -1);
	json_key(j, "rdma_dscp"); json_u64_or_null(j, tc.dscp);
	json_key(j, "rdma_priority"); json_u64_or_null(j, tc.prio);
	json_key(j, "roce_mode"); json_str_or_null(j, b->roce_mode);
	ecn_json(j, b);
	ethtool_json(j, a, b, dt);
	json_key(j, "congestion");
	json_obj_begin(j);
	for (int r = 0; r < ROCE_CC_NROLES; r++)
		ctr_json(j, roce_cc_role_key((enum roce_cc_role)r), a ? &a->cc[r] : NULL, &b->cc[r], dt);
	json_obj_end(j);
	json_obj_end(j);
}

void roce_report_json(struct json *j, const struct roce_state *prev, const struct roce_state *cur,
		      const struct doctor_finding *fs, size_t nfs)
{
	double dt = dt_of(prev, cur);
	struct out o;

	out_init_json(&o, j);
	json_key(j, "interval_s");
	if (prev && dt > 0)
		json_double(j, dt, 3);
	else
		json_null(j);
	json_key(j, "roce_ports");
	json_arr_begin(j);
	for (size_t i = 0; i < cur->nports; i++)
		port_json(j, prev ? match(prev, &cur->ports[i]) : NULL, &cur->ports[i], dt);
	json_arr_end(j);
	json_key(j, "findings");
	json_arr_begin(j);
	for (size_t i = 0; i < nfs; i++) {
		const struct doctor_finding *x = &fs[i];

		json_obj_begin(j);
		json_key(j, "id"); json_u64(j, (uint64_t)x->id);
		json_key(j, "code"); json_str(j, x->code);
		json_key(j, "severity"); json_str(j, doctor_severity_str(x->severity));
		json_key(j, "interface"); json_str_or_null(j, x->ifname);
		json_key(j, "device"); json_str_or_null(j, x->device);
		json_key(j, "port"); json_u64(j, x->port);
		doctor_finding_story(&o, x, false);
		json_obj_end(j);
	}
	json_arr_end(j);
}
