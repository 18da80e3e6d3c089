// SPDX-License-Identifier: GPL-2.0-or-later
/* Decoding IB MAD payloads from byte buffers: every length checked, every field converted here. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "derive/mad_decode.h"
#include "model/fabric.h"
#include "util.h"


/* Copy a wire struct out of a buffer that must hold at least 'need' bytes of it. */
#define WIRE_COPY(dst, data, len, need) do {				\
	if (!(data) || (len) < (need))					\
		return MAD_DECODE_TRUNCATED;				\
	memset(&(dst), 0, sizeof(dst));					\
	memcpy(&(dst), (data), (need));					\
} while (0)

int mad_decode_hdr(const uint8_t *buf, size_t len, struct mad_hdr *out)
{
	struct mad_wire_hdr w;
	uint16_t status;

	WIRE_COPY(w, buf, len, sizeof(w));
	memset(out, 0, sizeof(*out));
	out->base_version = w.base_version;
	out->mgmt_class = w.mgmt_class;
	out->class_version = w.class_version;
	out->method = w.method & 0x7f;
	out->response = w.method & MAD_METHOD_RESP_BIT;
	status = wbe16_get(w.status);
	out->tid = wbe64_get(w.tid);
	out->attr_id = wbe16_get(w.attr_id);
	out->attr_mod = wbe32_get(w.attr_mod);
	if (w.mgmt_class == MAD_CLASS_SMI_DR) {
		/* IBA 14.2.1.2: the top status bit is the direction D. */
		out->dr_direction = status & 0x8000;
		out->status = status & 0x7fff;
		out->hop_ptr = (uint8_t)(wbe16_get(w.class_specific) >> 8);
		out->hop_cnt = (uint8_t)wbe16_get(w.class_specific);
	} else {
		out->status = status;
	}
	/* Only base version 1 MADs exist for these classes (OPA uses 0x80). */
	if (w.base_version != 1)
		return MAD_DECODE_MALFORMED;
	return 0;
}

int mad_decode_node_info(const uint8_t *data, size_t len, struct mad_node_info *out)
{
	struct mad_wire_node_info w;

	WIRE_COPY(w, data, len, sizeof(w));
	memset(out, 0, sizeof(*out));
	out->node_type = w.node_type;
	out->num_ports = w.num_ports;
	out->sys_image_guid = wbe64_get(w.sys_image_guid);
	out->node_guid = wbe64_get(w.node_guid);
	out->port_guid = wbe64_get(w.port_guid);
	out->partition_cap = wbe16_get(w.partition_cap);
	out->device_id = wbe16_get(w.device_id);
	out->revision = wbe32_get(w.revision);
	out->local_port_num = w.local_port_num;
	out->vendor_id = (uint32_t)w.vendor_id[0] << 16 | (uint32_t)w.vendor_id[1] << 8 | w.vendor_id[2];
	/* A node with no ports, or of a type IBA does not define, is not a real reply. */
	if (out->num_ports == 0 || out->node_type < 1 || out->node_type > 3)
		return MAD_DECODE_MALFORMED;
	return 0;
}

