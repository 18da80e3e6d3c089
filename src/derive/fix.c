// SPDX-License-Identifier: GPL-2.0-or-later
/* Fix plans (per-interface tables, source rules, ARP sysctls) and their ip/dispatcher/ifupdown/netplan/NetworkManager forms. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>

#include "derive/fix.h"
#include "util.h"

struct fix_format_desc {
	const char *name;
	const char *path;	/* where it is installed */
	const char *iface_var;	/* how the script learns the interface */
	const char *intro;	/* comment lines specific to the format */
};

static const struct fix_format_desc formats[] = {
	[FIX_IP] = { "ip", "", NULL,
		"# Runtime fix: run as root. Safe to run twice (routes are replaced, rules added\n"
		"# only when missing). Lost at reboot: see --fix nmcli|nm-keyfile|netplan|networkd-dispatcher|\n"
		"# nm-dispatcher|ifupdown.\n" },
	[FIX_NETWORKD_DISPATCHER] = { "networkd-dispatcher",
		"/etc/networkd-dispatcher/routable.d/50-fabtop-rdma-routes", "${IFACE:-}",
		"# netplan/systemd-networkd hosts: networkd-dispatcher runs this with IFACE set\n"
		"# each time an interface becomes routable. Install mode 0755, owner root.\n" },
	[FIX_NM_DISPATCHER] = { "nm-dispatcher",
		"/etc/NetworkManager/dispatcher.d/50-fabtop-rdma-routes", "${1:-}",
		"# NetworkManager hosts: NetworkManager-dispatcher runs this with the interface\n"
		"# in $1 and the action in $2. Install mode 0755, owner root.\n" },
	[FIX_IFUPDOWN] = { "ifupdown",
		"/etc/network/if-up.d/fabtop-rdma-routes", "${IFACE:-}",
		"# ifupdown hosts (/etc/network/interfaces): run-parts runs this with IFACE set\n"
		"# after each interface comes up. Install mode 0755, owner root; no dots in the name.\n" },
	[FIX_NETPLAN] = { "netplan", "/etc/netplan/90-fabtop-rdma-routes.yaml", NULL,
		"# netplan hosts: merged with the existing files. Install mode 0600, owner root\n"
		"# (netplan refuses to trust files others can read); then run `netplan apply`.\n" },
	[FIX_NMCLI] = { "nmcli", "", NULL,
		"# NetworkManager hosts: each interface's active connection keeps its routes\n"
		"# (ipv4.routes with table=) and rules (ipv4.routing-rules), and NetworkManager\n"
		"# puts them in place at every activation. Run as root; safe to run twice\n"
		"# (NetworkManager keeps one copy of a route or rule).\n" },
	[FIX_NM_KEYFILE] = { "nm-keyfile", "/etc/NetworkManager/system-connections/", NULL,
		"# NetworkManager hosts: append each interface's block to the keyfile of its\n"
		"# connection in /etc/NetworkManager/system-connections/ (the one whose\n"
		"# interface-name= names it; a repeated [ipv4] group merges into the first).\n"
		"# The entries are numbered from 1000: they replace none the connection has,\n"
		"# and appended twice they replace themselves. Then, as root:\n"
		"#   nmcli connection reload && nmcli device reapply IFACE\n" },
};

static const struct {
	const char *why;
	enum fix_format format;
} hosts[] = {
	[FIX_HOST_UNKNOWN] = { "", FIX_IP },
	[FIX_HOST_NETWORKMANAGER] = { "NetworkManager runs here", FIX_NMCLI },
	[FIX_HOST_NETPLAN] = { "netplan configures this host", FIX_NETPLAN },
	[FIX_HOST_IFUPDOWN] = { "ifupdown configures this host", FIX_IFUPDOWN },
	[FIX_HOST_NETWORKD] = { "systemd-networkd runs here", FIX_NETWORKD_DISPATCHER },
};

enum fix_format fix_host_format(enum fix_host host)
{
	return (unsigned int)host < ARRAY_SIZE(hosts) ? hosts[host].format : FIX_IP;
}

const char *fix_host_str(enum fix_host host)
{
	return (unsigned int)host < ARRAY_SIZE(hosts) ? hosts[host].why : "";
}

const char *fix_persist_hint(char *buf, size_t size, enum fix_host host)
{
	enum fix_format f = fix_host_format(host);

	if (f == FIX_IP)
		snprintf(buf, size, "to keep it across reboots: --fix nmcli|nm-keyfile|netplan|"
			 "networkd-dispatcher|nm-dispatcher|ifupdown");
	else
		snprintf(buf, size, "to keep it across reboots (%s): fabtop doctor --fix %s",
			 fix_host_str(host), formats[f].name);
	return buf;
}

