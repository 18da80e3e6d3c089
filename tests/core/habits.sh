#!/bin/sh
# shellcheck disable=SC2154 # rc is set by run_rc (tests/setup.sh)
# SPDX-License-Identifier: GPL-2.0-or-later
# The habits of ibstat, show_gids and perfquery users, and one clear line on
# every edge: a device and port as arguments (show ports mlx4_0 1, show
# counters mlx4_0/1), help and version as commands, the program's usage for
# an unknown option, a --sysfs root that does not exist, a doctor with
# nothing RDMA to examine.
# The probe's rping options are in tests/probe/cli.sh; the monitor's
# --device/--port and TERM=dumb in tests/tui/habits.sh; lab up with an
# unknown name in tests/lab/refuse.sh (with its stand-ins for ip and modprobe).
. "$TOP_SRCDIR/tests/setup.sh"
IB="$DATA/trees/ib-2port"
ROCE="$DATA/trees/roce"

# show ports|gids|counters DEV [PORT] and DEV/PORT, as ibstat, show_gids and perfquery take them
run_rc "$FABTOP" --sysfs "$IB" show ports mlx4_0 2
assert_eq "show ports DEV PORT: exit 0" 0 "$rc"
assert_match "... port 2's line" '^  2    INIT +LinkUp ' "$(cat "$T/out")"
assert_eq "... and not port 1's" "" "$(grep '^  1 ' "$T/out" || :)"
run_rc "$FABTOP" --sysfs "$IB" --json show ports mlx4_0 1
assert_json "--json: the one device with the one port" "$T/out" \
	'(.devices | length) == 1 and .devices[0].name == "mlx4_0" and (.devices[0].ports | map(.port)) == [1]'
run_rc "$FABTOP" --sysfs "$ROCE" --json show ports rxe0
assert_json "show ports DEV: that device only, every port" "$T/out" '[.devices[].name] == ["rxe0"]'
run_rc "$FABTOP" --sysfs "$ROCE" --json show gids mlx5_0
assert_json "show gids DEV: that device's GIDs only" "$T/out" \
	'(.gids | length) > 0 and ([.gids[].device] | unique) == ["mlx5_0"]'
run_rc "$FABTOP" --sysfs "$IB" --json show gids mlx4_0 2
assert_json "show gids DEV PORT: that port's GIDs only" "$T/out" \
	'(.gids | length) > 0 and ([.gids[] | "\(.device)/\(.port)"] | unique) == ["mlx4_0/2"]'
run_rc "$FABTOP" --sysfs "$IB" --json show counters mlx4_0/2
assert_json "show counters DEV/PORT: that port's counters only" "$T/out" \
	'[.ports[] | "\(.device)/\(.port)"] == ["mlx4_0/2"]'
run_rc "$FABTOP" --sysfs "$IB" --json show counters mlx4_0 1
assert_json "show counters DEV PORT: the same" "$T/out" '[.ports[] | "\(.device)/\(.port)"] == ["mlx4_0/1"]'
run_rc "$FABTOP" --sysfs "$IB" --json --interval 0.1 --count 1 show counters mlx4_0/2
assert_json "show counters DEV/PORT --count: the samples keep to it" "$T/out" \
	'.sample == 1 and [.ports[] | "\(.device)/\(.port)"] == ["mlx4_0/2"]'

# a device or port that is not there: exit 1, naming those that are
run_rc "$FABTOP" --sysfs "$ROCE" show ports mlx5_9
assert_rc "an unknown device: exit 1" 1
assert_eq "... naming the devices there are" "fabtop show ports: no RDMA device 'mlx5_9' (devices: mlx5_0, rxe0)" "$(cat "$T/err")"
assert_eq "... and printing no report" "" "$(cat "$T/out")"
run_rc "$FABTOP" --sysfs "$IB" show counters mlx4_0/3
assert_rc "an unknown port: exit 1" 1
assert_eq "... naming the ports there are" "fabtop show counters: mlx4_0 has no port 3 (ports: 1, 2)" "$(cat "$T/err")"
run_rc "$FABTOP" --sysfs "$IB" --count 1 --interval 0.1 show counters mlx4_0 3
assert_rc "an unknown port with --count: exit 1 too" 1
assert_match "... saying so" 'mlx4_0 has no port 3 \(ports: 1, 2\)' "$(cat "$T/err")"

