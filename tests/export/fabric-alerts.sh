#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# data/fabtop-fabric-alerts.yml: valid for promtool, every alert fires and
# stays quiet as tests/export/fabtop-fabric-alerts.test.yml says, and those
# cases are not vacuous: breaking any rule's distinguishing clause makes
# them fail. tests/export/fabric-prometheus.sh runs the same rules in a real
# Prometheus over a real `fabtop export --fabric` on ibsim.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/export/lib.sh"
command -v promtool >/dev/null || skip_all "promtool not installed (Debian package prometheus)"
command -v python3 >/dev/null || skip_all "python3 not installed"
RULES="$TOP_SRCDIR/data/fabtop-fabric-alerts.yml"
CASES="$TOP_SRCDIR/tests/export/fabtop-fabric-alerts.test.yml"

check "promtool check rules data/fabtop-fabric-alerts.yml" timeout 60 promtool check rules "$RULES"
alerts=$(sed -n 's/^ *- alert: *//p' "$RULES" | sort)
assert_eq "the eight fabric alerts of doc/export.md are defined" \
	"FabtopFabricBlind FabtopFabricCounterSaturated FabtopFabricLinkDegraded FabtopFabricLinkDowned FabtopFabricLinkLost FabtopFabricNodeSilent FabtopFabricSymbolErrors FabtopFabricXmitWait" \
	"$(printf '%s\n' "$alerts" | paste -sd' ')"
# Every alert has a case where it fires and one where it stays quiet.
untested="" unquiet=""
for a in $alerts; do
	python3 - "$CASES" "$a" <<'PY' || untested="$untested $a"
import sys, yaml
cases, name = sys.argv[1:]
evals = [e for t in yaml.safe_load(open(cases))["tests"] for e in t["alert_rule_test"] if e["alertname"] == name]
sys.exit(0 if any(e["exp_alerts"] for e in evals) else 1)
PY
	python3 - "$CASES" "$a" <<'PY' || unquiet="$unquiet $a"
import sys, yaml
cases, name = sys.argv[1:]
tests = yaml.safe_load(open(cases))["tests"]
# Quiet: an evaluation expecting nothing, or one where some input series
# (a look-alike) is not among the alerts expected.
def quiet(t):
    for e in t["alert_rule_test"]:
        if e["alertname"] != name:
            continue
        if not e["exp_alerts"] or len(e["exp_alerts"]) < len(t["input_series"]):
            return True
    return False
sys.exit(0 if any(quiet(t) for t in tests) else 1)
PY
done
assert_eq "every fabric alert has a case where it fires" "" "$untested"
assert_eq "every fabric alert has a case where it stays quiet" "" "$unquiet"
n=$(echo "$alerts" | wc -l)
assert_eq "every alert has a summary and a description" "$n $n" \
	"$(grep -c '^ *summary:' "$RULES") $(grep -c '^ *description:' "$RULES")"

# promtool resolves rule_files relative to the test file: run it where it is.
check "promtool test rules tests/export/fabtop-fabric-alerts.test.yml" \
	sh -c 'cd "$1" && timeout 120 promtool test rules "$2"' _ "$(dirname "$CASES")" "$(basename "$CASES")"

# Mutations: each replaces the clause that keeps a look-alike quiet (or the
# alert timely); the cases must then fail. WHAT@FROM@TO, FROM matched
# literally (a backslash-n is a newline).
rule_mutants "$RULES" "$CASES" <<'EOF_M'
alerts on a few symbol errors@{counter="symbol_error"}[10m]) > 10@{counter="symbol_error"}[10m]) > 0
counts every error counter as symbol errors@increase(fabtop_fabric_port_count_total{counter="symbol_error"}[10m])@increase(fabtop_fabric_port_count_total[10m])
remembers a flap for 30 minutes@{counter="link_downed"}[15m]) > 0@{counter="link_downed"}[30m]) > 0
calls a training link degraded@fabtop_fabric_port_degraded == 1\n        for: 2m@fabtop_fabric_port_degraded == 1
alerts on links that are not degraded@expr: fabtop_fabric_port_degraded == 1@expr: fabtop_fabric_port_degraded >= 0
alerts on light xmit wait@[5m]) > 100000@[5m]) > 10000
alerts on a short xmit wait@[5m]) > 100000\n        for: 10m@[5m]) > 100000
waits before calling a link lost@expr: fabtop_fabric_link_lost == 1@expr: fabtop_fabric_link_lost == 1\n        for: 2m
calls every up port silent@fabtop_fabric_port_info{remote_guid=""} == 1@fabtop_fabric_port_info == 1
calls one missed sweep silent@{remote_guid=""} == 1\n        for: 2m@{remote_guid=""} == 1
takes a host's latched counter for the fabric's@expr: fabtop_fabric_port_saturated == 1@expr: {__name__=~"fabtop_(fabric_port_)?saturated"} == 1
alerts on a counter that counts@expr: fabtop_fabric_port_saturated == 1@expr: fabtop_fabric_port_saturated == 1 or fabtop_fabric_port_count_total{counter="port_xmit_wait"} >= 0
calls a slow start blind@fabtop_fabric_up == 0\n        for: 5m@fabtop_fabric_up == 0\n        for: 1m
calls a sweeping exporter blind@expr: fabtop_fabric_up == 0@expr: fabtop_fabric_up >= 0
EOF_M
done_testing