int fix_format_parse(const char *s, enum fix_format *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (s && !strcmp(s, formats[i].name)) {
			*out = (enum fix_format)i;
			return 0;
		}
	return -EINVAL;
}

const char *fix_format_name(enum fix_format f)
{
	return (unsigned int)f < ARRAY_SIZE(formats) ? formats[f].name : "?";
}

const char *fix_format_path(enum fix_format f)
{
	return (unsigned int)f < ARRAY_SIZE(formats) ? formats[f].path : "";
}

bool fix_ifname_ok(const char *ifname)
{
	size_t n = strlen(ifname);

	if (n == 0 || n >= IFNAMSIZ || !strcmp(ifname, ".") || !strcmp(ifname, ".."))
		return false;
	for (const unsigned char *p = (const unsigned char *)ifname; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f || *p == '/' || *p == ':')
			return false;
	return true;
}

const char *fix_sh_quote(const char *s, char *buf, size_t size)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,:/=+@%-";
	size_t o = 0;

	if (!size)
		return buf;
	if (s[0] && strspn(s, safe) == strlen(s)) {
		snprintf(buf, size, "%s", s);
		return buf;
	}
	/* 'it'\''s': a quote closes, an escaped quote, a quote reopens. */
	buf[o++] = '\'';
	for (; *s && o + 6 < size; s++) {
		if (*s == '\'') {
			memcpy(buf + o, "'\\''", 4);
			o += 4;
		} else {
			buf[o++] = *s;
		}
	}
	if (o + 2 <= size)
		buf[o++] = '\'';
	buf[o < size ? o : size - 1] = '\0';
	return buf;
}

