#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# doctor --apply prints the previous state as commands before it changes
# anything. A route it replaces carries attributes besides its key (mtu
# locked, proto, realms, every TCP metric, congctl, features): run those
# commands after the apply and the routing, rules and sysctls are exactly
# what they were. A route that cannot be said whole is labelled approximate.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns

build_seed_topology
RDMA="--rdma-netdev ib0 --rdma-netdev ib1"
snapshot() {
	ip -n "$NS_MEM" rule show
	ip -n "$NS_MEM" -d route show table all
	for i in ib0 ib1; do
		for k in rp_filter arp_ignore arp_announce arp_filter accept_local; do
			echo "$i $k $(ip netns exec "$NS_MEM" cat "/proc/sys/net/ipv4/conf/$i/$k")"
		done
	done
}
# previous_state FILE: the commands between "# previous state" and "# applying:".
previous_state() { sed -n '/^# previous state/,/^# applying:/p' "$1" | grep -v '^#' || :; }

# An earlier setup left table 3000 (the one the rule for ib1's address
# names) with ib1's subnet route by ib0, with everything `ip route` can set.
ip -n "$NS_MEM" rule add from 172.16.34.2 table 3000 priority 1000
ip -n "$NS_MEM" route add 172.16.0.0/16 dev ib0 table 3000 proto static scope link src 172.16.34.1 \
	mtu lock 1400 advmss 1360 hoplimit 32 initcwnd 10 initrwnd 20 rtt 10ms rttvar 5ms rto_min 50ms \
	quickack 1 congctl reno features ecn window 65535 cwnd 15 ssthresh 100 reordering 5 \
	fastopen_no_cookie 1 realms 1/2
snapshot >"$T/before"
# shellcheck disable=SC2086
run_rc in_ns "$NS_MEM" "$FABTOP" doctor --apply --yes $RDMA
assert_eq "the fix is applied" 0 "$rc"
previous_state "$T/out" >"$T/undo"
assert_match "the saved route is printed with its attributes" \
	'^ip route replace 172\.16\.0\.0/16 dev ib0 table 3000 proto static scope 253 src 172\.16\.34\.1 realms 1/2 mtu lock 1400 ' \
	"$(cat "$T/undo")"
if grep -q approximate "$T/undo"; then not_ok "no line is approximate"; diag "$(cat "$T/undo")"; else ok "no line is approximate"; fi
snapshot >"$T/applied"
if cmp -s "$T/before" "$T/applied"; then not_ok "the apply changed the routing"; else ok "the apply changed the routing"; fi
run_rc in_ns "$NS_MEM" sh -e "$T/undo"
assert_eq "the printed previous state runs" 0 "$rc"
[ "$rc" = 0 ] || diag "$(cat "$T/err")"
snapshot >"$T/after"
assert_file_eq "after it, routing, rules and sysctls are exactly as before" "$T/before" "$T/after"

# Two next hops cannot be said in one line here: labelled, not passed off as exact.
ip -n "$NS_MEM" route replace 172.16.0.0/16 table 3000 proto static nexthop dev ib0 nexthop dev ib1
# shellcheck disable=SC2086
run_rc in_ns "$NS_MEM" "$FABTOP" doctor --apply --yes $RDMA
previous_state "$T/out" >"$T/undo"
assert_match "a multipath route is labelled approximate" \
	'^ip route replace 172\.16\.0\.0/16 table 3000 proto static scope 0  # approximate: its next hops not shown$' \
	"$(cat "$T/undo")"
done_testing
