#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --counters pma|sysfs|auto: `show counters` takes a local IB port's counters
# from its PMA (PortCounters + PortCountersExtended MADs) and reports what
# perfquery reports for the same port on the same simulator, with the same
# widths and saturation rules; without a umad device it falls back to the
# sysfs files and says so.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"

# ---- no umad device for this tree: sysfs, with a note ----
TREE="$DATA/trees/ib-2port"
run_rc "$FABTOP" --sysfs "$TREE" --counters pma show counters --json
assert_eq "pma without umad: exit 0" 0 "$rc"
assert_match "pma without umad: stderr says counters come from sysfs, and why" \
	'--counters pma: .*live system.*; counters from sysfs' "$(cat "$T/err")"
assert_eq "pma without umad: the counters are the sysfs files'" "counters" \
	"$(jq -r '[.ports[0].counters[].source] | unique | join(",")' "$T/out")"
run_rc "$FABTOP" --sysfs "$TREE" --counters sysfs show counters --json
assert_eq "sysfs: no note" "0 " "$rc $(cat "$T/err")"
run_rc "$FABTOP" --sysfs "$TREE" --counters bogus show counters
assert_eq "a bad mode: exit 2" 2 "$rc"
assert_match "a bad mode: says what it wants" 'wants auto, sysfs, pma or netlink' "$(cat "$T/err")"

if ! command -v ibsim >/dev/null 2>&1 || ! command -v opensm >/dev/null 2>&1 ||
   ! command -v perfquery >/dev/null 2>&1 || [ -z "$UMAD2SIM" ]; then
	skip "ibsim, opensm, perfquery or libumad2sim.so missing (Debian: ibsim-utils opensm infiniband-diags)"
	done_testing
	exit 0
fi

ibsim_start "$DATA/ibsim/two-switch.net"
opensm_start SmHost
port_active HostA
sysfs_hold HostA
A_LID=$(sim HostA ibstat | sed -n 's/.*Base lid: \([0-9]*\)/\1/p')

# Every error counter a value of its own, two at all-ones (latched).
i=1
for f in SymbolErrorCounter LinkErrorRecoveryCounter LinkDownedCounter PortRcvErrors \
	PortRcvRemotePhysicalErrors PortRcvSwitchRelayErrors PortXmitDiscards PortXmitConstraintErrors \
	PortRcvConstraintErrors LocalLinkIntegrityErrors ExcessiveBufferOverrunErrors VL15Dropped; do
	ibsim_cmd "PerformanceSet \"HostA\"[1] PortCounters.$f=$i" "$f has been set to $i"
	i=$((i + 1))
done
ibsim_cmd 'PerformanceSet "HostA"[1] PortCounters.PortXmitWait=4294967295' "PortXmitWait has been set to 4294967295"

fabc() { fab HostA --sysfs "$HOLD_SYS" "$@"; }
run_rc fabc --counters pma show counters --json
assert_eq "pma on ibsim: exit 0, no note" "0 " "$rc $(cat "$T/err")"
cp "$T/out" "$T/pma.json"
sim HostA perfquery >"$T/pq.txt"
sim HostA perfquery -x >"$T/pqx.txt"
pq() { sed -n "s/^$1:\.*\([0-9]*\)\$/\1/p" "$2"; }
cv() { jq -r ".ports[0].counters[] | select(.name == \"$1\") | .$2" "$T/pma.json"; }
assert_eq "every counter from the PMA" "pma" "$(jq -r '[.ports[0].counters[].source] | unique | join(",")' "$T/pma.json")"
same=""
differ=""
for pair in symbol_error:SymbolErrorCounter link_error_recovery:LinkErrorRecoveryCounter \
	link_downed:LinkDownedCounter port_rcv_errors:PortRcvErrors \
	port_rcv_remote_physical_errors:PortRcvRemotePhysicalErrors \
	port_rcv_switch_relay_errors:PortRcvSwitchRelayErrors port_xmit_discards:PortXmitDiscards \
	port_xmit_constraint_errors:PortXmitConstraintErrors port_rcv_constraint_errors:PortRcvConstraintErrors \
	local_link_integrity_errors:LocalLinkIntegrityErrors \
	excessive_buffer_overrun_errors:ExcessiveBufferOverrunErrors VL15_dropped:VL15Dropped; do
	n=${pair%%:*}
	p=$(pq "${pair#*:}" "$T/pq.txt")
	if [ "$(cv "$n" value)" = "$p" ] && [ -n "$p" ]; then same="$same $n"; else differ="$differ $n=$(cv "$n" value)/$p"; fi
done
assert_eq "12 error counters equal perfquery's (differing:$differ)" 12 "$(echo $same | wc -w)"
assert_eq "port_xmit_wait at 2^32-1: 32 bits, saturated (latched, not a wrap)" "32 true 4294967295" \
	"$(cv port_xmit_wait bits) $(cv port_xmit_wait saturated) $(cv port_xmit_wait value)"
assert_eq "perfquery agrees PortXmitWait is all-ones" 4294967295 "$(pq PortXmitWait "$T/pq.txt")"
assert_eq "ClassPortInfo advertises the extended set: data and packets 64-bit" "64 64 64" \
	"$(cv port_xmit_data bits) $(cv port_rcv_packets bits) $(cv unicast_xmit_packets bits)"
# Data and packet counters move with every MAD the simulator carries: close, not equal.
within() { [ -n "$1" ] && [ -n "$2" ] && [ "$1" -le "$2" ] && [ $(($2 - $1)) -lt 2000 ]; }
for pair in port_xmit_data:PortXmitData port_rcv_data:PortRcvData port_xmit_packets:PortXmitPkts; do
	n=${pair%%:*}
	fv=$(cv "$n" value)
	pv=$(pq "${pair#*:}" "$T/pqx.txt")
	check "$n within the MAD traffic of perfquery -x ($fv vs $pv)" \
		within "$fv" "$pv"
done
assert_eq "xmit_bytes is the data counter x 4" "$(($(cv port_xmit_data value) * 4))" \
	"$(jq -r '.ports[0].xmit_bytes' "$T/pma.json")"

# A saturated 16-bit error counter.
ibsim_cmd 'PerformanceSet "HostA"[1] PortCounters.SymbolErrorCounter=65535' "SymbolErrorCounter has been set to 65535"
run_rc fabc --counters auto show counters --json
assert_eq "auto on ibsim: the PMA, no note" "0 pma" \
	"$rc$(cat "$T/err") $(jq -r '[.ports[0].counters[].source] | unique | join(",")' "$T/out")"
assert_eq "symbol_error at 65535: 16 bits, saturated" "16 true" \
	"$(jq -r '.ports[0].counters[] | select(.name == "symbol_error") | "\(.bits) \(.saturated)"' "$T/out")"

# Rates between samples come from the MADs too.
run_rc fabc --counters pma --interval 0.2 --count 2 show counters --json
assert_eq "pma --count 2: exit 0" 0 "$rc"
assert_eq "pma --count 2: two samples, PMA counters" "2 pma" \
	"$(jq -s 'length' "$T/out") $(jq -rs '[.[-1].ports[0].counters[].source] | unique | join(",")' "$T/out")"

# sysfs on the same port: the simulator's tree has no counters/ directory.
run_rc fabc --counters sysfs show counters --json
assert_eq "sysfs on ibsim: no PMA counters asked" "0 0" \
	"$rc $(jq '[.ports[0].counters[] | select(.source == "pma")] | length' "$T/out")"
done_testing
