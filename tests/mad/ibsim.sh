#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# InfiniBand management on the ibsim simulator: LIDs, the SM, link partners,
# PMA counters of both ends, rates from console-set counters, a link taken
# down, the MAD probe, a bounded sweep of a larger fabric, sysfs vs MADs.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require

SAMPLE="$TOP_BUILDDIR/tests/mad/mad_sample"

ibsim_start "$DATA/ibsim/two-switch.net"

# ---- before any SM: ports INIT, and why; partners still found by directed route ----
run_rc fab HostA show fabric --json
J="$T/out"
lp() { jq -r ".fabric.local_ports[0]$1" "$J"; }
assert_eq "no SM yet: port INIT/LinkUp, LID 0, SM LID 0" "INIT/LinkUp 0 0" "$(lp .state)/$(lp .phys_state) $(lp .lid) $(lp .sm.lid)"
assert_match "no SM yet: the note explains it" "no subnet manager has configured it.*opensm" "$(lp .note)"
assert_eq "no SM yet: partner found by directed route" "spine-a 1" "$(lp .partner.node_desc) $(lp .partner.port)"
assert_eq "no SM yet: no PMA by LID, not invented" "not asked null" "$(lp .pma.state) $(lp .pma.cap_mask)"
assert_eq "no SM yet: the sweep still finds 5 nodes" 5 "$(jq '.fabric.nodes | length' "$J")"
run_rc fab HostA probe --lid 2 -C 1
assert_eq "no SM yet: probe --lid exits 1" 1 "$rc"
assert_match "no SM yet: probe says the port is INIT, not a timeout" 'is INIT/LinkUp: no subnet manager' "$(cat "$T/err")"

opensm_start SmHost
port_active HostA
port_active HostB

# Independent answers from infiniband-diags on the same fabric.
if command -v sminfo >/dev/null 2>&1; then
	SM_LID=$(sim HostA sminfo | sed -n 's/^sminfo: sm lid \([0-9]*\) .*/\1/p')
else
	SM_LID=$(sim HostA ibstat | sed -n 's/.*SM lid: \([0-9]*\)/\1/p')
fi
A_LID=$(sim HostA ibstat | sed -n 's/.*Base lid: \([0-9]*\)/\1/p')
B_LID=$(sim HostB ibstat | sed -n 's/.*Base lid: \([0-9]*\)/\1/p')
diag "hosta LID $A_LID, hostb LID $B_LID, SM LID $SM_LID"

# Known counter values: MAD traffic does not move error counters.
ibsim_cmd 'PerformanceSet "SwA"[1] PortCounters.SymbolErrorCounter=7' "SymbolErrorCounter has been set to 7"
ibsim_cmd 'PerformanceSet "HostA"[1] PortCounters.PortXmitDiscards=3' "PortXmitDiscards has been set to 3"

# ---- show fabric --json from hosta ----
run_rc fab HostA show fabric --json
assert_eq "show fabric exits 0" 0 "$rc"
J="$T/out"
cp "$J" "$T/fabric1.json"
assert_json "one JSON document, with a fabric" "$J" '.fabric | type == "object"'
assert_eq "local LID is the one opensm assigned" "$A_LID" "$(lp .lid)"
assert_eq "local port ACTIVE/LinkUp" "ACTIVE/LinkUp" "$(lp .state)/$(lp .phys_state)"
assert_eq "local node description" "hosta mlx5_0" "$(lp .node_desc)"
assert_eq "SM LID from PortInfo" "$SM_LID" "$(lp .sm.lid)"
assert_eq "SMInfo answered by opensm: MASTER" "ok MASTER" "$(lp .sm.query) $(lp .sm.state)"
assert_eq "SM GUID is smhost's port" "0000:0000:0010:0004" "$(lp .sm.guid)"
assert_eq "partner is switch spine-a" "Switch spine-a" "$(lp .partner.node_type) $(lp .partner.node_desc)"
assert_eq "partner port number" 1 "$(lp .partner.port)"
SWA_LID=$(sim HostA smpquery -D portinfo 0,1 0 | sed -n 's/^Lid:\.*\([0-9]*\)/\1/p')
assert_eq "partner LID is spine-a's port-0 LID (smpquery)" "$SWA_LID" "$(lp .partner.lid)"
assert_eq "4X QDR link" "4X QDR 40" "$(lp .width) $(lp .speed) $(lp .rate_gbps)"
assert_eq "local PMA answered, 64-bit" "ok true" "$(lp .pma.state) $(lp .pma.extended)"
assert_eq "partner PMA answered by LID" "ok $SWA_LID" "$(lp .partner_pma.state) $(lp .partner_pma.lid)"
cval() { jq -r ".fabric.local_ports[0].$1.counters[] | select(.name == \"$2\") | .value" "$J"; }
assert_eq "partner symbol_error set in ibsim: 7" 7 "$(cval partner_pma symbol_error)"
assert_eq "local port_xmit_discards set in ibsim: 3" 3 "$(cval pma port_xmit_discards)"
PQ=$(sim HostA perfquery -x "$SWA_LID" 1 | sed -n 's/^PortXmitData:\.*\([0-9]*\)/\1/p')
FX=$(cval partner_pma port_xmit_data)
# Both are live counters moved by the MADs themselves: close, not equal.
check "partner PortXmitData matches perfquery -x within MAD traffic ($FX vs $PQ)" \
	test "$FX" -gt 0 -a "$PQ" -ge "$FX" -a $((PQ - FX)) -lt 100000
