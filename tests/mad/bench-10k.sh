#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: a fat tree of 10,266 nodes (tests/mad/gen-fattree.sh 250 40 16:
# 250 leaves of 40 hosts, 16 spines; 14,000 links, 28,000 ports up) under
# ibsim. fabtop's `show fabric` (discovery and the PMA counters of every port)
# beside ibnetdiscover (discovery) and ibqueryerrors (discovery and
# PortCounters) on the same simulator in the same run, alternating, 5 runs
# each; medians, as the load of a shared machine swings single runs by 2x.
# The goal is the whole fabric with its counters in 2 s. A run of an anchor
# that dies of a signal is reported as such (ibqueryerrors did here).
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
RUNS=5
for i in $(seq $RUNS); do
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
	# its exit status is the count of ports with errors past its threshold;
	# "PMA query failures" says what it could not read
	echo "ibqueryerrors $(ms_since "$t0") $rc $(sed -n 's/^## *\([0-9]*\) ports checked.*/\1/p' "$T/iqe.out") $(sed -n 's/^## *\([0-9]*\) PMA query failures.*/\1/p' "$T/iqe.out")" >>"$T/runs"
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

# The Fabric pane itself on this tree, driven in tmux (tests/tui/lib.sh): when
# its first rows are on the screen (under the "Partial:" line while the first
# sweep runs), when the whole sweep's are (the row counter at every link), and
# how long v (the node view of every node) then takes to answer.
. "$TOP_SRCDIR/tests/tui/lib.sh"
command -v tmux >/dev/null 2>&1 || fail "tmux is needed to drive the pane"
sysfs_hold h0_1
printf '#!/bin/sh\ncd "%s" || exit 1\nSIM_HOST=h0_1 LD_PRELOAD="%s" exec "$@"\n' "$RUN" "$FAB_PRELOAD" >"$T/mon.sh"
chmod +x "$T/mon.sh"
LINKS=$(sed -n '1s/.* nodes, \([0-9]*\) links.*/\1/p' "$T/fattree.net")
row_re='(h[0-9]+_[0-9]+|leaf[0-9]+|spine[0-9]+)/[0-9]+ '
t0=$(date +%s%N)
TUI_WRAP="$T/mon.sh" tui_start 200 50 -- --sysfs "$HOLD_SYS" --pane fabric --interval 10
PANE_FIRST= PANE_PARTIAL=no PANE_WHOLE=
while [ "$(ms_since "$t0")" -lt 60000 ]; do
	tui_screen >"$T/screen" 2>/dev/null || :
	ms=$(ms_since "$t0")
	if [ -z "$PANE_FIRST" ] && grep -Eq -- "$row_re" "$T/screen"; then
		PANE_FIRST=$ms
		grep -q 'Partial: ' "$T/screen" && PANE_PARTIAL=yes
	fi
	if grep -Eq " [0-9]+/$LINKS\$" "$T/screen" && ! grep -q 'Partial: ' "$T/screen"; then
		PANE_WHOLE=$ms
		break
	fi
	sleep 0.02
done
[ -n "$PANE_FIRST" ] && [ -n "$PANE_WHOLE" ] || fail "the Fabric pane never showed the $LINKS links: $(cat "$T/screen")"
t0=$(date +%s%N)
tui_keys v
tui_wait_re " [0-9]+/$NODES\$" 30 || fail "v never showed the $NODES nodes: $(cat "$T/screen")"
PANE_V=$(ms_since "$t0")
tui_keys q

bad=$(awk -v n="$NODES" '($1 == "fabtop" && ($3 != n || $4 != $5 || $4 == 0)) || ($1 == "ibnetdiscover" && $3 != n)' "$T/runs")
[ -z "$bad" ] || fail "incomplete runs: $bad"
median() { awk -v t="$1" -v k="$2" '$1 == t { print $k }' "$T/runs" | sort -n | sed -n "$((RUNS / 2 + 1))p"; }
FAB=$(median fabtop 2)
IQE=$(awk -v runs=$RUNS -v ports="$(median fabtop 4)" '$1 == "ibqueryerrors" {
		if ($3 > 128) sig = sig " " $3 - 128; else if ($4 == ports && $5 == "") ok++; else part = part " " ($4 == "" ? 0 : $4) "/" ($5 == "" ? 0 : $5)
		if ($3 > 0 && $3 < 128) bad = $3 }
	END { printf "%d of %d whole (every port read)", ok, runs; if (sig != "") printf ", died of signal%s", sig
		if (part != "") printf ", ports checked/PMA failures:%s", part; if (bad != "") printf "; ports with errors: %d", bad }' "$T/runs")
