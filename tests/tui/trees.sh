#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The monitor on sysfs fixture trees: flags, no-PMA ports, netns highlights,
# devices that vanish and come back, no devices at all (the demo offer),
# settings, colours and the ASCII/UTF-8 graphs.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"
slow_scenario

TREES="$DATA/trees"

# Without a terminal it says what to use instead; bad arguments are usage errors.
run_rc "$FABTOP" --demo </dev/null
assert_eq "no terminal: exit 1" 1 "$rc"
assert_match "no terminal: says so" "needs a terminal" "$(cat "$T/err")"
run_rc "$FABTOP" --demo --json </dev/null
assert_eq "--json with the monitor: usage error" 2 "$rc"
run_rc "$FABTOP" monitor --pane bogus </dev/null
assert_eq "unknown pane: usage error" 2 "$rc"
assert_match "unknown pane: names the panes" "ports, counters, gids" "$(cat "$T/err")"

# ib-2port: port 2 is INIT with LinkUp: no subnet manager.
tui_start 160 30 -- --sysfs "$TREES/ib-2port"
tui_expect "ib-2port: both ports listed" "mlx4_0"
tui_expect "INIT + LinkUp is flagged NO-SM" "NO-SM"
tui_keys 2
tui_expect "Counters pane lists the error counters" "link_downed"
tui_keys Enter
tui_expect "counter details name the source directories" "{counters,counters_ext,hw_counters,cm_*}"
tui_keys Escape 3
tui_expect "GIDs pane shows the IB GIDs" "fe80:0000:0000:0000:0002:c903:0031:78f1"
tui_quit >/dev/null || :

# container: the RoCE GID's netdev is not in this network namespace.
tui_start 120 30 -- --sysfs "$TREES/container" --pane gids
tui_expect "container: the GID's netdev is flagged" "not in netns"
tui_keys 1
tui_expect "Ports pane flags the port NETNS" "NETNS"
tui_quit >/dev/null || :

# iwarp: no PMA, counters read "N/A (no PMA)": rates are n/a, never 0.
tui_start 120 30 -- --sysfs "$TREES/iwarp" --pane counters
tui_expect "iWARP: rates are n/a, not zero" "n/a"
tui_expect "iWARP: no traffic counters, said plainly" "no traffic counters on this port (no PMA)"
tui_quit >/dev/null || :

# switch: only port 0.
tui_start 120 30 -- --sysfs "$TREES/switch"
tui_expect "switch: port 0 is listed" "switch0"
tui_quit >/dev/null || :

# The external procfs tree: a 1X link is flagged SLOW; saturated counters.
EXT="$DATA/external/procfs"
tui_start 120 30 -- --sysfs "$EXT"
tui_expect "procfs tree: mlx5_0 at 1X is flagged SLOW" "SLOW"
tui_expect_after "procfs tree: counters pane" "ERR/INT" 10 tui_keys 2
tui_expect "... with the hfi1 port" "hfi1_0"
tui_quit >/dev/null || :

# No devices at all: it says so and offers the demo.
mkdir -p "$T/empty"
tui_start 100 24 -- --sysfs "$T/empty"
tui_expect "without devices it says so" "No RDMA devices found"
tui_expect "... and offers the demo" "press d to run the demo"
tui_keys d
tui_expect "d starts the demo fabric" "DEMO"
tui_expect "the demo's devices appear" "mlx5_0"
tui_quit >/dev/null || :

# Devices vanish and come back while it runs (re-collected every 5 s).
cp -a "$TREES/roce" "$T/sys"
tui_start 120 30 -- --sysfs "$T/sys" --interval 0.5
tui_expect "two devices at first" "rxe0"
rm -rf "$T/sys/class/infiniband/rxe0"
tui_expect_gone "a removed device's rows go" "rxe0" 12
tui_expect "the other device stays" "mlx5_0"
cp -a "$TREES/roce/class/infiniband/rxe0" "$T/sys/class/infiniband/"
tui_expect "a device that comes back reappears" "rxe0" 12
rm -rf "$T/sys/class/infiniband"
tui_expect "all gone: the no-device message" "No RDMA devices found" 12
tui_quit >/dev/null || :
tui_expect_exit "no crash while devices came and went" 0

