#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop lab in the Soft-RoCE VM (doc/lab.md, "The real lab"): up; the probe
# from the second NIC fails on the real RDMA stack; doctor --apply fixes it;
# the probe works; down leaves nothing; a second up is refused; down after
# kill -9 of up cleans up. usage: lab.sh FABTOP
F=$1
. /share/lib.inc
T=/tmp
export FABTOP_LAB_STATE=/run/fabtop/lab.state
snap() {	# what the lab may leave behind, in one file
	{ ip netns list; ip -o link show | sed 's/^[0-9]*: //; s/[:@].*//'; rdma link show | cut -d' ' -f2
	  ip rule list; ip route show table all | grep -v '^\(fe80\|ff00\|multicast\|local fe80\|anycast\)'
	  cat /proc/sys/net/ipv4/udp_l3mdev_accept; ls /run/fabtop 2>/dev/null; } > "$1" 2>&1
}
modprobe vrf; modprobe veth; modprobe bridge	# their side effects are not the lab's
snap $T/before

t_run "lab up builds the two-NIC host" 0 'fabtop lab: up' $T/up.log "$F" lab up
show $T/up.log
echo "-- rules, routes, rdma links:"; ip rule; ip route show table all | grep 172.16; rdma link
wait_listen 7174 20 || { echo "-- listener log:"; show /run/fabtop/lab.state.listener.log; }
ip neigh flush all
t_run "probe from 172.16.34.1 (its own NIC) works" 0 'result: ok' $T/p0.log \
	timeout 60 "$F" probe 172.16.34.10 --from 172.16.34.1 --timeout-ms 6000 -C 3
show $T/p0.log
grep -q 'result: ok' $T/p0.log || { dmesg | tail -5; rdma resource show cm_id; }
ip neigh flush all
t_run "probe from 172.16.34.2 fails on the real stack" 1 'result: FAILED: (REJECTED|TIMEOUT|UNREACHABLE)' $T/p1.log \
	timeout 60 "$F" probe 172.16.34.10 --from 172.16.34.2 --timeout-ms 6000 -C 3
show $T/p1.log
timeout 60 "$F" probe 172.16.34.10 --from 172.16.34.2 --timeout-ms 6000 -C 3 --json > $T/p1.json 2>&1
if json_true $T/p1.json '.simulated == false and .ok == false and .device == "fl_rxe_b" and ([.events[].event] | index("ROUTE_RESOLVED") != null)'; then
	t_ok "the probe's JSON: real (not simulated), on fl_rxe_b, failed after ROUTE_RESOLVED: $(jq -r .error $T/p1.json)"
else t_nok "the probe's JSON"; show $T/p1.json; fi
t_grep "the failure's cause: the request left by fl-a, not by fl-b" \
	'cause: the request for 172\.16\.34\.2 left by fl-a, not by fl-b which holds it' $T/p1.log
t_grep "... with the three symptoms of that one cause" 'REJECTED error 8 .*a timeout .*UNREACHABLE -110' $T/p1.log
t_grep "... and doctor finding 1" 'finding 1 \(same-subnet-route\)' $T/p1.log
"$F" doctor > $T/doc.log 2>&1; drc=$?
if [ $drc = 1 ] && grep -q 'finding 1 (same-subnet-route): traffic from 172.16.34.2 (fl-b) leaves by fl-a' $T/doc.log &&
	! grep -q 'fl-peer\|fl-p ' $T/doc.log; then
	t_ok "doctor: finding 1 for fl-b, nothing about the peer's VRF"
else t_nok "doctor's findings (rc=$drc)"; grep -n 'fl-peer\|fl-p ' $T/doc.log; show $T/doc.log | head -40; fi
# the peer's address is on the VRF device: a main-table source is not local there, accept_local plays no part
"$F" doctor 172.16.34.10 --from 172.16.34.2 > $T/docp.log 2>&1
if grep -q 'finding 1 (same-subnet-route)' $T/docp.log && ! grep -q 'accept-local' $T/docp.log; then
	t_ok "doctor PEER --from the second NIC: finding 1, no accept-local on the peer's VRF device"
else t_nok "doctor PEER --from the second NIC"; show $T/docp.log | head -40; fi
t_run "doctor --apply --yes in the lab" 0 'applied' $T/apply.log "$F" doctor --apply --yes
show $T/apply.log
ip neigh flush all
t_run "probe from 172.16.34.2 works after the fix" 0 'result: ok: 10 pings.*payload ok' $T/p2.log \
	timeout 60 "$F" probe 172.16.34.10 --from 172.16.34.2 --timeout-ms 10000 -C 10
show $T/p2.log

t_run "a second up is refused while one runs" 1 'already up' $T/up2.log "$F" lab up
show $T/up2.log
t_run "lab down" 0 'down: [0-9]+ object' $T/down.log "$F" lab down
show $T/down.log
# doctor --apply's rules and tables are the student's to undo; here they go by hand
ip rule del from 172.16.34.1 2>/dev/null; ip rule del from 172.16.34.2 2>/dev/null
snap $T/after
# the vrf driver's own l3mdev rule (priority 1000), added with the first VRF, stays until reboot (doc/lab.md)
KRULE='^[<>] 1000:.from all lookup \[l3mdev-table\]$\|^[0-9a-f,]*$'
diff $T/before $T/after | grep -v "$KRULE" > $T/diff.log
if [ ! -s $T/diff.log ]; then t_ok "nothing left: netns, links, rdma links, rules, routes, sysctl, state file"
else t_nok "left behind after down"; show $T/diff.log; fi

# kill -9 during up, at several points (state file lines), then down
for at in 2 6 12 17; do
	"$F" lab up > $T/k.log 2>&1 & up=$!
	n=0
	while [ "$(wc -l < /run/fabtop/lab.state 2>/dev/null || echo 0)" -lt $at ] && kill -0 $up 2>/dev/null && [ $n -lt 600 ]; do
		sleep 0.05; n=$((n + 1))
	done
	kill -9 $up 2>/dev/null; wait $up 2>/dev/null
	echo "-- killed up at state line $at; state file:"; show /run/fabtop/lab.state 2>/dev/null; show $T/k.log
	"$F" lab down > $T/kd.log 2>&1; krc=$?
	show $T/kd.log
	snap $T/after-kill
	if [ $krc = 0 ] && diff $T/before $T/after-kill | grep -v "$KRULE" > $T/diff.log; [ ! -s $T/diff.log ]; then
		t_ok "down after kill -9 of up (at state line $at) leaves nothing"
	else t_nok "down after kill -9 of up (at state line $at), rc=$krc"; show $T/diff.log; fi
done
exit 0
