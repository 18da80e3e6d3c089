// SPDX-License-Identifier: GPL-2.0-or-later
/* What show roce could not check (roce_gaps) and the loss it cannot explain (roce-loss-pfc-unknown). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "../unit/tap.h"
#include "derive/roce_check.h"
#include "derive/roce_ctr.h"
#include "util.h"

#define S 1000000000ull

static size_t count_code(const struct doctor_finding *fs, size_t n, const char *code)
{
	size_t c = 0;

	for (size_t i = 0; i < n && i < 16; i++)
		c += !strcmp(fs[i].code, code);
	return c;
}

static const struct roce_gap *find_gap(const struct roce_gap *g, size_t n, const char *check)
{
	for (size_t i = 0; i < n && i < 16; i++)
		if (!strcmp(g[i].check, check))
			return &g[i];
	return NULL;
}

static void ctr(struct roce_ctr *c, uint64_t v)
{
	c->known = true;
	c->value = v;
}

/* A port set up right: DSCP 26 -> priority 3, PFC on 3, DCQCN on 3, every counter of the checks there. */
static void port_ok(struct roce_port *rp)
{
	memset(rp, 0, sizeof(*rp));
	snprintf(rp->dev, sizeof(rp->dev), "mlx5_0");
	rp->port = 1;
	snprintf(rp->netdev, sizeof(rp->netdev), "eth0");
	rp->dcb.has_pfc = rp->dcb.has_ets = true;
	rp->dcb.pfc_en = 1u << 3;
	rp->dcb.apps[0] = (struct roce_app){ .selector = ROCE_APP_SEL_DSCP, .priority = 3, .protocol = 26 };
	rp->dcb.napps = 1;
	rp->tos.known = true;
	rp->tos.value = 104;
	snprintf(rp->roce_mode, sizeof(rp->roce_mode), "RoCE v2");
	rp->ecn.known = rp->ecn.np_known[3] = rp->ecn.rp_known[3] = rp->ecn.np[3] = rp->ecn.rp[3] = true;
	ctr(&rp->eth.prio[ROCE_PRIO_RX_PAUSE_US][3], 0);
	ctr(&rp->eth.prio[ROCE_PRIO_TX_PAUSE_US][3], 0);
	for (int r = 0; r < ROCE_CC_NROLES; r++)
		ctr(&rp->cc[r], 0);
}

/* Two samples a second apart of one port: a before, b after. */
struct two {
	struct roce_port a, b;
	struct roce_state sa, sb;
	struct doctor_finding fs[16];
	struct roce_gap gaps[16];
	size_t nfs, ngaps;
};

static void run(struct two *t)
{
	t->sa = (struct roce_state){ .ports = &t->a, .nports = 1, .t_ns = 1 * S };
	t->sb = (struct roce_state){ .ports = &t->b, .nports = 1, .t_ns = 2 * S };
	t->nfs = roce_check(&t->sa, &t->sb, t->fs, ARRAY_SIZE(t->fs));
	t->ngaps = roce_gaps(&t->sa, &t->sb, t->gaps, ARRAY_SIZE(t->gaps));
}

