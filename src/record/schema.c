// SPDX-License-Identifier: GPL-2.0-or-later
/* The model's structs as recorded: field tables, generic encoding, the host and network messages. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive/gid.h"
#include "record/roce.h"
#include "record/schema.h"
#include "util.h"

#define D(num, st, fld, type) { num, #fld, type, offsetof(st, fld), sizeof(((st *)0)->fld) }

static const struct rec_desc device_f[] = {
	D(1, struct fab_device, name, RT_STR),
	D(2, struct fab_device, node_type_num, RT_SINT),
	D(3, struct fab_device, node_type, RT_STR),
	D(4, struct fab_device, node_guid, RT_STR),
	D(5, struct fab_device, sys_image_guid, RT_STR),
	D(6, struct fab_device, fw_ver, RT_STR),
	D(7, struct fab_device, hca_type, RT_STR),
	D(8, struct fab_device, board_id, RT_STR),
	D(9, struct fab_device, hw_rev, RT_STR),
	D(10, struct fab_device, node_desc, RT_STR),
	D(11, struct fab_device, driver, RT_STR),
};

/* Port fields that change with the port's state; the sample times are kept apart (see record/writer.c). */
static const struct rec_desc port_f[] = {
	D(1, struct fab_port, num, RT_UINT),
	D(2, struct fab_port, state, RT_SINT),
	D(3, struct fab_port, phys_state, RT_SINT),
	D(4, struct fab_port, state_raw, RT_STR),
	D(5, struct fab_port, phys_state_raw, RT_STR),
	D(6, struct fab_port, rate, RT_STR),
	D(7, struct fab_port, rate_known, RT_BOOL),
	D(8, struct fab_port, rate_gbps, RT_DOUBLE),
	D(9, struct fab_port, link_layer, RT_SINT),
	D(10, struct fab_port, link_layer_raw, RT_STR),
	D(11, struct fab_port, lid, RT_OPT),
	D(12, struct fab_port, sm_lid, RT_OPT),
	D(13, struct fab_port, lmc, RT_OPT),
	D(14, struct fab_port, sm_sl, RT_OPT),
	D(15, struct fab_port, cap_mask, RT_OPT),
	D(16, struct fab_port, active_mtu, RT_OPT),
	D(17, struct fab_port, max_mtu, RT_OPT),
	D(18, struct fab_port, default_roce_mode, RT_STR),
	D(19, struct fab_port, has_pma, RT_BOOL),
	D(20, struct fab_port, gid_tbl_len, RT_UINT),
};

static const struct rec_desc port_time_f[] = {
	D(1, struct fab_port, sample_ns, RT_UINT),
	D(2, struct fab_port, prev_sample_ns, RT_UINT),
	D(3, struct fab_port, first_sample_ns, RT_UINT),
};

/* A counter's identity; its values travel as struct rec_counter_state. */
static const struct rec_desc counter_f[] = {
	D(1, struct fab_counter, name, RT_STR),
	D(2, struct fab_counter, source, RT_SINT),
	D(3, struct fab_counter, kind, RT_SINT),
	D(4, struct fab_counter, dir, RT_SINT),
};

static const struct rec_desc counter_state_f[] = {
	D(1, struct rec_counter_state, known, RT_BOOL),
	D(2, struct rec_counter_state, saturated, RT_BOOL),
	D(3, struct rec_counter_state, bits, RT_UINT),
	D(4, struct rec_counter_state, value, RT_UINT),
	D(5, struct rec_counter_state, raw, RT_STR),
	D(6, struct rec_counter_state, prev_known, RT_BOOL),
	D(7, struct rec_counter_state, prev_saturated, RT_BOOL),
	D(8, struct rec_counter_state, prev_value, RT_UINT),
	D(9, struct rec_counter_state, first_known, RT_BOOL),
	D(10, struct rec_counter_state, first_value, RT_UINT),
};

static const struct rec_desc gid_f[] = {
	D(1, struct fab_gid, index, RT_UINT),
	D(2, struct fab_gid, raw, RT_BYTES),
	D(3, struct fab_gid, gid, RT_STR),
	D(4, struct fab_gid, type, RT_SINT),
	D(5, struct fab_gid, netdev, RT_STR),
	D(6, struct fab_gid, netdev_in_ns, RT_BOOL),
	D(7, struct fab_gid, has_ipv4, RT_BOOL),
	D(8, struct fab_gid, ipv4, RT_STR),
};

static const struct rec_desc netdev_f[] = {
	D(1, struct fab_netdev, name, RT_STR),
	D(2, struct fab_netdev, in_ns, RT_BOOL),
	D(3, struct fab_netdev, mtu, RT_OPT),
	D(4, struct fab_netdev, ifindex, RT_OPT),
	D(5, struct fab_netdev, operstate, RT_STR),
	D(6, struct fab_netdev, ipoib_mode, RT_STR),
	D(7, struct fab_netdev, pkey, RT_OPT),
	D(8, struct fab_netdev, parent, RT_STR),
};

static const struct rec_desc link_f[] = {
	D(1, struct net_link, ifindex, RT_SINT),
	D(2, struct net_link, name, RT_STR),
	D(3, struct net_link, kind, RT_STR),
	D(4, struct net_link, type, RT_UINT),
	D(5, struct net_link, flags, RT_UINT),
	D(6, struct net_link, operstate, RT_UINT),
	D(7, struct net_link, mtu, RT_UINT),
	D(8, struct net_link, master, RT_SINT),
	D(9, struct net_link, link, RT_SINT),
	D(10, struct net_link, hwaddr, RT_BYTES),
	D(11, struct net_link, hwaddr_len, RT_UINT),
	D(12, struct net_link, ipoib_mode, RT_SINT),
	D(13, struct net_link, ipoib_pkey, RT_SINT),
	D(14, struct net_link, rdma, RT_BOOL),
};

static const struct rec_desc addr_f[] = {
	D(1, struct net_addr, ifindex, RT_SINT),
	D(2, struct net_addr, prefixlen, RT_UINT),
	D(3, struct net_addr, scope, RT_UINT),
	D(4, struct net_addr, flags, RT_UINT),
	D(5, struct net_addr, local, RT_IP),
	D(6, struct net_addr, peer, RT_IP),
	D(7, struct net_addr, label, RT_STR),
};

