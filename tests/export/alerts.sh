#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# data/fabtop-alerts.yml: valid for promtool, every alert fires and stays
# quiet as tests/export/fabtop-alerts.test.yml says, and those cases are not
# vacuous: breaking any one rule's distinguishing clause makes them fail.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/export/lib.sh"
command -v promtool >/dev/null || skip_all "promtool not installed (Debian package prometheus)"
RULES="$TOP_SRCDIR/data/fabtop-alerts.yml"
CASES="$TOP_SRCDIR/tests/export/fabtop-alerts.test.yml"

check "promtool check rules data/fabtop-alerts.yml" timeout 60 promtool check rules "$RULES"
alerts=$(sed -n 's/^ *- alert: *//p' "$RULES" | sort)
assert_eq "the six alerts of doc/export.md are defined" \
	"FabtopCounterSaturated FabtopDoctorFinding FabtopExporterDown FabtopPortDown FabtopPortErrors FabtopPortFlapping" \
	"$(printf '%s\n' "$alerts" | paste -sd' ')"
# Every alert has a test case, and every alert explains itself.
untested=""
for a in $alerts; do grep -q "alertname: $a\$" "$CASES" || untested="$untested $a"; done
assert_eq "every alert has promtool test cases" "" "$untested"
n_sum=$(grep -c '^ *summary:' "$RULES"); n_desc=$(grep -c '^ *description:' "$RULES")
assert_eq "every alert has a summary and a description" "$(echo "$alerts" | wc -l) $(echo "$alerts" | wc -l)" "$n_sum $n_desc"

# promtool resolves rule_files relative to the test file: run it where it is.
check "promtool test rules tests/export/fabtop-alerts.test.yml" \
	sh -c 'cd "$1" && timeout 120 promtool test rules "$2"' _ "$(dirname "$CASES")" "$(basename "$CASES")"

# Mutations: each replaces the clause that keeps a look-alike quiet; the
# cases must then fail. WHAT@FROM@TO, FROM matched literally (a backslash-n is a newline).
rule_mutants "$RULES" "$CASES" <<'EOF_M'
alerts on disabled ports@unless on (instance, device, port) fabtop_port_physical_state == 3@
calls two state changes a flap@(changes(fabtop_port_state[15m])) > 2@(changes(fabtop_port_state[15m])) > 1
counts packets as errors@rate(fabtop_port_count_total{kind="error"}[5m])@rate(fabtop_port_count_total[5m])
alerts on unsaturated counters@expr: fabtop_saturated == 1@expr: fabtop_saturated >= 0
alerts on info findings@severity=~"warning|error"@severity=~".+"
watches every job's up@up{job="fabtop"} == 0@up == 0
fires errors on one burst@sum by (instance, job, device, port, counter) (rate(fabtop_port_count_total{kind="error"}[5m])) > 0\n        for: 5m@sum by (instance, job, device, port, counter) (rate(fabtop_port_count_total{kind="error"}[5m])) > 0
EOF_M
done_testing
