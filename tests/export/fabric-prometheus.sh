#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# data/fabtop-fabric-grafana.json and data/fabtop-fabric-alerts.yml against a
# real Prometheus scraping a real `fabtop export --fabric` on ibsim
# (small-tree.net under opensm), through the shipped
# data/prometheus-fabtop.yml: every metric the dashboard names is in a real
# scrape (and a misspelt one is caught), every panel's PromQL is accepted,
# the rules load healthy, the 1X uplink is seen degraded, and real faults
# fire alerts: symbol errors set with PerformanceSet on the ibsim console
# (FabtopFabricSymbolErrors on that cable), a cable unlinked
# (FabtopFabricLinkLost), a switch whose MADs are all dropped
# (FabtopFabricNodeSilent pending on the spine ports that lead to it).
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/export/lib.sh"
. "$TOP_SRCDIR/tests/export/prom-lib.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
prom_require
ibsim_require
DASH="$TOP_SRCDIR/data/fabtop-fabric-grafana.json"
PROM_LIFETIME=400

# --- the dashboard as Grafana reads it
assert_json "the dashboard is one JSON document" "$DASH" 'type == "object"'
assert_match "schemaVersion is Grafana 9/10's (36-39)" '^3[6-9]$' "$(jq '.schemaVersion' "$DASH")"
assert_eq "its uid is not the host dashboard's" "fabtop-ib-fabric" "$(jq -r .uid "$DASH")"
assert_eq "an exporter variable from label_values(fabtop_fabric_up, instance)" \
	"label_values(fabtop_fabric_up, instance)" \
	"$(jq -r '.templating.list[] | select(.name == "instance") | .query.query' "$DASH")"
assert_eq "every panel and query uses the data source variable" "" \
	"$(jq -r '.panels[] | select(.datasource.uid != "${datasource}" or any(.targets[]; .datasource.uid != "${datasource}")) | .title' "$DASH")"
assert_eq "panel ids are unique" "" "$(jq -r '.panels[].id' "$DASH" | sort | uniq -d)"
jq -r '.panels[].title' "$DASH" >"$T/titles"
missing=""
for want in Subnet "Sweep and sample time" "Degraded links" "Lost links and silent nodes" "Symbol errors per link" \
	"Link downed" "Error rates by counter" "Xmit wait" "Busiest links" "Link utilisation" "Saturated counters" Ports \
	"SM traps"; do
	grep -qxF "$want" "$T/titles" || missing="$missing '$want'"
done
assert_eq "the panels doc/export.md lists are there" "" "$missing"
jq -r '.panels[].targets[].expr' "$DASH" >"$T/exprs"
assert_eq "every fabtop_* selector has instance=~\"\$instance\"" "" \
	"$(grep -oE 'fabtop_[a-z_]+(\{[^}]*\})?' "$T/exprs" | grep -vF 'instance=~"$instance"' || :)"

# dash_names DASHBOARD: every metric name in its PromQL and variable queries.
dash_names() {
	jq -r '.panels[].targets[].expr, (.templating.list[] | select(.type == "query") | .query.query)' "$1" |
		grep -oE '\bfabtop_[a-z_]+' | sort -u
}
# not_scraped DASHBOARD PAGE: the names with no sample in PAGE (a # TYPE
# line is not enough: the dashboard reads series, not declarations).
not_scraped() {
	for _n in $(dash_names "$1"); do
		grep -Eq "^$_n(\{| )" "$2" || printf '%s ' "$_n"
	done
}

# --- the fabric, the exporter
ibsim_start "$DATA/ibsim/small-tree.net"
opensm_start h11
for h in h12 h21 h22 h31 h32; do port_active "$h"; done
sysfs_hold h11
fabric_exporter exp 1
check "the exporter swept the subnet and sampled every port" \
	until_metric '^fabtop_fabric_port_data_bytes_total\{node_guid="[^"]*",node_desc="h32 mlx5_0"' 30

# --- Prometheus through the shipped config, both rule files
prom_config "$T/prometheus.yml" 1s "$addr"
check "the shipped config loads the fabric rules" grep -q 'fabtop-fabric-alerts.yml' "$T/prometheus.yml"
if ! prom_start "$T/prometheus.yml"; then
	not_ok "prometheus starts on 127.0.0.1"; done_testing; exit
fi
ok "prometheus is ready at $prom_url"
if ! prom_wait_scrapes 1 3 60; then
	not_ok "the exporter is up in Prometheus, scraped 3 times"; done_testing; exit
fi
ok "the exporter is up in Prometheus, scraped 3 times"
curl -sS --max-time 10 "$prom_url/api/v1/rules" >"$T/rules.json"
assert_eq "the 8 fabric rules are loaded, all healthy" "8 0" \
	"$(jq -r '[.data.groups[] | select(.name == "fabtop-fabric") | .rules[]] | "\(length) \([.[] | select(.health != "ok")] | length)"' "$T/rules.json")"

