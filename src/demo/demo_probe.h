/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The demo's simulated RDMA CM exchange: a probe over the simulated host, answered as the real stack would. */
#ifndef FABTOP_DEMO_DEMO_PROBE_H
#define FABTOP_DEMO_DEMO_PROBE_H

#include <stddef.h>

#include "probe/probe.h"

struct demo;

/*
 * A probe (probe/driven.h; its status says simulated) whose CM exchange is
 * decided on the demo host as it is now: the source and the route come
 * from the simulated network through the model's route lookup (the one
 * the doctor reasons on), the device and port from the interface the
 * route leaves by, and the simulated peers answer as the real stack does:
 * ADDR_ERROR, a TIMEOUT, REJECTED with its reason, or a connection whose
 * numbers follow the port's rate and the demo's load (doc/demo.md, "The
 * simulated probe"). NULL: out of memory.
 */
struct probe *demo_probe_start(struct demo *d, const struct probe_opts *o);

/* The simulated hosts a probe reaches, one line: "172.16.16.1 (cpuserver16, ibs5f0), ...". */
void demo_probe_peers(char *buf, size_t size);

#endif
