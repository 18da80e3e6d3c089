#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The texts say what the code has: the README, the man page and
# doc/monitor.md name the panes of the pane table (`fabtop monitor
# --panes`), in its order, with its count and keys; `fabtop --help`, the
# README and the man page name the sections of `fabtop show --help` (its
# own table); the README names every global option `fabtop --help` lists,
# the man page has an item for each; the help's footer, `lab up`'s usage
# and the demo's GID types are told the same everywhere.
. "$TOP_SRCDIR/tests/setup.sh"
README="$TOP_SRCDIR/README"
MAN="$TOP_SRCDIR/data/fabtop.1"
MONITOR_MD="$TOP_SRCDIR/doc/monitor.md"

"$FABTOP" monitor --panes >"$T/panes"
n=$(wc -l <"$T/panes")
titles=$(cut -f3 "$T/panes" | paste -sd, - | sed 's/,/, /g')
case $n in
8) word=eight ;; 9) word=nine ;; 10) word=ten ;; 11) word=eleven ;; 12) word=twelve ;; *) word=$n ;;
esac
# The number keys reach ten panes (1..9, 0); the rest are reached by Tab.
if [ "$n" -gt 10 ]; then keys="1..9, 0, then Tab"; elif [ "$n" -eq 10 ]; then keys="1..9, 0"; else keys="1..$n"; fi
numkeys=$keys
[ "$n" -gt 10 ] && numkeys="1..9, 0"
keyed=$(cut -f1,3 "$T/panes" | awk -F '\t' '$1 != "-" { print $2 }' | paste -sd, - | sed 's/,/, /g')
assert_match "the pane table has panes ($n: $titles)" '^[A-Z]' "$titles"

# para FILE REGEX: the paragraph (blank-line separated) matching REGEX, on one line.
para() {
	awk -v re="$2" 'BEGIN { RS = "" } $0 ~ re { gsub(/[ \t\n]+/, " "); print; exit }' "$1"
}

assert_match "README: the monitor opens $word panes, keys $keys, in the table's order" \
	"opens $word panes \\(keys $keys\\): $titles\\." "$(para "$README" 'opens [a-z0-9]+ panes')"
assert_match "README: Tab or $numkeys switch panes" "Tab or $numkeys panes" "$(para "$README" 'htop.s')"

mandoc -T ascii -O width=400 "$MAN" | sed 's/.\x08//g' >"$T/page"
assert_match "man page: $word panes, keys $keys, in the table's order" \
	"$word panes \\(keys $keys\\): $titles\\." "$(para "$T/page" 'interactive monitor \(the default')"
assert_match "man page: the number keys name every pane in order" \
	"The pane of that tab: $keyed \\(0\\)\\." \
	"$(cat "$T/page")"

# doc/monitor.md: "N. **Title**" headings, in order.
assert_eq "doc/monitor.md: one numbered entry per pane, in order" \
	"$(cut -f3 "$T/panes")" "$(sed -n 's/^[0-9][0-9]*\. \*\*\([^*]*\)\*\*.*/\1/p' "$MONITOR_MD")"

# The show sections: show's own table is the reference.
sections=$("$FABTOP" show --help | sed -n 's/^Sections: \(.*\) (default.*/\1/p' | tr ' ' '|')
assert_match "show --help lists sections" 'ports\|.*\|all' "$sections"
assert_eq "fabtop --help: show's synopsis has every section" "$sections" \
	"$("$FABTOP" --help | sed -n 's/^  fabtop show \[\([a-z|]*\)\].*/\1/p')"
assert_eq "README: show's synopsis has every section" "$sections" \
	"$(sed -n 's/^    fabtop show \[\([a-z|]*\)\].*/\1/p' "$README")"
assert_eq "man page: show's synopsis has every section" "$sections" \
	"$(grep -o 'show \[[a-z|]*\]' "$T/page" | head -n 1 | sed 's/show \[\(.*\)\]/\1/')"

# Every global option of fabtop --help is in the README's list.
"$FABTOP" --help | sed -n '/^Global options:/,/^$/p' | grep -o -- '--[a-z][a-z-]*' | sort -u >"$T/globals"
readme_globals=$(para "$README" '^Global options:')
missing=""
while read -r o; do
	case "$readme_globals " in *"$o "* | *"$o,"* | *"$o."*) ;; *) missing="$missing $o" ;; esac
done <"$T/globals"
assert_eq "README: every global option of fabtop --help ($(wc -l <"$T/globals"))" "" "$missing"

# ... and each is an item of the man page (a tag of its own at the item indent, not run into the text above).
missing=""
while read -r o; do
	grep -Eq -- "^       (-[a-zA-Z], )?$o( |,|\$)" "$T/page" || missing="$missing $o"
done <"$T/globals"
assert_eq "man page: an item for every global option of fabtop --help" "" "$missing"

# The help overlay's footer says how it closes; the man page and doc/monitor.md say the same.
footer=$(sed -n 's/.*"\([^"]*\) closes, arrows scroll".*/\1/p' "$TOP_SRCDIR/src/ui/help.c")
assert_eq "the help's footer is read from src/ui/help.c" "any key" "$footer"
assert_match "man page: the help closes as its footer says" "F1, \?, h +Help; $footer closes it" "$(cat "$T/page")"
assert_match "doc/monitor.md: the same" "help; $footer closes it" "$(cat "$MONITOR_MD")"

# lab up's usage: the README's, fabtop --help's, lab --help's and the man page's are one.
assert_match "README: lab up [NAME]" '^    fabtop lab up \[NAME\] \| lab down' "$(cat "$README")"
assert_match "fabtop --help: lab up [NAME]" '^  fabtop lab up \[NAME\] \| lab down' "$("$FABTOP" --help)"
assert_match "lab --help: lab up [NAME]" '^usage: fabtop lab up \[NAME\] \| fabtop lab down' "$("$FABTOP" lab --help)"
assert_match "man page: lab up [NAME]" '^       lab up \[NAME\]' "$(cat "$T/page")"

# fabtop --help names the exporter's --probe and --fabric (README's usage does).
assert_match "fabtop --help: export --probe and --fabric" '\[--probe PEER.*\] \[--fabric\]' "$("$FABTOP" --help)"

# doc/demo.md names the type the demo shows for the iWARP NIC's GID.
shown=$("$FABTOP" --demo --json show gids | jq -r '[.gids[] | select(.device == "cxgb4_0") | .type] | unique | join(",")')
assert_eq "the demo's cxgb4_0 GID is typed iWARP" "iWARP" "$shown"
assert_match "doc/demo.md says so" "type \`$shown\`" "$(para "$TOP_SRCDIR/doc/demo.md" 'cxgb4_0.: one GID')"
done_testing
