// SPDX-License-Identifier: GPL-2.0-or-later
/* The doctor's checks: each looks at the host and net models and adds findings with cause, evidence and fix. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <linux/rtnetlink.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive/counters.h"
#include "derive/doctor.h"
#include "derive/pci_check.h"
#include "derive/roce_check.h"
#include "derive/fix.h"
#include "derive/gid_choice.h"
#include "derive/port.h"
#include "util.h"


/* The usual IPoIB MTUs: datagram is the IB MTU minus 4 (2K or 4K), connected is 65520. */
#define IPOIB_MTU_DATAGRAM_2K	2044
#define IPOIB_MTU_DATAGRAM_4K	4092
#define IPOIB_MTU_CONNECTED	65520

struct doc {
	const struct roce_state *roce;
	const struct fab_host *host;
	const struct net_state *net;
	const struct route_ops *routes;
	const struct doctor_query *q;
	enum fix_host persist;		/* which persistent fix to name */
	struct doctor_report *out;
	size_t cap;
	int err;
	struct net_ip peer;		/* the query's peer, family 0 if none */
};

/* An IPv4 address of an RDMA netdev, and whether another RDMA netdev shares its subnet. */
struct rdma_addr {
	const struct net_addr *a;
	const struct net_link *l;
	bool shared;
	bool route_ok;			/* traffic from a leaves by l */
	bool route_checked;
	struct route_answer ans;
	struct net_ip probe;		/* the address the route was asked for */
};

static const char *const severity_names[] = {
	[DOCTOR_INFO] = "info",
	[DOCTOR_WARNING] = "warning",
	[DOCTOR_ERROR] = "error",
};

const char *doctor_severity_str(enum doctor_severity s)
{
	return util_name(severity_names, ARRAY_SIZE(severity_names), s, "?");
}

static struct doctor_finding *finding_add(struct doc *d, enum doctor_id id, const char *code,
					  enum doctor_severity sev)
{
	struct doctor_report *r = d->out;
	struct doctor_finding *f;

	if (d->err)
		return NULL;
	if (r->nfindings == d->cap) {
		size_t ncap = d->cap ? d->cap * 2 : 8;
		struct doctor_finding *n = realloc(r->findings, ncap * sizeof(*n));

		if (!n) {
			d->err = -ENOMEM;
			return NULL;
		}
		r->findings = n;
		d->cap = ncap;
	}
	f = &r->findings[r->nfindings++];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->code = code;
	f->severity = sev;
	return f;
}

__attribute__((format(printf, 3, 0)))
static void fmt_into(char *buf, size_t size, const char *fmt, va_list ap)
{
	vsnprintf(buf, size, fmt, ap);
}

__attribute__((format(printf, 2, 3)))
static void f_title(struct doctor_finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_into(f->title, sizeof(f->title), fmt, ap);
	va_end(ap);
}

void doctor_cause(struct doctor_finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	fmt_into(f->cause, sizeof(f->cause), fmt, ap);
	va_end(ap);
}

struct doctor_finding *doctor_sink_add(struct doctor_sink *s, enum doctor_id id, const char *code,
				       enum doctor_severity sev, const char *ifname, const char *device,
				       unsigned int port, const char *fmt, ...)
{
	struct doctor_finding *f = s->n < s->cap ? &s->out[s->n] : NULL;
	va_list ap;

	s->n++;
	s->cur = f;
	if (!f)
		return NULL;
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->code = code;
	f->severity = sev;
	snprintf(f->ifname, sizeof(f->ifname), "%s", ifname);
	snprintf(f->device, sizeof(f->device), "%s", device);
	f->port = port;
	va_start(ap, fmt);
	fmt_into(f->title, sizeof(f->title), fmt, ap);
	va_end(ap);
	return f;
}

void doctor_evidence(struct doctor_finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f || f->nevidence >= DOCTOR_MAX_LINES)
		return;
	va_start(ap, fmt);
	fmt_into(f->evidence[f->nevidence++], DOCTOR_LINE_LEN, fmt, ap);
	va_end(ap);
}

void doctor_fix(struct doctor_finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f || f->nfix >= DOCTOR_MAX_LINES)
		return;
	va_start(ap, fmt);
	fmt_into(f->fix[f->nfix++], DOCTOR_LINE_LEN, fmt, ap);
	va_end(ap);
}

static void f_about(struct doctor_finding *f, const char *ifname, const struct net_ip *ip)
{
	if (ifname)
		snprintf(f->ifname, sizeof(f->ifname), "%s", ifname);
	if (ip)
		net_ip_str(ip, f->addr, sizeof(f->addr));
}

/* "sysctl -w net.ipv4.conf.IF.NAME=V", slash form when IF has dots (VLANs). */
static const char *ipstr(const struct net_ip *ip, char *buf, size_t size)
{
	return net_ip_str(ip, buf, size);
}

static int ask_route(struct doc *d, const struct net_ip *peer, const struct net_ip *src, int oif,
		     struct route_answer *ans)
{
	return d->routes->output(d->net, peer, src, oif, ans);
}

/*
 * An address inside a's subnet to ask the route for: the query's peer when
 * it lies there, else the highest host address that is not ours.
 */
static bool probe_addr(struct doc *d, const struct net_addr *a, struct net_ip *out)
{
	uint32_t addr, mask, bcast;

	if (d->peer.family == a->local.family && net_ip_prefix_eq(&d->peer, &a->local, a->prefixlen) &&
	    !net_addr_find(d->net, &d->peer)) {
		*out = d->peer;
		return true;
	}
	if (a->local.family == AF_INET6) {
		/* All host bits set, minus k in the last byte: in the subnet, not ours. */
		if (a->prefixlen > 120)
			return false;
		for (unsigned int k = 1; k < 64; k++) {
			*out = net_ip_network(&a->local, a->prefixlen);
			for (unsigned int b = a->prefixlen; b < 128; b++)
				out->bytes[b / 8] |= (uint8_t)(0x80 >> (b % 8));
			out->bytes[15] = (uint8_t)(0xff - k);
			if (!net_addr_find(d->net, out))
				return true;
		}
		return false;
	}
	if (a->local.family != AF_INET || a->prefixlen > 30)
		return false;
	memcpy(&addr, a->local.bytes, 4);
	addr = ntohl(addr);
	mask = a->prefixlen ? ~0u << (32 - a->prefixlen) : 0;
	bcast = (addr & mask) | ~mask;
	for (uint32_t k = 1; k < 64 && k < ~mask; k++) {
		uint32_t cand = htonl(bcast - k);

		out->family = AF_INET;
		memset(out->bytes, 0, sizeof(out->bytes));
		memcpy(out->bytes, &cand, 4);
		if (!net_addr_find(d->net, out))
			return true;
	}
	return false;
}

static size_t collect_rdma_addrs(struct doc *d, struct rdma_addr *ra, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < d->net->naddrs && n < max; i++) {
		const struct net_addr *a = &d->net->addrs[i];
		const struct net_link *l = net_link_by_index(d->net, a->ifindex);

		/* Global IPv4 and IPv6 (RoCE v2 runs over both); link-local has scope link. */
		if (!l || !l->rdma || (a->local.family != AF_INET && a->local.family != AF_INET6) ||
		    a->scope != RT_SCOPE_UNIVERSE || net_link_in_vrf(d->net, l))
			continue;
		memset(&ra[n], 0, sizeof(ra[n]));
		ra[n].a = a;
		ra[n].l = l;
		n++;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			unsigned int len;

			if (ra[i].l->ifindex == ra[j].l->ifindex)
				continue;
			len = ra[i].a->prefixlen < ra[j].a->prefixlen ? ra[i].a->prefixlen : ra[j].a->prefixlen;
			if (net_ip_prefix_eq(&ra[i].a->local, &ra[j].a->local, len))
				ra[i].shared = true;
		}
	return n;
}

