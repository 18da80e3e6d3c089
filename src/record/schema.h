/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a recording holds of the model: field tables of the structs, their encoding and decoding. */
#ifndef FABTOP_RECORD_SCHEMA_H
#define FABTOP_RECORD_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "model/events.h"
#include "model/fabric.h"
#include "model/ibfabric.h"
#include "model/net.h"
#include "probe/explain.h"
#include "probe/probe.h"
#include "record/codec.h"

/*
 * One table per struct: a field's number on the wire, its name (written
 * into every file's header, so a file describes itself), its type and
 * where it lives. Numbers are never reused: a field that goes away leaves
 * its number behind (doc/recording.md lists them).
 */
enum rec_type {
	RT_UINT,	/* an unsigned integer of size 1, 2, 4 or 8 */
	RT_SINT,	/* a signed integer or an enum of size 1, 2, 4 or 8 */
	RT_BOOL,
	RT_DOUBLE,
	RT_STR,		/* a char array, up to its NUL */
	RT_BYTES,	/* a byte array, all of it */
	RT_OPT,		/* struct opt_u64: present when known */
	RT_IP,		/* struct net_ip: family, then 4 or 16 bytes */
};

struct rec_desc {
	unsigned int num;
	const char *name;
	enum rec_type type;
	size_t off, size;
};

struct rec_table {
	const char *name;		/* "port" */
	const struct rec_desc *f;
	size_t n;
};

/* Tables for the header's schema record, in the order they are listed there. */
extern const struct rec_table *const rec_tables[];
extern const size_t rec_ntables;

/* The scalar fields of s (described by t) that are not zero, as tagged fields. */
void rec_encode(struct rec_buf *b, const struct rec_table *t, const void *s);
/* Only the fields where s differs from old (a field back to zero is written as zero). */
void rec_encode_diff(struct rec_buf *b, const struct rec_table *t, const void *s, const void *old);
/* Field f into s when t knows it: true when it did (false: not a field of t, or malformed -> c->err). */
bool rec_decode_field(struct rec_cur *c, const struct rec_table *t, void *s, const struct rec_field *f);

/* A nested message of t's fields of s, and its reading (unknown fields skipped). */
void rec_put_msg(struct rec_buf *b, unsigned int field, const struct rec_table *t, const void *s);
void rec_decode_msg(struct rec_cur *c, const struct rec_field *f, const struct rec_table *t, void *s);

/* The tables (schema.c). */
extern const struct rec_table rec_port_time_table, rec_counter_state_table;
extern const struct rec_table rec_device_table, rec_port_table, rec_counter_table, rec_gid_table,
	rec_netdev_table, rec_link_table, rec_addr_table, rec_route_table, rec_rule_table,
	rec_neigh_table, rec_sysctl_table, rec_event_table;

/* Whole parts of the model as messages (the structure and the network state). */
void rec_encode_host(struct rec_buf *b, const struct fab_host *h);
/*
 * What one decoded host, network state or MAD view may take in memory
 * (doc/recording.md): a thousand single-port devices of a hundred counters
 * each take about 20 MiB. A file that asks for more is refused with
 * REC_DECODE_BUDGET_TEXT as what was expected.
 */
#define REC_DECODE_BUDGET	(32u << 20)
#define REC_DECODE_BUDGET_TEXT	"at most 32 MiB of decoded structs in one record (the reader's budget)"
/*
 * Into a zeroed h; 0, or -ENOMEM, or -EINVAL with c->err saying what was
 * expected (also counts above the collector's limits, or past the budget).
 */
int rec_decode_host(struct rec_cur *c, struct fab_host *h);
void rec_encode_net(struct rec_buf *b, const struct net_state *st);
/* Into a zeroed st; as rec_decode_host(), within the same budget. */
int rec_decode_net(struct rec_cur *c, struct net_state *st);

/* An event (model/events.h) as an event record's body, and back (kind and severity kept as numbers). */
void rec_encode_event(struct rec_buf *b, const struct fab_event *ev);
int rec_decode_event(struct rec_cur *c, struct fab_event *ev);

/* A probe run as recorded: what the Probe pane shows of it. */
struct rec_probe {
	uint64_t run;				/* which run of the monitor (1, 2, ...) */
	uint64_t elapsed_ns;			/* since the run started */
	bool point;				/* a point of the run's timeline (one per interval) */
	char peer[64];				/* as typed */
	char from_ifname[16];			/* the source's interface, "" for the kernel's choice */
	struct probe_status st;			/* st.events points into events */
	struct probe_event events[PROBE_MAX_EVENTS];
	struct explain why;			/* a failure as the monitor explained it then (it needs the live host) */
};

extern const struct rec_table rec_mad_port_table, rec_ib_node_table, rec_ib_port_table, rec_ib_sm_table,
	rec_ib_pma_table, rec_probe_table, rec_probe_event_table;
/* The RoCE chain's (record/roce.h). */
extern const struct rec_table rec_roce_port_table, rec_roce_dcb_table, rec_roce_app_table, rec_roce_ethtool_table,
	rec_roce_ctr_table, rec_roce_ecn_table;

/* The full state of one counter sample (values, previous and first), shared by keyframes and samples. */
struct rec_counter_state {
	bool known, saturated, prev_known, prev_saturated, first_known;
	unsigned int bits;
	uint64_t value, prev_value, first_value;
	char raw[48];
};

void rec_counter_state_get(struct rec_counter_state *st, const struct fab_counter *c);
void rec_counter_state_set(struct fab_counter *c, const struct rec_counter_state *st);
/* A counter's state as a nested message numbered field, and back into the counter. */
void rec_encode_counter_state(struct rec_buf *b, unsigned int field, const struct fab_counter *c);
void rec_decode_counter_state(struct rec_cur *c, const struct rec_field *f, struct fab_counter *ctr);

#endif
