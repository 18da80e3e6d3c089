#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# data/fabtop-grafana.json against a real Prometheus: three demo exporters
# (seeds 1, 2, 3) scraped by Debian's prometheus through the shipped
# data/prometheus-fabtop.yml and data/fabtop-alerts.yml; then every PromQL
# expression of the dashboard, with Grafana's variables substituted as
# Grafana would, must be accepted, and the panels that always have data
# must return some. Everything listens on 127.0.0.1 and is killed by pid.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/export/lib.sh"
. "$TOP_SRCDIR/tests/export/prom-lib.sh"
prom_require
DASH="$TOP_SRCDIR/data/fabtop-grafana.json"
# Panels allowed an empty answer from the demo fabric, and why:
#   Far ends: the demo has no subnet to send MADs to, so no link partner;
#   Saturated counter list: a demo counter latches only once it fills,
#   which depends on how long the exporter has run.
MAY_BE_EMPTY="Far ends|Saturated counter list"

# --- the dashboard as Grafana reads it
assert_json "the dashboard is one JSON document" "$DASH" 'type == "object"'
assert_match "schemaVersion is Grafana 9/10's (36-39)" '^3[6-9]$' "$(jq '.schemaVersion' "$DASH")"
assert_eq "a Prometheus data source variable" "prometheus" \
	"$(jq -r '.templating.list[] | select(.name == "datasource") | "\(.type) \(.query)"' "$DASH" | sed 's/^datasource //')"
assert_eq "an instance variable from label_values(fabtop_port_info, instance)" \
	"label_values(fabtop_port_info, instance)" \
	"$(jq -r '.templating.list[] | select(.name == "instance") | .query.query' "$DASH")"
assert_eq "every panel and query uses the data source variable" "" \
	"$(jq -r '.panels[] | select(.datasource.uid != "${datasource}" or any(.targets[]; .datasource.uid != "${datasource}")) | .title' "$DASH")"
assert_eq "panel ids are unique" "" "$(jq -r '.panels[].id' "$DASH" | sort | uniq -d)"
jq -r '.panels[].title' "$DASH" >"$T/titles"
missing=""
for want in Ports Throughput "Error rates by counter" "Saturated counters" "Far ends" "Doctor findings" GIDs "Exporter cost"; do
	grep -qxF "$want" "$T/titles" || missing="$missing '$want'"
done
assert_eq "the panels doc/export.md lists are there" "" "$missing"
# Each fabtop_* selector is narrowed to the chosen hosts.
jq -r '.panels[].targets[].expr' "$DASH" >"$T/exprs"
unfiltered=$(grep -oE 'fabtop_[a-z_]+(\{[^}]*\})?' "$T/exprs" | grep -vF 'instance=~"$instance"' || :)
assert_eq "every fabtop_* selector has instance=~\"\$instance\"" "" "$unfiltered"

# The example config as shipped: valid, and its rule file found beside it.
check "promtool check config data/prometheus-fabtop.yml (with data/fabtop-alerts.yml)" \
	timeout 60 promtool check config "$TOP_SRCDIR/data/prometheus-fabtop.yml"

# --- three exporters, the real one
if ! "$FABTOP" export --help >/dev/null 2>&1; then
	not_ok "fabtop export exists (this fabtop has no export command)"
	done_testing; exit
fi
targets="" regex=""
# start_exporter sets eN_addr by eval, which shellcheck cannot follow.
# shellcheck disable=SC2154
for seed in 1 2 3; do
	# --interval 1: counters move between the 1 s scrapes below.
	start_exporter "e$seed" --demo --seed "$seed" export --interval 1
	eval "a=\$e${seed}_addr"
	targets="$targets $a"
	# Grafana's multi-value format for Prometheus: regex-escaped values,
	# joined by |, in parentheses; inside a PromQL string the \ is doubled.
	regex="$regex|$(printf '%s' "$a" | sed 's/\./\\\\./g')"