/* The main-table-style routes for a's subnet, one evidence line each. */
static void evidence_subnet_routes(struct doc *d, struct doctor_finding *f, const struct net_addr *a)
{
	char dst[INET6_ADDRSTRLEN], src[INET6_ADDRSTRLEN], tb[16];
	unsigned int shown = 0;

	for (size_t i = 0; i < d->net->nroutes && shown < 4; i++) {
		const struct net_route *r = &d->net->routes[i];
		const struct net_link *l;

		if (r->family != a->local.family || r->type != RTN_UNICAST || !r->dst_len ||
		    !net_ip_prefix_eq(&r->dst, &a->local, r->dst_len) || r->dst_len > a->prefixlen)
			continue;
		l = net_link_by_index(d->net, r->oif);
		if (l && net_link_in_vrf(d->net, l))
			continue;	/* another routing domain (collect_rdma_addrs) */
		doctor_evidence(f, "route: %s/%u dev %s%s%s table %s", ipstr(&r->dst, dst, sizeof(dst)), r->dst_len,
		     l ? l->name : "?", r->prefsrc.family ? " src " : "",
		     r->prefsrc.family ? ipstr(&r->prefsrc, src, sizeof(src)) : "",
		     net_table_str(r->table, tb, sizeof(tb)));
		shown++;
	}
}

/* Finding 1 for one address whose traffic does not leave by its own interface (rc: the route answer's). */
static bool route_finding(struct doc *d, struct rdma_addr *x, int rc)
{
	char k[INET6_ADDRSTRLEN], p[INET6_ADDRSTRLEN], s[INET6_ADDRSTRLEN], tb[16], net[INET6_ADDRSTRLEN];
	char qi[64], hint[160];
	struct doctor_finding *f;
	struct net_ip sub;
	uint32_t table;

	ipstr(&x->a->local, k, sizeof(k));
	ipstr(&x->probe, p, sizeof(p));
	sub = net_ip_network(&x->a->local, x->a->prefixlen);
	ipstr(&sub, net, sizeof(net));
	table = fix_table_for(d->net, x->l->name, &x->a->local);
	fix_sh_quote(x->l->name, qi, sizeof(qi));

	f = finding_add(d, DOCTOR_SAME_SUBNET_ROUTE, "same-subnet-route", DOCTOR_ERROR);
	if (!f)
		return false;
	f_about(f, x->l->name, &x->a->local);
	if (rc == 0) {
		f_title(f, "traffic from %s (%s) leaves by %s", k, x->l->name,
			x->ans.oif_name[0] ? x->ans.oif_name : "another interface");
		doctor_cause(f, "%s shares the subnet %s/%u with another RDMA netdev, and the kernel routes "
			"that subnet through %s. Connections bound to %s send from the wrong port "
			"while the peer answers %s: RDMA CM gets REJECTED (error 8) or UNREACHABLE.",
			x->l->name, net, x->a->prefixlen,
			x->ans.oif_name[0] ? x->ans.oif_name : "another interface", k, x->l->name);
		doctor_evidence(f, "ip route get %s from %s: dev %s src %s table %s%s", p, k,
		     x->ans.oif_name[0] ? x->ans.oif_name : "?", ipstr(&x->ans.src, s, sizeof(s)),
		     net_table_str(x->ans.table, tb, sizeof(tb)), x->ans.from_model ? " (from the model)" : "");
	} else {
		f_title(f, "traffic from %s (%s) has no route into %s/%u", k, x->l->name, net,
			x->a->prefixlen);
		doctor_cause(f, "No table selected for source %s routes %s/%u: connections bound to %s fail "
			"with ADDR_ERROR or UNREACHABLE.", k, net, x->a->prefixlen, k);
		doctor_evidence(f, "ip route get %s from %s: %s", p, k, strerror(-rc));
	}
	evidence_subnet_routes(d, f, x->a);
	doctor_evidence(f, "no rule 'from %s' selects a table that routes %s/%u by %s", k, net, x->a->prefixlen,
	     x->l->name);
	if (x->a->local.family == AF_INET6) {
		doctor_fix(f, "ip -6 route replace %s/%u dev %s src %s table %u", net, x->a->prefixlen, qi, k, table);
		doctor_fix(f, "ip -6 rule add from %s table %u priority %u", k, table, FIX_RULE_PRIORITY);
	} else {
		doctor_fix(f, "ip route replace %s/%u dev %s scope link src %s table %u", net, x->a->prefixlen,
		      qi, k, table);
		doctor_fix(f, "ip rule add from %s table %u priority %u", k, table, FIX_RULE_PRIORITY);
	}
	doctor_fix(f, "all interfaces at once: fabtop doctor --fix ip; %s",
	      fix_persist_hint(hint, sizeof(hint), d->persist));
	return true;
}

/* Finding 3 for one address: strict rp_filter where the reverse path is the wrong interface. */
static bool rp_filter_finding(struct doc *d, struct rdma_addr *x)
{
	char k[INET6_ADDRSTRLEN], p[INET6_ADDRSTRLEN];
	const struct net_if_sysctls *sc = net_sysctls_of(d->net, x->l->name);
	const struct net_sysctl_val *v;
	struct doctor_finding *f;
	char cmd[DOCTOR_LINE_LEN];
	struct route_answer in;
	int irc = 0;

	/* rp_filter is an IPv4 setting. */
	if (!x->shared || !x->route_checked || x->route_ok || !sc || x->a->local.family != AF_INET)
		return true;
	v = &sc->v[NET_SYSCTL_RP_FILTER];
	if (!v->effective.known || v->effective.value != 1)
		return true;
	/* Where the kernel can be asked, its own input check decides. */
	if (d->routes->input) {
		irc = d->routes->input(d->net, &x->a->local, &x->probe, x->l->ifindex, &in);
		if (irc == 0)
			return true;
	}
	ipstr(&x->a->local, k, sizeof(k));
	f = finding_add(d, DOCTOR_RP_FILTER, "strict-rp-filter", DOCTOR_ERROR);
	if (!f)
		return false;
	f_about(f, x->l->name, &x->a->local);
	f_title(f, "strict rp_filter on %s drops packets to %s", x->l->name, k);
	doctor_cause(f, "With rp_filter=1 the kernel drops a packet unless the reply would leave by the "
		"interface it came in on. Replies from %s leave by %s, so everything for %s that "
		"arrives on %s is dropped: the peer sees UNREACHABLE (error -110) or timeouts, and "
		"ARP for %s is answered by the other NIC only.", k,
		x->ans.oif_name[0] ? x->ans.oif_name : "another interface", k, x->l->name, k);
	doctor_evidence(f, "net.ipv4.conf.%s.rp_filter=%d, conf.all.rp_filter=%d: effective %d (strict)",
	     x->l->name, v->iface.known ? v->iface.value : -1, v->all.known ? v->all.value : -1,
	     v->effective.value);
	doctor_evidence(f, "reverse path for %s leaves by %s (finding 1)", k,
	     x->ans.oif_name[0] ? x->ans.oif_name : "?");
	if (d->routes->input)
		doctor_evidence(f, "ip route get %s from %s iif %s: %s (the kernel refuses such packets)", k,
		     ipstr(&x->probe, p, sizeof(p)), x->l->name, strerror(-irc));
	doctor_fix(f, "the per-interface table and rule of finding 1 make the reverse path right");
	fix_sysctl_cmd(cmd, sizeof(cmd), x->l->name, NET_SYSCTL_RP_FILTER, 2);
	doctor_fix(f, "or loosen the check: %s (and conf.all.rp_filter must not be 1)", cmd);
	return true;
}

/*
 * Findings 1 and 3: traffic from K must leave by K's interface (and come
 * back through it). Both come from the same route answer per address.
 */
