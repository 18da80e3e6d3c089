// SPDX-License-Identifier: GPL-2.0-or-later
/* The local GID that reaches a peer: the route to the peer, then its netdev's entries (doc/roce.md). */
#include "config.h"

#include <errno.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <string.h>

#include "derive/gid_route.h"

/* The address of w as the net model holds it (w->addr is the GID form: ::ffff:a.b.c.d for IPv4). */
static struct net_ip want_ip(const struct gid_want *w)
{
	struct net_ip ip = { .family = w->v4 ? AF_INET : AF_INET6 };

	if (w->v4)
		memcpy(ip.bytes, &w->addr[12], 4);
	else
		memcpy(ip.bytes, w->addr, 16);
	return ip;
}

/* The GID an address becomes; false for one of another family than want. */
static bool ip_gid(const struct net_ip *ip, bool v4, uint8_t gid[16])
{
	memset(gid, 0, 16);
	if (v4 && ip->family == AF_INET) {
		gid[10] = gid[11] = 0xff;
		memcpy(&gid[12], ip->bytes, 4);
		return true;
	}
	if (!v4 && ip->family == AF_INET6) {
		memcpy(gid, ip->bytes, 16);
		return true;
	}
	return false;
}

bool gid_route_want(const struct net_state *st, const struct route_ops *ops, const struct gid_want *w,
		    struct gid_want *pw, struct gid_route *r)
{
	int rc;

	memset(r, 0, sizeof(*r));
	if (!w->is_addr || w->by_route)
		return false;
	r->peer = want_ip(w);
	r->asked = ops->name;
	/* our own address without a GID is no peer: the route would only say "local" */
	if (net_addr_find(st, &r->peer)) {
		r->how = GID_ROUTE_LOCAL;
		return false;
	}
	rc = ops->output(st, &r->peer, NULL, 0, &r->ans);
	if (!rc && r->ans.type == RTN_LOCAL) {
		r->how = GID_ROUTE_LOCAL;
		return false;
	}
	if (rc || !r->ans.oif_name[0]) {
		r->how = GID_ROUTE_FAILED;
		if (!r->ans.error)
			r->ans.error = rc ? -rc : ENODEV;
		return false;
	}
	r->how = GID_ROUTE_OK;
	*pw = *w;
	pw->by_route = true;
	memcpy(pw->iface, r->ans.oif_name, sizeof(pw->iface));
	pw->iface[sizeof(pw->iface) - 1] = '\0';
	pw->has_src = ip_gid(&r->ans.src, w->v4, pw->src);
	return true;
}
