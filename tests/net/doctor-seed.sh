#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The same-subnet case (doc/doctor.md, finding 1) on the real kernel, in network namespaces: two
# RDMA netdevs per host in one /16. Doctor must name the second interface and
# address (finding 1); the printed `ip` fix and `--apply --yes` must make
# traffic from each address leave by its own interface (route get + real TCP
# byte counters), and doctor must then be clean.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed for the TCP traffic"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

fixtures() {
	rm -rf "$T/sys-mem" "$T/sys-cpu"
	rdma_fixture "$T/sys-mem" rxe_A ib0 InfiniBand "" datagram
	rdma_fixture "$T/sys-mem" rxe_B ib1 InfiniBand "" datagram
	rdma_fixture "$T/sys-cpu" mlx5_0 ibs5f0 InfiniBand "" datagram
	rdma_fixture "$T/sys-cpu" mlx5_1 ibs5f1 InfiniBand "" datagram
}
mem() { in_ns "$NS_MEM" "$FABTOP" --sysfs "$T/sys-mem" "$@"; }
# --apply reads and changes the live host only (no tree): the RDMA netdevs are named instead.
mem_apply() { in_ns "$NS_MEM" "$FABTOP" doctor --rdma-netdev ib0 --rdma-netdev ib1 "$@"; }
cpu() { in_ns "$NS_CPU" "$FABTOP" --sysfs "$T/sys-cpu" "$@"; }

# traffic_leaves_by NS SRC DST PORT IFACE OTHER: 300 KB sent from SRC must
# leave by IFACE (its tx bytes grow by at least that) and not by OTHER.
traffic_leaves_by() {
	a0=$(txb "$1" "$5"); b0=$(txb "$1" "$6")
	if ! tcp_send "$1" "$2" "$3" "$4" 300000 >"$T/.tcp" 2>&1; then
		not_ok "TCP from $2 to $3 works"; diag "$(cat "$T/.tcp")"; return
	fi
	a1=$(txb "$1" "$5"); b1=$(txb "$1" "$6")
	da=$((a1 - a0)); db=$((b1 - b0))
	if [ "$da" -ge 300000 ] && [ "$db" -lt 30000 ]; then
		ok "TCP from $2 leaves by $5 ($da bytes; $6: $db)"
	else
		not_ok "TCP from $2 leaves by $5"; diag "$5 sent $da bytes, $6 sent $db bytes"
	fi
}

fixtures
build_seed_topology

# --- before the fix
assert_eq "before: the kernel sends from 172.16.34.2 by ib0" ib0 "$(route_dev "$NS_MEM" 172.16.16.1 172.16.34.2)"
run_rc mem doctor
assert_eq "doctor exits 1 on the same-subnet host" 1 "$rc"
assert_match "finding 1 names ib1 and 172.16.34.2" \
	'error\] finding 1 \(same-subnet-route\): traffic from 172\.16\.34\.2 \(ib1\) leaves by ib0' "$(cat "$T/out")"
run_rc mem doctor --json
assert_eq "JSON: finding 1 is about ib1 / 172.16.34.2 only" "ib1 172.16.34.2" \
	"$(jq -r '[.findings[] | select(.id == 1) | "\(.interface) \(.address)"] | join(",")' "$T/out")"
assert_eq "JSON: the route evidence is the kernel's" "true" \
	"$(jq '[.findings[] | select(.id == 1) | .evidence[] | select(test("ip route get .* from 172.16.34.2: dev ib0"))] | length == 1' "$T/out")"
run_rc mem doctor 172.16.16.1
assert_match "route decision for the peer: 172.16.34.2 leaves by ib0 (wrong)" \
	'from 172\.16\.34\.2 \(ib1\): leaves by dev ib0 src 172\.16\.34\.2 table main -> WRONG INTERFACE' "$(cat "$T/out")"
assert_match "route decision for the peer: 172.16.34.1 ok" \
	'from 172\.16\.34\.1 \(ib0\): leaves by dev ib0 .* -> ok' "$(cat "$T/out")"
# --from IFACE stands for its addresses, each routed by source as the RDMA CM
# binds it: ib1's 172.16.34.2 leaves by ib0 (the kernel's own answer), as a
# connection bound to it would; a lookup bound to the device said ib1, "ok".
run_rc mem doctor 172.16.16.1 --from ib1 --json
assert_eq "--from IFACE: the row of its address, routed by source: 172.16.34.2 leaves by ib0, not its own" \
	"172.16.34.2 ib1 ib0 false" \
	"$(jq -r '.routes[] | select(.user_from) | "\(.from) \(.from_interface) \(.dev) \(.own_interface)"' "$T/out")"
run_rc mem doctor 172.16.16.1 --from ib1
assert_match "--from IFACE in text: WRONG INTERFACE, marked as the --from row" \
	'from 172\.16\.34\.2 \(ib1\): leaves by dev ib0 src 172\.16\.34\.2 table main -> WRONG INTERFACE   \(--from\)' \
	"$(cat "$T/out")"