/* A YAML double-quoted scalar. */
static const char *yaml_quote(const char *s, char *buf, size_t size)
{
	size_t o = 0;

	buf[o++] = '"';
	for (; *s && o + 4 < size; s++) {
		if (*s == '"' || *s == '\\')
			buf[o++] = '\\';
		buf[o++] = *s;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return buf;
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a: stable across runs and hosts */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

static bool reserved_table(uint32_t t)
{
	return t == RT_TABLE_UNSPEC || t == RT_TABLE_DEFAULT || t == RT_TABLE_MAIN || t == RT_TABLE_LOCAL;
}

/* The rule "from ADDR/32 lookup T" of this state, 0 if none. */
static uint32_t rule_table_for(const struct net_state *st, const struct net_ip *addr)
{
	unsigned int full = addr->family == AF_INET ? 32 : 128;

	for (size_t i = 0; i < st->nrules; i++) {
		const struct net_rule *r = &st->rules[i];

		if (r->action == FR_ACT_TO_TBL && r->src_len == full && net_ip_eq(&r->src, addr) &&
		    !r->dst_len && !r->iifname[0] && !r->oifname[0] && !r->has_fwmark && !reserved_table(r->table))
			return r->table;
	}
	return 0;
}

/* Is table t used in st by anything that is not ifname's? */
static bool table_taken(const struct net_state *st, uint32_t t, const char *ifname)
{
	for (size_t i = 0; i < st->nroutes; i++) {
		const struct net_link *l;

		if (st->routes[i].table != t)
			continue;
		l = net_link_by_index(st, st->routes[i].oif);
		if (!l || strcmp(l->name, ifname))
			return true;
	}
	for (size_t i = 0; i < st->nrules; i++) {
		const struct net_addr *a;
		const struct net_link *l;

		if (st->rules[i].table != t)
			continue;
		a = st->rules[i].src.family ? net_addr_find(st, &st->rules[i].src) : NULL;
		l = a ? net_link_by_index(st, a->ifindex) : NULL;
		if (!l || strcmp(l->name, ifname))
			return true;
	}
	return false;
}

static uint32_t hashed_table(const char *ifname)
{
	return FIX_TABLE_BASE + name_hash(ifname) % FIX_TABLE_SPAN;
}

static uint32_t step_table(uint32_t t)
{
	return t + 1 >= FIX_TABLE_BASE + FIX_TABLE_SPAN ? FIX_TABLE_BASE : t + 1;
}

uint32_t fix_table_for(const struct net_state *st, const char *ifname, const struct net_ip *addr)
{
	uint32_t t = addr ? rule_table_for(st, addr) : 0;

	if (t)
		return t;
	t = hashed_table(ifname);
	for (unsigned int tries = 0; tries < FIX_TABLE_SPAN; tries++, t = step_table(t)) {
		bool clash = table_taken(st, t, ifname);

		/* RDMA links whose names sort first keep their hashed table. */
		for (size_t i = 0; i < st->nlinks && !clash; i++) {
			const struct net_link *l = &st->links[i];

			if (l->rdma && strcmp(l->name, ifname) < 0 && hashed_table(l->name) == t)
				clash = true;
		}
		if (!clash)
			return t;
	}
	return hashed_table(ifname);
}

static void *push(void **arr, size_t *n, size_t elem)
{
	char *p = realloc(*arr, (*n + 1) * elem);

	if (!p)
		return NULL;
	*arr = p;
	p += *n * elem;
	memset(p, 0, elem);
	(*n)++;
	return p;
}

static bool route_present(const struct net_state *st, const struct fix_route *fr, int ifindex)
{
	for (size_t i = 0; i < st->nroutes; i++) {
		const struct net_route *r = &st->routes[i];

		if (r->table == fr->table && r->family == fr->subnet.family && r->dst_len == fr->prefixlen &&
		    net_ip_eq(&r->dst, &fr->subnet) && r->oif == ifindex && r->type == RTN_UNICAST &&
		    net_ip_eq(&r->prefsrc, &fr->addr))
			return true;
	}
	return false;
}

static bool rule_present(const struct net_state *st, const struct fix_route *fr)
{
	return rule_table_for(st, &fr->addr) == fr->table;
}

static const struct {
	enum net_sysctl_id id;
	int value;
} wanted_sysctls[] = {
	/* Answer ARP only for addresses of the interface asked, and announce the right one. */
	{ NET_SYSCTL_ARP_IGNORE, 1 },
	{ NET_SYSCTL_ARP_ANNOUNCE, 2 },
};

int fix_plan_build(const struct net_state *st, struct fix_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	for (size_t i = 0; i < st->naddrs; i++) {
		const struct net_addr *a = &st->addrs[i];
		const struct net_link *l = net_link_by_index(st, a->ifindex);
		bool shared = false;
		struct fix_route *fr;

		if (!l || !l->rdma || (a->local.family != AF_INET && a->local.family != AF_INET6) ||
		    a->scope != RT_SCOPE_UNIVERSE || net_link_in_vrf(st, l))
			continue;
		for (size_t j = 0; j < st->naddrs && !shared; j++) {
			const struct net_addr *b = &st->addrs[j];
			const struct net_link *m = net_link_by_index(st, b->ifindex);
			unsigned int len = a->prefixlen < b->prefixlen ? a->prefixlen : b->prefixlen;

			if (m && m->rdma && m != l && !net_link_in_vrf(st, m) && b->local.family == a->local.family &&
			    b->scope == RT_SCOPE_UNIVERSE && net_ip_prefix_eq(&a->local, &b->local, len))
				shared = true;
		}
		if (!shared)
			continue;
		fr = push((void **)&plan->routes, &plan->nroutes, sizeof(*fr));
		if (!fr)
			goto nomem;
		snprintf(fr->ifname, sizeof(fr->ifname), "%s", l->name);
		fr->addr = a->local;
		fr->prefixlen = a->prefixlen;
		fr->subnet = net_ip_network(&a->local, a->prefixlen);
		fr->table = fix_table_for(st, l->name, &a->local);
		fr->priority = FIX_RULE_PRIORITY;
		fr->route_ok = route_present(st, fr, l->ifindex);
		fr->rule_ok = rule_present(st, fr);
	}
	for (size_t i = 0; i < plan->nroutes; i++) {
		bool seen = false;

		/* The ARP settings concern interfaces that share an IPv4 subnet. */
		if (plan->routes[i].addr.family != AF_INET)
			continue;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(plan->routes[j].ifname, plan->routes[i].ifname) &&
			    plan->routes[j].addr.family == AF_INET)
				seen = true;
		if (seen)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(wanted_sysctls); k++) {
			const struct net_if_sysctls *sc = net_sysctls_of(st, plan->routes[i].ifname);
			struct fix_sysctl *fs = push((void **)&plan->sysctls, &plan->nsysctls, sizeof(*fs));

			if (!fs)
				goto nomem;
			snprintf(fs->ifname, sizeof(fs->ifname), "%s", plan->routes[i].ifname);
			fs->id = wanted_sysctls[k].id;
			fs->value = wanted_sysctls[k].value;
			if (sc) {
				fs->old = sc->v[fs->id].iface;
				fs->ok = sc->v[fs->id].effective.known && sc->v[fs->id].effective.value >= fs->value;
			}
		}
	}
	return 0;
nomem:
	fix_plan_free(plan);
	return -ENOMEM;
}

void fix_plan_free(struct fix_plan *plan)
{
	free(plan->routes);
	free(plan->sysctls);
	memset(plan, 0, sizeof(*plan));
}

