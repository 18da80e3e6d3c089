// SPDX-License-Identifier: GPL-2.0-or-later
/* Names for the model's enums and the model's lookups and destructor. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/fabric.h"
#include "util.h"


/* IBA 14.2.5.6, Table 155 (PortState), names as the kernel prints them. */
static const char *const port_state_names[] = {
	[PORT_STATE_NOP] = "NOP",
	[PORT_STATE_DOWN] = "DOWN",
	[PORT_STATE_INIT] = "INIT",
	[PORT_STATE_ARMED] = "ARMED",
	[PORT_STATE_ACTIVE] = "ACTIVE",
	[PORT_STATE_ACTIVE_DEFER] = "ACTIVE_DEFER",
};

/* IBA 14.2.5.6 (PortPhysicalState), names as the kernel prints them. */
static const char *const phys_state_names[] = {
	[PHYS_STATE_NOP] = "NOP",
	[PHYS_STATE_SLEEP] = "Sleep",
	[PHYS_STATE_POLLING] = "Polling",
	[PHYS_STATE_DISABLED] = "Disabled",
	[PHYS_STATE_TRAINING] = "PortConfigurationTraining",
	[PHYS_STATE_LINK_UP] = "LinkUp",
	[PHYS_STATE_ERROR_RECOVERY] = "LinkErrorRecovery",
	[PHYS_STATE_PHY_TEST] = "Phy Test",
};

static const char *const link_layer_names[] = {
	[LINK_LAYER_UNKNOWN] = "unknown",
	[LINK_LAYER_INFINIBAND] = "InfiniBand",
	[LINK_LAYER_ETHERNET] = "Ethernet",
};

static const char *const gid_type_names[] = {
	[GID_TYPE_UNKNOWN] = "unknown",
	[GID_TYPE_IB] = "IB",
	[GID_TYPE_ROCE_V1] = "RoCE v1",
	[GID_TYPE_ROCE_V2] = "RoCE v2",
	[GID_TYPE_IWARP] = "iWARP",
};

static const char *const counter_source_names[] = {
	[COUNTER_SRC_COUNTERS] = "counters",
	[COUNTER_SRC_COUNTERS_EXT] = "counters_ext",
	[COUNTER_SRC_HW_COUNTERS] = "hw_counters",
	[COUNTER_SRC_PMA] = "pma",
	[COUNTER_SRC_DEMO] = "demo",
	[COUNTER_SRC_CM_TX_MSGS] = "cm_tx_msgs",
	[COUNTER_SRC_CM_TX_RETRIES] = "cm_tx_retries",
	[COUNTER_SRC_CM_RX_MSGS] = "cm_rx_msgs",
	[COUNTER_SRC_CM_RX_DUPLICATES] = "cm_rx_duplicates",
	[COUNTER_SRC_NETLINK] = "netlink",
};

const char *fab_port_state_str(enum fab_port_state s)
{
	return util_name(port_state_names, ARRAY_SIZE(port_state_names), s, "unknown");
}

const char *fab_phys_state_str(enum fab_phys_state s)
{
	return util_name(phys_state_names, ARRAY_SIZE(phys_state_names), s, "unknown");
}

const char *fab_link_layer_str(enum fab_link_layer l)
{
	return util_name(link_layer_names, ARRAY_SIZE(link_layer_names), l, "unknown");
}

const char *fab_gid_type_str(enum fab_gid_type t)
{
	return util_name(gid_type_names, ARRAY_SIZE(gid_type_names), t, "unknown");
}

const char *fab_counter_source_str(enum fab_counter_source s)
{
	return util_name(counter_source_names, ARRAY_SIZE(counter_source_names), s, "unknown");
}

bool fab_counter_source_is_hw(enum fab_counter_source s)
{
	return s == COUNTER_SRC_HW_COUNTERS || s == COUNTER_SRC_NETLINK;
}

const struct fab_port *fab_host_port_of(const struct fab_host *h, const char *dev, unsigned int port,
					const struct fab_device **d)
{
	for (size_t i = 0; i < h->ndevs; i++) {
		if (strcmp(h->devs[i].name, dev))
			continue;
		for (size_t j = 0; j < h->devs[i].nports; j++)
			if (h->devs[i].ports[j].num == port) {
				*d = &h->devs[i];
				return &h->devs[i].ports[j];
			}
	}
	return NULL;
}