static const struct rec_desc route_f[] = {
	D(1, struct net_route, table, RT_UINT),
	D(2, struct net_route, family, RT_UINT),
	D(3, struct net_route, dst_len, RT_UINT),
	D(4, struct net_route, src_len, RT_UINT),
	D(5, struct net_route, tos, RT_UINT),
	D(6, struct net_route, type, RT_UINT),
	D(7, struct net_route, protocol, RT_UINT),
	D(8, struct net_route, scope, RT_UINT),
	D(9, struct net_route, dst, RT_IP),
	D(10, struct net_route, src, RT_IP),
	D(11, struct net_route, prefsrc, RT_IP),
	D(12, struct net_route, gateway, RT_IP),
	D(13, struct net_route, oif, RT_SINT),
	D(14, struct net_route, has_priority, RT_BOOL),
	D(15, struct net_route, priority, RT_UINT),
};

static const struct rec_desc rule_f[] = {
	D(1, struct net_rule, family, RT_UINT),
	D(2, struct net_rule, action, RT_UINT),
	D(3, struct net_rule, src_len, RT_UINT),
	D(4, struct net_rule, dst_len, RT_UINT),
	D(5, struct net_rule, tos, RT_UINT),
	D(6, struct net_rule, table, RT_UINT),
	D(7, struct net_rule, has_priority, RT_BOOL),
	D(8, struct net_rule, priority, RT_UINT),
	D(9, struct net_rule, src, RT_IP),
	D(10, struct net_rule, dst, RT_IP),
	D(11, struct net_rule, has_fwmark, RT_BOOL),
	D(12, struct net_rule, fwmark, RT_UINT),
	D(13, struct net_rule, fwmask, RT_UINT),
	D(14, struct net_rule, iifname, RT_STR),
	D(15, struct net_rule, oifname, RT_STR),
	D(16, struct net_rule, invert, RT_BOOL),
};

static const struct rec_desc neigh_f[] = {
	D(1, struct net_neigh, ifindex, RT_SINT),
	D(2, struct net_neigh, family, RT_UINT),
	D(3, struct net_neigh, state, RT_UINT),
	D(4, struct net_neigh, dst, RT_IP),
	D(5, struct net_neigh, lladdr, RT_BYTES),
	D(6, struct net_neigh, lladdr_len, RT_UINT),
};

static const struct rec_desc event_f[] = {
	D(1, struct fab_event, seq, RT_UINT),
	D(2, struct fab_event, real_ns, RT_UINT),
	D(3, struct fab_event, mono_ns, RT_UINT),
	D(4, struct fab_event, kind, RT_UINT),
	D(5, struct fab_event, severity, RT_UINT),
	D(6, struct fab_event, device, RT_STR),
	D(7, struct fab_event, port, RT_UINT),
	D(8, struct fab_event, iface, RT_STR),
	D(9, struct fab_event, what, RT_STR),
	D(10, struct fab_event, evidence, RT_STR),
};

/* The MAD view of a local IB port (model/ibfabric.h): the port's own fields, then its parts as messages. */
static const struct rec_desc mad_port_f[] = {
	D(1, struct ib_local_port, ca, RT_STR),
	D(2, struct ib_local_port, port, RT_UINT),
	D(3, struct ib_local_port, umad_dev, RT_STR),
	D(4, struct ib_local_port, self_state, RT_SINT),
	D(5, struct ib_local_port, peer_state, RT_SINT),
	D(6, struct ib_local_port, note, RT_STR),
};

static const struct rec_desc ib_node_f[] = {
	D(1, struct ib_node_id, node_guid, RT_UINT),
	D(2, struct ib_node_id, sys_image_guid, RT_UINT),
	D(3, struct ib_node_id, port_guid, RT_UINT),
	D(4, struct ib_node_id, node_type, RT_UINT),
	D(5, struct ib_node_id, num_ports, RT_UINT),
	D(6, struct ib_node_id, vendor_id, RT_UINT),
	D(7, struct ib_node_id, device_id, RT_UINT),
	D(8, struct ib_node_id, desc, RT_STR),
};

static const struct rec_desc ib_port_f[] = {
	D(1, struct ib_port_id, num, RT_UINT),
	D(2, struct ib_port_id, lid, RT_UINT),
	D(3, struct ib_port_id, sm_lid, RT_UINT),
	D(4, struct ib_port_id, sm_sl, RT_UINT),
	D(5, struct ib_port_id, lmc, RT_UINT),
	D(6, struct ib_port_id, state, RT_UINT),
	D(7, struct ib_port_id, phys_state, RT_UINT),
	D(8, struct ib_port_id, width, RT_UINT),
	D(9, struct ib_port_id, speed, RT_UINT),
	D(10, struct ib_port_id, speed_ext, RT_UINT),
	D(11, struct ib_port_id, cap_mask, RT_UINT),
	D(12, struct ib_port_id, width_sup, RT_UINT),
	D(13, struct ib_port_id, width_en, RT_UINT),
	D(14, struct ib_port_id, speed_sup, RT_UINT),
	D(15, struct ib_port_id, speed_en, RT_UINT),
	D(16, struct ib_port_id, speed_ext_sup, RT_UINT),
};

static const struct rec_desc ib_sm_f[] = {
	D(1, struct ib_sm, state, RT_SINT),
	D(2, struct ib_sm, lid, RT_UINT),
	D(3, struct ib_sm, sl, RT_UINT),
	D(4, struct ib_sm, guid, RT_UINT),
	D(5, struct ib_sm, priority, RT_UINT),
	D(6, struct ib_sm, sm_state, RT_UINT),
	D(7, struct ib_sm, act_count, RT_UINT),
};