assert_eq "5 nodes swept" 5 "$(jq '.fabric.nodes | length' "$J")"
assert_eq "5 links swept" 5 "$(jq '.fabric.links | length' "$J")"
assert_eq "hosta port 2 reaches spine-b port 1" "spine-b 1" \
	"$(jq -r '.fabric.links[] | select(.from_desc == "hosta mlx5_0" and .from_port == 2) | "\(.to_desc) \(.to_port)"' "$J")$(jq -r '.fabric.links[] | select(.to_desc == "hosta mlx5_0" and .to_port == 2) | "\(.from_desc) \(.from_port)"' "$J")"
assert_eq "sweep finished, nothing truncated" "true false false 0" \
	"$(jq -r '.fabric.sweep | "\(.done) \(.truncated_nodes) \(.truncated_time) \(.timeouts)"' "$J")"
diag "sweep of 5 nodes: $(jq -r '.fabric.sweep | "\(.elapsed_ms) ms, \(.sweep_mads) MADs (\(.mads_sent) with the port queries)"' "$J")"

# ---- the one-shot paths under valgrind, with real MAD traffic ----
# (umad2sim's own over-read and uninitialised padding are suppressed, nothing of ours)
if command -v valgrind >/dev/null 2>&1 && [ "${FABTOP_SANITIZERS:-no}" != yes ] && ! ldd "$FABTOP" | grep -q libasan; then
	run_rc fab_helper HostA sh -c 'exec valgrind -q --error-exitcode=99 --suppressions="$0" --leak-check=full \
		--errors-for-leak-kinds=definite "$1" show fabric' "$TOP_SRCDIR/tests/mad/umad2sim.supp" "$FABTOP"
	assert_eq "valgrind clean: show fabric on ibsim" 0 "$rc"
	[ "$rc" = 0 ] || diag "$(cat "$T/err")"
else
	skip "valgrind not installed, or an ASan build"
fi

# ---- the text view ----
run_rc fab HostA show fabric
assert_match "text: partner line" 'partner: Switch "spine-a" .* port 1, LID' "$(cat "$T/out")"
assert_match "text: SM line" "SM: LID $SM_LID SL 0, MASTER" "$(cat "$T/out")"
assert_match "text: link like iblinkinfo" '3 ==\( 4X QDR ACTIVE/LinkUp +\)==> .* "spine-b" port 3' "$(cat "$T/out")"

