#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: one Cluster pane refresh for 1,000 hosts x 2 ports served by
# the fake Prometheus on 127.0.0.1: time per refresh, the parse+merge part,
# and peak memory. Fails (never prints zeros) when it cannot run.
. "$TOP_SRCDIR/tests/setup.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed (tools/debian-packages lists it)"
BENCH="$TOP_BUILDDIR/tests/bench/bench_cluster"
[ -x "$BENCH" ] || skip_all "$BENCH is not built (make bench builds it)"
HOSTS=${FABTOP_BENCH_HOSTS:-1000}

python3 "$TOP_SRCDIR/tests/cluster/fake-prom.py" --hosts "$HOSTS" --ports 2 --lifetime 300 \
	--port-file "$T/port" 2>"$T/fake.err" &
SRV=$!
cleanup_add "kill $SRV 2>/dev/null"
d=$(( $(date +%s) + 20 ))
until [ -s "$T/port" ]; do
	kill -0 "$SRV" 2>/dev/null || skip_all "the fake Prometheus did not start: $(cat "$T/fake.err")"
	[ "$(date +%s)" -lt "$d" ] || skip_all "the fake Prometheus did not listen within 20 s"
	sleep 0.1
done
no_proxy=127.0.0.1 NO_PROXY=127.0.0.1 "$BENCH" "http://127.0.0.1:$(cat "$T/port")" $((HOSTS * 2)) 5