int mad_decode_port_info(const uint8_t *data, size_t len, struct mad_port_info *out)
{
	struct mad_wire_port_info w;

	WIRE_COPY(w, data, len, sizeof(w));
	memset(out, 0, sizeof(*out));
	out->gid_prefix = wbe64_get(w.gid_prefix);
	out->lid = wbe16_get(w.lid);
	out->sm_lid = wbe16_get(w.master_sm_lid);
	out->cap_mask = wbe32_get(w.cap_mask);
	out->local_port_num = w.local_port_num;
	out->link_width_enabled = w.link_width_enabled;
	out->link_width_supported = w.link_width_supported;
	out->link_width_active = w.link_width_active;
	out->link_speed_supported = w.speed_supported_state >> 4;
	out->port_state = w.speed_supported_state & 0x0f;
	out->phys_state = w.phys_state_down_def >> 4;
	out->lmc = w.mkey_prot_lmc & 0x07;
	out->link_speed_active = w.speed_active_enabled >> 4;
	out->link_speed_enabled = w.speed_active_enabled & 0x0f;
	out->neighbor_mtu = w.neighbor_mtu_sm_sl >> 4;
	out->sm_sl = w.neighbor_mtu_sm_sl & 0x0f;
	out->mtu_cap = w.init_type_reply_mtu_cap & 0x0f;
	out->subnet_timeout = w.subnet_timeout & 0x1f;
	/* CapabilityMask2 and the extended speeds mean something only when advertised. */
	if (out->cap_mask & MAD_PORT_CAP_CAP_MASK2)
		out->cap_mask2 = wbe16_get(w.cap_mask2);
	if (out->cap_mask & MAD_PORT_CAP_EXT_SPEEDS) {
		out->link_speed_ext_active = w.speed_ext_active_supported >> 4;
		out->link_speed_ext_supported = w.speed_ext_active_supported & 0x0f;
	}
	if (out->port_state > PORT_STATE_ACTIVE_DEFER)
		return MAD_DECODE_MALFORMED;
	return 0;
}

int mad_decode_sm_info(const uint8_t *data, size_t len, struct mad_sm_info *out)
{
	struct mad_wire_sm_info w;

	WIRE_COPY(w, data, len, offsetof(struct mad_wire_sm_info, priority_state) + 1);
	memset(out, 0, sizeof(*out));
	out->guid = wbe64_get(w.guid);
	out->act_count = wbe32_get(w.act_count);
	out->priority = w.priority_state >> 4;
	out->state = w.priority_state & 0x0f;
	if (out->state > MAD_SM_MASTER)
		return MAD_DECODE_MALFORMED;
	return 0;
}

int mad_decode_switch_info(const uint8_t *data, size_t len, struct mad_switch_info *out)
{
	struct mad_wire_switch_info w;

	WIRE_COPY(w, data, len, sizeof(w));
	memset(out, 0, sizeof(*out));
	out->linear_fdb_cap = wbe16_get(w.linear_fdb_cap);
	out->linear_fdb_top = wbe16_get(w.linear_fdb_top);
	return 0;
}

int mad_decode_lft_port(const uint8_t *data, size_t len, uint16_t lid, uint8_t *port)
{
	if (!data || len < MAD_LFT_BLOCK)
		return MAD_DECODE_TRUNCATED;
	*port = data[lid % MAD_LFT_BLOCK];
	return 0;
}

int mad_decode_psc_tick(const uint8_t *data, size_t len, uint8_t *tick)
{
	if (!data || len < 4)
		return MAD_DECODE_TRUNCATED;
	*tick = data[2];
	return 0;
}

int mad_decode_class_port_info(const uint8_t *data, size_t len, struct mad_class_port_info *out)
{
	struct mad_wire_class_port_info w;
	uint32_t v;

	WIRE_COPY(w, data, len, sizeof(w));
	memset(out, 0, sizeof(*out));
	out->base_version = w.base_version;
	out->class_version = w.class_version;
	out->cap_mask = wbe16_get(w.cap_mask);
	v = wbe32_get(w.cap_mask2_resp_time);
	out->cap_mask2 = v >> 5;
	out->resp_time_value = v & 0x1f;
	if (out->base_version != 1)
		return MAD_DECODE_MALFORMED;
	return 0;
}

/*
 * The PortCounters fields as (sysfs name, byte offset, bit shift, width):
 * a table, so adding a counter is one line and the decoder has no if-chain.
 */
struct pma_field {
	const char *name;
	unsigned int off;	/* byte offset in the attribute */
	unsigned int shift;	/* for sub-byte fields: right shift of the byte */
	unsigned int bits;
};

