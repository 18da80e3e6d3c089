// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the ethtool statistics parser: the drivers' names, priorities, lengths, unterminated names. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "kernel/ethtool_nl_parse.h"
#include "kernel/ethtool_parse.h"
#include "../unit/tap.h"

#define N 16
#define FAMILY 27

/* A PAUSE_GET reply as ethnl lays it out (shapes from linux/ethtool_netlink.h). */
static struct nlmsghdr *pause_reply(char *buf, bool stats, bool unknown)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	struct nlattr *h, *s;

	nlh->nlmsg_type = FAMILY;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = ETHTOOL_MSG_PAUSE_GET_REPLY;
	g->version = ETHTOOL_GENL_VERSION;
	h = mnl_attr_nest_start(nlh, ETHTOOL_A_PAUSE_HEADER);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, "eth0");
	mnl_attr_nest_end(nlh, h);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_AUTONEG, 0);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_RX, 1);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_TX, 1);
	if (unknown)
		mnl_attr_put_u32(nlh, 40, 7);
	if (stats) {
		s = mnl_attr_nest_start(nlh, ETHTOOL_A_PAUSE_STATS);
		mnl_attr_put_u64(nlh, ETHTOOL_A_PAUSE_STAT_TX_FRAMES, 5);
		mnl_attr_put_u64(nlh, ETHTOOL_A_PAUSE_STAT_RX_FRAMES, 7);
		mnl_attr_nest_end(nlh, s);
	}
	return nlh;
}

static void nl_tests(void)
{
	static char buf[4096];
	struct roce_ethtool e;
	struct nlmsghdr *nlh;
	struct nlmsgerr *err;
	uint16_t id;
	uint32_t full;
	int rc, bad = 0, okp = 0;

	memset(&e, 0, sizeof(e));
	nlh = pause_reply(buf, true, true);
	rc = ethtool_nl_parse_pause(nlh, FAMILY, &e);
	TAP_OK(rc == 0 && e.pause_known && !e.pause_autoneg && e.pause_rx && e.pause_tx,
	       "PAUSE_GET reply: autoneg off, rx and tx on (rc %d)", rc);
	ASSERT_EQ_U64(e.port[ROCE_PORT_GLOBAL_TX_PAUSE].value, 5, "link pause frames sent");
	ASSERT_EQ_U64(e.port[ROCE_PORT_GLOBAL_RX_PAUSE].value, 7, "link pause frames received");
	memset(&e, 0, sizeof(e));
	nlh = pause_reply(buf, false, false);
	rc = ethtool_nl_parse_pause(nlh, FAMILY, &e);
	TAP_OK(rc == 0 && e.pause_known && !e.port[ROCE_PORT_GLOBAL_RX_PAUSE].known,
	       "a kernel without pause statistics: settings only (rc %d)", rc);
	ASSERT_EQ_INT(ethtool_nl_parse_pause(nlh, FAMILY + 1, &e), -ENOENT, "another family is not ours");
	nlh = pause_reply(buf, true, false);
	full = nlh->nlmsg_len;
	for (uint32_t n = NLMSG_HDRLEN; n < full; n++) {
		memset(&e, 0, sizeof(e));
		nlh->nlmsg_len = n;
		rc = ethtool_nl_parse_pause(nlh, FAMILY, &e);
		bad += rc == -EBADMSG;
		okp += rc == 0;
	}
	TAP_OK(bad > 0 && bad + okp == (int)(full - NLMSG_HDRLEN), "every cut: rejected (%d) or a whole prefix (%d)", bad, okp);
	nlh = pause_reply(buf, true, false);
	((struct nlattr *)(void *)((char *)nlh + NLMSG_LENGTH(GENL_HDRLEN)))->nla_len = 0x7ff0;
	memset(&e, 0, sizeof(e));
	ASSERT_EQ_INT(ethtool_nl_parse_pause(nlh, FAMILY, &e), -EBADMSG, "attribute past the message rejected");
	TAP_OK(!e.pause_known, "and nothing kept");

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	err = mnl_nlmsg_put_extra_header(nlh, sizeof(*err));
	err->error = -EOPNOTSUPP;
	memset(&e, 0, sizeof(e));
	rc = ethtool_nl_parse_pause_buf(buf, nlh->nlmsg_len, FAMILY, &e);
	TAP_OK(rc == 0 && e.pause_err == -EOPNOTSUPP && !e.pause_known, "EOPNOTSUPP: the driver has no pause (rc %d)", rc);
	ASSERT_EQ_INT(ethtool_nl_parse_family(nlh, &id), -EOPNOTSUPP, "an error answer to GETFAMILY is its error");

	/* The controller's answer. */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	((struct genlmsghdr *)mnl_nlmsg_put_extra_header(nlh, sizeof(struct genlmsghdr)))->cmd = CTRL_CMD_NEWFAMILY;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "ethtool");
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, FAMILY);
	rc = ethtool_nl_parse_family(nlh, &id);
	TAP_OK(rc == 0 && id == FAMILY, "family id from CTRL_CMD_NEWFAMILY (rc %d id %u)", rc, id);
	nlh->nlmsg_len -= 4;	/* the id attribute's payload cut off */
	ASSERT_EQ_INT(ethtool_nl_parse_family(nlh, &id), -EBADMSG, "a cut family answer rejected");
}