bool fix_plan_needed(const struct fix_plan *plan)
{
	for (size_t i = 0; i < plan->nroutes; i++)
		if (!plan->routes[i].route_ok || !plan->routes[i].rule_ok)
			return true;
	for (size_t i = 0; i < plan->nsysctls; i++)
		if (!plan->sysctls[i].ok)
			return true;
	return false;
}

static void sysctl_arg(char *buf, size_t size, const char *ifname, enum net_sysctl_id id, int value)
{
	/* sysctl takes '/' separators when the interface name has dots (VLANs). */
	if (strchr(ifname, '.'))
		snprintf(buf, size, "net/ipv4/conf/%s/%s=%d", ifname, net_sysctl_name(id), value);
	else
		snprintf(buf, size, "net.ipv4.conf.%s.%s=%d", ifname, net_sysctl_name(id), value);
}

/* The commands for one interface, each line prefixed by indent. */
static void write_iface_cmds(FILE *f, const struct fix_plan *plan, const char *ifname, const char *indent)
{
	char q[64], a[INET6_ADDRSTRLEN], s[INET6_ADDRSTRLEN], arg[128], qa[160];

	fix_sh_quote(ifname, q, sizeof(q));
	for (size_t i = 0; i < plan->nroutes; i++) {
		const struct fix_route *r = &plan->routes[i];

		if (strcmp(r->ifname, ifname))
			continue;
		net_ip_str(&r->addr, a, sizeof(a));
		net_ip_str(&r->subnet, s, sizeof(s));
		if (r->addr.family == AF_INET6) {
			fprintf(f, "%sip -6 route replace %s/%u dev %s src %s table %u\n",
				indent, s, r->prefixlen, q, a, r->table);
			fprintf(f, "%sip -6 rule show from %s table %u priority %u | grep -q . ||\n"
				   "%s\tip -6 rule add from %s table %u priority %u\n",
				indent, a, r->table, r->priority, indent, a, r->table, r->priority);
			continue;
		}
		fprintf(f, "%sip route replace %s/%u dev %s scope link src %s table %u\n",
			indent, s, r->prefixlen, q, a, r->table);
		fprintf(f, "%sip rule show from %s table %u priority %u | grep -q . ||\n"
			   "%s\tip rule add from %s table %u priority %u\n",
			indent, a, r->table, r->priority, indent, a, r->table, r->priority);
	}
	for (size_t i = 0; i < plan->nsysctls; i++) {
		const struct fix_sysctl *c = &plan->sysctls[i];

		if (strcmp(c->ifname, ifname))
			continue;
		sysctl_arg(arg, sizeof(arg), c->ifname, c->id, c->value);
		fprintf(f, "%ssysctl -q -w %s\n", indent, fix_sh_quote(arg, qa, sizeof(qa)));
	}
}

static bool first_of(const struct fix_plan *plan, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(plan->routes[j].ifname, plan->routes[i].ifname))
			return false;
	return true;
}

static bool plan_has_dollar(const struct fix_plan *plan)
{
	for (size_t i = 0; i < plan->nroutes; i++)
		if (strpbrk(plan->routes[i].ifname, "$`"))
			return true;
	return false;
}

static void write_script(FILE *f, enum fix_format format, const struct fix_plan *plan)
{
	const struct fix_format_desc *d = &formats[format];
	char q[64];

	fprintf(f, "#!/bin/sh\n# %s\n# Generated by fabtop doctor --fix %s: per-interface routing tables and\n"
		   "# source rules for RDMA netdevs that share an IPv4 subnet (fabtop doctor finding 1).\n%s"
		   "# Idempotent: safe to run twice and at every interface up.\n",
		d->path, d->name, d->intro);
	if (plan_has_dollar(plan))
		fprintf(f, "# Interface names with $ or ` are single-quoted on purpose: nothing in them runs.\n"
			   "# shellcheck disable=SC2016\n");
	fprintf(f, "PATH=/usr/sbin:/usr/bin:/sbin:/bin\n");
	if (format == FIX_NM_DISPATCHER)
		fprintf(f, "[ \"${2:-}\" = up ] || exit 0\n");
	fprintf(f, "case \"%s\" in\n", d->iface_var);
	for (size_t i = 0; i < plan->nroutes; i++) {
		if (!first_of(plan, i))
			continue;
		fprintf(f, "%s)\n", fix_sh_quote(plan->routes[i].ifname, q, sizeof(q)));
		write_iface_cmds(f, plan, plan->routes[i].ifname, "\t");
		fprintf(f, "\t;;\n");
	}
	fprintf(f, "esac\nexit 0\n");
}

