// SPDX-License-Identifier: GPL-2.0-or-later
/* Findings about the RoCE lossless chain: cause, evidence and fix as text, never applied. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "derive/roce_check.h"
#include "derive/roce_ctr.h"
#include "util.h"

void roce_tc_of(const struct roce_port *rp, struct roce_tc *tc)
{
	tc->dscp = rp->tos.known ? (int)(rp->tos.value >> 2) : -1;
	tc->prio = tc->dscp >= 0 && !rp->dcb.err ? roce_dcb_dscp_prio(&rp->dcb, (unsigned int)tc->dscp) : -1;
	tc->dscp_trusted = false;
	if (rp->dcb.err)
		return;
	if (rp->dcb.has_trust && rp->dcb.ntrust)
		tc->dscp_trusted = rp->dcb.trust[0] == ROCE_APP_SEL_DSCP;
	else
		for (unsigned int i = 0; i < rp->dcb.napps && i < ROCE_MAX_APPS; i++)
			if (rp->dcb.apps[i].selector == ROCE_APP_SEL_DSCP)
				tc->dscp_trusted = true;
}

static void prio_list(char *buf, size_t len, uint8_t bits)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int p = 0; p < ROCE_PRIOS && o < len; p++)
		if (bits & (1u << p))
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", p);
	if (!bits)
		snprintf(buf, len, "none");
}

/*
 * What each check needs, and in words why it cannot run when that is
 * missing (NULL: it runs). *err is the -errno of a read that failed.
 */
static const char *dcb_why(const struct roce_port *rp, int *err, char *buf, size_t len)
{
	if (!rp->dcb.err)
		return NULL;
	*err = rp->dcb.err;
	snprintf(buf, len, "DCB netlink: %s", strerror(-rp->dcb.err));
	return buf;
}

/* RDMA's priority: the DSCP of default_roce_tos through the APP table. */
static const char *prio_why(const struct roce_port *rp, int *err, char *buf, size_t len)
{
	struct roce_tc tc;

	if (dcb_why(rp, err, buf, len))
		return buf;
	if (!rp->tos.known)
		return "rdma_cm default_roce_tos unknown: RDMA's priority unknown";
	roce_tc_of(rp, &tc);
	if (tc.prio < 0) {
		snprintf(buf, len, "no APP entry maps RDMA's DSCP %d to a priority", tc.dscp);
		return buf;
	}
	return NULL;
}

static const char *pfc_why(const struct roce_port *rp, int *err, char *buf, size_t len)
{
	if (dcb_why(rp, err, buf, len))
		return buf;
	if (!rp->dcb.has_pfc)
		return "DCB netlink answered without PFC";
	return prio_why(rp, err, buf, len);
}

static const char *trust_why(const struct roce_port *rp, int *err, char *buf, size_t len)
{
	if (dcb_why(rp, err, buf, len))
		return buf;
	return rp->tos.known ? NULL : "rdma_cm default_roce_tos unknown";
}

static const char *dcqcn_why(const struct roce_port *rp, int *err, char *buf, size_t len)
{
	struct roce_tc tc;
	const char *why = prio_why(rp, err, buf, len);

	/* prio_why() answers with buf or with a constant: return what it said, not buf */
	if (why)
		return why;
	if (!rp->ecn.known) {
		snprintf(buf, len, "no /sys/class/net/%s/ecn: only MLNX_OFED's mlx5 shows the enables", rp->netdev);
		return buf;
	}
	roce_tc_of(rp, &tc);
	if (!rp->ecn.np_known[tc.prio] && !rp->ecn.rp_known[tc.prio]) {
		snprintf(buf, len, "ecn/ shows no enable for priority %d", tc.prio);
		return buf;
	}
	return NULL;
}

static const char *mode_why(const struct roce_port *rp, int *err, char *buf, size_t len)
{
	(void)err, (void)buf, (void)len;
	return rp->roce_mode[0] ? NULL : "rdma_cm default_roce_mode unknown: configfs not mounted, or no rdma_cm there";
}

static const char *pause_why(const struct roce_port *rp, int *err, char *buf, size_t len)
{
	if (rp->eth.err) {
		*err = rp->eth.err;
		snprintf(buf, len, "ethtool statistics: %s", strerror(-rp->eth.err));
		return buf;
	}
	for (int p = 0; p < ROCE_PRIOS; p++)
		if (rp->eth.prio[ROCE_PRIO_RX_PAUSE_US][p].known || rp->eth.prio[ROCE_PRIO_TX_PAUSE_US][p].known)
			return NULL;
	return "the driver counts no pause time per priority";
}

