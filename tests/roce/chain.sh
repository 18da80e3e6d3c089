#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# show roce over the fixture tree roce-chain (written by tests/roce/chain-tree.py):
# DCB and ethtool answers replayed from its recordings, two samples a second
# apart; every finding of the lossless chain, text and JSON compared with
# tests/data/trees/roce-chain.expected.*.
. "$TOP_SRCDIR/tests/setup.sh"
TREE="$DATA/trees/roce-chain"
run() { "$FABTOP" --sysfs "$TREE" --configfs "$TREE/config" show roce "$@"; }

run_rc run
assert_eq "show roce exits 0" 0 "$rc"
assert_file_eq "text report" "$DATA/trees/roce-chain.expected.txt" "$T/out"
assert_eq "nothing on stderr" "" "$(cat "$T/err")"
run --json | jq -S . >"$T/out.json"
assert_file_eq "JSON report" "$DATA/trees/roce-chain.expected.json" "$T/out.json"

f() { jq -c "[.findings[] | select(.code==\"$1\") | [.device, .severity]]" "$T/out.json"; }
assert_eq "lossy RoCE: DSCP 26 -> priority 3 without PFC" '[["mlx5_0","error"],["mlx5_2","error"]]' "$(f roce-lossy)"
assert_eq "PFC on a priority without RDMA" '[["mlx5_0","info"],["mlx5_2","info"]]' "$(f roce-pfc-unused)"
assert_eq "pause storm" '[["mlx5_1","error"]]' "$(f roce-pause-storm)"
assert_eq "ECN marked but no CNP sent" '[["mlx5_2","warning"]]' "$(f roce-ecn-no-cnp)"
assert_eq "CNPs ignored" '[["mlx5_2","warning"]]' "$(f roce-cnp-ignored)"
assert_eq "out_of_buffer moving" '[["mlx5_1","warning"]]' "$(f roce-out-of-buffer)"
assert_eq "default_roce_tos unset while DSCP is trusted" '[["mlx5_2","warning"]]' "$(f roce-tos-unset)"
assert_eq "RoCE v1 forced" '[["mlx5_3","warning"]]' "$(f roce-v1-forced)"
assert_eq "DCQCN off where RDMA lands (ecn/roce_np|roce_rp/enable)" '[["mlx5_2","warning"]]' "$(f roce-ecn-off)"
assert_eq "sequence errors climbing while PFC is unknown: the symptom, on mlx5_3 only (mlx5_1's PFC is known)" \
	'[["mlx5_3","warning"]]' "$(f roce-loss-pfc-unknown)"
assert_json "the symptom's evidence: the climb and what could not be checked" "$T/out.json" \
	'[.findings[] | select(.code=="roce-loss-pfc-unknown") | .evidence] == [["out_of_sequence +2500000 in 1.0 s",
	  "packet_seq_err +1200 in 1.0 s", "PFC: not checked on enp4s0f0 (DCB netlink: Operation not supported)"]]'
assert_eq "not checked: PFC on enp4s0f0, with errno and reason" \
	'[{"check":"pfc","device":"mlx5_3","errno":95,"findings":["roce-lossy","roce-pfc-unused"],"netdev":"enp4s0f0","port":1,"reason":"DCB netlink: Operation not supported"}]' \
	"$(jq -S -c '[.not_checked[] | select(.check=="pfc") | del(.what)]' "$T/out.json")"
assert_match "text: PFC not checked, and why" '^  PFC: not checked on enp4s0f0 \(DCB netlink: Operation not supported\)$' "$(cat "$T/out")"
assert_eq "all findings are finding 8" '[8]' "$(jq -c '[.findings[].id] | unique' "$T/out.json")"
j() { jq -c "$1" "$T/out.json"; }
assert_eq "RDMA priority from TOS 104 through the APP table" '[26,3]' \
	"$(j '.roce_ports[0] | [.rdma_dscp, .rdma_priority]')"
assert_eq "PFC bits and trust order replayed" '[[3],["dscp","pcp"]]' "$(j '.roce_ports[2].dcb | [.pfc_enabled, .trust]')"
assert_eq "pause duration as a rate (us per s)" '950000' \
	"$(j '.roce_ports[1].ethtool.priorities[3].rx_pause_us.rate')"
assert_eq "ECN enables per priority from IF/ecn, null without it" '[{"np_enabled":[3],"rp_enabled":[3]},null]' \
	"$(j '[.roce_ports[1].ecn, .roce_ports[0].ecn]')"
assert_eq "no DCB: said, with its errno" '[95,null]' "$(j '.roce_ports[3].dcb | [.errno, .pfc_enabled]')"
assert_eq "link pause from the recorded PAUSE_GET reply" '[false,true,true]' \
	"$(j '.roce_ports[0].ethtool.link_pause | [.autoneg, .rx, .tx]')"