done
regex="(${regex#|})"
ok "three demo exporters listen on$targets"

# Families the dashboard reads must be ones the exporter declares (# TYPE),
# so a misspelt name cannot hide behind a panel that may be empty.
# shellcheck disable=SC2154
scrape "$e1_addr" >"$T/e1.prom"
undeclared=""
for name in $(grep -oE 'fabtop_[a-z_]+' "$T/exprs" | sort -u); do
	grep -q "^# TYPE $name " "$T/e1.prom" || undeclared="$undeclared $name"
done
assert_eq "every metric of the dashboard is one fabtop export declares" "" "$undeclared"

# shellcheck disable=SC2086
prom_config "$T/prometheus.yml" 1s $targets
check "promtool check config on the shipped scrape config with these targets" \
	timeout 60 promtool check config "$T/prometheus.yml"
if ! prom_start "$T/prometheus.yml"; then
	not_ok "prometheus starts on 127.0.0.1"; done_testing; exit
fi
ok "prometheus is ready at $prom_url"
if prom_wait_scrapes 3 3 60; then
	ok "all three targets up, each scraped at least 3 times"
else
	not_ok "all three targets up, each scraped at least 3 times"; done_testing; exit
fi

# The shipped alert rules evaluate on real data without error.
curl -sS --max-time 10 "$prom_url/api/v1/rules" >"$T/rules.json"
assert_eq "Prometheus loaded the 6 host alert rules, all healthy" "6 0" \
	"$(jq '[.data.groups[] | select(.name == "fabtop") | .rules[]] | "\(length) \([.[] | select(.health != "ok")] | length)"' -r "$T/rules.json")"

# The instance variable's query, as Grafana asks it.
curl -sS --max-time 10 -G --data-urlencode 'match[]=fabtop_port_info' \
	"$prom_url/api/v1/label/instance/values" >"$T/inst.json"
assert_eq "label_values(fabtop_port_info, instance) lists the three exporters" \
	"$(printf '%s\n' $targets | sort)" "$(jq -r '.data[]' "$T/inst.json" | sort)"

# --- every expression, with Grafana's variables substituted:
# $__rate_interval is at least four scrape intervals; 15s spans several.
dashboard_queries "$DASH" "$regex"
check_queries "on the demo"

# Data that must be there, not just some: every port of every host in the
# Ports table, and the demo's doctor findings.
n_ports=0
for seed in 1 2 3; do
	n=$("$FABTOP" --demo --seed "$seed" show ports --json | jq '[.devices[].ports[]] | length')
	n_ports=$((n_ports + n))
done
assert_eq "Ports/A has one row per port of the three demo hosts" "$n_ports" \
	"$(prom_query "$(jq -r 'select(.title == "Ports" and .ref == "A") | .expr' "$T/queries")" | jq '.data.result | length')"
# The demo fabric moves (a flapping port, error bursts), so findings may come
# and go while it runs: each host's panel rows must include at least the
# findings a one-shot `fabtop doctor` reports there, by code.
prom_query "$(jq -r 'select(.title == "Doctor findings") | .expr' "$T/queries")" |
	jq -r '.data.result[].metric | "\(.instance) \(.code)"' | sort -u >"$T/findings.panel"
: >"$T/findings.doctor"
for seed in 1 2 3; do
	eval "a=\$e${seed}_addr"
	"$FABTOP" --demo --seed "$seed" doctor --json 2>/dev/null |
		jq -r --arg i "$a" '.findings[] | "\($i) \(.code)"' >>"$T/findings.doctor" || :
done
sort -u -o "$T/findings.doctor" "$T/findings.doctor"
assert_match "fabtop doctor finds something on the demo hosts" . "$(cat "$T/findings.doctor")"
assert_eq "Doctor findings shows every finding of fabtop doctor on each host" "" \
	"$(comm -23 "$T/findings.doctor" "$T/findings.panel")"
done_testing