static void check_routes(struct doc *d, struct rdma_addr *ra, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct rdma_addr *x = &ra[i];
		int rc;

		if (!x->shared || !probe_addr(d, x->a, &x->probe))
			continue;
		rc = ask_route(d, &x->probe, &x->a->local, 0, &x->ans);
		x->route_checked = true;
		x->route_ok = rc == 0 && x->ans.oif == x->l->ifindex;
		if (!x->route_ok && !route_finding(d, x, rc))
			return;
	}
	for (size_t i = 0; i < n; i++)
		if (!rp_filter_finding(d, &ra[i]))
			return;
}

/* Finding 2: ARP flux between NICs of one subnet. */
static void check_arp(struct doc *d, struct rdma_addr *ra, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct net_if_sysctls *sc;
		const struct net_sysctl_val *ig, *an;
		struct doctor_finding *f;
		char cmd[DOCTOR_LINE_LEN];
		bool seen = false;

		/* ARP is IPv4's; IPv6 neighbour discovery has no such flux. */
		if (!ra[i].shared || ra[i].a->local.family != AF_INET)
			continue;
		for (size_t j = 0; j < i; j++)
			if (ra[j].shared && ra[j].l == ra[i].l && ra[j].a->local.family == AF_INET)
				seen = true;
		sc = net_sysctls_of(d->net, ra[i].l->name);
		if (seen || !sc)
			continue;
		ig = &sc->v[NET_SYSCTL_ARP_IGNORE];
		an = &sc->v[NET_SYSCTL_ARP_ANNOUNCE];
		if (!(ig->effective.known && ig->effective.value == 0) &&
		    !(an->effective.known && an->effective.value == 0))
			continue;
		f = finding_add(d, DOCTOR_ARP_FLUX, "arp-flux", DOCTOR_WARNING);
		if (!f)
			return;
		f_about(f, ra[i].l->name, NULL);
		f_title(f, "ARP flux: %s answers ARP for addresses of the other NICs in its subnet", ra[i].l->name);
		doctor_cause(f, "With arp_ignore=0 every NIC answers ARP for every local address, and with "
			"arp_announce=0 requests may carry another NIC's address. Peers then learn the wrong "
			"MAC (or GID) for an address, at random, so connections to it reach the wrong port.");
		doctor_evidence(f, "%s: arp_ignore effective %d (all %d, iface %d), arp_announce effective %d (all %d, iface %d)",
		     ra[i].l->name, ig->effective.known ? ig->effective.value : -1,
		     ig->all.known ? ig->all.value : -1, ig->iface.known ? ig->iface.value : -1,
		     an->effective.known ? an->effective.value : -1,
		     an->all.known ? an->all.value : -1, an->iface.known ? an->iface.value : -1);
		fix_sysctl_cmd(cmd, sizeof(cmd), ra[i].l->name, NET_SYSCTL_ARP_IGNORE, 1);
		doctor_fix(f, "%s", cmd);
		fix_sysctl_cmd(cmd, sizeof(cmd), ra[i].l->name, NET_SYSCTL_ARP_ANNOUNCE, 2);
		doctor_fix(f, "%s", cmd);
	}
}

/* Finding 4: ports that are not ACTIVE, or slower than they can be (derive/port.h decides). */
#define PORT_EV_LIDS	(1u << 0)	/* the port's LID and SM LID say how far the SM got */
#define PORT_EV_GUID	(1u << 1)	/* the node GUID the SM would address it by */

static const struct {
	enum doctor_severity sev;
	const char *code;
	const char *what;
	const char *cause;
	const char *fix;
	unsigned int ev;
} port_problems[] = {
	[PORT_PROBLEM_NO_SM] = { DOCTOR_ERROR, "port-no-sm",
	  "is INIT with the link up: no subnet manager",
	  "The cable and the peer are fine, but no subnet manager has configured the port (no LID), so "
	  "it carries no traffic: every connection fails.",
	  "run a subnet manager on one node of the fabric (systemctl start opensm) or enable the switch's SM",
	  PORT_EV_LIDS },
	/*
	 * IBA 14.4: the SM sets the port's LID and MasterSMLID while the port
	 * is INIT, and only then sends the PortInfo Set to ARMED and the one to
	 * ACTIVE; an SM LID here means the SM got that far and stopped.
	 */
	[PORT_PROBLEM_SM_PENDING] = { DOCTOR_ERROR, "port-sm-pending",
	  "is INIT with the link up: a subnet manager reached it but has not activated it",
	  "A subnet manager has been here (it set its own LID as the port's SM LID) but has not sent the "
	  "PortInfo Set that moves the port to ARMED and then ACTIVE. Either its sweep is still running "
	  "(a large fabric, or an SM that just started), or it failed on this port or stopped: the SM died "
	  "or lost mastership after assigning LIDs, or its sweep hit an error (partition/P_Key setup, an "
	  "MTU or VL mismatch with the switch port, routing). Until then the port carries no traffic.",
	  "check that a subnet manager is MASTER at the SM LID (sminfo) and read its log for this port's "
	  "GUID (opensm: /var/log/opensm.log); once it is, make it sweep again (opensm: kill -HUP its pid)",
	  PORT_EV_LIDS },
	[PORT_PROBLEM_NO_GUID] = { DOCTOR_ERROR, "port-no-guid",
	  "is INIT with the link up and its node GUID is zero: no subnet manager can configure it",
	  "The node GUID is all zero, which is no GUID, so the subnet manager cannot tell this node apart "
	  "and never activates the port. This is an SR-IOV virtual function whose GUIDs the physical "
	  "function's admin has not set, or one the subnet manager does not handle because its "
	  "virtualization support is off.",
	  "on the host of the physical function, set the VF's GUIDs: ip link set PF_NETDEV vf N node_guid "
	  "GUID port_guid GUID; and enable virtualization in the subnet manager (opensm.conf: virt_enabled 2, "
	  "then restart opensm)",
	  PORT_EV_LIDS | PORT_EV_GUID },
	[PORT_PROBLEM_POLLING] = { DOCTOR_ERROR, "port-polling",
	  "is DOWN and Polling: no link partner",
	  "The port is looking for a peer and finds none: cable unplugged or broken, transceiver "
	  "unsupported, or the switch/peer port is down.",
	  "check the cable and transceiver at both ends and the peer port's state (ibstat on the peer, the switch's port status)",
	  0 },
	[PORT_PROBLEM_DISABLED] = { DOCTOR_ERROR, "port-disabled",
	  "is Disabled",
	  "The port was disabled (by an admin, the SM, or the switch side) and will not train a link.",
	  "enable it: ibportstate -D 0 PORT enable (or on the switch side); check that the SM does not disable it",
	  0 },
	[PORT_PROBLEM_DOWN] = { DOCTOR_ERROR, "port-down",
	  "is DOWN",
	  "The port has no link: nothing can be sent or received on it.",
	  "check the cable, the peer and `ip link set NETDEV up` for RoCE ports",
	  0 },
	[PORT_PROBLEM_ARMED] = { DOCTOR_WARNING, "port-armed",
	  "is ARMED, not ACTIVE",
	  "The subnet manager has not finished bringing the port up.",
	  "wait for the SM sweep, or check the SM log",
	  0 },
};

static void opt_str(const struct opt_u64 *v, char *buf, size_t size)
{
	if (v->known)
		snprintf(buf, size, "%" PRIu64, v->value);
	else
		snprintf(buf, size, "unknown");
}

