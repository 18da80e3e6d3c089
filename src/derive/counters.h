/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counter semantics: IB widths, saturation, units and rates between samples. */
#ifndef FABTOP_DERIVE_COUNTERS_H
#define FABTOP_DERIVE_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/fabric.h"

/* The IB data counters count 4-octet words, whatever the link width. */
#define IB_DATA_WORD_BYTES 4

/*
 * Fill name/source/kind/dir/bits of a counter from the definitions table.
 * ext_width: the port has PortCountersExtended (unicast_* files exist), so
 * the kernel's data and packet counters are 64 bits wide.
 */
void counter_define(struct fab_counter *c, const char *name,
		    enum fab_counter_source src, bool ext_width);

/* One of the IB CM's MAD counters (cm_tx_msgs/, cm_rx_msgs/, ...)? */
bool counter_is_cm(const struct fab_counter *c);
/* A REJ the CM sent (dir DIR_XMIT) or received (DIR_RCV)? */
bool counter_is_cm_rej(const struct fab_counter *c, enum fab_dir dir);

/*
 * The CM REJs of a host since the first sample: sent and received, summed
 * over ports. True when any moved (the monitor's header says so then).
 */
struct fab_host;
bool host_cm_rejs(const struct fab_host *h, uint64_t *sent, uint64_t *received);

/* All-ones of a width (bits 1..64). */
uint64_t counter_max(unsigned int bits);

/* The same for a value that is already a number (MADs, the demo fabric). */
void counter_sample_value(struct fab_counter *c, bool known, uint64_t value);
/* Forget the first sample so deltas since start restart now ('r' in the TUI). */
void counter_reset_delta(struct fab_counter *c);

/*
 * Units per second between the previous and the current sample (words for
 * data counters: see counter_bytes_rate). False when either sample is
 * unknown or saturated, when the counter went backwards (a reset), or dt is 0.
 */
bool counter_rate(const struct fab_counter *c, uint64_t dt_ns, double *per_s);
/* Bytes per second of a data counter (rate in words * 4). */
bool counter_bytes_rate(const struct fab_counter *c, uint64_t dt_ns, double *bytes_per_s);
/* Change since the previous sample / since the first; false when unknown. */
bool counter_delta(const struct fab_counter *c, uint64_t *delta);
bool counter_delta_since_start(const struct fab_counter *c, uint64_t *delta);

/* A port's best data/packet counters by direction (64-bit sources first). */
struct fab_counter *port_data_counter(struct fab_port *p, enum fab_dir dir);
struct fab_counter *port_packets_counter(struct fab_port *p, enum fab_dir dir);
/* Total bytes moved (data counter * 4); false when unknown or saturated. */
bool port_bytes(struct fab_port *p, enum fab_dir dir, uint64_t *bytes);

/* Live rates of a port between its last two samples. */
struct port_rates {
	bool xmit_known, rcv_known, xmit_pkts_known, rcv_pkts_known;
	double xmit_gbps, rcv_gbps;	/* 10^9 bits per second */
	double xmit_pps, rcv_pps;
};
void port_rates(struct fab_port *p, struct port_rates *r);

#endif