/* The plan's sysctls as sysctl.d(5) lines, each prefixed by prefix. */
static void write_sysctl_conf(FILE *f, const struct fix_plan *plan, const char *prefix)
{
	for (size_t i = 0; i < plan->nsysctls; i++) {
		char arg[128];

		sysctl_arg(arg, sizeof(arg), plan->sysctls[i].ifname, plan->sysctls[i].id, plan->sysctls[i].value);
		*strchr(arg, '=') = '\0';
		fprintf(f, "%s%s = %d\n", prefix, arg, plan->sysctls[i].value);
	}
}

/*
 * NetworkManager's route syntax (nm-settings-nmcli(5)): "DST/LEN
 * [attribute=value]...", the same text in nmcli's ipv4.routes and in a
 * keyfile's routeN_options; scope is a number there (253: link) and IPv4 only.
 */
static void nm_route_options(char *buf, size_t size, const struct fix_route *r, char sep)
{
	char a[INET6_ADDRSTRLEN];

	if (r->addr.family == AF_INET)
		snprintf(buf, size, "scope=%d%csrc=%s%ctable=%u", RT_SCOPE_LINK, sep,
			 net_ip_str(&r->addr, a, sizeof(a)), sep, r->table);
	else
		snprintf(buf, size, "src=%s%ctable=%u", net_ip_str(&r->addr, a, sizeof(a)), sep, r->table);
}

/* "priority P from K table T": NetworkManager's rule syntax (a rule always has its priority). */
static void nm_rule(char *buf, size_t size, const struct fix_route *r)
{
	char a[INET6_ADDRSTRLEN];

	snprintf(buf, size, "priority %u from %s table %u", r->priority, net_ip_str(&r->addr, a, sizeof(a)),
		 r->table);
}

static void write_nmcli(FILE *f, const struct fix_plan *plan)
{
	char q[64], s[INET6_ADDRSTRLEN], opts[128], rule[128];

	fprintf(f, "#!/bin/sh\n# Generated by fabtop doctor --fix nmcli: per-interface routing tables and\n"
		   "# source rules for RDMA netdevs that share an IPv4 subnet (fabtop doctor finding 1).\n%s",
		formats[FIX_NMCLI].intro);
	if (plan_has_dollar(plan))
		fprintf(f, "# Interface names with $ or ` are single-quoted on purpose: nothing in them runs.\n"
			   "# shellcheck disable=SC2016\n");
	fprintf(f, "PATH=/usr/sbin:/usr/bin:/sbin:/bin\nset -e\n");
	for (size_t i = 0; i < plan->nroutes; i++) {
		if (!first_of(plan, i))
			continue;
		fix_sh_quote(plan->routes[i].ifname, q, sizeof(q));
		fprintf(f, "\n# %s: the connection active on it\n"
			   "c=$(nmcli -g GENERAL.CONNECTION device show %s)\n"
			   "[ -n \"$c\" ] || { printf '%%s: no NetworkManager connection is active on it\\n' %s >&2; exit 1; }\n",
			q, q, q);
		for (size_t j = i; j < plan->nroutes; j++) {
			const struct fix_route *r = &plan->routes[j];
			const char *v = r->addr.family == AF_INET6 ? "ipv6" : "ipv4";

			if (strcmp(r->ifname, plan->routes[i].ifname))
				continue;
			nm_route_options(opts, sizeof(opts), r, ' ');
			nm_rule(rule, sizeof(rule), r);
			fprintf(f, "nmcli connection modify \"$c\" +%s.routes '%s/%u %s' \\\n\t+%s.routing-rules '%s'\n",
				v, net_ip_str(&r->subnet, s, sizeof(s)), r->prefixlen, opts, v, rule);
		}
		fprintf(f, "nmcli device reapply %s\n", q);
	}
	if (!plan->nsysctls)
		return;
	fprintf(f, "\n# The ARP settings: NetworkManager has no keys for them. systemd-udevd applies\n"
		   "# sysctl.d again for each interface that appears, so they hold for late ones too.\n"
		   "cat >%s <<'EOF'\n", FIX_SYSCTL_D);
	write_sysctl_conf(f, plan, "");
	fprintf(f, "EOF\nsysctl -q -p %s\n", FIX_SYSCTL_D);
}

