#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# RDMA resources on real Soft-RoCE: while stock rping -s/-c and a fabtop
# probe run, `fabtop show res --json` lists the QPs and cm_ids iproute2's
# `rdma res show` lists, field by field; rping clients placed in a docker
# scope and a Slurm job cgroup are attributed to them; without
# CAP_NET_ADMIN the report still works and says so.
# usage: res.sh FABTOP RECORDER
F=$1 REC=${2:-}
. /share/lib.inc
A=10.9.0.1
T=/tmp
ID=3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708

if rxe_single; then t_ok "rxe0 on a dummy netdev"; else t_nok "rxe0 on a dummy netdev"; exit 1; fi
P=/sys/class/infiniband/rxe0/ports/1
ls $P; ls $P/cm_rx_msgs $P/cm_tx_msgs 2>&1 | head -20
mkdir -p /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup
CG=/sys/fs/cgroup
mkdir -p "$CG/system.slice/docker-$ID.scope" "$CG/slurm/uid_0/job_42/step_0"

timeout 600 rping -s -a $A -P > $T/rs.log 2>&1 & sp=$!
wait_listen 7174
# start_client VAR COMMAND: start one client and wait (at most 30 s) until
# its QP and the server's child QP are RTS. When the guest is slow, rping -P's
# server now and then fails to create the child QP (rdma_create_qp: EINVAL)
# and the client exits unconnected; it is then started again, three tries.
start_client() {
	local var=$1 cmd=$2 want try n pid
	want=$(( $(qps_rts) + 2 ))
	for try in 1 2 3; do
		sh -c "exec $cmd" & pid=$!
		n=0
		while [ "$(qps_rts)" -lt $want ] && [ $n -lt 150 ] && kill -0 $pid 2>/dev/null; do sleep 0.2; n=$((n + 1)); done
		eval "$var=$pid"
		[ "$(qps_rts)" -ge $want ] && return 0
		kill -0 $pid 2>/dev/null && return 1
		echo "# client $var exited before it connected (try $try); the server said:"
		tail -3 $T/rs.log | sed 's/^/#   /'
	done
	return 1
}
t0=$(date +%s) up=0
start_client c1 "timeout 590 rping -c -a $A > /dev/null 2>&1" && up=$((up + 1))
# the same client, started inside a docker scope and inside a Slurm job step
start_client c2 "timeout 590 sh -c 'echo \$\$ > $CG/system.slice/docker-$ID.scope/cgroup.procs; exec rping -c -a $A' > /dev/null 2>&1" && up=$((up + 1))
start_client c3 "timeout 590 sh -c 'echo \$\$ > $CG/slurm/uid_0/job_42/step_0/cgroup.procs; exec rping -c -a $A' > /dev/null 2>&1" && up=$((up + 1))
start_client fp "timeout 590 '$F' probe $A -C 0 > $T/probe.log 2>&1" && up=$((up + 1))
# four clients connected: 4 RTS QPs on the client side and 4 on the server side
if [ $up -lt 4 ] || [ "$(qps_rts)" -lt 8 ]; then
	t_nok "four rping/probe clients connected ($up of 4, $(qps_rts) QPs RTS)"; show $T/rs.log $T/probe.log
else
	t_ok "four rping/probe clients connected after $(( $(date +%s) - t0 )) s"
fi
rdma res show qp; rdma res show cm_id

rdma res show qp -j > $T/qp.json
rdma res show cm_id -j > $T/cm.json
t_run "fabtop show res --json while rping and a probe run" 0 '"qps"' $T/res.json "$F" show res --json
rdma res show qp -j > $T/qp2.json
rdma res show cm_id -j > $T/cm2.json
"$F" show res > $T/res.txt 2>&1
# a recording for the replay tests (tests/data/rdma-nl), kept in the run dir
if [ -n "$REC" ] && mkdir -p /share/rec && "$REC" /share/rec; then
	rdma res show qp -j > /share/rec/qp.json; rdma res show cm_id -j > /share/rec/cm_id.json
	t_ok "recorded the dumps"
fi

show $T/res.txt
# iproute2 before and after must agree (nothing connected or left meanwhile), else the comparison is void
if ! cmp -s <(jq -S 'map(del(."sq-psn", ."rq-psn"))' $T/qp.json) <(jq -S 'map(del(."sq-psn", ."rq-psn"))' $T/qp2.json) ||
	! cmp -s $T/cm.json $T/cm2.json; then
	t_nok "resources stable around the fabtop read"; show $T/qp.json $T/qp2.json
fi

