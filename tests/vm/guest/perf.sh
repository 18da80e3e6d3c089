#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop probe against perftest on one Soft-RoCE device, as medians of
# ROUNDS alternating runs (perftest first in odd rounds, fabtop first in
# even ones, so a drift of the host's load hits both alike): bw against
# ib_write_bw (RDMA WRITE 64 KiB, depth 16), lat's one-way p50 against
# ib_send_lat's typical (64-byte SEND ping-pong, both ends busy-polling).
# usage: perf.sh FABTOP [ROUNDS]
F=$1 R=${2:-5}
. /share/lib.inc
A=10.9.0.1
T=/tmp
N=400
L=5000

if rxe_single; then t_ok "rxe0 on a dummy netdev"; else t_nok "rxe0 on a dummy netdev"; exit 1; fi

# median of the numbers on stdin (the mean of the middle two for an even count)
median() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) exit; if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
num() { case $1 in ''|null|*[!0-9.e+-]*) return 1;; esac; }

pt_write_bw() {
	pt_pair $T/ptc.log $A ib_write_bw -s 65536 -n $N --report_gbits
	v=$(pt_bw_avg $T/ptc.log)
	if num "$v"; then echo "$v" >> $T/ib_bw; else echo "ib_write_bw gave '$v'"; show $T/ptc.log | tail -5; fi
}
fab_bw() {
	timeout 60 "$F" probe $A -p 7180 --mode bw -C $N -S 65536 -Q 16 --json > $T/fb.log 2>&1
	v=$(jq -r .avg_gbps $T/fb.log 2>/dev/null)
	if num "$v"; then echo "$v" >> $T/fab_bw; else echo "fabtop bw gave '$v'"; show $T/fb.log | tail -5; fi
}
pt_send_lat() {
	pt_pair $T/ptc.log $A ib_send_lat -s 64 -n $L
	v=$(pt_lat_typical $T/ptc.log)
	if num "$v"; then echo "$v" >> $T/ib_lat; else echo "ib_send_lat gave '$v'"; show $T/ptc.log | tail -5; fi
}
fab_lat() {
	timeout 60 "$F" probe $A -p 7181 --mode lat -C $L -S 64 --spin-us 2000 --json > $T/fl.log 2>&1
	v=$(jq -r .latency_us.one_way_p50 $T/fl.log 2>/dev/null)
	if num "$v"; then echo "$v" >> $T/fab_lat; else echo "fabtop lat gave '$v'"; show $T/fl.log | tail -5; fi
}

# One server per mode for the whole run: the lat one busy-polls as ib_send_lat's does.
timeout 1200 "$F" probe --listen $A -p 7180 > $T/fbs.log 2>&1 & bws=$!
timeout 1200 "$F" probe --listen $A -p 7181 --spin-us 2000 > $T/fls.log 2>&1 & lats=$!
wait_listen 7180 && wait_listen 7181 || { t_nok "fabtop servers listen"; exit 1; }
: > $T/ib_bw; : > $T/fab_bw; : > $T/ib_lat; : > $T/fab_lat
for r in $(seq 1 "$R"); do
	if [ $((r % 2)) = 1 ]; then
		pt_write_bw; fab_bw; pt_send_lat; fab_lat
	else
		fab_bw; pt_write_bw; fab_lat; pt_send_lat
	fi
	echo "round $r: ib_write_bw $(tail -1 $T/ib_bw) fabtop bw $(tail -1 $T/fab_bw) Gb/s;" \
		"ib_send_lat typical $(tail -1 $T/ib_lat) fabtop one-way p50 $(tail -1 $T/fab_lat) us"
done
kill -TERM $bws $lats; wait $bws $lats

for k in ib_bw fab_bw ib_lat fab_lat; do
	echo "$k runs: $(tr '\n' ' ' < $T/$k)"
done
ib=$(median < $T/ib_bw) fb=$(median < $T/fab_bw) il=$(median < $T/ib_lat) fl=$(median < $T/fab_lat)
t_measure runs "$R"
t_measure ib_write_bw_median_gbps "$ib"
t_measure fabtop_bw_median_gbps "$fb"
t_measure ib_send_lat_typical_median_us "$il"
t_measure fabtop_lat_one_way_p50_median_us "$fl"
if [ "$(wc -l < $T/ib_bw)" -lt 3 ] || [ "$(wc -l < $T/fab_bw)" -lt 3 ]; then
	t_nok "bw: too few runs gave a figure ($(wc -l < $T/ib_bw) ib_write_bw, $(wc -l < $T/fab_bw) fabtop of $R)"
elif [ "$(echo "$ib > 0" | bc)" = 0 ]; then
	t_nok "bw: ib_write_bw's median is $ib Gb/s: nothing to compare with"
else
	ratio=$(echo "scale=3; $fb / $ib" | bc)
	t_measure bw_ratio_median "$ratio"
	if [ "$(echo "$ratio >= 0.9" | bc)" = 1 ]; then t_ok "bw: fabtop $fb / ib_write_bw $ib Gb/s = $ratio (goal >= 0.9)"
	else t_nok "bw: fabtop $fb / ib_write_bw $ib Gb/s = $ratio (goal >= 0.9)"; fi
fi
if [ "$(wc -l < $T/ib_lat)" -lt 3 ] || [ "$(wc -l < $T/fab_lat)" -lt 3 ]; then
	t_nok "lat: too few runs gave a figure ($(wc -l < $T/ib_lat) ib_send_lat, $(wc -l < $T/fab_lat) fabtop of $R)"
else
	ratio=$(echo "scale=3; $fl / $il" | bc)
	t_measure lat_ratio_median "$ratio"
	if [ "$(echo "$ratio <= 1.1" | bc)" = 1 ]; then t_ok "lat: fabtop one-way p50 $fl / ib_send_lat typical $il us = $ratio (goal <= 1.1)"
	else t_nok "lat: fabtop one-way p50 $fl / ib_send_lat typical $il us = $ratio (goal <= 1.1)"; fi
fi