static void write_nm_keyfile(FILE *f, const struct fix_plan *plan)
{
	char s[INET6_ADDRSTRLEN], opts[128], rule[128];

	fprintf(f, "# Generated by fabtop doctor --fix nm-keyfile: per-interface routing tables and\n"
		   "# source rules for RDMA netdevs that share an IPv4 subnet (fabtop doctor finding 1),\n"
		   "# as NetworkManager keyfile entries (nm-settings-keyfile(5)).\n%s",
		formats[FIX_NM_KEYFILE].intro);
	if (plan->nsysctls)
		fprintf(f, "# The ARP settings (NetworkManager has no keys for them) go into %s:\n", FIX_SYSCTL_D);
	write_sysctl_conf(f, plan, "#   ");
	for (size_t i = 0; i < plan->nroutes; i++) {
		if (!first_of(plan, i))
			continue;
		for (int family = AF_INET; family; family = family == AF_INET ? AF_INET6 : 0) {
			unsigned int n = FIX_KEYFILE_FIRST;

			for (size_t j = i; j < plan->nroutes; j++) {
				const struct fix_route *r = &plan->routes[j];

				if (strcmp(r->ifname, plan->routes[i].ifname) || r->addr.family != family)
					continue;
				if (n == FIX_KEYFILE_FIRST)
					fprintf(f, "\n# interface-name=%s\n[%s]\n", r->ifname,
						family == AF_INET ? "ipv4" : "ipv6");
				nm_route_options(opts, sizeof(opts), r, ',');
				nm_rule(rule, sizeof(rule), r);
				fprintf(f, "route%u=%s/%u\nroute%u_options=%s\nrouting-rule%u=%s\n", n,
					net_ip_str(&r->subnet, s, sizeof(s)), r->prefixlen, n, opts, n, rule);
				n++;
			}
		}
	}
}

static void write_netplan(FILE *f, const struct fix_plan *plan)
{
	char q[64], a[INET6_ADDRSTRLEN], s[INET6_ADDRSTRLEN];

	fprintf(f, "# %s\n# Generated by fabtop doctor --fix netplan: per-interface routing tables and\n"
		   "# source rules for RDMA netdevs that share an IPv4 subnet.\n%s",
		formats[FIX_NETPLAN].path, formats[FIX_NETPLAN].intro);
	if (plan->nsysctls)
		fprintf(f, "# netplan has no sysctl keys; put these lines in %s:\n", FIX_SYSCTL_D);
	write_sysctl_conf(f, plan, "#   ");
	fprintf(f, "network:\n  version: 2\n  ethernets:\n");
	for (size_t i = 0; i < plan->nroutes; i++) {
		if (!first_of(plan, i))
			continue;
		fprintf(f, "    %s:\n      routes:\n", yaml_quote(plan->routes[i].ifname, q, sizeof(q)));
		for (size_t j = i; j < plan->nroutes; j++) {
			const struct fix_route *r = &plan->routes[j];

			if (strcmp(r->ifname, plan->routes[i].ifname))
				continue;
			fprintf(f, "        - to: %s/%u\n%s          from: %s\n          table: %u\n",
				net_ip_str(&r->subnet, s, sizeof(s)), r->prefixlen,
				r->addr.family == AF_INET ? "          scope: link\n" : "",
				net_ip_str(&r->addr, a, sizeof(a)), r->table);
		}
		fprintf(f, "      routing-policy:\n");
		for (size_t j = i; j < plan->nroutes; j++) {
			const struct fix_route *r = &plan->routes[j];

			if (strcmp(r->ifname, plan->routes[i].ifname))
				continue;
			fprintf(f, "        - from: %s\n          table: %u\n          priority: %u\n",
				net_ip_str(&r->addr, a, sizeof(a)), r->table, r->priority);
		}
	}
}

int fix_write(FILE *f, enum fix_format format, const struct fix_plan *plan)
{
	if ((unsigned int)format >= ARRAY_SIZE(formats))
		return -EINVAL;
	for (size_t i = 0; i < plan->nroutes; i++)
		if (!fix_ifname_ok(plan->routes[i].ifname))
			return -EINVAL;
	if (!plan->nroutes) {
		fprintf(f, "# fabtop: nothing to fix: no two RDMA netdevs share an IPv4 subnet.\n");
		return 0;
	}
	switch (format) {
	case FIX_IP:
		fprintf(f, "# Generated by fabtop doctor --fix ip: per-interface routing tables and source\n"
			   "# rules for RDMA netdevs that share an IPv4 subnet (fabtop doctor finding 1).\n%s",
			formats[FIX_IP].intro);
		if (plan_has_dollar(plan))
			fprintf(f, "# Interface names with $ or ` are single-quoted on purpose: nothing in them runs.\n"
				   "# shellcheck disable=SC2016\n");
		for (size_t i = 0; i < plan->nroutes; i++)
			if (first_of(plan, i))
				write_iface_cmds(f, plan, plan->routes[i].ifname, "");
		break;
	case FIX_NETPLAN:
		write_netplan(f, plan);
		break;
	case FIX_NMCLI:
		write_nmcli(f, plan);
		break;
	case FIX_NM_KEYFILE:
		write_nm_keyfile(f, plan);
		break;
	default:
		write_script(f, format, plan);
		break;
	}
	return 0;
}