static struct doctor_finding *port_problem_finding(struct doc *d, const struct fab_device *dev,
						   const struct fab_port *p, enum port_problem pp)
{
	struct doctor_finding *f = finding_add(d, DOCTOR_PORT_STATE, port_problems[pp].code, port_problems[pp].sev);
	char lid[24], sm_lid[24];

	if (!f)
		return NULL;
	f_title(f, "%s port %u %s", dev->name, p->num, port_problems[pp].what);
	doctor_cause(f, "%s", port_problems[pp].cause);
	doctor_evidence(f, "state %s, physical state %s, link layer %s",
	     p->state_raw[0] ? p->state_raw : "unknown",
	     p->phys_state_raw[0] ? p->phys_state_raw : "unknown",
	     fab_link_layer_str(p->link_layer));
	if (port_problems[pp].ev & PORT_EV_LIDS) {
		opt_str(&p->lid, lid, sizeof(lid));
		opt_str(&p->sm_lid, sm_lid, sizeof(sm_lid));
		doctor_evidence(f, "LID %s, SM LID %s%s", lid, sm_lid,
		     p->sm_lid.known && p->sm_lid.value && !fab_lid_is_unicast(p->sm_lid.value) ?
		     " (not a unicast LID: no SM's address)" : "");
	}
	if (port_problems[pp].ev & PORT_EV_GUID)
		doctor_evidence(f, "node GUID %s", dev->node_guid);
	doctor_fix(f, "%s", port_problems[pp].fix);
	return f;
}

static struct doctor_finding *port_slow_finding(struct doc *d, const struct fab_device *dev,
						const struct fab_port *p, double best)
{
	unsigned int w = port_rate_width(p->rate);
	struct doctor_finding *f = finding_add(d, DOCTOR_PORT_STATE, "port-slow", DOCTOR_WARNING);

	if (!f)
		return NULL;
	f_title(f, "%s port %u runs at %s, below its best", dev->name, p->num, p->rate);
	doctor_cause(f, "The link trained at a lower speed or width than it can: a bad cable, "
		"a dirty connector or a peer that cannot do more. Throughput is capped.");
	if (p->rate_gbps < best)
		doctor_evidence(f, "rate %s; another port of %s runs at %g Gb/sec", p->rate, dev->name, best);
	if (p->link_layer == LINK_LAYER_INFINIBAND && w == 1)
		doctor_evidence(f, "width %uX where InfiniBand links are normally 4X", w);
	doctor_fix(f, "reseat or replace the cable; check the peer port's speed and width (ibportstate, iblinkinfo)");
	return f;
}

static void check_ports(struct doc *d, struct rdma_addr *ra, size_t n)
{
	for (size_t i = 0; i < d->host->ndevs; i++) {
		const struct fab_device *dev = &d->host->devs[i];

		for (size_t j = 0; j < dev->nports; j++) {
			const struct fab_port *p = &dev->ports[j];
			enum port_problem pp = port_problem(dev, p);
			struct doctor_finding *f = NULL;
			double best;

			d->out->nports++;
			if (pp != PORT_PROBLEM_NONE)
				f = port_problem_finding(d, dev, p, pp);
			else if (port_is_slow(dev, p, &best))
				f = port_slow_finding(d, dev, p, best);
			if (d->err)
				return;
			if (f) {
				snprintf(f->device, sizeof(f->device), "%s", dev->name);
				f->port = p->num;
				if (p->nnetdevs)
					snprintf(f->ifname, sizeof(f->ifname), "%s", p->netdevs[0].name);
			}
		}
	}
}

static bool port_has_gid_type(const struct fab_port *p, enum fab_gid_type t)
{
	for (size_t k = 0; k < p->ngids; k++)
		if (p->gids[k].type == t)
			return true;
	return false;
}

/* Finding 5, an address of the port's netdev that no GID carries (IPv4 GIDs are ::ffff:a.b.c.d). False: out of memory. */
static bool roce_no_gid(struct doc *d, const struct fab_device *dev, const struct fab_port *p)
{
	char a[INET6_ADDRSTRLEN];

	for (unsigned int k = 0; k < p->nnetdevs; k++) {
		const struct net_link *l = net_link_by_name(d->net, p->netdevs[k].name);

		for (size_t m = 0; l && m < d->net->naddrs; m++) {
			const struct net_addr *ad = &d->net->addrs[m];
			struct doctor_finding *f;
			bool found = false;

			if (ad->ifindex != l->ifindex || ad->scope != RT_SCOPE_UNIVERSE ||
			    (ad->local.family != AF_INET && ad->local.family != AF_INET6))
				continue;
			ipstr(&ad->local, a, sizeof(a));
			for (size_t g = 0; g < p->ngids; g++)
				if (ad->local.family == AF_INET ? p->gids[g].has_ipv4 && !strcmp(p->gids[g].ipv4, a) :
				    !memcmp(p->gids[g].raw, ad->local.bytes, 16))
					found = true;
			if (found)
				continue;
			f = finding_add(d, DOCTOR_ROCE_GID, "roce-no-gid", DOCTOR_ERROR);
			if (!f)
				return false;
			f_about(f, l->name, &ad->local);
			snprintf(f->device, sizeof(f->device), "%s", dev->name);
			f->port = p->num;
			f_title(f, "%s has no GID entry on %s port %u", a, dev->name, p->num);
			doctor_cause(f, "RoCE addresses an endpoint by a GID made from its IP address. %s is on "
				"%s but %s/%u has no GID for it, so rdma_cm cannot bind to it "
				"(ADDR_ERROR, or 'No such device' from ibv_modify_qp).", a, l->name,
				dev->name, p->num);
			doctor_evidence(f, "%s/%u: %zu GIDs, none for %s", dev->name, p->num, p->ngids, a);
			doctor_fix(f, "the kernel adds GIDs when the address is added on the RoCE netdev itself "
			      "(not a bridge or bond above it): move %s to %s, or bounce it "
			      "(ip addr del/add)", a, l->name);
		}
	}
	return true;
}

/* Finding 5, GIDs whose netdev lives in another network namespace (containers). False: out of memory. */
static bool roce_gid_netns(struct doc *d, const struct fab_device *dev, const struct fab_port *p)
{
	char names[DOCTOR_LINE_LEN] = "";
	struct doctor_finding *f;
	size_t cnt = 0;

	/*
	 * Whether the netdev is here is the host model's fact, read from the
	 * same root as the GID table (a tree's class/net under --sysfs), so the
	 * doctor and `show gids` never disagree about one entry.
	 */
	for (size_t g = 0; g < p->ngids; g++) {
		const char *nd = p->gids[g].netdev;

		if (!nd[0] || p->gids[g].netdev_in_ns || strstr(names, nd))
			continue;
		if (strlen(names) + strlen(nd) + 3 < sizeof(names))
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", cnt ? ", " : "", nd);
		cnt++;
	}
	if (!cnt)
		return true;
	f = finding_add(d, DOCTOR_ROCE_GID, "gid-netdev-not-in-netns", DOCTOR_WARNING);
	if (!f)
		return false;
	snprintf(f->device, sizeof(f->device), "%s", dev->name);
	f->port = p->num;
	f_title(f, "%s port %u has GIDs of netdevs not in this network namespace", dev->name, p->num);
	doctor_cause(f, "The RDMA device is visible here but the netdev its GIDs belong to is not "
		"(a container without the RoCE netdev, or with rdma netns 'shared' mode). "
		"Using those GIDs fails: ibv_modify_qp returns 'No such device', rdma_cm "
		"gets ADDR_ERROR.");
	doctor_evidence(f, "GID netdevs missing here: %s", names);
	doctor_fix(f, "move the netdev into this namespace (ip link set DEV netns NS) or run in "
	      "the namespace that has it; for containers use the RoCE netdev's namespace "
	      "(rdma system set netns exclusive + rdma dev set DEV netns NS)");
	return true;
}

/* Append "N" (or "N (what)") to a list line, with "..." once it is full. */
static void list_add(char *buf, size_t size, unsigned int index, const char *what)
{
	size_t len = strlen(buf);
	char item[128];

	if (len >= 3 && !strcmp(buf + len - 3, "..."))
		return;
	snprintf(item, sizeof(item), "%s%u%s%s%s", len ? ", " : "", index, what[0] ? " (" : "", what,
		 what[0] ? ")" : "");
	if (len + strlen(item) + 5 >= size)
		snprintf(buf + len, size - len, ", ...");
	else
		snprintf(buf + len, size - len, "%s", item);
}

