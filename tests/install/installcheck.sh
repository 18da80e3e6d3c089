#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make installcheck: the installed fabtop runs, and its man page, bash
# completion and example settings are where they belong.
# usage: installcheck.sh BINDIR MAN1DIR COMPLETIONDIR DOCDIR (DESTDIR already applied)
set -eu
export LC_ALL=C
: "${TOP_SRCDIR:?}"
bin=$1/fabtop man=$2/fabtop.1 comp=$3/fabtop doc=$4/fabtoprc.example
T=$(mktemp -d "${TMPDIR:-/tmp}/fabtop-installcheck.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "installcheck: ok: $*"; }
bad() { echo "installcheck: FAILED: $*" >&2; fail=1; }

"$bin" --version >"$T/v" && grep -q '^fabtop ' "$T/v" && ok "$bin --version: $(cat "$T/v")" || bad "$bin --version"
"$bin" --help >"$T/h" && grep -q '^Usage: fabtop' "$T/h" && ok "$bin --help" || bad "$bin --help"
tree="$TOP_SRCDIR/tests/data/trees/ib-2port"
if "$bin" show all --sysfs "$tree" >"$T/out" 2>"$T/err" && cmp -s "$T/out" "$tree.expected.txt"; then
	ok "show all --sysfs tests/data/trees/ib-2port matches its expected report"
else
	bad "show all --sysfs $tree differs from $tree.expected.txt"
	diff -u "$tree.expected.txt" "$T/out" >&2 || :
fi
[ -f "$man" ] && mandoc -T ascii "$man" 2>/dev/null | grep -q 'fabtop - live terminal monitor' && ok "$man renders" || bad "man page $man"
if [ -f "$comp" ] && [ "$(bash -c '. "$1"; complete -p fabtop' _ "$comp")" = "complete -F _fabtop fabtop" ]; then
	ok "$comp defines the completion"
else
	bad "bash completion $comp"
fi
[ -f "$doc" ] && grep -q '^interval=' "$doc" && ok "$doc" || bad "example settings $doc"
exit $fail
