/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Addresses for hand-built network states in the C tests, through the product's own parser. */
#ifndef FABTOP_TESTS_NET_FIXTURE_H
#define FABTOP_TESTS_NET_FIXTURE_H

#include "model/net.h"

/* "172.16.34.1" (or an IPv6 address) as a struct net_ip; all zeros when it is not one. */
static inline struct net_ip ip4(const char *s)
{
	struct net_ip ip = { 0 };

	net_ip_parse(s, &ip);
	return ip;
}

#endif