assert_eq "link pause frames (totals of the one recording)" '[7,5]' \
	"$(j '.roce_ports[0].ethtool | [.link_rx_pause_frames.value, .link_tx_pause_frames.value]')"
assert_eq "PAUSE_GET refused: errno 95" '95' "$(j '.roce_ports[3].ethtool.link_pause.errno')"

# One sample only (no second recording): configuration findings, no rates.
cp -r "$TREE" "$T/one"
rm -r "$T/one/fabtop-recorded/next"
"$FABTOP" --sysfs "$T/one" --configfs "$T/one/config" show roce --json >"$T/one.json"
assert_eq "one sample: no interval, no rate findings" '[null,false]' \
	"$(jq -c '[.interval_s, ([.findings[].code] | index("roce-pause-storm") != null)]' "$T/one.json")"
assert_eq "one sample: configuration findings stay" 'true' \
	"$(jq -c '[.findings[].code] | index("roce-lossy") != null' "$T/one.json")"
# The port whose DCB cannot be read, alone and set up otherwise right: no
# finding, but never "No problems found" without saying what was not checked.
cp -r "$T/one" "$T/alone"
rm -r "$T/alone/class/infiniband/mlx5_0" "$T/alone/class/infiniband/mlx5_1" "$T/alone/class/infiniband/mlx5_2"
echo "RoCE v2" >"$T/alone/config/rdma_cm/mlx5_3/ports/1/default_roce_mode"
run_rc "$FABTOP" --sysfs "$T/alone" --configfs "$T/alone/config" show roce
assert_eq "DCB unreadable, nothing found: exit 0" 0 "$rc"
assert_match "DCB unreadable: PFC said not checked" '^  PFC: not checked on enp4s0f0 \(DCB netlink: Operation not supported\)$' "$(cat "$T/out")"
assert_match "... the one-sample rate checks too" '^  rate checks .*: not checked \(one sample' "$(cat "$T/out")"
assert_match "... and no claim of no problems" '^No problems found by the checks that ran; 4 could not run \(above\)\.$' "$(cat "$T/out")"
if grep -q '^No problems found in the lossless chain' "$T/out"; then not_ok "never 'No problems found in the lossless chain' with checks not run"; else ok "never 'No problems found in the lossless chain' with checks not run"; fi
"$FABTOP" --sysfs "$T/alone" --configfs "$T/alone/config" show roce --json >"$T/alone.json"
assert_json "JSON: no findings, the checks not run listed with their reasons" "$T/alone.json" \
	'(.findings | length) == 0 and ([.not_checked[].check] == ["pfc","dscp-trust","dcqcn","rates"]) and
	 ([.not_checked[] | select(.check=="pfc") | .errno] == [95])'

# A recording cut short or missing is said, never a crash.
head -c 30 "$TREE/fabtop-recorded/enp1s0f0/dcb.nl" >"$T/one/fabtop-recorded/enp1s0f0/dcb.nl"
rm "$T/one/fabtop-recorded/enp2s0f0/dcb.nl"
run_rc "$FABTOP" --sysfs "$T/one" --configfs "$T/one/config" show roce
assert_eq "bad recordings: exit 0" 0 "$rc"
assert_match "a cut answer is called malformed" "DCB: not available: the answer was malformed" "$(cat "$T/out")"
assert_match "a missing one is said" "DCB: not available: no recorded answer" "$(cat "$T/out")"
# fabtop doctor takes the configuration findings (one sample: no rates).
run_rc "$FABTOP" --sysfs "$TREE" --configfs "$TREE/config" doctor --json
assert_eq "doctor: problems, exit 1" 1 "$rc"
assert_eq "doctor: the chain's configuration findings, as finding 8" \
	'["roce-lossy","roce-pfc-unused","roce-lossy","roce-pfc-unused","roce-tos-unset","roce-ecn-off","roce-v1-forced"]' \
	"$(jq -c '[.findings[] | select(.id==8) | .code]' "$T/out")"
run_rc "$FABTOP" --sysfs "$TREE" --configfs "$TREE/config" doctor
assert_match "doctor text: the lossy finding with its fix" "dcb pfc set dev enp1s0f0 prio-pfc 3:on" "$(cat "$T/out")"
run_rc "$FABTOP" --demo show roce --json
assert_eq "demo: its RoCE port, PFC on priority 3, DSCP 26 lands there, DCQCN on there" '["mlx5_1",[3],26,3,[3],[3]]' \
	"$(jq -c '.roce_ports[0] | [.device, .dcb.pfc_enabled, .rdma_dscp, .rdma_priority, .ecn.np_enabled, .ecn.rp_enabled]' "$T/out")"
done_testing