int main(void)
{
	static struct two t;
	const struct roce_gap *g;

	/* Everything readable and quiet: nothing found, nothing left unchecked. */
	port_ok(&t.a);
	port_ok(&t.b);
	run(&t);
	ASSERT_EQ_U64(t.nfs, 0, "a port set up right: no findings");
	ASSERT_EQ_U64(t.ngaps, 0, "... and every check ran");

	/* One sample: the rate checks did not run, and that is said once. */
	t.sb = (struct roce_state){ .ports = &t.b, .nports = 1, .t_ns = 2 * S };
	t.ngaps = roce_gaps(NULL, &t.sb, t.gaps, ARRAY_SIZE(t.gaps));
	ASSERT_EQ_U64(t.ngaps, 1, "one sample: one gap");
	ASSERT_EQ_STR(t.ngaps ? t.gaps[0].check : "", "rates", "... the rate checks");
	ASSERT_EQ_STR(t.ngaps ? t.gaps[0].dev : "?", "", "... for the whole report");

	/* DCB unsupported: PFC, trust and DCQCN not checked, with the errno and the reason. */
	t.b.dcb.err = -EOPNOTSUPP;
	run(&t);
	g = find_gap(t.gaps, t.ngaps, "pfc");
	TAP_OK(g != NULL, "DCB EOPNOTSUPP: PFC is not checked");
	ASSERT_EQ_STR(g ? g->reason : "", "DCB netlink: Operation not supported", "... and says why, as strerror");
	ASSERT_EQ_INT(g ? g->err : 0, -EOPNOTSUPP, "... with the errno");
	ASSERT_EQ_STR(g ? g->netdev : "", "eth0", "... on the port's netdev");
	ASSERT_EQ_STR(g ? g->codes[0] : "", "roce-lossy", "... naming the finding it could not give");
	TAP_OK(find_gap(t.gaps, t.ngaps, "dscp-trust") && find_gap(t.gaps, t.ngaps, "dcqcn"),
	       "... nor the DSCP trust and DCQCN checks");
	TAP_OK(!find_gap(t.gaps, t.ngaps, "pause-storm") && !find_gap(t.gaps, t.ngaps, "roce-mode"),
	       "the checks that do not need DCB ran");
	ASSERT_EQ_U64(count_code(t.fs, t.nfs, "roce-loss-pfc-unknown"), 0, "no sequence errors: no symptom");

	/*
	 * DCB readable, default_roce_tos unknown: RDMA's priority is unknown,
	 * and the DCQCN check says so in the same words as PFC (its reason is
	 * the priority's, a constant; it once came back as whatever the buffer
	 * held).
	 */
	t.b.dcb.err = 0;
	t.b.tos.known = false;
	run(&t);
	g = find_gap(t.gaps, t.ngaps, "dcqcn");
	ASSERT_EQ_STR(g ? g->reason : "", "rdma_cm default_roce_tos unknown: RDMA's priority unknown",
		      "TOS unknown: DCQCN not checked, for RDMA's priority unknown");
	g = find_gap(t.gaps, t.ngaps, "pfc");
	ASSERT_EQ_STR(g ? g->reason : "", "rdma_cm default_roce_tos unknown: RDMA's priority unknown",
		      "... PFC the same");
	t.b.tos.known = true;
	t.b.dcb.err = -EOPNOTSUPP;

	/* The symptom: sequence errors climb while PFC is unknown; each counter alone is enough. */
	ctr(&t.b.cc[ROCE_CC_OUT_OF_SEQUENCE], 1);
	run(&t);
	ASSERT_EQ_U64(count_code(t.fs, t.nfs, "roce-loss-pfc-unknown"), 1, "out_of_sequence +1, DCB unknown: the symptom");
	ctr(&t.b.cc[ROCE_CC_OUT_OF_SEQUENCE], 0);
	ctr(&t.b.cc[ROCE_CC_PACKET_SEQ_ERR], 1);
	run(&t);
	ASSERT_EQ_U64(count_code(t.fs, t.nfs, "roce-loss-pfc-unknown"), 1, "packet_seq_err +1 alone: the symptom");
	if (t.nfs == 1) {
		ASSERT_EQ_STR(t.fs[0].evidence[t.fs[0].nevidence - 1], "PFC: not checked on eth0 (DCB netlink: Operation not supported)",
			      "... its evidence says what could not be checked and why");
		ASSERT_EQ_U64(t.fs[0].severity, DOCTOR_WARNING, "... a warning");
	}
	/* A counter that went down (reset) is no movement. */
	ctr(&t.a.cc[ROCE_CC_PACKET_SEQ_ERR], 5);
	run(&t);
	ASSERT_EQ_U64(count_code(t.fs, t.nfs, "roce-loss-pfc-unknown"), 0, "a counter that went back is not a climb");
	ctr(&t.a.cc[ROCE_CC_PACKET_SEQ_ERR], 0);

	/* PFC known: the same climb is not this symptom (a lossy priority would be roce-lossy). */
	t.b.dcb.err = 0;
	run(&t);
	ASSERT_EQ_U64(count_code(t.fs, t.nfs, "roce-loss-pfc-unknown"), 0, "PFC known: no symptom finding");
	ASSERT_EQ_U64(t.ngaps, 0, "... and nothing unchecked");

	/* DCB answered, but PFC not: still unknown. */
	t.b.dcb.has_pfc = false;
	run(&t);
	g = find_gap(t.gaps, t.ngaps, "pfc");
	ASSERT_EQ_STR(g ? g->reason : "", "DCB netlink answered without PFC", "DCB without PFC: PFC not checked");
	ASSERT_EQ_INT(g ? g->err : 1, 0, "... no errno: nothing failed");
	ASSERT_EQ_U64(count_code(t.fs, t.nfs, "roce-loss-pfc-unknown"), 1, "... and the climb is the symptom");
	t.b.dcb.has_pfc = true;

	/* RDMA's priority unknown: TOS unknown, or a DSCP the APP table does not map. */
	t.b.tos.known = false;
	run(&t);
	g = find_gap(t.gaps, t.ngaps, "pfc");
	ASSERT_EQ_STR(g ? g->reason : "", "rdma_cm default_roce_tos unknown: RDMA's priority unknown",
		      "TOS unknown: PFC for RDMA's priority not checked");
	t.b.tos.known = true;
	t.b.tos.value = 4 * 10;
	run(&t);
	g = find_gap(t.gaps, t.ngaps, "pfc");
	ASSERT_EQ_STR(g ? g->reason : "", "no APP entry maps RDMA's DSCP 10 to a priority", "DSCP without APP entry");
	t.b.tos.value = 104;

	/* The rate checks need their counters. */
	t.b.cc[ROCE_CC_PACKET_SEQ_ERR].value = 0;
	t.b.cc[ROCE_CC_OUT_OF_BUFFER].known = false;
	t.b.eth.err = -EOPNOTSUPP;
	run(&t);
	g = find_gap(t.gaps, t.ngaps, "pause-storm");
	ASSERT_EQ_STR(g ? g->reason : "", "ethtool statistics: Operation not supported", "no ethtool statistics: no pause check");
	TAP_OK(find_gap(t.gaps, t.ngaps, "out-of-buffer") != NULL, "no out_of_buffer counter: that check did not run");
	ASSERT_EQ_U64(t.ngaps, 2, "... and nothing else is said to be missing");
	return tap_done();
}