static const struct pma_field port_counters_fields[] = {
	{ "symbol_error",			 4, 0, 16 },
	{ "link_error_recovery",		 6, 0,  8 },
	{ "link_downed",			 7, 0,  8 },
	{ "port_rcv_errors",			 8, 0, 16 },
	{ "port_rcv_remote_physical_errors",	10, 0, 16 },
	{ "port_rcv_switch_relay_errors",	12, 0, 16 },
	{ "port_xmit_discards",			14, 0, 16 },
	{ "port_xmit_constraint_errors",	16, 0,  8 },
	{ "port_rcv_constraint_errors",		17, 0,  8 },
	{ "local_link_integrity_errors",	19, 4,  4 },
	{ "excessive_buffer_overrun_errors",	19, 0,  4 },
	{ "VL15_dropped",			22, 0, 16 },
	{ "port_xmit_data",			24, 0, 32 },
	{ "port_rcv_data",			28, 0, 32 },
	{ "port_xmit_packets",			32, 0, 32 },
	{ "port_rcv_packets",			36, 0, 32 },
	{ "port_xmit_wait",			40, 0, 32 },
};

static const struct pma_field port_counters_ext_fields[] = {
	{ "port_xmit_data",		 8, 0, 64 },
	{ "port_rcv_data",		16, 0, 64 },
	{ "port_xmit_packets",		24, 0, 64 },
	{ "port_rcv_packets",		32, 0, 64 },
	{ "unicast_xmit_packets",	40, 0, 64 },
	{ "unicast_rcv_packets",	48, 0, 64 },
	{ "multicast_xmit_packets",	56, 0, 64 },
	{ "multicast_rcv_packets",	64, 0, 64 },
	/*
	 * The additional counters (IBA 16.1.4.11, libibmad's
	 * IB_PC_EXT_ERR_SYM_F..IB_PC_EXT_XMT_WAIT_F), each 64 bits: valid
	 * only where ClassPortInfo:CapabilityMask2 has
	 * IsAdditionalPortCountersExtendedSupported.
	 */
	{ "symbol_error",			 72, 0, 64 },
	{ "link_error_recovery",		 80, 0, 64 },
	{ "link_downed",			 88, 0, 64 },
	{ "port_rcv_errors",			 96, 0, 64 },
	{ "port_rcv_remote_physical_errors",	104, 0, 64 },
	{ "port_rcv_switch_relay_errors",	112, 0, 64 },
	{ "port_xmit_discards",			120, 0, 64 },
	{ "port_xmit_constraint_errors",	128, 0, 64 },
	{ "port_rcv_constraint_errors",		136, 0, 64 },
	{ "local_link_integrity_errors",	144, 0, 64 },
	{ "excessive_buffer_overrun_errors",	152, 0, 64 },
	{ "VL15_dropped",			160, 0, 64 },
	{ "port_xmit_wait",			168, 0, 64 },
};

/* The first 8 entries are PortCountersExtended's own; the rest the additional set. */
#define PCE_BASE_FIELDS 8
#define PCE_ALL_SIZE	176

static uint64_t pma_field_get(const uint8_t *data, const struct pma_field *f)
{
	uint64_t v = 0;

	if (f->bits < 8)
		return (data[f->off] >> f->shift) & ((1u << f->bits) - 1);
	for (unsigned int i = 0; i < f->bits / 8; i++)
		v = v << 8 | data[f->off + i];
	return v;
}

static int pma_decode(const uint8_t *data, size_t len, size_t need,
		      const struct pma_field *fields, size_t nfields,
		      struct mad_pma_counters *out)
{
	if (!data || len < need)
		return MAD_DECODE_TRUNCATED;
	memset(out, 0, sizeof(*out));
	out->port_select = data[1];
	for (size_t i = 0; i < nfields && out->n < MAD_PMA_MAX_COUNTERS; i++) {
		/* The table is static; this guards a future edit, not the input. */
		if (fields[i].off + (fields[i].bits + 7) / 8 > need)
			return MAD_DECODE_MALFORMED;
		out->v[out->n].name = fields[i].name;
		out->v[out->n].bits = fields[i].bits;
		out->v[out->n].value = pma_field_get(data, &fields[i]);
		out->n++;
	}
	return 0;
}

