#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: a 1,016-node fat tree (tests/mad/gen-fattree.sh: 48 leaves x
# 20 hosts + 8 spines) on ibsim. fabtop's `show fabric` (discovery and the
# PMA counters of every port that is up) against ibnetdiscover (discovery)
# and ibqueryerrors (discovery and PortCounters of every port) on the same
# simulator in the same run, alternating, 5 runs each; the goal is 1 s.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
for t in ibnetdiscover ibqueryerrors; do
	command -v $t >/dev/null 2>&1 || { echo "bench-fabric: $t (infiniband-diags) is the anchor" >&2; exit 1; }
done

sh "$TOP_SRCDIR/tests/mad/gen-fattree.sh" >"$T/fattree.net"
NODES=$(sed -n '1s/.*: \([0-9]*\) nodes.*/\1/p' "$T/fattree.net")
ibsim_start "$T/fattree.net"
opensm_start h0_0
# Every LID assigned and routed: opensm makes ports ACTIVE last, the last host included.
port_active h0_1
wait_for 120 _port_active h47_19 || { echo "$(basename "$0"): opensm never brought h47_19 up" >&2; exit 1; }

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
for i in 1 2 3 4 5; do
	t0=$(date +%s%N)
	fab h0_1 show fabric --json >"$T/fab.json" 2>"$T/fab.err" || { echo "bench-fabric: fabtop failed: $(cat "$T/fab.err")" >&2; exit 1; }
	echo "fabtop $(ms_since "$t0") $(jq -r '.fabric | "\(.nodes | length) \(.sweep.pma_answered) \(.sweep.pma_ports) \(.sweep.elapsed_ms) \(.sweep.pma_elapsed_ms) \(.sweep.mads_sent)"' "$T/fab.json")" >>"$T/runs"
	t0=$(date +%s%N)
	sim h0_1 ibnetdiscover >"$T/ibnd.out" 2>&1 || { echo "bench-fabric: ibnetdiscover failed: $(tail -5 "$T/ibnd.out")" >&2; exit 1; }
	echo "ibnetdiscover $(ms_since "$t0") $(grep -c '^Ca\|^Switch' "$T/ibnd.out")" >>"$T/runs"
	t0=$(date +%s%N)
	sim h0_1 ibqueryerrors >"$T/iqe.out" 2>&1 || { echo "bench-fabric: ibqueryerrors failed: $(tail -5 "$T/iqe.out")" >&2; exit 1; }
	echo "ibqueryerrors $(ms_since "$t0") $(sed -n 's/^## *\([0-9]*\) ports checked.*/\1/p' "$T/iqe.out")" >>"$T/runs"
done

# A run that did not see the whole fabric is a broken run, not a figure.
bad=$(awk -v n="$NODES" '($1 == "fabtop" && ($3 != n || $4 != $5 || $4 == 0)) || ($1 == "ibnetdiscover" && $3 != n) ||
	($1 == "ibqueryerrors" && $3 == "")' "$T/runs")
[ -z "$bad" ] || { echo "bench-fabric: incomplete runs:" >&2; echo "$bad" >&2; exit 1; }
median() { awk -v t="$1" -v k="$2" '$1 == t { print $k }' "$T/runs" | sort -n | sed -n 3p; }
PORTS=$(awk '$1 == "fabtop" { print $4; exit }' "$T/runs")
IQE_PORTS=$(awk '$1 == "ibqueryerrors" { print $3; exit }' "$T/runs")
FAB=$(median fabtop 2)
printf 'fat tree of %d nodes (ibsim, 5 runs each, medians): fabtop show fabric %d ms (discovery %s ms + counters of %d ports %s ms, %s MADs); ibnetdiscover %d ms (discovery only); ibqueryerrors %d ms (%d ports); goal 1 s: %s\n' \
	"$NODES" "$FAB" "$(median fabtop 6)" "$PORTS" "$(median fabtop 7)" "$(median fabtop 8)" \
	"$(median ibnetdiscover 2)" "$(median ibqueryerrors 2)" "$IQE_PORTS" \
	"$([ "$FAB" -lt 1000 ] && echo met || echo "NOT met")"
exit 0
