#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: what a scrape of fabtop export costs on the 64-port bench tree,
# beside node_exporter's InfiniBand collector on the same tree in the same
# run. Goals: < 5 ms CPU per scrape (a scrape reads the latest collection),
# 100 concurrent scrapes served whole. Also the cost of one collection.
set -eu
B="$TOP_BUILDDIR/tests/bench/bench_collect"
[ -x "$B" ] || { echo "bench: $B is not built (make bench builds it)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench: python3 is not installed" >&2; exit 1; }
NE=$(command -v prometheus-node-exporter || command -v node_exporter || true)
[ -n "$NE" ] || { echo "bench: prometheus-node-exporter is not installed (tools/debian-packages lists it)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/fabtop-bench.XXXXXX")
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$T"' EXIT
"$B" --generate "$T/sys" >/dev/null
ports=$(ls -d "$T"/sys/class/infiniband/*/ports/* | wc -l)
N=200

# fabtop: collecting once an hour, so the window holds scrapes only.
"$FABTOP" --sysfs "$T/sys" export --listen 127.0.0.1:0 --interval 3600 >"$T/fabtop.out" 2>&1 &
pids="$pids $!"; fpid=$!
i=0; while [ $i -lt 100 ] && ! grep -q 'listening on' "$T/fabtop.out"; do sleep 0.05; i=$((i + 1)); done
faddr=$(sed -n 's/^fabtop export: listening on \([0-9.:]*\) .*/\1/p' "$T/fabtop.out")
[ -n "$faddr" ] || { echo "bench: fabtop export did not start: $(cat "$T/fabtop.out")" >&2; exit 1; }

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$NE" --path.sysfs="$T/sys" --collector.disable-defaults --collector.infiniband \
	--web.listen-address="127.0.0.1:$port" >"$T/ne.log" 2>&1 &
pids="$pids $!"; npid=$!
i=0; while [ $i -lt 100 ] && ! curl -s -o /dev/null "http://127.0.0.1:$port/metrics"; do sleep 0.05; i=$((i + 1)); done

set -- $(python3 "$TOP_SRCDIR/tests/bench/scrape-cpu.py" "$fpid" "$faddr" $N 100)
f_ms=$1 f_bytes=$3 f_samples=$4 f_conc=$5 f_conc_s=$6
set -- $(python3 "$TOP_SRCDIR/tests/bench/scrape-cpu.py" "$npid" "127.0.0.1:$port" $N 100)
n_ms=$1 n_bytes=$3 n_samples=$4 n_conc=$5 n_conc_s=$6
ib_samples=$(curl -s "http://127.0.0.1:$port/metrics" | grep -c '^node_infiniband_' || true)
[ "$ib_samples" -gt 0 ] || { echo "bench: node_exporter's infiniband collector read nothing of the tree" >&2; exit 1; }

echo "tree: $ports ports"
echo "CPU per scrape ($N scrapes): fabtop export $f_ms ms ($f_samples samples, $f_bytes bytes);" \
	"node_exporter infiniband collector $n_ms ms ($ib_samples infiniband samples, $n_bytes bytes)"
echo "100 concurrent scrapes: fabtop $f_conc whole in $f_conc_s s; node_exporter $n_conc in $n_conc_s s"

# One collection (counter refresh, network, doctor, both renderings) as the exporter counts it.
"$FABTOP" --sysfs "$T/sys" export --textfile "$T/x.prom" --no-http --interval 0.2 --count 20 >/dev/null
cpu=$(awk '$1=="fabtop_exporter_collect_cpu_seconds_total"{print $2}' "$T/x.prom")
echo "collection + rendering: $(echo "$cpu * 1000 / 20" | bc -l | xargs printf '%.2f') ms CPU each (20 collections)"

fail=0
[ "$(echo "$f_ms < 5" | bc -l)" = 1 ] || { echo "bench: FAILED: a scrape costs $f_ms ms CPU (goal < 5 ms)"; fail=1; }
[ "$f_conc" = 100 ] || { echo "bench: FAILED: $f_conc of 100 concurrent scrapes came back whole"; fail=1; }
exit $fail
