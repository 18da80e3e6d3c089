#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The monitor's edges of habit: --device/--port start the panes of ports
# filtered as '/' would (Esc clears it), a device that is not there is said
# before the terminal is taken, and a terminal that cannot move the cursor
# (TERM=dumb, unknown, unset) gets `show all` and the reason.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"

tui_start 120 30 -- --demo --seed 1 --device mlx5_0 --port 2
tui_expect "--device --port: the filter line shows it" "filter: mlx5_0/2"
tui_expect_re "... the port asked for is shown" '^mlx5_0 +2 +ACTIVE'
assert_eq "... and no other port" "" "$(grep -E '^(mlx5_0 +1|mlx5_1|cxgb4_0) ' "$T/screen" || :)"
tui_keys 3
tui_expect_re "... the GIDs pane too" '^mlx5_0 +2 +[0-9]+ '
assert_eq "... with no other port's GIDs" "" "$(grep -E '^(mlx5_0 +1|mlx5_1|cxgb4_0) ' "$T/screen" || :)"
tui_keys 1
tui_wait "filter: mlx5_0/2" || :
tui_expect_gone_after "Esc clears it, as a typed filter" "filter: mlx5_0/2" 10 tui_keys Escape
tui_expect_re "... and every port is back" '^cxgb4_0 +1 '
tui_quit

tui_start 120 30 -- --demo --seed 1 --device mlx5_1
tui_expect "--device alone: every port of the device" "filter: mlx5_1/"
tui_expect_re "... mlx5_1's port" '^mlx5_1 +1 +ACTIVE'
assert_eq "... and no other device's" "" "$(grep -E '^(mlx5_0|cxgb4_0) ' "$T/screen" || :)"
tui_quit

tui_start 120 30 -- --demo --seed 1 --device mlx5_9
tui_expect_exit "an unknown device: exit 1" 1
assert_match "... naming the devices there are" "no RDMA device 'mlx5_9' \(devices: mlx5_0, mlx5_1, cxgb4_0\)" "$(cat "$T/screen")"
tui_start 120 30 -- --demo --seed 1 --device mlx5_0 --port 7
tui_expect_exit "an unknown port: exit 1" 1
assert_match "... naming the ports there are" "mlx5_0 has no port 7 \(ports: 1, 2\)" "$(cat "$T/screen")"
tui_start 120 30 -- --demo --port 1
tui_expect_exit "--port without --device: exit 2" 2

# A terminal that cannot address the cursor: the report instead, and why
# (stderr to a file; the screen tall enough for the whole report).
tui_start 160 200 TERM=dumb -- --sysfs "$DATA/trees/ib-2port" "2>$T/err"
tui_expect_exit "TERM=dumb: the report, exit 0" 0
assert_eq "... says why" "fabtop: terminal type 'dumb' cannot move the cursor (no cursor addressing): showing 'fabtop show all' instead of the monitor" "$(cat "$T/err")"
assert_match "... and shows the report" '^== ports ==$' "$(cat "$T/screen")"
assert_match "... of the source asked for" '^mlx4_0 \(CA\)$' "$(cat "$T/screen")"
tui_start 160 200 TERM=no-such-terminal -- --sysfs "$DATA/trees/ib-2port" "2>$T/err"
tui_expect_exit "an unknown terminal type: the report too" 0
assert_match "... saying the type is unknown" "^fabtop: terminal type 'no-such-terminal' is not in the terminfo database" "$(cat "$T/err")"
tui_start 120 40 -- --demo --seed 1 "2>$T/err"
tui_expect "a terminal that can (TERM=screen) gets the monitor" "F10Quit"
tui_quit
assert_eq "... and no word of a fallback" "" "$(cat "$T/err")"
done_testing
