#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Fabric pane on the ibsim simulator (small-tree.net under opensm): one
# row per link with both ends named, the 1X uplink flagged first, errors set
# through the ibsim console on the right link, filter, sort, details of both
# ends, a cable unlinked shown as down; without MAD access (a fixture tree,
# the demo) it says why. The node view (v): a row per node, its ports up,
# rates and trouble; Enter on a switch lists its ports, the 1X uplink flagged.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/tui/lib.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"

# ---- no subnet to ask ----
tui_start 160 40 -- --sysfs "$DATA/trees/ib-2port" --pane fabric
tui_expect "no MAD access: the Fabric pane says why" "No fabric view: MAD queries need the live system"
tui_keys F1
tui_expect "the help says what Enter on a link shows" "Fabric pane  v links / nodes; Enter a link: both ends' counters, its last 20 intervals"
tui_keys End
tui_expect "... and what XMITWAIT is" "XMITWAIT     Fabric: PortXmitWait as % of the interval, or ticks/s"
tui_expect "... and what a node's PORTS are" "PORTS        Fabric nodes (v): ports LinkUp of the ports that answered"
tui_keys Escape
tui_quit >/dev/null || :
assert_match "... and exits cleanly" "FABTOP-EXIT=0" "$(cat "$T/screen")"
tui_start 160 40 -- --demo --pane fabric
tui_expect "the demo: no subnet to sweep, said so" "No fabric view: the demo fabric is simulated"
tui_quit >/dev/null || :

why=
command -v ibsim >/dev/null 2>&1 || why="ibsim not installed (Debian: ibsim-utils)"
command -v opensm >/dev/null 2>&1 || why="${why:-opensm not installed}"
[ -n "$UMAD2SIM" ] || why="${why:-libumad2sim.so not found (Debian: ibsim-utils)}"
[ -x "$TOP_BUILDDIR/tests/mad/mad_sample" ] || why="${why:-tests/mad/mad_sample not built}"
if [ -n "$why" ]; then
	skip "the Fabric pane on ibsim: $why"
	done_testing
	exit 0
fi

ibsim_start "$DATA/ibsim/small-tree.net"
opensm_start h11
for h in h12 h21 h22 h31 h32; do port_active "$h"; done
sysfs_hold h11
cat >"$T/mon.sh" <<EOF
#!/bin/sh
cd "$RUN" || exit 1
SIM_HOST=h11 LD_PRELOAD="$FAB_PRELOAD" exec "\$@"
EOF
chmod +x "$T/mon.sh"

# The table's rows: the lines below the header naming a port of the tree.
rows() { sed -n '4,$p' "$T/screen" | grep -E '(h[0-9]+ mlx5_0|leaf [0-9]|spine [0-9])/[0-9]' || :; }

TUI_WRAP="$T/mon.sh" tui_start 160 45 -- --sysfs "$HOLD_SYS" --pane fabric --interval 0.5
tui_expect_re "rows appear: a host's cable, both ends named with their LIDs" \
	'h22 mlx5_0/1 +[0-9]+ |leaf 2/2 +[0-9]+ h22 mlx5_0/1' 30
tui_expect_re "rates come with the second PMA round" '4X QDR +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}' 15
assert_eq "12 links, one row each" 12 "$(rows | wc -l)"
first=$(rows | head -n 1)
assert_match "trouble first: the 1X uplink between leaf 3 and spine 1 is flagged SLOW" \
	'^SLOW .*(leaf 3/3 .*spine 1/3|spine 1/3 .*leaf 3/3) .*1X QDR .*1X, both ends do 4X' "$first"
assert_eq "... and no other link is" 1 "$(rows | grep -c SLOW)"
assert_eq "the others are ok" 11 "$(rows | grep -c '^ok ')"

# ---- errors set through the console land on the right link, both ends named ----
ibsim_cmd 'PerformanceSet "L2"[1] PortCounters.SymbolErrorCounter=5' "SymbolErrorCounter has been set to 5"
tui_expect_re "symbol errors on leaf 2 port 1: its link to h21 is ERR, sorted first" \
	'^ERR .*(leaf 2/1 .*h21 mlx5_0/1|h21 mlx5_0/1 .*leaf 2/1) .* 5 .*\+5 errors' 10
