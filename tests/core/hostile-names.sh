#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Names that would drive a terminal (ESC, CR, LF, BS, OSC title and OSC 52
# clipboard writes, CSI, C1 controls as UTF-8 and as raw bytes, DEL) walked
# through every way out of fabtop: text reports, JSON, the monitor (what
# reached the terminal, from tmux), the exporter's labels, a recording of
# the tree and its replay, and the warnings. None gets out raw: each is
# cleaned where it enters and escaped on the way out.
. "$TOP_SRCDIR/tests/setup.sh"
command -v python3 >/dev/null || skip_all "python3 is not installed"
. "$TOP_SRCDIR/tests/core/hostile-tree.sh"
R="$T/sys"
hostile_tree "$R"
# The device's name as every output shows it: each control byte a '?'.
SHOWN='nm?[2J???X'

# no_controls DESC FILE: no byte a terminal acts on but newline and tab:
# C0, DEL, C1 as UTF-8 (U+0080..U+009F) or as a raw byte outside UTF-8.
no_controls() {
	if python3 - "$2" >"$T/ctl" <<'EOF'
import sys
s = open(sys.argv[1], 'rb').read().decode('utf-8', 'surrogateescape')
for i, ch in enumerate(s):
    o = ord(ch)
    if (o < 0x20 and ch not in '\n\t') or o == 0x7f or 0x80 <= o <= 0x9f or 0xdc80 <= o <= 0xdc9f:
        print('character %d is U+%04X: ...%r...' % (i, o, s[max(0, i - 20):i + 20]))
        sys.exit(1)
EOF
	then ok "$1"; else not_ok "$1"; diag "$(cat "$T/ctl")"; fi
}

# Text and JSON reports, and the warnings on stderr.
for cmd in "show all" "show counters" "show gids" "doctor"; do
	# shellcheck disable=SC2086
	timeout 30 "$FABTOP" $cmd --sysfs "$R" >"$T/text" 2>"$T/err" || :
	no_controls "$cmd: text" "$T/text"
	no_controls "$cmd: warnings" "$T/err"
	# shellcheck disable=SC2086
	timeout 30 "$FABTOP" $cmd --json --sysfs "$R" >"$T/json" 2>/dev/null || :
	check "$cmd: JSON is valid" jq -e . "$T/json"
	no_controls "$cmd: JSON" "$T/json"
done
"$FABTOP" show all --sysfs "$R" >"$T/text" 2>/dev/null || :
assert_match "the device is named, its controls cleaned" "^$(printf '%s' "$SHOWN" | sed 's/[][?]/\\&/g') \\(CA\\)\$" "$(cat "$T/text")"
assert_match "OSC title and OSC 52 in a node description are cleaned" 'osc\?\]0;pwned\?\?\?52;c;cHduZWQ=\?\?' "$(cat "$T/text")"
"$FABTOP" show counters --sysfs "$R" >"$T/text" 2>/dev/null || :
assert_match "an OSC 52 in a counter's name is cleaned" 'clip\?\]52;c;cHduZWQ=\?' "$(cat "$T/text")"
"$FABTOP" show all --json --sysfs "$R" >"$T/json" 2>/dev/null || :
assert_eq "JSON: the name, cleaned" "\"$SHOWN\"" "$(jq -c --arg n "$SHOWN" '.devices[] | select(.name==$n) | .name' "$T/json")"
assert_eq "JSON: a raw C1 and DEL in fw_ver" '"fw?0m?"' "$(jq -c --arg n "$SHOWN" '.devices[] | select(.name==$n) | .fw_ver' "$T/json")"
assert_eq "JSON: a netdev named with CSI and a UTF-8 C1" '"nd?[7m??"' "$(jq -c --arg n "$SHOWN" '.gids[] | select(.device==$n) | .netdev' "$T/json")"