int mad_decode_port_counters(const uint8_t *data, size_t len, struct mad_pma_counters *out)
{
	return pma_decode(data, len, sizeof(struct mad_wire_port_counters),
			  port_counters_fields, ARRAY_SIZE(port_counters_fields), out);
}

int mad_decode_port_counters_ext(const uint8_t *data, size_t len, struct mad_pma_counters *out)
{
	return pma_decode(data, len, sizeof(struct mad_wire_port_counters_ext),
			  port_counters_ext_fields, PCE_BASE_FIELDS, out);
}

int mad_decode_port_counters_ext_all(const uint8_t *data, size_t len, struct mad_pma_counters *out)
{
	return pma_decode(data, len, PCE_ALL_SIZE, port_counters_ext_fields, ARRAY_SIZE(port_counters_ext_fields),
			  out);
}

int mad_decode_node_desc(const uint8_t *data, size_t len, char *out, size_t outsz)
{
	size_t n = 0;

	if (!outsz)
		return MAD_DECODE_MALFORMED;
	out[0] = '\0';
	if (!data || len < 64)
		return MAD_DECODE_TRUNCATED;
	/* Not necessarily NUL-terminated on the wire: 64 bytes at most. */
	while (n < 64 && n + 1 < outsz && data[n]) {
		unsigned char c = data[n];

		out[n] = (char)c;
		n++;
	}
	out[n] = '\0';
	util_clean(out);
	return 0;
}

int mad_decode_node_record(const uint8_t *data, size_t len, uint16_t *lid, struct mad_node_info *ni,
			   char *desc, size_t descsz)
{
	int rc;

	if (!data || len < MAD_NR_SIZE)
		return MAD_DECODE_TRUNCATED;
	*lid = (uint16_t)(data[0] << 8 | data[1]);
	rc = mad_decode_node_info(data + MAD_NR_NODE_INFO_OFF, MAD_NR_NODE_DESC_OFF - MAD_NR_NODE_INFO_OFF, ni);
	if (!rc && desc)
		rc = mad_decode_node_desc(data + MAD_NR_NODE_DESC_OFF, MAD_NR_SIZE - MAD_NR_NODE_DESC_OFF, desc, descsz);
	return rc;
}

int mad_decode_reply_data(const uint8_t *buf, size_t len, uint16_t expect_attr,
			  const uint8_t **data, size_t *data_len, struct mad_hdr *hdr)
{
	size_t off, size;
	int rc = mad_decode_hdr(buf, len, hdr);

	if (rc)
		return rc;
	switch (hdr->mgmt_class) {
	case MAD_CLASS_SMI:
	case MAD_CLASS_SMI_DR:
		off = MAD_SMP_DATA_OFF;
		size = MAD_SMP_DATA_SIZE;
		break;
	case MAD_CLASS_PMA:
		off = MAD_PMA_DATA_OFF;
		size = MAD_PMA_DATA_SIZE;
		break;
	case MAD_CLASS_OPENIB_PING:
		off = MAD_VENDOR2_DATA_OFF;
		size = MAD_VENDOR2_DATA_SIZE;
		break;
	case MAD_CLASS_SA:
		off = MAD_SA_DATA_OFF;
		size = MAD_SA_DATA_SIZE;
		break;
	default:
		return MAD_DECODE_MALFORMED;
	}
	if (!hdr->response || hdr->attr_id != expect_attr)
		return MAD_DECODE_MALFORMED;
	if (hdr->status)
		return hdr->status;
	if (len < off)
		return MAD_DECODE_TRUNCATED;
	*data = buf + off;
	*data_len = len - off < size ? len - off : size;
	return 0;
}