void fix_sysctl_cmd(char *buf, size_t size, const char *ifname, enum net_sysctl_id id, int value)
{
	char arg[128], q[600];

	/* A dotted name (a VLAN) cannot be spelled with dots: the slash form says the same. */
	if (strchr(ifname, '.'))
		snprintf(arg, sizeof(arg), "net/ipv4/conf/%s/%s=%d", ifname, net_sysctl_name(id), value);
	else
		snprintf(arg, sizeof(arg), "net.ipv4.conf.%s.%s=%d", ifname, net_sysctl_name(id), value);
	snprintf(buf, size, "sysctl -w %s", fix_sh_quote(arg, q, sizeof(q)));
}

/*
 * RTAX_* as `ip route` names them, and how it takes their lock: after the
 * word ("mtu lock 1400"), always (rto_min: ip locks it itself), or never.
 * A value without a unit is taken as the kernel keeps it (rtt in 1/8 ms,
 * rttvar in 1/4 ms).
 */
enum metric_lock { LOCK_WORD, LOCK_ALWAYS, LOCK_NEVER };
static const struct {
	unsigned int rtax;
	const char *name;
	enum metric_lock lock;
} route_metrics[] = {
	{ RTAX_MTU, "mtu", LOCK_WORD }, { RTAX_ADVMSS, "advmss", LOCK_WORD }, { RTAX_RTT, "rtt", LOCK_WORD },
	{ RTAX_RTTVAR, "rttvar", LOCK_WORD }, { RTAX_REORDERING, "reordering", LOCK_WORD },
	{ RTAX_WINDOW, "window", LOCK_WORD }, { RTAX_CWND, "cwnd", LOCK_WORD },
	{ RTAX_SSTHRESH, "ssthresh", LOCK_WORD }, { RTAX_HOPLIMIT, "hoplimit", LOCK_WORD },
	{ RTAX_INITCWND, "initcwnd", LOCK_WORD }, { RTAX_INITRWND, "initrwnd", LOCK_WORD },
	{ RTAX_QUICKACK, "quickack", LOCK_NEVER }, { RTAX_CC_ALGO, "congctl", LOCK_WORD },
	{ RTAX_FEATURES, "features", LOCK_NEVER }, { RTAX_RTO_MIN, "rto_min", LOCK_ALWAYS },
	{ RTAX_FASTOPEN_NO_COOKIE, "fastopen_no_cookie", LOCK_NEVER },
};

static const char *const route_types[] = {
	[RTN_LOCAL] = "local", [RTN_BROADCAST] = "broadcast", [RTN_ANYCAST] = "anycast",
	[RTN_MULTICAST] = "multicast", [RTN_BLACKHOLE] = "blackhole", [RTN_UNREACHABLE] = "unreachable",
	[RTN_PROHIBIT] = "prohibit", [RTN_THROW] = "throw", [RTN_NAT] = "nat",
};

static const char *const route_protos[] = {
	[RTPROT_REDIRECT] = "redirect", [RTPROT_KERNEL] = "kernel", [RTPROT_BOOT] = "boot",
	[RTPROT_STATIC] = "static", [RTPROT_RA] = "ra", [RTPROT_DHCP] = "dhcp",
};

/* printf at *o in buf, never past size. */
static void cat(char *buf, size_t size, size_t *o, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void cat(char *buf, size_t size, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *o, size - *o, fmt, ap);
	va_end(ap);
	if (n > 0)
		*o = *o + (size_t)n < size ? *o + (size_t)n : size - 1;
}