/* One entry in words: "10.56.0.7 RoCE v2 on net1", "fe80:... RoCE v1 on ens1f0, not here". */
static const char *gid_words(const struct fab_gid *g, char *buf, size_t size)
{
	snprintf(buf, size, "%s %s%s%s%s", g->has_ipv4 ? g->ipv4 : g->gid, fab_gid_type_str(g->type),
		 g->netdev[0] ? " on " : "", g->netdev, g->netdev[0] && !g->netdev_in_ns ? ", not here" : "");
	return buf;
}

/*
 * Finding 5, a GID table nothing of which is usable from this network
 * namespace while the port is ACTIVE (a pod whose network has no RoCE
 * netdev), or whose usable entries start past index 0, where applications
 * that pick by number look first. False: out of memory.
 */
static bool roce_gid_usable(struct doc *d, const struct fab_device *dev, const struct fab_port *p)
{
	const struct fab_gid *first = NULL, *best = gid_best_here(p);
	char before[DOCTOR_LINE_LEN] = "", usable[DOCTOR_LINE_LEN] = "", w[96];
	struct doctor_finding *f;
	size_t nusable = 0;

	for (size_t g = 0; g < p->ngids; g++) {
		const struct fab_gid *e = &p->gids[g];

		if (!gid_usable_here(e))
			continue;
		nusable++;
		list_add(usable, sizeof(usable), e->index, gid_words(e, w, sizeof(w)));
		if (!first || e->index < first->index)
			first = e;
	}
	if (!nusable && p->state == PORT_STATE_ACTIVE) {
		f = finding_add(d, DOCTOR_ROCE_GID, "roce-no-usable-gid", DOCTOR_ERROR);
		if (!f)
			return false;
		snprintf(f->device, sizeof(f->device), "%s", dev->name);
		f->port = p->num;
		f_title(f, "%s port %u is ACTIVE but no GID entry is usable in this network namespace",
			dev->name, p->num);
		doctor_cause(f, "RoCE addresses each end by a GID of a netdev in the caller's network namespace, "
			"and here there is none (a pod or container whose network has no RoCE netdev): QPs "
			"are created, then fail with 'Failed to modify QP to RTR' (ibv_modify_qp), and "
			"rdma_cm gets ADDR_ERROR.");
		doctor_evidence(f, "%s/%u: %u-entry GID table, %zu in use, none of a netdev here", dev->name, p->num,
		     p->gid_tbl_len, p->ngids);
		for (size_t g = 0; g < p->ngids && g < DOCTOR_MAX_LINES - 1; g++)
			doctor_evidence(f, "entry %u: %s", p->gids[g].index, gid_words(&p->gids[g], w, sizeof(w)));
		doctor_fix(f, "give this namespace a netdev of the RoCE device with an IP address (an SR-IOV VF, "
		      "or a macvlan/ipvlan of the RoCE netdev, e.g. by the SR-IOV or Multus CNI): the "
		      "kernel adds its GIDs; or run in the namespace that has the RoCE netdev");
		return true;
	}
	if (!first || !first->index || !best)
		return true;
	/* what is there instead: entries of netdevs elsewhere (the rest of the slots are empty) */
	for (size_t g = 0; g < p->ngids; g++) {
		const struct fab_gid *e = &p->gids[g];

		if (e->index >= first->index)
			continue;
		snprintf(w, sizeof(w), "%s%s", e->netdev[0] ? e->netdev : fab_gid_type_str(e->type),
			 e->netdev[0] && !e->netdev_in_ns ? ", not here" : "");
		list_add(before, sizeof(before), e->index, w);
	}
	f = finding_add(d, DOCTOR_ROCE_GID, "gid-index-pin", DOCTOR_WARNING);
	if (!f)
		return false;
	snprintf(f->device, sizeof(f->device), "%s", dev->name);
	f->port = p->num;
	if (best->netdev[0])
		snprintf(f->ifname, sizeof(f->ifname), "%s", best->netdev);
	f_title(f, "%s port %u has no usable GID before index %u: pin NCCL_IB_GID_INDEX=%u", dev->name, p->num,
		first->index, best->index);
	doctor_cause(f, "Applications that take a GID by number start at index 0 or 1 unless told (perftest's "
		"-x 0, NCCL and UCX where their own choice is off or fails); on this port those entries "
		"are empty or belong to netdevs of other namespaces, so connections fail or go out "
		"the wrong way.");
	doctor_evidence(f, "%s/%u: usable from here: %s", dev->name, p->num, usable);
	doctor_evidence(f, "before index %u: %s%s", first->index, before[0] ? before : "only empty entries",
	     before[0] ? "; the others empty" : "");
	doctor_fix(f, "NCCL_IB_GID_INDEX=%u UCX_IB_GID_INDEX=%u (ib_write_bw -d %s -i %u -x %u)", best->index,
	      best->index, dev->name, p->num, best->index);
	doctor_fix(f, "fabtop show gids --for ADDR|IFACE|PEER names the entry for an address, interface or peer");
	return true;
}

/* Finding 5, entries the kernel gives no type (no gid_attrs/types: before 4.5), kept and said. False: out of memory. */
static bool roce_gid_untyped(struct doc *d, const struct fab_device *dev, const struct fab_port *p)
{
	char list[DOCTOR_LINE_LEN] = "";
	struct doctor_finding *f;
	size_t n = 0;

	for (size_t g = 0; g < p->ngids; g++)
		if (p->gids[g].type == GID_TYPE_UNKNOWN) {
			list_add(list, sizeof(list), p->gids[g].index, "");
			n++;
		}
	if (!n)
		return true;
	f = finding_add(d, DOCTOR_ROCE_GID, "gid-type-unknown", DOCTOR_INFO);
	if (!f)
		return false;
	snprintf(f->device, sizeof(f->device), "%s", dev->name);
	f->port = p->num;
	f_title(f, "%s port %u: %zu GID entr%s without a type (no gid_attrs/types)", dev->name, p->num, n,
		n == 1 ? "y" : "ies");
	doctor_cause(f, "The kernel gives no RoCE version for these entries: kernels before 4.5 have no "
		"gid_attrs/types/N (and no gid_attrs/ndevs/N), and their RoCE GIDs are all RoCE v1, "
		"which does not cross an IP router. fabtop keeps the entries, typed unknown.");
	doctor_evidence(f, "%s/%u: entries without a type: %s", dev->name, p->num, list);
	doctor_fix(f, "for RoCE v2, a kernel of 4.5 or later (or the vendor's RDMA stack); both ends must use "
	      "the same RoCE version");
	return true;
}

/* Finding 5, default_roce_mode against the GID types the port has. False: out of memory. */
static bool roce_mode_mismatch(struct doc *d, const struct fab_device *dev, const struct fab_port *p)
{
	enum fab_gid_type want = GID_TYPE_UNKNOWN;
	struct doctor_finding *f;

	if (!p->default_roce_mode[0] || !p->ngids)
		return true;
	if (!strcmp(p->default_roce_mode, "RoCE v2"))
		want = GID_TYPE_ROCE_V2;
	else if (!strcmp(p->default_roce_mode, "IB/RoCE v1"))
		want = GID_TYPE_ROCE_V1;
	if (want == GID_TYPE_UNKNOWN || port_has_gid_type(p, want))
		return true;
	f = finding_add(d, DOCTOR_ROCE_GID, "roce-mode-mismatch", DOCTOR_WARNING);
	if (!f)
		return false;
	snprintf(f->device, sizeof(f->device), "%s", dev->name);
	f->port = p->num;
	f_title(f, "rdma_cm default_roce_mode is %s but %s port %u has no %s GIDs",
		p->default_roce_mode, dev->name, p->num, fab_gid_type_str(want));
	doctor_cause(f, "rdma_cm picks GIDs of its default RoCE mode; with none of that type "
		"it cannot resolve addresses on this port, and both ends must agree on "
		"the RoCE version.");
	doctor_evidence(f, "configfs rdma_cm/%s/ports/%u/default_roce_mode = %s", dev->name, p->num, p->default_roce_mode);
	doctor_fix(f, "echo '%s' > /sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_mode",
	      want == GID_TYPE_ROCE_V2 ? "IB/RoCE v1" : "RoCE v2", dev->name, p->num);
	return true;
}

