#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Findings 2 (ARP flux), 3 (strict rp_filter) and 6 (IPoIB mode/MTU,
# accept_local for local peers) on the same-subnet topology in namespaces, each
# shown on the real kernel, fixed, and then gone.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed for the TCP traffic"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

rdma_fixture "$T/sys-mem" rxe_A ib0 InfiniBand "" datagram
rdma_fixture "$T/sys-mem" rxe_B ib1 InfiniBand "" datagram
mem() { in_ns "$NS_MEM" "$FABTOP" --sysfs "$T/sys-mem" "$@"; }
# ids NS-ARGS...: the "id:interface" of every finding, sorted, one line.
ids() { mem "$@" --json | jq -r '[.findings[] | "\(.id):\(.interface)"] | sort | unique | join(" ")'; }
txp() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/tx_packets"; }
mac() { ip -n "$1" -o link show "$2" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p'; }
quiet_ipv6() {
	# No IPv6 chatter (router solicitations, MLD) in the packet counters.
	for ns in "$NS_MEM" "$NS_CPU"; do
		ip netns exec "$ns" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	done
}
split_fix() {
	mem doctor --fix ip >"$T/fix.sh" || true
	grep -v '^sysctl' "$T/fix.sh" >"$T/fix-routes.sh"
	grep -v '^ip ' "$T/fix.sh" | grep -v '^[[:space:]]' >"$T/fix-sysctl.sh"
}

# ---------------------------------------------------------------- finding 2
quiet_ipv6 2>/dev/null || true
build_seed_topology
quiet_ipv6
split_fix
check "routing part of the fix runs" in_ns "$NS_MEM" sh -e "$T/fix-routes.sh"
assert_eq "routing fixed, ARP not: findings 2 on ib0 and ib1 only" "2:ib0 2:ib1" "$(ids doctor)"
# ARP for 172.16.34.2 (ib1's) from the cpu server: with arp_ignore=0 ib0 answers too.
arp_probe() {
	ip -n "$NS_CPU" neigh flush dev ibs5f0
	before=$(txp "$NS_MEM" ib0)
	in_ns "$NS_CPU" ping -q -c 1 -W 2 -I 172.16.16.1 172.16.34.2 >/dev/null 2>&1 || true
	# The reply may trail the ping's exit by a moment.
	sleep 0.2
	echo $(( $(txp "$NS_MEM" ib0) - before ))
}
n=$(arp_probe)
if [ "$n" -ge 1 ]; then ok "ARP flux on the kernel: ib0 sent $n packet(s) for ib1's address"; else not_ok "ib0 answers ARP for 172.16.34.2 before the fix"; fi
check "sysctl part of the fix runs" in_ns "$NS_MEM" sh -e "$T/fix-sysctl.sh"
assert_eq "arp_ignore is 1 on ib1 now" 1 "$(in_ns "$NS_MEM" sysctl -n net.ipv4.conf.ib1.arp_ignore)"
n=$(arp_probe)
assert_eq "after arp_ignore=1/arp_announce=2: ib0 sends nothing for ib1's address" 0 "$n"
assert_eq "the cpu server learns ib1's MAC for 172.16.34.2" "$(mac "$NS_MEM" ib1)" \
	"$(ip -n "$NS_CPU" neigh show 172.16.34.2 dev ibs5f0 | sed -n 's/.*lladdr \([0-9a-f:]*\).*/\1/p')"
run_rc mem doctor
assert_eq "doctor is clean after both parts" 0 "$rc"

# ---------------------------------------------------------------- finding 3
ns_cleanup
build_seed_topology
in_ns "$NS_MEM" sysctl -q -w net.ipv4.conf.all.rp_filter=1
assert_eq "strict rp_filter: findings 1, 2 and 3 name ib1" "1:ib1 2:ib0 2:ib1 3:ib1" "$(ids doctor)"
mem doctor --json >"$T/j" || true
assert_match "finding 3's evidence: effective rp_filter 1" 'rp_filter=0, conf.all.rp_filter=1: effective 1' \
	"$(jq -r '.findings[] | select(.id == 3) | .evidence[]' "$T/j")"
assert_match "finding 3's evidence: the kernel's own input check refuses it" \
	'ip route get 172\.16\.34\.2 from 172\.16\.255\.254 iif ib1: (Invalid argument|Invalid cross-device link)' \
	"$(jq -r '.findings[] | select(.id == 3) | .evidence[]' "$T/j")"
# The kernel agrees: the reverse-path check fails for traffic to .34.2 arriving on ib1.
run_rc ip -n "$NS_MEM" route get 172.16.34.2 from 172.16.16.1 iif ib1
assert_match "kernel: packets to 172.16.34.2 arriving on ib1 fail the rp_filter check" \
	'[Ii]nvalid (cross-device link|argument)' "$(cat "$T/err")"
# Real traffic, with the cpu server's ARP entry pinned to ib1 (the right NIC).
ip -n "$NS_CPU" neigh replace 172.16.34.2 lladdr "$(mac "$NS_MEM" ib1)" dev ibs5f0 nud permanent
ip -n "$NS_CPU" neigh replace 172.16.34.2 lladdr "$(mac "$NS_MEM" ib1)" dev ibs5f1 nud permanent
tcp_listen "$NS_MEM" 172.16.34.2 5101 || not_ok "listener on 172.16.34.2 starts"
if tcp_send "$NS_CPU" 172.16.16.1 172.16.34.2 5101 1000 >/dev/null 2>&1; then
	not_ok "TCP to 172.16.34.2 through ib1 fails under strict rp_filter"
else
	ok "TCP to 172.16.34.2 through ib1 fails under strict rp_filter (dropped)"
fi
split_fix
check "the fix runs" in_ns "$NS_MEM" sh -e "$T/fix.sh"
run_rc ip -n "$NS_MEM" route get 172.16.34.2 from 172.16.16.1 iif ib1
assert_eq "kernel: the reverse path check passes now" 0 "$rc"
check "TCP to 172.16.34.2 through ib1 works with rp_filter=1 kept" tcp_send "$NS_CPU" 172.16.16.1 172.16.34.2 5101 100000
assert_eq "rp_filter is still strict" 1 "$(in_ns "$NS_MEM" sysctl -n net.ipv4.conf.all.rp_filter)"
run_rc mem doctor
assert_eq "doctor is clean (strict rp_filter is fine with per-interface rules)" 0 "$rc"

# ---------------------------------------------------------------- finding 6
ns_cleanup
build_seed_topology
split_fix
in_ns "$NS_MEM" sh -e "$T/fix.sh"
run_rc mem doctor
assert_eq "start clean: datagram mode, MTU 2044 on both" 0 "$rc"
# Probing between two local ports: the receiving interface must accept a local source.
run_rc mem doctor 172.16.34.2 --from 172.16.34.1 --json
assert_eq "local peer 172.16.34.2: finding 6 accept-local on ib1" "accept-local ib1" \
	"$(jq -r '.findings[] | select(.id == 6) | "\(.code) \(.interface)"' "$T/out")"
assert_eq "exit 1" 1 "$rc"
assert_eq "the route decision for a local peer says local" "true" "$(jq '.routes[0].local' "$T/out")"
fix=$(jq -r '.findings[] | select(.id == 6) | .fix[0]' "$T/out")
assert_eq "its fix" "sysctl -w net.ipv4.conf.ib1.accept_local=1" "$fix"
in_ns "$NS_MEM" sh -c "$fix" >/dev/null
run_rc mem doctor 172.16.34.2 --from 172.16.34.1
assert_eq "after accept_local=1: clean" 0 "$rc"
# IPoIB modes and MTUs: one port connected with 65520, the other datagram 2044.
echo connected >"$T/sys-mem/class/net/ib0/mode"
ip -n "$NS_MEM" link set ib0 mtu 65520
assert_eq "connected 65520 next to datagram 2044: finding 6 (mismatch)" "6:ib1" \
	"$(mem doctor --json | jq -r '[.findings[] | select(.severity != "info") | "\(.id):\(.interface)"] | join(" ")')"
ip -n "$NS_MEM" link set ib0 mtu 9000
assert_match "connected mode with MTU 9000: a note against the usual 65520" \
	'finding 6 \(ipoib-mtu\): ib0: IPoIB connected mode with MTU 9000' "$(mem doctor)"
echo connected >"$T/sys-mem/class/net/ib1/mode"
ip -n "$NS_MEM" link set ib0 mtu 65520
ip -n "$NS_MEM" link set ib1 mtu 65520
run_rc mem doctor
assert_eq "both connected with 65520: clean" 0 "$rc"
assert_match "show net reports the IPoIB mode and MTU" 'ib1 \(rxe_B/1\): UP, mtu 65520' "$(mem show net)"
assert_match "show net: IPoIB connected" 'IPoIB: mode connected' "$(mem show net)"

done_testing