uint32_t fix_route_restore_cmd(char *buf, size_t size, const char *verb, const struct net_route *r,
			       const struct net_state *st)
{
	char a[INET6_ADDRSTRLEN], q[80];
	const char *type = util_name(route_types, ARRAY_SIZE(route_types), r->type, NULL);
	const char *proto = util_name(route_protos, ARRAY_SIZE(route_protos), r->protocol, NULL);
	uint32_t inexact = r->inexact;
	size_t o = 0;

	if (!size)
		return inexact;
	buf[0] = '\0';
	cat(buf, size, &o, "ip%s route %s ", r->family == AF_INET6 ? " -6" : "", verb);
	if (r->type != RTN_UNICAST) {
		if (type)
			cat(buf, size, &o, "%s ", type);
		else
			inexact |= NET_ROUTE_METRIC;	/* a type `ip route` has no word for */
	}
	if (!r->dst_len && !r->dst.family)
		cat(buf, size, &o, "default");
	else
		cat(buf, size, &o, "%s/%u", net_ip_str(&r->dst, a, sizeof(a)), r->dst_len);
	if (r->tos)
		cat(buf, size, &o, " tos 0x%02x", r->tos);
	if (r->src_len)
		cat(buf, size, &o, " from %s/%u", net_ip_str(&r->src, a, sizeof(a)), r->src_len);
	if (r->nhid)
		cat(buf, size, &o, " nhid %u", r->nhid);
	if (r->gateway.family)
		cat(buf, size, &o, " via %s", net_ip_str(&r->gateway, a, sizeof(a)));
	if (r->oif) {
		const struct net_link *l = net_link_by_index(st, r->oif);

		if (!l)
			inexact |= NET_ROUTE_DEV;
		cat(buf, size, &o, " dev %s", fix_sh_quote(l ? l->name : "?", q, sizeof(q)));
	}
	if (r->flags & RTNH_F_ONLINK)
		cat(buf, size, &o, " onlink");
	cat(buf, size, &o, " table %u", r->table);
	if (r->has_priority)
		cat(buf, size, &o, " metric %u", r->priority);
	if (proto)
		cat(buf, size, &o, " proto %s", proto);
	else
		cat(buf, size, &o, " proto %u", r->protocol);
	cat(buf, size, &o, " scope %u", r->scope);
	if (r->prefsrc.family)
		cat(buf, size, &o, " src %s", net_ip_str(&r->prefsrc, a, sizeof(a)));
	if (r->has_realms)
		cat(buf, size, &o, " realms %u/%u", r->realms >> 16, r->realms & 0xffff);
	for (size_t i = 0; i < ARRAY_SIZE(route_metrics); i++) {
		unsigned int x = route_metrics[i].rtax;
		bool lock = r->metrics_set & (1u << RTAX_LOCK) && r->metrics[RTAX_LOCK] & (1u << x);

		if (!(r->metrics_set & (1u << x)))
			continue;
		if (route_metrics[i].lock != LOCK_WORD && lock != (route_metrics[i].lock == LOCK_ALWAYS))
			inexact |= NET_ROUTE_METRIC;	/* ip would lock it, or cannot */
		if (route_metrics[i].lock != LOCK_WORD)
			lock = false;
		if (x == RTAX_FEATURES) {
			/* only ecn can be set; the kernel keeps other bits to itself */
			if (r->metrics[x] & ~(uint32_t)RTAX_FEATURE_ECN)
				inexact |= NET_ROUTE_METRIC;
			if (r->metrics[x] & RTAX_FEATURE_ECN)
				cat(buf, size, &o, " features ecn");
			continue;
		}
		cat(buf, size, &o, " %s%s ", route_metrics[i].name, lock ? " lock" : "");
		if (x == RTAX_CC_ALGO)
			cat(buf, size, &o, "%s", fix_sh_quote(r->congctl, q, sizeof(q)));
		else
			cat(buf, size, &o, "%u", r->metrics[x]);
	}
	if (r->has_pref && r->family == AF_INET6)
		cat(buf, size, &o, " pref %s", r->pref == 0 ? "medium" : r->pref == 1 ? "high" : r->pref == 3 ? "low" : "?");
	if (o + 1 >= size)
		inexact |= NET_ROUTE_METRIC;	/* cut short */
	return inexact;
}

void fix_route_cmd(char *buf, size_t size, const char *verb, const struct net_route *r, const struct net_state *st)
{
	char d[INET6_ADDRSTRLEN], s[INET6_ADDRSTRLEN], g[INET6_ADDRSTRLEN], q[80];
	const struct net_link *l = net_link_by_index(st, r->oif);

	/* Printed to be pasted into a shell: the interface name is quoted as the fixes quote it. */
	char metric[24] = "";

	/* the metric is part of a route's key: restoring without it would add another */
	if (r->has_priority && r->priority)
		snprintf(metric, sizeof(metric), " metric %u", r->priority);
	snprintf(buf, size, "ip%s route %s %s/%u%s%s dev %s%s%s table %u%s", r->family == AF_INET6 ? " -6" : "",
		 verb, net_ip_str(&r->dst, d, sizeof(d)), r->dst_len,
		 r->gateway.family ? " via " : "", r->gateway.family ? net_ip_str(&r->gateway, g, sizeof(g)) : "",
		 fix_sh_quote(l ? l->name : "?", q, sizeof(q)), r->prefsrc.family ? " src " : "",
		 r->prefsrc.family ? net_ip_str(&r->prefsrc, s, sizeof(s)) : "", r->table, metric);
}
