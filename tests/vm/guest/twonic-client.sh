#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The "cpu server" side of the same-subnet case (and the switch): bridges its two NICs so
# both server NICs share its segment, 172.16.34.10/16, one rxe device on br0.
# usage: twonic-client.sh SYNC FABTOP
SYNC=$1 F=$2	# SYNC is read by signal/waitfor (lib.inc)
export SYNC
. /share/lib.inc
T=/tmp
modprobe virtio_net; modprobe bridge; modprobe rdma_rxe; modprobe rdma_ucm
ip link add br0 type bridge forward_delay 0 stp_state 0
ip link set eth0 master br0; ip link set eth1 master br0
ip link set eth0 up; ip link set eth1 up; ip link set br0 up
ip addr add 172.16.34.10/16 dev br0
rdma link add rxe_C type rxe netdev br0 && t_ok "client: rxe_C on br0 (172.16.34.10)" || t_nok "client: rxe device"

timeout 300 "$F" probe --listen -p 7174 > $T/srv.log 2>&1 & sp=$!
wait_listen 7174 && signal cli-listening
waitfor srv-listening 120
waitfor srv-p1.done 120

ip neigh flush all
s=$(ts)
t_run "client: probe to 172.16.34.2 before the fix fails within --timeout-ms" 1 \
	'(TIMEOUT|UNREACHABLE|REJECTED) ' $T/c1.log timeout 60 "$F" probe 172.16.34.2 --timeout-ms 4000 -C 3
t_measure twonic_fail_ms "$(ms_since $s)"
show $T/c1.log
echo "-- neighbour for 172.16.34.2: $(ip neigh show 172.16.34.2)"
signal cli-p1.done
waitfor srv-fixed 120

ip neigh flush all
t_run "client: probe to 172.16.34.2 after the fix works (rping mode)" 0 'result: ok: 10 pings.*payload ok' $T/c2.log \
	timeout 60 "$F" probe 172.16.34.2 --timeout-ms 10000 -C 10
show $T/c2.log
t_run "client: and lat mode to 172.16.34.2" 0 'result: ok: 100 round trips' $T/c3.log \
	timeout 60 "$F" probe 172.16.34.2 --mode lat -C 100
echo "-- neighbour for 172.16.34.2: $(ip neigh show 172.16.34.2)"
signal cli-p2.done
waitfor srv-p2.done 120
signal cli-done
kill -TERM $sp; wait $sp
echo "-- client's listener:"; show $T/srv.log
exit 0