/* A PMA's answer; its counters go as the counter and counter_state tables. */
static const struct rec_desc ib_pma_f[] = {
	D(1, struct ib_pma, state, RT_SINT),
	D(2, struct ib_pma, status, RT_UINT),
	D(3, struct ib_pma, cpi_known, RT_BOOL),
	D(4, struct ib_pma, cap_mask, RT_UINT),
	D(5, struct ib_pma, ext, RT_BOOL),
	D(6, struct ib_pma, ext_failed, RT_BOOL),
	D(7, struct ib_pma, lid, RT_UINT),
	D(8, struct ib_pma, port_select, RT_UINT),
	D(9, struct ib_pma, sample_ns, RT_UINT),
	D(10, struct ib_pma, prev_sample_ns, RT_UINT),
	D(11, struct ib_pma, tick_state, RT_SINT),
	D(12, struct ib_pma, tick, RT_UINT),
};

/* The probe's state and numbers (probe/probe.h), as the Probe pane shows them. */
static const struct rec_desc probe_f[] = {
	D(1, struct rec_probe, run, RT_UINT),
	D(2, struct rec_probe, peer, RT_STR),
	D(3, struct rec_probe, from_ifname, RT_STR),
	D(4, struct rec_probe, st.state, RT_SINT),
	D(5, struct rec_probe, st.mode, RT_SINT),
	D(6, struct rec_probe, st.listen, RT_BOOL),
	D(7, struct rec_probe, st.local, RT_STR),
	D(8, struct rec_probe, st.remote, RT_STR),
	D(9, struct rec_probe, st.device, RT_STR),
	D(10, struct rec_probe, st.port_num, RT_UINT),
	D(11, struct rec_probe, st.sgid_index, RT_SINT),
	D(12, struct rec_probe, st.sgid_type, RT_STR),
	D(13, struct rec_probe, st.size, RT_UINT),
	D(14, struct rec_probe, st.depth, RT_UINT),
	D(15, struct rec_probe, st.bw_send, RT_BOOL),
	D(16, struct rec_probe, st.events_total, RT_UINT),
	D(17, struct rec_probe, st.error, RT_STR),
	D(18, struct rec_probe, st.msgs, RT_UINT),
	D(19, struct rec_probe, st.bytes, RT_UINT),
	D(20, struct rec_probe, st.payload_errors, RT_UINT),
	D(21, struct rec_probe, st.data_ns, RT_UINT),
	D(22, struct rec_probe, st.gbps, RT_DOUBLE),
	D(23, struct rec_probe, st.msgs_per_s, RT_DOUBLE),
	D(24, struct rec_probe, st.avg_gbps, RT_DOUBLE),
	D(25, struct rec_probe, st.lat.n, RT_UINT),
	D(26, struct rec_probe, st.lat.min_ns, RT_UINT),
	D(27, struct rec_probe, st.lat.p50_ns, RT_UINT),
	D(28, struct rec_probe, st.lat.p99_ns, RT_UINT),
	D(29, struct rec_probe, st.lat.max_ns, RT_UINT),
	D(30, struct rec_probe, st.conns_active, RT_UINT),
	D(31, struct rec_probe, st.conns_accepted, RT_UINT),
	D(32, struct rec_probe, st.conns_rejected, RT_UINT),
	D(33, struct rec_probe, st.conns_dropped, RT_UINT),
	D(34, struct rec_probe, st.conns_done, RT_UINT),
	D(35, struct rec_probe, elapsed_ns, RT_UINT),
	D(36, struct rec_probe, point, RT_BOOL),
};

static const struct rec_desc probe_event_f[] = {
	D(1, struct probe_event, t_ns, RT_UINT),
	D(2, struct probe_event, name, RT_STR),
	D(3, struct probe_event, status, RT_SINT),
	D(4, struct probe_event, error, RT_BOOL),
	D(5, struct probe_event, text, RT_STR),
};

/* A port's RoCE chain (model/roce.h): its own fields, then DCB, ethtool, counters and ECN as messages. */
static const struct rec_desc roce_port_f[] = {
	D(1, struct roce_port, dev, RT_STR),
	D(2, struct roce_port, port, RT_UINT),
	D(3, struct roce_port, netdev, RT_STR),
	D(4, struct roce_port, recorded, RT_BOOL),
	D(5, struct roce_port, tos.known, RT_BOOL),
	D(6, struct roce_port, tos.value, RT_UINT),
	D(7, struct roce_port, roce_mode, RT_STR),
	D(8, struct roce_port, has_v2_gids, RT_BOOL),
};

/* The DCB answer; its APP table and PFC frame counts go as messages (record/roce.c). */
static const struct rec_desc roce_dcb_f[] = {
	D(1, struct roce_dcb, err, RT_SINT),
	D(2, struct roce_dcb, has_ets, RT_BOOL),
	D(3, struct roce_dcb, has_pfc, RT_BOOL),
	D(4, struct roce_dcb, has_dcbx, RT_BOOL),
	D(5, struct roce_dcb, has_trust, RT_BOOL),
	D(6, struct roce_dcb, ets_cap, RT_UINT),
	D(7, struct roce_dcb, prio_tc, RT_BYTES),
	D(8, struct roce_dcb, tc_tx_bw, RT_BYTES),
	D(9, struct roce_dcb, tc_tsa, RT_BYTES),
	D(10, struct roce_dcb, pfc_cap, RT_UINT),
	D(11, struct roce_dcb, pfc_en, RT_UINT),
	D(12, struct roce_dcb, pfc_delay, RT_UINT),
	D(13, struct roce_dcb, apps_dropped, RT_UINT),
	D(14, struct roce_dcb, trust, RT_BYTES),
	D(15, struct roce_dcb, ntrust, RT_UINT),
	D(16, struct roce_dcb, dcbx, RT_UINT),
	D(17, struct roce_dcb, unknown_attrs, RT_UINT),
};

static const struct rec_desc roce_app_f[] = {
	D(1, struct roce_app, selector, RT_UINT),
	D(2, struct roce_app, priority, RT_UINT),
	D(3, struct roce_app, protocol, RT_UINT),
};

