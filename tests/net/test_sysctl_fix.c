// SPDX-License-Identifier: GPL-2.0-or-later
/* Sysctl reading under a proc root (all/default/iface and the kernel's max/or), fix table numbering, and which persistent fix fits a host. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit/tap.h"
#include "change/sysctl_write.h"
#include "kernel/netconf.h"
#include "kernel/sysctl.h"
#include "ctx.h"
#include "derive/fix.h"

static char root[256];

static void put(const char *ifname, const char *name, const char *value)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/net", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/net/ipv4", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/net/ipv4/conf", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/net/ipv4/conf/%s", root, ifname);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/net/ipv4/conf/%s/%s", root, ifname, name);
	f = fopen(path, "w");
	if (f) {
		fputs(value, f);
		fclose(f);
	}
}

static void test_sysctl(void)
{
	struct net_if_sysctls s;
	const char *names[] = { "rp_filter", "arp_ignore", "arp_announce", "arp_filter", "accept_local" };
	int rc;

	snprintf(root, sizeof(root), "/tmp/fabtop-sysctl.XXXXXX");
	if (!mkdtemp(root)) {
		TAP_OK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	for (int i = 0; i < 5; i++) {
		put("all", names[i], "0\n");
		put("default", names[i], "0\n");
		put("ib0", names[i], "0\n");
	}
	put("all", "rp_filter", "1\n");		/* max(1, 0) = 1: strict */
	put("ib0", "arp_ignore", "1\n");	/* max(0, 1) = 1 */
	put("all", "arp_announce", "2\n");	/* max(2, 0) = 2 */
	put("ib0", "arp_filter", "1\n");	/* or(0, 1) = 1 */
	put("all", "accept_local", "1\n");	/* or(1, 0) = 1 */
	put("default", "rp_filter", "2\n");	/* default: context only */

	rc = sysctl_read_iface(root, "ib0", &s);
	ASSERT_EQ_INT(rc, 0, "ib0's conf directory reads");
	ASSERT_EQ_INT(s.v[NET_SYSCTL_RP_FILTER].effective.value, 1, "rp_filter: all=1 iface=0 is strict (max)");
	ASSERT_EQ_INT(s.v[NET_SYSCTL_RP_FILTER].dflt.value, 2, "rp_filter: default read for context");
	ASSERT_EQ_INT(s.v[NET_SYSCTL_ARP_IGNORE].effective.value, 1, "arp_ignore: max(0, 1)");
	ASSERT_EQ_INT(s.v[NET_SYSCTL_ARP_ANNOUNCE].effective.value, 2, "arp_announce: max(2, 0)");
	ASSERT_EQ_INT(s.v[NET_SYSCTL_ARP_FILTER].effective.value, 1, "arp_filter: or(0, 1)");
	ASSERT_EQ_INT(s.v[NET_SYSCTL_ACCEPT_LOCAL].effective.value, 1, "accept_local: or(1, 0)");

	put("ib0", "arp_ignore", "banana\n");
	sysctl_read_iface(root, "ib0", &s);
	TAP_OK(!s.v[NET_SYSCTL_ARP_IGNORE].iface.known && !s.v[NET_SYSCTL_ARP_IGNORE].effective.known,
	       "garbage is unknown, and so is the effective value (known %d, effective known %d)",
	       s.v[NET_SYSCTL_ARP_IGNORE].iface.known, s.v[NET_SYSCTL_ARP_IGNORE].effective.known);
	put("ib0", "arp_ignore", "-1\n");
	sysctl_read_iface(root, "ib0", &s);
	TAP_OK(!s.v[NET_SYSCTL_ARP_IGNORE].iface.known, "a negative value is unknown (value %d)",
	       s.v[NET_SYSCTL_ARP_IGNORE].iface.value);

	ASSERT_EQ_INT(sysctl_read_iface(root, "ib9", &s), -ENOENT, "no conf directory: -ENOENT");
	ASSERT_CMP_INT(sysctl_read_iface(root, "../ib0", &s), <, 0, "a name with '/' is refused");
	ASSERT_CMP_INT(sysctl_read_iface("/nonexistent-root", "ib0", &s), <, 0, "a missing root is an error");

	ASSERT_EQ_INT(sysctl_write_iface(root, "ib0", NET_SYSCTL_ARP_IGNORE, 1), 0, "write a value");
	sysctl_read_iface(root, "ib0", &s);
	ASSERT_EQ_INT(s.v[NET_SYSCTL_ARP_IGNORE].iface.value, 1, "and read it back");
	ASSERT_CMP_INT(sysctl_write_iface(root, "..", NET_SYSCTL_ARP_IGNORE, 1), <, 0, "writing to '..' is refused");
	ASSERT_CMP_INT(sysctl_write_iface(root, "ib7", NET_SYSCTL_ARP_IGNORE, 1), <, 0,
		       "writing to a missing interface fails");
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			printf("# could not remove %s\n", root);
	}
}

