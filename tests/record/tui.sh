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
tui_keys '<'
tui_expect "< steps one sample back" "PAUSED"
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
done_testing