/* What the ethtool statistics and pause answered; the counters go as roce_ctr messages. */
static const struct rec_desc roce_ethtool_f[] = {
	D(1, struct roce_ethtool, err, RT_SINT),
	D(2, struct roce_ethtool, nstats, RT_UINT),
	D(3, struct roce_ethtool, nmatched, RT_UINT),
	D(4, struct roce_ethtool, pause_err, RT_SINT),
	D(5, struct roce_ethtool, pause_known, RT_BOOL),
	D(6, struct roce_ethtool, pause_autoneg, RT_BOOL),
	D(7, struct roce_ethtool, pause_rx, RT_BOOL),
	D(8, struct roce_ethtool, pause_tx, RT_BOOL),
};

static const struct rec_desc roce_ctr_f[] = {
	D(1, struct rec_roce_ctr, id, RT_UINT),
	D(2, struct rec_roce_ctr, prio, RT_UINT),
	D(3, struct rec_roce_ctr, value, RT_UINT),
};

static const struct rec_desc roce_ecn_f[] = {
	D(1, struct rec_roce_ecn, known, RT_BOOL),
	D(2, struct rec_roce_ecn, np_known, RT_UINT),
	D(3, struct rec_roce_ecn, np, RT_UINT),
	D(4, struct rec_roce_ecn, rp_known, RT_UINT),
	D(5, struct rec_roce_ecn, rp, RT_UINT),
};

/* One interface's sysctls: the name, then each setting as a message of four optional ints. */
static const struct rec_desc sysctl_f[] = {
	D(1, struct net_if_sysctls, ifname, RT_STR),
};

#define TABLE(var, nm, arr) const struct rec_table var = { nm, arr, ARRAY_SIZE(arr) }
TABLE(rec_device_table, "device", device_f);
TABLE(rec_port_table, "port", port_f);
TABLE(rec_port_time_table, "port_time", port_time_f);
TABLE(rec_counter_table, "counter", counter_f);
TABLE(rec_counter_state_table, "counter_state", counter_state_f);
TABLE(rec_gid_table, "gid", gid_f);
TABLE(rec_netdev_table, "netdev", netdev_f);
TABLE(rec_link_table, "link", link_f);
TABLE(rec_addr_table, "addr", addr_f);
TABLE(rec_route_table, "route", route_f);
TABLE(rec_rule_table, "rule", rule_f);
TABLE(rec_neigh_table, "neigh", neigh_f);
TABLE(rec_sysctl_table, "sysctls", sysctl_f);
TABLE(rec_event_table, "event", event_f);
TABLE(rec_mad_port_table, "mad_port", mad_port_f);
TABLE(rec_ib_node_table, "ib_node", ib_node_f);
TABLE(rec_ib_port_table, "ib_port", ib_port_f);
TABLE(rec_ib_sm_table, "ib_sm", ib_sm_f);
TABLE(rec_ib_pma_table, "ib_pma", ib_pma_f);
TABLE(rec_probe_table, "probe", probe_f);
TABLE(rec_probe_event_table, "probe_event", probe_event_f);
TABLE(rec_roce_port_table, "roce_port", roce_port_f);
TABLE(rec_roce_dcb_table, "roce_dcb", roce_dcb_f);
TABLE(rec_roce_app_table, "roce_app", roce_app_f);
TABLE(rec_roce_ethtool_table, "roce_ethtool", roce_ethtool_f);
TABLE(rec_roce_ctr_table, "roce_ctr", roce_ctr_f);
TABLE(rec_roce_ecn_table, "roce_ecn", roce_ecn_f);

const struct rec_table *const rec_tables[] = {
	&rec_device_table, &rec_port_table, &rec_port_time_table, &rec_counter_table, &rec_counter_state_table,
	&rec_gid_table, &rec_netdev_table, &rec_link_table, &rec_addr_table, &rec_route_table,
	&rec_rule_table, &rec_neigh_table, &rec_sysctl_table, &rec_event_table, &rec_mad_port_table,
	&rec_ib_node_table, &rec_ib_port_table, &rec_ib_sm_table, &rec_ib_pma_table, &rec_probe_table,
	&rec_probe_event_table, &rec_roce_port_table, &rec_roce_dcb_table, &rec_roce_app_table,
	&rec_roce_ethtool_table, &rec_roce_ctr_table, &rec_roce_ecn_table,
};
const size_t rec_ntables = ARRAY_SIZE(rec_tables);


static uint64_t load_uint(const void *p, size_t size)
{
	switch (size) {
	case 1: return *(const uint8_t *)p;
	case 2: return *(const uint16_t *)p;
	case 4: return *(const uint32_t *)p;
	default: return *(const uint64_t *)p;
	}
}

static int64_t load_sint(const void *p, size_t size)
{
	switch (size) {
	case 1: return *(const int8_t *)p;
	case 2: return *(const int16_t *)p;
	case 4: return *(const int32_t *)p;
	default: return *(const int64_t *)p;
	}
}

static void store_uint(void *p, size_t size, uint64_t v)
{
	switch (size) {
	case 1: *(uint8_t *)p = (uint8_t)v; break;
	case 2: *(uint16_t *)p = (uint16_t)v; break;
	case 4: *(uint32_t *)p = (uint32_t)v; break;
	default: *(uint64_t *)p = v; break;
	}
}

/* One field, always written (the caller decided it should be). */
static void put_field(struct rec_buf *b, const struct rec_desc *d, const void *s)
{
	const uint8_t *p = (const uint8_t *)s + d->off;

	switch (d->type) {
	case RT_UINT:
		rec_put_uint(b, d->num, load_uint(p, d->size));
		break;
	case RT_SINT:
		rec_put_sint(b, d->num, load_sint(p, d->size));
		break;
	case RT_BOOL:
		rec_put_uint(b, d->num, *(const bool *)p);
		break;
	case RT_DOUBLE:
		rec_put_double(b, d->num, *(const double *)p);
		break;
	case RT_STR:
		rec_put_bytes(b, d->num, p, strnlen((const char *)p, d->size));
		break;
	case RT_BYTES:
		rec_put_bytes(b, d->num, p, d->size);
		break;
	case RT_OPT: {
		const struct opt_u64 *o = (const void *)p;

		/* value + 1 would overflow at 2^64-1: known values go as a nested varint */
		if (o->known) {
			size_t m = rec_put_begin(b, d->num);

			rec_put_varint(b, o->value);
			rec_put_end(b, m);
		} else {
			rec_put_bytes(b, d->num, NULL, 0);
		}
		break;
	}
	case RT_IP: {
		const struct net_ip *ip = (const void *)p;
		uint8_t tmp[17];
		size_t n = ip->family == AF_INET ? 4 : ip->family ? 16 : 0;

		tmp[0] = ip->family;
		memcpy(tmp + 1, ip->bytes, n);
		rec_put_bytes(b, d->num, tmp, 1 + n);
		break;
	}
	}
}