printf 'fat tree of %d nodes (ibsim, %d runs each, medians): fabtop show fabric %d ms (discovery %s ms + counters of %s ports %s ms, %s MADs of which %s for the counters, %s nodes took their model'"'"'s ClassPortInfo; tables %s MiB, %s KiB per 1,000 nodes); ibnetdiscover %d ms (discovery only); ibqueryerrors %s ms (%s); goal 2 s: %s\n' \
	"$NODES" "$RUNS" "$FAB" "$(median fabtop 6)" "$(median fabtop 5)" "$(median fabtop 7)" "$(median fabtop 8)" \
	"$(median fabtop 11)" "$(median fabtop 12)" \
	"$(awk '$1 == "fabtop" { printf "%.0f", $10 / 1048576; exit }' "$T/runs")" \
	"$(awk '$1 == "fabtop" { printf "%.0f", $9 / 1024; exit }' "$T/runs")" \
	"$(median ibnetdiscover 2)" "$(median ibqueryerrors 2)" "$IQE" \
	"$([ "$FAB" -lt 2000 ] && echo met || echo "NOT met")"
echo "the live core on it: first rows in $LIVE_FIRST ms (${LIVE_PART:+partial: $LIVE_PART; }goal 1 s: $([ "$LIVE_FIRST" -lt 1000 ] && echo met || echo "NOT met")), the whole first sweep in $LIVE_WHOLE ms; rounds of 28,000 ports at a 10 s interval: $LIVE_ROUNDS"
echo "the Fabric pane on it (tmux, 200x50): first rows in $PANE_FIRST ms, under the Partial line: $PANE_PARTIAL (goal 1 s: $([ "$PANE_FIRST" -lt 1000 ] && echo met || echo "NOT met")); all $LINKS links in $PANE_WHOLE ms; v then showed the $NODES nodes in $PANE_V ms"
# The same numbers: the ports whose error counters are not 0 in fabtop's last
# run and in ibqueryerrors' (node description and port; the values may move).
ERRS_FAB=$(jq -r '.fabric.nodes[] as $n | $n.port_states[] | . as $p | [($p.pma.counters // {}) | to_entries[] |
	select(.key | IN("symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors",
		"port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors", "port_xmit_discards",
		"port_xmit_constraint_errors", "port_rcv_constraint_errors", "local_link_integrity_errors",
		"excessive_buffer_overrun_errors", "VL15_dropped")) | select(.value != 0)] |
	select(length > 0) | "\($n.node_desc)/\($p.port)"' "$T/fab.json" | sort)
ERRS_IQE=$(awk -F'"' '/^Errors for / { d = $2 } /^ *GUID .* port [0-9]+:/ { sub(/:.*/, ""); print d "/" $NF }' "$T/iqe.out" |
	sed 's/\/.* port /\//' | sort)
echo "ports with errors: fabtop $(echo "$ERRS_FAB" | grep -c .), ibqueryerrors $(echo "$ERRS_IQE" | grep -c .): $([ "$ERRS_FAB" = "$ERRS_IQE" ] && echo "the same ports" || echo "NOT the same ports")"
[ "$ERRS_FAB" = "$ERRS_IQE" ] || diag "fabtop:" "$ERRS_FAB" "ibqueryerrors:" "$ERRS_IQE"
diag "runs:" "$(cat "$T/runs")"
diag "ibqueryerrors' last report (head and tail):" "$(head -12 "$T/iqe.out")" "$(tail -8 "$T/iqe.out")"
exit 0
