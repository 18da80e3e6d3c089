#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Fabric pane on the 1,016-node fat tree (tests/mad/gen-fattree.sh: 48
# leaves x 20 hosts + 8 spines, 1,344 links) under ibsim, driven through
# tmux: the pane fills with a row per link, errors set on a port come first,
# sort, filter, Enter on a link; the node view (v) fills too, and Enter on a
# switch lists its ports.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/tui/lib.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
[ -x "$TOP_BUILDDIR/tests/mad/mad_sample" ] || skip_all "tests/mad/mad_sample not built"

sh "$TOP_SRCDIR/tests/mad/gen-fattree.sh" >"$T/big.net"
ibsim_start "$T/big.net"
opensm_start h0_0
port_active h0_1
# opensm makes ports ACTIVE last, the last host included
wait_for 120 _port_active h47_19 || { echo "$(basename "$0"): opensm never brought h47_19 up" >&2; exit 1; }
sysfs_hold h0_1
cat >"$T/mon.sh" <<EOS
#!/bin/sh
cd "$RUN" || exit 1
SIM_HOST=h0_1 LD_PRELOAD="$FAB_PRELOAD" exec "\$@"
EOS
chmod +x "$T/mon.sh"

# The table's rows: links (a node/port on each end) or nodes (a name, then its GUID).
rows() { sed -n '4,$p' "$T/screen" | grep -E '(h[0-9]+_[0-9]+|leaf[0-9]+|spine[0-9]+)/[0-9]+ ' || :; }
nrows() { sed -n '4,$p' "$T/screen" | grep -E '(h[0-9]+_[0-9]+|leaf[0-9]+|spine[0-9]+) +[0-9a-f]{4}:' || :; }

start=$(date +%s)
TUI_WRAP="$T/mon.sh" tui_start 180 50 -- --sysfs "$HOLD_SYS" --pane fabric --interval 1
tui_expect_re "rows appear: a host's cable to its leaf" 'h[0-9]+_[0-9]+/1 +[0-9]+ +leaf[0-9]+/[0-9]+ ' 30
diag "first rows after $(( $(date +%s) - start )) s"
# errors count from each port's first round of counters: set them once a spine's have come twice (its rates)
tui_wait_re 'spine0/[0-9]+ +[0-9]+ +leaf[0-9]+/21 +[0-9]+ +4X QDR +[0-9]+\.[0-9]{3} ' 20 || diag "no spine rates: $(cat "$T/screen")"
ibsim_cmd 'PerformanceSet "leaf3"[2] PortCounters.SymbolErrorCounter=5' "SymbolErrorCounter has been set to 5"
tui_expect_re "the symbol errors set on leaf3 port 2 come first, both ends named" \
	'^ERR .*(leaf3/2 .*h3_1/1|h3_1/1 .*leaf3/2) .* 5 .*\+5 errors' 20
tui_expect_re "... of 1,344 links (the row counter)" ' [0-9]+/1344$' 5
check "the pane fills: 40 rows or more of 1,344 links" test "$(rows | wc -l)" -ge 40
assert_match "... the first of them the link with errors" 'leaf3/2|h3_1/1' "$(rows | head -n 1)"

# ---- sort and filter ----
tui_keys s Home
tui_expect "s sorts by END A, A to Z" "END A^" 5
assert_match "... a host's cable first" '^[A-Za-z,]+ +h[0-9]+_[0-9]+/1 ' "$(rows | head -n 1)"
tui_keys I Home
tui_expect "I inverts it" "END Av" 5
assert_match "... a spine's cable first" '^[A-Za-z,]+ +spine[0-9]/' "$(rows | head -n 1)"
tui_keys I s s s s s s s s s s Home
tui_expect "s through every column comes back to FLAGS, trouble first" "FLAGSv" 5
tui_keys / l e a f 4 7 / Enter
tui_expect "the filter is shown on the tab line" "filter: leaf47/" 5
tui_wait_gone "leaf3/" 5 || :
n=$(rows | wc -l)
assert_eq "the filter keeps leaf47's 28 links (20 hosts, 8 spines)" 28 "$n"
assert_eq "... every one of them leaf47's" 28 "$(rows | grep -c 'leaf47/')"

# ---- Enter on a link: a spine uplink ----
tui_keys Escape / s p i n e 5 / 4 8 Enter
tui_wait_gone "h47_" 5 || :
assert_eq "filtered to one link: spine5/48" 1 "$(rows | wc -l)"
tui_keys Home Enter
tui_expect "Enter on a link: spine5's end with its counters" "spine5 port 48  (Switch" 10
tui_expect "... leaf47's end" "leaf47 port 26  (Switch" 5
tui_keys End
tui_expect_re "... and both switch ends' ports, the last one's last port" \
	' (28 ACTIVE/LinkUp +4X QDR +spine7/48|48 ACTIVE/LinkUp +4X QDR +leaf47/26) +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +0 ' 5
tui_keys Escape Escape

# ---- the node view: one row per node ----
tui_keys v
tui_expect "v: the node view" "nodes: a row per switch, CA or router" 5
tui_expect_re "... leaf3 first: its symbol errors" '^ERR +leaf3 +[0-9a-f:]{19} +[0-9]+ +Switch +28/28 .*\+5 errors' 10
check "... the pane fills with node rows: 40 or more" test "$(nrows | wc -l)" -ge 40
tui_expect_re "... of 1,016 nodes (the row counter)" ' [0-9]+/1016$' 5
tui_keys / s p i n e Enter
tui_wait_gone "h0_" 5 || :
assert_eq "a filter by node name: the 8 spines" 8 "$(nrows | wc -l)"
assert_eq "... each with its 48 ports up" 8 "$(nrows | grep -Ec ' Switch +48/48 ')"
tui_keys Escape / l e a f 4 7 Enter
tui_wait_gone "spine" 5 || :
assert_eq "... leaf47 alone" 1 "$(nrows | wc -l)"
tui_keys Home Enter
tui_expect "Enter on a switch: its ports" "leaf47: its 28 ports" 10
tui_expect_re "... port 1 to h47_0" ' 1 ACTIVE/LinkUp +4X QDR +h47_0/1 +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +0 ' 5
tui_keys End
tui_expect_re "... port 28 to spine7" ' 28 ACTIVE/LinkUp +4X QDR +spine7/48 ' 5
tui_keys Escape Escape
# Leaving after this much MAD traffic: every MAD sent is answered before the
# umad ports close (mad_session_close()); umad2sim's reader thread used to
# crash on the late answers (a core: pthread_mutex_lock on a NULL port in
# libumad2sim.so, while fabtop freed its tables): 11 of 31 runs exited 139
# or not at all.
tui_keys q
if ! tui_wait "FABTOP-EXIT=" 30 && _pid=$(tui_app_pid) && command -v gdb >/dev/null 2>&1; then
	diag "fabtop (pid $_pid) has not left after 30 s; where its threads are:" \
		"$(gdb -p "$_pid" -batch -ex 'thread apply all bt' 2>&1 | grep -E '^(Thread|#)' | head -60)"
fi
assert_eq "q leaves the monitor cleanly, after all this traffic" "FABTOP-EXIT=0" \
	"$(grep -o 'FABTOP-EXIT=[0-9]*' "$T/screen" || echo "no exit within 30 s")"
diag "$(( $(date +%s) - start )) s in the pane"
done_testing