/* The field's canonical content (what decides "zero" and "changed"): strings up to their NUL. */
static bool field_same(const struct rec_desc *d, const void *a, const void *b)
{
	const uint8_t *pa = (const uint8_t *)a + d->off, *pb = (const uint8_t *)b + d->off;

	if (d->type == RT_STR)
		return strncmp((const char *)pa, (const char *)pb, d->size) == 0;
	if (d->type == RT_OPT) {
		const struct opt_u64 *x = (const void *)pa, *y = (const void *)pb;

		return x->known == y->known && (!x->known || x->value == y->value);
	}
	if (d->type == RT_IP) {
		const struct net_ip *x = (const void *)pa, *y = (const void *)pb;

		return x->family == y->family && (!x->family || net_ip_eq(x, y));
	}
	if (d->type == RT_BOOL)
		return *(const bool *)pa == *(const bool *)pb;
	return memcmp(pa, pb, d->size) == 0;
}

/* Zero, as a reader's zero-filled struct has it: such fields are left out. */
static bool field_zero(const struct rec_desc *d, const void *s)
{
	const uint8_t *p = (const uint8_t *)s + d->off;

	switch (d->type) {
	case RT_STR:
		return !p[0];
	case RT_OPT:
		return !((const struct opt_u64 *)(const void *)p)->known;
	case RT_IP:
		return !((const struct net_ip *)(const void *)p)->family;
	case RT_BOOL:
		return !*(const bool *)p;
	default:
		for (size_t i = 0; i < d->size; i++)
			if (p[i])
				return false;
		return true;
	}
}

void rec_encode(struct rec_buf *b, const struct rec_table *t, const void *s)
{
	for (size_t i = 0; i < t->n; i++)
		if (!field_zero(&t->f[i], s))
			put_field(b, &t->f[i], s);
}

void rec_encode_diff(struct rec_buf *b, const struct rec_table *t, const void *s, const void *old)
{
	for (size_t i = 0; i < t->n; i++)
		if (!field_same(&t->f[i], s, old))
			put_field(b, &t->f[i], s);
}

bool rec_decode_field(struct rec_cur *c, const struct rec_table *t, void *s, const struct rec_field *f)
{
	const struct rec_desc *d = NULL;
	uint8_t *p;

	for (size_t i = 0; i < t->n && !d; i++)
		if (t->f[i].num == f->num)
			d = &t->f[i];
	if (!d)
		return false;
	p = (uint8_t *)s + d->off;
	switch (d->type) {
	case RT_UINT:
	case RT_BOOL:
		if (f->wire != REC_WIRE_VARINT)
			goto bad;
		if (d->type == RT_BOOL)
			*(bool *)p = f->u != 0;
		else
			store_uint(p, d->size, f->u);
		return true;
	case RT_SINT:
		if (f->wire != REC_WIRE_VARINT)
			goto bad;
		store_uint(p, d->size, (uint64_t)rec_unzigzag(f->u));
		return true;
	case RT_DOUBLE:
		if (f->wire != REC_WIRE_FIXED64)
			goto bad;
		*(double *)p = rec_field_double(f);
		return true;
	case RT_STR:
		if (f->wire != REC_WIRE_BYTES)
			goto bad;
		rec_field_str(f, (char *)p, d->size);
		return true;
	case RT_BYTES:
		if (f->wire != REC_WIRE_BYTES)
			goto bad;
		memset(p, 0, d->size);
		memcpy(p, f->bytes, f->len < d->size ? f->len : d->size);
		return true;
	case RT_OPT: {
		struct opt_u64 *o = (void *)p;
		struct rec_cur sub;

		if (f->wire != REC_WIRE_BYTES)
			goto bad;
		o->known = f->len > 0;
		o->value = 0;
		rec_cur_sub(&sub, c, f);
		if (o->known && !rec_get_varint(&sub, &o->value)) {
			rec_fail(c, f->bytes, sub.err);
			return true;
		}
		return true;
	}
	case RT_IP: {
		struct net_ip *ip = (void *)p;

		if (f->wire != REC_WIRE_BYTES || !f->len || f->len > 17 ||
		    (f->bytes[0] == AF_INET && f->len != 5) || (f->bytes[0] == AF_INET6 && f->len != 17) ||
		    (!f->bytes[0] && f->len != 1))
			goto bad;
		memset(ip, 0, sizeof(*ip));
		ip->family = f->bytes[0];
		memcpy(ip->bytes, f->bytes + 1, f->len - 1);
		return true;
	}
	}
bad:
	rec_fail(c, f->bytes ? f->bytes : c->p, "a field of the type its schema gives");
	return true;
}

void rec_counter_state_get(struct rec_counter_state *st, const struct fab_counter *c)
{
	memset(st, 0, sizeof(*st));
	st->known = c->known;
	st->saturated = c->saturated;
	st->bits = c->bits;
	st->value = c->value;
	/* only up to the NUL: what follows it in the counter is noise, and states are compared whole */
	snprintf(st->raw, sizeof(st->raw), "%.*s", (int)sizeof(st->raw) - 1, c->raw);
	st->prev_known = c->prev_known;
	st->prev_saturated = c->prev_saturated;
	st->prev_value = c->prev_value;
	st->first_known = c->first_known;
	st->first_value = c->first_value;
}

