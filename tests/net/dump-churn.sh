#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Routes changing while fabtop reads them: a dump the kernel marks
# interrupted is taken again, so every report is one consistent state (or
# says the network kept changing), never a mix and never a failure.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns
slow_scenario
NS="ftc$$"
cleanup_add "ip netns del $NS 2>/dev/null || true"
ip netns add "$NS"
ip -n "$NS" link add c0 type veth peer name c1
ip -n "$NS" addr add 10.77.0.1/16 dev c0
ip -n "$NS" link set c0 up
ip -n "$NS" link set c1 up
# 2000 routes in table 77, so a dump takes many buffers
i=0
while [ $i -lt 2000 ]; do
	echo "route add 10.78.$((i / 250)).$((i % 250))/32 dev c0 table 77"
	i=$((i + 1))
done >"$T/routes"
ip -n "$NS" -batch "$T/routes"

# churn: one route in table 77 comes and goes as fast as ip can
(while :; do
	ip -n "$NS" route add 10.79.0.1/32 dev c0 table 77 2>/dev/null
	ip -n "$NS" route del 10.79.0.1/32 dev c0 table 77 2>/dev/null
done) &
churn=$!
cleanup_add "kill $churn 2>/dev/null || true"

ok_runs=0 changing=0 bad=0
for _ in $(seq 30); do
	run_rc in_ns "$NS" "$FABTOP" show net --json
	if [ "$rc" = 0 ] && n=$(jq '[.routes[] | select(.table == 77)] | length' "$T/out" 2>/dev/null) &&
		[ "$n" -ge 2000 ] && [ "$n" -le 2001 ]; then
		ok_runs=$((ok_runs + 1))
	elif [ "$rc" = 1 ] && grep -q 'kept changing' "$T/err"; then
		changing=$((changing + 1))
	else
		bad=$((bad + 1)); diag "rc=$rc routes=${n:-?} $(head -c 300 "$T/err")"
	fi
done
kill "$churn" 2>/dev/null || :
diag "30 reports under churn: $ok_runs consistent, $changing said the network kept changing"
assert_eq "no report fails or shows a partial table" 0 "$bad"
if [ "$ok_runs" -ge 1 ]; then ok "reports succeed under churn ($ok_runs of 30)"; else not_ok "no report succeeded under churn"; fi
done_testing