/*
 * Finding 5: RoCE addresses and GIDs, port by port (a missing GID, another
 * namespace's, the RoCE mode, nothing usable here, usable only past index
 * 0, no types).
 */
static void check_roce(struct doc *d, struct rdma_addr *ra, size_t n)
{
	for (size_t i = 0; i < d->host->ndevs; i++) {
		const struct fab_device *dev = &d->host->devs[i];

		for (size_t j = 0; j < dev->nports; j++) {
			const struct fab_port *p = &dev->ports[j];

			/* RoCE only: iWARP RNICs (node type 4) have no IP-based GIDs. */
			if (p->link_layer != LINK_LAYER_ETHERNET || dev->node_type_num == 4)
				continue;
			if (!roce_no_gid(d, dev, p) || !roce_gid_netns(d, dev, p) || !roce_mode_mismatch(d, dev, p) ||
			    !roce_gid_usable(d, dev, p) || !roce_gid_untyped(d, dev, p))
				return;
		}
	}
}

/* Mode and MTU of an IPoIB link: netlink when it says, else sysfs via the host model. */
static void ipoib_info(struct doc *d, const struct net_link *l, enum net_ipoib_mode *mode, uint32_t *mtu)
{
	*mode = l->ipoib_mode;
	*mtu = l->mtu;
	if (*mode != NET_IPOIB_NONE)
		return;
	for (size_t i = 0; i < d->host->ndevs; i++)
		for (size_t j = 0; j < d->host->devs[i].nports; j++) {
			const struct fab_port *p = &d->host->devs[i].ports[j];

			for (unsigned int k = 0; k < p->nnetdevs; k++) {
				const struct fab_netdev *nd = &p->netdevs[k];

				if (strcmp(nd->name, l->name))
					continue;
				if (!strcmp(nd->ipoib_mode, "datagram"))
					*mode = NET_IPOIB_DATAGRAM;
				else if (!strcmp(nd->ipoib_mode, "connected"))
					*mode = NET_IPOIB_CONNECTED;
			}
		}
}

/*
 * Finding 6: IPoIB mode/MTU, and accept_local when probing between two local ports.
 * Long: finding 6's IPoIB mode/MTU pairs and accept_local share one walk over the RDMA addresses.
 */
/* The ifindex of the VRF a link routes in (itself when it is one), 0 for the main tables. */
static int vrf_of(const struct net_state *net, const struct net_link *l)
{
	if (!net_link_in_vrf(net, l))
		return 0;
	return !strcmp(l->kind, "vrf") ? l->ifindex : l->master;
}

static void check_ipoib(struct doc *d, struct rdma_addr *ra, size_t n)
{
	for (size_t i = 0; i < d->net->nlinks; i++) {
		const struct net_link *l = &d->net->links[i];
		enum net_ipoib_mode mode;
		uint32_t mtu;
		struct doctor_finding *f;

		if (!l->rdma)
			continue;
		ipoib_info(d, l, &mode, &mtu);
		if (mode == NET_IPOIB_NONE || !mtu)
			continue;
		if ((mode == NET_IPOIB_CONNECTED && mtu != IPOIB_MTU_CONNECTED) ||
		    (mode == NET_IPOIB_DATAGRAM && mtu != IPOIB_MTU_DATAGRAM_2K && mtu != IPOIB_MTU_DATAGRAM_4K)) {
			f = finding_add(d, DOCTOR_IPOIB, "ipoib-mtu", DOCTOR_INFO);
			if (!f)
				return;
			f_about(f, l->name, NULL);
			f_title(f, "%s: IPoIB %s mode with MTU %u", l->name, net_ipoib_mode_str(mode), mtu);
			doctor_cause(f, "The usual MTU is %s; a different one works but must match on every host of "
				"the subnet, or large packets are dropped.",
				mode == NET_IPOIB_CONNECTED ? "65520 in connected mode" :
				"2044 (2K IB MTU) or 4092 (4K) in datagram mode");
			doctor_evidence(f, "%s: mode %s, mtu %u", l->name, net_ipoib_mode_str(mode), mtu);
			doctor_fix(f, "ip link set dev %s mtu %u", l->name,
			      mode == NET_IPOIB_CONNECTED ? IPOIB_MTU_CONNECTED : IPOIB_MTU_DATAGRAM_2K);
		}
	}
	/* IPoIB links sharing a subnet must agree on mode and MTU. */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			enum net_ipoib_mode mi, mj;
			uint32_t ti, tj;
			unsigned int len;
			struct doctor_finding *f;

			if (!ra[i].shared || ra[i].l == ra[j].l)
				continue;
			len = ra[i].a->prefixlen < ra[j].a->prefixlen ? ra[i].a->prefixlen : ra[j].a->prefixlen;
			if (!net_ip_prefix_eq(&ra[i].a->local, &ra[j].a->local, len))
				continue;
			ipoib_info(d, ra[i].l, &mi, &ti);
			ipoib_info(d, ra[j].l, &mj, &tj);
			if (mi == NET_IPOIB_NONE || mj == NET_IPOIB_NONE || (mi == mj && ti == tj))
				continue;
			f = finding_add(d, DOCTOR_IPOIB, "ipoib-mismatch", DOCTOR_WARNING);
			if (!f)
				return;
			f_about(f, ra[j].l->name, NULL);
			f_title(f, "IPoIB %s and %s share a subnet with different mode/MTU", ra[i].l->name, ra[j].l->name);
			doctor_cause(f, "Hosts and ports of one IPoIB subnet must use the same MTU: a peer sending "
				"%u-byte packets to a port configured for %u drops them, and TCP over it stalls.",
				ti > tj ? ti : tj, ti > tj ? tj : ti);
			doctor_evidence(f, "%s: %s mode, mtu %u", ra[i].l->name, net_ipoib_mode_str(mi), ti);
			doctor_evidence(f, "%s: %s mode, mtu %u", ra[j].l->name, net_ipoib_mode_str(mj), tj);
			doctor_fix(f, "pick one: connected mode with mtu 65520 (echo connected > /sys/class/net/IF/mode; "
			      "ip link set IF mtu 65520) or datagram with 2044/4092, on every port of the subnet");
		}

	/* Probing from one local port to another: the receiver must accept a local source. */
	if (d->peer.family == AF_INET) {
		const struct net_addr *pa = net_addr_find(d->net, &d->peer);
		const struct net_link *pl = pa ? net_link_by_index(d->net, pa->ifindex) : NULL;
		const struct net_if_sysctls *sc = pl ? net_sysctls_of(d->net, pl->name) : NULL;
		const struct net_sysctl_val *v = sc ? &sc->v[NET_SYSCTL_ACCEPT_LOCAL] : NULL;
		bool other = false;

		/*
		 * A source on another RDMA link of the same routing domain: a peer
		 * in a VRF is checked against its VRF's table, where a source of
		 * the main table is not local (fabtop lab's peer), so accept_local
		 * plays no part between the two.
		 */
		for (size_t i = 0; i < n; i++)
			if (pl && ra[i].l != pl && vrf_of(d->net, ra[i].l) == vrf_of(d->net, pl))
				other = true;
		if (pl && pl->rdma && other && v && v->effective.known && v->effective.value == 0) {
			char pe[INET6_ADDRSTRLEN], cmd[DOCTOR_LINE_LEN];
			struct doctor_finding *f = finding_add(d, DOCTOR_IPOIB, "accept-local", DOCTOR_WARNING);

			if (!f)
				return;
			ipstr(&d->peer, pe, sizeof(pe));
			f_about(f, pl->name, &d->peer);
			f_title(f, "peer %s is local (%s): accept_local=0 drops a probe between two local ports",
				pe, pl->name);
			doctor_cause(f, "The peer address belongs to this host. An RDMA connection between two local "
				"ports goes out on the wire and comes back with a local source address, which "
				"the kernel drops as martian unless accept_local=1 on the receiving interface.");
			doctor_evidence(f, "%s: accept_local effective %d (all %d, iface %d)", pl->name, v->effective.value,
			     v->all.known ? v->all.value : -1, v->iface.known ? v->iface.value : -1);
			fix_sysctl_cmd(cmd, sizeof(cmd), pl->name, NET_SYSCTL_ACCEPT_LOCAL, 1);
			doctor_fix(f, "%s", cmd);
		}
	}
}

