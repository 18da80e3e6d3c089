// SPDX-License-Identifier: GPL-2.0-or-later
/* Decoding recorded MAD replies (tests/data/mad), cross-checked field by field against libibmad; truncated and malformed ones refused. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mad.h>

#include "../unit/tap.h"
#include "derive/counters.h"
#include "derive/mad_decode.h"
#include "mad/mad.h"
#include "util.h"

static uint8_t buf[1024];

/* libibmad's getters take non-const buffers; they only read. */
#define MF(d, field) mad_get_field((void *)(uintptr_t)(d), 0, field)
#define MF64(d, field) mad_get_field64((void *)(uintptr_t)(d), 0, field)

static size_t load(const char *name)
{
	char path[1024];
	const char *top = getenv("TOP_SRCDIR");
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/tests/data/mad/%s", top ? top : ".", name);
	f = fopen(path, "rb");
	if (!f) {
		printf("Bail out! cannot open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	memset(buf, 0xa5, sizeof(buf));
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return n;
}

/* Whole reply -> data part, checked. */
static const uint8_t *reply(const char *name, uint16_t attr, size_t *dlen)
{
	const uint8_t *data = NULL;
	struct mad_hdr h;
	size_t n = load(name);
	int rc = mad_decode_reply_data(buf, n, attr, &data, dlen, &h);

	ASSERT_EQ_INT(rc, 0, name);
	return data;
}

static uint64_t pma_val(const struct mad_pma_counters *c, const char *name)
{
	for (unsigned int i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return c->v[i].value;
	return UINT64_MAX;
}

static void test_node_info(void)
{
	struct mad_node_info ni;
	size_t dlen;
	const uint8_t *d = reply("node_info_switch.bin", MAD_ATTR_NODE_INFO, &dlen);

	ASSERT_EQ_INT(dlen, MAD_SMP_DATA_SIZE, "SMP data is 64 bytes");
	ASSERT_EQ_INT(mad_decode_node_info(d, dlen, &ni), 0, "NodeInfo of a switch decodes");
	ASSERT_EQ_INT(ni.node_type, 2, "node type switch");
	ASSERT_EQ_INT(ni.num_ports, 8, "8 ports");
	ASSERT_EQ_U64(ni.node_guid, 0x200000, "node GUID");
	ASSERT_EQ_INT(ni.local_port_num, 1, "entered by port 1");
	/* the same buffer through libibmad's field table */
	ASSERT_EQ_U64(ni.node_guid, MF64(d, IB_NODE_GUID_F), "NodeGUID agrees with libibmad");
	ASSERT_EQ_U64(ni.port_guid, MF64(d, IB_NODE_PORT_GUID_F), "PortGUID agrees with libibmad");
	ASSERT_EQ_U64(ni.device_id, MF(d, IB_NODE_DEVID_F), "DeviceID agrees with libibmad");
	ASSERT_EQ_U64(ni.vendor_id, MF(d, IB_NODE_VENDORID_F), "VendorID agrees with libibmad");
	ASSERT_EQ_U64(ni.local_port_num, MF(d, IB_NODE_LOCAL_PORT_F), "LocalPortNum agrees");

	d = reply("node_info_ca.bin", MAD_ATTR_NODE_INFO, &dlen);
	ASSERT_EQ_INT(mad_decode_node_info(d, dlen, &ni), 0, "NodeInfo of a CA decodes");
	ASSERT_EQ_STR(mad_node_type_str(ni.node_type), "CA", "type name CA");
	ASSERT_EQ_INT(ni.num_ports, 2, "the host HCA has 2 ports");
}

static void test_port_info(void)
{
	struct mad_port_info pi;
	size_t dlen;
	const uint8_t *d = reply("port_info_ca_active.bin", MAD_ATTR_PORT_INFO, &dlen);

	ASSERT_EQ_INT(mad_decode_port_info(d, dlen, &pi), 0, "PortInfo decodes");
	ASSERT_EQ_INT(pi.lid, 3, "LID 3 (assigned by opensm)");
	ASSERT_EQ_INT(pi.sm_lid, 1, "SM LID 1");
	ASSERT_EQ_STR(mad_port_state_str(pi.port_state), "ACTIVE", "ACTIVE");
	ASSERT_EQ_STR(mad_phys_state_str(pi.phys_state), "LinkUp", "LinkUp");
	ASSERT_EQ_STR(mad_link_width_str(pi.link_width_active), "4X", "4X");
	ASSERT_EQ_STR(mad_link_speed_str(pi.link_speed_active, pi.link_speed_ext_active), "QDR", "QDR");
	ASSERT_NEAR(mad_link_gbps(pi.link_width_active, pi.link_speed_active, pi.link_speed_ext_active),
		    40.0, 1e-9, "4X QDR is 40 Gb/s");
	/* every nibble and field against libibmad */
	ASSERT_EQ_U64(pi.lid, MF(d, IB_PORT_LID_F), "LID agrees with libibmad");
	ASSERT_EQ_U64(pi.sm_lid, MF(d, IB_PORT_SMLID_F), "SMLID agrees");
	ASSERT_EQ_U64(pi.cap_mask, MF(d, IB_PORT_CAPMASK_F), "CapMask agrees");
	ASSERT_EQ_U64(pi.port_state, MF(d, IB_PORT_STATE_F), "PortState agrees");
	ASSERT_EQ_U64(pi.phys_state, MF(d, IB_PORT_PHYS_STATE_F), "PhysState agrees");
	ASSERT_EQ_U64(pi.lmc, MF(d, IB_PORT_LMC_F), "LMC agrees");
	ASSERT_EQ_U64(pi.sm_sl, MF(d, IB_PORT_SMSL_F), "SMSL agrees");
	ASSERT_EQ_U64(pi.link_width_active, MF(d, IB_PORT_LINK_WIDTH_ACTIVE_F), "width agrees");
	ASSERT_EQ_U64(pi.link_speed_active, MF(d, IB_PORT_LINK_SPEED_ACTIVE_F), "speed agrees");
	ASSERT_EQ_U64(pi.link_speed_enabled, MF(d, IB_PORT_LINK_SPEED_ENABLED_F), "speed enabled agrees");
	ASSERT_EQ_U64(pi.neighbor_mtu, MF(d, IB_PORT_NEIGHBOR_MTU_F), "NeighborMTU agrees");
	ASSERT_EQ_U64(pi.mtu_cap, MF(d, IB_PORT_MTU_CAP_F), "MTUCap agrees");
	ASSERT_EQ_U64(pi.local_port_num, MF(d, IB_PORT_LOCAL_PORT_F), "LocalPort agrees");
	ASSERT_EQ_U64(pi.subnet_timeout, MF(d, IB_PORT_SUBN_TIMEOUT_F), "SubnetTimeout agrees");

	d = reply("port_info_switch_port0.bin", MAD_ATTR_PORT_INFO, &dlen);
	ASSERT_EQ_INT(mad_decode_port_info(d, dlen, &pi), 0, "switch port 0 decodes");
	ASSERT_EQ_INT(pi.lid, 2, "the switch's LID is on port 0");
	d = reply("port_info_switch_down.bin", MAD_ATTR_PORT_INFO, &dlen);
	ASSERT_EQ_INT(mad_decode_port_info(d, dlen, &pi), 0, "a down port decodes");
	ASSERT_EQ_STR(mad_port_state_str(pi.port_state), "DOWN", "DOWN");
	ASSERT_EQ_STR(mad_phys_state_str(pi.phys_state), "Polling", "Polling (no cable)");
}

static void test_sm_info(void)
{
	struct mad_sm_info si;
	size_t dlen;
	const uint8_t *d = reply("sm_info.bin", MAD_ATTR_SM_INFO, &dlen);

	ASSERT_EQ_INT(mad_decode_sm_info(d, dlen, &si), 0, "SMInfo decodes");
	ASSERT_EQ_STR(mad_sm_state_str(si.state), "MASTER", "opensm is MASTER");
	ASSERT_EQ_U64(si.guid, 0x100004, "SM port GUID");
	ASSERT_EQ_U64(si.guid, MF64(d, IB_SMINFO_GUID_F), "GUID agrees with libibmad");
	ASSERT_EQ_U64(si.priority, MF(d, IB_SMINFO_PRIO_F), "priority agrees");
	ASSERT_EQ_U64(si.state, MF(d, IB_SMINFO_STATE_F), "state agrees");
	ASSERT_EQ_U64(si.act_count, MF(d, IB_SMINFO_ACT_F), "ActCount agrees");
}

static void test_switch_lft(void)
{
	struct mad_switch_info si;
	size_t dlen;
	const uint8_t *d = reply("switch_info_switch.bin", MAD_ATTR_SWITCH_INFO, &dlen);
	static const struct { uint16_t lid; uint8_t port; } routes[] = {
		{ 0, MAD_LFT_NO_PORT }, { 1, 2 }, { 2, 0 }, { 3, 1 }, { 4, 3 }, { 6, 3 }, { 7, MAD_LFT_NO_PORT },
		{ 63, MAD_LFT_NO_PORT },
	};
	uint8_t port;

	ASSERT_EQ_INT(mad_decode_switch_info(d, dlen, &si), 0, "SwitchInfo decodes");
	ASSERT_EQ_U64(si.linear_fdb_cap, 30720, "LinearFDBCap");
	ASSERT_EQ_U64(si.linear_fdb_cap, MF(d, IB_SW_LINEAR_FDB_CAP_F), "LinearFDBCap agrees with libibmad");
	ASSERT_EQ_U64(si.linear_fdb_top, 6, "LinearFDBTop: the highest LID opensm assigned");
	ASSERT_EQ_U64(si.linear_fdb_top, MF(d, IB_SW_LINEAR_FDB_TOP_F), "LinearFDBTop agrees with libibmad");
	d = reply("lft_switch.bin", MAD_ATTR_LFT, &dlen);
	for (size_t i = 0; i < ARRAY_SIZE(routes); i++) {
		ASSERT_EQ_INT(mad_decode_lft_port(d, dlen, routes[i].lid, &port), 0, "LFT block decodes");
		ASSERT_EQ_U64(port, routes[i].port, "LID's egress port");
	}
	/* a LID of block 1 reads the same slot of its own block */
	ASSERT_EQ_INT(mad_decode_lft_port(d, dlen, 64 + 3, &port), 0, "LID 67 in its block");
	ASSERT_EQ_U64(port, 1, "LID 67 is slot 3 of block 1");
	ASSERT_EQ_INT(mad_decode_lft_port(d, 63, 1, &port), MAD_DECODE_TRUNCATED, "63 bytes: truncated");
	ASSERT_EQ_INT(mad_decode_switch_info(d, 7, &si), MAD_DECODE_TRUNCATED, "SwitchInfo of 7 bytes: truncated");
}

static void test_pma(void)
{
	struct mad_class_port_info cpi;
	struct mad_pma_counters pc;
	size_t dlen;
	const uint8_t *d = reply("pma_cpi_switch.bin", MAD_ATTR_CLASS_PORT_INFO, &dlen);

	ASSERT_EQ_INT(dlen, MAD_PMA_DATA_SIZE, "PMA data is 192 bytes");
	ASSERT_EQ_INT(mad_decode_class_port_info(d, dlen, &cpi), 0, "ClassPortInfo decodes");
	ASSERT_EQ_U64(cpi.cap_mask, 0x1300, "switch PMA: AllPortSelect|ExtWidth|XmitWait");
	ASSERT_EQ_U64(cpi.cap_mask, MF(d, IB_CPI_CAPMASK_F), "CapMask agrees with libibmad");
	ASSERT_EQ_U64(cpi.resp_time_value, MF(d, IB_CPI_RESP_TIME_VALUE_F), "RespTimeValue agrees");
	d = reply("pma_cpi_ca.bin", MAD_ATTR_CLASS_PORT_INFO, &dlen);
	mad_decode_class_port_info(d, dlen, &cpi);
	ASSERT_EQ_U64(cpi.cap_mask & MAD_PMA_CAP_EXT_WIDTH, MAD_PMA_CAP_EXT_WIDTH, "CA PMA has 64-bit counters");

	d = reply("pma_port_counters_switch.bin", MAD_ATTR_PORT_COUNTERS, &dlen);
	ASSERT_EQ_INT(mad_decode_port_counters(d, dlen, &pc), 0, "PortCounters decode");
	ASSERT_EQ_INT(pc.port_select, 1, "PortSelect 1");
	ASSERT_EQ_U64(pma_val(&pc, "symbol_error"), 7, "SymbolErrorCounter set to 7 in ibsim");
	ASSERT_EQ_U64(pma_val(&pc, "link_downed"), 2, "LinkDowned 2");
	ASSERT_EQ_U64(pma_val(&pc, "local_link_integrity_errors"), 3, "high nibble: LocalLinkIntegrity 3");
	ASSERT_EQ_U64(pma_val(&pc, "excessive_buffer_overrun_errors"), 5, "low nibble: ExcessiveBufferOverrun 5");
	ASSERT_EQ_U64(pma_val(&pc, "VL15_dropped"), 65535, "VL15Dropped at all-ones");
	ASSERT_EQ_U64(pma_val(&pc, "port_xmit_wait"), 4000000000u, "PortXmitWait 4e9");
	ASSERT_EQ_U64(pma_val(&pc, "port_xmit_data"), 25416, "PortXmitData");
	ASSERT_EQ_U64(pma_val(&pc, "symbol_error"), MF(d, IB_PC_ERR_SYM_F), "agrees with libibmad");
	ASSERT_EQ_U64(pma_val(&pc, "local_link_integrity_errors"), MF(d, IB_PC_ERR_LOCALINTEG_F), "agrees");
	ASSERT_EQ_U64(pma_val(&pc, "excessive_buffer_overrun_errors"), MF(d, IB_PC_ERR_EXCESS_OVR_F), "agrees");
	ASSERT_EQ_U64(pma_val(&pc, "port_rcv_packets"), MF(d, IB_PC_RCV_PKTS_F), "agrees");
	ASSERT_EQ_U64(pma_val(&pc, "port_xmit_wait"), MF(d, IB_PC_XMT_WAIT_F), "agrees");

	d = reply("pma_port_counters_ext_switch.bin", MAD_ATTR_PORT_COUNTERS_EXT, &dlen);
	ASSERT_EQ_INT(mad_decode_port_counters_ext(d, dlen, &pc), 0, "PortCountersExtended decode");
	ASSERT_EQ_U64(pma_val(&pc, "port_xmit_data"), 81985529216487399ull, "64-bit PortXmitData past 2^32");
	ASSERT_EQ_U64(pma_val(&pc, "port_xmit_data"), MF64(d, IB_PC_EXT_XMT_BYTES_F), "agrees with libibmad");
	ASSERT_EQ_U64(pma_val(&pc, "port_rcv_packets"), MF64(d, IB_PC_EXT_RCV_PKTS_F), "agrees");
	ASSERT_EQ_U64(pma_val(&pc, "multicast_rcv_packets"), MF64(d, IB_PC_EXT_RCV_MPKTS_F), "agrees");
}

static void test_counters_from_pma(void)
{
	struct fab_counter c;

	/* Data counters from the PMA are 4-octet words, 64 bits wide. */
	counter_define(&c, "port_xmit_data", COUNTER_SRC_PMA, true);
	ASSERT_EQ_INT(c.bits, 64, "PMA data counter is 64-bit");
	ASSERT_EQ_INT(c.kind, COUNTER_KIND_DATA, "kind data");
	counter_sample_value(&c, true, 1000);
	counter_sample_value(&c, true, 1000 + 250000000);
	{
		double bps = 0;

		TAP_OK(counter_bytes_rate(&c, 1000000000ull, &bps) && bps == 1e9,
		       "250M words in 1 s = 1 GB/s (x4, not x width) (got %.17g B/s)", bps);
	}
}

static void test_node_desc(void)
{
	char d[65];
	size_t dlen;
	const uint8_t *p = reply("node_desc_switch.bin", MAD_ATTR_NODE_DESC, &dlen);

	ASSERT_EQ_INT(mad_decode_node_desc(p, dlen, d, sizeof(d)), 0, "NodeDescription decodes");
	ASSERT_EQ_STR(d, "spine-a", "spine-a");
	p = reply("node_desc_control_chars.bin", MAD_ATTR_NODE_DESC, &dlen);
	mad_decode_node_desc(p, dlen, d, sizeof(d));
	TAP_OK(!strchr(d, '\033') && !strchr(d, '\a') && strlen(d) == 64, "control bytes replaced, 64 bytes kept (%zu): %s",
	       strlen(d), d);

	ASSERT_EQ_INT(mad_decode_node_desc(p, dlen, d, 4), 0, "a small output buffer is respected");
	ASSERT_EQ_INT(strlen(d), 3, "3 characters + NUL");
	{
		/* C1 controls too: a CSI as UTF-8 (C2 9B) and as a raw byte, an OSC (C2 9D); UTF-8 text stays */
		uint8_t nd[64] = "sw\302\2332J\233H\302\23552;c;eA==\007 \342\224\200";

		ASSERT_EQ_INT(mad_decode_node_desc(nd, sizeof(nd), d, sizeof(d)), 0, "a description with C1 decodes");
		ASSERT_EQ_STR(d, "sw??2J?H??52;c;eA==? \342\224\200", "C1 as UTF-8 and raw cleaned, UTF-8 kept");
	}
}

/* The SA's NodeRecord for a GUID (trace's lookup), and its answer when no port has it. */
static void test_node_record(void)
{
	struct mad_node_info ni;
	struct mad_hdr h;
	char desc[65];
	uint16_t lid = 0;
	size_t dlen, n;
	const uint8_t *d = reply("sa_node_record_h31.bin", MAD_ATTR_NODE_RECORD, &dlen);
	int wrong = 0;

	ASSERT_EQ_INT(dlen, 112, "one record: 108 bytes, padded to AttributeOffset's 14 words");
	ASSERT_EQ_INT(mad_decode_node_record(d, dlen, &lid, &ni, desc, sizeof(desc)), 0, "NodeRecord decodes");
	ASSERT_EQ_INT(lid, 10, "h31's LID");
	ASSERT_EQ_U64(ni.node_guid, 0x100008, "its node GUID, as asked");
	ASSERT_EQ_U64(ni.port_guid, 0x100009, "its port GUID");
	ASSERT_EQ_INT(ni.node_type, 1, "a CA");
	ASSERT_EQ_STR(desc, "h31 mlx5_0", "its description");
	ASSERT_EQ_U64(lid, MF(d, IB_SA_NR_LID_F), "LID agrees with libibmad");
	ASSERT_EQ_U64(ni.node_guid, MF64(d, IB_SA_NR_GUID_F), "NodeGUID agrees with libibmad");
	ASSERT_EQ_U64(ni.port_guid, MF64(d, IB_SA_NR_PORT_GUID_F), "PortGUID agrees with libibmad");
	ASSERT_EQ_U64(ni.local_port_num, MF(d, IB_SA_NR_LOCAL_PORT_F), "LocalPortNum agrees with libibmad");
	ASSERT_EQ_INT(mad_decode_node_record(d, MAD_NR_SIZE - 1, &lid, &ni, NULL, 0), MAD_DECODE_TRUNCATED,
		      "a record a byte short is refused");
	/* every prefix: decoded exactly when the whole record is there */
	n = load("sa_node_record_h31.bin");
	{
		uint8_t copy[MAD_SIZE];

		memcpy(copy, buf, n);
		for (size_t cut = 0; cut <= n; cut++) {
			uint8_t *p = malloc(cut ? cut : 1);
			int rc;

			memcpy(p, copy, cut);
			rc = mad_decode_reply_data(p, cut, MAD_ATTR_NODE_RECORD, &d, &dlen, &h);
			if (!rc)
				rc = mad_decode_node_record(d, dlen, &lid, &ni, desc, sizeof(desc));
			if ((rc == 0) != (cut >= MAD_SA_DATA_OFF + MAD_NR_SIZE)) {
				wrong++;
				printf("#   cut at %zu: rc %d\n", cut, rc);
			}
			free(p);
		}
		TAP_OK(wrong == 0, "%zu prefixes of the NodeRecord: decoded exactly when complete", n + 1);
	}
	/* By port GUID 0x100008, which is h31's node GUID: the SA echoes the request with ERR_NO_RECORDS. */
	n = load("sa_node_record_none.bin");
	ASSERT_EQ_INT(mad_decode_reply_data(buf, n, MAD_ATTR_NODE_RECORD, &d, &dlen, &h), 0x0300,
		      "no port has that GUID: the SA's status ERR_NO_RECORDS (3)");
	ASSERT_EQ_U64(MF64(buf, IB_SA_COMPMASK_F), MAD_NR_COMP_PORT_GUID,
		      "the request's ComponentMask where libibmad reads it: PortGUID");
	ASSERT_EQ_U64(MF64(buf + MAD_SA_DATA_OFF, IB_SA_NR_PORT_GUID_F), 0x100008,
		      "... and the GUID in the record's PortGUID");
}

/* Every bad file is refused somewhere along the chain, never read past its end. */
static void test_bad(void)
{
	static const struct {
		const char *file;
		uint16_t attr;
		int expect;	/* from mad_decode_reply_data, or 99: check the data decoder */
	} cases[] = {
		{ "empty.bin", MAD_ATTR_NODE_INFO, MAD_DECODE_TRUNCATED },
		{ "trunc_hdr_20.bin", MAD_ATTR_NODE_INFO, MAD_DECODE_TRUNCATED },
		{ "bad_base_version.bin", MAD_ATTR_NODE_INFO, MAD_DECODE_MALFORMED },
		{ "not_response.bin", MAD_ATTR_NODE_INFO, MAD_DECODE_MALFORMED },
		{ "unknown_class.bin", MAD_ATTR_NODE_INFO, MAD_DECODE_MALFORMED },
		{ "status_unsupported.bin", MAD_ATTR_PORT_COUNTERS_EXT, 0x0c },
		{ "node_info_switch.bin", MAD_ATTR_PORT_INFO, MAD_DECODE_MALFORMED },	/* not what was asked */
	};
	const uint8_t *d;
	size_t dlen, n;
	struct mad_hdr h;
	struct mad_port_info pi;
	struct mad_node_info ni;
	struct mad_sm_info si;
	struct mad_pma_counters pc;
	char desc[65];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		n = load(cases[i].file);
		ASSERT_EQ_INT(mad_decode_reply_data(buf, n, cases[i].attr, &d, &dlen, &h), cases[i].expect, cases[i].file);
	}
	ASSERT_EQ_STR(mad_status_str(0x0c), "method/attribute not supported", "status 0x0c named");

	/* Truncated data parts: the reply header is fine, the attribute is cut. */
	n = load("trunc_port_info_100.bin");
	ASSERT_EQ_INT(mad_decode_reply_data(buf, n, MAD_ATTR_PORT_INFO, &d, &dlen, &h), 0, "cut PortInfo: header ok");
	ASSERT_EQ_INT(dlen, 36, "36 data bytes left");
	ASSERT_EQ_INT(mad_decode_port_info(d, dlen, &pi), MAD_DECODE_TRUNCATED, "cut PortInfo refused");
	n = load("trunc_pma_counters_90.bin");
	mad_decode_reply_data(buf, n, MAD_ATTR_PORT_COUNTERS, &d, &dlen, &h);
	ASSERT_EQ_INT(mad_decode_port_counters(d, dlen, &pc), MAD_DECODE_TRUNCATED, "cut PortCounters refused");
	n = load("trunc_node_desc_80.bin");
	mad_decode_reply_data(buf, n, MAD_ATTR_NODE_DESC, &d, &dlen, &h);
	ASSERT_EQ_INT(mad_decode_node_desc(d, dlen, desc, sizeof(desc)), MAD_DECODE_TRUNCATED, "cut NodeDescription refused");
	ASSERT_EQ_STR(desc, "", "and left empty");

	n = load("node_info_zero_ports.bin");
	mad_decode_reply_data(buf, n, MAD_ATTR_NODE_INFO, &d, &dlen, &h);
	ASSERT_EQ_INT(mad_decode_node_info(d, dlen, &ni), MAD_DECODE_MALFORMED, "NodeInfo with 0 ports refused");
	n = load("port_info_bad_state.bin");
	mad_decode_reply_data(buf, n, MAD_ATTR_PORT_INFO, &d, &dlen, &h);
	ASSERT_EQ_INT(mad_decode_port_info(d, dlen, &pi), MAD_DECODE_MALFORMED, "PortState 7 refused");
	n = load("sm_info_bad_state.bin");
	mad_decode_reply_data(buf, n, MAD_ATTR_SM_INFO, &d, &dlen, &h);
	ASSERT_EQ_INT(mad_decode_sm_info(d, dlen, &si), MAD_DECODE_MALFORMED, "SMState 9 refused");

	/* NULL and zero lengths never crash */
	ASSERT_EQ_INT(mad_decode_port_info(NULL, 64, &pi), MAD_DECODE_TRUNCATED, "NULL data");
	ASSERT_EQ_INT(mad_decode_hdr(buf, 0, &h), MAD_DECODE_TRUNCATED, "zero length");
	/*
	 * Every prefix of every good reply: the attribute's decoder succeeds
	 * exactly when the whole attribute is there (and ASan sees no over-read).
	 */
	{
		static const struct { const char *file; size_t need; } good[] = {
			{ "node_info_ca.bin", 40 }, { "port_info_ca_active.bin", 64 }, { "sm_info.bin", 21 },
			{ "pma_port_counters_switch.bin", 44 }, { "pma_port_counters_ext_switch.bin", 72 },
			{ "pma_cpi_ca.bin", 8 },
		};
		int wrong = 0, total = 0;

		for (size_t g = 0; g < ARRAY_SIZE(good); g++) {
			size_t full = load(good[g].file);
			uint8_t *copy = malloc(full);
			uint16_t attr;

			memcpy(copy, buf, full);
			attr = (uint16_t)(copy[16] << 8 | copy[17]);
			for (size_t cut = 0; cut <= full; cut++) {
				uint8_t *p = malloc(cut ? cut : 1);
				struct mad_class_port_info cpi;
				int rc;

				memcpy(p, copy, cut);
				total++;
				rc = mad_decode_reply_data(p, cut, attr, &d, &dlen, &h);
				if (!rc) {
					switch (attr) {
					case MAD_ATTR_NODE_INFO: rc = mad_decode_node_info(d, dlen, &ni); break;
					case MAD_ATTR_PORT_INFO: rc = mad_decode_port_info(d, dlen, &pi); break;
					case MAD_ATTR_SM_INFO: rc = mad_decode_sm_info(d, dlen, &si); break;
					case MAD_ATTR_PORT_COUNTERS: rc = mad_decode_port_counters(d, dlen, &pc); break;
					case MAD_ATTR_PORT_COUNTERS_EXT: rc = mad_decode_port_counters_ext(d, dlen, &pc); break;
					default: rc = mad_decode_class_port_info(d, dlen, &cpi); break;
					}
				}
				if ((rc == 0) != (cut >= 64 + good[g].need)) {
					wrong++;
					printf("#   %s cut at %zu: rc %d\n", good[g].file, cut, rc);
				}
				free(p);
			}
			free(copy);
		}
		TAP_OK(wrong == 0, "%d prefixes of recorded replies: decoded exactly when complete", total);
	}
}

/* The requests we build are what libibmad would send. */
static void test_build(void)
{
	uint8_t m[MAD_SIZE];
	uint8_t path[3] = { 0, 1, 3 };

	mad_build_dr(m, 0x1234, path, 2, MAD_ATTR_PORT_INFO, 5);
	ASSERT_EQ_U64(MF(m, IB_MAD_MGMTCLASS_F), 0x81, "DR class");
	ASSERT_EQ_U64(MF(m, IB_MAD_METHOD_F), 1, "Get");
	ASSERT_EQ_U64(MF(m, IB_DRSMP_HOPCNT_F), 2, "hop count 2");
	ASSERT_EQ_U64(MF(m, IB_DRSMP_HOPPTR_F), 0, "hop pointer 0");
	ASSERT_EQ_U64(MF(m, IB_DRSMP_DRDLID_F), 0xffff, "DrDLID permissive");
	ASSERT_EQ_U64(MF(m, IB_MAD_ATTRID_F), MAD_ATTR_PORT_INFO, "attribute");
	ASSERT_EQ_U64(MF(m, IB_MAD_ATTRMOD_F), 5, "modifier");
	ASSERT_EQ_U64(MF64(m, IB_MAD_TRID_F), 0x1234, "TID");
	ASSERT_EQ_INT(m[128 + 1], 1, "initial path[1]");
	ASSERT_EQ_INT(m[128 + 2], 3, "initial path[2]");
	mad_build_gsi(m, MAD_CLASS_PMA, 7, MAD_ATTR_PORT_COUNTERS, 0);
	ASSERT_EQ_U64(MF(m, IB_MAD_CLASSVER_F), 1, "class version 1");
	ASSERT_EQ_U64(MF(m, IB_MAD_BASEVER_F), 1, "base version 1");
}

int main(void)
{
	test_node_info();
	test_port_info();
	test_sm_info();
	test_switch_lft();
	test_pma();
	test_counters_from_pma();
	test_node_desc();
	test_node_record();
	test_bad();
	test_build();
	return tap_done();
}
