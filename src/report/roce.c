// SPDX-License-Identifier: GPL-2.0-or-later
/* fabtop show roce: the lossless chain per RoCE port and priority, and its findings; text or JSON from one walk. */
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

/* Text: the link's PAUSE settings and frames. */
static void pause_text(struct out *o, const struct roce_port *a, const struct roce_port *b, double dt)
{
	char s1[32], s2[32];

	if (!b->eth.pause_known) {
		out_printf(o, "  link pause (ethtool netlink): %s\n",
			   pause_err_str(b->eth.pause_err ? b->eth.pause_err : -ENOENT));
		return;
	}
	out_printf(o, "  link pause (ethtool netlink): autoneg %s, rx %s, tx %s; pause frames rx %s tx %s%s\n",
		   b->eth.pause_autoneg ? "on" : "off", b->eth.pause_rx ? "on" : "off", b->eth.pause_tx ? "on" : "off",
		   ctr_str(s1, sizeof(s1), a ? &a->eth.port[ROCE_PORT_GLOBAL_RX_PAUSE] : NULL,
			   &b->eth.port[ROCE_PORT_GLOBAL_RX_PAUSE], dt),
		   ctr_str(s2, sizeof(s2), a ? &a->eth.port[ROCE_PORT_GLOBAL_TX_PAUSE] : NULL,
			   &b->eth.port[ROCE_PORT_GLOBAL_TX_PAUSE], dt),
		   a && dt > 0 ? " per second" : "");
}

/* Text: the table of priorities (those that carry nothing and matter to nothing left out). */
static void prio_table_text(struct out *o, const struct roce_port *a, const struct roce_port *b,
			    const struct roce_tc *tc, double dt)
{
	char s1[32], s2[32], s3[32], s4[32], s5[32], s6[32], s7[32], s8[32];

	if (!out_text(o))
		return;
	out_printf(o, "  %-4s %-3s %-3s %-4s %-4s %12s %12s %9s %9s %12s %12s  (%s)\n", "PRIO", "PFC", "TC", "BW%",
		   "RDMA", "RX_PAUSE", "TX_PAUSE", "RX_PAUSED", "TX_PAUSED", "ECN_MARKED", "DISCARDS",
		   a && dt > 0 ? "per second" : "totals");
	for (int p = 0; p < ROCE_PRIOS; p++) {
		const struct roce_ctr *A[ROCE_PRIO_NCTRS] = { 0 };
		bool any = false;

		for (int k = 0; k < ROCE_PRIO_NCTRS; k++) {
			A[k] = a ? &a->eth.prio[k][p] : NULL;
			any |= b->eth.prio[k][p].known && b->eth.prio[k][p].value;
		}
		if (!any && !(b->dcb.has_pfc && (b->dcb.pfc_en & (1u << p))) && tc->prio != p)
			continue;
		out_printf(o, "  %-4d %-3s %-3s %-4s %-4s %12s %12s %9s %9s %12s %12s\n", p,
			   b->dcb.has_pfc ? (b->dcb.pfc_en & (1u << p) ? "on" : "off") : "-",
			   b->dcb.has_ets ? (snprintf(s6, sizeof(s6), "%u", b->dcb.prio_tc[p]), s6) : "-",
			   b->dcb.has_ets && b->dcb.prio_tc[p] < ROCE_PRIOS ?
			   (snprintf(s7, sizeof(s7), "%u", b->dcb.tc_tx_bw[b->dcb.prio_tc[p]]), s7) : "-",
			   tc->prio == p ? "<-" : "",
			   ctr_str(s1, sizeof(s1), A[ROCE_PRIO_RX_PAUSE], &b->eth.prio[ROCE_PRIO_RX_PAUSE][p], dt),
			   ctr_str(s2, sizeof(s2), A[ROCE_PRIO_TX_PAUSE], &b->eth.prio[ROCE_PRIO_TX_PAUSE][p], dt),
			   share_str(s3, sizeof(s3), A[ROCE_PRIO_RX_PAUSE_US], &b->eth.prio[ROCE_PRIO_RX_PAUSE_US][p], dt),
			   share_str(s4, sizeof(s4), A[ROCE_PRIO_TX_PAUSE_US], &b->eth.prio[ROCE_PRIO_TX_PAUSE_US][p], dt),
			   ctr_str(s5, sizeof(s5), A[ROCE_PRIO_RX_ECN_MARKED], &b->eth.prio[ROCE_PRIO_RX_ECN_MARKED][p], dt),
			   ctr_str(s8, sizeof(s8), A[ROCE_PRIO_RX_DISCARDS], &b->eth.prio[ROCE_PRIO_RX_DISCARDS][p], dt));
	}
}

