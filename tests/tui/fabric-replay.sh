#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Fabric pane recorded and replayed (small-tree.net on ibsim under
# opensm): R in the live pane, paused, then the replay of that recording at
# its end shows the same rows; `fabtop record` captures the subnet too, and
# the replay's details have the link's history and the switch's ports; the
# node view (v) of the replay equals the live one.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/tui/lib.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"

why=
command -v ibsim >/dev/null 2>&1 || why="ibsim not installed (Debian: ibsim-utils)"
command -v opensm >/dev/null 2>&1 || why="${why:-opensm not installed}"
[ -n "$UMAD2SIM" ] || why="${why:-libumad2sim.so not found (Debian: ibsim-utils)}"
[ -x "$TOP_BUILDDIR/tests/mad/mad_sample" ] || why="${why:-tests/mad/mad_sample not built}"
[ -z "$why" ] || skip_all "the Fabric pane's replay on ibsim: $why"

ibsim_start "$DATA/ibsim/small-tree.net"
opensm_start h11
for h in h12 h21 h22 h31 h32; do port_active "$h"; done
sysfs_hold h11
cat >"$T/mon.sh" <<EOS
#!/bin/sh
cd "$RUN" || exit 1
SIM_HOST=h11 LD_PRELOAD="$FAB_PRELOAD" exec "\$@"
EOS
chmod +x "$T/mon.sh"

# The node view's rows: a node's name, then its GUID.
nrows() { sed -n '4,$p' "$T/screen" | grep -E '(h[0-9]+ mlx5_0|leaf [0-9]|spine [0-9]) +[0-9a-f]{4}:' || :; }
# The table's rows: the lines naming a port of the tree, with every column.
rows() { grep -E '^[A-Z,a-z]+ +(h[0-9]+ mlx5_0|leaf [0-9]|spine [0-9])/[0-9]' "$T/screen" || :; }

# ---- R in the live pane, then the replay at the recording's end ----
ibsim_cmd 'PerformanceSet "L2"[1] PortCounters.SymbolErrorCounter=3' "SymbolErrorCounter has been set to 3"
TUI_WRAP="$T/mon.sh" tui_start 160 45 -- --sysfs "$HOLD_SYS" --pane fabric --interval 0.5
tui_expect_re "live: rates come with the second PMA round" '4X QDR +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}' 30
tui_keys R
tui_expect_re "R records what is shown" 'REC [0-9]+:[0-9]{2}' 10
ibsim_cmd 'PerformanceSet "L2"[1] PortCounters.SymbolErrorCounter=8' "SymbolErrorCounter has been set to 8"
tui_expect_re "errors set while recording land on leaf 2's link to h21" '^ERR .*leaf 2/1|^ERR .*h21 mlx5_0/1' 10
sleep 2
tui_keys p
sleep 1.5
tui_screen >"$T/screen"
rows >"$T/live.rows"
tui_keys v
tui_wait "nodes: a row per switch" 5 || :
sleep 0.5
tui_screen >"$T/screen"
nrows >"$T/live.nrows"
tui_keys v
tui_wait "links: a row per cable" 5 || :
tui_keys R
tui_expect_re "R again stops the recording" 'recorded [0-9]+ samples' 10
tui_quit >/dev/null || :
FILE=$(ls "$RUN"/fabtop-*.ftrec 2>/dev/null | head -n 1)
check "the recording is in the working directory" test -s "$FILE"
assert_eq "the live pane had 12 links" 12 "$(wc -l <"$T/live.rows")"

TUI_WRAP="$T/mon.sh" tui_start 160 45 -- --replay "$FILE" --at end --pane fabric
tui_expect_re "replay: the recorded rows appear" 'leaf 2/1|h21 mlx5_0/1' 15
sleep 1
tui_screen >"$T/screen"
rows >"$T/replay.rows"
if cmp -s "$T/live.rows" "$T/replay.rows"; then
	ok "the replay at the end equals the live pane when it stopped, row for row"
else
	not_ok "the replay at the end equals the live pane when it stopped, row for row"
	diag "live:" "$(cat "$T/live.rows")" "replay:" "$(cat "$T/replay.rows")"
fi
tui_keys v
tui_expect "replay: v shows the nodes" "nodes: a row per switch" 5
sleep 0.5
tui_screen >"$T/screen"
nrows >"$T/replay.nrows"
assert_eq "the live pane had 11 nodes" 11 "$(wc -l <"$T/live.nrows")"
if cmp -s "$T/live.nrows" "$T/replay.nrows"; then
	ok "the replay's node view equals the live one, row for row"
else
	not_ok "the replay's node view equals the live one, row for row"
	diag "live:" "$(cat "$T/live.nrows")" "replay:" "$(cat "$T/replay.nrows")"
fi
tui_keys v
tui_expect "v again: the links" "links: a row per cable" 5
tui_keys /
tui_keys -l 'h21'
tui_keys Enter Home Enter
tui_expect_re "replay details: the symbol errors of leaf 2 port 1" 'symbol_error +8 ' 10
tui_keys End
tui_expect "replay details: leaf 2's ports" "leaf 2: its 8 ports" 5
tui_expect_re "replay details: the link's history, from the recorded rounds" 'History, the last [0-9]+ interval' 5
tui_keys Escape Escape
tui_quit >/dev/null || :
assert_match "the replay exits cleanly" "FABTOP-EXIT=0" "$(cat "$T/screen")"

# ---- fabtop record --fabric captures the subnet ----
run_rc fab h11 --sysfs "$HOLD_SYS" --interval 0.5 record "$T/rec.ftrec" --count 8 --fabric
assert_eq "fabtop record exits 0" 0 "$rc"
[ "$rc" = 0 ] || diag "its stderr:" "$(cat "$T/err")"
TUI_WRAP="$T/mon.sh" tui_start 160 45 -- --replay "$T/rec.ftrec" --at end --pane fabric
tui_expect_re "a replay of fabtop record: the 1X uplink flagged SLOW" \
	'^SLOW .*(leaf 3/3 .*spine 1/3|spine 1/3 .*leaf 3/3) .*1X QDR' 15
tui_screen >"$T/screen"
assert_eq "... 12 links" 12 "$(rows | wc -l)"
tui_quit >/dev/null || :

# ---- a recording without a subnet says why ----
run_rc "$FABTOP" --demo --interval 0.2 record "$T/demo.ftrec" --count 3
assert_eq "a demo recording (no subnet to sweep) exits 0" 0 "$rc"
tui_start 160 40 -- --replay "$T/demo.ftrec" --pane fabric
tui_expect "its replay's Fabric pane says there is no subnet in it" "No fabric view: the recording holds no subnet here" 10
tui_quit >/dev/null || :
done_testing