void rec_counter_state_set(struct fab_counter *c, const struct rec_counter_state *st)
{
	c->known = st->known;
	c->saturated = st->saturated;
	c->bits = st->bits;
	c->value = st->value;
	snprintf(c->raw, sizeof(c->raw), "%s", st->raw);
	c->prev_known = st->prev_known;
	c->prev_saturated = st->prev_saturated;
	c->prev_value = st->prev_value;
	c->first_known = st->first_known;
	c->first_value = st->first_value;
}

/* Field numbers of the messages around the tables (doc/recording.md). */
enum {
	HOST_HOSTNAME = 1, HOST_SYSFS_MISSING = 2, HOST_DEVICE = 3,
	DEVICE_PORT = 20,
	PORT_TIME = 30, PORT_PKEYS = 31, PORT_NETDEV = 32, PORT_COUNTER = 33, PORT_GID = 34,
	COUNTER_STATE = 10,
	NET_LINK = 1, NET_ADDR = 2, NET_ROUTE = 3, NET_RULE = 4, NET_NEIGH = 5, NET_SYSCTLS = 6, NET_LIVE = 7,
	SYSCTLS_SETTING = 2,
	SETTING_ID = 1, SETTING_ALL = 2, SETTING_DFLT = 3, SETTING_IFACE = 4, SETTING_EFFECTIVE = 5,
	OPTINT_KNOWN = 1, OPTINT_VALUE = 2,
};

void rec_put_msg(struct rec_buf *b, unsigned int field, const struct rec_table *t, const void *s)
{
	size_t m = rec_put_begin(b, field);

	rec_encode(b, t, s);
	rec_put_end(b, m);
}

void rec_encode_counter_state(struct rec_buf *b, unsigned int field, const struct fab_counter *c)
{
	struct rec_counter_state st;

	rec_counter_state_get(&st, c);
	rec_put_msg(b, field, &rec_counter_state_table, &st);
}

static void encode_port(struct rec_buf *b, const struct fab_port *p)
{
	size_t m = rec_put_begin(b, DEVICE_PORT);

	rec_encode(b, &rec_port_table, p);
	rec_put_msg(b, PORT_TIME, &rec_port_time_table, p);
	if (p->npkeys) {
		size_t k = rec_put_begin(b, PORT_PKEYS);

		for (unsigned int i = 0; i < p->npkeys && i < FAB_MAX_PKEYS; i++)
			rec_put_varint(b, p->pkeys[i]);
		rec_put_end(b, k);
	}
	for (unsigned int i = 0; i < p->nnetdevs && i < FAB_MAX_NETDEVS; i++)
		rec_put_msg(b, PORT_NETDEV, &rec_netdev_table, &p->netdevs[i]);
	for (size_t i = 0; i < p->ncounters; i++) {
		size_t c = rec_put_begin(b, PORT_COUNTER);

		rec_encode(b, &rec_counter_table, &p->counters[i]);
		rec_encode_counter_state(b, COUNTER_STATE, &p->counters[i]);
		rec_put_end(b, c);
	}
	for (size_t i = 0; i < p->ngids; i++)
		rec_put_msg(b, PORT_GID, &rec_gid_table, &p->gids[i]);
	rec_put_end(b, m);
}

void rec_encode_host(struct rec_buf *b, const struct fab_host *h)
{
	rec_put_str(b, HOST_HOSTNAME, h->hostname);
	if (h->sysfs_missing)
		rec_put_uint(b, HOST_SYSFS_MISSING, 1);
	for (size_t i = 0; i < h->ndevs; i++) {
		const struct fab_device *d = &h->devs[i];
		size_t m = rec_put_begin(b, HOST_DEVICE);

		rec_encode(b, &rec_device_table, d);
		for (size_t j = 0; j < d->nports; j++)
			encode_port(b, &d->ports[j]);
		rec_put_end(b, m);
	}
}

/* How many fields numbered num the message holds (to size its array before filling it). */
static size_t count_fields(const struct rec_cur *c, unsigned int num)
{
	struct rec_cur k = *c;
	struct rec_field f;
	size_t n = 0;

	while (rec_next(&k, &f))
		n += f.num == num;
	return n;
}

/* A nested message into s through table t; unknown fields are skipped. */
void rec_decode_msg(struct rec_cur *c, const struct rec_field *f, const struct rec_table *t, void *s)
{
	struct rec_cur sub;
	struct rec_field g;

	if (f->wire != REC_WIRE_BYTES) {
		rec_fail(c, c->p, "a nested message");
		return;
	}
	rec_cur_sub(&sub, c, f);
	while (rec_next(&sub, &g))
		rec_decode_field(&sub, t, s, &g);
	if (sub.err)
		rec_fail(c, sub.base + sub.err_off, sub.err);
}

void rec_decode_counter_state(struct rec_cur *c, const struct rec_field *f, struct fab_counter *ctr)
{
	struct rec_counter_state st;

	memset(&st, 0, sizeof(st));
	rec_decode_msg(c, f, &rec_counter_state_table, &st);
	rec_counter_state_set(ctr, &st);
}

/*
 * What a decode may still allocate. A file's counts are believed only up to
 * the collector's own limits (model/fabric.h) and this budget: an empty port
 * is 3 bytes in a file and a struct fab_port of ~1.9 KB in memory, so a small
 * file could otherwise ask for gigabytes.
 */
struct budget {
	size_t left;
	bool oom;		/* an allocation within the budget failed */
	bool stop;		/* oom or a count refused (c->err says which) */
};

static void budget_init(struct budget *b)
{
	*b = (struct budget){ .left = REC_DECODE_BUDGET };
}

/*
 * calloc of n elements, or NULL for none; more than max, or more than the
 * budget left, fails c at its position with too_many (what was expected).
 */
static void *take_n(struct rec_cur *c, struct budget *b, size_t n, size_t size, size_t max, const char *too_many)
{
	void *p;

	if (!n)
		return NULL;
	if (n > max) {
		rec_fail(c, c->p, too_many);
		b->stop = true;
		return NULL;
	}
	if (n > b->left / size) {
		rec_fail(c, c->p, REC_DECODE_BUDGET_TEXT);
		b->stop = true;
		return NULL;
	}
	b->left -= n * size;
	p = calloc(n, size);
	if (!p)
		b->oom = b->stop = true;
	return p;
}

