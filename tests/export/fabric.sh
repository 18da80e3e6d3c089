#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop export --fabric on ibsim (small-tree.net under opensm): every port
# of the subnet with its node, LID and remote end, the 1X uplink degraded,
# errors set through the ibsim console on the right port, a cable unlinked
# as a lost link within two samples, scrapes that never sweep, the page
# gzip'ed whole, promtool-clean.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/export/lib.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
command -v curl >/dev/null || skip_all "curl is not installed"
[ -x "$TOP_BUILDDIR/tests/mad/mad_sample" ] || skip_all "tests/mad/mad_sample is not built"

# Without a subnet: the demo says so and serves fabtop_fabric_up 0.
"$FABTOP" --demo export --fabric --count 1 --no-http --textfile "$T/demo.prom" \
	>"$T/demo.out" 2>"$T/demo.err" || :
assert_match "the demo: --fabric says there is no subnet" "--fabric: the demo fabric is simulated" "$(cat "$T/demo.err")"
assert_match "... and exports fabtop_fabric_up 0" '^fabtop_fabric_up 0$' "$(cat "$T/demo.prom")"
run_rc "$FABTOP" --demo export --fabric --fabric-interval 0
assert_eq "--fabric-interval 0 is a usage error" 2 "$rc"

ibsim_start "$DATA/ibsim/small-tree.net"
opensm_start h11
for h in h12 h21 h22 h31 h32; do port_active "$h"; done
sysfs_hold h11

fabric_exporter exp 1
M() { grep -v '^#' "$T/m.prom"; }

check "the subnet is swept and every port's counters are in" until_metric '^fabtop_fabric_port_data_bytes_total\{node_guid="[^"]*",node_desc="h32 mlx5_0"' 30
assert_eq "fabtop_fabric_up 1" "fabtop_fabric_up 1" "$(M | grep '^fabtop_fabric_up ')"
assert_eq "12 links" "fabtop_fabric_links 12" "$(M | grep '^fabtop_fabric_links ')"
assert_match "a whole round of samples took some time, under the interval" \
	'^fabtop_fabric_sample_duration_seconds 0\.[0-9]*[1-9]' "$(M)"
assert_eq "6 CAs and 5 switches" "6 5" \
	"$(M | sed -n 's/^fabtop_fabric_nodes{type="CA"} //p') $(M | sed -n 's/^fabtop_fabric_nodes{type="Switch"} //p')"
assert_eq "24 ports up, each described once" 24 "$(M | grep -c '^fabtop_fabric_port_info{')"
assert_match "a host's port: its node, LID and the switch port at the other end" \
	'^fabtop_fabric_port_info\{node_guid="0x[0-9a-f]{16}",node_desc="h21 mlx5_0",port="1",lid="[1-9][0-9]*",remote_guid="0x[0-9a-f]{16}",remote_desc="leaf 2",remote_port="1",node_type="CA",width="4X",speed="QDR"\} 1$' \
	"$(M)"
