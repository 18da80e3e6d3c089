#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# R in the monitor records what is shown; --replay shows the same screens.
# The live demo monitor records a few seconds and is paused; its panes are
# captured; the recording is played to its end in a second monitor and the
# same panes must be the same, line for line, under the title (the replay's terminal is one line taller: its time bar takes one).
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"

TUI_CWD=$T
panes="1 2 3 4 5"

# R: a recording of what is on screen from now on, in the working directory.
tui_start 130 40 -- --demo --seed 7 --interval 0.2
tui_expect "the live demo monitor starts" "mlx5_0"
tui_keys R
tui_expect "R starts recording, the header says REC" "| REC "
r=$(ls "$T"/fabtop-*.ftrec 2>/dev/null | head -n 1)
if [ -n "$r" ]; then ok "into fabtop-HOST-TIME.ftrec in the working directory ($(basename "$r"))"; else not_ok "a recording file in the working directory"; fi
sleep 1
tui_keys R
tui_expect "R again stops, and says what it wrote" "recorded "
tui_quit
run_rc "$FABTOP" show ports --replay "$r"
assert_eq "that recording reads" 0 "$rc"

# --record: from the first sample, so the graphs' history is the same too.
f=$T/live.ftrec
tui_start 130 40 -- --demo --seed 7 --interval 0.2 --record "$f"
tui_expect "the monitor records from the start" "| REC "
sleep 2
tui_keys p
tui_expect "paused" "PAUSED"
sleep 0.3
# Under the title: the tabs, the pane, the function bar without its transient message.
body() { tui_screen | sed -n '2,$p' | sed 's/  *[a-z][a-z :]*$//' >"$1"; }
for p in $panes; do
	tui_keys "$p"
	sleep 0.3
	body "$T/live$p"
done
tui_quit

tui_start 130 41 -- --replay "$f"
tui_expect "the recording opens in the monitor with a time bar" "REPLAY "
tui_expect "it plays to its end" " end " 30
tui_keys p
tui_expect "paused at the end" "PAUSED 20"
sleep 0.3
for p in $panes; do
	tui_keys "$p"
	sleep 0.3
	# the replay's second line is its time bar: the rest moves up by one
	tui_screen | sed -n '3,$p' | sed 's/  *[a-z][a-z :]*$//' >"$T/replay$p"
	assert_file_eq "pane $p of the replay is the live pane $p" "$T/live$p" "$T/replay$p"
done
tui_expect "the header says it is a recording" " RECORDED "

# Moving: one sample back, then a jump to the start and a go-to.
# The time bar says " #N/M ": < must make it N-1.
tui_screen >"$T/screen"
at=$(sed -n 's/.* #\([0-9]*\)\/\([0-9]*\) .*/\1 \2/p' "$T/screen" | head -n 1)
if [ -n "$at" ]; then
	# shellcheck disable=SC2086 # N and M
	set -- $at
	tui_expect_after "< steps one sample back (#$1 to #$(($1 - 1)))" " #$(($1 - 1))/$2 " 10 tui_keys '<'
else
	not_ok "< steps one sample back: no sample number in the time bar"; diag "$(cat "$T/screen")"
fi
tui_expect "... and stays paused" "PAUSED"
tui_keys g
tui_expect "g asks for a time" "Go to:"
tui_keys '#' 0 Enter
tui_expect "g #0 goes to the first sample" " #0/"
tui_keys ']'
tui_expect_gone "] jumps a minute on (past the end of a short recording: to the end)" " #0/"
tui_keys g
tui_keys '#' 0 Enter
tui_expect "back to the first sample" " #0/"
tui_keys n
tui_expect_gone "n goes to the next sample with events (the demo's error bursts)" " #0/"
tui_keys 7
tui_expect "the Events pane shows the recorded events up to there" "error-burst"
tui_keys 6
tui_expect "the Probe pane says a recording cannot probe" "This is a recording"
tui_quit

# A probe run is recorded as the Probe pane shows it, and replayed read-only.
# Without RDMA here the run fails at once, which the pane says in full.
pf=$T/probe.ftrec
tui_start 130 40 -- --sysfs "$DATA/trees/roce" --interval 0.2 --record "$pf" --pane probe
tui_expect "a live monitor records" "| REC "
sleep 0.5
tui_keys e
tui send-keys -t fab -l 127.0.0.1
tui_keys Enter g
tui_expect "the probe runs from the pane, and fails here (no RDMA)" "state failed"
sleep 0.5
tui_screen | sed -n '/^state /,$p' | sed '/^ *$/d' >"$T/probe-live"
tui_quit
tui_start 130 41 -- --replay "$pf" --pane probe
tui_expect "the probe's recording replays" "REPLAY "
# Played to its end first: the go-to must be what brings back the time
# before the run. g starts a probe in the Probe pane: the Ports pane takes
# the go-to.
tui_expect "played to its end, with the recorded run" "Recorded probe run 1: rping to 127.0.0.1" 30
tui_keys p
tui_expect_after "at the first sample, before the probe ran" "No probe was recorded up to this point." 10 \
	tui_keys 1 g '#' 0 Enter 6
tui_keys 1 g e n d Enter 6
tui_expect "at the end: the recorded run" "Recorded probe run 1: rping to 127.0.0.1"
sleep 0.3
tui_screen | sed -n '/^state /,$p' | sed '/^ *$/d' | sed '$d' >"$T/probe-replay"
sed -i '$d' "$T/probe-live"
assert_file_eq "the replayed run (state, error, CM events) is the live pane's" "$T/probe-live" "$T/probe-replay"
tui_keys Enter
tui_expect "starting a probe in a replay is still refused" "this is a recording: the probe needs the live host"
tui_quit
done_testing