# The exporter's labels (the textfile is what a scrape returns).
run_rc "$FABTOP" export --sysfs "$R" --textfile "$T/metrics.prom" --no-http --count 1
assert_eq "export --count 1 exits 0" 0 "$rc"
no_controls "export: the exposition" "$T/metrics.prom"
no_controls "export: its messages" "$T/err"
assert_match "export: the device label, cleaned" "device=\"$(printf '%s' "$SHOWN" | sed 's/[][?]/\\&/g')\"" "$(cat "$T/metrics.prom")"
if command -v promtool >/dev/null; then
	check "export: promtool accepts the exposition" sh -c 'promtool check metrics <"$1"' sh "$T/metrics.prom"
fi

# A recording of the tree, and every report from it; the file's own name
# (the user's, but printed back by every message) holds an OSC and a C1.
REC="$T/$(printf 'h\033]0;pwned\007\302\233.ftrec')"
run_rc "$FABTOP" --sysfs "$R" record "$REC" --interval 0.2 --count 2
assert_eq "record exits 0" 0 "$rc"
no_controls "record: its messages" "$T/err"
for cmd in "show all" "show counters"; do
	# shellcheck disable=SC2086
	timeout 30 "$FABTOP" --replay "$REC" $cmd >"$T/text" 2>"$T/err" || :
	no_controls "replay $cmd: text" "$T/text"
	no_controls "replay $cmd: messages" "$T/err"
	# shellcheck disable=SC2086
	timeout 30 "$FABTOP" --replay "$REC" $cmd --json >"$T/json" 2>/dev/null || :
	check "replay $cmd: JSON is valid" jq -e . "$T/json"
	no_controls "replay $cmd: JSON" "$T/json"
done
"$FABTOP" --replay "$REC" show all >"$T/text" 2>/dev/null || :
assert_match "replay: the device, named as recorded" "^$(printf '%s' "$SHOWN" | sed 's/[][?]/\\&/g') \\(CA\\)\$" "$(cat "$T/text")"

# The monitor, live and from the recording: tmux is the terminal. With -e
# the capture holds the attributes that reached it: fabtop's own SGR only.
. "$TOP_SRCDIR/tests/tui/lib.sh"
# monitor_clean DESC: the screen as the terminal got it has no control but SGR.
monitor_clean() {
	tui capture-pane -e -p -t fab >"$T/cap" 2>/dev/null || :
	sed 's/\x1b\[[0-9;]*m//g' "$T/cap" >"$T/cap.plain"
	no_controls "$1" "$T/cap.plain"
}
for how in live replay; do
	if [ $how = live ]; then
		tui_start 120 40 -- --sysfs "$R" --interval 0.3
	else
		# tmux runs a command line: the file by a name it can quote
		ln -sf "$REC" "$T/h.ftrec"
		tui_start 120 40 -- --replay "$T/h.ftrec"
	fi
	# OSC 52 would reach tmux's paste buffers, OSC 0 the pane's title.
	tui set-option -g set-clipboard on >/dev/null
	tui_expect "$how: the monitor names the device, cleaned" "$SHOWN" 15
	monitor_clean "$how: Ports pane"
	for pane in 2 3 4 5; do
		tui_keys "$pane"
		sleep 0.3
		monitor_clean "$how: pane $pane"
	done
	tui_keys 1 / n m Enter
	tui_keys Home Enter
	tui_expect "$how: the details name the node description, cleaned" "osc?]0;pwned???52;c;cHduZWQ=??"
	monitor_clean "$how: details"
	tui_keys Escape Escape F1
	sleep 0.3
	monitor_clean "$how: help and warnings"
	tui_keys Escape
	assert_eq "$how: no OSC 52 reached the clipboard" "" "$(tui list-buffers 2>/dev/null)"
	title=$(tui display-message -p -t fab '#{pane_title}')
	case $title in
	*pwned*) not_ok "$how: no OSC retitled the terminal"; diag "title: $title" ;;
	*) ok "$how: no OSC retitled the terminal" ;;
	esac
	tui_quit >/dev/null || :
	assert_match "$how: exits cleanly" "FABTOP-EXIT=0" "$(cat "$T/screen")"
	monitor_clean "$how: the warnings printed at exit"
done
done_testing