assert_eq "the 1X uplink is degraded at both ends, and nothing else" \
	'leaf 3/3 spine 1/3' \
	"$(M | sed -n 's/^fabtop_fabric_port_degraded{[^}]*node_desc="\([^"]*\)",port="\([0-9]*\)".*} 1$/\1\/\2/p' | sort | tr '\n' ' ' | sed 's/ $//')"
assert_eq "... the other 22 ends are not" 22 "$(M | grep -c '^fabtop_fabric_port_degraded{.*} 0$')"

ibsim_cmd 'PerformanceSet "L2"[1] PortCounters.SymbolErrorCounter=5' "SymbolErrorCounter has been set to 5"
check "the symbol errors set on leaf 2 port 1 are exported there, with h21 as the remote end" \
	until_metric '^fabtop_fabric_port_count_total\{[^}]*node_desc="leaf 2",port="1",[^}]*remote_desc="h21 mlx5_0",remote_port="1",counter="symbol_error",kind="error",bits="16"\} 5$' 10
assert_eq "... and on no other port" 1 "$(M | grep 'counter="symbol_error"' | grep -vc '} 0$')"
assert_eq "no counter latched: no saturated sample (a counter that counts has none)" 0 \
	"$(M | grep -c '^fabtop_fabric_port_saturated{' || :)"
ibsim_cmd 'PerformanceSet "L2"[2] PortCounters.SymbolErrorCounter=65535' "SymbolErrorCounter has been set to 65535"
check "leaf 2 port 2's symbol errors latched at 65535 are flagged saturated, h22 as the remote end" \
	until_metric '^fabtop_fabric_port_saturated\{[^}]*node_desc="leaf 2",port="2",[^}]*remote_desc="h22 mlx5_0",remote_port="1",counter="symbol_error",bits="16"\} 1$' 10
assert_eq "... no longer exported as a count" "" \
	"$(M | grep '^fabtop_fabric_port_count_total{[^}]*node_desc="leaf 2",port="2",[^}]*counter="symbol_error"' || :)"
assert_eq "... and the only saturated sample" 1 "$(M | grep -c '^fabtop_fabric_port_saturated{')"

# A scrape serves the latest sample: twenty scrapes do not sweep or sample.
s0=$(M | sed -n 's/^fabtop_fabric_sweeps_total //p')
n=0
while [ $n -lt 20 ]; do scrape "$addr" -o "$T/s.prom" 2>/dev/null || :; n=$((n + 1)); done
s1=$(sed -n 's/^fabtop_fabric_sweeps_total //p' "$T/s.prom")
check "twenty scrapes in a row do not sweep ($s0 -> $s1 sweeps)" test "$((s1 - s0))" -le 1

# Gzip'ed: the host's part and the subnet's, deflated apart, make one member of the same page.
gz_get g0 gzip
check "a scrape that accepts gzip gets the subnet gzip'ed from a later page on" gz_until gzip
check "... the page the plain scrape gets, byte for byte (but the count of scrapes)" gz_same_page gzip
assert_eq "... all 24 ports in it, one gzip member" "24 one-member" \
	"$(grep -c '^fabtop_fabric_port_info{' "$T/z") $(cut -d' ' -f4 "$T/z.h")"

ibsim_cmd 'Unlink "L3"[1]' "sim>"
t0=$(date +%s)
check "the unlinked cable (leaf 3 - h31) is a lost link" \
	until_metric '^fabtop_fabric_link_lost\{[^}]*node_desc="(leaf 3|h31 mlx5_0)",port="1",[^}]*remote_desc="(h31 mlx5_0|leaf 3)",remote_port="1"\} 1$' 15
diag "lost link exported $(( $(date +%s) - t0 )) s after the unlink (fabric interval 1 s)"
check "... within two intervals and a sweep (5 s)" test "$(( $(date +%s) - t0 ))" -le 5

check "promtool check metrics is clean with the fabric" sh -c "promtool check metrics <'$T/m.prom'"

# ---- a switch whose MADs are all dropped: reported, the rest stays live ----
ibsim_cmd 'Error "L2" 100' 'sim>'
check "leaf 2 silent: its links to the spines and hosts are lost" \
	until_metric '^fabtop_fabric_link_lost\{[^}]*node_desc="leaf 2",port="2",[^}]*remote_desc="h22 mlx5_0"' 15
assert_eq "... all four of them (and the unlinked cable still)" 5 "$(M | grep -c '^fabtop_fabric_link_lost{')"
assert_match "the spine port that leads to it: up, its far end unknown" \
	'^fabtop_fabric_port_info\{[^}]*node_desc="spine 1",port="2",[^}]*remote_guid="",remote_desc="",remote_port="",[^}]*\} 1$' "$(M)"
assert_eq "the rest stays: 7 links (12, less the unlinked cable and leaf 2's four)" "fabtop_fabric_links 7" \
	"$(M | grep '^fabtop_fabric_links ')"
c0=$(M | sed -n 's/^fabtop_fabric_port_data_bytes_total{[^}]*node_desc="h11 mlx5_0",port="1",[^}]*counter="port_xmit_data".* //p')
sleep 2.5
scrape "$addr" -o "$T/m.prom" 2>/dev/null || :
c1=$(M | sed -n 's/^fabtop_fabric_port_data_bytes_total{[^}]*node_desc="h11 mlx5_0",port="1",[^}]*counter="port_xmit_data".* //p')
check "... and is still sampled: h11's transmit bytes moved ($c0 -> $c1)" test "${c1:-0}" -gt "${c0:-0}"
done_testing