# QPs: the same set (device, lqpn), and per QP the same type, state, port, rqpn, pid, command
q_rdma=$(jq -c '[.[] | {dev: .ifname, lqpn, type, state, port, rqpn: (.rqpn // null), pid: (.pid // null)}] | sort_by(.dev, .lqpn)' $T/qp.json)
q_fab=$(jq -c '[.res.qps[] | {dev, lqpn, type, state, port, rqpn, pid}] | sort_by(.dev, .lqpn)' $T/res.json)
if [ "$q_rdma" = "$q_fab" ] && [ "$(echo "$q_rdma" | jq length)" -ge 8 ]; then
	t_ok "QPs: $(echo "$q_rdma" | jq length) QPs, numbers, types, states, ports, remote QPNs and pids as rdma res show qp"
else
	t_nok "QPs as rdma res show qp"; echo "rdma:   $q_rdma"; echo "fabtop: $q_fab"
fi
c_rdma=$(jq -c '[.[] | .comm] | sort' $T/qp.json)
c_fab=$(jq -c '[.res.qps[] | .comm] | sort' $T/res.json)
if [ "$c_rdma" = "$c_fab" ]; then t_ok "QPs: holders' commands as rdma's"; else
	t_nok "QPs: holders' commands"; echo "rdma:   $c_rdma"; echo "fabtop: $c_fab"; fi