/* A port's REJs sent and received since the first sample, and the requests it saw. */
static void port_cm_deltas(const struct fab_port *p, uint64_t *rej_tx, uint64_t *rej_rx, uint64_t *req_tx,
			   uint64_t *req_rx)
{
	*rej_tx = *rej_rx = *req_tx = *req_rx = 0;
	for (size_t k = 0; k < p->ncounters; k++) {
		const struct fab_counter *c = &p->counters[k];
		uint64_t v;

		if (!counter_is_cm(c) || !counter_delta_since_start(c, &v))
			continue;
		if (counter_is_cm_rej(c, DIR_XMIT))
			*rej_tx += v;
		else if (counter_is_cm_rej(c, DIR_RCV))
			*rej_rx += v;
		else if (!strcmp(c->name, "cm_tx_msgs/req"))
			*req_tx += v;
		else if (!strcmp(c->name, "cm_rx_msgs/req"))
			*req_rx += v;
	}
}

/*
 * Finding 7: the CM refused connections while we watched. Its counters
 * say that and in which direction, not why: the finding names the causes
 * a REJ has and where the reason can be read.
 */
static void check_cm_rejects(struct doc *d, struct rdma_addr *ra, size_t n)
{
	for (size_t i = 0; i < d->host->ndevs; i++) {
		const struct fab_device *dev = &d->host->devs[i];

		for (size_t j = 0; j < dev->nports; j++) {
			const struct fab_port *p = &dev->ports[j];
			uint64_t rej_tx, rej_rx, req_tx, req_rx;
			struct doctor_finding *f;

			port_cm_deltas(p, &rej_tx, &rej_rx, &req_tx, &req_rx);
			if (!rej_tx && !rej_rx)
				continue;
			f = finding_add(d, DOCTOR_CM_REJECT, "cm-reject", DOCTOR_WARNING);
			if (!f)
				return;
			snprintf(f->device, sizeof(f->device), "%s", dev->name);
			f->port = p->num;
			if (p->nnetdevs)
				snprintf(f->ifname, sizeof(f->ifname), "%s", p->netdevs[0].name);
			f_title(f, "%s port %u: connections refused (REJ sent %" PRIu64 ", received %" PRIu64 ")",
				dev->name, p->num, rej_tx, rej_rx);
			if (rej_tx)
				doctor_cause(f, "This host's CM answered connection requests with a REJ: nothing listens on "
					"the requested port here, the request reached this NIC although the address it "
					"asked for is another's (see findings 1 to 3), or the local application "
					"rejected it (consumer reject).");
			else
				doctor_cause(f, "Peers answered this host's connection requests with a REJ: nothing listens "
					"on that port at the peer, the request reached the peer's other NIC, or the "
					"peer's application rejected it (consumer reject).");
			doctor_evidence(f, "since fabtop started: cm_tx_msgs/rej +%" PRIu64 ", cm_rx_msgs/rej +%" PRIu64, rej_tx,
			     rej_rx);
			doctor_evidence(f, "requests in that time: cm_tx_msgs/req +%" PRIu64 ", cm_rx_msgs/req +%" PRIu64, req_tx,
			     req_rx);
			doctor_fix(f, "who listens where: fabtop show res cm (or rdma res show cm_id)");
			doctor_fix(f, "the REJ's reason from the side that connects: fabtop probe PEER");
			doctor_fix(f, "the route the connection takes: fabtop doctor PEER");
		}
	}
}

/*
 * The chain's checks that could not run on a port (DCB unreadable, no
 * ethtool statistics): said, so that "no problems" is never claimed over
 * them. The rate checks need two samples, which one look never has: not
 * listed (they are `show roce --count`'s).
 */
static void check_roce_gaps(struct doc *d)
{
	struct doctor_report *r = d->out;
	size_t n = roce_gaps(NULL, d->roce, NULL, 0), k = 0;
	struct roce_gap *g = n ? calloc(n, sizeof(*g)) : NULL;

	if (n && !g) {
		d->err = -ENOMEM;
		return;
	}
	roce_gaps(NULL, d->roce, g, n);
	for (size_t i = 0; i < n; i++) {
		const struct net_link *l = g[i].netdev[0] ? net_link_by_name(d->net, g[i].netdev) : NULL;

		/* a netdev in a VRF is another routing domain's (fabtop lab's peer): the doctor examines none of it */
		if (g[i].dev[0] && !(l && net_link_in_vrf(d->net, l)))
			g[k++] = g[i];
	}
	if (!k) {
		free(g);
		return;
	}
	r->gaps = g;
	r->ngaps = k;
}

/* The configuration findings of the RoCE lossless chain (derive/roce_check.c): one sample has no rates. */
static void check_roce_chain(struct doc *d, struct rdma_addr *ra, size_t n)
{
	struct doctor_finding *fs;
	size_t nfs;

	if (!d->roce || !d->roce->nports)
		return;
	nfs = roce_check(NULL, d->roce, NULL, 0);
	fs = nfs ? calloc(nfs, sizeof(*fs)) : NULL;
	if (nfs && !fs) {
		d->err = -ENOMEM;
		return;
	}
	roce_check(NULL, d->roce, fs, nfs);
	for (size_t i = 0; i < nfs; i++) {
		struct doctor_finding *f = finding_add(d, fs[i].id, fs[i].code, fs[i].severity);

		if (f)
			*f = fs[i];
	}
	free(fs);
	check_roce_gaps(d);
}

/* What lies under the ports (derive/pci_check.c): the PCIe links read with the host, and the ports' rates. */
static void check_platform(struct doc *d, struct rdma_addr *ra, size_t n)
{
	size_t nfs = pci_check(d->host, NULL, 0);
	struct doctor_finding *fs = nfs ? calloc(nfs, sizeof(*fs)) : NULL;

	if (nfs && !fs) {
		d->err = -ENOMEM;
		return;
	}
	pci_check(d->host, fs, nfs);
	for (size_t i = 0; i < nfs; i++) {
		struct doctor_finding *f = finding_add(d, fs[i].id, fs[i].code, fs[i].severity);

		if (f)
			*f = fs[i];
	}
	free(fs);
}

/*
 * The checks, in the order their findings are listed. Each sees the RDMA
 * addresses (and whether each shares its subnet) and adds findings.
 */
static const struct doctor_check {
	const char *name;
	void (*run)(struct doc *d, struct rdma_addr *ra, size_t n);
} doctor_checks[] = {
	{ "routes and rp_filter (1, 3)", check_routes },
	{ "ARP (2)", check_arp },
	{ "ports (4)", check_ports },
	{ "RoCE GIDs (5)", check_roce },
	{ "IPoIB and local peers (6)", check_ipoib },
	{ "CM rejects (7)", check_cm_rejects },
	{ "RoCE lossless chain (8)", check_roce_chain },
	{ "under the ports (9)", check_platform },
};

/* Room for one more route row (zeroed), NULL when out of memory. */
static struct doctor_route *route_row_new(struct doc *d)
{
	struct doctor_report *r = d->out;
	struct doctor_route *nr = realloc(r->routes, (r->nroutes + 1) * sizeof(*nr));

