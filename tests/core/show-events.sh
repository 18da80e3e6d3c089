#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop show events: options, usage errors, the JSON document, a clean stop on SIGINT.
. "$TOP_SRCDIR/tests/setup.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"
plan 15

run_rc "$FABTOP" --demo show events --duration 0.5 --interval 0.1 --json
assert_eq "a short watch of the demo exits 0" 0 "$rc"
assert_eq "its JSON: events, dropped, totals of every kind" '["dropped","events","totals"] 17' \
	"$(jq -c '[keys, (.totals | length)] | "\(.[0] | tojson) \(.[1])"' -r "$T/out")"
assert_eq "nothing happened in half a second: no event, none dropped" "0 0" "$(jq -r '"\(.events | length) \(.dropped)"' "$T/out")"

run_rc "$FABTOP" --demo show events --duration 0.3 --since 5m
assert_eq "text, --since 5m: exit 0" 0 "$rc"
assert_eq "no events, no output" "" "$(cat "$T/out")"
assert_eq "stderr says what it watches (the baseline is taken)" \
	"fabtop show events: watching demo fabric (simulated, seed 1) every 1 s for 0.3 s" "$(cat "$T/err")"

run_rc "$FABTOP" --demo show events --since "2026-13-01 00:00"
assert_eq "--since: a bad date is a usage error" 2 "$rc"
assert_match "... that says what it takes" "--since wants 90s, 5m" "$(cat "$T/err")"
run_rc "$FABTOP" --demo show events --duration 0
assert_eq "--duration 0 is a usage error" 2 "$rc"
run_rc "$FABTOP" --demo show ports --since 5m
assert_eq "--since with another section: usage error" 2 "$rc"
run_rc "$FABTOP" --demo show events --count 3
assert_eq "--count with events: usage error" 2 "$rc"
run_rc "$FABTOP" --demo show events gids
assert_eq "one section at a time" 2 "$rc"

# Without --duration it watches until a signal: SIGINT ends it cleanly, JSON printed.
"$FABTOP" --demo show events --interval 0.1 --json >"$T/int.out" 2>"$T/int.err" &
pid=$!
sleep 1
kill -INT $pid
rc=0; wait $pid || rc=$?
assert_eq "SIGINT ends the watch with exit 0" 0 "$rc"
assert_json "and the JSON document is printed" "$T/int.out" '.events | type == "array"'

run_rc "$FABTOP" --sysfs "$DATA/trees/ib-2port" show events --duration 0.3 --json
assert_eq "a fixture tree (no verbs, no notifications): exit 0" 0 "$rc"
done_testing
