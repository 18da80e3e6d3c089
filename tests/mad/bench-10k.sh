#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: a fat tree of 10,266 nodes (tests/mad/gen-fattree.sh 250 40 16:
# 250 leaves of 40 hosts, 16 spines; 14,000 links, 28,000 ports up) under
# ibsim. fabtop's `show fabric` (discovery and the PMA counters of every port)
# beside ibnetdiscover (discovery) and ibqueryerrors (discovery and
# PortCounters) on the same simulator in the same run, alternating, 3 runs
# each; the goal is the whole fabric with its counters in 2 s. A run of an
# anchor that dies of a signal is reported as such (ibqueryerrors does here).
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
for t in ibnetdiscover ibqueryerrors; do
	command -v $t >/dev/null 2>&1 || { echo "bench-10k: $t (infiniband-diags) is the anchor" >&2; exit 1; }
done
fail() { echo "bench-10k: $*" >&2; exit 1; }

sh "$TOP_SRCDIR/tests/mad/gen-fattree.sh" 250 40 16 >"$T/fattree.net"
NODES=$(sed -n '1s/.*: \([0-9]*\) nodes.*/\1/p' "$T/fattree.net")
# ibsim's default tables hold 2,048 nodes and 8,192 ports.
ibsim_start "$T/fattree.net" -N 12000 -S 300 -P 200000 || fail "ibsim did not start: $(tail -3 "$T/ibsim.log")"
opensm_start h0_0
port_active h0_1
wait_for 300 _port_active h249_39 || fail "opensm never brought h249_39 up"
# ... and the route to it written in every switch on the way (PMA MADs go by LID).
LAST=$(sim h249_39 ibstat | sed -n 's/.*Base lid: \([0-9]*\)/\1/p')
command -v perfquery >/dev/null 2>&1 || fail "perfquery (infiniband-diags) is needed"
wait_for 300 sim h0_1 perfquery "$LAST" 1 || fail "h249_39 (LID $LAST) never answered perfquery"

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
for i in 1 2 3; do
	t0=$(date +%s%N)
	fab h0_1 show fabric --json >"$T/fab.json" 2>"$T/fab.err" || fail "fabtop failed: $(cat "$T/fab.err")"
	echo "fabtop $(ms_since "$t0") $(jq -r '.fabric | "\(.nodes | length) \(.sweep.pma_answered) \(.sweep.pma_ports) \(.sweep.elapsed_ms) \(.sweep.pma_elapsed_ms) \(.sweep.mads_sent) \(.sweep.memory_per_1000_nodes_bytes) \(.sweep.memory_bytes) \(.sweep.pma_mads) \(.sweep.pma_cpi_shared)"' "$T/fab.json")" >>"$T/runs"
	t0=$(date +%s%N)
	rc=0
	sim h0_1 ibnetdiscover >"$T/ibnd.out" 2>&1 || rc=$?
	[ $rc -eq 0 ] || fail "ibnetdiscover failed ($rc): $(tail -3 "$T/ibnd.out")"
	echo "ibnetdiscover $(ms_since "$t0") $(grep -c '^Ca\|^Switch' "$T/ibnd.out")" >>"$T/runs"
	t0=$(date +%s%N)
	rc=0
	sim h0_1 ibqueryerrors >"$T/iqe.out" 2>&1 || rc=$?
	echo "ibqueryerrors $(ms_since "$t0") $rc $(sed -n 's/^## *\([0-9]*\) ports checked.*/\1/p' "$T/iqe.out")" >>"$T/runs"
done

# The live core on the same tree (the Fabric pane, export --fabric): its first
# rows (what the first sweep found so far, shown partial from 0.5 s on), its
# first whole sweep and two rounds of every port's counters.
SAMPLE="$TOP_BUILDDIR/tests/mad/mad_sample"
(cd "$RUN" && SIM_HOST=h0_1 timeout -k 2 120 env LD_PRELOAD="$FAB_PRELOAD" "$SAMPLE" subnet 10 3) >"$T/subnet.out" 2>&1 ||
	fail "the live subnet failed: $(tail -3 "$T/subnet.out")"
LIVE_WHOLE=$(sed -n "s/^swept nodes=$NODES ms=\([0-9]*\).*/\1/p" "$T/subnet.out")
# The first rows: what the first sweep found so far, shown partial from 0.5 s on, else the whole sweep.
LIVE_PART=$(sed -n 's/^partial nodes=\([0-9]*\) links=[0-9]* ms=\([0-9]*\).*/\2 ms (\1 nodes)/p' "$T/subnet.out")
LIVE_FIRST=${LIVE_PART%% *}
LIVE_FIRST=${LIVE_FIRST:-$LIVE_WHOLE}
LIVE_ROUNDS=$(sed -n 's/^round [12] ports=28000 ms=\([0-9]*\).* cpu_ms=\([0-9]*\).*/\1 ms (CPU \2 ms)/p' "$T/subnet.out" | tr '\n' ',' | sed 's/,$//; s/,/, /g')
[ -n "$LIVE_WHOLE" ] && [ -n "$LIVE_ROUNDS" ] || fail "the live subnet did not sweep $NODES nodes and sample 28000 ports: $(cat "$T/subnet.out")"

bad=$(awk -v n="$NODES" '($1 == "fabtop" && ($3 != n || $4 != $5 || $4 == 0)) || ($1 == "ibnetdiscover" && $3 != n)' "$T/runs")
[ -z "$bad" ] || fail "incomplete runs: $bad"
median() { awk -v t="$1" -v k="$2" '$1 == t { print $k }' "$T/runs" | sort -n | sed -n 2p; }
FAB=$(median fabtop 2)
IQE=$(awk '$1 == "ibqueryerrors" { if ($3 == 0) ok++; else if ($3 > 128) sig = sig " " $3 - 128; else err = err " " $3 }
	END { printf "%d of 3 whole", ok; if (sig != "") printf ", died of signal%s", sig; if (err != "") printf ", exit%s", err }' "$T/runs")
printf 'fat tree of %d nodes (ibsim, 3 runs each, medians): fabtop show fabric %d ms (discovery %s ms + counters of %s ports %s ms, %s MADs of which %s for the counters, %s nodes took their model'"'"'s ClassPortInfo; tables %s MiB, %s KiB per 1,000 nodes); ibnetdiscover %d ms (discovery only); ibqueryerrors %s ms (%s); goal 2 s: %s\n' \
	"$NODES" "$FAB" "$(median fabtop 6)" "$(median fabtop 5)" "$(median fabtop 7)" "$(median fabtop 8)" \
	"$(median fabtop 11)" "$(median fabtop 12)" \
	"$(awk '$1 == "fabtop" { printf "%.0f", $10 / 1048576; exit }' "$T/runs")" \
	"$(awk '$1 == "fabtop" { printf "%.0f", $9 / 1024; exit }' "$T/runs")" \
	"$(median ibnetdiscover 2)" "$(median ibqueryerrors 2)" "$IQE" \
	"$([ "$FAB" -lt 2000 ] && echo met || echo "NOT met")"
echo "the live core on it: first rows in $LIVE_FIRST ms (${LIVE_PART:+partial: $LIVE_PART; }goal 1 s: $([ "$LIVE_FIRST" -lt 1000 ] && echo met || echo "NOT met")), the whole first sweep in $LIVE_WHOLE ms; rounds of 28,000 ports at a 10 s interval: $LIVE_ROUNDS"
diag "runs:" "$(cat "$T/runs")"
exit 0