/* A counter: {"value", "rate"} in JSON; with PRINT_ANY, " KEY VALUE" (its rate over two samples) in text. */
static void ctr_out(struct out *o, enum out_to t, const char *key, const struct roce_ctr *a, const struct roce_ctr *b,
		    double dt)
{
	char s[32];

	out_obj_open(o, key);
	if (b->known)
		out_uint(o, PRINT_JSON, "value", b->value, NULL);
	else
		out_null(o, PRINT_JSON, "value", NULL);
	if (t & PRINT_FP)
		out_printf(o, " %s %s", key, ctr_str(s, sizeof(s), a, b, dt));
	if (a && dt > 0 && a->known && b->known && b->value >= a->value)
		out_float(o, PRINT_JSON, "rate", (double)(b->value - a->value) / dt, 3, NULL);
	else
		out_null(o, PRINT_JSON, "rate", NULL);
	out_obj_close(o);
}

/* A nullable unsigned number: null when v is negative (unknown). */
static void u64_or_null_json(struct out *o, const char *key, int64_t v)
{
	if (v >= 0)
		out_uint(o, PRINT_JSON, key, (uint64_t)v, NULL);
	else
		out_null(o, PRINT_JSON, key, NULL);
}

/* JSON: the priorities whose bit is set, as an array. */
static void prio_set_json(struct out *o, const char *key, const bool *known, const bool *on)
{
	out_arr_open(o, key);
	for (int p = 0; p < ROCE_PRIOS; p++)
		if ((!known || known[p]) && on[p])
			out_uint(o, PRINT_JSON, NULL, (uint64_t)p, NULL);
	out_arr_close(o);
}

/* DCB as the kernel's dcbnl says it: PFC, ETS priority -> TC, DSCP -> priority, trust; one line in text. */
static void dcb_out(struct out *o, const struct roce_port *b)
{
	char d[200];

	out_printf(o, "  DCB: %s\n", dcb_state(b, d, sizeof(d)));
	out_obj_open(o, "dcb");
	out_str(o, PRINT_JSON, "error", b->dcb.err ? roce_dcb_err_str(b->dcb.err) : NULL, NULL);
	out_int(o, PRINT_JSON, "errno", -b->dcb.err, NULL);
	if (b->dcb.has_pfc) {
		bool on[ROCE_PRIOS];

		for (int p = 0; p < ROCE_PRIOS; p++)
			on[p] = b->dcb.pfc_en & (1u << p);
		prio_set_json(o, "pfc_enabled", NULL, on);
	} else {
		out_null(o, PRINT_JSON, "pfc_enabled", NULL);
	}
	if (b->dcb.has_ets) {
		out_arr_open(o, "prio_tc");
		for (int p = 0; p < ROCE_PRIOS; p++)
			out_uint(o, PRINT_JSON, NULL, b->dcb.prio_tc[p], NULL);
		out_arr_close(o);
	} else {
		out_null(o, PRINT_JSON, "prio_tc", NULL);
	}
	out_obj_open(o, "dscp_prio");
	for (unsigned int k = 0; k < b->dcb.napps && k < ROCE_MAX_APPS; k++)
		if (b->dcb.apps[k].selector == ROCE_APP_SEL_DSCP) {
			char key[8];

			snprintf(key, sizeof(key), "%u", b->dcb.apps[k].protocol);
			out_uint(o, PRINT_JSON, key, b->dcb.apps[k].priority, NULL);
		}
	out_obj_close(o);
	out_arr_open(o, "trust");
	for (unsigned int k = 0; k < b->dcb.ntrust; k++)
		out_str(o, PRINT_JSON, NULL, b->dcb.trust[k] == ROCE_APP_SEL_DSCP ? "dscp" :
			b->dcb.trust[k] == ROCE_APP_SEL_PCP ? "pcp" : "other", NULL);
	out_arr_close(o);
	out_obj_close(o);
}

/* DCQCN's enables per priority (null where the driver does not show them). */
static void ecn_out(struct out *o, const struct roce_port *b)
{
	char np[32], rp[32];

	if (!b->ecn.known) {
		out_null(o, PRINT_JSON, "ecn", NULL);
		return;
	}
	roce_ecn_prios(b->ecn.np_known, b->ecn.np, np, sizeof(np));
	roce_ecn_prios(b->ecn.rp_known, b->ecn.rp, rp, sizeof(rp));
	out_printf(o, "  ECN (DCQCN): notification point on priorities %s; reaction point on %s\n", np, rp);
	out_obj_open(o, "ecn");
	prio_set_json(o, "np_enabled", b->ecn.np_known, b->ecn.np);
	prio_set_json(o, "rp_enabled", b->ecn.rp_known, b->ecn.rp);
	out_obj_close(o);
}

