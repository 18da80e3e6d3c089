/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What keeps this host's network configuration (NetworkManager, netplan, ifupdown, networkd), read under the ctx roots. */
#ifndef FABTOP_KERNEL_NETCONF_H
#define FABTOP_KERNEL_NETCONF_H

#include "ctx.h"
#include "derive/fix.h"

/*
 * In this order, the first that holds: NetworkManager runs (a process
 * named NetworkManager under the proc root), netplan YAML in ETC/netplan,
 * ETC/network/interfaces (or interfaces.d) configures an interface other
 * than lo, systemd-networkd runs. FIX_HOST_UNKNOWN otherwise.
 */
enum fix_host netconf_detect(const struct fab_ctx *ctx);

#endif