assert_match "... the row above all others" 'leaf 2/1|h21 mlx5_0/1' "$(rows | head -n 1)"

# ---- the node view: v, a row per switch, CA or router ----
# Node rows: a node's name, then its GUID (no "/port").
nrows() { sed -n '4,$p' "$T/screen" | grep -E '(h[0-9]+ mlx5_0|leaf [0-9]|spine [0-9]) +[0-9a-f]{4}:' || :; }
tui_keys v
tui_expect "v: the node view" "nodes: a row per switch, CA or router" 5
tui_expect_re "... its columns" 'FLAGS.* NODE +GUID +LID +TYPE +PORTS +IN Gb/s +OUT Gb/s' 5
tui_wait_re ' spine 2 +[0-9a-f]{4}:' 5 || :
assert_eq "... 11 nodes, one row each" 11 "$(nrows | wc -l)"
assert_match "trouble first: leaf 2, its port 1's symbol errors" '^ERR +leaf 2 .* Switch +4/8 .* 5 .*\+5 errors' \
	"$(nrows | head -n 1)"
assert_match "a switch's counts: leaf 3, 4 of 8 ports up, its 1X uplink degraded" \
	'^SLOW +leaf 3 +[0-9a-f:]{19} +[0-9]+ +Switch +4/8 +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +0 .*1 degraded \(1X, both ends do 4X\)' \
	"$(nrows | grep 'leaf 3 ')"
assert_match "... and spine 1 at the other end" '^SLOW +spine 1 .*1 degraded' "$(nrows | grep 'spine 1 ')"
assert_eq "... the hosts are ok, their one port up" 6 "$(nrows | grep -Ec '^ok .*CA +1/1 ')"
tui_keys / s p i n e Enter
if tui_wait_gone "h22 mlx5_0" 5 && [ "$(nrows | wc -l)" -eq 2 ]; then
	ok "a filter by node name: the two spines"
else
	not_ok "a filter by node name: the two spines"; diag "$(cat "$T/screen")"
fi
tui_keys Escape / l e a f Space 3 Enter
tui_wait_gone "spine 2" 5 || :
assert_eq "... leaf 3 alone" 1 "$(nrows | wc -l)"
tui_keys Home Enter
tui_expect "Enter on a switch: its ports" "leaf 3: its 8 ports" 5
tui_expect_re "... port 3, the 1X uplink to spine 1, flagged degraded" \
	' 3 ACTIVE/LinkUp +1X QDR +spine 1/3 +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +0 +[^ ]+ +1X, both ends do 4X' 5
tui_expect_re "... port 4 at 4X to spine 2, not flagged" ' 4 ACTIVE/LinkUp +4X QDR +spine 2/3 +[0-9.]+ +[0-9.]+ +0 +[^ ]+ *$' 5
tui_expect_re "... port 1 to h31" ' 1 ACTIVE/LinkUp +4X QDR +h31 mlx5_0/1 ' 5
tui_expect_re "... an unused port down" ' 5 DOWN/Polling +- +- ' 5
tui_keys Escape Escape
tui_expect_gone "Esc clears the filter" "filter: leaf" 5
tui_keys s
tui_expect "s sorts the nodes by NODE, A to Z" "NODE^" 5
assert_match "... h11 first" '^[A-Za-z,]+ +h11 mlx5_0 ' "$(nrows | head -n 1)"
tui_keys W
tui_expect "W saves the settings" "settings saved to" 5
assert_match "... the node view's sort column by its own name" '^sort\.fabric=node,asc$' \
	"$(cat "$T/cfg/fabtop/fabtoprc" 2>/dev/null)"
tui_keys I
tui_expect "I inverts it" "NODEv" 5
assert_match "... spine 2 first" '^[A-Za-z,]+ +spine 2 ' "$(nrows | head -n 1)"
# back to the flags: s through the other nine columns
tui_keys s s s s s s s s s s
tui_expect "s through every column comes back to FLAGS" "FLAGSv" 5
tui_keys v
tui_expect "v again: the links" "links: a row per cable" 5
tui_expect_re "... their columns, trouble first" 'FLAGSv +END A +LID A +END B' 5