# Counter state survives a re-collection: the delta since start of a counter
# stays when a port's state change makes the monitor collect everything again.
cp -a "$TREES/ib-2port" "$T/carry"
P1="$T/carry/class/infiniband/mlx4_0/ports/1"
tui_start 120 40 -- --sysfs "$T/carry" --pane counters --interval 0.5
tui_wait "port_rcv_data" || :
echo 4500001000 >"$P1/counters/port_rcv_data"
tui_expect "a counter that moves shows its new value" "4500001000"
assert_match "... and its delta since start (1000)" "port_rcv_data +4500001000 +[0-9-]+ +1000$" "$(tui_line port_rcv_data)"
echo "1: DOWN" >"$T/carry/class/infiniband/mlx4_0/ports/2/state"
tui_expect "a port state change is picked up by the structure watch" "DOWN" 12
tui_wait "port_rcv_data" || :
assert_match "the delta since start survives the re-collection" "port_rcv_data +4500001000 +0 +1000$" "$(tui_line port_rcv_data)"
tui_keys 1
tui_expect "the Ports pane flags the port NO-LINK" "NO-LINK"
tui_quit >/dev/null || :

# The probe from the pane, on a host without RDMA: it fails and says why.
tui_start 120 40 -- --sysfs "$T/empty" --pane probe
tui_wait "RDMA CM probe" || :
tui_keys e 1 2 7 . 0 . 0 . 1 Enter Enter
tui_expect "the probe runs from the pane and shows its timeline" "CM event timeline"
tui_quit >/dev/null || :

# Settings: W writes the file; it is read at start; bad lines warn.
tui_start 100 24 -- --demo
tui_wait "mlx5_0" || :
tui_keys 3 W
tui_expect "W saves the settings" "settings saved to"
tui_quit >/dev/null || :
assert_match "the file names the pane" "^pane=gids$" "$(cat "$T/cfg/fabtop/fabtoprc" 2>/dev/null)"
printf 'bogus line\ninterval=nope\nwindow=600\n' >>"$T/cfg/fabtop/fabtoprc"
tui_start 100 24 -- --demo
tui_expect "the saved pane is where it starts" "RoCE v2"
tui_quit >/dev/null || :
assert_match "bad lines are warned about after exit" "fabtoprc:[0-9]+: not key=value, ignored" "$(cat "$T/screen")"
assert_match "bad values too" "interval wants seconds" "$(cat "$T/screen")"

# Colours: on by default, off with --no-color and NO_COLOR.
colours() { tui capture-pane -e -p -t fab | grep -c "$(printf '\033')\[[0-9;]*3[0-7]m" || :; }
tui_start 100 24 -- --demo
tui_wait "mlx5_0" || :
n=$(colours)
if [ "$n" -gt 0 ]; then ok "colours by default"; else not_ok "colours by default"; fi
tui_quit >/dev/null || :
tui_start 100 24 -- --demo --no-color
tui_wait "mlx5_0" || :
assert_eq "--no-color: no colour escapes" 0 "$(colours)"
tui_quit >/dev/null || :
tui_start 100 24 NO_COLOR=1 -- --demo
tui_wait "mlx5_0" || :
assert_eq "NO_COLOR: no colour escapes" 0 "$(colours)"
tui_quit >/dev/null || :

# Graphs: UTF-8 blocks in a UTF-8 locale, plain ASCII otherwise.
tui_start 120 30 LC_ALL=C.UTF-8 -- --demo --pane counters --interval 0.2
tui_expect "UTF-8 locale: block graphs" "$(printf '\342\226\210')"
tui_quit >/dev/null || :
tui_start 120 30 LC_ALL=C -- --demo --pane counters --interval 0.2
tui_expect "C locale: ASCII graphs" "#"
if LC_ALL=C grep -q "$(printf '[\200-\377]')" "$T/screen"; then
	not_ok "C locale: no UTF-8 bytes on screen"
else
	ok "C locale: no UTF-8 bytes on screen"
fi
tui_quit >/dev/null || :

# Mouse: a click on the GIDs tab, then on a column header. The monitor
# starts on Ports (the settings saved above would open GIDs), so the
# click has a pane to leave.
tui_start 120 30 -- --demo --pane ports
tui_wait "mlx5_0" || :
if grep -q "RoCE v2" "$T/screen"; then
	not_ok "before the click: the Ports pane, no GID types"
else
	ok "before the click: the Ports pane, no GID types"
fi
x=$(awk 'NR==2 { print index($0, "3 GIDs") }' "$T/screen")
tui_click "$x" 1
tui_expect "a click on a tab switches panes" "RoCE v2"
tui_click 12 2
tui_expect "a click on a column header sorts by it" "PORv"
tui_click 1 29
tui_expect "a click on F1Help in the function bar opens the help" "help (this screen)"
tui_quit >/dev/null || :

done_testing
