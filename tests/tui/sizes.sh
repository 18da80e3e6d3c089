#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every pane at 80x24 (the default terminal) and at 200x50, driven by its
# number key: its tab is on the tab line, every pane has a visible tab
# there (its title or its short label, from the pane table `fabtop monitor
# --panes` prints), the title line is made of whole fields with what
# matters kept, and the column header is made of whole column titles of
# that pane (a column is dropped whole, never cut).
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"

"$FABTOP" monitor --panes >"$T/panes"
assert_eq "the pane table has the eleven panes" 11 "$(wc -l <"$T/panes")"
assert_eq "the number keys reach the first ten; the eleventh has none" "1234567890-" "$(cut -f1 "$T/panes" | tr -d '\n')"

# whole_titles LINE TITLES: what is left of LINE once every title (longest
# first, '|'-separated) standing between blanks is taken out, and the sort
# arrow; "" when the line is whole titles only.
whole_titles() {
	printf '%s\n' "$1" | LC_ALL=C.UTF-8 awk -v titles="$2" '
		{
			gsub(/\xe2\x96\xb2|\xe2\x96\xbc/, "^")	# the sort arrow, as in ASCII
			s = " " $0 " "
			n = split(titles, t, "|")
			# longest first, so that "IN PKT/S" goes before "IN"
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (length(t[j]) > length(t[i])) { x = t[i]; t[i] = t[j]; t[j] = x }
			# a title stands between blanks, the sorted one with its arrow (^ or v) after it
			for (i = 1; i <= n; i++)
				for (a = 0; a < 3; a++) {
					w = t[i] (a == 1 ? "^" : a == 2 ? "v" : "")
					while ((p = index(s, " " w " ")) > 0)
						s = substr(s, 1, p) substr(s, p + length(w) + 1)
				}
			gsub(/ /, "", s)
			print s
		}'
}

# The title line's fields, each whole (doc/monitor.md): the host and DEMO first.
FIELD='([0-9]+ devices?, )?ports [0-9]+ up [0-9]+ down|in ([0-9.]+ ?[kMGT]?(b/s)?|n/a) out ([0-9.]+ ?[kMGT]?(b/s)?|n/a)|findings ([0-9]+|n/a)|[0-9.]+s|events \+[0-9]+|warnings \(F1\)|PAUSED|REJ [0-9/]+|REJ sent [0-9]+ received [0-9]+'
TITLE_RE="^ fabtop memserver34 DEMO( \| ($FIELD))* *\$"

for size in 80x24 200x50; do
	w=${size%x*} h=${size#*x}
	tui_start "$w" "$h" -- --demo --no-color
	tui_wait "DEVICE" 15 || true
	while IFS="$(printf '\t')" read -r key id title tab cols; do
		# a pane past the tenth has no number key: Tab from the tenth
		if [ "$key" = - ]; then tui_keys 0 Tab; else tui_keys "$key"; fi
		# The pane is up when its column header is (the Probe pane has none: its first line).
		_deadline=$(( $(date +%s) + 10 ))
		while :; do
			tui_screen >"$T/screen" 2>/dev/null || :
			if [ -n "$cols" ]; then
				[ -z "$(whole_titles "$(sed -n 3p "$T/screen")" "$cols")" ] && break
			else
				grep -q "RDMA CM probe" "$T/screen" && break
			fi
			[ "$(date +%s)" -ge "$_deadline" ] && break
			sleep 0.1
		done
		tabs=$(sed -n 2p "$T/screen")
		# (capture-pane drops the blanks that end a line: one is put back)
		if [ "$key" = - ]; then label=" $title "; else label=" $key $title "; fi
		assert_match "$size: key $key shows the $id pane's tab, in full" "$label" "$tabs "
		head=$(sed -n 1p "$T/screen")
		missing=""
		while IFS="$(printf '\t')" read -r k2 _ t2 s2 _; do
			if [ "$k2" = - ]; then
				case "$tabs " in
				*" $t2 "* | *" $s2 "* | *" $(printf %.1s "$t2") "*) ;;
				*) missing="$missing $t2" ;;
				esac
				continue
			fi
			case "$tabs " in
			*" $k2 $t2 "* | *" $k2 $s2 "*) ;;
			*) missing="$missing $k2" ;;
			esac
		done <"$T/panes"
		assert_eq "$size, $id: every pane has a visible tab" "" "$missing"
		[ "$size" = 80x24 ] || assert_match "$size, $id: full labels for all" "^ 1 Ports  2 Counters  3 GIDs  4 Network .* 0 RoCE  Fabric\$" "$tabs"
		assert_match "$size, $id: the title line is whole fields, host and findings kept" "$TITLE_RE" "$head"
		assert_match "$size, $id: and it keeps the findings" "\| findings " "$head"
		if [ -n "$cols" ]; then
			colhead=$(sed -n 3p "$T/screen")
			assert_eq "$size, $id: the column header is whole column titles ($colhead)" "" \
				"$(whole_titles "$colhead" "$cols")"
			assert_match "$size, $id: and starts with the first column" "^${cols%%|*}" "$colhead"
		fi
	done <"$T/panes"
	tui_quit
done

# Narrower still: the tab line scrolls so that the current tab stays in sight.
tui_start 25 12 -- --demo --no-color
tui_wait "DEVICE" 15 || true
tui_keys 0
tui_expect "25x12: the tenth tab is on the tab line" " 0 RoCE" 10
tui_keys 9
tui_expect "25x12: the ninth in full" " 9 Connections" 10
tui_keys 2
tui_expect "25x12: the Counters pane" " 2 Counters" 10
ccols=$(sed -n 's/^2\tcounters\t[^\t]*\t[^\t]*\t//p' "$T/panes")
assert_eq "25x12: columns that do not fit go whole ($(sed -n 3p "$T/screen"))" "" \
	"$(whole_titles "$(sed -n 3p "$T/screen")" "$ccols")"
tui_quit

done_testing