# ---- sysfs (umad2sim's tree of a live preloaded process) agrees with the MAD view ----
# The live process is an ibping server on hostb, which the probe below uses.
# ibsim passes vendor-class requests only to clients attached as "SM", and
# umad2sim then crashes the real 'ibping -S' (SIM_SET_ISSM) on the first
# request for a class it has no agent for, so the server is the test
# helper's: the same protocol, all classes registered before it claims SM.
(cd "$RUN" && SIM_HOST=HostB LD_PRELOAD="$FAB_PRELOAD" exec "$SAMPLE" pingd) >"$T/pingd.out" 2>&1 &
PINGD_PID=$!
cleanup_add "stop_pid $PINGD_PID"
wait_for 10 grep -q "pingd ready" "$T/pingd.out" || diag "pingd: $(cat "$T/pingd.out")"
if wait_for 10 test -f "$RUN/sys-$PINGD_PID/sys/class/infiniband/ibsim0/ports/1/lid"; then
	run_rc "$FABTOP" --sysfs "$RUN/sys-$PINGD_PID/sys" show ports --json
	cp "$T/out" "$T/sysfs.json"
	run_rc fab HostB show fabric --json
	cp "$T/out" "$T/fabricB.json"
	assert_eq "sysfs LID == MAD LID" "$(jq '.fabric.local_ports[0].lid' "$T/fabricB.json")" \
		"$(jq '.devices[0].ports[0].lid' "$T/sysfs.json")"
	assert_eq "sysfs SM LID == MAD SM LID" "$(jq '.fabric.local_ports[0].sm.lid' "$T/fabricB.json")" \
		"$(jq '.devices[0].ports[0].sm_lid' "$T/sysfs.json")"
	assert_eq "sysfs state == MAD state" "$(jq -r '.fabric.local_ports[0].state' "$T/fabricB.json")" \
		"$(jq -r '.devices[0].ports[0].state' "$T/sysfs.json")"
	assert_eq "sysfs node GUID == MAD node GUID" "$(jq -r '.fabric.local_ports[0].node_guid' "$T/fabricB.json")" \
		"$(jq -r '.devices[0].node_guid' "$T/sysfs.json")"
else
	for _ in 1 2 3 4; do skip "the ibping responder wrote no sysfs tree"; done
fi

# ---- the MAD probe (ibping server on hostb) ----
run_rc fab HostA --interval 0.1 probe --lid "$B_LID" -C 3 --timeout 500
assert_eq "probe --lid: exit 0" 0 "$rc"
assert_match "probe --lid: 3 pongs" '3 sent, 3 received, 0% loss' "$(cat "$T/out")"
run_rc fab HostA probe --guid 0x0000000000100005 -C 1
assert_match "probe --guid takes hostb's LID from the SA, and pings it" \
	"GUID 0x0000000000100005 is LID $B_LID \\(the SA's NodeRecord\\).*Pong from .*\\(LID $B_LID\\)" "$(tr '\n' ' ' <"$T/out")"
run_rc fab HostA probe --guid 0x0123456789abcdef -C 1
assert_match "a GUID the SA does not know is swept for, and not found: exit 1" \
	"^1 fabtop probe: GUID 0x0123456789abcdef not found in the fabric" "$rc $(cat "$T/err")"
t0=$(date +%s)
run_rc fab HostA --interval 0.1 probe --lid 999 -C 2 --timeout 300
assert_eq "probe to a LID nobody has: exit 1" 1 "$rc"
check "... and it ends in bounded time" test $(( $(date +%s) - t0 )) -lt 10
run_rc fab HostA probe --lid 0
assert_eq "probe --lid 0: usage error" 2 "$rc"

# A frozen fabric: the simulator stops answering mid-probe; every ping times out, nothing hangs.
(fab HostA --interval 0.5 probe --lid "$B_LID" -C 6 --timeout 300; echo "probe-exit=$?") >"$T/frozen.out" 2>&1 &
FROZEN_PID=$!
cleanup_add "kill -CONT $IBSIM_PID 2>/dev/null; stop_pid $FROZEN_PID"
if wait_for 10 grep -q "Pong from" "$T/frozen.out"; then
	kill -STOP "$IBSIM_PID"
	t0=$(date +%s)
	# The summary line is the probe done; umad2sim's own exit handler then
	# waits for the frozen simulator, which is not ours to measure.
	wait_for 15 grep -q -- "--- LID" "$T/frozen.out" || true
	t1=$(date +%s)
	kill -CONT "$IBSIM_PID"
	wait_for 10 grep -q "probe-exit=" "$T/frozen.out" || true
	assert_match "frozen fabric: pings time out" 'no answer from LID [0-9]+: timeout' "$(cat "$T/frozen.out")"
	check "frozen fabric: the probe finished by itself in bounded time ($((t1 - t0)) s)" test $((t1 - t0)) -lt 12
	assert_match "frozen fabric: exit 0, some pongs came before" 'probe-exit=0' "$(cat "$T/frozen.out")"
else
	kill -CONT "$IBSIM_PID"
	not_ok "frozen fabric: no first pong"; diag "$(cat "$T/frozen.out")"
	skip "frozen fabric"; skip "frozen fabric"
fi

