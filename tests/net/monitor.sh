#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI's change feed: netlink_monitor_open()/netlink_monitor_drain() report
# address, route, rule and link changes in the namespace, and nothing else.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns
CHECK="${TOP_BUILDDIR:-.}/tests/net/nl_monitor_check"
[ -x "$CHECK" ] || skip_all "tests/net/nl_monitor_check is not built"
NS="ftn$$"
cleanup_add "ip netns del $NS 2>/dev/null || true"
ip netns add "$NS"

# watch N CMD...: start the checker for N bursts, run CMD, wait for the result.
watch_change() {
	n=$1; shift
	: >"$T/mon"
	ip netns exec "$NS" timeout 20 "$CHECK" "$n" >"$T/mon" 2>&1 &
	mpid=$!
	deadline=$(($(date +%s) + 10))
	until grep -q ready "$T/mon"; do
		[ "$(date +%s)" -lt "$deadline" ] || break
		sleep 0.05
	done
	"$@"
	wait "$mpid" || true
}

watch_change 1 ip -n "$NS" link set lo up
assert_eq "a link change is reported" "quiet ready changed" "$(tr '\n' ' ' <"$T/mon" | sed 's/ quiet $//; s/ busy $//')"
watch_change 1 ip -n "$NS" addr add 10.77.0.1/24 dev lo
assert_match "an address change is reported" 'changed' "$(cat "$T/mon")"
watch_change 1 ip -n "$NS" rule add from 10.77.0.1 table 77
assert_match "a rule change is reported" 'changed' "$(cat "$T/mon")"
watch_change 1 ip -n "$NS" route add 10.78.0.0/24 dev lo table 77
assert_match "a route change in another table is reported" 'changed' "$(cat "$T/mon")"
ip netns exec "$NS" timeout 5 "$CHECK" 0 >"$T/mon" 2>&1 || true
assert_eq "nothing pending on a fresh monitor" "quiet ready quiet" "$(tr '\n' ' ' <"$T/mon" | sed 's/ $//')"
done_testing
