// SPDX-License-Identifier: GPL-2.0-or-later
/* Counter widths from the IB spec, saturation, and rate maths. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "derive/counters.h"
#include "util.h"


struct counter_def {
	const char *name;
	unsigned int bits;	/* width in PortCounters; 0: 64 with ext width, else 32 */
	enum fab_counter_kind kind;
	enum fab_dir dir;
};

/*
 * The kernel's ports/N/counters/ files and their widths in the PMA
 * PortCounters attribute (IBA 16.1.3.5, Table 247). Data and packet
 * counters (bits 0) are 32-bit there and 64-bit when the kernel fills them
 * from PortCountersExtended (IBA 16.1.4.11), which it does exactly when the
 * port advertises the extended width and then also exports unicast_* and
 * multicast_* (64-bit only, drivers/infiniband/core/sysfs.c).
 */
static const struct counter_def counter_defs[] = {
	{ "symbol_error",			16, COUNTER_KIND_ERROR,   DIR_RCV },
	{ "link_error_recovery",		 8, COUNTER_KIND_ERROR,   DIR_NONE },
	{ "link_downed",			 8, COUNTER_KIND_ERROR,   DIR_NONE },
	{ "port_rcv_errors",			16, COUNTER_KIND_ERROR,   DIR_RCV },
	{ "port_rcv_remote_physical_errors",	16, COUNTER_KIND_ERROR,   DIR_RCV },
	{ "port_rcv_switch_relay_errors",	16, COUNTER_KIND_ERROR,   DIR_RCV },
	{ "port_xmit_discards",			16, COUNTER_KIND_ERROR,   DIR_XMIT },
	{ "port_xmit_constraint_errors",	 8, COUNTER_KIND_ERROR,   DIR_XMIT },
	{ "port_rcv_constraint_errors",		 8, COUNTER_KIND_ERROR,   DIR_RCV },
	{ "local_link_integrity_errors",	 4, COUNTER_KIND_ERROR,   DIR_NONE },
	{ "excessive_buffer_overrun_errors",	 4, COUNTER_KIND_ERROR,   DIR_RCV },
	{ "VL15_dropped",			16, COUNTER_KIND_ERROR,   DIR_RCV },
	{ "port_rcv_discards",			16, COUNTER_KIND_ERROR,   DIR_RCV },
	{ "port_xmit_data",			 0, COUNTER_KIND_DATA,    DIR_XMIT },
	{ "port_rcv_data",			 0, COUNTER_KIND_DATA,    DIR_RCV },
	{ "port_xmit_packets",			 0, COUNTER_KIND_PACKETS, DIR_XMIT },
	{ "port_rcv_packets",			 0, COUNTER_KIND_PACKETS, DIR_RCV },
	{ "port_xmit_wait",			32, COUNTER_KIND_WAIT,    DIR_XMIT },
	{ "unicast_xmit_packets",		64, COUNTER_KIND_PACKETS, DIR_NONE },
	{ "unicast_rcv_packets",		64, COUNTER_KIND_PACKETS, DIR_NONE },
	{ "multicast_xmit_packets",		64, COUNTER_KIND_PACKETS, DIR_NONE },
	{ "multicast_rcv_packets",		64, COUNTER_KIND_PACKETS, DIR_NONE },
	/* legacy OFED counters_ext/: always 64-bit */
	{ "port_xmit_data_64",			64, COUNTER_KIND_DATA,    DIR_XMIT },
	{ "port_rcv_data_64",			64, COUNTER_KIND_DATA,    DIR_RCV },
	{ "port_xmit_packets_64",		64, COUNTER_KIND_PACKETS, DIR_XMIT },
	{ "port_rcv_packets_64",		64, COUNTER_KIND_PACKETS, DIR_RCV },
	{ "port_unicast_xmit_packets",		64, COUNTER_KIND_PACKETS, DIR_NONE },
	{ "port_unicast_rcv_packets",		64, COUNTER_KIND_PACKETS, DIR_NONE },
	{ "port_multicast_xmit_packets",	64, COUNTER_KIND_PACKETS, DIR_NONE },
	{ "port_multicast_rcv_packets",		64, COUNTER_KIND_PACKETS, DIR_NONE },
};

/* hw_counters names (driver-specific, 64-bit) that are errors worth lighting up. */
static const char *const hw_error_words[] = {
	"err", "drop", "discard", "retry_exceeded", "out_of_buffer", "out_of_sequence",
	"seq_err", "timeout", "duplicate", "rnr_nak", "implied_nak", "bad", "invalid",
};

/* Driver packet counters that stand in for the PMA's on devices without one. */
static const struct {
	const char *name;
	enum fab_dir dir;
} hw_packet_counters[] = {
	{ "sent_pkts", DIR_XMIT },	/* rdma_rxe */
	{ "rcvd_pkts", DIR_RCV },	/* rdma_rxe */
};

