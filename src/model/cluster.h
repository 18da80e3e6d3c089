/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cluster as a Prometheus sees it: one row per instance x device x port, and per-instance findings. */
#ifndef FABTOP_MODEL_CLUSTER_H
#define FABTOP_MODEL_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/fabric.h"

/* Label values longer than these are not fabtop's (a DNS name and a port; an IB device name; a NodeDescription). */
#define CLUSTER_INSTANCE_LEN 272
#define CLUSTER_DEVICE_LEN 64
#define CLUSTER_PORT_LEN 16
#define CLUSTER_DESC_LEN 128

struct cluster_host {
	char instance[CLUSTER_INSTANCE_LEN];
	int findings;			/* warnings and errors of its doctor; -1 unknown */
};

struct cluster_port {
	char device[CLUSTER_DEVICE_LEN];
	char port[CLUSTER_PORT_LEN];	/* the label as exported ("1") */
	size_t host;			/* index into cluster.hosts */
	enum fab_port_state state;	/* PORT_STATE_UNKNOWN when no sample said it */
	double rate_bytes_per_s;	/* NaN: unknown (every double below too) */
	double in_bits_per_s, out_bits_per_s;
	double err_delta;		/* error counters' increase over the query's window */
	char partner_desc[CLUSTER_DESC_LEN];	/* "" when no partner is known */
	char partner_port[CLUSTER_PORT_LEN];
};

struct cluster_index {
	uint32_t *slots;		/* 0 empty, else item index + 1 */
	size_t size;			/* a power of two, at most half full */
};

struct cluster {
	struct cluster_host *hosts;
	size_t nhosts, hosts_cap;
	struct cluster_port *ports;
	size_t nports, ports_cap;
	struct cluster_index host_index, port_index;
	size_t ignored;			/* series without an instance, device or port label fit for a row */
};

void cluster_init(struct cluster *c);
void cluster_free(struct cluster *c);
/* Find or add; NULL when out of memory or a name does not fit. */
struct cluster_host *cluster_host_get(struct cluster *c, const char *instance);
struct cluster_port *cluster_port_get(struct cluster *c, const char *instance, const char *device, const char *port);
/* Find only; NULL when absent. */
const struct cluster_port *cluster_port_find(const struct cluster *c, const char *instance, const char *device,
					     const char *port);
static inline const char *cluster_port_instance(const struct cluster *c, const struct cluster_port *p)
{
	return c->hosts[p->host].instance;
}

#endif
