/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The devices' own notifications (ibv_get_async_event) as events, through one pollable fd. */
#ifndef FABTOP_KERNEL_ASYNC_H
#define FABTOP_KERNEL_ASYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "model/events.h"
#include "model/fabric.h"

/*
 * Each RDMA device has an async event fd; a flap shorter than the sampling
 * interval shows there (PORT_ERR, then PORT_ACTIVE) and nowhere else. The
 * watcher opens the devices of a host and gathers their fds under one epoll
 * fd, so a poll loop adds a single slot whatever the number of devices.
 */
struct async_watch;

/* NULL: out of memory. */
struct async_watch *async_watch_new(void);
/*
 * Follow the devices of h: open the new ones, close the gone ones, and
 * reopen those open for a while (see async.c: a removal must not wait on
 * us); call it after every sample. Returns
 * the fd to poll (the same one every time), or -errno: -ENODEV when no
 * device could be opened (no verbs, no permission), -ENOMEM.
 */
int async_watch_sync(struct async_watch *w, const struct fab_host *h);
/*
 * Read every pending notification without blocking, ack it, and append it to
 * log (NULL: read and ack only). A device that died (DEVICE_FATAL, its fd hung
 * up) is closed. Returns how many were appended.
 */
unsigned int async_watch_drain(struct async_watch *w, struct event_log *log);
void async_watch_free(struct async_watch *w);

/* The event a notification becomes (kind EVENT_ASYNC), stamped with the given times: pure, for tests. */
struct fab_event async_event_make(const char *device, int ibv_event_type, unsigned int port,
				  uint64_t real_ns, uint64_t mono_ns);

#endif
