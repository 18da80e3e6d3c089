// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the dcbnl parser on handmade answers: whole, truncated, corrupt, unknown attributes, errors. */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/dcb.h"
#include "kernel/dcb_parse.h"
#include "../unit/tap.h"

/* An answer as the kernel's dcbnl_ieee_fill() lays it out (shapes from linux/dcbnl.h). */
static struct nlmsghdr *answer(char *buf, bool with_unknown)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct dcbmsg *dm;
	struct ieee_ets ets;
	struct ieee_pfc pfc;
	struct nlattr *ieee, *apps, *trust;
	static const struct dcb_app app[] = {
		{ .selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 3, .protocol = 26 },
		{ .selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 6, .protocol = 48 },
		{ .selector = IEEE_8021QAZ_APP_SEL_ETHERTYPE, .priority = 3, .protocol = 0x8915 },
	};

	nlh->nlmsg_type = RTM_GETDCB;
	nlh->nlmsg_seq = 7;
	dm = mnl_nlmsg_put_extra_header(nlh, sizeof(*dm));
	dm->dcb_family = AF_UNSPEC;
	dm->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, "eth0");
	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	memset(&ets, 0, sizeof(ets));
	ets.ets_cap = 8;
	for (int p = 0; p < 8; p++)
		ets.prio_tc[p] = (uint8_t)p;
	ets.tc_tx_bw[0] = 50;
	ets.tc_tx_bw[3] = 50;
	ets.tc_tsa[0] = ets.tc_tsa[3] = IEEE_8021QAZ_TSA_ETS;
	mnl_attr_put(nlh, DCB_ATTR_IEEE_ETS, sizeof(ets), &ets);
	memset(&pfc, 0, sizeof(pfc));
	pfc.pfc_cap = 8;
	pfc.pfc_en = 1u << 3;
	pfc.delay = 32;
	pfc.requests[3] = 1000;
	pfc.indications[3] = 2000;
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	if (with_unknown)
		mnl_attr_put_u32(nlh, 60, 0xdeadbeef);	/* a future attribute */
	apps = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
	for (size_t i = 0; i < sizeof(app) / sizeof(app[0]); i++)
		mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(app[i]), &app[i]);
	mnl_attr_nest_end(nlh, apps);
	trust = mnl_attr_nest_start(nlh, DCB_ATTR_DCB_APP_TRUST_TABLE_NUM);
	mnl_attr_put_u8(nlh, DCB_ATTR_DCB_APP_TRUST_NUM, IEEE_8021QAZ_APP_SEL_DSCP);
	mnl_attr_put_u8(nlh, DCB_ATTR_DCB_APP_TRUST_NUM, ROCE_APP_SEL_PCP);
	mnl_attr_nest_end(nlh, trust);
	mnl_attr_nest_end(nlh, ieee);
	mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE);
	if (with_unknown)
		mnl_attr_put_u16(nlh, 40, 1);
	return nlh;
}

