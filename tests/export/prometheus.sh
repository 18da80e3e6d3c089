#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A real Prometheus scrapes four fabtop exporters (the demo fabric with three
# seeds, and a fixture tree whose data counter a writer moves at a known
# rate): every host's ports arrive, rate() agrees with fabtop's own rate
# within 1%, the saturated counter is flagged and never stored as a value,
# the doctor's findings are there. The scrapes negotiate OpenMetrics and gzip.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/export/lib.sh"

slow_scenario
command -v prometheus >/dev/null || skip_all "prometheus is not installed (Debian package prometheus)"
command -v curl >/dev/null || skip_all "curl is not installed"

# The tree: ib-2port, its port 1 transmitting 12.5 M words/s (50 MB/s) from now on.
cp -R "$DATA/trees/ib-2port" "$T/sys"
chmod -R u+w "$T/sys"
X=$(find "$T/sys/" -path '*/ports/1/counters/port_xmit_data' | head -1)
WORDS_PER_S=12500000
python3 - "$X" "$WORDS_PER_S" 150 <<'PY' &
import os, sys, time
path, rate, life = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
t0 = time.monotonic()
# Written in place, as sysfs changes: fabtop keeps the file open and
# re-reads it. One fixed-width write per value, so a read sees a whole one.
fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
while time.monotonic() - t0 < life:		# bounded: the test is done long before
    v = 1000 + int(rate * (time.monotonic() - t0))
    os.pwrite(fd, b"%020d\n" % v, 0)
    time.sleep(0.005)
PY
writer=$!
cleanup_add "kill $writer 2>/dev/null"

for s in 1 2 3; do
	start_exporter "demo$s" --demo --seed "$s" export --interval 1
done
# Collected five times a scrape: the page a scrape reads is at most 0.2 s old.
start_exporter tree --sysfs "$T/sys" export --interval 0.2

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$T/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: fabtop
    static_configs:
      - targets: ['$demo1_addr']
        labels: {instance: demo1}
      - targets: ['$demo2_addr']
        labels: {instance: demo2}
      - targets: ['$demo3_addr']
        labels: {instance: demo3}
      - targets: ['$tree_addr']
        labels: {instance: tree}
YML
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
	--web.listen-address="127.0.0.1:$port" --log.level=warn >"$T/prom.log" 2>&1 &
prom=$!
cleanup_add "kill $prom 2>/dev/null; wait $prom 2>/dev/null"

# q PROMQL: the API's answer (JSON), bounded in time.
q() { curl -sS --max-time 10 "http://127.0.0.1:$port/api/v1/query" --data-urlencode "query=$1"; }
# qv PROMQL: the value of a one-element answer ("" when none).
qv() { q "$1" | jq -r '.data.result[0].value[1] // ""'; }

# Up, and two scrapes of every target (a deadline, never a fixed sleep).
i=0
while [ $i -lt 300 ]; do
	n=$(qv 'count(count_over_time(up[1m]) >= 2 and up == 1)' 2>/dev/null || true)
	[ "$n" = 4 ] && break
	kill -0 $prom 2>/dev/null || break
	sleep 0.1
	i=$((i + 1))
done
assert_eq "Prometheus scraped all four exporters at least twice" 4 "$n"
[ "$n" = 4 ] || diag "$(tail -20 "$T/prom.log")" "$(q up)"

for s in 1 2 3; do
	want=$("$FABTOP" --demo --seed "$s" show ports --json | jq '[.devices[].ports[]] | length')
	assert_eq "demo$s: every port is in Prometheus" "$want" "$(qv "count(fabtop_port_state{instance=\"demo$s\"})")"
done
want=$("$FABTOP" --sysfs "$T/sys" show ports --json | jq '[.devices[].ports[]] | length')
assert_eq "tree: every port is in Prometheus" "$want" "$(qv 'count(fabtop_port_state{instance="tree"})')"
assert_eq "GIDs of every demo host" 3 "$(qv 'count(count by (instance) (fabtop_gid_info{instance=~"demo."}))')"
meta=$(curl -sS --max-time 10 "http://127.0.0.1:$port/api/v1/metadata" | jq -c '.data.fabtop_gid // .data.fabtop_gid_info')
assert_match "the scrapes were OpenMetrics (info families typed as such)" '"type":"info"' "$meta"
# Prometheus asks for gzip: from its next page on, the exporter deflates OpenMetrics, and what
# follows (rates, saturation, findings) is read from gzip'ed pages.
h=$(curl -sS --max-time 10 -o /dev/null -D - -H "Accept: $OM" -H 'Accept-Encoding: gzip' "http://$tree_addr/metrics")
assert_match "Prometheus asked for gzip: the first such curl gets the page gzip'ed" 'Content-Encoding: gzip' "$h"

# Rates: twenty seconds of scrapes, then Prometheus' rate() beside fabtop's own.
i=0
while [ $i -lt 400 ]; do
	n=$(qv 'count_over_time(fabtop_port_transmit_bytes_total{instance="tree",port="1"}[25s])')
	[ "${n:-0}" -ge 21 ] && break
	sleep 0.1
	i=$((i + 1))
done
prom_rate=$(qv 'rate(fabtop_port_transmit_bytes_total{instance="tree",port="1"}[20s])')
# fabtop's own over 10 s: the writer paces by the clock, and under load a read
# may see a value some tens of ms old; over 2 s that alone was over 1%
own_gbps=$("$FABTOP" --sysfs "$T/sys" show counters --json --interval 10 --count 1 |
	jq -r '.ports[] | select(.port == 1) | .xmit_gbps')
own_rate=$(echo "$own_gbps * 1000000000 / 8" | bc -l)
truth=$((WORDS_PER_S * 4))
diag "rate(): $prom_rate B/s; fabtop show counters: $own_rate B/s; the writer: $truth B/s"
within() { echo "d = ($1) - ($2); if (d < 0) d = -d; d <= ($2) / 100" | bc -l; }
assert_eq "rate() equals fabtop's own rate within 1%" 1 "$(within "$prom_rate" "$own_rate")"
assert_eq "and both are the writer's rate (bytes = words x 4)" 1 "$(within "$prom_rate" "$truth")"
for s in 1 2 3; do
	r=$(qv "rate(fabtop_port_receive_bytes_total{instance=\"demo$s\",device=\"mlx5_0\",port=\"1\"}[5s]) > 0")
	assert_match "demo$s: its traffic has a rate" '^[0-9.e+]+$' "$r"
done

# Saturation: flagged, never a value.
assert_eq "the saturated counter is flagged" 1 \
	"$(qv 'fabtop_saturated{instance="tree",port="1",counter="port_xmit_wait"}')"
assert_eq "and no value of it is stored" 0 \
	"$(q 'fabtop_port_count_total{instance="tree",port="1",counter="port_xmit_wait"}' | jq '.data.result | length')"

# The doctor: the demo's same-subnet host has its finding on every seed.
assert_eq "doctor findings are there" 3 \
	"$(qv 'count(fabtop_doctor_finding{code="same-subnet-route",severity="error"})')"
assert_eq "error counters carry their kind on every host" 4 \
	"$(qv 'count(count by (instance) (fabtop_port_count_total{kind="error"}))')"
assert_eq "every exporter reports its own cost" 4 "$(qv 'count(fabtop_exporter_collect_cpu_seconds_total)')"
assert_eq "all four stayed up on gzip'ed pages (no failed scrape in the last 20 s)" 4 \
	"$(qv 'count(min_over_time(up[20s]) == 1)')"

done_testing