run_rc mem doctor 172.16.16.1 --from ib0 --json
assert_eq "--from the first NIC: its address leaves by its own interface" "172.16.34.1 ib0 true" \
	"$(jq -r '.routes[] | select(.user_from) | "\(.from) \(.dev) \(.own_interface)"' "$T/out")"
run_rc cpu doctor --json
assert_eq "cpu server: finding 1 for ibs5f1 / 172.16.16.2" "ibs5f1 172.16.16.2" \
	"$(jq -r '[.findings[] | select(.id == 1) | "\(.interface) \(.address)"] | join(",")' "$T/out")"

# --- the printed fix, run as printed
mem doctor --fix ip >"$T/fix-mem.sh" || true
cpu doctor --fix ip >"$T/fix-cpu.sh" || true
check "printed fix is valid sh" sh -n "$T/fix-mem.sh"
assert_match "printed fix routes 172.16.0.0/16 by ib1 from 172.16.34.2 in its own table" \
	'^ip route replace 172\.16\.0\.0/16 dev ib1 scope link src 172\.16\.34\.2 table [0-9]+$' "$(cat "$T/fix-mem.sh")"
check "printed fix runs in the memory server" in_ns "$NS_MEM" sh -e "$T/fix-mem.sh"
check "printed fix runs in the cpu server" in_ns "$NS_CPU" sh -e "$T/fix-cpu.sh"
check "printed fix runs a second time (idempotent)" in_ns "$NS_MEM" sh -e "$T/fix-mem.sh"
assert_eq "one rule per address after two runs" 1 "$(ip -n "$NS_MEM" rule show | grep -c 'from 172.16.34.2 ')"
assert_eq "after: 172.16.34.2 leaves by ib1" ib1 "$(route_dev "$NS_MEM" 172.16.16.1 172.16.34.2)"
assert_eq "after: 172.16.34.1 leaves by ib0" ib0 "$(route_dev "$NS_MEM" 172.16.16.1 172.16.34.1)"
assert_eq "after: 172.16.16.2 leaves by ibs5f1" ibs5f1 "$(route_dev "$NS_CPU" 172.16.34.1 172.16.16.2)"

tcp_listen "$NS_CPU" 172.16.16.1 5001 || not_ok "listener on 172.16.16.1 starts"
tcp_listen "$NS_MEM" 172.16.34.1 5002 || not_ok "listener on 172.16.34.1 starts"
traffic_leaves_by "$NS_MEM" 172.16.34.2 172.16.16.1 5001 ib1 ib0
traffic_leaves_by "$NS_MEM" 172.16.34.1 172.16.16.1 5001 ib0 ib1
traffic_leaves_by "$NS_CPU" 172.16.16.2 172.16.34.1 5002 ibs5f1 ibs5f0
traffic_leaves_by "$NS_CPU" 172.16.16.1 172.16.34.1 5002 ibs5f0 ibs5f1

run_rc mem doctor
assert_eq "doctor is clean after the printed fix (memory server)" 0 "$rc"
[ "$rc" = 0 ] || diag "$(cat "$T/out")"
run_rc cpu doctor
assert_eq "doctor is clean after the printed fix (cpu server)" 0 "$rc"
run_rc mem doctor 172.16.16.1
assert_match "route decision for the peer is now ok from 172.16.34.2" \
	'from 172\.16\.34\.2 \(ib1\): leaves by dev ib1 src 172\.16\.34\.2 table [0-9]+ -> ok' "$(cat "$T/out")"

# --- the same with --apply --yes on a fresh topology
ns_cleanup
build_seed_topology
rules_before=$(ip -n "$NS_MEM" rule show)
run_rc mem_apply --apply
assert_eq "--apply without --yes is a usage error" 2 "$rc"
assert_eq "--apply without --yes changes nothing" "$rules_before" "$(ip -n "$NS_MEM" rule show)"
run_rc mem_apply --apply --yes
assert_eq "--apply --yes succeeds" 0 "$rc"
[ "$rc" = 0 ] || diag "$(cat "$T/out" "$T/err")"
assert_match "--apply prints the previous state first" 'previous state' "$(cat "$T/out")"
assert_eq "after --apply: 172.16.34.2 leaves by ib1" ib1 "$(route_dev "$NS_MEM" 172.16.16.1 172.16.34.2)"
tcp_listen "$NS_CPU" 172.16.16.1 5003 || not_ok "listener on 172.16.16.1 starts"
traffic_leaves_by "$NS_MEM" 172.16.34.2 172.16.16.1 5003 ib1 ib0
run_rc mem doctor
assert_eq "doctor is clean after --apply" 0 "$rc"
run_rc mem_apply --apply --yes
assert_match "--apply twice: nothing to apply" 'nothing to apply' "$(cat "$T/out")"
assert_eq "one rule per address after two --apply" 1 "$(ip -n "$NS_MEM" rule show | grep -c 'from 172.16.34.2 ')"

done_testing