# malformed: exit 2 with the word that is wrong
for args in "ports mlx4_0 x" "ports mlx4_0/x" "counters mlx4_0/" "gids /1" "ports mlx4_0 1 2" "ports mlx4_0 256" \
	    "gids mlx4_0 --for ib0" "net mlx4_0"; do
	# shellcheck disable=SC2086
	run_rc "$FABTOP" --sysfs "$IB" show $args
	if [ "$rc" = 2 ] && [ -s "$T/err" ] && [ ! -s "$T/out" ]; then ok "malformed: show $args exits 2 with a message"
	else not_ok "malformed: show $args exits 2 with a message"; diag "rc=$rc" "stderr: $(cat "$T/err")"; fi
done
run_rc "$FABTOP" --sysfs "$IB" show ports mlx4_0 x
assert_match "a port that is no number is named" "'x' is not a port number" "$(cat "$T/err")"
run_rc "$FABTOP" --sysfs "$IB" show counters mlx4_0/x
assert_match "a DEV/PORT that is not one is named" "'mlx4_0/x' is not DEV/PORT" "$(cat "$T/err")"

# help and version as commands; an unknown option gets the program's usage, not the monitor's
run_rc "$FABTOP" help
assert_rc "help: exit 0" 0
assert_match "... the program's usage" '^Usage: fabtop \[GLOBAL OPTIONS\] \[COMMAND \[ARGS\]\]$' "$(cat "$T/out")"
run_rc "$FABTOP" help probe
assert_rc "help COMMAND: exit 0" 0
assert_match "... that command's usage" '^Usage: fabtop probe PEER ' "$(cat "$T/out")"
run_rc "$FABTOP" help show
assert_match "help show: show's usage" '^Usage: fabtop show \[SECTION\]' "$(cat "$T/out")"
run_rc "$FABTOP" help frobnicate
assert_rc "help with an unknown command: exit 2" 2
assert_match "... naming the commands" "^fabtop help: no command 'frobnicate'; the commands: show doctor probe" "$(cat "$T/err")"
run_rc "$FABTOP" version
assert_rc "version: exit 0" 0
assert_match "... the version" '^fabtop [0-9]+\.[0-9]+' "$(cat "$T/out")"
run_rc "$FABTOP" version extra
assert_rc "version with an argument: exit 2" 2
run_rc "$FABTOP" --bogus
assert_rc "--bogus: exit 2" 2
assert_match "... names the option" "^fabtop: unknown option '--bogus'$" "$(cat "$T/err")"
assert_match "... and shows the program's usage" '^Usage: fabtop \[GLOBAL OPTIONS\] \[COMMAND \[ARGS\]\]$' "$(cat "$T/err")"
assert_eq "... not the monitor's" "" "$(grep 'The interactive monitor' "$T/err" || :)"
run_rc "$FABTOP" monitor --bogus
assert_match "monitor --bogus: the monitor's usage" 'The interactive monitor' "$(cat "$T/err")"
run_rc "$FABTOP" --help
assert_match "--help lists export --probe and --fabric" 'fabtop export .*--probe PEER.*--fabric' "$(tr '\n' ' ' <"$T/out")"
assert_match "--help lists show DEV PORT" 'fabtop show ports\|gids\|counters \[DEV \[PORT\] \| DEV/PORT\]' "$(cat "$T/out")"
assert_match "--help lists help and version" 'fabtop help \[COMMAND\].*fabtop version' "$(tr '\n' ' ' <"$T/out")"

# --sysfs: a root that does not exist is said as such, not as a host without RDMA
run_rc "$FABTOP" --sysfs "$T/nonexistent" show
assert_rc "--sysfs NONEXISTENT: exit 1" 1
assert_eq "... says the path does not exist" "fabtop: --sysfs $T/nonexistent: the path does not exist" "$(cat "$T/err")"
run_rc "$FABTOP" --sysfs "$T/nonexistent" doctor
assert_eq "... for doctor too" "fabtop: --sysfs $T/nonexistent: the path does not exist" "$(cat "$T/err")"

# a host without RDMA: the doctor has nothing to examine, which is not "No problems found"
mkdir -p "$T/bare/class"
run_rc "$FABTOP" --sysfs "$T/bare" doctor
assert_rc "doctor without RDMA: exit 0 (nothing wrong found)" 0
assert_match "... says there is nothing RDMA to examine" '^Nothing RDMA to examine: no RDMA port and no RDMA netdev here' "$(cat "$T/out")"
assert_eq "... never 'No problems found'" "" "$(grep 'No problems found' "$T/out" || :)"
run_rc "$FABTOP" --sysfs "$IB" doctor
assert_eq "a host with ports is examined as before" "" "$(grep 'Nothing RDMA to examine' "$T/out" || :)"

done_testing