# ---- filter and sort ----
tui_keys / h 3 Enter
tui_expect "the filter is shown on the tab line" "filter: h3"
if tui_wait_gone "h22 mlx5_0" 5 && [ "$(rows | wc -l)" -eq 2 ]; then
	ok "the filter keeps h31's and h32's links only"
else
	not_ok "the filter keeps h31's and h32's links only"; diag "$(cat "$T/screen")"
fi
tui_keys Escape
tui_expect_re "Esc clears the filter" 'h22 mlx5_0/1' 5
tui_keys s
tui_expect "s sorts by END A, A to Z" "END A^"
assert_match "... h11's cable first" '^[A-Za-z,]+ +h11 mlx5_0/1 ' "$(rows | head -n 1)"
tui_keys I
tui_expect "I inverts it" "END Av"
assert_match "... a spine's cable first" '^[A-Za-z,]+ +spine 2/' "$(rows | head -n 1)"

# ---- Enter: both ends' counters ----
tui_keys Escape /
tui_keys -l 'h21'
tui_keys Enter
tui_expect_re "filtered to h21's link" 'h21 mlx5_0/1' 5
tui_keys Home Enter
tui_expect "details: leaf 2's end with its counters" "leaf 2 port 1  (Switch" 5
tui_expect "details: h21's end too" "h21 mlx5_0 port 1  (CA" 5
tui_expect_re "details: the symbol errors set on leaf 2 port 1" 'symbol_error +5 ' 5
tui_keys End
tui_expect_re "details end with the switch's ports: leaf 2's" 'leaf 2: its 8 ports' 5
tui_expect_re "... port 3 up at 4X to spine 1's port 2, with its rates" \
	' 3 ACTIVE/LinkUp +4X QDR +spine 1/2 +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +0 ' 5
tui_expect_re "... port 1 to h21 with the 5 symbol errors" \
	' 1 ACTIVE/LinkUp +4X QDR +h21 mlx5_0/1 +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +5 ' 5
tui_expect_re "... above them the link's history, a point per round" 'History, the last [0-9]+ intervals' 5
tui_expect_re "... a point: both ways' Gb/s, the errors, the xmit wait" \
	'^[^0-9]* +-?[0-9]+ +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+ +[0-9.]+%' 5
tui_keys Escape Escape

# ---- PortXmitWait: a share where the tick is known, else ticks/s and why ----
# No tick at all is 0% whatever a tick's length; ibsim's PMA answers no
# PortSamplesControl, so a port whose PortXmitWait moves shows ticks/s.
tui_expect_re "an idle link waits 0.0% of the interval" '4X QDR +[0-9.]+ +[0-9.]+ +[0-9]+ +0\.0% ' 5
(
	i=1
	while [ $i -le 160 ]; do
		echo "PerformanceSet \"L1\"[2] PortCounters.PortXmitWait=$((i * 1000000))" >&7 || exit 0
		i=$((i + 1)); sleep 0.25
	done
) &
WAITER=$!
cleanup_add "kill $WAITER 2>/dev/null"
tui_expect_re "leaf 1 port 2 waits: its link to h12 in ticks per second" \
	'(leaf 1/2 .*h12 mlx5_0/1|h12 mlx5_0/1 .*leaf 1/2) .* [0-9.]+M/s( |$)' 15
tui_keys /
tui_keys -l 'h12'
tui_keys Enter
tui_expect_re "filtered to h12's link" 'h12 mlx5_0/1' 5
tui_keys Home Enter
tui_expect "details: leaf 1's end says why there is no share" \
	"ticks/s, no share: the PMA did not answer PortSamplesControl" 10
tui_keys Escape Escape
kill $WAITER 2>/dev/null || :

# ---- a cable unlinked in the simulator ----
ibsim_cmd 'Unlink "L3"[1]' "sim>"
tui_expect_re "the unlinked cable (leaf 3 - h31) shows as DOWN" \
	'^DOWN .*(leaf 3/1 .*h31 mlx5_0/1|h31 mlx5_0/1 .*leaf 3/1)' 30
tui_quit >/dev/null || :
assert_match "a clean exit" "FABTOP-EXIT=0" "$(cat "$T/screen")"
done_testing
