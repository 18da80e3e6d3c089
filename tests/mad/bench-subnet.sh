#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: the live fabric on the 1,016-node fat tree (tests/mad/gen-fattree.sh)
# under ibsim, each figure beside its anchor from infiniband-diags in the same run:
# - the live core's subnet (what the Fabric pane and export --fabric show):
#   its first sweep (the pane's first rows; goal 1 s), then every port's
#   counters each 2 s interval: the round's time (goal 300 ms) and the CPU
#   the process takes (goal under 10% of a core), umad2sim's share apart;
#   one round beside ibqueryerrors (the same counters, one shot);
# - export --fabric: the CPU of a scrape of every port (goal 10 ms), in plain
#   text and gzip'ed (what Prometheus asks for), from the same exporter: the
#   HTTP server's thread, and the whole process (with the collections that
#   fell in the while); and what deflating the page costs at publish;
# - trace host to host through a spine (goal 50 ms for the walk) beside ibtracert,
#   and by port GUID (its LID from the SA) beside ibtracert -G;
# - the sweep's memory per 1,000 nodes.
# A figure that cannot be measured fails the bench; it never prints zeros.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
for t in ibqueryerrors ibtracert ibaddr curl python3; do
	command -v $t >/dev/null 2>&1 || { echo "bench-subnet: $t is needed (infiniband-diags, curl, python3)" >&2; exit 1; }
done
SAMPLE="$TOP_BUILDDIR/tests/mad/mad_sample"
[ -x "$SAMPLE" ] || { echo "bench-subnet: $SAMPLE is not built" >&2; exit 1; }
fail() { echo "bench-subnet: $*" >&2; exit 1; }

sh "$TOP_SRCDIR/tests/mad/gen-fattree.sh" >"$T/fattree.net"
ibsim_start "$T/fattree.net"
opensm_start h0_0
port_active h0_1
wait_for 120 _port_active h47_19 || fail "opensm never brought h47_19 up"
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