static struct net_ip ip(const char *s)
{
	struct net_ip r;

	net_ip_parse(s, &r);
	return r;
}

static void test_tables(void)
{
	struct net_link links[2] = { 0 };
	struct net_addr addrs[2] = { 0 };
	struct net_rule rule = { 0 };
	struct net_state st = { 0 };
	char a[16], b[16];
	uint32_t ta, tb;
	int found = 0;

	/* Two names whose hash lands on one table: the second steps past it. */
	for (int i = 0; i < 20000 && !found; i++)
		for (int j = i + 1; j < i + 400 && !found; j++) {
			snprintf(a, sizeof(a), "ib%d", i);
			snprintf(b, sizeof(b), "ib%d", j);
			st.links = NULL;
			st.nlinks = 0;
			if (fix_table_for(&st, a, NULL) == fix_table_for(&st, b, NULL))
				found = 1;
		}
	TAP_OK(found, "two colliding names found (%s, %s)", a, b);
	links[0].ifindex = 2;
	links[0].rdma = true;
	snprintf(links[0].name, sizeof(links[0].name), "%s", a);
	links[1].ifindex = 3;
	links[1].rdma = true;
	snprintf(links[1].name, sizeof(links[1].name), "%s", b);
	st.links = links;
	st.nlinks = 2;
	ta = fix_table_for(&st, a, NULL);
	tb = fix_table_for(&st, b, NULL);
	TAP_OK(ta != tb, "colliding names get different tables (%u, %u)", ta, tb);
	ASSERT_EQ_U64(fix_table_for(&st, a, NULL), ta, "stable on a second call");
	TAP_OK(ta >= FIX_TABLE_BASE && ta < FIX_TABLE_BASE + FIX_TABLE_SPAN && tb >= FIX_TABLE_BASE &&
	       tb < FIX_TABLE_BASE + FIX_TABLE_SPAN, "inside the documented range (%u and %u in [%u, %u))", ta, tb,
	       FIX_TABLE_BASE, FIX_TABLE_BASE + FIX_TABLE_SPAN);

	/* An existing "from ADDR lookup T" rule (942 on the same-subnet host) is reused. */
	addrs[0].ifindex = 3;
	addrs[0].prefixlen = 16;
	addrs[0].local = ip("172.16.34.2");
	st.addrs = addrs;
	st.naddrs = 1;
	rule.family = AF_INET;
	rule.action = FR_ACT_TO_TBL;
	rule.src_len = 32;
	rule.src = ip("172.16.34.2");
	rule.table = 942;
	st.rules = &rule;
	st.nrules = 1;
	{
		struct net_ip k = ip("172.16.34.2");

		ASSERT_EQ_U64(fix_table_for(&st, b, &k), 942, "an existing per-address rule's table is reused");
	}
	/* A table another interface already uses is skipped. */
	{
		struct net_route r = { .table = ta, .family = AF_INET, .oif = 3, .type = RTN_UNICAST };

		st.routes = &r;
		st.nroutes = 1;
		st.rules = NULL;
		st.nrules = 0;
		ASSERT_CMP_U64(fix_table_for(&st, a, NULL), !=, ta, "a table holding another interface's routes is not taken");

	}
	{
		enum fix_format f;

		ASSERT_EQ_INT(fix_format_parse("netplan", &f), 0, "format names parse");
		ASSERT_EQ_INT(f, FIX_NETPLAN, "netplan");
		ASSERT_EQ_INT(fix_format_parse("yaml", &f), -EINVAL, "unknown format");
		ASSERT_EQ_INT(fix_format_parse("nm-keyfile", &f), 0, "nm-keyfile parses");
		ASSERT_EQ_INT(f, FIX_NM_KEYFILE, "nm-keyfile");
		ASSERT_EQ_STR(fix_format_name(FIX_NMCLI), "nmcli", "the name of nmcli");
		ASSERT_EQ_STR(fix_format_path(FIX_IFUPDOWN), "/etc/network/if-up.d/fabtop-rdma-routes", "ifupdown path");
	}
}