/* ---- names ---- */

const char *mad_node_type_str(unsigned int t)
{
	static const char *const s[] = { [1] = "CA", [2] = "Switch", [3] = "Router" };

	return util_name(s, ARRAY_SIZE(s), t, "unknown");
}

/* A PortInfo carries the same PortState and PortPhysicalState as sysfs: one table, in model/fabric.c. */
const char *mad_port_state_str(unsigned int st)
{
	return st <= PORT_STATE_ACTIVE_DEFER ? fab_port_state_str((enum fab_port_state)st) : "unknown";
}

const char *mad_phys_state_str(unsigned int st)
{
	return st <= PHYS_STATE_PHY_TEST ? fab_phys_state_str((enum fab_phys_state)st) : "unknown";
}

const char *mad_sm_state_str(unsigned int st)
{
	static const char *const s[] = {
		[MAD_SM_NOTACTIVE] = "NOTACTIVE", [MAD_SM_DISCOVERING] = "DISCOVERING",
		[MAD_SM_STANDBY] = "STANDBY", [MAD_SM_MASTER] = "MASTER",
	};

	return util_name(s, ARRAY_SIZE(s), st, "unknown");
}

/* LinkWidthActive bits (IBA 14.2.5.6): lanes per width. */
static const struct { unsigned int bit, lanes; const char *name; } widths[] = {
	{ 1, 1, "1X" }, { 2, 4, "4X" }, { 4, 8, "8X" }, { 8, 12, "12X" }, { 16, 2, "2X" },
};

const char *mad_link_width_str(unsigned int w)
{
	for (size_t i = 0; i < ARRAY_SIZE(widths); i++)
		if (widths[i].bit == w)
			return widths[i].name;
	return "unknown";
}

unsigned int mad_link_width_lanes(unsigned int w)
{
	for (size_t i = 0; i < ARRAY_SIZE(widths); i++)
		if (widths[i].bit == w)
			return widths[i].lanes;
	return 0;
}

/* LinkSpeedActive / LinkSpeedExtActive values and Gb/s per lane (signalling). */
static const struct { bool ext; unsigned int val; const char *name; double gbps; } speeds[] = {
	{ false, 1, "SDR", 2.5 }, { false, 2, "DDR", 5.0 }, { false, 4, "QDR", 10.0 },
	{ true, 1, "FDR", 14.0625 }, { true, 2, "EDR", 25.78125 }, { true, 4, "HDR", 53.125 },
	{ true, 8, "NDR", 106.25 },
};

static int speed_index(unsigned int speed, unsigned int speed_ext)
{
	for (size_t i = 0; i < ARRAY_SIZE(speeds); i++)
		if (speed_ext ? (speeds[i].ext && speeds[i].val == speed_ext)
			      : (!speeds[i].ext && speeds[i].val == speed))
			return (int)i;
	return -1;
}

const char *mad_link_speed_str(unsigned int speed, unsigned int speed_ext)
{
	int i = speed_index(speed, speed_ext);

	return i < 0 ? "unknown" : speeds[i].name;
}

double mad_link_gbps(unsigned int width, unsigned int speed, unsigned int speed_ext)
{
	int i = speed_index(speed, speed_ext);

	for (size_t k = 0; i >= 0 && k < ARRAY_SIZE(widths); k++)
		if (widths[k].bit == width)
			return speeds[i].gbps * widths[k].lanes;
	return 0;
}

const char *mad_status_str(uint16_t status)
{
	/* IBA 13.4.7: bits 2-4 hold the code; bit 0 busy, bit 1 redirect. */
	static const char *const codes[] = {
		"ok", "bad version", "method not supported", "method/attribute not supported",
		"unknown", "unknown", "unknown", "invalid attribute value",
	};

	if (status & 0x1c)
		return codes[(status >> 2) & 7];
	if (status & 1)
		return "busy";
	if (status & 2)
		return "redirect required";
	return "ok";
}
