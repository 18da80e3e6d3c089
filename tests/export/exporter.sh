#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop export over HTTP and as a textfile: both text formats, promtool's
# lint, saturation, escaping, the textfile's atomic replace, usage errors
# and a clean stop.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/export/lib.sh"

command -v curl >/dev/null || skip_all "curl is not installed"
command -v promtool >/dev/null || skip_all "promtool is not installed (Debian package prometheus)"

# --- the demo fabric, both formats
start_exporter demo --demo --seed 3 export --interval 0.5
scrape "$demo_addr" -o "$T/demo.prom" -D "$T/demo.hdr"
scrape "$demo_addr" -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' \
	-o "$T/demo.om" -D "$T/demo.omhdr"
assert_match "Prometheus 0.0.4 by default" 'Content-Type: text/plain; version=0.0.4' "$(cat "$T/demo.hdr")"
assert_match "OpenMetrics when asked for" 'Content-Type: application/openmetrics-text; version=1.0.0' "$(cat "$T/demo.omhdr")"
check "promtool check metrics is clean on the 0.0.4 text" sh -c "promtool check metrics <'$T/demo.prom'"
assert_eq "OpenMetrics ends with # EOF" "# EOF" "$(tail -1 "$T/demo.om")"
assert_eq "0.0.4 has no # EOF" "" "$(grep '^# EOF' "$T/demo.prom" || true)"
assert_match "OpenMetrics names counter families without _total and has units" \
	'^# TYPE fabtop_port_transmit_bytes counter$' "$(grep '^# TYPE fabtop_port_transmit_bytes' "$T/demo.om")"
assert_match "OpenMetrics has UNIT lines" '^# UNIT fabtop_port_transmit_bytes bytes$' "$(cat "$T/demo.om")"
assert_match "info families are info in OpenMetrics" '^# TYPE fabtop_gid info$' "$(cat "$T/demo.om")"
assert_match "and gauges in 0.0.4" '^# TYPE fabtop_gid_info gauge$' "$(cat "$T/demo.prom")"
assert_eq "same samples in both formats" \
	"$(grep -v '^#' "$T/demo.prom" | sed 's/ .*//' | sort)" "$(grep -v '^#' "$T/demo.om" | sed 's/ .*//' | sort)"

# Every port of `show ports --json` has its state and rate, with the same values.
"$FABTOP" --demo --seed 3 show ports --json >"$T/ports.json"
n_ports=$(jq '[.devices[].ports[]] | length' "$T/ports.json")
assert_eq "one fabtop_port_state per port" "$n_ports" "$(grep -c '^fabtop_port_state{' "$T/demo.prom")"
jq -r '.devices[] | .name as $d | .ports[] | "\($d) \(.port) \(.rate_gbps)"' "$T/ports.json" >"$T/rates"
bad=""
while read -r dev port gbps; do
	v=$(metric "$T/demo.prom" "fabtop_port_rate_bytes_per_second{device=\"$dev\",port=\"$port\"}")
	[ "$(echo "$v == $gbps * 1000000000 / 8" | bc)" = 1 ] || bad="$bad $dev/$port:$v!=$gbps"
done <"$T/rates"
assert_eq "rates in bytes per second match show ports" "" "$bad"
assert_match "data counters are exported in bytes" '^[0-9]+$' \
	"$(metric "$T/demo.prom" 'fabtop_port_data_bytes_total{device="mlx5_0",port="1",counter="port_xmit_data"')"
assert_match "error counters carry kind=\"error\" and their width" \
	'^fabtop_port_count_total\{device="mlx5_0",port="1",counter="symbol_error",source="counters",kind="error",bits="16"\} [0-9]+$' \
	"$(cat "$T/demo.prom")"
assert_match "doctor findings are exported" \
	'^fabtop_doctor_finding\{code="same-subnet-route",severity="error",iface="ib1",address="172.16.34.2"' "$(cat "$T/demo.prom")"
assert_match "GIDs as info" '^fabtop_gid_info\{device="mlx5_1",port="1",index="3",gid="0000:0000:0000:0000:0000:ffff:0a14:0001",type="RoCE v2",netdev="enp65s0f0",ipv4="10.20.0.1"\} 1$' \
	"$(cat "$T/demo.prom")"