/* The commands --apply prints to undo itself are pasted into shells: names are quoted. */
static void test_restore_quoting(void)
{
	struct net_link link = { .ifindex = 7, .name = "a;id" };
	struct net_state st = { .links = &link, .nlinks = 1 };
	struct net_route r = { .family = AF_INET, .dst_len = 24, .oif = 7, .table = 6729 };
	char cmd[700];

	inet_pton(AF_INET, "10.9.0.0", r.dst.bytes);
	r.dst.family = AF_INET;
	fix_sysctl_cmd(cmd, sizeof(cmd), "a;id", NET_SYSCTL_ARP_IGNORE, 0);
	ASSERT_EQ_STR(cmd, "sysctl -w 'net.ipv4.conf.a;id.arp_ignore=0'", "a sysctl of an odd name is one quoted word");
	fix_sysctl_cmd(cmd, sizeof(cmd), "ib0.8001", NET_SYSCTL_RP_FILTER, 2);
	ASSERT_EQ_STR(cmd, "sysctl -w net/ipv4/conf/ib0.8001/rp_filter=2", "a dotted name uses the slash form");
	fix_route_cmd(cmd, sizeof(cmd), "replace", &r, &st);
	ASSERT_EQ_STR(cmd, "ip route replace 10.9.0.0/24 dev 'a;id' table 6729", "a route's interface is quoted");
	snprintf(link.name, sizeof(link.name), "it's");
	fix_route_cmd(cmd, sizeof(cmd), "replace", &r, &st);
	ASSERT_EQ_STR(cmd, "ip route replace 10.9.0.0/24 dev 'it'\\''s' table 6729", "a quote inside the name too");
}

/* A saved route comes back with every attribute `ip route` can set, or says it cannot. */
static void test_restore_whole(void)
{
	struct net_link link = { .ifindex = 3, .name = "ib0" };
	struct net_state st = { .links = &link, .nlinks = 1 };
	struct net_route r = { .family = AF_INET, .dst_len = 16, .oif = 3, .table = 3000, .type = RTN_UNICAST,
			       .protocol = RTPROT_STATIC, .scope = RT_SCOPE_LINK, .tos = 0x10 };
	char cmd[1200];

	inet_pton(AF_INET, "172.16.0.0", r.dst.bytes);
	r.dst.family = AF_INET;
	inet_pton(AF_INET, "172.16.34.1", r.prefsrc.bytes);
	r.prefsrc.family = AF_INET;
	r.has_realms = true;
	r.realms = 1u << 16 | 2;
	r.metrics_set = 1u << RTAX_LOCK | 1u << RTAX_MTU | 1u << RTAX_RTT | 1u << RTAX_RTO_MIN |
			1u << RTAX_CC_ALGO | 1u << RTAX_FEATURES;
	r.metrics[RTAX_LOCK] = 1u << RTAX_MTU | 1u << RTAX_RTO_MIN;
	r.metrics[RTAX_MTU] = 1400;
	r.metrics[RTAX_RTT] = 80;
	r.metrics[RTAX_RTO_MIN] = 50;
	r.metrics[RTAX_FEATURES] = RTAX_FEATURE_ECN;
	snprintf(r.congctl, sizeof(r.congctl), "reno");
	ASSERT_EQ_U64(fix_route_restore_cmd(cmd, sizeof(cmd), "replace", &r, &st), 0, "exact");
	ASSERT_EQ_STR(cmd, "ip route replace 172.16.0.0/16 tos 0x10 dev ib0 table 3000 proto static scope 253 "
		      "src 172.16.34.1 realms 1/2 mtu lock 1400 rtt 80 congctl reno features ecn rto_min 50",
		      "type, tos, dev, table, proto, scope, src, realms, metrics with their locks, in ip's words");
	r.metrics[RTAX_LOCK] = 0;	/* rto_min unlocked: ip would lock it */
	ASSERT_EQ_U64(fix_route_restore_cmd(cmd, sizeof(cmd), "replace", &r, &st), NET_ROUTE_METRIC,
		      "an unlocked rto_min cannot be given back by ip");
	r.metrics_set = 0;
	r.inexact = NET_ROUTE_MULTIPATH;
	r.oif = 9;
	ASSERT_EQ_U64(fix_route_restore_cmd(cmd, sizeof(cmd), "replace", &r, &st), NET_ROUTE_MULTIPATH | NET_ROUTE_DEV,
		      "next hops and a gone device are said to be missing");
	r = (struct net_route){ .family = AF_INET6, .table = 254, .type = RTN_BLACKHOLE, .protocol = 200,
				.has_priority = true, .priority = 1024, .has_pref = true, .pref = 1 };
	ASSERT_EQ_U64(fix_route_restore_cmd(cmd, sizeof(cmd), "add", &r, &st), 0, "a blackhole default route is exact");
	ASSERT_EQ_STR(cmd, "ip -6 route add blackhole default table 254 metric 1024 proto 200 scope 0 pref high",
		      "type word, default, metric, a protocol by number, IPv6 pref");
}

