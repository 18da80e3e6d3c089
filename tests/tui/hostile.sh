#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The monitor on a hostile sysfs tree: garbage values, a FIFO where a
# counter should be, escape sequences and non-UTF-8 bytes in names, 255
# ports, a 1 MiB attribute. Every pane draws, nothing hangs, nothing from
# the tree reaches the terminal raw, and it exits cleanly.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"

R="$T/sys"
# The hostile tree every hostile test shares, and two names of this test's own:
# an OSC title sequence in fw_ver, and ESC inside a non-UTF-8 device name.
. "$TOP_SRCDIR/tests/core/hostile-tree.sh"
hostile_tree "$R"
printf '\033]0;pwned\007fw\n' >"$R/class/infiniband/evil0/fw_ver"
N=$(printf 'bad\377\033[7mname')
mkdir -p "$R/class/infiniband/$N/ports/1"
printf '4: ACTIVE\n' >"$R/class/infiniband/$N/ports/1/state"

tui_start 120 40 -- --sysfs "$R" --interval 0.3
tui_expect "the hostile tree is shown" "wide0"
for pane in 2 3 4 5 6 1; do
	tui_keys "$pane" End Enter
	tui_keys Escape PgUp Home
done
tui_resize 30 8
tui_resize 120 40
tui_keys 1 / e v i l Enter
tui_expect "a garbage state is unknown, not invented" "evil0         1 unknown "
tui_keys Home Enter
tui_expect "details of a garbage port show the raw value" "banana"
tui_keys Escape Escape
tui_expect "still responsive after every pane" "wide0"
tui_expect "escape bytes in names are shown neutralised" "bad??[7m"
title=$(tui display-message -p -t fab '#{pane_title}')
case $title in
*pwned*) not_ok "an OSC sequence in fw_ver does not retitle the terminal"; diag "title: $title" ;;
*) ok "an OSC sequence in fw_ver does not retitle the terminal" ;;
esac
tui_quit >/dev/null || :
tui_expect_exit "exits cleanly (warnings printed after the screen is given back)" 0
done_testing