	if (!nr) {
		d->err = -ENOMEM;
		return NULL;
	}
	r->routes = nr;
	memset(&nr[r->nroutes], 0, sizeof(*nr));
	return &nr[r->nroutes++];
}

void doctor_route_ask(const struct net_state *net, const struct route_ops *routes, const struct net_ip *peer,
		      const struct net_ip *src, struct doctor_route *row)
{
	const struct net_addr *a = net_addr_find(net, src);
	const struct net_link *l = a ? net_link_by_index(net, a->ifindex) : NULL;

	memset(row, 0, sizeof(*row));
	net_ip_str(src, row->src, sizeof(row->src));
	if (l)
		snprintf(row->src_ifname, sizeof(row->src_ifname), "%s", l->name);
	row->rc = routes->output(net, peer, src, 0, &row->ans);
	row->own_iface = row->rc == 0 && l && (row->ans.oif == l->ifindex || row->ans.type == RTN_LOCAL);
	row->in_subnet = a && net_ip_prefix_eq(peer, src, a->prefixlen);
}

/* --from ADDR: its row is marked, or made when the address is not an RDMA one. */
static void route_from_addr(struct doc *d, const struct net_ip *ip)
{
	struct doctor_report *r = d->out;
	struct doctor_route *row;

	for (size_t i = 0; i < r->nroutes; i++) {
		struct net_ip x;

		if (!net_ip_parse(r->routes[i].src, &x) && net_ip_eq(&x, ip)) {
			r->routes[i].user_from = true;
			return;
		}
	}
	row = route_row_new(d);
	if (!row)
		return;
	doctor_route_ask(d->net, d->routes, &d->peer, ip, row);
	row->user_from = true;
}

/*
 * --from IFACE stands for its addresses of the peer's family: the RDMA CM
 * binds an address, and the kernel routes by that source, never by the
 * device (rping -I, the probe's --from and librdmacm all bind). An
 * interface with none gets a row that says so.
 */
static void route_from_iface(struct doc *d, const struct net_link *l)
{
	bool any = false;

	for (size_t i = 0; i < d->net->naddrs && !d->err; i++) {
		const struct net_addr *a = &d->net->addrs[i];

		if (a->ifindex != l->ifindex || a->local.family != d->peer.family || a->scope != RT_SCOPE_UNIVERSE)
			continue;
		route_from_addr(d, &a->local);
		any = true;
	}
	if (!any && !d->err) {
		struct doctor_route *row = route_row_new(d);

		if (!row)
			return;
		row->user_from = true;
		snprintf(row->src_ifname, sizeof(row->src_ifname), "%s", l->name);
		row->rc = -EADDRNOTAVAIL;
	}
}

/*
 * The kernel's decision for PEER from every local RDMA address (and
 * --from), each asked by source address as the RDMA CM binds it, with
 * whether it leaves by its own interface.
 */
static void route_table(struct doc *d, struct rdma_addr *ra, size_t n, const struct net_ip *from_ip, int from_oif)
{
	if (!d->peer.family)
		return;
	for (size_t i = 0; i < d->net->naddrs && !d->err; i++) {
		const struct net_addr *a = &d->net->addrs[i];
		const struct net_link *l = net_link_by_index(d->net, a->ifindex);
		struct doctor_route *row;
		bool listed = false;

		if (!l || !l->rdma || a->local.family != d->peer.family || a->scope != RT_SCOPE_UNIVERSE)
			continue;
		for (size_t j = 0; j < n; j++)
			if (ra[j].a == a)
				listed = true;
		if (!listed)
			continue;
		row = route_row_new(d);
		if (row)
			doctor_route_ask(d->net, d->routes, &d->peer, &a->local, row);
	}
	if (d->err)
		return;
	if (from_oif > 0) {
		const struct net_link *l = net_link_by_index(d->net, from_oif);

		if (l)
			route_from_iface(d, l);
	} else if (from_ip && from_ip->family) {
		route_from_addr(d, from_ip);
	}
}

enum doctor_route_verdict doctor_route_verdict(const struct doctor_route *r)
{
	if (r->rc)
		return DOCTOR_ROUTE_NONE;
	if (r->own_iface)
		return DOCTOR_ROUTE_OK;
	return r->in_subnet ? DOCTOR_ROUTE_WRONG_IFACE : DOCTOR_ROUTE_BY_ROUTING;
}

const char *doctor_route_verdict_str(enum doctor_route_verdict v)
{
	static const char *const names[] = {
		[DOCTOR_ROUTE_OK] = "ok",
		[DOCTOR_ROUTE_WRONG_IFACE] = "WRONG INTERFACE",
		[DOCTOR_ROUTE_BY_ROUTING] = "by routing (peer outside its subnet)",
		[DOCTOR_ROUTE_NONE] = "no route",
	};

	return (size_t)v < ARRAY_SIZE(names) && names[v] ? names[v] : "?";
}

/* The findings (checks) and the route table for q, or the route table alone. */
static int doctor_do(const struct doctor_input *in, const struct doctor_query *q, struct doctor_report *out,
		     bool checks)
{
	const struct net_state *net = in->net;
	struct doc d = { .host = in->host, .net = net, .routes = in->routes, .q = q, .out = out, .roce = in->roce,
			 .persist = in->persist };
	struct net_ip from_ip = { 0 };
	int from_oif = 0;
	struct rdma_addr *ra = NULL;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (q && q->peer && q->peer[0]) {
		if (net_ip_parse(q->peer, &d.peer))
			return -EINVAL;
		net_ip_str(&d.peer, out->peer, sizeof(out->peer));
	}
	if (q && q->from && q->from[0]) {
		if (net_ip_parse(q->from, &from_ip)) {
			const struct net_link *l = net_link_by_name(net, q->from);

			if (!l)
				return -ENODEV;
			from_oif = l->ifindex;
		} else if (!net_addr_find(net, &from_ip)) {
			return -EADDRNOTAVAIL;
		}
		if (from_ip.family && d.peer.family && from_ip.family != d.peer.family)
			return -EINVAL;
	}
	out->nrdma_netdevs = net_count_rdma(net);
	if (net->naddrs) {
		ra = calloc(net->naddrs, sizeof(*ra));
		if (!ra)
			return -ENOMEM;
		n = collect_rdma_addrs(&d, ra, net->naddrs);
	}
	for (size_t i = 0; checks && i < ARRAY_SIZE(doctor_checks) && !d.err; i++)
		doctor_checks[i].run(&d, ra, n);
	route_table(&d, ra, n, &from_ip, from_oif);
	free(ra);
	if (d.err) {
		doctor_report_free(out);
		return d.err;
	}
	return 0;
}

int doctor_run(const struct doctor_input *in, const struct doctor_query *q, struct doctor_report *out)
{
	return doctor_do(in, q, out, true);
}

int doctor_routes(const struct doctor_input *in, const struct doctor_query *q, struct doctor_report *out)
{
	return doctor_do(in, q, out, false);
}

void doctor_report_free(struct doctor_report *r)
{
	free(r->gaps);
	free(r->findings);
	free(r->routes);
	memset(r, 0, sizeof(*r));
}

bool doctor_has_problems(const struct doctor_report *r)
{
	for (size_t i = 0; i < r->nfindings; i++)
		if (r->findings[i].severity >= DOCTOR_WARNING)
			return true;
	return false;
}

const struct doctor_finding *doctor_find(const struct doctor_report *r, const char *addr_or_ifname)
{
	if (!addr_or_ifname || !addr_or_ifname[0])
		return NULL;
	for (size_t i = 0; i < r->nfindings; i++)
		if (!strcmp(r->findings[i].addr, addr_or_ifname) ||
		    !strcmp(r->findings[i].ifname, addr_or_ifname))
			return &r->findings[i];
	return NULL;
}
