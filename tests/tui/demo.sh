#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The monitor on the demo fabric, driven through tmux as a person would:
# every pane, help, details, filter, sort, pause, interval, resizes, quit.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"
slow_scenario

tui_start 120 40 -- --demo --seed 1
tui_expect "starts on the Ports pane with the demo's devices" "mlx5_0"
tui_expect "summary header counts devices and ports" "3 devices, ports "
assert_match "... ports up and down add up to the demo's 4" "ports (4 up 0|3 up 1|2 up 2) down" "$(tui_line "devices, ports")"
tui_expect "Ports pane: link layer column" "InfiniBand"
tui_expect "Ports pane: rates of the ports" "100 Gb/sec (4X EDR)"

# The status line always says Gb/s: the pane's own column header proves the
# switch, a port's row its live rates.
tui_expect_after "2: the Counters pane" "ERR/INT" 10 tui_keys 2
tui_expect_re "... with live rates" '^mlx5_0 +1 +ACTIVE +[0-9.]+ [kMG]?b/s +[0-9.]+ [kMG]?b/s '

tui_expect "Counters pane: per-port error counter list" "D/START"
tui_expect "Counters pane: starts on a port with traffic counters (mlx5_0/1)" "mlx5_0/1  100 Gb/sec"
tui_keys Home
tui_expect "Counters pane: the iWARP NIC has no PMA counters" "N/A (no PMA)"
tui_expect "Counters pane: graph window of the selected port" "window 1 min (w)"
tui_keys w
tui_expect "w: the graph window becomes 10 min" "window 10 min (w)"
tui_keys w w

tui_keys 3
tui_expect "3: GIDs pane shows RoCE v2 entries" "RoCE v2"
tui_expect "GIDs pane: IPv4-mapped GIDs show their address" "10.20.0.1"

tui_keys 4
tui_expect "4: Network pane" "Routes (all tables)"
tui_expect "Network pane: the RDMA netdevs with their addresses" "172.16.34.2/16"
tui_keys 5
tui_expect "5: Doctor pane" "same-subnet-route"
tui_expect "Doctor pane: the selected finding's fix" "ip rule add from 172.16.34.2"
assert_match "summary header counts the findings" "findings [1-9][0-9]* " "$(tui_line "findings")"
tui_keys 6
tui_expect "6: Probe pane" "RDMA CM probe"
tui_expect "Probe pane: the demo's probe is simulated, and says so" "SIMULATED: the demo fabric's probe"
tui_keys e 1 7 2 . 1 6 . 1 6 . 1 Enter
tui_expect "Probe pane: what-if from ib0 leaves by ib0" "(ib0): leaves by ib0"
tui_expect "Probe pane: what-if from ib1 leaves by ib0, flagged in the doctor's words" "(ib1): leaves by ib0, src 172.16.34.2, table main -> WRONG INTERFACE"
tui_expect "Probe pane: what-if from an address outside the peer's subnet is routed, as the doctor says" "(enp65s0f0): leaves by ib0, src 10.20.0.1, table main -> by routing (peer outside its subnet)"
tui_keys Tab
tui_expect "Tab: 7 is the Events pane" "WHAT HAPPENED"
# The demo's cable "went bad" as it started: its error bursts are events within seconds.
tui_expect "Events pane: the demo's error bursts" "error-burst" 30
tui_expect "Events pane: the selected event's evidence below" "since the previous sample"
tui_keys Tab
tui_expect "Tab: the Cluster pane says how to set a Prometheus" "No Prometheus is set"
tui_keys Tab
tui_expect "Tab: the Connections pane says the demo has no processes" "it has no processes holding RDMA resources"
tui_keys Tab
tui_expect "Tab: the RoCE pane shows the demo's RoCE port" "enp65s0f0"
tui_keys Tab
tui_expect "Tab: the Fabric pane (no number key) says the demo has no subnet" "the demo fabric is simulated: there is no subnet"
tui_keys Tab
tui_expect "Tab after the last pane wraps to Ports" "PHYSICAL"
tui_keys BTab
tui_expect "Shift-Tab goes back to the last pane (Fabric)" "no subnet to sweep"
tui_keys BTab
tui_expect "Shift-Tab again: RoCE" "DSCP 26"
tui_keys 1

tui_keys F1
tui_expect "F1 opens the help" "any key closes, arrows scroll"
tui_keys Escape
tui_expect_gone "Esc closes the help" "any key closes, arrows scroll"
tui_keys '?'
tui_expect "? opens the help too" "any key closes, arrows scroll"
tui_keys q
tui_expect_gone "q in the help closes the help, not fabtop" "any key closes, arrows scroll"

tui_keys Home Enter
tui_expect "Enter shows the selected row's details" "Details: cxgb4_0  1  ACTIVE"
tui_expect "details name where each value came from" "phys_state"
tui_keys Escape
tui_expect_gone "Esc closes the details" "Details:"

