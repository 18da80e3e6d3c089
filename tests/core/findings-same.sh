#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One set of findings on every surface (doc/architecture.md, "One home per
# live fact"): for every demo scenario, broken and fixed, for every fixture
# tree with findings, and for a replayed recording, the findings of
# `doctor --json`, the monitor (its header's count and the Doctor pane's
# rows, read through tmux), the exporter's fabtop_doctor_finding series and
# the replay are the same: code, severity, interface or device, address.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed (apt-get install jq)"

# "severity id code where address" per finding, sorted, one a line; where is
# the interface, else the device (as the Doctor pane's IFACE column shows it).
doctor_set() {	# ARGS... : of fabtop ARGS doctor --json
	"$FABTOP" "$@" doctor --json 2>/dev/null |
		jq -r '.findings[] | "\(.severity) \(.id) \(.code) \(.interface // .device // "-") \(.address // "-")"' |
		sort -u
}
problems_of() { grep -c -v '^info ' "$1" || :; }

# The exporter's series: the same five facts from the labels.
export_set() {	# ARGS...
	rm -f "$T/m.prom"
	"$FABTOP" "$@" export --textfile "$T/m.prom" --no-http --count 1 >/dev/null 2>&1
	sed -n 's/^fabtop_doctor_finding{\(.*\)} 1$/\1/p' "$T/m.prom" |
		sed 's/code="\([^"]*\)",severity="\([^"]*\)",iface="\([^"]*\)",address="\([^"]*\)",device="\([^"]*\)",port="[^"]*"/\2|\1|\3|\5|\4/' |
		awk -F'|' '{ where = $3 != "" ? $3 : ($4 != "" ? $4 : "-"); print $1, $2, where, ($5 != "" ? $5 : "-") }' | sort -u
}
# the exporter's labels have no id: compare without it
no_id() { awk '{ print $1, $3, $4, $5 }' "$1" | sort -u; }

# The monitor: the header's count and the Doctor pane's rows (a screen wide
# enough for whole codes and addresses).
monitor_set() {	# NAME ARGS...
	_name=$1
	shift
	tui_start 220 60 "XDG_STATE_HOME=$XDG_STATE_HOME" -- "$@"
	if ! tui_wait_re ' findings [0-9]+ ' 20; then
		echo "no header count" >"$T/mon.count"
		: >"$T/mon.set"
		return
	fi
	tui_keys 5
	tui_wait_re 'SEVERITY.* ID CODE' 10 || :
	# the Doctor pane runs once the network is in: wait until its rows match the header's count
	_deadline=$(( $(date +%s) + 15 ))
	while :; do
		tui_screen >"$T/screen"
		sed -n 's/.* findings \([0-9]*\) .*/\1/p' "$T/screen" | head -1 >"$T/mon.count"
		awk '/SEVERITY.* ID CODE/ { on = 1; next } on && NF == 0 { exit }
		     on && $1 ~ /^(error|warning|info)$/ { print $1, $2, $3, $4, $5 }' "$T/screen" | sort -u >"$T/mon.set"
		[ "$(grep -c -v '^info ' "$T/mon.set")" = "$(cat "$T/mon.count")" ] && break
		[ "$(date +%s)" -ge "$_deadline" ] && break
		sleep 0.2
	done
	tui_keys q
}

same() {	# DESC EXPECTED-FILE GOT-FILE
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		diag "doctor --json:" "$(cat "$2")" "this surface:" "$(cat "$3")"
	fi
}

surfaces() {	# LABEL ARGS...: every surface against doctor --json
	_l=$1
	shift
	doctor_set "$@" >"$T/doc.set"
	monitor_set "$_l" "$@"
	assert_eq "$_l: the monitor's header counts the doctor's problems" "$(problems_of "$T/doc.set")" \
		"$(cat "$T/mon.count")"
	same "$_l: the Doctor pane holds the doctor's findings" "$T/doc.set" "$T/mon.set"
	export_set "$@" >"$T/exp.set"
	no_id "$T/doc.set" >"$T/doc.noid"
	same "$_l: the exporter's fabtop_doctor_finding series are the doctor's findings" "$T/doc.noid" "$T/exp.set"
}

for s in default two-nics container roce-v1 pfc-off no-sm bad-cable; do
	if [ "$s" = default ]; then set -- --demo; else set -- --demo "$s"; fi
	rm -rf "$XDG_STATE_HOME/fabtop/demo"
	surfaces "$s (broken)" "$@"
	[ "$s" = default ] || [ -s "$T/doc.set" ] || not_ok "$s: the broken scenario has findings"
	# a recording of it, replayed: the doctor over the recorded host, network and RoCE chain
	rm -f "$T/r.ftrec"
	"$FABTOP" "$@" record "$T/r.ftrec" --duration 1 --interval 1 >/dev/null 2>&1
	doctor_set --replay "$T/r.ftrec" >"$T/rep.set"
	same "$s (broken): a replayed recording holds the same findings" "$T/doc.set" "$T/rep.set"
	[ "$s" = default ] && continue
	"$FABTOP" "$@" doctor --apply --yes >/dev/null 2>&1
	surfaces "$s (fixed)" "$@"
done
rm -rf "$XDG_STATE_HOME/fabtop/demo"

# fixture trees: the doctor judges each tree beside this host's network, the same on every surface
for d in "$TOP_SRCDIR"/tests/data/trees/*/; do
	t=$(basename "$d")
	[ -n "$(doctor_set --sysfs "$d")" ] || continue
	surfaces "tree $t" --sysfs "$d"
done
done_testing