# ---- the live core's subnet: first sweep, then 7 rounds at a 2 s interval (threads read before the last) ----
# The process's CPU by thread: umad2sim's receiver thread is the simulator's.
(cd "$RUN" && SIM_HOST=h0_1 LD_PRELOAD="$FAB_PRELOAD" exec "$SAMPLE" subnet 2 7) >"$T/subnet.out" 2>"$T/subnet.err" &
SUB_PID=$!
cleanup_add "stop_pid $SUB_PID"
wait_for 30 grep -q '^swept' "$T/subnet.out" || fail "the subnet was never swept: $(cat "$T/subnet.err")"
# Threads' CPU over the rounds (utime+stime ticks of each /proc/PID/task/TID).
threads() { for s in /proc/$SUB_PID/task/*/stat; do awk '{ print $14 + $15 }' "$s" 2>/dev/null; done | tr '\n' ' '; }
th0=$(threads)
wait_for 40 grep -q '^round 5' "$T/subnet.out" || fail "the rounds did not come: $(cat "$T/subnet.out" "$T/subnet.err")"
th1=$(threads)
wait $SUB_PID || fail "mad_sample subnet failed: $(cat "$T/subnet.err")"
FIRST_MS=$(sed -n 's/^swept nodes=1016 ms=\([0-9]*\).*/\1/p' "$T/subnet.out")
[ -n "$FIRST_MS" ] || fail "the first sweep did not find 1016 nodes: $(head -1 "$T/subnet.out")"
# Rounds 1..5 (round 0 asks ClassPortInfo of every node, not the counters).
ROUND_MS=$(awk '/^round [1-5] ports=2688 /' "$T/subnet.out" | sed 's/.* ms=\([0-9.]*\).*/\1/' | median)
ROUND_MAX=$(awk '/^round [1-5] ports=2688 /' "$T/subnet.out" | sed 's/.* ms=\([0-9.]*\).*/\1/' | sort -n | tail -1)
NR=$(grep -c '^round [1-5] ports=2688 ' "$T/subnet.out")
[ "$NR" -eq 5 ] || fail "rounds without every port: $(cat "$T/subnet.out")"
CPU_MS=$(awk '/^round [1-5] ports=2688 / { sub(/.*cpu_ms=/, ""); s += $1 } END { printf "%.0f", s / 5 }' "$T/subnet.out")
# The receiver thread (umad2sim's) is the thread other than the main one that used the most.
set -- $th0; main0=$1; shift; other0=$*
set -- $th1; main1=$1; shift; other1=$*
SIM_TICKS=$(( $(echo "$other1" | tr ' ' '\n' | awk '{ s += $1 } END { print s + 0 }') - $(echo "$other0" | tr ' ' '\n' | awk '{ s += $1 } END { print s + 0 }') ))
MAIN_TICKS=$((main1 - main0))
TICK=$(getconf CLK_TCK)

for i in 1 2 3; do
	t0=$(date +%s%N)
	sim h0_1 ibqueryerrors >"$T/iqe.out" 2>&1 || fail "ibqueryerrors failed: $(tail -3 "$T/iqe.out")"
	ms_since "$t0" >>"$T/iqe.ms"
	grep -q '2688 ports checked' "$T/iqe.out" || fail "ibqueryerrors did not check 2688 ports: $(tail -3 "$T/iqe.out")"
done
IQE_MS=$(median <"$T/iqe.ms")

# ---- export --fabric: the CPU of a scrape of every port ----
sysfs_hold h0_1
(cd "$RUN" && SIM_HOST=h0_1 LD_PRELOAD="$FAB_PRELOAD" exec "$FABTOP" --sysfs "$HOLD_SYS" \
	export --listen 127.0.0.1:0 --interval 2 --fabric --fabric-interval 2) >"$T/exp.out" 2>"$T/exp.err" &
EXP_PID=$!
cleanup_add "stop_pid $EXP_PID"
wait_for 20 grep -q 'listening on' "$T/exp.out" || fail "export did not start: $(cat "$T/exp.out" "$T/exp.err")"
addr=$(sed -n 's/^fabtop export: listening on \([0-9.:]*\) .*/\1/p' "$T/exp.out")
ports_in() { curl -s "http://$addr/metrics" | grep -c '^fabtop_fabric_port_info{' ; }
wait_for 30 sh -c "[ \"\$(curl -s http://$addr/metrics | grep -c '^fabtop_fabric_port_data_bytes_total{')\" -ge 5376 ]" ||
	fail "export --fabric never had the data counters of 2688 ports ($(ports_in) ports described)"
set -- $(python3 "$TOP_SRCDIR/tests/bench/scrape-cpu.py" "$EXP_PID" "$addr" 20 10) || fail "scrape-cpu.py failed"
SCRAPE_PROC_MS=$1 SCRAPE_MS=$2 SCRAPE_BYTES=$3 SCRAPE_SAMPLES=$4
set -- $(python3 "$TOP_SRCDIR/tests/bench/scrape-cpu.py" "$EXP_PID" "$addr" 20 10 gzip "$SCRAPE_SAMPLES") || fail "scrape-cpu.py gzip failed"
GZ_PROC_MS=$1 GZ_MS=$2 GZ_BYTES=$3 GZ_SAMPLES=$4
[ "$GZ_SAMPLES" = "$SCRAPE_SAMPLES" ] || fail "the gzip'ed page has $GZ_SAMPLES samples, the plain one $SCRAPE_SAMPLES"
# What the collector's deflate of the page costs (the same zlib, levels 1 and 6), on a whole page.
wait_for 30 sh -c "curl -s -o '$T/page.txt' http://$addr/metrics && [ \"\$(grep -vc '^#' '$T/page.txt')\" -ge $SCRAPE_SAMPLES ]" ||
	fail "no page of $SCRAPE_SAMPLES samples to deflate"
stop_pid "$EXP_PID"
set -- $(python3 - "$T/page.txt" <<'PY'
import sys, time, zlib
text = open(sys.argv[1], "rb").read()
for level in (1, 6):
    t = time.process_time()
    z = zlib.compressobj(level, zlib.DEFLATED, -15)
    n = len(z.compress(text) + z.flush(zlib.Z_SYNC_FLUSH))
    print("%.0f %d" % ((time.process_time() - t) * 1000, n))
print(len(text))
PY
) || fail "deflating the page failed"
DEFL1_MS=$1 DEFL1_BYTES=$2 DEFL6_MS=$3 DEFL6_BYTES=$4 PAGE_BYTES=$5

# ---- trace h0_1 -> h47_19 (leaf 0, a spine, leaf 47) ----
fab h0_1 show fabric --json >"$T/fabric.json" 2>/dev/null || fail "show fabric failed"
DST=$(jq -r '.fabric.nodes[] | select(.node_desc == "h47_19") | .lid' "$T/fabric.json")
SRC=$(jq -r '.fabric.nodes[] | select(.node_desc == "h0_1") | .lid' "$T/fabric.json")
MEM_K=$(jq -r '.fabric.sweep.memory_per_1000_nodes_bytes / 1024 | floor' "$T/fabric.json")
[ "${DST:-0}" -gt 0 ] && [ "${SRC:-0}" -gt 0 ] || fail "no LID for h0_1 or h47_19"
for i in 1 2 3 4 5; do
	t0=$(date +%s%N)
	fab h0_1 trace "$DST" --no-counters --json >"$T/trace.json" 2>"$T/trace.err" || fail "trace failed: $(cat "$T/trace.err")"
	echo "$(ms_since "$t0") $(jq -r '.trace.walk_ms' "$T/trace.json") $(jq -r '.trace.hops | length' "$T/trace.json")" >>"$T/trace.runs"
	t0=$(date +%s%N)
	sim h0_1 ibtracert "$SRC" "$DST" >"$T/ibtr.out" 2>&1 || fail "ibtracert failed: $(cat "$T/ibtr.out")"
	ms_since "$t0" >>"$T/ibtr.ms"
	# the same by port GUID: its LID from the SA, as ibtracert -G does
	SG=$(jq -r '.trace.hops[0].port_guid' "$T/trace.json" | tr -d :)
	DG=$(jq -r '.trace.hops[-1].port_guid' "$T/trace.json" | tr -d :)
	t0=$(date +%s%N)
	fab h0_1 trace "0x$DG" --no-counters --json >"$T/gtrace.json" 2>"$T/trace.err" || fail "trace by GUID failed: $(cat "$T/trace.err")"
	echo "$(ms_since "$t0") $(jq -r '"\(.trace.dlid_found_by) \(.trace.dlid)"' "$T/gtrace.json")" >>"$T/gtrace.runs"
	t0=$(date +%s%N)
	sim h0_1 ibtracert -G "0x$SG" "0x$DG" >"$T/ibtr.out" 2>&1 || fail "ibtracert -G failed: $(cat "$T/ibtr.out")"
	ms_since "$t0" >>"$T/gibtr.ms"
	# The simulator's own cost for any command: umad2sim writes its
	# sysfs tree and connects to ibsim; ibaddr then sends one MAD.
	t0=$(date +%s%N)
	sim h0_1 ibaddr >"$T/ibaddr.out" 2>&1 || fail "ibaddr failed: $(cat "$T/ibaddr.out")"
	ms_since "$t0" >>"$T/ibaddr.ms"
done
[ "$(awk '{ print $3 }' "$T/trace.runs" | sort -u)" = 5 ] || fail "trace did not walk 5 hops: $(cat "$T/trace.runs")"
TR_WALK=$(awk '{ print $2 }' "$T/trace.runs" | median)
TR_WALL=$(awk '{ print $1 }' "$T/trace.runs" | median)
IBTR_MS=$(median <"$T/ibtr.ms")
IBADDR_MS=$(median <"$T/ibaddr.ms")
TR_OWN=$(awk -v a="$TR_WALL" -v b="$IBADDR_MS" 'BEGIN { print a - b }')
[ "$(awk '{ print $2, $3 }' "$T/gtrace.runs" | sort -u)" = "sa $DST" ] || fail "trace by GUID did not take h47_19's LID from the SA: $(cat "$T/gtrace.runs")"
GTR_WALL=$(awk '{ print $1 }' "$T/gtrace.runs" | median)
GIBTR_MS=$(median <"$T/gibtr.ms")

goal() { awk -v v="$1" -v g="$2" 'BEGIN { print (v + 0 < g + 0) ? "met" : "NOT met" }'; }
CPU_PCT=$(awk -v c="$CPU_MS" 'BEGIN { printf "%.1f", c / 2000 * 100 }')
SIM_PCT=$(awk -v s="$SIM_TICKS" -v m="$MAIN_TICKS" 'BEGIN { printf "%.0f", (s + m) ? 100 * s / (s + m) : 0 }')
echo "fat tree of 1016 nodes, 2688 ports (ibsim, same run):"
echo "  live subnet: first sweep shown (first rows) in $FIRST_MS ms (goal 1 s: $(goal "$FIRST_MS" 1000))"
echo "  a round of every port's counters: median $ROUND_MS ms, worst $ROUND_MAX ms of 5 (goal 300 ms: $(goal "$ROUND_MAX" 300)); ibqueryerrors, one shot: $IQE_MS ms (median of 3)"
echo "  CPU at a 2 s interval: $CPU_PCT% of a core ($CPU_MS ms a round; goal 10%: $(goal "$CPU_PCT" 10)), of which umad2sim's receiver thread $SIM_PCT%"
echo "  export --fabric, CPU per scrape of $SCRAPE_SAMPLES samples (the HTTP thread; the whole process with the collections in the while):"
echo "    plain text: $SCRAPE_MS ms ($SCRAPE_PROC_MS ms), $SCRAPE_BYTES bytes; gzip: $GZ_MS ms ($GZ_PROC_MS ms), $GZ_BYTES bytes (goal 10 ms: $(goal "$GZ_MS" 10))"
echo "    deflating the page ($PAGE_BYTES bytes) at publish: level 1 $DEFL1_MS ms of CPU ($DEFL1_BYTES bytes), level 6 $DEFL6_MS ms ($DEFL6_BYTES bytes)"
echo "  trace h0_1 -> h47_19 (5 hops, through a spine): the walk $TR_WALK ms (goal 50 ms: $(goal "$TR_WALK" 50)); the whole command $TR_WALL ms, ibtracert's $IBTR_MS ms (both start umad2sim; medians of 5)"
echo "    umad2sim's start and one MAD (ibaddr, the floor of any command here): $IBADDR_MS ms; the whole trace above it: $TR_OWN ms (goal 50 ms: $(goal "$TR_OWN" 50))"
echo "    by h47_19's port GUID (its LID from the SA): the whole command $GTR_WALL ms, ibtracert -G's $GIBTR_MS ms (medians of 5)"
echo "  memory of the sweep's tables: $MEM_K KiB per 1,000 nodes (with every port's counters)"
exit 0
