#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The "memory server" of the same-subnet case (doc/doctor.md): two NICs, eth0 172.16.34.1/16 and eth1
# 172.16.34.2/16, one rxe device on each, strict rp_filter. A probe to or from
# the second address fails; fabtop doctor names why; its fix is applied; the
# probes then work. usage: twonic-server.sh SYNC FABTOP
SYNC=$1 F=$2	# SYNC is read by signal/waitfor (lib.inc)
export SYNC
. /share/lib.inc
T=/tmp
modprobe virtio_net; modprobe rdma_rxe; modprobe rdma_ucm
ip link set eth0 up; ip link set eth1 up
ip addr add 172.16.34.1/16 dev eth0; ip addr add 172.16.34.2/16 dev eth1
rdma link add rxe_A type rxe netdev eth0 && rdma link add rxe_B type rxe netdev eth1 &&
	t_ok "server: rxe_A on eth0 (172.16.34.1), rxe_B on eth1 (172.16.34.2)" || t_nok "server: rxe devices"
for i in all default eth0 eth1; do echo 1 > /proc/sys/net/ipv4/conf/$i/rp_filter; done
echo "-- routes before the fix:"; ip route

timeout 300 "$F" probe --listen -p 7174 > $T/srv.log 2>&1 & sp=$!
wait_listen 7174 && signal srv-listening
waitfor cli-listening 120

# the probe from the second address, before the fix
ip neigh flush all
t_run "server: probe from 172.16.34.2 before the fix fails" 1 'result: FAILED' $T/p1.log \
	timeout 60 "$F" probe 172.16.34.10 --from 172.16.34.2 --timeout-ms 4000 -C 3
show $T/p1.log
t_grep "server: the failure's cause: the request left by eth0, not by eth1" \
	'cause: the request for 172\.16\.34\.2 left by eth0, not by eth1 which holds it' $T/p1.log
t_grep "server: ... and doctor finding 1" 'finding 1 \(same-subnet-route\)' $T/p1.log
# the same from the monitor's Probe pane: the failure and the doctor's evidence on screen
tui_probe "server: TUI Probe pane from 172.16.34.2 fails, with the doctor's evidence" "$F --record $T/why.ftrec" \
	172.16.34.10 2 'from +172\.16\.34\.2 on eth1' 'finding 1 \(same-subnet-route\)'
# the recording keeps the evidence as it was explained then (a replay cannot ask the kernel)
sed -n '/^Why (the doctor/,/^CM event/p' /tmp/tui.txt > $T/why-live.txt
tmux kill-server 2>/dev/null
TERM=xterm tmux new-session -d -x 160 -y 50 -s fab "$F --replay $T/why.ftrec --at end --pane probe"
if tui_wait fab 'Recorded probe run 1' 30 && tui_wait fab '^CM event timeline' 5; then
	sed -n '/^Why (the doctor/,/^CM event/p' /tmp/tui.txt | sed 's/, as explained then)/)/' > $T/why-replay.txt
	if [ -s $T/why-live.txt ] && cmp -s $T/why-live.txt $T/why-replay.txt; then
		t_ok "server: the replayed Probe pane shows the failure's evidence as the live one did"
	else
		t_nok "server: the replayed Probe pane's evidence differs from live"
		echo "-- live:"; show $T/why-live.txt; echo "-- replay:"; show $T/why-replay.txt
	fi
else
	t_nok "server: the recorded probe run replays"; show /tmp/tui.txt
fi
tmux kill-server 2>/dev/null
signal srv-p1.done
waitfor cli-p1.done 120

# the doctor names the cause
"$F" doctor > $T/doc.log 2>&1; drc=$?
show $T/doc.log | head -40
if [ $drc = 1 ] && grep -q 'finding 1 (same-subnet-route)' $T/doc.log && grep -q '172\.16\.34\.2' $T/doc.log; then
	t_ok "server: fabtop doctor reports finding 1 for 172.16.34.2 (exit 1)"
else
	t_nok "server: fabtop doctor reports finding 1 (rc=$drc)"
fi

# the doctor's fix, as printed, applied
"$F" doctor --fix ip > $T/fix.sh 2>&1; frc=$?
echo "-- fabtop doctor --fix ip (rc=$frc):"; show $T/fix.sh
if bash -e $T/fix.sh > $T/fixrun.log 2>&1; then t_ok "server: the printed fix applies cleanly"; else t_nok "server: applying the fix"; show $T/fixrun.log; fi
ip neigh flush all
echo "-- after the fix:"; ip rule; ip route show table all | grep 172.16.0.0
echo "-- ip route get 172.16.34.10 from 172.16.34.2: $(ip route get 172.16.34.10 from 172.16.34.2 | head -1)"
"$F" doctor > $T/doc2.log 2>&1
if ! grep -q 'finding 1 (same-subnet-route)' $T/doc2.log; then t_ok "server: doctor no longer reports finding 1"; else t_nok "server: finding 1 still there"; show $T/doc2.log; fi
signal srv-fixed
waitfor cli-p2.done 120

t_run "server: probe from 172.16.34.2 after the fix works" 0 'result: ok: 10 pings.*payload ok' $T/p2.log \
	timeout 60 "$F" probe 172.16.34.10 --from eth1 --timeout-ms 10000 -C 10
show $T/p2.log
tui_probe "server: TUI Probe pane from 172.16.34.2 works after the fix, x stops it" "$F" 172.16.34.10 2 \
	'from +172\.16\.34\.2 on eth1' '[1-9][0-9]* messages, 0 payload errors' x 'state done'
signal srv-p2.done
waitfor cli-done 120
kill -TERM $sp; wait $sp
echo "-- server's listener:"; show $T/srv.log
t_grep "server: the client's probe to 172.16.34.2 was served after the fix" 'DISCONNECTED .*rping mode, 10 pings' $T/srv.log
exit 0