# ---- rates: counters changed through the ibsim console show up ----
(fab_helper HostA "$SAMPLE" 1500 2; echo "sample-exit=$?") >"$T/sample.out" 2>&1 &
SAMPLE_PID=$!
cleanup_add "stop_pid $SAMPLE_PID"
if wait_for 20 grep -q "^waiting 2" "$T/sample.out"; then
	V=$(sed -n 's/^sample 1 partner port_xmit_data .*value=\([0-9]*\).*/\1/p' "$T/sample.out")
	# 250 million 4-octet words more: 1e9 bytes within one 1.5 s interval.
	ibsim_cmd "PerformanceSet \"SwA\"[1] PortCountersExtended.PortXmitData=$((V + 250000000))" \
		"PortXmitData has been set to $((V + 250000000))"
	ibsim_cmd 'PerformanceSet "SwA"[1] PortCounters.SymbolErrorCounter=17' "SymbolErrorCounter has been set to 17"
	wait_for 20 grep -q "sample-exit=" "$T/sample.out" || true
	R=$(sed -n 's/^sample 2 partner port_xmit_data bytes_per_s=\([0-9]*\).*/\1/p' "$T/sample.out")
	DT=$(sed -n 's/^sample 2 partner port_xmit_data .* dt_ns=\([0-9]*\).*/\1/p' "$T/sample.out")
	diag "partner rate after +1e9 bytes: $R B/s over $DT ns"
	# rate x interval must give back the 1e9 bytes (words x 4, never x width),
	# whatever a loaded machine did to the interval; it cannot beat 1e9 B / 1.5 s
	check "partner xmit rate x interval = 1e9 B (words x 4)" \
		awk -v r="${R:-0}" -v dt="${DT:-0}" 'BEGIN { b = r * dt / 1e9; exit !(b > 0.99e9 && b < 1.01e9 && r <= 1e9 / 1.5 * 1.01) }'
	assert_match "partner symbol_error moved by 10" '^sample 2 partner symbol_error delta=10$' "$(cat "$T/sample.out")"
	assert_match "partner LID and port found by the async view" "partner_lid=$SWA_LID partner_port=1 local_pma=ok partner_pma=ok" "$(cat "$T/sample.out")"
else
	not_ok "mad_sample never got to sample 2"; diag "$(cat "$T/sample.out")"
	skip "rates"; skip "rates"
fi

# ---- the same through the CLI: show fabric --count N --interval S ----
(fab HostA --interval 1.5 --count 2 show fabric; echo "show-exit=$?") >"$T/rates.out" 2>&1 &
if wait_for 20 grep -q "^sample 1" "$T/rates.out"; then
	PQ=$(sim HostA perfquery -x "$SWA_LID" 1 | sed -n 's/^PortXmitData:\.*\([0-9]*\)/\1/p')
	ibsim_cmd "PerformanceSet \"SwA\"[1] PortCountersExtended.PortXmitData=$((PQ + 250000000))" \
		"PortXmitData has been set to $((PQ + 250000000))"
	ibsim_cmd 'PerformanceSet "SwA"[1] PortCounters.SymbolErrorCounter=27' "SymbolErrorCounter has been set to 27"
	wait_for 20 grep -q "show-exit=" "$T/rates.out" || true
	assert_match "show fabric --count: exit 0" '^show-exit=0$' "$(cat "$T/rates.out")"
	G=$(sed -n '/^sample 2/,$ s/^ *partner *xmit *\([0-9.]*\) Gb\/s.*/\1/p' "$T/rates.out")
	diag "show fabric --count: partner xmit in sample 2: $G Gb/s"
	# 8e9 bits in an interval of at least 1.5 s: at most 5.33 Gb/s, and clearly moving
	check "show fabric --count: partner xmit <= 8e9 bits / 1.5 s = 5.33 Gb/s, and moving" \
		awk -v g="${G:-0}" 'BEGIN { exit !(g > 1.0 && g < 5.34) }'
	assert_match "show fabric --count: partner symbol_error +10 in sample 2" \
		'partner .*errors: symbol_error \+10' "$(sed -n '/^sample 2/,$p' "$T/rates.out")"
	assert_match "show fabric --count: local end idle, no errors" \
		'local +xmit +0\.0[0-9]* Gb/s .*errors: none' "$(sed -n '/^sample 2/,$p' "$T/rates.out")"
else
	not_ok "show fabric --count never printed sample 1"; diag "$(cat "$T/rates.out")"
	skip "rates"; skip "rates"; skip "rates"
fi
run_rc fab HostA --interval 0.2 --count 1 show fabric --json
assert_eq "show fabric --json --count 1: one sample with both ends" "1 ok ok" \
	"$(jq -r '.fabric.samples | "\(length) \(.[0].ports[0].local.state) \(.[0].ports[0].partner.state)"' "$T/out")"