# alerts_of NAME [STATE]: "node_desc/port" of NAME's alerts (in STATE), sorted, one line.
alerts_of() {
	curl -sS --max-time 10 "$prom_url/api/v1/alerts" |
		jq -r --arg n "$1" --arg s "${2:-}" '.data.alerts[] | select(.labels.alertname == $n and ($s == "" or .state == $s)) |
			"\(.labels.node_desc)/\(.labels.port)"' | sort -u | tr '\n' ' ' | sed 's/ $//'
}
# until_alert NAME STATE WANT SECONDS
until_alert() {
	_end=$(( $(date +%s) + $4 ))
	while :; do
		_got=$(alerts_of "$1" "$2")
		[ "$_got" = "$3" ] && return 0
		[ "$(date +%s)" -lt "$_end" ] || { diag "$1 $2: '$_got', want '$3'"; return 1; }
		sleep 0.5
	done
}
check "the 1X uplink is a degraded link at both ends (FabtopFabricLinkDegraded pending)" \
	until_alert FabtopFabricLinkDegraded pending "leaf 3/3 spine 1/3" 20
assert_eq "the healthy fabric fires nothing else" "" \
	"$(curl -sS --max-time 10 "$prom_url/api/v1/alerts" | jq -r '.data.alerts[] | select(.labels.alertname | startswith("FabtopFabric")) | select(.labels.alertname != "FabtopFabricLinkDegraded") | .labels.alertname' | sort -u)"

# --- real faults
ibsim_cmd 'PerformanceSet "L2"[1] PortCounters.SymbolErrorCounter=50' "SymbolErrorCounter has been set to 50"
t0=$(date +%s)
check "50 symbol errors set on leaf 2 port 1 fire FabtopFabricSymbolErrors there, and nowhere else" \
	until_alert FabtopFabricSymbolErrors firing "leaf 2/1" 30
diag "firing $(( $(date +%s) - t0 )) s after PerformanceSet"
assert_eq "... naming the far end of the cable" "h21 mlx5_0 1" \
	"$(curl -sS --max-time 10 "$prom_url/api/v1/alerts" | jq -r '.data.alerts[] | select(.labels.alertname == "FabtopFabricSymbolErrors") | "\(.labels.remote_desc) \(.labels.remote_port)"')"

# a counter latched at its maximum: the only fabtop_fabric_port_saturated sample
ibsim_cmd 'PerformanceSet "L1"[2] PortCounters.PortXmitDiscards=65535' "PortXmitDiscards has been set to 65535"
check "leaf 1 port 2's discards latched at 65535 fire FabtopFabricCounterSaturated there, and nowhere else" \
	until_alert FabtopFabricCounterSaturated firing "leaf 1/2" 30
assert_eq "... naming the counter" "port_xmit_discards 16" \
	"$(curl -sS --max-time 10 "$prom_url/api/v1/alerts" | jq -r '.data.alerts[] | select(.labels.alertname == "FabtopFabricCounterSaturated") | "\(.labels.counter) \(.labels.bits)"')"

ibsim_cmd 'Unlink "L3"[1]' "sim>"
check "the cable unlinked between leaf 3 and h31 fires FabtopFabricLinkLost" \
	sh -c 'end=$(($(date +%s) + 30)); while [ "$(date +%s)" -lt $end ]; do
		curl -sS --max-time 10 "$1/api/v1/alerts" | jq -e ".data.alerts[] | select(.labels.alertname == \"FabtopFabricLinkLost\" and .state == \"firing\" and ([.labels.node_desc, .labels.remote_desc] | sort) == [\"h31 mlx5_0\", \"leaf 3\"])" >/dev/null && exit 0
		sleep 0.5; done; exit 1' _ "$prom_url"

ibsim_cmd 'Error "L2" 100' 'sim>'
check "leaf 2 silent: the spine ports that lead to it are FabtopFabricNodeSilent (pending)" \
	until_alert FabtopFabricNodeSilent pending "spine 1/2 spine 2/2" 30

# --- every metric of the dashboard in a real scrape (link_lost and saturated are there now)
scrape "$addr" -o "$T/final.prom"
assert_eq "every metric the dashboard names has samples in a real scrape" "" "$(not_scraped "$DASH" "$T/final.prom")"
# The check is not vacuous: a dashboard with a misspelt name fails it.
sed 's/fabtop_fabric_port_degraded/fabtop_fabric_port_degrade/' "$DASH" >"$T/bad.json"
assert_eq "... and it catches a misspelt one" "fabtop_fabric_port_degrade " "$(not_scraped "$T/bad.json" "$T/final.prom")"

# --- every expression, with Grafana's variables substituted
dashboard_queries "$DASH" "$(printf '%s' "$addr" | sed 's/\./\\\\./g')"
# every panel has data: leaf 1 port 2's discards are latched, for the Saturated counters one
MAY_BE_EMPTY=
check_queries "on ibsim"
prom_stop
done_testing
