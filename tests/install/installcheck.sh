#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make installcheck: the installed fabtop runs, and its man page, bash
# completion, example settings, exporter examples (Prometheus, Grafana) and
# systemd unit are where they belong.
# usage: installcheck.sh BINDIR MAN1DIR COMPLETIONDIR DOCDIR [UNITDIR]
# (DESTDIR already applied; no UNITDIR when configured without a unit directory)
set -eu
export LC_ALL=C
: "${TOP_SRCDIR:?}"
bin=$1/fabtop man=$2/fabtop.1 comp=$3/fabtop doc=$4/fabtoprc.example
examples=$4/examples unitdir=${5:-}
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

# The exporter's examples: the scrape config finds its rule file beside it.
if command -v promtool >/dev/null; then
	promtool check config "$examples/prometheus-fabtop.yml" >"$T/pc" 2>&1 &&
		grep -q 'SUCCESS: 6 rules found' "$T/pc" && grep -q 'SUCCESS: 8 rules found' "$T/pc" &&
		ok "$examples/prometheus-fabtop.yml loads $examples/fabtop-alerts.yml and fabtop-fabric-alerts.yml" ||
		{ bad "promtool check config $examples/prometheus-fabtop.yml"; cat "$T/pc" >&2; }
else
	[ -f "$examples/prometheus-fabtop.yml" ] && [ -f "$examples/fabtop-alerts.yml" ] && [ -f "$examples/fabtop-fabric-alerts.yml" ] &&
		ok "$examples/prometheus-fabtop.yml, fabtop-alerts.yml (promtool not installed)" || bad "Prometheus examples in $examples"
fi
for d in fabtop-grafana.json fabtop-fabric-grafana.json; do
	jq -s -e 'length == 1 and (.[0].panels | length > 0)' "$examples/$d" >/dev/null 2>&1 &&
		ok "$examples/$d" || bad "Grafana dashboard $examples/$d"
done

# The unit starts the installed binary (ExecStart is BINDIR without DESTDIR).
if [ -n "$unitdir" ]; then
	unit=$unitdir/fabtop-exporter.service
	exec_path=$(sed -n 's/^ExecStart=\([^ ]*\) export .*/\1/p' "$unit" 2>/dev/null)
	case $bin in
	?*"$exec_path"|"$exec_path") [ -n "$exec_path" ] && ok "$unit runs $exec_path export" || bad "$unit has no ExecStart" ;;
	*) bad "$unit runs '$exec_path', not the installed $bin" ;;
	esac
	# Without DESTDIR the binary is really there: systemd can check it all.
	if [ "$bin" = "$exec_path" ] && command -v systemd-analyze >/dev/null; then
		systemd-analyze verify --man=no "$unit" >"$T/sv" 2>&1 && [ ! -s "$T/sv" ] &&
			ok "systemd-analyze verify $unit" || { bad "systemd-analyze verify $unit"; cat "$T/sv" >&2; }
	fi
fi
exit $fail