# Scrapes read the latest collection: collections move with the interval, not with scrapes.
start_exporter hourly --demo export --interval 3600
c1=$(scrape "$hourly_addr" | metric /dev/stdin fabtop_exporter_collections_total)
for i in 1 2 3 4 5 6 7 8 9 10; do scrape "$hourly_addr" >/dev/null; done
c2=$(scrape "$hourly_addr" | metric /dev/stdin fabtop_exporter_collections_total)
assert_eq "scrapes never collect" "1 1" "$c1 $c2"
c2=$(scrape "$demo_addr" | metric /dev/stdin fabtop_exporter_collections_total)
sleep 1.2
c3=$(scrape "$demo_addr" | metric /dev/stdin fabtop_exporter_collections_total)
assert_match "the interval collects" '^[1-9]' "$((c3 - c2))"
s=$(scrape "$hourly_addr" | metric /dev/stdin fabtop_exporter_scrapes_total)
assert_match "scrapes are counted" '^[1-9][0-9]+$' "$s"

# HTTP: unknown paths, methods, bodies.
assert_eq "/ answers" 200 "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://$demo_addr/")"
assert_eq "an unknown path is 404" 404 "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://$demo_addr/nope")"
assert_eq "POST is 405" 405 "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 -d x=1 "http://$demo_addr/metrics")"
# Every other method is 405 and says what is served: only GET and HEAD read.
for m in PUT DELETE PATCH OPTIONS; do
	assert_eq "$m is 405, with Allow: GET, HEAD" "405 GET, HEAD" \
		"$(curl -s -o /dev/null -D "$T/m.hdr" -w '%{http_code}' --max-time 5 -X "$m" -d x=1 "http://$demo_addr/metrics") $(
			sed -n 's/^Allow: \(.*\)\r$/\1/p' "$T/m.hdr")"
done
assert_eq "HEAD works" 200 "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 -I "http://$demo_addr/metrics")"
r=$(scrape "$demo_addr" | metric /dev/stdin fabtop_exporter_http_rejected_total)
assert_eq "refused requests are counted" 6 "$r"

kill -TERM "$demo_pid"
set +e; wait "$demo_pid"; rc=$?; set -e
assert_eq "SIGTERM stops it with exit 0" 0 "$rc"

# --- a saturated counter (the ib-2port tree's port_xmit_wait is at 2^32-1)
start_exporter tree --sysfs "$DATA/trees/ib-2port" export --interval 0.5
scrape "$tree_addr" -o "$T/tree.prom"
check "promtool check metrics is clean on a tree" sh -c "promtool check metrics <'$T/tree.prom'"
assert_eq "a saturated counter is flagged" 1 \
	"$(metric "$T/tree.prom" 'fabtop_saturated{device="mlx4_0",port="1",counter="port_xmit_wait",source="counters",bits="32"}')"
assert_eq "and not exported as a value" "" "$(grep 'port="1",counter="port_xmit_wait"' "$T/tree.prom" | grep -v '^fabtop_saturated' || true)"
assert_eq "a counter that is not saturated says 0" 0 \
	"$(metric "$T/tree.prom" 'fabtop_saturated{device="mlx4_0",port="1",counter="symbol_error",source="counters",bits="16"}')"
# Bytes are the fixture's 4-octet data counters times 4, exactly (the demo
# moves between two reads; the tree does not).
C="$DATA/trees/ib-2port/devices/pci0000:00/0000:00:02.0/0000:03:00.0/infiniband/mlx4_0/ports/1/counters"
for c in port_xmit_data port_rcv_data; do
	words=$(cat "$C/$c")
	assert_eq "$c is exported in bytes: 4 x the fixture's $words" "$(echo "$words * 4" | bc)" \
		"$(metric "$T/tree.prom" "fabtop_port_data_bytes_total{device=\"mlx4_0\",port=\"1\",counter=\"$c\",")"
done

# --- hostile names: label values stay one valid line each
H="$T/hsys"
P="$H/class/infiniband/ev\"il\\0/ports/1"
mkdir -p "$P/counters" "$H/class/net"
printf '4: ACTIVE\n' >"$P/state"
printf 'InfiniBand\n' >"$P/link_layer"
printf '3\n' >"$P/counters/$(printf 'a\nb')"
printf '5\n' >"$P/counters/$(printf 'bad\377utf8')"
printf '9\n' >"$P/counters/symbol_error"
start_exporter hostile --sysfs "$H" export --interval 0.5
scrape "$hostile_addr" -o "$T/hostile.prom"
check "promtool accepts hostile names" sh -c "promtool check metrics <'$T/hostile.prom'"
# (a newline in a name is cleaned where it enters: tests/core/hostile-names.sh walks the rest)
assert_match "quotes and backslashes are escaped, a newline in a name cleaned" \
	'^fabtop_port_count_total\{device="ev\\"il\\\\0",port="1",counter="a\?b"' "$(cat "$T/hostile.prom")"
