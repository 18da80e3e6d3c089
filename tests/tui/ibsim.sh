#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The monitor on the ibsim fabric simulator: the Counters pane shows the far
# end of the cable (switch, port, LID) with its PMA rates and error deltas,
# an INIT port is explained from the SM side, a link taken down shows; and
# without MAD access the monitor runs as before and says why, once.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/tui/lib.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"

# ---- without MAD access: a fixture tree is not what libibumad sees ----
tui_start 160 40 -- --sysfs "$DATA/trees/ib-2port" --pane counters
tui_expect "no MAD access: the monitor runs, the counters are there" "link_downed"
tui_expect "no MAD access: the far end says why" "far end: unknown"
tui_expect "... the reason names what is missing" "MAD queries need the live system"
tui_keys 1
tui_expect "no MAD access: the Ports pane works as before" "NO-SM"
tui_keys Enter
tui_expect "no MAD access: the port details say why there is no SM view" "SM view: MAD queries need"
tui_keys Escape
tui_quit >/dev/null || :
tui_expect_exit "no MAD access: a clean exit" 0
tui_start 160 40 -- --sysfs "$DATA/trees/ib-2port" --pane counters --counters pma
tui_expect "--counters pma without MAD access: the status line says sysfs is read" "--counters pma, counters from sysfs"
tui_quit >/dev/null || :

# The rest needs the simulator; without it, say so (the part above still counts).
why=
command -v ibsim >/dev/null 2>&1 || why="ibsim not installed (Debian: ibsim-utils)"
command -v opensm >/dev/null 2>&1 || why="${why:-opensm not installed}"
[ -n "$UMAD2SIM" ] || why="${why:-libumad2sim.so not found (Debian: ibsim-utils)}"
[ -x "$TOP_BUILDDIR/tests/mad/mad_sample" ] || why="${why:-tests/mad/mad_sample not built}"
if [ -n "$why" ]; then
	skip "the monitor on ibsim: $why"
	done_testing
	exit 0
fi

# ---- the monitor attached to hosta, sysfs from umad2sim's tree ----
ibsim_start "$DATA/ibsim/two-switch.net"
sysfs_hold HostA
cat >"$T/mon.sh" <<EOF
#!/bin/sh
cd "$RUN" || exit 1
SIM_HOST=HostA LD_PRELOAD="$FAB_PRELOAD" exec "\$@"
EOF
chmod +x "$T/mon.sh"


TUI_WRAP="$T/mon.sh" tui_start 160 45 -- --sysfs "$HOLD_SYS" --pane counters --interval 0.5
tui_expect_re "the simulated HCA is listed from the umad2sim tree" "ibsim0" 20
# Before any SM: the partner is found by directed route, the INIT port explained.
tui_expect "far end found by directed route before any SM" 'far end: Switch "spine-a" port 1' 20
tui_expect "the INIT port is explained (no SM)" "no subnet manager has configured it" 10
tui_keys 1
tui_keys Enter
tui_expect "Ports details: no SM answered, from the MADs" "SM LID 0 - no SM answered" 10
tui_keys Escape 2

opensm_start SmHost
port_active HostA
SWA_LID=$(sim HostA smpquery -D portinfo 0,1 0 | sed -n 's/^Lid:\.*\([0-9]*\)/\1/p')
SM_LID=$(sim HostA ibstat | sed -n 's/.*SM lid: \([0-9]*\)/\1/p')
diag "spine-a LID $SWA_LID, SM LID $SM_LID"
# Re-queried every 5 s: the LID the SM assigned, and the partner's PMA.
tui_expect "after the SM: the far end's LID" "port 1, LID $SWA_LID  ACTIVE/LinkUp 4X QDR" 20
tui_expect_re "the far end's PMA answers (a rate, not n/a)" "far end \\(PMA LID $SWA_LID\\) +in +[0-9.]+ [kMG]?b/s" 20
tui_expect_re "the near end's PMA too" "near end ibsim0/1 \\(PMA LID [1-9][0-9]*\\) +in +[0-9.]+ [kMG]?b/s" 20
tui_expect "the table's FAR END column names the partner" "spine-a/1" 5
tui_expect "the SM is MASTER" "SM: LID $SM_LID, MASTER" 10
# --counters auto (the default): the local row's counters are the PMA's, not counters/ files.
tui_keys Enter
tui_expect_re "the local port's counters come from its PMA (--counters auto)" "port_xmit_data +pma +64" 10
tui_keys Escape