uint64_t counter_max(unsigned int bits)
{
	if (bits == 0 || bits >= 64)
		return UINT64_MAX;
	return (UINT64_C(1) << bits) - 1;
}

bool counter_is_cm(const struct fab_counter *c)
{
	return c->source == COUNTER_SRC_CM_TX_MSGS || c->source == COUNTER_SRC_CM_TX_RETRIES ||
	       c->source == COUNTER_SRC_CM_RX_MSGS || c->source == COUNTER_SRC_CM_RX_DUPLICATES;
}

bool counter_is_cm_rej(const struct fab_counter *c, enum fab_dir dir)
{
	const char *file = strrchr(c->name, '/');

	if (!(dir == DIR_XMIT ? c->source == COUNTER_SRC_CM_TX_MSGS : c->source == COUNTER_SRC_CM_RX_MSGS))
		return false;
	return !strcmp(file ? file + 1 : c->name, "rej");
}

bool host_cm_rejs(const struct fab_host *h, uint64_t *sent, uint64_t *received)
{
	*sent = *received = 0;
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t j = 0; j < h->devs[i].nports; j++) {
			const struct fab_port *p = &h->devs[i].ports[j];

			for (size_t k = 0; k < p->ncounters; k++) {
				const struct fab_counter *c = &p->counters[k];
				uint64_t d;

				if (!counter_is_cm(c) || !counter_delta_since_start(c, &d))
					continue;
				if (counter_is_cm_rej(c, DIR_XMIT))
					*sent += d;
				else if (counter_is_cm_rej(c, DIR_RCV))
					*received += d;
			}
		}
	return *sent || *received;
}

void counter_define(struct fab_counter *c, const char *name,
		    enum fab_counter_source src, bool ext_width)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->source = src;
	c->bits = 64;
	c->kind = COUNTER_KIND_OTHER;
	c->dir = DIR_NONE;

	if (counter_is_cm(c)) {
		/*
		 * atomic_long in the kernel: 64 bits here. A REJ, a resent MAD
		 * (the peer did not answer in time) and a duplicate received (our
		 * answer was late or lost) are worth attention; the rest is traffic.
		 */
		c->dir = src == COUNTER_SRC_CM_TX_MSGS || src == COUNTER_SRC_CM_TX_RETRIES ? DIR_XMIT : DIR_RCV;
		if (!strcmp(name, "rej") || src == COUNTER_SRC_CM_TX_RETRIES || src == COUNTER_SRC_CM_RX_DUPLICATES)
			c->kind = COUNTER_KIND_ERROR;
		return;
	}
	if (fab_counter_source_is_hw(src)) {
		/* Driver counters are u64 in the kernel; only names hint at meaning. */
		for (i = 0; i < ARRAY_SIZE(hw_error_words); i++)
			if (strcasestr(name, hw_error_words[i]))
				c->kind = COUNTER_KIND_ERROR;
		/* A driver that repeats an IB counter's name (rxe's link_downed) means the same thing. */
		for (i = 0; i < ARRAY_SIZE(counter_defs); i++)
			if (!strcmp(name, counter_defs[i].name) && counter_defs[i].kind == COUNTER_KIND_ERROR)
				c->kind = COUNTER_KIND_ERROR;
		/* rxe and siw have no PMA: their packet counters are all there is. */
		for (i = 0; i < ARRAY_SIZE(hw_packet_counters); i++)
			if (!strcmp(name, hw_packet_counters[i].name)) {
				c->kind = COUNTER_KIND_PACKETS;
				c->dir = hw_packet_counters[i].dir;
			}
		return;
	}
	for (i = 0; i < ARRAY_SIZE(counter_defs); i++) {
		const struct counter_def *d = &counter_defs[i];

		if (strcmp(d->name, name))
			continue;
		c->kind = d->kind;
		c->dir = d->dir;
		if (d->bits)
			c->bits = d->bits;
		else
			c->bits = (ext_width || src != COUNTER_SRC_COUNTERS) ? 64 : 32;
		return;
	}
}

static void counter_shift(struct fab_counter *c)
{
	c->prev_known = c->known;
	c->prev_saturated = c->saturated;
	c->prev_value = c->value;
}

void counter_sample_value(struct fab_counter *c, bool known, uint64_t value)
{
	counter_shift(c);
	/*
	 * Ports whose PMA has 64-bit counters without the IETF unicast/multicast
	 * ones (IB_PMA_CLASS_CAP_EXT_WIDTH_NOIETF) show 64-bit data counters and
	 * no unicast_* files; a value past 2^32-1 proves that width.
	 */
	if (known && value > counter_max(c->bits) && c->bits == 32 && c->source == COUNTER_SRC_COUNTERS &&
	    (c->kind == COUNTER_KIND_DATA || c->kind == COUNTER_KIND_PACKETS))
		c->bits = 64;
	c->known = known && value <= counter_max(c->bits);
	c->value = c->known ? value : 0;
	/* A counter stuck at all-ones has stopped: its true value is unknown. */
	c->saturated = c->known && value == counter_max(c->bits);
	if (c->known && !c->saturated && !c->first_known) {
		c->first_known = true;
		c->first_value = value;
	}
}

