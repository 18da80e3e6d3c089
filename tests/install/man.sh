#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# data/fabtop.1: lint-clean for mandoc, renders with man, and names every
# option the binary's own help lists (so the page cannot silently go stale).
. "$TOP_SRCDIR/tests/setup.sh"
MAN="$TOP_SRCDIR/data/fabtop.1"

if mandoc -T lint -W warning "$MAN" >"$T/lint" 2>&1; then
	assert_eq "mandoc -T lint -W warning: no message" "" "$(cat "$T/lint")"
else
	not_ok "mandoc -T lint -W warning fails"; diag "$(cat "$T/lint")"
fi
MANWIDTH=100 man -P cat -l "$MAN" 2>"$T/man.err" | sed 's/.\x08//g' >"$T/page"
assert_match "man -l renders the page" '^NAME' "$(cat "$T/page")"
assert_eq "man -l says nothing on stderr" "" "$(cat "$T/man.err")"
mandoc -T ascii -O width=200 "$MAN" | sed 's/.\x08//g' >"$T/page"

# Every long option of every command's help is in the page.
{
	"$FABTOP" --help
	"$FABTOP" show --help
	"$FABTOP" doctor --help
	"$FABTOP" probe --help
	"$FABTOP" probe --lid 1 --help
	"$FABTOP" trace --help
	"$FABTOP" monitor --help
} 2>&1 | grep -o -- '--[a-z][a-z-]*' | sort -u >"$T/opts"
missing=""
while read -r o; do
	grep -q -- "$o" "$T/page" || missing="$missing $o"
done <"$T/opts"
assert_eq "every option of the help is in the man page ($(wc -l <"$T/opts") options)" "" "$missing"

# The panes and show sections the binary knows are the page's.
panes=$("$FABTOP" monitor --help | sed -n 's/.*Panes: \(.*\)\./\1/p' | tr -d ',')
missing=""
for p in $panes; do
	grep -q -- "$p" "$T/page" || missing="$missing $p"
done
assert_eq "every pane ($panes) is in the man page" "" "$missing"
sections=$("$FABTOP" show --help | sed -n 's/^Sections: \(.*\) (default.*/\1/p')
assert_match "every show section is in the synopsis" \
	"$(echo "$sections" | tr ' ' '|' | sed 's/|/[|]/g')" "$(grep 'show \[' "$T/page")"
done_testing
