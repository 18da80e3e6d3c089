#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What older kernels show (tests/data/trees/ib-oldkernel/README): IB ports
# whose whole 128-entry GID table is in sysfs, the unused entries reading
# the subnet prefix with a zero interface ID; and a class link that leads
# nowhere. The empty entries are in no report, pane or advice; the
# dangling link is warned about and counted as no device.
. "$TOP_SRCDIR/tests/setup.sh"

tree=$DATA/trees/ib-oldkernel
exp=$DATA/trees/ib-oldkernel

run_rc "$FABTOP" show all --sysfs "$tree"
assert_eq "show all exits 0" 0 "$rc"
assert_file_eq "text report" "$exp.expected.txt" "$T/out"
assert_file_eq "no warnings" "$exp.expected.err" "$T/err"
run_rc "$FABTOP" show all --json --sysfs "$tree"
jq -S . "$T/out" >"$T/out.json"
assert_file_eq "JSON report" "$exp.expected.json" "$T/out.json"
assert_eq "show gids: the one GID of each port, of 128 entries" \
	'[[1,0,"fe80:0000:0000:0000:0002:c903:0031:78f1"],[2,0,"fe80:0000:0000:0000:0002:c903:0031:78f2"]]' \
	"$("$FABTOP" show gids --json --sysfs "$tree" | jq -c '[.gids[] | [.port,.index,.gid]]')"
n=$("$FABTOP" show gids --sysfs "$tree" | grep -c '0000:0000:0000:0000:0000' || :)
assert_eq "show gids text: no fe80::0 entry" 0 "$n"

# The advisor, text and JSON.
run_rc "$FABTOP" show gids --for ib0 --sysfs "$tree"
assert_file_eq "show gids --for ib0" "$exp.expected-for-ib0.txt" "$T/out"
run_rc "$FABTOP" show gids --for ib0 --json --sysfs "$tree"
jq -S . "$T/out" >"$T/out.json"
assert_file_eq "show gids --for ib0 --json" "$exp.expected-for-ib0.json" "$T/out.json"

# A recording made on this tree by a fabtop that kept the empty entries (all
# 256 of them are in it): replayed, they are left out as the collector leaves them.
assert_eq "a recording holding the empty entries replays without them" \
	'[[1,0],[2,0]]' \
	"$("$FABTOP" show gids --json --replay "$DATA/record/oldkernel-all-gids.ftrec" 2>/dev/null | jq -c '[.gids[] | [.port,.index]]')"

# A dangling class link (made here: make dist cannot ship one).
cp -R "$tree" "$T/t"
chmod -R u+w "$T/t"
ln -s ../../devices/pci0000:00/0000:00:03.0/0000:04:00.0/infiniband/mlx4_1 "$T/t/class/infiniband/mlx4_1"
run_rc "$FABTOP" show all --sysfs "$T/t"
assert_eq "dangling link: show all exits 0" 0 "$rc"
assert_file_eq "dangling link: the same text report" "$exp.expected.txt" "$T/out"
assert_file_eq "dangling link: one warning" "$exp-dangling.expected.err" "$T/err"
run_rc "$FABTOP" show all --json --sysfs "$T/t"
jq -S . "$T/out" >"$T/out.json"
assert_file_eq "dangling link: the same JSON report" "$exp.expected.json" "$T/out.json"
run_rc "$FABTOP" show gids --for ib0 --sysfs "$T/t"
assert_file_eq "dangling link: the same advice" "$exp.expected-for-ib0.txt" "$T/out"
run_rc "$FABTOP" doctor --sysfs "$T/t" --json
n=$(jq '[.. | strings | select(test("mlx4_1"))] | length' "$T/out" 2>/dev/null || echo parse-error)
assert_eq "dangling link: the doctor names no mlx4_1" 0 "$n"

# The monitor: its GIDs pane and its header (tmux).
if command -v tmux >/dev/null 2>&1; then
	. "$TOP_SRCDIR/tests/tui/lib.sh"
	tui_start 140 30 -- --sysfs "$T/t" --pane gids
	tui_expect "GIDs pane: port 1's GID" "fe80:0000:0000:0000:0002:c903:0031:78f1"
	tui_expect "GIDs pane: port 2's GID" "fe80:0000:0000:0000:0002:c903:0031:78f2"
	tui_screen >"$T/pane"
	n=$(grep -c '0000:0000:0000:0000:0000' "$T/pane" || :)
	assert_eq "GIDs pane: no fe80::0 entry" 0 "$n"
	n=$(grep -c '^mlx4_' "$T/pane" || :)
	assert_eq "GIDs pane: two rows" 2 "$n"
	assert_match "header: 1 device" "\| 1 device," "$(head -n 1 "$T/pane")"
	tui_keys 1
	tui_expect "Ports pane" "PHYSICAL"
	tui_screen >"$T/pane"
	n=$(grep -c 'mlx4_1' "$T/pane" || :)
	assert_eq "Ports pane: no mlx4_1 row" 0 "$n"
	tui_quit >/dev/null || :
else
	skip "tmux not installed: the monitor's panes are not checked"
fi
done_testing