void counter_reset_delta(struct fab_counter *c)
{
	c->first_known = c->known && !c->saturated;
	c->first_value = c->value;
}

static bool counter_usable(const struct fab_counter *c)
{
	return c->known && !c->saturated && c->prev_known && !c->prev_saturated &&
	       c->value >= c->prev_value;
}

bool counter_rate(const struct fab_counter *c, uint64_t dt_ns, double *per_s)
{
	if (!dt_ns || !counter_usable(c))
		return false;
	*per_s = (double)(c->value - c->prev_value) * 1e9 / (double)dt_ns;
	return true;
}

bool counter_bytes_rate(const struct fab_counter *c, uint64_t dt_ns, double *bytes_per_s)
{
	double words;

	if (c->kind != COUNTER_KIND_DATA || !counter_rate(c, dt_ns, &words))
		return false;
	*bytes_per_s = words * IB_DATA_WORD_BYTES;
	return true;
}

bool counter_delta(const struct fab_counter *c, uint64_t *delta)
{
	if (!counter_usable(c))
		return false;
	*delta = c->value - c->prev_value;
	return true;
}

bool counter_delta_since_start(const struct fab_counter *c, uint64_t *delta)
{
	if (!c->known || c->saturated || !c->first_known || c->value < c->first_value)
		return false;
	*delta = c->value - c->first_value;
	return true;
}

/*
 * Which of several counters of one kind stands for the port: one that reads
 * a number; then the PMA's (sysfs or MAD) over a driver's hw_counters; then
 * the widest (counters_ext and PortCountersExtended are 64-bit); then sysfs
 * over a MAD for the same value.
 */
static bool counter_better(const struct fab_counter *c, const struct fab_counter *best)
{
	bool c_hw = fab_counter_source_is_hw(c->source), b_hw = fab_counter_source_is_hw(best->source);

	if (c->known != best->known)
		return c->known;
	if (c_hw != b_hw)
		return !c_hw;
	if (c->bits != best->bits)
		return c->bits > best->bits;
	return best->source == COUNTER_SRC_PMA && c->source != COUNTER_SRC_PMA;
}

static struct fab_counter *port_best_counter(struct fab_port *p, enum fab_counter_kind kind,
					     enum fab_dir dir)
{
	struct fab_counter *best = NULL;
	size_t i;

	for (i = 0; i < p->ncounters; i++) {
		struct fab_counter *c = &p->counters[i];

		if (c->kind == kind && c->dir == dir && (!best || counter_better(c, best)))
			best = c;
	}
	return best;
}

struct fab_counter *port_data_counter(struct fab_port *p, enum fab_dir dir)
{
	return port_best_counter(p, COUNTER_KIND_DATA, dir);
}

struct fab_counter *port_packets_counter(struct fab_port *p, enum fab_dir dir)
{
	return port_best_counter(p, COUNTER_KIND_PACKETS, dir);
}

bool port_bytes(struct fab_port *p, enum fab_dir dir, uint64_t *bytes)
{
	struct fab_counter *c = port_data_counter(p, dir);

	if (!c || !c->known || c->saturated)
		return false;
	if (c->value > UINT64_MAX / IB_DATA_WORD_BYTES)
		return false;
	*bytes = c->value * IB_DATA_WORD_BYTES;
	return true;
}

void port_rates(struct fab_port *p, struct port_rates *r)
{
	uint64_t dt = p->prev_sample_ns && p->sample_ns > p->prev_sample_ns ?
		      p->sample_ns - p->prev_sample_ns : 0;
	struct fab_counter *c;
	double v;

	memset(r, 0, sizeof(*r));
	if ((c = port_data_counter(p, DIR_XMIT)) && counter_bytes_rate(c, dt, &v)) {
		r->xmit_known = true;
		r->xmit_gbps = v * 8 / 1e9;
	}
	if ((c = port_data_counter(p, DIR_RCV)) && counter_bytes_rate(c, dt, &v)) {
		r->rcv_known = true;
		r->rcv_gbps = v * 8 / 1e9;
	}
	if ((c = port_packets_counter(p, DIR_XMIT)) && counter_rate(c, dt, &v)) {
		r->xmit_pkts_known = true;
		r->xmit_pps = v;
	}
	if ((c = port_packets_counter(p, DIR_RCV)) && counter_rate(c, dt, &v)) {
		r->rcv_pkts_known = true;
		r->rcv_pps = v;
	}
}