# cm_ids: the same set, per id the same state, port space, QP, addresses, ports, pid
# (rdma prints "ADDR:PORT" in one member)
m_rdma=$(jq -c '[.[] | {dev: .ifname, port, state, ps, lqpn: (.lqpn // null), src: ."src-addr",
	dst: (."dst-addr" // null), pid: (.pid // null), comm}] | sort_by(.src, .dst, .state, .lqpn)' $T/cm.json)
m_fab=$(jq -c '[.res.cm_ids[] | {dev, port, state, ps, lqpn, src: "\(.src_addr):\(.src_port)",
	dst: (if .dst_addr then "\(.dst_addr):\(.dst_port)" else null end), pid, comm}] | sort_by(.src, .dst, .state, .lqpn)' $T/res.json)
if [ "$m_rdma" = "$m_fab" ] && [ "$(echo "$m_rdma" | jq length)" -ge 9 ]; then
	t_ok "cm_ids: $(echo "$m_rdma" | jq length) ids, states, port spaces, QPs, addresses, ports and pids as rdma res show cm_id"
else
	t_nok "cm_ids as rdma res show cm_id"; echo "rdma:   $m_rdma"; echo "fabtop: $m_fab"
fi

# attribution
if json_true $T/res.json '.res.procs[] | select(.unit.kind == "docker" and .unit.id == $id and .qps >= 1 and .comm == "rping")' --arg id $ID; then
	t_ok "an rping in docker-<id>.scope is attributed to that container"
else
	t_nok "docker attribution"; jq -c '.res.procs[]' $T/res.json
fi
if json_true $T/res.json '.res.procs[] | select(.unit.kind == "slurm" and .unit.id == "42" and .unit.user == "uid_0" and .qps >= 1)'; then
	t_ok "an rping in slurm/uid_0/job_42 is attributed to Slurm job 42"
else
	t_nok "slurm attribution"; jq -c '.res.procs[]' $T/res.json
fi
if json_true $T/res.json '.res.procs[] | select(.fabtop_probe and .cm_ids >= 1 and .qps >= 1)' &&
	grep -q 'fabtop probe' $T/res.txt; then
	t_ok "the running fabtop probe's cm_id and QP are shown as the probe's"
else
	t_nok "fabtop probe marked"; jq -c '.res.procs[]' $T/res.json
fi
if json_true $T/res.json '.res.procs | length >= 5 and all(.[] | select(.kern | not); .visible and .user == "root")'; then
	t_ok "every holder seen in /proc with its user"
else
	t_nok "holders' users"; jq -c '.res.procs[]' $T/res.json
fi

# without CAP_NET_ADMIN: a clear note, the report still works (the guest's
# 9p /usr is not readable by other uids, so uid 0 drops the capability instead)
t_run "show res without CAP_NET_ADMIN: works, says it is restricted" 0 'without CAP_NET_ADMIN' $T/noadmin.txt \
	setpriv --inh-caps=-net_admin --bounding-set=-net_admin "$F" show res
show $T/noadmin.txt | head -40
setpriv --inh-caps=-net_admin --bounding-set=-net_admin "$F" show res --json > $T/noadmin.json 2>&1
if json_true $T/noadmin.json '.res.restricted'; then t_ok "--json says restricted"; else
	t_nok "--json says restricted"; show $T/noadmin.json; fi
t_run "show ports without CAP_NET_ADMIN still works" 0 'rxe0' $T/noadmin2.txt \
	setpriv --inh-caps=-net_admin --bounding-set=-net_admin "$F" show ports

# --- CM message counters: a connect nobody listens for is REJECTED; the
# CM's REJ counters move, the monitor's header and Doctor pane say so
t_run "show counters lists the CM's per-port counters" 0 'cm_tx_msgs/rej' $T/cnt.txt "$F" show counters
rej0=$(cat $P/cm_tx_msgs/rej)
tmux kill-server 2>/dev/null
TERM=xterm tmux new-session -d -x 200 -y 150 -s fab "$F"
if tui_wait fab 'Ports|Counters' 30; then
	sleep 2		# a first sample with the old counts, so the REJ is a change
	t_run "a probe to a port nothing listens on is REJECTED" 1 'REJECTED' $T/rej.log \
		timeout 30 "$F" probe $A -p 9999 --timeout-ms 3000
	rej1=$(cat $P/cm_tx_msgs/rej)
	if [ "$rej1" -gt "$rej0" ]; then t_ok "cm_tx_msgs/rej moved ($rej0 -> $rej1)"; else
		t_nok "cm_tx_msgs/rej moved ($rej0 -> $rej1)"; fi
	if tui_wait fab 'REJ sent [1-9][0-9]* received [1-9]' 15; then
		t_ok "the monitor's header shows REJ sent/received"
	else
		t_nok "the monitor's header shows REJ sent/received"; show /tmp/tui.txt | head -5
	fi
	tmux send-keys -t fab 5
	if tui_wait fab 'connections refused' 15; then
		t_ok "the Doctor pane explains the REJs (finding 7)"
	else
		t_nok "the Doctor pane explains the REJs (finding 7)"
	fi
	show /tmp/tui.txt | grep -v '^ *$' | head -30
	# the Counters pane: one row per port; Enter lists its counters, the CM's among them
	tmux send-keys -t fab 2
	sleep 1
	tmux send-keys -t fab Enter
	if tui_wait fab 'cm_tx_msgs/rej' 10; then t_ok "the Counters pane's details list cm_tx_msgs/rej"; else
		t_nok "the Counters pane's details list cm_tx_msgs/rej"; fi
	show /tmp/tui.txt | grep -v '^ *$' | grep -E 'cm_|rxe0' | head -20
	tmux send-keys -t fab Escape
	# the Connections pane: one row per process or container, the probe as such, a peer filter, expansion
	tmux send-keys -t fab 9
	if tui_wait fab 'docker 3f2a1b4c5d6e' 15 && grep -q 'slurm job 42' /tmp/tui.txt && grep -q 'fabtop probe' /tmp/tui.txt &&
		grep -q '\[ib_core\]' /tmp/tui.txt; then
		t_ok "Connections pane: the container, the job, the probe and the kernel's QP each on a row"
	else
		t_nok "Connections pane rows"
	fi
	show /tmp/tui.txt | grep -v '^ *$' | head -20
	peer=$(jq -r '.res.cm_ids[] | select(.comm == "fabtop") | "\(.src_addr):\(.src_port)"' $T/res.json)
	tmux send-keys -t fab /
	tmux send-keys -t fab -l "$peer"
	tmux send-keys -t fab Enter
	# the filter is applied when the probe's row is gone
	n=0
	while tmux capture-pane -p -t fab > /tmp/tui.txt; grep -q 'fabtop probe' /tmp/tui.txt && [ $n -lt 40 ]; do
		sleep 0.25; n=$((n + 1))
	done
	if grep -q "$peer" /tmp/tui.txt && grep -q ' rping ' /tmp/tui.txt && ! grep -q 'fabtop probe' /tmp/tui.txt; then
		t_ok "filter by peer $peer: only the rping server the probe talks to"
	else
		t_nok "filter by peer $peer"
	fi
	show /tmp/tui.txt | grep -v '^ *$' | head -12
	tmux send-keys -t fab x
	if tui_wait fab "QP [0-9]+ RC .*$peer" 10; then
		t_ok "x expands the server's row: the QP connected to that peer"
	else
		t_nok "x expands the server's row"
	fi
	show /tmp/tui.txt | grep -v '^ *$' | head -20
	tmux send-keys -t fab q
	sleep 0.5
else
	t_nok "the monitor did not start"; show /tmp/tui.txt
fi
tmux kill-server 2>/dev/null

kill $fp $c1 $c2 $c3 $sp 2>/dev/null
sleep 1
kill -KILL $fp $c1 $c2 $c3 $sp 2>/dev/null
wait 2>/dev/null
exit 0
