#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The same-subnet problem over IPv6 (RoCE v2 runs over both families): two RDMA
# netdevs with global addresses in one /64; the kernel sends traffic from
# the second address by the first interface. Doctor finds it, the printed
# fix (ip -6 route/rule) and --apply repair it, real TCP over IPv6 proves it.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed for the TCP traffic"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

rdma_fixture "$T/sys" rxe_A ib0 Ethernet 172.16.34.1
rdma_fixture "$T/sys" rxe_B ib1 Ethernet 172.16.34.2
mem() { in_ns "$NS_MEM" "$FABTOP" --sysfs "$T/sys" "$@"; }
# --apply reads and changes the live host only (no tree): the RDMA netdevs are named instead.
mem_apply() { in_ns "$NS_MEM" "$FABTOP" doctor --rdma-netdev ib0 --rdma-netdev ib1 "$@"; }

v6_topology() {
	build_seed_topology
	# Only IPv6 on the hosts' RDMA netdevs: no IPv4 finding in the way.
	ip -n "$NS_MEM" -4 addr flush dev ib0; ip -n "$NS_MEM" -4 addr flush dev ib1
	ip -n "$NS_CPU" -4 addr flush dev ibs5f0; ip -n "$NS_CPU" -4 addr flush dev ibs5f1
	ip -n "$NS_MEM" addr add fd00:16::34:1/64 dev ib0 nodad
	ip -n "$NS_MEM" addr add fd00:16::34:2/64 dev ib1 nodad
	ip -n "$NS_CPU" addr add fd00:16::16:1/64 dev ibs5f0 nodad
}
route6_dev() { ip -n "$1" -6 route get "$2" from "$3" | sed -n 's/.* dev \([^ ]*\).*/\1/p' | head -n1; }
# The GID fixture carries IPv4 GIDs only, so finding 5 (an address without
# GID) is expected for the IPv6 addresses; this test looks at finding 1.
f1() { mem doctor --json | jq -r '[.findings[] | select(.id == 1) | "\(.interface) \(.address)"] | join(",")'; }

v6_topology
assert_eq "before: the kernel sends from fd00:16::34:2 by ib0" ib0 "$(route6_dev "$NS_MEM" fd00:16::16:1 fd00:16::34:2)"
assert_eq "finding 1 names ib1 and fd00:16::34:2" "ib1 fd00:16::34:2" "$(f1)"
mem doctor --fix ip >"$T/fix.sh" || true
assert_match "the fix uses ip -6 route in a table of its own" \
	'^ip -6 route replace fd00:16::/64 dev ib1 src fd00:16::34:2 table [0-9]+$' "$(cat "$T/fix.sh")"
assert_eq "no ARP settings for an IPv6-only subnet" 0 "$(grep -c sysctl "$T/fix.sh" || true)"
check "the fix runs" in_ns "$NS_MEM" sh -e "$T/fix.sh"
check "the fix runs twice" in_ns "$NS_MEM" sh -e "$T/fix.sh"
assert_eq "one IPv6 rule for fd00:16::34:2" 1 "$(ip -n "$NS_MEM" -6 rule show | grep -c 'from fd00:16::34:2 ')"
assert_eq "after: fd00:16::34:2 leaves by ib1" ib1 "$(route6_dev "$NS_MEM" fd00:16::16:1 fd00:16::34:2)"
assert_eq "after: fd00:16::34:1 leaves by ib0" ib0 "$(route6_dev "$NS_MEM" fd00:16::16:1 fd00:16::34:1)"
assert_eq "doctor: no finding 1 after the fix" "" "$(f1)"
assert_eq "finding 5 for the IPv6 addresses without GID" "ib0 fd00:16::34:1,ib1 fd00:16::34:2" \
	"$(mem doctor --json | jq -r '[.findings[] | select(.code == "roce-no-gid") | "\(.interface) \(.address)"] | join(",")')"

tcp_listen "$NS_CPU" fd00:16::16:1 5201 || not_ok "listener on fd00:16::16:1 starts"
# IPv6 sockets: the helpers' python speaks AF_INET; use AF_INET6 here.
tcp6_send() {
	ip netns exec "$1" timeout 20 python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET6); s.settimeout(8)
s.bind((sys.argv[1], 0)); s.connect((sys.argv[2], int(sys.argv[3])))
s.sendall(b"x" * int(sys.argv[4])); s.shutdown(socket.SHUT_WR)
while s.recv(65536):
    pass
' "$2" "$3" "$4" "$5"
}
a0=$(txb "$NS_MEM" ib1); b0=$(txb "$NS_MEM" ib0)
if tcp6_send "$NS_MEM" fd00:16::34:2 fd00:16::16:1 5201 300000 >"$T/.tcp" 2>&1; then
	da=$(($(txb "$NS_MEM" ib1) - a0)); db=$(($(txb "$NS_MEM" ib0) - b0))
	if [ "$da" -ge 300000 ] && [ "$db" -lt 30000 ]; then ok "TCP over IPv6 from fd00:16::34:2 leaves by ib1 ($da bytes; ib0: $db)"
	else not_ok "TCP over IPv6 from fd00:16::34:2 leaves by ib1"; diag "ib1 $da, ib0 $db"; fi
else
	not_ok "TCP over IPv6 from fd00:16::34:2 works"; diag "$(cat "$T/.tcp")"
fi

ns_cleanup
v6_topology
run_rc mem_apply --apply --yes
assert_eq "--apply --yes on IPv6: exit 0" 0 "$rc"
assert_match "--apply prints ip -6 commands" '^ip -6 rule add from fd00:16::34:2 table [0-9]+ priority 1000$' "$(cat "$T/out")"
assert_eq "after --apply: fd00:16::34:2 leaves by ib1" ib1 "$(route6_dev "$NS_MEM" fd00:16::16:1 fd00:16::34:2)"
assert_eq "after --apply: no finding 1" "" "$(f1)"
done_testing