static const char *ecn_cnp_why(const struct roce_port *rp, int *err, char *buf, size_t len)
{
	(void)err, (void)buf, (void)len;
	return rp->cc[ROCE_CC_ECN_MARKED].known && rp->cc[ROCE_CC_CNP_SENT].known ? NULL :
	       "hw_counters has no ECN-marked or no CNP-sent counter";
}

static const char *cnp_ignored_why(const struct roce_port *rp, int *err, char *buf, size_t len)
{
	(void)err, (void)buf, (void)len;
	return rp->cc[ROCE_CC_CNP_IGNORED].known ? NULL : "hw_counters has no CNP-ignored counter";
}

static const char *oob_why(const struct roce_port *rp, int *err, char *buf, size_t len)
{
	(void)err, (void)buf, (void)len;
	return rp->cc[ROCE_CC_OUT_OF_BUFFER].known ? NULL : "hw_counters has no out_of_buffer counter";
}

static const struct roce_need {
	const char *check;
	const char *what;
	const char *codes[ROCE_GAP_CODES];
	bool rates;		/* needs two samples */
	const char *(*why_not)(const struct roce_port *rp, int *err, char *buf, size_t len);
} needs[] = {
	{ "pfc", "PFC", { "roce-lossy", "roce-pfc-unused" }, false, pfc_why },
	{ "dscp-trust", "default_roce_tos against DSCP trust", { "roce-tos-unset" }, false, trust_why },
	{ "dcqcn", "DCQCN enables", { "roce-ecn-off" }, false, dcqcn_why },
	{ "roce-mode", "RoCE mode", { "roce-v1-forced" }, false, mode_why },
	{ "pause-storm", "pause storms", { "roce-pause-storm" }, true, pause_why },
	{ "ecn-cnp", "ECN marks against CNPs sent", { "roce-ecn-no-cnp" }, true, ecn_cnp_why },
	{ "cnp-ignored", "CNPs ignored", { "roce-cnp-ignored" }, true, cnp_ignored_why },
	{ "out-of-buffer", "out_of_buffer drops", { "roce-out-of-buffer" }, true, oob_why },
};

static struct roce_gap *gap_add(struct roce_gap *out, size_t cap, size_t *n)
{
	struct roce_gap *g = *n < cap ? &out[*n] : NULL;

	(*n)++;
	if (g)
		memset(g, 0, sizeof(*g));
	return g;
}

size_t roce_gaps(const struct roce_state *prev, const struct roce_state *cur, struct roce_gap *out, size_t cap)
{
	bool rates = prev && cur->t_ns > prev->t_ns;
	size_t n = 0;

	for (size_t i = 0; i < cur->nports; i++) {
		const struct roce_port *rp = &cur->ports[i];

		for (size_t k = 0; k < ARRAY_SIZE(needs); k++) {
			char buf[sizeof(out->reason)];
			const char *why;
			struct roce_gap *g;
			int err = 0;

			if (needs[k].rates && !rates)
				continue;
			why = needs[k].why_not(rp, &err, buf, sizeof(buf));
			if (!why || !(g = gap_add(out, cap, &n)))
				continue;
			g->check = needs[k].check;
			g->what = needs[k].what;
			memcpy(g->codes, needs[k].codes, sizeof(g->codes));
			snprintf(g->dev, sizeof(g->dev), "%s", rp->dev);
			g->port = rp->port;
			snprintf(g->netdev, sizeof(g->netdev), "%s", rp->netdev);
			g->err = err;
			snprintf(g->reason, sizeof(g->reason), "%s", why);
		}
	}
	/* One sample has no rates: every rate check, once for the whole report. */
	if (!rates && cur->nports) {
		struct roce_gap *g = gap_add(out, cap, &n);

		if (g) {
			g->check = "rates";
			g->what = "rate checks (pause storms, ECN and CNPs, out_of_buffer, sequence errors)";
			snprintf(g->reason, sizeof(g->reason), "one sample: --count 1 or more takes a second");
		}
	}
	return n;
}

