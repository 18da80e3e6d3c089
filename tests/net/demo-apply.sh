#!/bin/sh
# shellcheck disable=SC2154 # rc is set by run_rc (tests/setup.sh)
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop --demo doctor --apply --yes fixes the simulated host and nothing else:
# run as root inside a namespace whose interfaces bear the demo's own names
# (ib0 and ib1 in one /16, the same mistake), the namespace's routes, rules
# and sysctls are exactly what they were, while the simulated host is fixed.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns

build_seed_topology
snapshot() {
	ip -n "$NS_MEM" rule show; ip -n "$NS_MEM" -6 rule show; ip -n "$NS_MEM" route show table all
	for i in all default ib0 ib1; do
		for k in rp_filter arp_ignore arp_announce arp_filter accept_local; do
			printf '%s.%s=%s\n' "$i" "$k" "$(ip netns exec "$NS_MEM" cat "/proc/sys/net/ipv4/conf/$i/$k")"
		done
	done
}
snapshot >"$T/before"
if grep -q '172.16.0.0/16 dev ib1' "$T/before"; then
	ok "the namespace has the demo's mistake too (two routes for 172.16.0.0/16)"
else
	not_ok "the namespace has the demo's mistake too"
fi

run_rc ip netns exec "$NS_MEM" "$FABTOP" --demo doctor --apply --yes 172.16.16.1 --from 172.16.34.2
assert_eq "--demo doctor --apply --yes as root: exit 0" 0 "$rc"
assert_match "... it applied the fix to the simulated host" \
	'^\[SIMULATED\] 	ip rule add from 172\.16\.34\.2 table [0-9]+ priority 1000' "$(cat "$T/out")"
assert_match "... after it, 172.16.34.2 leaves by ib1 on the simulated host" \
	'^\[SIMULATED\]   from 172\.16\.34\.2 \(ib1\): leaves by dev ib1 .* -> ok' "$(cat "$T/out")"
assert_match "... and the doctor finds no problem there" '^\[SIMULATED\] No problems found\.' "$(cat "$T/out")"
if grep -v '^\[SIMULATED\]' "$T/out" | grep -q .; then
	not_ok "... every line says SIMULATED"; diag "$(grep -v '^\[SIMULATED\]' "$T/out")"
else
	ok "... every line says SIMULATED"
fi
snapshot >"$T/after"
assert_file_eq "the namespace's routes, rules and sysctls are untouched" "$T/before" "$T/after"

# the live doctor in the same namespace still sees the mistake (it was never fixed for real)
run_rc ip netns exec "$NS_MEM" "$FABTOP" doctor --rdma-netdev ib0 --rdma-netdev ib1
assert_match "the live doctor there still reports finding 1" 'finding 1 \(same-subnet-route\)' "$(cat "$T/out")"

# a recording cannot be fixed
run_rc "$FABTOP" --demo record "$T/d.ftrec" --interval 0.1 --duration 0.2
run_rc "$FABTOP" --replay "$T/d.ftrec" doctor --apply --yes
assert_eq "--apply on a recording: a usage error" 2 "$rc"
assert_match "... saying nothing was changed" 'cannot change the .*nothing was changed' "$(cat "$T/err")"
done_testing
