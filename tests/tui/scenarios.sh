#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every scenario of the demo (fabtop --demo NAME, doc/lab.md) driven as a
# student would: the story in the header, the symptom, the finding, the fix
# (a in the Doctor pane), the FIXED state and the symptom gone.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"
slow_scenario

run_rc "$FABTOP" --demo list
assert_eq "fabtop --demo list exits 0" 0 "$rc"
for s in two-nics container roce-v1 pfc-off no-sm bad-cable; do
	assert_match "... lists $s with its story" "^  $s +[A-Za-z]" "$(cat "$T/out")"
done
run_rc "$FABTOP" --demo no-such-scenario
assert_eq "an unknown scenario is a usage error" 2 "$rc"
assert_match "... pointing to the list" 'fabtop --demo list' "$(cat "$T/err")"

fix() {	# the Doctor pane's a (it names the fixes), a again, and the header's FIXED line
	tui_keys 5 a
	tui_expect "$1: a in the Doctor pane names what it applies first" "SIMULATED: a again applies the fixes of finding"
	tui_keys a
	tui_expect "$1: a again applies the fix" "SIMULATED: the fix is applied to the simulated host"
	tui_expect "$1: the header says FIXED" "SIMULATED scenario $1: FIXED: "
}

# two NICs in one subnet
tui_start 140 50 -- --demo two-nics
tui_expect "two-nics: the story in the header" "SIMULATED scenario two-nics: memserver34 has ib0 and ib1 in one /16"
tui_expect "two-nics: where to look" "look: Probe (6): e 172.16.16.1, f f (from ib1)"
tui_keys 6 e 1 7 2 . 1 6 . 1 6 . 1 Enter f f Enter
tui_expect "two-nics: the symptom: the probe from 172.16.34.2 is REJECTED" "REJECTED           reason 8 (invalid service ID)"
tui_expect "two-nics: the why" "cause: the request for 172.16.34.2 left by ib0, not by ib1 which holds it"
tui_keys 5
tui_expect "two-nics: the finding" "same-subnet-route"
fix two-nics
tui_expect "two-nics: fixed, the header counts no finding" "findings 0 "
tui_keys 6
tui_expect "two-nics: the why of the old attempt follows the fix" "the network changed after this attempt failed"
tui_expect "... the route now, in the doctor's words" "now route: from 172.16.34.2 to 172.16.16.1 leaves by ib1, its own interface"
tui_expect_gone "... and the old cause is no longer claimed" "cause: the request for 172.16.34.2 left by ib0"
tui_keys Enter
tui_expect "two-nics: fixed, the probe from 172.16.34.2 connects" "ESTABLISHED        connected 172.16.34.2:"
tui_expect_gone "... and the why is gone once it connects" "the network changed after this attempt"
tui_keys x

# a container without the GID's netdev
tui_start 140 50 -- --demo container
tui_expect "container: the story" "SIMULATED scenario container: a container sees mlx5_1 but not its netdev"
tui_keys 3
tui_expect "container: the GIDs pane: the netdevs are not in this namespace" "10.20.0.1       not in netns"
tui_keys 6 e 1 0 . 2 0 . 0 . 2 Enter Enter
tui_expect "container: the symptom: ADDR_ERROR, no RDMA device" "ADDR_ERROR         status -19 (ENODEV)"
tui_keys 5
tui_expect "container: the finding" "gid-netdev-not-in-netns"
fix container
tui_keys 3
tui_expect_gone "container: fixed, the RoCE GIDs have their netdev here" "10.20.0.1       not in netns"
tui_keys 6 Enter
tui_expect "container: fixed, the probe to 10.20.0.2 connects with GID index 3" "mlx5_1 port 1, GID index 3, RoCE v2"
tui_keys x

# RoCE v1 by default
tui_start 140 50 -- --demo roce-v1
tui_expect "roce-v1: the story" "SIMULATED scenario roce-v1: RoCE to gpu07 runs at a third of the link"
tui_keys 6 e 1 0 . 2 0 . 0 . 2 Enter m Enter
tui_expect "roce-v1: the symptom: connected with GID index 2, RoCE v1" "mlx5_1 port 1, GID index 2, RoCE v1"
tui_keys x
tui_keys 0
tui_expect "roce-v1: the RoCE pane shows the RoCE port" "enp65s0f0"
run_rc "$FABTOP" --demo roce-v1 doctor
assert_match "roce-v1: the finding (fabtop --demo roce-v1 doctor)" 'finding 8 \(roce-v1-forced\)' "$(cat "$T/out")"
tui_keys 5
tui_expect "roce-v1: the Doctor pane holds the doctor's finding 8" "roce-v1-forced"
fix roce-v1
tui_keys 6 Enter
tui_expect "roce-v1: fixed, GID index 3, RoCE v2" "mlx5_1 port 1, GID index 3, RoCE v2"
tui_keys x

# PFC off
tui_start 140 50 -- --demo pfc-off
tui_expect "pfc-off: the story" "SIMULATED scenario pfc-off: RoCE to gpu07 stalls under load"
tui_keys 0
tui_expect "pfc-off: the RoCE pane: PFC off on priority 3, where RDMA lands" "enp65s0f0     3 off DSCP 26"
run_rc "$FABTOP" --demo pfc-off doctor
assert_match "pfc-off: the finding (fabtop --demo pfc-off doctor)" 'finding 8 \(roce-lossy\)' "$(cat "$T/out")"
tui_keys 5
tui_expect "pfc-off: the Doctor pane holds the doctor's finding 8" "roce-lossy"
fix pfc-off
tui_keys 0
tui_expect "pfc-off: fixed, PFC on for priority 3" "enp65s0f0     3 on  DSCP 26"

# no subnet manager
tui_start 140 50 -- --demo no-sm
tui_expect "no-sm: the story" "SIMULATED scenario no-sm: mlx5_0's ports stay in INIT"
tui_expect "no-sm: the Ports pane: INIT, flagged NO-SM" "INIT    LinkUp    100 Gb/sec (4X EDR) NO-SM"
tui_keys 6 e 1 7 2 . 1 6 . 1 6 . 1 Enter Enter
tui_expect "no-sm: the symptom: address resolution times out" "TIMEOUT            no ADDR_RESOLVED within 3000 ms" 10
tui_keys 5
tui_expect "no-sm: the finding" "port-no-sm"
fix no-sm
tui_keys 1
tui_expect "no-sm: fixed, ACTIVE with LID 7 and SM LID 1" "ACTIVE  LinkUp    100 Gb/sec (4X EDR)              InfiniBand     7     1"
tui_keys 6 Enter
tui_expect "no-sm: fixed, the probe connects" "ESTABLISHED        connected 172.16.34.1:"
tui_keys x

# a bad cable
tui_start 140 50 -- --demo bad-cable
tui_expect "bad-cable: the story" "SIMULATED scenario bad-cable: ib1's cable is failing"
tui_expect "bad-cable: the Ports pane: port 2 trained at 1X" "25 Gb/sec (1X EDR)  SLOW"
tui_keys 2
tui_expect "bad-cable: the Counters pane lists symbol_error" "symbol_error"
tui_keys 5
tui_expect "bad-cable: the finding" "port-slow"
fix bad-cable
tui_keys 1
tui_expect_gone "bad-cable: fixed, no port at 1X" "25 Gb/sec (1X EDR)  SLOW"
tui_keys q
done_testing
