#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# RDMA netlink statistics on real Soft-RoCE: `--counters netlink` against
# iproute2's `rdma statistic show link` and the sysfs hw_counters files;
# the QP counters' auto mode turned on only by `fabtop counters qp enable`,
# and what it gives against `rdma statistic qp show`; without
# CAP_NET_ADMIN; the cost of STAT_GET against sysfs (bench_nlstat).
# usage: nlstat.sh FABTOP BENCH RECORDER [bench]   (bench: only the measurement)
F=$1 B=$2 REC=$3 MODE=${4:-all}
. /share/lib.inc
A=10.9.0.1
T=/tmp
P=/sys/class/infiniband/rxe0/ports/1

if rxe_single; then t_ok "rxe0 on a dummy netdev"; else t_nok "rxe0 on a dummy netdev"; exit 1; fi

bench() {
	# warm-up traffic so the counters are not all zero, then N samples of each way
	if "$B" rxe0 1 "${1:-2000}" > $T/bench.txt 2>&1; then
		show $T/bench.txt
		for k in netlink_us sysfs_open_us sysfs_pread_us netlink_counters sysfs_files; do
			t_measure "$k" "$(sed -n "s/.*$k=\([0-9.]*\).*/\1/p" $T/bench.txt)"
		done
		t_ok "bench_nlstat timed STAT_GET and the sysfs reads of rxe0/1"
	else
		t_nok "bench_nlstat could not time rxe0/1"; show $T/bench.txt
	fi
}
if [ "$MODE" = bench ]; then bench 5000; exit 0; fi

# traffic first, so the values compared are not all zeros
timeout 60 rping -s -a $A -C 20 > /dev/null 2>&1 & sp=$!
wait_listen 7174
timeout 50 rping -c -a $A -C 20 > /dev/null 2>&1
wait $sp

# --- the port's hw counters: rdma statistic, fabtop through netlink, sysfs; nothing moves meanwhile
rdma statistic show link rxe0/1 -j > $T/rdma.json
t_run "show counters --counters netlink --json" 0 '"netlink"' $T/nl.json "$F" --counters netlink show counters --json
( cd $P/hw_counters && for f in *; do [ "$f" = lifespan ] || echo "$f $(cat "$f")"; done ) | sort > $T/sysfs.txt
jq -r '.[0] | to_entries[] | select(.key != "ifname" and .key != "port" and .key != "ifindex") | "\(.key) \(.value)"' $T/rdma.json | sort > $T/rdma.txt
jq -r '.ports[] | select(.device == "rxe0" and .port == 1) | .counters[] | select(.source == "netlink") | "\(.name) \(.value)"' $T/nl.json | sort > $T/fab.txt
n=$(wc -l < $T/fab.txt)
if [ "$n" -gt 5 ] && cmp -s $T/rdma.txt $T/fab.txt; then
	t_ok "netlink counters: the same $n names and values as rdma statistic show link rxe0/1"
else
	t_nok "netlink counters as rdma statistic show link"; diff $T/rdma.txt $T/fab.txt | head -20; show $T/rdma.json | head -20
fi
if cmp -s $T/sysfs.txt $T/fab.txt; then
	t_ok "netlink counters: the same names and values as the sysfs hw_counters files"
else
	t_nok "netlink counters as sysfs hw_counters"; diff $T/sysfs.txt $T/fab.txt | head -20
fi
if json_true $T/nl.json '[.ports[] | select(.device == "rxe0") | .counters[] | select(.source == "hw_counters")] | length == 0'; then
	t_ok "with --counters netlink no counter of rxe0 is read from hw_counters/"
else
	t_nok "hw_counters/ entries left beside the netlink ones"
fi
if awk '$2 > 0' $T/fab.txt | grep -q .; then t_ok "the traffic shows in the netlink counters"; else
	t_nok "the traffic shows in the netlink counters"; show $T/fab.txt; fi
# the raw answers for the replay tests (tests/data/rdma-stat), with iproute2's reading of the same moment
if mkdir -p /share/rec && "$REC" /share/rec rxe0 1; then
	rdma statistic show link rxe0/1 -j | jq -r '.[0] | to_entries[] |
		select(.key != "ifname" and .key != "port" and .key != "ifindex") | "\(.key) \(.value)"' | sort > /share/rec/port_hw.txt
	rdma statistic qp mode link rxe0/1 > /share/rec/mode.txt
	t_ok "recorded rxe0/1's STAT_GET answers"
else
	t_nok "recorded rxe0/1's STAT_GET answers"
fi
t_run "show counters (text): the SOURCE column says netlink" 0 'sent_pkts +netlink' $T/nl.txt \
	"$F" --counters netlink show counters
# two samples: rates come from netlink values too. Sample 2's row of rxe0
# has packet rates (sample 1's are from the start; "-" is unknown).
t_run "show counters --counters netlink --count 2: rates between two STAT_GETs" 0 \
	'^2 +rxe0 +1 .* [0-9.]+ [kMG]?pkt/s +[0-9.]+ [kMG]?pkt/s ' $T/nl2.txt \
	"$F" --counters netlink show counters --count 2 --interval 0.5