int main(void)
{
	static char buf[8192];
	struct roce_dcb d;
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;
	uint32_t full;
	int rc, bad = 0, crashed_not = 0;

	nlh = answer(buf, false);
	rc = dcb_parse_ieee(nlh, &d);
	ASSERT_EQ_INT(rc, 0, "a whole answer parses");
	TAP_OK(d.has_ets && d.has_pfc && d.has_dcbx && d.has_trust, "ETS, PFC, DCBX and trust seen (%d %d %d %d)",
	       d.has_ets, d.has_pfc, d.has_dcbx, d.has_trust);
	ASSERT_EQ_INT(d.pfc_en, 0x08, "PFC on priority 3 only");
	ASSERT_EQ_U64(d.pfc_indications[3], 2000, "PFC indications of priority 3");
	ASSERT_EQ_INT(d.prio_tc[3], 3, "priority 3 -> TC 3");
	ASSERT_EQ_INT(d.tc_tx_bw[3], 50, "TC 3 bandwidth");
	ASSERT_EQ_INT(d.napps, 3, "three APP entries");
	ASSERT_EQ_INT(roce_dcb_dscp_prio(&d, 26), 3, "DSCP 26 -> priority 3");
	ASSERT_EQ_INT(roce_dcb_dscp_prio(&d, 48), 6, "DSCP 48 -> priority 6");
	ASSERT_EQ_INT(roce_dcb_dscp_prio(&d, 0), -1, "DSCP 0 has no entry");
	ASSERT_EQ_INT(d.ntrust, 2, "trust order has two selectors");
	ASSERT_EQ_INT(d.trust[0], IEEE_8021QAZ_APP_SEL_DSCP, "DSCP trusted first");
	ASSERT_EQ_INT(d.dcbx, DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE, "DCBX mode");
	ASSERT_EQ_INT(d.unknown_attrs, 0, "nothing unknown");
	rc = dcb_parse_buf(buf, nlh->nlmsg_len, &d);
	ASSERT_EQ_INT(rc, 0, "the buffer form finds the answer");

	nlh = answer(buf, true);
	rc = dcb_parse_ieee(nlh, &d);
	TAP_OK(rc == 0 && d.unknown_attrs == 2 && d.pfc_en == 0x08,
	       "unknown attributes skipped and counted (rc %d, unknown %u)", rc, d.unknown_attrs);

	/* Every truncation of the message (nlmsg_len cut short) is rejected or still sane, never read past. */
	nlh = answer(buf, false);
	full = nlh->nlmsg_len;
	for (uint32_t n = NLMSG_HDRLEN; n < full; n++) {
		nlh->nlmsg_len = n;
		rc = dcb_parse_ieee(nlh, &d);
		if (rc == -EBADMSG)
			bad++;
		else if (rc == 0 && d.napps <= 3)
			crashed_not++;
	}
	nlh->nlmsg_len = full;
	TAP_OK(bad > 0 && bad + crashed_not == (int)(full - NLMSG_HDRLEN),
	       "truncations: %d rejected, %d parsed a prefix, of %u", bad, crashed_not, full - NLMSG_HDRLEN);

	/* A PFC attribute shorter than struct ieee_pfc: the message is rejected. */
	{
		struct nlmsghdr *m = mnl_nlmsg_put_header(buf);
		struct dcbmsg *dm = mnl_nlmsg_put_extra_header(m, sizeof(*dm));
		struct nlattr *ieee;
		uint8_t shortpfc[4] = { 8, 0x08, 0, 0 };

		m->nlmsg_type = RTM_GETDCB;
		dm->cmd = DCB_CMD_IEEE_GET;
		ieee = mnl_attr_nest_start(m, DCB_ATTR_IEEE);
		mnl_attr_put(m, DCB_ATTR_IEEE_PFC, sizeof(shortpfc), shortpfc);
		mnl_attr_nest_end(m, ieee);
		rc = dcb_parse_ieee(m, &d);
		ASSERT_EQ_INT(rc, -EBADMSG, "short PFC attribute rejected");
		TAP_OK(!d.has_pfc, "nothing kept from a rejected message");

		/* an attribute whose length runs past the message */
		m = answer(buf, false);
		((struct nlattr *)(void *)((char *)m + NLMSG_LENGTH(sizeof(struct dcbmsg))))->nla_len = 0xfff0;
		ASSERT_EQ_INT(dcb_parse_ieee(m, &d), -EBADMSG, "attribute longer than the message rejected");
		/* an attribute shorter than its header */
		m = answer(buf, false);
		((struct nlattr *)(void *)((char *)m + NLMSG_LENGTH(sizeof(struct dcbmsg))))->nla_len = 2;
		ASSERT_EQ_INT(dcb_parse_ieee(m, &d), -EBADMSG, "attribute shorter than its header rejected");
	}

	/* Another DCB command, another message type: not ours. */
	nlh = answer(buf, false);
	((struct dcbmsg *)mnl_nlmsg_get_payload(nlh))->cmd = DCB_CMD_GSTATE;
	ASSERT_EQ_INT(dcb_parse_ieee(nlh, &d), -ENOENT, "DCB_CMD_GSTATE is not an IEEE answer");
	nlh = answer(buf, false);
	nlh->nlmsg_type = RTM_NEWLINK;
	ASSERT_EQ_INT(dcb_parse_ieee(nlh, &d), -ENOENT, "RTM_NEWLINK is not ours");
	ASSERT_EQ_INT(dcb_parse_buf(buf, nlh->nlmsg_len, &d), -ENOENT, "a buffer without an answer");
	ASSERT_EQ_INT(dcb_parse_buf(buf, 3, &d), -EBADMSG, "a buffer shorter than a header");

	/* The kernel's "not supported" (a driver without dcbnl_ops), and a netdev that is not here. */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -EOPNOTSUPP;
	rc = dcb_parse_buf(buf, nlh->nlmsg_len, &d);
	TAP_OK(rc == 0 && d.err == -EOPNOTSUPP && !d.has_pfc, "EOPNOTSUPP is an answer: no DCB (rc %d err %d)", rc, d.err);
	ASSERT_CONTAINS(roce_dcb_err_str(d.err), "no DCB support", "and it reads so");
	e->error = -ENODEV;
	dcb_parse_buf(buf, nlh->nlmsg_len, &d);
	ASSERT_EQ_INT(d.err, -ENODEV, "ENODEV kept");
	nlh->nlmsg_len = NLMSG_HDRLEN + 2;
	ASSERT_EQ_INT(dcb_parse_ieee(nlh, &d), -EBADMSG, "truncated error message rejected");

	/* More APP entries than kept: counted, not overrun. */
	{
		struct nlmsghdr *m = mnl_nlmsg_put_header(buf);
		struct dcbmsg *dm = mnl_nlmsg_put_extra_header(m, sizeof(*dm));
		struct nlattr *ieee, *apps;

		m->nlmsg_type = RTM_GETDCB;
		dm->cmd = DCB_CMD_IEEE_GET;
		ieee = mnl_attr_nest_start(m, DCB_ATTR_IEEE);
		apps = mnl_attr_nest_start(m, DCB_ATTR_IEEE_APP_TABLE);
		for (unsigned int i = 0; i < ROCE_MAX_APPS + 20; i++) {
			struct dcb_app a = { .selector = 5, .priority = (uint8_t)(i & 7), .protocol = (uint16_t)(i & 63) };

			mnl_attr_put(m, DCB_ATTR_IEEE_APP, sizeof(a), &a);
		}
		mnl_attr_nest_end(m, apps);
		mnl_attr_nest_end(m, ieee);
		rc = dcb_parse_ieee(m, &d);
		TAP_OK(rc == 0 && d.napps == ROCE_MAX_APPS && d.apps_dropped == 20,
		       "a long APP table is capped (napps %u dropped %u)", d.napps, d.apps_dropped);
	}
	/* The fuzzer's seeds (tests/fuzz/roce_seeds.py) are the shapes the parser expects. */
	{
		const char *top = getenv("TOP_SRCDIR");
		char path[4096];
		static char seed[4096];
		FILE *f;
		size_t n = 0;

		snprintf(path, sizeof(path), "%s/tests/data/fuzz/roce/dcb_whole.bin", top ? top : ".");
		f = fopen(path, "rb");
		if (f) {
			n = fread(seed, 1, sizeof(seed), f);
			fclose(f);
		}
		if (n > 1) {
			memmove(seed, seed + 1, n - 1);	/* past the selector byte, aligned again */
			rc = dcb_parse_buf(seed, n - 1, &d);
			TAP_OK(rc == 0 && d.pfc_en == 0x08 && d.napps == 2 && d.ntrust == 1 && d.has_ets &&
			       d.pfc_indications[3] == 2000 && roce_dcb_dscp_prio(&d, 26) == 3,
			       "seed dcb_whole.bin parses (rc %d, pfc_en %#x, apps %u)", rc, d.pfc_en, d.napps);
		} else {
			TAP_SKIP("seed %s not readable", path);
		}
	}
	return tap_done();
}