# An error counter on the switch side, changed through the ibsim console.
ibsim_cmd 'PerformanceSet "SwA"[1] PortCounters.SymbolErrorCounter=17' "SymbolErrorCounter has been set to 17"
tui_expect "the switch side's error shows as a delta" "errors/int 17: symbol_error +17" 10
tui_expect "... and since start" "far end errors since start: 17" 10
tui_keys r
tui_expect "r resets the far end's deltas too" "far end errors since start: 0" 5

# Sizes: the far-end block gives way on small screens, nothing breaks.
for sz in "40 12" "20 5" "80 24" "220 60" "160 45"; do
	tui_resize $sz
done
tui_expect "resized down and back: the far end is shown again" "far end (PMA LID $SWA_LID)" 5

# Traffic on the switch side: +250M words (1e9 bytes) within one interval.
PQ=$(sim HostA perfquery -x "$SWA_LID" 1 | sed -n 's/^PortXmitData:\.*\([0-9]*\)/\1/p')
ibsim_cmd "PerformanceSet \"SwA\"[1] PortCountersExtended.PortXmitData=$((PQ + 250000000))" \
	"PortXmitData has been set to $((PQ + 250000000))"
tui_expect_re "the switch side's traffic shows as Gb/s out" "far end \\(PMA LID $SWA_LID\\) .* out +[0-9.]+ Gb/s" 10
diag "$(grep -E 'far end \(PMA' "$T/screen")"
tui_expect "the far end's history graph is drawn" "far end history" 3
# A 64-bit data counter latched at all-ones: "saturated", never a number.
ibsim_cmd 'PerformanceSet "SwA"[1] PortCountersExtended.PortXmitData=18446744073709551615' \
	"PortXmitData has been set to 18446744073709551615"
tui_expect_re "a saturated counter on the far end shows as saturated" "far end \\(PMA LID $SWA_LID\\) .* out +saturated" 10
diag "$(grep -A4 -- '- far end:' "$T/screen")"

# A frozen fabric (the simulator stopped): MADs time out at their deadlines,
# the monitor keeps answering keys at once, and says the far end is silent.
kill -STOP "$IBSIM_PID"
cleanup_add "kill -CONT $IBSIM_PID 2>/dev/null"
t0=$(date +%s)
tui_keys 1
tui_expect "frozen fabric: the Ports pane opens at once" "PHYSICAL" 3
tui_keys 2
tui_expect "frozen fabric: back to Counters at once" "far end (PMA LID $SWA_LID)" 3
check "frozen fabric: keys answered within 3 s" test $(( $(date +%s) - t0 )) -le 3
tui_expect_re "frozen fabric: the far end's counters time out, shown as unknown" \
	"far end \\(PMA LID $SWA_LID\\) +(in +n/a|PMA timeout)" 20
kill -CONT "$IBSIM_PID"
tui_expect_re "the fabric back: the far end's rates again" "far end \\(PMA LID $SWA_LID\\) +in +[0-9.]+ [kMG]?b/s" 20

# The cable taken down: the next re-query says so. The partner is in the
# table's FAR END column before the cable goes, and must go with it (the
# column header stays: waiting for it would prove nothing).
tui_expect_gone_after "a link taken down: the table's partner goes" "spine-a/1" 15 \
	ibsim_cmd 'Unlink "HostA"[1]' 'sim>'
tui_expect "... and the far end says so" "far end: none, link DOWN" 15
tui_expect "... with the reason" "the link is not up" 5

# The SM gone and the cable back: INIT with LinkUp, and the port still names
# the old SM LID; the Ports details say so from the MADs.
stop_pid "$OSM_PID"
ibsim_cmd 'ReLink "HostA"[1]' 'sim>'
tui_expect "cable back without SM: the partner again" 'far end: Switch "spine-a" port 1' 15
tui_expect "... and the port is explained (INIT, still naming the gone SM's LID)" "naming SM LID $SM_LID: that subnet manager has not made it ACTIVE" 10
tui_keys 1
tui_keys Enter
tui_expect "Ports details: the old SM LID has not configured it" "still names SM LID $SM_LID" 10
tui_keys Escape

tui_quit >/dev/null || :
tui_expect_exit "ibsim: a clean exit" 0

done_testing