# the monitor's Counters pane details and the exporter's label say netlink too
tmux kill-server 2>/dev/null
TERM=xterm tmux new-session -d -x 200 -y 80 -s fab "$F --counters netlink --pane counters"
if tui_wait fab 'rxe0' 30; then
	tmux send-keys -t fab Enter
	if tui_wait fab 'sent_pkts +netlink' 15; then t_ok "the monitor's counter details name the source netlink"; else
		t_nok "the monitor's counter details name the source netlink"; show /tmp/tui.txt | grep -v '^ *$' | head -30; fi
else
	t_nok "the monitor started with --counters netlink"; show /tmp/tui.txt | head -20
fi
tmux send-keys -t fab q; sleep 0.5; tmux kill-server 2>/dev/null
t_run "export --counters netlink: the source label is netlink" 0 'source="netlink"' $T/exp.txt \
	sh -c "'$F' --counters netlink export --textfile $T/x.prom --no-http --count 1 && cat $T/x.prom"

# --- QP counters: off until asked
t_run "counters qp show: the port's mode is none before anyone asks" 0 'rxe0/1: QP counter mode none' $T/q0.txt \
	"$F" counters qp show rxe0/1
rdma statistic qp mode link rxe0/1 > $T/mode0.txt 2>&1
t_grep "rdma statistic agrees: no auto mode" 'mode manual|mode none|qp auto off' $T/mode0.txt
t_run "counters qp enable without CAP_NET_ADMIN: a clear refusal" 1 'needs CAP_NET_ADMIN' $T/noadmin.txt \
	setpriv --inh-caps=-net_admin --bounding-set=-net_admin "$F" counters qp enable rxe0/1
t_run "counters qp show without CAP_NET_ADMIN still works" 0 'QP counter mode' $T/noadmin2.txt \
	setpriv --inh-caps=-net_admin --bounding-set=-net_admin "$F" counters qp show
t_run "--counters netlink without CAP_NET_ADMIN still works" 0 'netlink' $T/noadmin3.txt \
	setpriv --inh-caps=-net_admin --bounding-set=-net_admin "$F" --counters netlink show counters

"$F" counters qp enable rxe0/1 > $T/en.txt 2>&1; en=$?
show $T/en.txt
rdma statistic qp mode link rxe0/1 > $T/mode1.txt 2>&1; show $T/mode1.txt
if [ $en = 1 ] && grep -q 'the driver does not support QP counters' $T/en.txt; then
	t_ok "counters qp enable on rxe: 'the driver does not support QP counters', auto mode turned off again"
	if grep -q 'auto on' $T/mode1.txt; then t_nok "auto mode left on after the refusal"; else
		t_ok "rdma statistic shows auto mode off again"; fi
	# the proof fabtop relied on: iproute2 turns auto mode on, a new QP is bound to nothing
	rdma statistic qp set link rxe0/1 auto type on
	# pinging until stopped, so the QPs are there when they are looked at
	timeout 60 rping -s -a $A > /dev/null 2>&1 & sp=$!
	wait_listen 7174
	timeout 50 rping -c -a $A > /dev/null 2>&1 & cp=$!
	wait_rts 2
	up=$(qps_rts)
	rdma statistic qp show link rxe0/1 -j > $T/qp.json 2>&1; show $T/qp.json
	kill $cp $sp 2>/dev/null; wait $cp $sp
	rdma statistic qp set link rxe0/1 auto off
	if [ "$up" -lt 2 ]; then
		t_nok "rping's client and server QPs RTS to look at ($up RTS)"
	elif [ "$(jq length $T/qp.json 2>/dev/null)" = 0 ]; then
		t_ok "iproute2 confirms: with auto mode on, rping's new QPs were bound to no counter on rxe"
	else
		t_nok "iproute2 lists QP counters on rxe"; show $T/qp.json
	fi
	t_skip "QP counter values against rdma statistic qp show: rxe (Linux $(uname -r)) has no counter_alloc_stats, so it binds no QP to a counter"
elif [ $en = 0 ]; then
	t_ok "counters qp enable rxe0/1: auto mode on, with the caveat"
	t_grep "the caveat that QPs created before are not counted is printed" 'before auto mode was turned on are not bound' $T/en.txt
	timeout 60 rping -s -a $A -P > /dev/null 2>&1 & sp=$!
	wait_listen 7174
	timeout 50 rping -c -a $A > /dev/null 2>&1 & cp=$!
	wait_rts 2
	rdma statistic qp show link rxe0/1 -j > $T/qp.json
	"$F" counters qp show rxe0/1 --json > $T/fq.json
	kill $cp $sp 2>/dev/null; wait $cp $sp
	a=$(jq -c '[.[] | {id: .cntn, qps: ([.lqpn[]?] | sort)}] | sort_by(.id)' $T/qp.json)
	b=$(jq -c '[.qp_counters.counters[] | {id, qps: ([.qps[].lqpn] | sort)}] | sort_by(.id)' $T/fq.json)
	if [ "$a" = "$b" ] && [ "$a" != "[]" ]; then t_ok "QP counters and their QPs as rdma statistic qp show"; else
		t_nok "QP counters as rdma statistic qp show"; echo "rdma: $a"; echo "fabtop: $b"; fi
	"$F" counters qp disable rxe0/1
else
	t_nok "counters qp enable rxe0/1 (rc $en)"
fi

bench 500
