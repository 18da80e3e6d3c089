/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The local GID that reaches a peer: the route to the peer, then its netdev's entries (doc/roce.md). */
#ifndef FABTOP_DERIVE_GID_ROUTE_H
#define FABTOP_DERIVE_GID_ROUTE_H

#include <stdbool.h>

#include "derive/gid_choice.h"
#include "model/net.h"
#include "model/route.h"

/* What became of an address that no GID entry of this host carries. */
enum gid_route_how {
	GID_ROUTE_NONE = 0,	/* not asked: an interface, or an address one of our GIDs carries */
	GID_ROUTE_LOCAL,	/* the address is this host's own: no peer to route to */
	GID_ROUTE_FAILED,	/* no route to it: ans.error says why */
	GID_ROUTE_OK,		/* its packets leave by ans.oif_name */
};

struct gid_route {
	enum gid_route_how how;
	struct net_ip peer;
	struct route_answer ans;
	const char *asked;	/* who answered: the route ops' name ("kernel", "model") */
};

/*
 * For an address w that gid_choose() found no entry for: is it ours, and
 * if not, which netdev the kernel (or the model, ops) sends its packets
 * by. True when *pw is then the want to choose with: w as a peer
 * (by_route) on that netdev, the route's source address first. Pure but
 * for what ops does.
 */
bool gid_route_want(const struct net_state *st, const struct route_ops *ops, const struct gid_want *w,
		    struct gid_want *pw, struct gid_route *r);

#endif