/* The configuration, one sample. */
static void check_config(struct doctor_sink *o, const struct roce_port *rp)
{
	struct roce_tc tc;
	char on[32];

	roce_tc_of(rp, &tc);
	if (!rp->dcb.err && rp->dcb.has_pfc)
		prio_list(on, sizeof(on), rp->dcb.pfc_en);
	else
		snprintf(on, sizeof(on), "unknown");

	if (tc.prio >= 0 && rp->dcb.has_pfc && !(rp->dcb.pfc_en & (1u << tc.prio))) {
		doctor_sink_add(o, DOCTOR_ROCE_CHAIN, "roce-lossy", DOCTOR_ERROR, rp->netdev, rp->dev, rp->port,
				"RoCE traffic of %s port %u lands on priority %d, which has no PFC (lossy RoCE)",
		    rp->dev, rp->port, tc.prio);
		doctor_cause(o->cur, "The RDMA CM marks connections with DSCP %d; %s maps that DSCP to priority %d, and PFC "
		      "is not enabled there: under congestion the switch drops RoCE packets instead of pausing, "
		      "and every drop costs a go-back-N retransmission.", tc.dscp, rp->netdev, tc.prio);
		doctor_evidence(o->cur, "rdma_cm %s/ports/%u/default_roce_tos = %u (DSCP %d)", rp->dev, rp->port, rp->tos.value, tc.dscp);
		doctor_evidence(o->cur, "APP table of %s: DSCP %d -> priority %d", rp->netdev, tc.dscp, tc.prio);
		doctor_evidence(o->cur, "PFC enabled on priorities: %s", on);
		doctor_fix(o->cur, "dcb pfc set dev %s prio-pfc %d:on", rp->netdev, tc.prio);
		doctor_fix(o->cur, "or mark RDMA with a DSCP whose priority has PFC: echo TOS > /sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos",
		    rp->dev, rp->port);
		doctor_fix(o->cur, "(the switch ports must pause the same priority)");
	}
	if (tc.prio >= 0 && rp->dcb.has_pfc && (rp->dcb.pfc_en & ~(1u << tc.prio))) {
		char other[32];

		prio_list(other, sizeof(other), rp->dcb.pfc_en & (uint8_t)~(1u << tc.prio));
		doctor_sink_add(o, DOCTOR_ROCE_CHAIN, "roce-pfc-unused", DOCTOR_INFO, rp->netdev, rp->dev, rp->port,
				"PFC on priority %s of %s, which carries no RDMA traffic",
		    other, rp->netdev);
		doctor_cause(o->cur, "PFC pauses a whole priority. On a priority that RDMA does not use, pauses hold up "
		      "lossy traffic (TCP) that would rather drop, and a pause storm there can spread.");
		doctor_evidence(o->cur, "RDMA lands on priority %d (DSCP %d); PFC enabled on priorities: %s", tc.prio, tc.dscp, on);
		doctor_fix(o->cur, "dcb pfc set dev %s prio-pfc %s:off   (if nothing lossless uses it)", rp->netdev, other);
	}
	if (rp->tos.known && rp->tos.value == 0 && tc.dscp_trusted) {
		int p0 = roce_dcb_dscp_prio(&rp->dcb, 0);

		doctor_sink_add(o, DOCTOR_ROCE_CHAIN, "roce-tos-unset", DOCTOR_WARNING, rp->netdev, rp->dev, rp->port,
		    "default_roce_tos of %s port %u is unset while %s classifies by DSCP", rp->dev, rp->port, rp->netdev);
		doctor_cause(o->cur, "RDMA CM connections then carry DSCP 0, which lands on %s%d rather than on the "
		      "lossless priority the network was set up for.", p0 >= 0 ? "priority " : "the default priority ",
		      p0 >= 0 ? p0 : 0);
		doctor_evidence(o->cur, "rdma_cm %s/ports/%u/default_roce_tos = 0", rp->dev, rp->port);
		doctor_evidence(o->cur, "%s trusts DSCP (trust order or DSCP APP entries: %u APP entries)", rp->netdev, rp->dcb.napps);
		doctor_fix(o->cur, "echo TOS > /sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos   (TOS = DSCP * 4, e.g. 104 for DSCP 26)",
		    rp->dev, rp->port);
		doctor_fix(o->cur, "(applications that set their own traffic class, e.g. NCCL_IB_TC, are not affected)");
	}
	/* DCQCN off where RDMA lands: marks are never turned into CNPs, or CNPs never slow the sender. */
	if (tc.prio >= 0 && rp->ecn.known &&
	    ((rp->ecn.np_known[tc.prio] && !rp->ecn.np[tc.prio]) || (rp->ecn.rp_known[tc.prio] && !rp->ecn.rp[tc.prio]))) {
		bool np_off = rp->ecn.np_known[tc.prio] && !rp->ecn.np[tc.prio];
		bool rp_off = rp->ecn.rp_known[tc.prio] && !rp->ecn.rp[tc.prio];

		doctor_sink_add(o, DOCTOR_ROCE_CHAIN, "roce-ecn-off", DOCTOR_WARNING, rp->netdev, rp->dev, rp->port,
				"ECN congestion control (DCQCN) is off for RoCE's priority %d on %s: %s",
		    tc.prio, rp->netdev, np_off && rp_off ? "notification and reaction points" :
		    np_off ? "notification point" : "reaction point");
		doctor_cause(o->cur, "With the %s off, ECN marks from the switches %s: congestion on priority %d is handled "
		      "by PFC pauses alone, which spread upstream, or by drops.",
		      np_off && rp_off ? "notification and reaction points" : np_off ? "notification point" : "reaction point",
		      np_off && rp_off ? "neither become CNPs nor slow anyone" :
		      np_off ? "never become CNPs to the senders" : "reach this host as CNPs but never lower its rate",
		      tc.prio);
		if (rp->ecn.np_known[tc.prio])
			doctor_evidence(o->cur, "/sys/class/net/%s/ecn/roce_np/enable/%d = %d", rp->netdev, tc.prio, rp->ecn.np[tc.prio]);
		if (rp->ecn.rp_known[tc.prio])
			doctor_evidence(o->cur, "/sys/class/net/%s/ecn/roce_rp/enable/%d = %d", rp->netdev, tc.prio, rp->ecn.rp[tc.prio]);
		doctor_evidence(o->cur, "RDMA lands on priority %d (DSCP %d)", tc.prio, tc.dscp);
		if (np_off)
			doctor_fix(o->cur, "echo 1 > /sys/class/net/%s/ecn/roce_np/enable/%d", rp->netdev, tc.prio);
		if (rp_off)
			doctor_fix(o->cur, "echo 1 > /sys/class/net/%s/ecn/roce_rp/enable/%d", rp->netdev, tc.prio);
		doctor_fix(o->cur, "(the switches must ECN-mark that priority for DCQCN to act)");
	}
	if (!strcmp(rp->roce_mode, "IB/RoCE v1") && rp->has_v2_gids) {
		doctor_sink_add(o, DOCTOR_ROCE_CHAIN, "roce-v1-forced", DOCTOR_WARNING, rp->netdev, rp->dev, rp->port,
				"RoCE v1 forced for RDMA CM on %s port %u", rp->dev, rp->port);
		doctor_cause(o->cur, "RoCE v1 is an Ethernet (layer 2) protocol: its packets do not cross an IP router, "
		      "carry no DSCP and no ECN. Where the fabric routes (L3, leaf-spine), connections fail "
		      "or lose congestion control; the port has RoCE v2 GIDs.");
		doctor_evidence(o->cur, "rdma_cm %s/ports/%u/default_roce_mode = IB/RoCE v1", rp->dev, rp->port);
		doctor_fix(o->cur, "echo \"RoCE v2\" > /sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_mode", rp->dev, rp->port);
	}
}