# Filter on the GIDs pane: only the 10.20 addresses stay.
tui_keys 3 / 1 0 . 2 0 Enter
tui_expect "the filter is shown on the tab line" "filter: 10.20"
if tui_wait_gone "10.100.0.1" 5 && grep -Fq "10.20.0.1" "$T/screen"; then
	ok "filter keeps matching rows only"
else
	not_ok "filter keeps matching rows only"; diag "$(cat "$T/screen")"
fi
tui_keys Escape
tui_expect "Esc clears the filter" "10.100.0.1"

# Sort: s moves the sort mark from DEVICE to the next column; I inverts it.
tui_keys 1
tui_expect "Ports sorted by DEVICE, ascending" "DEVICE^"
# port_rows: the Ports table's rows as DEVICE/PORT, top to bottom.
port_rows() { awk '$1 ~ /^(mlx5_[01]|cxgb4_0)$/ && $2 ~ /^[0-9]+$/ { printf "%s%s/%s", n++ ? " " : "", $1, $2 }' "$T/screen"; }
tui_keys s
tui_expect "s sorts by PORT (numbers biggest first)" "PORv"
# The rows, not only the mark: port 2 first, the ports 1 after it in
# collection order (ties keep it).
assert_eq "... the rows in that order" "mlx5_0/2 mlx5_0/1 mlx5_1/1 cxgb4_0/1" "$(port_rows)"
tui_keys I
tui_expect "I inverts the order" "POR^"
assert_eq "... the rows inverted, ties still in collection order" "mlx5_0/1 mlx5_1/1 cxgb4_0/1 mlx5_0/2" "$(port_rows)"
tui_keys s
tui_expect "s again sorts by STATE (names A to Z)" "STATE^"

tui_keys r
tui_expect "r resets the deltas" "deltas reset"
tui_keys p
tui_expect "p pauses" "PAUSED"
tui_keys p
tui_expect_gone "p resumes" "PAUSED"
tui_keys +
tui_expect "+ lengthens the interval" "| 2s"
tui_keys - -
tui_expect "- shortens it" "| 0.5s"
tui_keys +

for size in 40x12 20x5 1x1 2x2 220x60 80x24 120x40; do
	tui_resize "${size%x*}" "${size#*x}"
done
# A storm: forty sizes back to back, no waiting between them.
i=0
while [ $i -lt 40 ]; do
	tui_resize $(( (i * 37) % 230 + 1 )) $(( (i * 13) % 70 + 1 ))
	i=$((i + 1))
done
tui_resize 120 40
tui_expect "after a resize storm it still draws" "mlx5_0"
tui_resize 40 12
tui_expect "legible at 40x12" "mlx5_0" 
tui_resize 20 5
tui_expect "something useful at 20x5" "fabtop"
tui_resize 220 60
tui_expect "wide screens show more columns" "NODE GUID"
tui_resize 120 40
tui_expect "back at 120x40" "PHYSICAL"

if tui_quit; then ok "q quits"; else not_ok "q quits"; diag "$(cat "$T/screen")"; fi
tui_expect_exit "exit status 0" 0
if grep -Fq "F1Help" "$T/screen"; then
	not_ok "the alternate screen is left (no monitor remains)"; diag "$(cat "$T/screen")"
else
	ok "the alternate screen is left (no monitor remains)"
fi

# SIGTERM: leaves cleanly, terminal restored.
tui_start 100 30 -- --demo
tui_wait "mlx5_0" || :
pid=$(tui_app_pid || :)
if [ -n "$pid" ] && kill -TERM "$pid"; then
	tui_expect_exit "SIGTERM ends the monitor, with exit 0" 0
	if grep -Fq "F1Help" "$T/screen"; then not_ok "terminal restored after SIGTERM"; else ok "terminal restored after SIGTERM"; fi
else
	skip "cannot find fabtop's pid"
	skip "cannot find fabtop's pid"
fi

# A crash (SIGSEGV here) still gives the terminal back before dying.
tui_start 100 30 -- --demo
tui_wait "mlx5_0" || :
pid=$(tui_app_pid || :)
if [ -n "$pid" ] && kill -SEGV "$pid"; then
	tui_expect "a crash ends the monitor" "FABTOP-EXIT="
	# killed by the same signal (128 + 11); a sanitizer's handler exits 1
	tui_expect_exit "... by the signal" 139 1
	if grep -Fq "F1Help" "$T/screen"; then not_ok "terminal restored after a crash"; else ok "terminal restored after a crash"; fi
else
	skip "cannot find fabtop's pid"; skip "cannot find fabtop's pid"; skip "cannot find fabtop's pid"
fi

done_testing