/* The messages say the limits as numbers: they must be these. */
_Static_assert(FAB_MAX_DEVICES == 1024 && FAB_MAX_PORTS == 256 && FAB_MAX_PORT_COUNTERS == 3584 &&
	       FAB_MAX_GIDS == 4096, "the limits in decode_host()'s messages");

static void decode_port(struct rec_cur *c, struct fab_port *p, bool iwarp, struct budget *b)
{
	struct rec_field f;
	size_t nc = count_fields(c, PORT_COUNTER), ng = count_fields(c, PORT_GID);

	p->counters = take_n(c, b, nc, sizeof(*p->counters), FAB_MAX_PORT_COUNTERS,
			     "at most 3584 counters in a port (the most the collector reads)");
	if (!b->stop)
		p->gids = take_n(c, b, ng, sizeof(*p->gids), FAB_MAX_GIDS,
				 "at most 4096 GIDs in a port (the most the collector reads)");
	if (b->stop)
		return;
	while (rec_next(c, &f)) {
		if (rec_decode_field(c, &rec_port_table, p, &f))
			continue;
		switch (f.num) {
		case PORT_TIME:
			rec_decode_msg(c, &f, &rec_port_time_table, p);
			break;
		case PORT_PKEYS: {
			struct rec_cur k;
			uint64_t v;

			rec_cur_sub(&k, c, &f);
			while (k.p < k.end && rec_get_varint(&k, &v))
				if (p->npkeys < FAB_MAX_PKEYS)
					p->pkeys[p->npkeys++] = (uint16_t)v;
			if (k.err)
				rec_fail(c, k.base + k.err_off, k.err);
			break;
		}
		case PORT_NETDEV:
			if (p->nnetdevs < FAB_MAX_NETDEVS)
				rec_decode_msg(c, &f, &rec_netdev_table, &p->netdevs[p->nnetdevs++]);
			break;
		case PORT_COUNTER: {
			struct fab_counter *ctr = &p->counters[p->ncounters++];
			struct rec_cur sub;
			struct rec_field g;

			ctr->fd = -1;
			rec_cur_sub(&sub, c, &f);
			while (rec_next(&sub, &g)) {
				if (rec_decode_field(&sub, &rec_counter_table, ctr, &g))
					continue;
				if (g.num == COUNTER_STATE)
					rec_decode_counter_state(&sub, &g, ctr);
			}
			if (sub.err)
				rec_fail(c, sub.base + sub.err_off, sub.err);
			break;
		}
		case PORT_GID: {
			struct fab_gid *g = &p->gids[p->ngids];

			/* an empty entry an older fabtop recorded is left out, as the collector leaves it */
			rec_decode_msg(c, &f, &rec_gid_table, g);
			if (gid_is_empty(g->raw, iwarp))
				memset(g, 0, sizeof(*g));
			else
				p->ngids++;
			break;
		}
		}
	}
}

static void decode_device(struct rec_cur *c, struct fab_device *d, struct budget *b)
{
	struct rec_field f;

	d->ports = take_n(c, b, count_fields(c, DEVICE_PORT), sizeof(*d->ports), FAB_MAX_PORTS,
			  "at most 256 ports in a device (the most the collector reads)");
	while (!b->stop && rec_next(c, &f)) {
		struct rec_cur sub;

		if (rec_decode_field(c, &rec_device_table, d, &f) || f.num != DEVICE_PORT)
			continue;
		rec_cur_sub(&sub, c, &f);
		/* the device's fields come before its ports (rec_encode_host()) */
		decode_port(&sub, &d->ports[d->nports++], d->node_type_num == 4, b);
		if (sub.err)
			rec_fail(c, sub.base + sub.err_off, sub.err);
	}
}

int rec_decode_host(struct rec_cur *c, struct fab_host *h)
{
	struct rec_field f;
	struct budget b;

	budget_init(&b);
	h->devs = take_n(c, &b, count_fields(c, HOST_DEVICE), sizeof(*h->devs), FAB_MAX_DEVICES,
			 "at most 1024 devices in a host (the most the collector reads)");
	while (!b.stop && rec_next(c, &f)) {
		struct rec_cur sub;

		switch (f.num) {
		case HOST_HOSTNAME:
			rec_field_str(&f, h->hostname, sizeof(h->hostname));
			break;
		case HOST_SYSFS_MISSING:
			h->sysfs_missing = f.u != 0;
			break;
		case HOST_DEVICE:
			rec_cur_sub(&sub, c, &f);
			decode_device(&sub, &h->devs[h->ndevs++], &b);
			if (sub.err)
				rec_fail(c, sub.base + sub.err_off, sub.err);
			break;
		}
	}
	if (b.oom)
		return -ENOMEM;
	return c->err ? -EINVAL : 0;
}

static void put_optint(struct rec_buf *b, unsigned int field, struct net_opt_int v)
{
	size_t m;

	if (!v.known)
		return;
	m = rec_put_begin(b, field);
	rec_put_uint(b, OPTINT_KNOWN, 1);
	rec_put_sint(b, OPTINT_VALUE, v.value);
	rec_put_end(b, m);
}