int main(void)
{
	static const char *const names[N] = {
		"rx_packets", "rx_prio3_pause", "rx_prio3_pause_duration", "tx_prio3_pause",
		"tx_prio3_pause_duration", "rx_prio3_discards", "rx_prio3_marked", "rx_out_of_buffer",
		"tx_pause_storm_warning_events", "rx_prio8_pause", "rx_pfc_ena_frames_pri5",
		"pfc_pri5_tx_duration_us", "rx_priority_2_xoff.nic", "rx_priority_2_xon.nic",
		"rx_prio3_pause_durationX", "rx_discards_phy",
	};
	char strs[N * ETHTOOL_NAME_LEN];
	uint64_t vals[N];
	struct roce_ethtool e;
	bool pp;
	int prio, rc;

	memset(strs, 0, sizeof(strs));
	for (int i = 0; i < N; i++) {
		strncpy(strs + i * ETHTOOL_NAME_LEN, names[i], ETHTOOL_NAME_LEN);
		vals[i] = 1000 + (uint64_t)i;
	}
	rc = ethtool_stats_parse(strs, sizeof(strs), vals, sizeof(vals), N, &e);
	ASSERT_EQ_INT(rc, 0, "a whole answer parses");
	ASSERT_EQ_INT(e.nstats, N, "all counted");
	ASSERT_EQ_INT(e.nmatched, 12, "the chain's counters matched, the rest skipped");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_RX_PAUSE][3].value, 1001, "mlx5 rx_prio3_pause");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_RX_PAUSE_US][3].value, 1002, "mlx5 rx_prio3_pause_duration");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_TX_PAUSE][3].value, 1003, "mlx5 tx_prio3_pause");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_TX_PAUSE_US][3].value, 1004, "mlx5 tx_prio3_pause_duration");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_RX_DISCARDS][3].value, 1005, "mlx5 rx_prio3_discards");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_RX_ECN_MARKED][3].value, 1006, "mlx5 rx_prio3_marked");
	ASSERT_EQ_U64(e.port[ROCE_PORT_RX_OUT_OF_BUFFER].value, 1007, "mlx5 rx_out_of_buffer");
	ASSERT_EQ_U64(e.port[ROCE_PORT_PAUSE_STORM_WARN].value, 1008, "mlx5 pause storm warnings");
	ASSERT_EQ_U64(e.port[ROCE_PORT_RX_DISCARDS_PHY].value, 1015, "mlx5 rx_discards_phy");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_RX_PAUSE][5].value, 1010, "bnxt rx_pfc_ena_frames_pri5");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_TX_PAUSE_US][5].value, 1011, "bnxt pfc_pri5_tx_duration_us");
	ASSERT_EQ_U64(e.prio[ROCE_PRIO_RX_PAUSE][2].value, 1012, "ice rx_priority_2_xoff.nic");
	TAP_OK(!e.prio[ROCE_PRIO_RX_PAUSE][0].known && !e.port[ROCE_PORT_PAUSE_STORM_ERR].known,
	       "counters the driver did not name stay unknown");

	ASSERT_EQ_INT(ethtool_name_kind("rx_prio8_pause", &prio, &pp), -1, "priority 8 does not exist");
	ASSERT_EQ_INT(ethtool_name_kind("rx_prio3_pause_durationX", &prio, &pp), -1, "a longer name is another counter");
	ASSERT_EQ_INT(ethtool_name_kind("rx_prio_pause", &prio, &pp), -1, "no digit, no match");
	ASSERT_EQ_INT(ethtool_name_kind("", &prio, &pp), -1, "empty name");
	ASSERT_EQ_INT(ethtool_name_kind("rx_out_of_buffer_x", &prio, &pp), -1, "port counter name must be whole");

	/* A name that fills all 32 bytes, no NUL: read as 32 characters, not past. */
	memset(strs, 'a', ETHTOOL_NAME_LEN);
	rc = ethtool_stats_parse(strs, sizeof(strs), vals, sizeof(vals), 1, &e);
	TAP_OK(rc == 0 && e.nmatched == 0, "an unterminated name is read within its 32 bytes (rc %d)", rc);

	/* Lengths that do not hold n of each. */
	ASSERT_EQ_INT(ethtool_stats_parse(strs, sizeof(strs), vals, sizeof(vals), N + 1, &e), -EBADMSG,
		      "more names than the buffer holds");
	ASSERT_EQ_INT(ethtool_stats_parse(strs, sizeof(strs), vals, 8 * 3, 4, &e), -EBADMSG,
		      "fewer values than names");
	ASSERT_EQ_INT(ethtool_stats_parse(strs, 0, vals, 0, 0, &e), 0, "no statistics is not an error");
	ASSERT_EQ_INT(e.nstats, 0, "and counts none");
	nl_tests();
	return tap_done();
}
