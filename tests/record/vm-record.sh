#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Real Soft-RoCE: the monitor records rxe0 in a VM while its netdev goes down
# and up; the recording holds the port's states; replayed here, on a host
# without RDMA, the monitor shows the same panes as the guest's live monitor.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/vm/lib.sh"
vm_require
. "$TOP_SRCDIR/tests/tui/lib.sh"
cp "$TOP_SRCDIR/tests/record/vm-record.guest" "$T/guest.sh"
cp "$TOP_SRCDIR/tests/vm/guest/lib.inc" "$T/"
vm_run record 300 "$T/guest.sh" "$FABTOP"
vm_tap "$T/record.out"
assert_eq "VM ran to the end" 0 "$vm_rc"
S="$T/run-record"
f="$S/vm.ftrec"
if [ -s "$f" ]; then ok "the guest's recording came out"; else not_ok "the guest's recording came out"; done_testing; exit; fi

tui_start 130 41 -- --replay "$f"
tui_expect "it replays here, where there is no RDMA" "REPLAY "
tui_expect "to its end" " end " 60
tui_keys p
tui_expect "paused" "PAUSED 20"
sleep 0.3
for p in 1 2 3 4 5; do
	tui_keys "$p"
	# the title (line 1) and the function bar's transient message aside
	sed 's/  *[a-z][a-z :]*$//' "$S/live$p" >"$T/live$p"
	# looked at again until it matches (a loaded host may draw late), 5 s at most
	n=0
	while :; do
		tui_screen | sed -n '3,$p' | sed 's/  *[a-z][a-z :]*$//' >"$T/replay$p"
		cmp -s "$T/live$p" "$T/replay$p" || [ $n -ge 25 ] && break
		sleep 0.2
		n=$((n + 1))
	done
	assert_file_eq "pane $p replayed on the host is the guest's live pane $p" "$T/live$p" "$T/replay$p"
done
# The Probe pane: the run as recorded (its choices above are the live pane's own).
tui_keys 6
tui_expect "the Probe pane shows the recorded run" "Recorded probe run 1: bw to 10.9.0.1"
sleep 0.3
run() { sed -n '/^state /,$p' "$1" | sed '/^ *$/d; /F1Help/d'; }
tui_screen | sed -n '3,$p' >"$T/replay6"
run "$S/live6" >"$T/live6.run"
run "$T/replay6" >"$T/replay6.run"
assert_file_eq "the recorded probe run (state, numbers, timeline, CM events) is the guest's live one" \
	"$T/live6.run" "$T/replay6.run"
pts=$(grep -c ' Gb/s\| Mb/s\| kb/s' "$T/replay6.run" || :)
check "the recorded timeline has points of the run ($pts lines with a rate)" test "$pts" -ge 3
tui_quit
done_testing
