/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A probe whose exchange another piece carries out (the demo's simulation): same status, timeline and numbers. */
#ifndef FABTOP_PROBE_DRIVEN_H
#define FABTOP_PROBE_DRIVEN_H

#include <stdbool.h>
#include <stdint.h>

#include "probe/probe.h"

struct probe;

/*
 * A driven probe has no event channel and no verbs: its driver moves it
 * through the states of a real one with the calls below, and every surface
 * reads it through the same probe_status() (which says simulated).
 */
struct probe_driver {
	/* Move the exchange on to now_ns (called at start and from probe_handle()). */
	void (*step)(struct probe *p, void *priv, uint64_t now_ns);
	/* When step() has something to do next (CLOCK_MONOTONIC), 0: nothing until stopped. */
	uint64_t (*next_ns)(const struct probe *p, const void *priv);
	void (*free)(void *priv);
};

/*
 * Like probe_start() (options checked and copied, the same defaults), then
 * drv->step() at once. priv is the driver's, freed by drv->free() when the
 * probe ends or is freed (also when this fails). NULL: out of memory.
 */
struct probe *probe_start_driven(const struct probe_opts *o, const struct probe_driver *drv, void *priv);

/* The options in force (defaults filled in) and when the probe started. */
const struct probe_opts *probe_driven_opts(const struct probe *p);
uint64_t probe_driven_t0(const struct probe *p);
enum probe_state probe_driven_state(const struct probe *p);
/* probe_stop() was asked: the driver ends the data phase as a real client would. */
bool probe_driven_stopping(const struct probe *p);

/* A timeline entry (error false), or the failure that ends the probe. */
void probe_driven_event(struct probe *p, uint64_t now, const char *name, int status, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void probe_driven_fail(struct probe *p, uint64_t now, const char *name, int status, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The same failure arriving as an rdma_cm event (not a call refused at once): rping reports those. */
void probe_driven_fail_event(struct probe *p, uint64_t now, const char *name, int status, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Where the connection is: any NULL or negative argument leaves that field. */
void probe_driven_where(struct probe *p, const char *device, unsigned int port, const char *local,
			const char *remote, int sgid_index, const char *sgid_type);
void probe_driven_set_state(struct probe *p, uint64_t now, enum probe_state s);
/* msgs messages of bytes payload completed at now (the data phase starts at the first). */
void probe_driven_data(struct probe *p, uint64_t now, uint64_t msgs, uint64_t bytes);
/* One round-trip sample. */
void probe_driven_lat(struct probe *p, uint64_t ns);
/* The data phase ended well: DONE. */
void probe_driven_done(struct probe *p, uint64_t now);

#endif