double roce_pause_share(const struct roce_ctr *a, const struct roce_ctr *b, double dt_s)
{
	if (!a->known || !b->known || dt_s <= 0 || b->value < a->value)
		return -1;
	return (double)(b->value - a->value) / (dt_s * 1e6);
}

static bool moved(const struct roce_ctr *a, const struct roce_ctr *b, uint64_t *d)
{
	if (!a->known || !b->known || b->value < a->value)
		return false;
	*d = b->value - a->value;
	return *d > 0;
}

/*
 * Sequence errors climbing while PFC could not be read: the symptom of a
 * lossy RoCE priority, named as such, since the check that would give the
 * cause (roce-lossy) could not run.
 */
static void check_loss_unexplained(struct doctor_sink *o, const struct roce_port *a, const struct roce_port *b,
				   double dt)
{
	uint64_t oos = 0, pse = 0;
	bool m_oos = moved(&a->cc[ROCE_CC_OUT_OF_SEQUENCE], &b->cc[ROCE_CC_OUT_OF_SEQUENCE], &oos);
	bool m_pse = moved(&a->cc[ROCE_CC_PACKET_SEQ_ERR], &b->cc[ROCE_CC_PACKET_SEQ_ERR], &pse);
	const char *nd = b->netdev[0] ? b->netdev : b->dev;
	char buf[160];
	const char *why;
	int err = 0;

	if (!m_oos && !m_pse)
		return;
	why = pfc_why(b, &err, buf, sizeof(buf));
	if (!why)
		return;
	doctor_sink_add(o, DOCTOR_ROCE_CHAIN, "roce-loss-pfc-unknown", DOCTOR_WARNING, b->netdev, b->dev, b->port,
	    "%s port %u loses RoCE packets (sequence errors climb) and its PFC could not be checked", b->dev, b->port);
	doctor_cause(o->cur, "out_of_sequence counts packets this port received after a gap in their sequence (packets to it "
	      "were lost), packet_seq_err the sequence-error NAKs it received (packets it sent were lost); "
	      "each loss costs a go-back-N retransmission. On a lossless fabric the usual cause is RDMA "
	      "traffic on a priority without PFC, here or at a switch port, but that could not be checked "
	      "here: this is the symptom, not yet its cause.");
	if (b->cc[ROCE_CC_OUT_OF_SEQUENCE].known)
		doctor_evidence(o->cur, "out_of_sequence +%llu in %.1f s", (unsigned long long)oos, dt);
	if (b->cc[ROCE_CC_PACKET_SEQ_ERR].known)
		doctor_evidence(o->cur, "packet_seq_err +%llu in %.1f s", (unsigned long long)pse, dt);
	doctor_evidence(o->cur, "PFC: not checked on %s (%s)", nd, why);
	doctor_fix(o->cur, "read PFC by hand: dcb pfc show dev %s (or the NIC vendor's tool, e.g. mlnx_qos -i %s)", nd, nd);
	doctor_fix(o->cur, "check that the switch ports pause RDMA's priority, and the link's own errors (symbol errors, FEC, the cable)");
}

