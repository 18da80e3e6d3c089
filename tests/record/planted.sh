#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Files fabtop creates where others can plant names: `fabtop record FILE`,
# R in the monitor (a predictable name in the working directory) and
# FABTOP_FRAME_LOG. A symlink planted at the very name each writes must be
# replaced, its target untouched; what is written is a regular 0600 file
# (a recording holds routes and process names).
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"

printf 'precious\n' >"$T/victim"
chmod 644 "$T/victim"
untouched() { # DESC
	assert_eq "$1: the planted symlink's target is untouched" "precious" "$(cat "$T/victim")"
}
private_file() { # DESC FILE
	if [ -f "$2" ] && [ ! -L "$2" ]; then
		assert_eq "$1: a regular file of mode 600" "600" "$(stat -c %a "$2")"
	else
		not_ok "$1: a regular file in the symlink's place"
		diag "$(ls -l "$2" 2>&1)"
	fi
}

# fabtop record FILE, FILE a symlink to the victim
ln -s "$T/victim" "$T/rec.ftrec"
run_rc "$FABTOP" --demo record "$T/rec.ftrec" --count 2 --interval 0.1
assert_eq "record over a planted symlink succeeds" 0 "$rc"
untouched "record FILE"
private_file "record FILE" "$T/rec.ftrec"
run_rc "$FABTOP" show ports --replay "$T/rec.ftrec"
assert_eq "and the recording reads" 0 "$rc"
left=$(ls -A "$T" | grep -c '^rec\.ftrec\.' || :)
assert_eq "no temporary file is left beside it" 0 "$left"

# R: fabtop-HOST-YYYYmmdd-HHMMSS.ftrec in the working directory, planted for the next minute
mkdir "$T/cwd"
now=$(date +%s)
i=0
while [ $i -lt 60 ]; do
	ln -s "$T/victim" "$T/cwd/fabtop-memserver34-$(date -d "@$((now + i))" +%Y%m%d-%H%M%S).ftrec"
	i=$((i + 1))
done
TUI_CWD=$T/cwd
tui_start 130 40 -- --demo --interval 0.2
tui_expect "the demo monitor starts" "mlx5_0"
tui_keys R
tui_expect "R starts recording" "| REC "
tui_keys R
tui_expect "R again stops" "recorded "
tui_quit
untouched "R in the monitor"
r=$(find "$T/cwd" -name 'fabtop-*.ftrec' -type f | head -n 1)
if [ -n "$r" ]; then
	private_file "R in the monitor" "$r"
else
	not_ok "R in the monitor: a regular file in a planted symlink's place"
fi

# FABTOP_FRAME_LOG=FILE, FILE a symlink to the victim
ln -s "$T/victim" "$T/frames.log"
tui_start 130 40 "FABTOP_FRAME_LOG=$T/frames.log" -- --demo --interval 0.2
tui_expect "the monitor starts with a frame log" "mlx5_0"
tui_quit
untouched "FABTOP_FRAME_LOG"
private_file "FABTOP_FRAME_LOG" "$T/frames.log"
n=$(wc -l <"$T/frames.log" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ]; then ok "the frame log has its lines ($n)"; else not_ok "the frame log has its lines"; fi
done_testing