assert_match "invalid UTF-8 becomes U+FFFD" "counter=\"bad$(printf '\357\277\275')utf8\"" "$(cat "$T/hostile.prom")"

# --- textfile: written whole for node_exporter, --count ends it
run_rc "$FABTOP" --demo export --textfile "$T/fabtop.prom" --no-http --interval 0.2 --count 3
assert_eq "--textfile --no-http --count 3 exits 0" 0 "$rc"
assert_match "it says where it writes" "writing $T/fabtop.prom" "$(cat "$T/out")"
check "the textfile passes promtool" sh -c "promtool check metrics <'$T/fabtop.prom'"
assert_eq "the textfile counts its collections" 3 "$(metric "$T/fabtop.prom" fabtop_exporter_collections_total)"
assert_eq "no temporary file is left" "fabtop.prom" "$(ls -A "$T" | grep prom | grep -v '^demo\|^tree\|^hostile' | tr '\n' ' ' | sed 's/ $//')"
assert_eq "the textfile is readable by the collector" "-rw-r--r--" "$(ls -l "$T/fabtop.prom" | cut -c1-10)"
run_rc "$FABTOP" --demo export --textfile "$T/nodir/x.prom" --no-http --count 1
assert_match "an unwritable textfile is said clearly" 'cannot create a file beside .*/nodir/x.prom: No such file' "$(cat "$T/err")"

# --- usage
run_rc "$FABTOP" export --listen nonsense
assert_eq "a bad --listen is a usage error" 2 "$rc"
assert_match "and says what it expects" 'expected ADDR:PORT' "$(cat "$T/err")"
run_rc "$FABTOP" export --listen 127.0.0.1:70000
assert_eq "a port past 65535 is a usage error" 2 "$rc"
run_rc "$FABTOP" export --no-http
assert_eq "--no-http without --textfile is a usage error" 2 "$rc"
run_rc "$FABTOP" --demo export --json
assert_eq "--json is refused" 2 "$rc"
run_rc "$FABTOP" export --help
assert_match "--help names the default address" '127.0.0.1:9879' "$(cat "$T/out")"
run_rc "$FABTOP" --demo export --probe 10.0.0.1
assert_eq "--probe on the demo fabric is refused" 2 "$rc"
assert_match "saying why" 'needs real RDMA devices' "$(cat "$T/err")"
run_rc "$FABTOP" export --probe 10.0.0.1,colour=blue
assert_eq "a --probe option it does not know is a usage error" 2 "$rc"
assert_match "naming it" "'colour=blue' is not from=" "$(cat "$T/err")"
run_rc "$FABTOP" export --probe 10.0.0.1,mode=bw
assert_eq "--probe mode=bw (a link-filling stream) is refused" 2 "$rc"
run_rc "$FABTOP" export --probe-interval 0
assert_eq "--probe-interval 0 is a usage error" 2 "$rc"
args=""
for i in 1 2 3 4 5 6 7 8 9; do args="$args --probe 10.0.0.$i"; done
run_rc "$FABTOP" export $args
assert_match "at most 8 probes" 'at most 8 probes' "$(cat "$T/err")"

# --probe where the host has no RDMA stack: the failure is a metric with its reason.
start_exporter probe --sysfs "$DATA/trees/roce" export --interval 0.3 --probe-interval 1 --probe "127.0.0.1,from=lo,port=7999"
i=0
while [ $i -lt 100 ]; do
	scrape "$probe_addr" -o "$T/probe.prom"
	grep -q '^fabtop_probe_success' "$T/probe.prom" && break
	sleep 0.1; i=$((i + 1))
done
assert_eq "a probe that cannot run says 0" 0 "$(metric "$T/probe.prom" 'fabtop_probe_success{peer="127.0.0.1",from="lo",port="7999"}')"
assert_match "and why, in fabtop_probe_info" '^fabtop_probe_info\{peer="127.0.0.1",from="lo",port="7999",device="",result="[A-Z_]+",detail=".+"\} 1$' \
	"$(cat "$T/probe.prom")"
assert_match "its runs are counted by result" '^fabtop_probe_runs_total\{peer="127.0.0.1",from="lo",port="7999",result="[A-Z_]+"\} [1-9]' \
	"$(cat "$T/probe.prom")"
check "promtool check metrics with probes" sh -c "promtool check metrics <'$T/probe.prom'"

# The port is taken: a clear message, exit 1.
start_exporter busy --demo export
run_rc "$FABTOP" --demo export --listen "$busy_addr"
assert_eq "a port in use is a runtime failure" 1 "$rc"
assert_match "said as such" "cannot listen on $busy_addr: Address already in use" "$(cat "$T/err")"

done_testing