/* A nullable boolean of the link's PAUSE settings. */
static void pause_bool_json(struct out *o, const char *key, bool known, bool v)
{
	if (known)
		out_bool(o, PRINT_JSON, key, v, NULL);
	else
		out_null(o, PRINT_JSON, key, NULL);
}

/* ethtool: its statistics, link PAUSE, the counters per priority and per port with their rates. */
static void ethtool_out(struct out *o, const struct roce_port *a, const struct roce_port *b,
			const struct roce_tc *tc, double dt)
{
	int perr = b->eth.pause_err ? b->eth.pause_err : -ENOENT;

	out_obj_open(o, "ethtool");
	if (b->eth.err)
		out_str(o, PRINT_ANY, "error", strerror(-b->eth.err), "  ethtool statistics: %s\n",
			b->eth.err == -EOPNOTSUPP ? "none (the driver has no statistics)" : strerror(-b->eth.err));
	else
		out_null(o, PRINT_ANY, "error", "  ethtool statistics: %u counters, %u of the chain\n", b->eth.nstats,
			 b->eth.nmatched);
	pause_text(o, a, b, dt);
	out_obj_open(o, "link_pause");
	out_str(o, PRINT_JSON, "error", b->eth.pause_known ? NULL : pause_err_str(perr), NULL);
	out_int(o, PRINT_JSON, "errno", b->eth.pause_known ? 0 : -perr, NULL);
	pause_bool_json(o, "autoneg", b->eth.pause_known, b->eth.pause_autoneg);
	pause_bool_json(o, "rx", b->eth.pause_known, b->eth.pause_rx);
	pause_bool_json(o, "tx", b->eth.pause_known, b->eth.pause_tx);
	out_obj_close(o);
	out_uint(o, PRINT_JSON, "stats", b->eth.nstats, NULL);
	out_uint(o, PRINT_JSON, "known", b->eth.nmatched, NULL);
	prio_table_text(o, a, b, tc, dt);
	out_arr_open(o, "priorities");
	for (int p = 0; p < ROCE_PRIOS; p++) {
		out_obj_open(o, NULL);
		out_uint(o, PRINT_JSON, "priority", (uint64_t)p, NULL);
		for (int k = 0; k < ROCE_PRIO_NCTRS; k++)
			ctr_out(o, PRINT_JSON, prio_keys[k], a ? &a->eth.prio[k][p] : NULL, &b->eth.prio[k][p], dt);
		out_obj_close(o);
	}
	out_arr_close(o);
	for (int k = 0; k < ROCE_PORT_NCTRS; k++)
		ctr_out(o, PRINT_JSON, port_keys[k], a ? &a->eth.port[k] : NULL, &b->eth.port[k], dt);
	out_obj_close(o);
}

/* One RoCE port's chain (b), with rates against its previous sample (a, NULL: none). */
static void port_out(struct out *o, const struct roce_port *a, const struct roce_port *b, double dt)
{
	struct roce_tc tc;

	roce_tc_of(b, &tc);
	out_obj_open(o, NULL);
	out_str(o, PRINT_ANY, "device", b->dev, "%s", b->dev);
	out_uint(o, PRINT_ANY, "port", b->port, " port %u", b->port);
	out_str_or_null(o, PRINT_ANY, "netdev", b->netdev, "  netdev %s", b->netdev[0] ? b->netdev : "-");
	out_bool(o, PRINT_ANY, "recorded", b->recorded, "%s\n", b->recorded ? "  (recorded answers)" : "");
	dcb_out(o, b);
	if (b->tos.known)
		out_uint(o, PRINT_ANY, "default_roce_tos", b->tos.value, "  rdma_cm default_roce_tos %u (DSCP %d)",
			 b->tos.value, tc.dscp);
	else
		out_null(o, PRINT_ANY, "default_roce_tos", "  rdma_cm default_roce_tos unknown");
	u64_or_null_json(o, "rdma_dscp", tc.dscp);
	u64_or_null_json(o, "rdma_priority", tc.prio);
	if (tc.prio >= 0)
		out_printf(o, " -> priority %d", tc.prio);
	else if (tc.dscp >= 0 && !b->dcb.err)
		out_printf(o, " -> no APP entry for DSCP %d", tc.dscp);
	out_str_or_null(o, PRINT_ANY, "roce_mode", b->roce_mode, "; RoCE mode %s\n",
			b->roce_mode[0] ? b->roce_mode : "unknown");
	ecn_out(o, b);
	ethtool_out(o, a, b, &tc, dt);
	out_printf(o, "  RDMA congestion (hw_counters):");
	out_obj_open(o, "congestion");
	for (int r = 0; r < ROCE_CC_NROLES; r++)
		ctr_out(o, PRINT_ANY, roce_cc_role_key((enum roce_cc_role)r), a ? &a->cc[r] : NULL, &b->cc[r], dt);
	out_obj_close(o);
	out_printf(o, "\n");
	out_obj_close(o);
}