struct fab_port *fab_host_find_port(struct fab_host *h, const char *dev, unsigned int port)
{
	const struct fab_device *d;

	/* the host is the caller's to change: the port found in it is too (as strchr() answers) */
	return (struct fab_port *)fab_host_port_of(h, dev, port, &d);
}

const struct fab_port *fab_host_port_of_netdev(const struct fab_host *h, const char *ifname,
					       const struct fab_device **dev)
{
	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t k = 0; k < h->devs[i].nports; k++) {
			const struct fab_port *p = &h->devs[i].ports[k];

			for (unsigned int n = 0; n < p->nnetdevs; n++)
				if (p->netdevs[n].in_ns && !strcmp(p->netdevs[n].name, ifname)) {
					*dev = &h->devs[i];
					return p;
				}
		}
	return NULL;
}

int fab_host_has(const struct fab_host *h, const char *dev, int port, char *why, size_t len)
{
	const struct fab_device *d = NULL;
	size_t i, off = 0;

	for (i = 0; i < h->ndevs && !d; i++)
		if (!strcmp(h->devs[i].name, dev))
			d = &h->devs[i];
	if (!d) {
		off = (size_t)snprintf(why, len, "no RDMA device '%s' (devices: %s", dev, h->ndevs ? "" : "none");
		for (i = 0; i < h->ndevs && off < len; i++)
			off += (size_t)snprintf(why + off, len - off, "%s%s", i ? ", " : "", h->devs[i].name);
		if (off < len)
			snprintf(why + off, len - off, ")");
		return -ENODEV;
	}
	for (i = 0; port >= 0 && i < d->nports; i++)
		if (d->ports[i].num == (unsigned int)port)
			return 0;
	if (port < 0)
		return 0;
	off = (size_t)snprintf(why, len, "%s has no port %d (ports: %s", dev, port, d->nports ? "" : "none");
	for (i = 0; i < d->nports && off < len; i++)
		off += (size_t)snprintf(why + off, len - off, "%s%u", i ? ", " : "", d->ports[i].num);
	if (off < len)
		snprintf(why + off, len - off, ")");
	return -ENODEV;
}

struct fab_counter *fab_port_find_counter(struct fab_port *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->ncounters; i++)
		if (!strcmp(p->counters[i].name, name))
			return &p->counters[i];
	return NULL;
}

void fab_port_gids_next_drop(struct fab_port *p, bool free_entries)
{
	if (free_entries)
		free(p->gids_next);
	p->gids_next = NULL;
	p->ngids_next = p->gids_next_cap = 0;
	p->gids_next_at = 0;
}

static void fab_port_free(struct fab_port *p)
{
	size_t i;

	fab_port_gids_next_drop(p, true);
	for (i = 0; i < p->ncounters; i++)
		if (p->counters[i].fd >= 0)
			close(p->counters[i].fd);
	free(p->counters);
	free(p->gids);
	p->counters = NULL;
	p->gids = NULL;
	p->ncounters = p->ngids = 0;
}

void fab_device_free(struct fab_device *d)
{
	for (size_t j = 0; j < d->nports; j++)
		fab_port_free(&d->ports[j]);
	free(d->ports);
	d->ports = NULL;
	d->nports = 0;
	free(d->pci);
	d->pci = NULL;
}

void fab_host_free(struct fab_host *h)
{
	size_t i;

	for (i = 0; i < h->ndevs; i++)
		fab_device_free(&h->devs[i]);
	free(h->devs);
	free(h->gpus);
	memset(h, 0, sizeof(*h));
}

bool fab_port_maybe_ib(const struct fab_port *p)
{
	return p->link_layer == LINK_LAYER_INFINIBAND || p->link_layer == LINK_LAYER_UNKNOWN;
}

bool fab_lid_is_unicast(uint64_t lid)
{
	return lid >= 0x0001 && lid <= 0xbfff;
}

uint64_t fab_host_model_now(const struct fab_host *h, uint64_t fallback)
{
	uint64_t t = 0;

	for (size_t i = 0; i < h->ndevs; i++)
		for (size_t j = 0; j < h->devs[i].nports; j++)
			if (h->devs[i].ports[j].sample_ns > t)
				t = h->devs[i].ports[j].sample_ns;
	return t ? t : fallback;
}
