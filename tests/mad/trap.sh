#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The SM's traps sweep the subnet at once, on ibsim under opensm
# (small-tree.net, opensm on h12, `fabtop export --fabric` on h11 with a
# 30 s sample interval, so only the 10 s timer or a trap sweeps it):
# fabtop subscribes (the SA accepts InformInfo for traps 64, 65, 128-131),
# a cable unlinked on the ibsim console makes the switch send trap 128 to
# opensm, opensm forwards it as a Report, fabtop acknowledges it and the
# lost link is exported within 3 s of the unlink, well before the timer.
# First the same without the Report reaching fabtop (ibsim drops
# unsolicited MADs to a client that is not an SM: tests/mad/issm_shim.c),
# to show the measure tells the two apart: the link is then only found by
# the timer sweep.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/export/lib.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
command -v curl >/dev/null || skip_all "curl is not installed"
[ -x "$TOP_BUILDDIR/tests/mad/mad_sample" ] || skip_all "tests/mad/mad_sample is not built"
SHIM="$TOP_BUILDDIR/tests/mad/issm_shim.so"
[ -f "$SHIM" ] || skip_all "tests/mad/issm_shim.so is not built (make check builds it)"

ibsim_start "$DATA/ibsim/small-tree.net"
opensm_start h12
for h in h11 h21 h22 h31 h32; do port_active "$h"; done
sysfs_hold h11

# fabric_exporter (tests/export/lib.sh) with a 30 s interval: only the 10 s timer or a trap sweeps
M() { grep -v '^#' "$T/m.prom"; }
now_ms() { date +%s%3N; }
# after_timer_sweep: wait for the timer's next sweep, so the following one is 10 s away.
after_timer_sweep() {
	_s=$(M | sed -n 's/^fabtop_fabric_sweeps_total //p')
	until_metric "^fabtop_fabric_sweeps_total $((_s + 1))\$" 15
}
# unlink_until_lost CABLE NODE: unlink on the console; ms until the exporter shows NODE port 1's link lost.
unlink_until_lost() {
	_t0=$(now_ms)
	ibsim_cmd "Unlink $1" "sim>"
	until_metric "^fabtop_fabric_link_lost\\{[^}]*node_desc=\"($2|leaf [0-9])\",port=\"1\",[^}]*remote_desc=\"(leaf [0-9]|$2)\",remote_port=\"1\"\\} 1\$" 15 ||
		{ echo 99999; return; }
	echo $(( $(now_ms) - _t0 ))
}

# ---- without the Report reaching fabtop: the timer finds the link ----
fabric_exporter plain 30
check "subscribed: the SA accepted the six InformInfo Sets" until_metric '^fabtop_fabric_trap_subscribed 1$' 20
check "the subnet is swept: 12 links" until_metric '^fabtop_fabric_links 12$' 20
check "a timer sweep came (10 s after the first)" after_timer_sweep
ms=$(unlink_until_lost '"L3"[1]' 'h31 mlx5_0')
diag "without the Report: the lost link exported $ms ms after the unlink"
check "... opensm forwarded trap 128 as a Report, which ibsim dropped" \
	wait_for 5 grep -q 'no one to handle pkt: class 0x3, attr 0x2' "$T/ibsim.log"
check "... and opensm saw its Report time out unacknowledged" \
	wait_for 5 grep -q 'IB_TIMEOUT): SubnAdmReport' "$T/osm/osm.log"
assert_eq "... so fabtop received no trap" 0 "$(M | sed -n 's/^fabtop_fabric_traps_total{trap="128"} //p')"
check "... and only the timer found the lost link, 5 s or more after the unlink ($ms ms)" test "$ms" -ge 5000 -a "$ms" -lt 99999
stop_pid "$EXP_PID"

# ---- with it: the trap sweeps at once ----
fabric_exporter trap 30 "$SHIM"
check "subscribed again" until_metric '^fabtop_fabric_trap_subscribed 1$' 20
check "the subnet is swept: 11 links (the cable unlinked before is lost)" until_metric '^fabtop_fabric_links 11$' 20
check "a timer sweep came" after_timer_sweep
s0=$(M | sed -n 's/^fabtop_fabric_sweeps_total //p')
n0=$(wc -l <"$T/osm/osm.log")
ms=$(unlink_until_lost '"L2"[1]' 'h21 mlx5_0')
diag "with the Report: the lost link exported $ms ms after the unlink"
check "the lost link (leaf 2 - h21) is exported within 3 s of the unlink ($ms ms), 7 s before the timer's sweep" \
	test "$ms" -le 3000
check "... by a sweep of its own, before the timer's ($s0 -> $(M | sed -n 's/^fabtop_fabric_sweeps_total //p') sweeps)" \
	test "$(M | sed -n 's/^fabtop_fabric_sweeps_total //p')" -gt "$s0"
assert_match "... which a Report of trap 128 started" '^fabtop_fabric_traps_total\{trap="128"\} [1-9]' "$(M)"
# opensm gives up on an unacknowledged Report within about a second.
sleep 2
assert_eq "fabtop acknowledged the Reports: opensm saw none time out since" 0 \
	"$(tail -n "+$((n0 + 1))" "$T/osm/osm.log" | grep -c 'IB_TIMEOUT): SubnAdmReport' || :)"
check "promtool check metrics is clean with the traps" sh -c "command -v promtool >/dev/null || exit 0; promtool check metrics <'$T/m.prom'"
done_testing
