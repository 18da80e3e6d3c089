#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Cluster pane against a real Prometheus (Debian's) scraping three
# fabtop exporters: the three hosts and their ports show with live rates;
# Prometheus stopped, the pane says so and the monitor keeps running;
# Prometheus restarted on its address and storage, the rows come back.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/tui/lib.sh"
. "$TOP_SRCDIR/tests/export/lib.sh"
. "$TOP_SRCDIR/tests/export/prom-lib.sh"
prom_require

for s in 1 2 3; do
	start_exporter "demo$s" --demo --seed "$s" export --interval 1
done
prom_config "$T/prometheus.yml" 1s "$demo1_addr" "$demo2_addr" "$demo3_addr"
prom_start "$T/prometheus.yml" || skip_all "prometheus does not start: $(tail -5 "$T/prometheus.log")"
prom_wait_scrapes 3 3 60 || not_ok "Prometheus scrapes the three exporters"
ports=$("$FABTOP" --demo show ports --json | jq '[.devices[].ports[]] | length')

tui_start 160 40 no_proxy=127.0.0.1 NO_PROXY=127.0.0.1 -- --demo --interval 1 --prometheus "$prom_url" --pane cluster
tui_expect "the Cluster pane shows the first exporter" "$demo1_addr" 20
tui_expect "the second" "$demo2_addr"
tui_expect "and the third" "$demo3_addr"
tui_expect "the status line counts every host's ports" "3 hosts, $((3 * ports)) ports" 20
# rate() needs two scrapes in its window: live Gb/s on the demo's busy port.

deadline=$(( $(date +%s) + 20 ))
while :; do
	tui_screen >"$T/screen"
	line=$(grep -F -- "$demo1_addr" "$T/screen" | grep ' mlx5_0 ' | head -1)
	echo "$line" | grep -Eq 'ACTIVE +[0-9.]+ +[1-9][0-9.]* +[1-9][0-9.]*' && break
	[ "$(date +%s)" -lt "$deadline" ] || break
	sleep 0.5
done
assert_match "a demo port moves traffic: state, rate, in and out Gb/s from rate()" \
	'mlx5_0 +1 +ACTIVE +100 +[1-9][0-9.]* +[1-9][0-9.]*' "$line"
assert_match "the doctor's findings per host" "[1-9] *\$" "$line"

tui_keys Enter
tui_expect "Enter: the port's series, from Prometheus" "fabtop_port_active_mtu_bytes" 15
tui_keys Escape

prom_stop
tui_expect "Prometheus stopped: the pane says so" "cannot be reached" 20
tui_keys 1
tui_expect "the monitor keeps running (1: Ports)" "PHYSICAL"
tui_keys 8
tui_expect "back on the Cluster pane, still said" "cannot be reached"

# The same address and storage: the rows come back from what it kept and scrapes anew.
port=${prom_url##*:}
timeout "${PROM_LIFETIME:-300}" prometheus --config.file="$T/prometheus.yml" \
	--storage.tsdb.path="$T/prom-data" --web.listen-address="127.0.0.1:$port" \
	--log.level=warn >"$T/prometheus2.log" 2>&1 &
prom_pid=$!
cleanup_add "kill $prom_pid 2>/dev/null; wait $prom_pid 2>/dev/null"
tui_expect_gone "Prometheus restarted: the error goes" "cannot be reached" 40
tui_expect "and the three hosts are back" "3 hosts, $((3 * ports)) ports" 20
tui_quit >/dev/null || :
tui_expect_exit "a clean exit" 0
done_testing
