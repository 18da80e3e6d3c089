/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDMA netlink statistics I/O (libmnl): a port's hw counters, QP counters and their binding mode. */
#ifndef FABTOP_KERNEL_RDMA_STAT_H
#define FABTOP_KERNEL_RDMA_STAT_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/netlink.h>

#include "model/fabric.h"
#include "model/stat.h"

/*
 * One NETLINK_RDMA socket kept open for many requests (the counter source
 * asks once per port and refresh), and the kernel's device indexes by name.
 */
struct rdma_stat;

/* Open the socket and list the devices. NULL with *err: -EPROTONOSUPPORT (no RDMA netlink), -ENOMEM, ... */
struct rdma_stat *rdma_stat_open(int *err);
void rdma_stat_close(struct rdma_stat *rs);
/* Hand every answer received from now on to tap, raw, before it is parsed (the test recorder). */
void rdma_stat_tap(struct rdma_stat *rs, void (*tap)(const void *buf, size_t len, void *arg), void *arg);
/* The kernel's index of device name: 0, -ENODEV (not listed; the list is read again once). */
int rdma_stat_dev_index(struct rdma_stat *rs, const char *name, uint32_t *index);

/*
 * One STAT_GET: the port's hw counters appended to st->hw. 0 or -errno
 * (-EINVAL: the kernel has no hw counters for it; -ETIMEDOUT; -EBADMSG).
 */
int rdma_stat_port_hw(struct rdma_stat *rs, uint32_t dev_index, uint32_t port, struct stat_state *st);
/* The port's QP binding mode appended to st->modes. 0 or -errno. */
int rdma_stat_qp_mode(struct rdma_stat *rs, uint32_t dev_index, uint32_t port, struct stat_state *st);
/* Every QP counter of the device appended to st->qpc (a dump). 0 or -errno. */
int rdma_stat_qp_counters(struct rdma_stat *rs, uint32_t dev_index, struct stat_state *st);
/* A request about one port of one device (cmd: RDMA_NLDEV_CMD_*), its attributes to follow. */
struct nlmsghdr *rdma_stat_port_request(struct rdma_stat *rs, int cmd, uint32_t dev_index, uint32_t port);
/* Send a request and wait for its end (the acknowledgement of a change). 0 or -errno. */
int rdma_stat_send(struct rdma_stat *rs, struct nlmsghdr *nlh);

/*
 * --counters netlink: the hw_counters/ entries of h's ports (all, or only
 * device dev's when dev is not NULL, and only port `port` when >= 0) replaced by what STAT_GET gives,
 * optional counters included. A port the kernel answers nothing for keeps
 * its sysfs counters, and a warning says why. 0 or -ENOMEM.
 */
int rdma_stat_host_apply(struct rdma_stat *rs, struct fab_host *h, const char *dev, int port);
/*
 * A new sample of the netlink counters of h, one STAT_GET per port that
 * has them, after collect_counters_refresh() (which sets the sample's time).
 */
void rdma_stat_host_refresh(struct rdma_stat *rs, struct fab_host *h);
/*
 * The QP counters of h's ports into a zeroed *st: each port's mode, each
 * device's counters. What the kernel refused is said in st->err/why.
 * 0 or -ENOMEM.
 */
int rdma_stat_collect_qp(const struct fab_host *h, struct stat_state *st);
/* The message for an error of the calls above, for people. */
const char *rdma_stat_strerror(int err);

#endif