# ---- links taken down ----
ibsim_cmd 'Unlink "SwB"[1]' 'sim>'
wait_for 10 sh -c "cd '$RUN' && SIM_HOST=HostA LD_PRELOAD='$FAB_PRELOAD' '$FABTOP' show fabric --json | jq -s -e 'length == 1 and (.[0].fabric.links | length == 4)'" || true
run_rc fab HostA show fabric --json
J="$T/out"
assert_eq "unlinked: 4 links left" 4 "$(jq '.fabric.links | length' "$J")"
assert_eq "hosta port 2 shows DOWN" "DOWN" \
	"$(jq -r '.fabric.nodes[] | select(.node_desc == "hosta mlx5_0") | .port_states[] | select(.port == 2) | .state' "$J")"
run_rc fab HostA show fabric
assert_match "text: hosta port 2 down" '  2 ==\( DOWN/' "$(cat "$T/out")"

ibsim_cmd 'Unlink "HostA"[1]' 'sim>'
wait_for 10 sh -c "cd '$RUN' && SIM_HOST=HostA LD_PRELOAD='$FAB_PRELOAD' '$FABTOP' show fabric --json | jq -s -e 'length == 1 and .[0].fabric.local_ports[0].state == \"DOWN\"'" || true
run_rc fab HostA show fabric --json
J="$T/out"
assert_eq "local port down: state" "DOWN" "$(lp .state)"
assert_eq "local port down: no partner" "null" "$(lp .partner)"
assert_match "local port down: the note says why" "link is not up" "$(lp .note)"
assert_eq "local port down: still exit 0 (the port answered)" 0 "$rc"

# ---- a switch as the local device: port 0 is its management port, no cable ----
run_rc fab SwA show fabric --json
sw() { jq -c "$1" "$T/out"; }
assert_eq "attached to a switch: its one local port is port 0" 0 "$(sw '.fabric.local_ports[0].port')"
assert_eq "port 0 is the management port" true "$(sw '.fabric.local_ports[0].management_port')"
assert_eq "port 0 has no partner (not the switch itself)" null "$(sw '.fabric.local_ports[0].partner')"
# (hosta's port 1 was taken down above: the fabric is the other four nodes)
assert_eq "the sweep still finds the fabric from the switch" 4 "$(sw '.fabric.nodes | length')"
run_rc fab SwA show fabric
assert_match "the report says why there is no partner" \
	"partner: none: port 0 is the switch's management port, no cable" "$(cat "$T/out")"
assert_match "the switch's cables are in the sweep" '3 ==\( 4X QDR .*"spine-b" port 3' "$(cat "$T/out")"

# ---- a larger fabric, and the bounds of a sweep ----
stop_pid "$PINGD_PID"
stop_pid "$OSM_PID"
stop_pid "$IBSIM_PID"
exec 7>&-
rm -f "$T/ibsim.console" "$T/ibsim.log"
export IBSIM_SOCKNAME="fabtop$$b"
ibsim_start "$DATA/ibsim/fat-tree.net"
rm -rf "$T/osm"
opensm_start h1
port_active h0
run_rc fab_helper h0 "$SAMPLE" sweep 4096
diag "fat tree: $(cat "$T/out")"
assert_match "fat tree: 44 nodes, 65 links, nothing truncated" \
	'^nodes=44 links=65 truncated_nodes=0 truncated_time=0' "$(cat "$T/out")"
run_rc fab_helper h0 "$SAMPLE" sweep 10
assert_match "node limit: stops at 10 and says so" '^nodes=10 .*truncated_nodes=1' "$(cat "$T/out")"
run_rc fab_helper h0 "$SAMPLE" sweep 4096 1
diag "1 ms time limit: $(cat "$T/out")"
assert_match "time limit: a 1 ms sweep stops early and says so" 'truncated_time=1' "$(cat "$T/out")"
run_rc fab h0 show fabric --json
assert_eq "fat tree via show fabric: 44 nodes" 44 "$(jq '.fabric.nodes | length' "$T/out")"
assert_eq "h0's two ports: leaf0 and leaf1" "leaf0 leaf1" \
	"$(jq -r '[.fabric.links[] | select(.from_desc == "h0 mlx5_0" or .to_desc == "h0 mlx5_0") | if .from_desc == "h0 mlx5_0" then .to_desc else .from_desc end] | sort | join(" ")' "$T/out")"

done_testing