void rec_encode_net(struct rec_buf *b, const struct net_state *st)
{
	for (size_t i = 0; i < st->nlinks; i++)
		rec_put_msg(b, NET_LINK, &rec_link_table, &st->links[i]);
	for (size_t i = 0; i < st->naddrs; i++)
		rec_put_msg(b, NET_ADDR, &rec_addr_table, &st->addrs[i]);
	for (size_t i = 0; i < st->nroutes; i++)
		rec_put_msg(b, NET_ROUTE, &rec_route_table, &st->routes[i]);
	for (size_t i = 0; i < st->nrules; i++)
		rec_put_msg(b, NET_RULE, &rec_rule_table, &st->rules[i]);
	for (size_t i = 0; i < st->nneighs; i++)
		rec_put_msg(b, NET_NEIGH, &rec_neigh_table, &st->neighs[i]);
	for (size_t i = 0; i < st->nsysctls; i++) {
		const struct net_if_sysctls *s = &st->sysctls[i];
		size_t m = rec_put_begin(b, NET_SYSCTLS);

		rec_encode(b, &rec_sysctl_table, s);
		for (int id = 0; id < NET_SYSCTL_COUNT; id++) {
			size_t k = rec_put_begin(b, SYSCTLS_SETTING);

			rec_put_uint(b, SETTING_ID, (uint64_t)id + 1);
			put_optint(b, SETTING_ALL, s->v[id].all);
			put_optint(b, SETTING_DFLT, s->v[id].dflt);
			put_optint(b, SETTING_IFACE, s->v[id].iface);
			put_optint(b, SETTING_EFFECTIVE, s->v[id].effective);
			rec_put_end(b, k);
		}
		rec_put_end(b, m);
	}
	/* A replayed state is never this host's kernel: "live" is kept only as what it was. */
	if (st->live)
		rec_put_uint(b, NET_LIVE, 1);
}

static struct net_opt_int get_optint(struct rec_cur *c, const struct rec_field *f)
{
	struct net_opt_int v = { 0 };
	struct rec_cur sub;
	struct rec_field g;

	rec_cur_sub(&sub, c, f);
	while (rec_next(&sub, &g)) {
		if (g.num == OPTINT_KNOWN)
			v.known = g.u != 0;
		else if (g.num == OPTINT_VALUE)
			v.value = (int)rec_unzigzag(g.u);
	}
	if (sub.err)
		rec_fail(c, sub.base + sub.err_off, sub.err);
	return v;
}

static void decode_sysctls(struct rec_cur *c, const struct rec_field *f, struct net_if_sysctls *s)
{
	struct rec_cur sub;
	struct rec_field g;

	rec_cur_sub(&sub, c, f);
	while (rec_next(&sub, &g)) {
		struct rec_cur k;
		struct rec_field h;
		struct net_sysctl_val v = { 0 };
		uint64_t id = 0;

		if (rec_decode_field(&sub, &rec_sysctl_table, s, &g) || g.num != SYSCTLS_SETTING)
			continue;
		rec_cur_sub(&k, &sub, &g);
		while (rec_next(&k, &h)) {
			switch (h.num) {
			case SETTING_ID: id = h.u; break;
			case SETTING_ALL: v.all = get_optint(&k, &h); break;
			case SETTING_DFLT: v.dflt = get_optint(&k, &h); break;
			case SETTING_IFACE: v.iface = get_optint(&k, &h); break;
			case SETTING_EFFECTIVE: v.effective = get_optint(&k, &h); break;
			}
		}
		if (k.err)
			rec_fail(&sub, k.base + k.err_off, k.err);
		if (id >= 1 && id <= NET_SYSCTL_COUNT)
			s->v[id - 1] = v;
	}
	if (sub.err)
		rec_fail(c, sub.base + sub.err_off, sub.err);
}

int rec_decode_net(struct rec_cur *c, struct net_state *st)
{
	struct rec_field f;
	struct budget b;

	/* the network collector keeps no count limit of its own: the budget alone bounds these */
	budget_init(&b);
	st->links = take_n(c, &b, count_fields(c, NET_LINK), sizeof(*st->links), SIZE_MAX, NULL);
	if (!b.stop)
		st->addrs = take_n(c, &b, count_fields(c, NET_ADDR), sizeof(*st->addrs), SIZE_MAX, NULL);
	if (!b.stop)
		st->routes = take_n(c, &b, count_fields(c, NET_ROUTE), sizeof(*st->routes), SIZE_MAX, NULL);
	if (!b.stop)
		st->rules = take_n(c, &b, count_fields(c, NET_RULE), sizeof(*st->rules), SIZE_MAX, NULL);
	if (!b.stop)
		st->neighs = take_n(c, &b, count_fields(c, NET_NEIGH), sizeof(*st->neighs), SIZE_MAX, NULL);
	if (!b.stop)
		st->sysctls = take_n(c, &b, count_fields(c, NET_SYSCTLS), sizeof(*st->sysctls), SIZE_MAX, NULL);
	if (b.oom)
		return -ENOMEM;
	if (b.stop)
		return -EINVAL;
	while (rec_next(c, &f)) {
		switch (f.num) {
		case NET_LINK: rec_decode_msg(c, &f, &rec_link_table, &st->links[st->nlinks++]); break;
		case NET_ADDR: rec_decode_msg(c, &f, &rec_addr_table, &st->addrs[st->naddrs++]); break;
		case NET_ROUTE: rec_decode_msg(c, &f, &rec_route_table, &st->routes[st->nroutes++]); break;
		case NET_RULE: rec_decode_msg(c, &f, &rec_rule_table, &st->rules[st->nrules++]); break;
		case NET_NEIGH: rec_decode_msg(c, &f, &rec_neigh_table, &st->neighs[st->nneighs++]); break;
		case NET_SYSCTLS: decode_sysctls(c, &f, &st->sysctls[st->nsysctls++]); break;
		}
	}
	/* Route questions about a recording are answered by the model, never by this kernel. */
	st->live = false;
	for (size_t i = 0; i < st->nlinks; i++)
		if (st->links[i].hwaddr_len > NET_HWADDR_MAX)
			st->links[i].hwaddr_len = NET_HWADDR_MAX;
	for (size_t i = 0; i < st->nneighs; i++)
		if (st->neighs[i].lladdr_len > NET_HWADDR_MAX)
			st->neighs[i].lladdr_len = NET_HWADDR_MAX;
	return c->err ? -EINVAL : 0;
}

void rec_encode_event(struct rec_buf *b, const struct fab_event *ev)
{
	rec_encode(b, &rec_event_table, ev);
}

int rec_decode_event(struct rec_cur *c, struct fab_event *ev)
{
	struct rec_field f;

	memset(ev, 0, sizeof(*ev));
	while (rec_next(c, &f))
		rec_decode_field(c, &rec_event_table, ev, &f);
	/* a kind this version does not know is kept as it is: its name prints as unknown */
	return c->err ? -EINVAL : 0;
}