static void put_file(const char *dir, const char *rel, const char *text)
{
	char path[1024], cmd[1200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) != 0)
		return;
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* netconf_detect() under fixture roots: the first of NetworkManager, netplan, ifupdown, networkd. */
static void test_netconf(void)
{
	char dir[] = "/tmp/fabtop-netconf.XXXXXX", proc[300], etc[300], cmd[400], hint[160];
	struct fab_ctx ctx;

	if (!mkdtemp(dir)) {
		TAP_OK(0, "mkdtemp");
		return;
	}
	ctx_init(&ctx);
	snprintf(proc, sizeof(proc), "%s/proc", dir);
	snprintf(etc, sizeof(etc), "%s/etc", dir);
	ctx.proc_root = proc;
	ctx.etc_root = etc;
	ASSERT_EQ_INT(netconf_detect(&ctx), FIX_HOST_UNKNOWN, "missing roots: unknown");
	put_file(dir, "proc/1/comm", "systemd\n");
	put_file(dir, "etc/network/interfaces", "auto lo\niface lo inet loopback\nsource /etc/network/interfaces.d/*\n");
	ASSERT_EQ_INT(netconf_detect(&ctx), FIX_HOST_UNKNOWN, "only lo in interfaces: unknown");
	put_file(dir, "proc/4242/comm", "systemd-network\n");
	ASSERT_EQ_INT(netconf_detect(&ctx), FIX_HOST_NETWORKD, "systemd-networkd runs (comm cut at 15 bytes)");
	put_file(dir, "etc/network/interfaces.d/ib0", "  iface ib0 inet static\n");
	ASSERT_EQ_INT(netconf_detect(&ctx), FIX_HOST_IFUPDOWN, "interfaces.d configures ib0: ifupdown before networkd");
	put_file(dir, "etc/netplan/README", "not yaml\n");
	ASSERT_EQ_INT(netconf_detect(&ctx), FIX_HOST_IFUPDOWN, "a netplan directory without YAML is not netplan");
	put_file(dir, "etc/netplan/50-cloud-init.yaml", "network: {version: 2}\n");
	ASSERT_EQ_INT(netconf_detect(&ctx), FIX_HOST_NETPLAN, "netplan YAML: netplan before ifupdown");
	put_file(dir, "proc/77/comm", "NetworkManager\n");
	ASSERT_EQ_INT(netconf_detect(&ctx), FIX_HOST_NETWORKMANAGER, "NetworkManager runs: first");
	ASSERT_EQ_INT(fix_host_format(FIX_HOST_NETWORKMANAGER), FIX_NMCLI, "NetworkManager: nmcli");
	ASSERT_EQ_INT(fix_host_format(FIX_HOST_NETWORKD), FIX_NETWORKD_DISPATCHER, "networkd: networkd-dispatcher");
	ASSERT_EQ_STR(fix_persist_hint(hint, sizeof(hint), FIX_HOST_IFUPDOWN),
		      "to keep it across reboots (ifupdown configures this host): fabtop doctor --fix ifupdown",
		      "the hint names the format and why");
	ASSERT_EQ_STR(fix_persist_hint(hint, sizeof(hint), (enum fix_host)99),
		      "to keep it across reboots: --fix nmcli|nm-keyfile|netplan|networkd-dispatcher|nm-dispatcher|ifupdown",
		      "an out-of-range host: every format");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		TAP_OK(0, "cleanup of %s", dir);
}

int main(void)
{
	test_sysctl();
	test_tables();
	test_netconf();
	test_restore_quoting();
	test_restore_whole();
	return tap_done();
}
