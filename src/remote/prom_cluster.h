/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cluster rows from a Prometheus: a handful of instant queries per refresh, merged into struct cluster. */
#ifndef FABTOP_REMOTE_PROM_CLUSTER_H
#define FABTOP_REMOTE_PROM_CLUSTER_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "remote/prom.h"
#include "model/cluster.h"

/* The column families: one query each, whatever the number of hosts. */
enum prom_cluster_family {
	PROM_CLUSTER_STATE,
	PROM_CLUSTER_RATE,
	PROM_CLUSTER_IN,
	PROM_CLUSTER_OUT,
	PROM_CLUSTER_ERRORS,
	PROM_CLUSTER_PARTNER,
	PROM_CLUSTER_FINDINGS,
	PROM_CLUSTER_NFAMILIES,
};

/* The PromQL of a family (doc/monitor.md explains each), NULL when out of range. */
const char *prom_cluster_query(enum prom_cluster_family f);

/*
 * Merge one family's answer into c. Series without the labels a row needs
 * are counted in c->ignored; values that cannot be what they claim (a
 * state out of range, a negative rate) stay unknown.
 */
void prom_cluster_merge(struct cluster *c, enum prom_cluster_family f, const struct prom_vector *v);
/* After every family merged: hosts without findings series have none (that query succeeded). */
void prom_cluster_finish(struct cluster *c);

/* What the last refresh cost, for the benchmark and the pane's status line. */
struct prom_cluster_stats {
	uint64_t refresh_ns;		/* first request to last answer */
	uint64_t parse_merge_ns;	/* CPU side: JSON parsing and merging */
	size_t bytes;			/* answer bytes, all families */
	size_t samples;
};

struct prom_cluster;

/*
 * NULL when out of memory. url is copied. The HTTP client (libcurl) is set
 * up by the first refresh or details query: the pane costs nothing until it
 * is looked at, and a libcurl that cannot be loaded is that refresh's error.
 */
struct prom_cluster *prom_cluster_new(const char *url);
void prom_cluster_free(struct prom_cluster *pc);
const char *prom_cluster_url(const struct prom_cluster *pc);
/* Start a refresh unless one is in flight: at most one at a time. 0, -EBUSY or -errno. */
int prom_cluster_refresh(struct prom_cluster *pc);
bool prom_cluster_busy(const struct prom_cluster *pc);
int prom_cluster_fds(struct prom_cluster *pc, struct pollfd *fds, int max, int *timeout_ms);
/* Serve the sockets and deadlines, never blocking; true when the model, the error or the details changed. */
bool prom_cluster_handle(struct prom_cluster *pc);

/* The latest complete refresh (NULL before the first), and when it ended (CLOCK_MONOTONIC). */
const struct cluster *prom_cluster_model(const struct prom_cluster *pc, uint64_t *when_ns);
/* Why the latest refresh failed, NULL when it did not. */
const char *prom_cluster_error(const struct prom_cluster *pc);
/* When the latest refresh (good or failed) ended; 0 before the first. */
uint64_t prom_cluster_last_ns(const struct prom_cluster *pc);
const struct prom_cluster_stats *prom_cluster_stats(const struct prom_cluster *pc);

/* Ask for every fabtop_port_* and fabtop_link_partner_* series of one port (one query). */
int prom_cluster_details(struct prom_cluster *pc, const char *instance, const char *device, const char *port);
enum prom_details_state {
	PROM_DETAILS_NONE,		/* not asked about that port (or asked about another since) */
	PROM_DETAILS_BUSY,		/* in flight */
	PROM_DETAILS_DONE,		/* *v holds the answer */
	PROM_DETAILS_FAILED,		/* *error says why */
};
/* The details of that port as far as they came, and when they were asked for or answered. */
enum prom_details_state prom_cluster_details_get(const struct prom_cluster *pc, const char *instance,
						 const char *device, const char *port,
						 const struct prom_vector **v, const char **error, uint64_t *when_ns);

#endif