/* What two samples say: pause time, the ECN/CNP loop, buffers. */
static void check_rates(struct doctor_sink *o, const struct roce_port *a, const struct roce_port *b, double dt)
{
	uint64_t d, d2;

	for (int p = 0; p < ROCE_PRIOS; p++) {
		double rx = roce_pause_share(&a->eth.prio[ROCE_PRIO_RX_PAUSE_US][p], &b->eth.prio[ROCE_PRIO_RX_PAUSE_US][p], dt);
		double tx = roce_pause_share(&a->eth.prio[ROCE_PRIO_TX_PAUSE_US][p], &b->eth.prio[ROCE_PRIO_TX_PAUSE_US][p], dt);

		if (rx < ROCE_PAUSE_STORM_SHARE && tx < ROCE_PAUSE_STORM_SHARE)
			continue;
		doctor_sink_add(o, DOCTOR_ROCE_CHAIN, "roce-pause-storm", DOCTOR_ERROR, b->netdev, b->dev, b->port,
				"Pause storm on %s priority %d: %s %.0f%% of %.1f s",
		    b->netdev, p, rx >= tx ? "paused by the peer" : "pausing the peer", 100 * (rx >= tx ? rx : tx), dt);
		doctor_cause(o->cur, "A priority paused nearly all the time moves next to nothing: a receiver that cannot "
		      "drain (a stuck host, a full buffer) holds the link, and pauses spread upstream to "
		      "every sender of that priority.");
		doctor_evidence(o->cur, "priority %d: rx pause %.0f%%, tx pause %.0f%% of the interval", p, rx < 0 ? 0 : 100 * rx,
		   tx < 0 ? 0 : 100 * tx);
		if (moved(&a->eth.port[ROCE_PORT_PAUSE_STORM_WARN], &b->eth.port[ROCE_PORT_PAUSE_STORM_WARN], &d))
			doctor_evidence(o->cur, "tx_pause_storm_warning_events +%llu", (unsigned long long)d);
		doctor_fix(o->cur, "find the host or switch port that does not drain: rx pause comes from the peer, tx pause from this host");
		doctor_fix(o->cur, "check out_of_buffer and the receiving application; on mlx5 the PFC storm guard is "
		    "ethtool --set-tunable %s pfc-prevention-tout MS", b->netdev);
	}
	if (moved(&a->cc[ROCE_CC_ECN_MARKED], &b->cc[ROCE_CC_ECN_MARKED], &d) &&
	    b->cc[ROCE_CC_CNP_SENT].known && !moved(&a->cc[ROCE_CC_CNP_SENT], &b->cc[ROCE_CC_CNP_SENT], &d2)) {
		doctor_sink_add(o, DOCTOR_ROCE_CHAIN, "roce-ecn-no-cnp", DOCTOR_WARNING, b->netdev, b->dev, b->port,
				"%s port %u receives ECN-marked packets but sends no CNPs",
		    b->dev, b->port);
		doctor_cause(o->cur, "The notification point is off: the switches mark congestion, but this host does not "
		      "tell the senders, so they never slow down and the switch queues go on to PFC or drops.");
		doctor_evidence(o->cur, "ECN-marked RoCE packets +%llu, CNPs sent +0 in %.1f s", (unsigned long long)d, dt);
		doctor_fix(o->cur, "enable the notification point for the RDMA priority; MLNX_OFED's mlx5: "
		    "echo 1 > /sys/class/net/%s/ecn/roce_np/enable/PRIO (doc/roce.md)", b->netdev);
	}
	if (moved(&a->cc[ROCE_CC_CNP_IGNORED], &b->cc[ROCE_CC_CNP_IGNORED], &d)) {
		doctor_sink_add(o, DOCTOR_ROCE_CHAIN, "roce-cnp-ignored", DOCTOR_WARNING, b->netdev, b->dev, b->port,
				"%s port %u receives CNPs and ignores them", b->dev, b->port);
		doctor_cause(o->cur, "The reaction point is off: peers report congestion, but this host does not lower its "
		      "rate, so the congestion it causes persists.");
		doctor_evidence(o->cur, "CNPs ignored +%llu in %.1f s", (unsigned long long)d, dt);
		if (moved(&a->cc[ROCE_CC_CNP_HANDLED], &b->cc[ROCE_CC_CNP_HANDLED], &d2))
			doctor_evidence(o->cur, "CNPs handled +%llu", (unsigned long long)d2);
		doctor_fix(o->cur, "enable the reaction point for the RDMA priority; MLNX_OFED's mlx5: "
		    "echo 1 > /sys/class/net/%s/ecn/roce_rp/enable/PRIO (doc/roce.md)", b->netdev);
	}
	check_loss_unexplained(o, a, b, dt);
	if (moved(&a->cc[ROCE_CC_OUT_OF_BUFFER], &b->cc[ROCE_CC_OUT_OF_BUFFER], &d)) {
		doctor_sink_add(o, DOCTOR_ROCE_CHAIN, "roce-out-of-buffer", DOCTOR_WARNING, b->netdev, b->dev, b->port,
				"%s port %u drops packets for want of receive buffers",
		    b->dev, b->port);
		doctor_cause(o->cur, "out_of_buffer counts packets that arrived when the receive queue had no work request "
		      "posted: the application posts receives too slowly (or too few), and the sender retries.");
		doctor_evidence(o->cur, "out_of_buffer +%llu in %.1f s", (unsigned long long)d, dt);
		doctor_fix(o->cur, "post more receive WQEs (a larger RQ/SRQ), or consume completions faster");
	}
}

size_t roce_check(const struct roce_state *prev, const struct roce_state *cur,
		  struct doctor_finding *out, size_t cap)
{
	struct doctor_sink o = { .out = out, .cap = cap };
	double dt = prev && cur->t_ns > prev->t_ns ? (double)(cur->t_ns - prev->t_ns) / 1e9 : 0;

	for (size_t i = 0; i < cur->nports; i++) {
		const struct roce_port *b = &cur->ports[i];

		check_config(&o, b);
		for (size_t k = 0; prev && dt > 0 && k < prev->nports; k++)
			if (!strcmp(prev->ports[k].dev, b->dev) && prev->ports[k].port == b->port)
				check_rates(&o, &prev->ports[k], b, dt);
	}
	return o.n;
}
