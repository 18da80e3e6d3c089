#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The monitor's Probe pane on the demo fabric, keys as a student presses them:
# the simulated probe from ib1's address is REJECTED with the doctor's
# evidence, from the kernel's choice (ib0) it connects and runs until x;
# SIMULATED on screen, and the run never goes into a recording as a probe.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"
slow_scenario

tui_start 140 50 -- --demo --seed 1 --record "$T/demo.ftrec"
tui_expect "the demo starts" "mlx5_0"
tui_keys 6
tui_expect "6: the Probe pane says its probe is SIMULATED" "SIMULATED: the demo fabric's probe is a simulated CM exchange"
tui_expect "... and names the simulated peers" "Peers that listen here: 172.16.16.1 (cpuserver16)"
tui_keys e 1 7 2 . 1 6 . 1 6 . 1 Enter f f
tui_expect "e, f f: the peer, from ib1's address" "from  172.16.34.2 on ib1"
tui_keys Enter
tui_expect "Enter: the probe from ib1 is REJECTED" "REJECTED           reason 8 (invalid service ID)"
tui_expect "... the state line says SIMULATED" "SIMULATED state failed   172.16.34.2:"
tui_expect "... on the port of the interface the route takes" "ADDR_RESOLVED      mlx5_0 port 1, local 172.16.34.2:"
tui_expect "... the why names the route" "route: from 172.16.34.2 to 172.16.16.1 leaves by ib0, not by ib1"
tui_expect "... and the doctor's finding 1" "finding 1 (same-subnet-route)"
tui_expect "... the timeline says SIMULATED" "CM event timeline (SIMULATED,"
# the doctor's fix, applied to the simulated host from the Doctor pane, then undone
tui_keys 5
tui_expect "5: the Doctor pane has finding 1" "same-subnet-route"
tui_keys a
tui_expect "a: the Doctor pane names the fixes it would apply" "a again applies the fixes of finding"
tui_keys a
tui_expect "a: the fix is applied to the simulated host" "SIMULATED: the fix is applied to the simulated host"
tui_expect "... and finding 1 is gone" "No findings"
tui_keys 6
tui_expect "the what-if: ib1's address now leaves by ib1, by its own table" "(ib1): leaves by ib1, src 172.16.34.2, table 6729"
tui_keys Enter
tui_expect "Enter: from ib1 the probe now connects" "ESTABLISHED        connected 172.16.34.2:"
tui_expect "... on ib1's own port" "ADDR_RESOLVED      mlx5_0 port 2, local 172.16.34.2:"
tui_keys x
tui_expect "x: done" "SIMULATED state done"
tui_keys 5 u
tui_expect "u: the fix is undone" "SIMULATED: the fix is undone"
tui_expect "... and finding 1 is back" "same-subnet-route"
tui_keys 6 Enter
tui_expect "from ib1 the probe is REJECTED again" "REJECTED           reason 8 (invalid service ID)"
tui_keys f f f f
tui_expect "f: back to the kernel's choice" "from  the kernel's choice"
tui_keys Enter
tui_expect "Enter: the probe from the kernel's choice connects" "ESTABLISHED        connected 172.16.34.1:"
tui_expect "... and runs, with live numbers" "SIMULATED state running"
tui_expect "... a throughput line" "throughput "
tui_keys x
tui_expect "x: it stops, DISCONNECTED" "DISCONNECTED       closed after"
tui_expect "... state done" "SIMULATED state done"
tui_keys 7
tui_expect "the Events pane has the run, marked SIMULATED" "SIMULATED probe rping"
tui_keys q
if tui_wait "FABTOP-EXIT=0" 10; then ok "q quits"; else not_ok "q quits"; diag "$(cat "$T/screen")"; fi

# the recording holds no probe run (a simulated one is not a probe of anything)
tui_start 140 50 -- --replay "$T/demo.ftrec" --at end --pane probe
tui_expect "the replayed Probe pane: no probe was recorded" "No probe was recorded up to this point."
done_testing