static void finding_out(struct out *o, const struct doctor_finding *x)
{
	const char *sev = doctor_severity_str(x->severity);

	out_obj_open(o, NULL);
	out_uint(o, PRINT_JSON, "id", (uint64_t)x->id, NULL);
	out_str(o, PRINT_JSON, "code", x->code, NULL);
	out_str(o, PRINT_ANY, "severity", sev, "[%s] finding %d (%s): ", sev, (int)x->id, x->code);
	out_str_or_null(o, PRINT_JSON, "interface", x->ifname, NULL);
	out_str_or_null(o, PRINT_JSON, "device", x->device, NULL);
	out_uint(o, PRINT_JSON, "port", x->port, NULL);
	doctor_finding_story(o, x, false);
	out_obj_close(o);
}

/* "PFC: not checked on enp1s0f0 (DCB netlink: Operation not supported)" */
void roce_gap_out(struct out *o, const struct roce_gap *g)
{
	out_obj_open(o, NULL);
	out_str(o, PRINT_JSON, "check", g->check, NULL);
	out_str(o, PRINT_ANY, "what", g->what, "  %s: not checked", g->what);
	out_str_or_null(o, PRINT_JSON, "device", g->dev, NULL);
	if (g->dev[0])
		out_uint(o, PRINT_JSON, "port", g->port, NULL);
	else
		out_null(o, PRINT_JSON, "port", NULL);
	out_str_or_null(o, PRINT_JSON, "netdev", g->netdev, NULL);
	if (g->netdev[0])
		out_printf(o, " on %s", g->netdev);
	else if (g->dev[0])
		out_printf(o, " on %s port %u", g->dev, g->port);
	out_str(o, PRINT_ANY, "reason", g->reason, " (%s)\n", g->reason);
	out_int(o, PRINT_JSON, "errno", -g->err, NULL);
	out_arr_open(o, "findings");
	for (size_t k = 0; k < ROCE_GAP_CODES && g->codes[k]; k++)
		out_str(o, PRINT_JSON, NULL, g->codes[k], NULL);
	out_arr_close(o);
	out_obj_close(o);
}

void roce_report(struct out *o, const struct roce_state *prev, const struct roce_state *cur,
		 const struct doctor_finding *fs, size_t nfs, const struct roce_gap *gaps, size_t ngaps)
{
	double dt = dt_of(prev, cur);

	/* JSON keeps its (empty) arrays; text says why there is nothing */
	if (!cur->nports && !out_is_json(o)) {
		out_printf(o, "No RoCE ports (Ethernet link layer).\n");
		return;
	}
	if (prev && dt > 0)
		out_float(o, PRINT_ANY, "interval_s", dt, 3, "Rates over %.1f s.\n", dt);
	else
		out_null(o, PRINT_JSON, "interval_s", NULL);
	out_arr_open(o, "roce_ports");
	for (size_t i = 0; i < cur->nports; i++) {
		if (i)
			out_printf(o, "\n");
		port_out(o, prev ? match(prev, &cur->ports[i]) : NULL, &cur->ports[i], dt);
	}
	out_arr_close(o);
	out_printf(o, "\n");
	out_arr_open(o, "findings");
	for (size_t i = 0; i < nfs; i++)
		finding_out(o, &fs[i]);
	out_arr_close(o);
	/* A check that could not run found nothing, which is not the same as nothing wrong. */
	if (ngaps)
		out_printf(o, "%sNot checked:\n", nfs ? "\n" : "");
	out_arr_open(o, "not_checked");
	for (size_t i = 0; i < ngaps; i++)
		roce_gap_out(o, &gaps[i]);
	out_arr_close(o);
	if (!nfs && !ngaps)
		out_printf(o, "No problems found in the lossless chain.\n");
	else if (!nfs)
		out_printf(o, "No problems found by the checks that ran; %zu could not run (above).\n", ngaps);
}
