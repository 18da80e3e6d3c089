#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fabric sweep against bad input on a small generated fat tree under
# ibsim (no SM needed: directed routes): a fabric bigger than the memory
# bound (--fabric-mem), a node GUID used twice, cables unlinked and relinked
# while sweeps run. Each ends in a clear message, never a crash or a hang.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require

# 4 leaves x 30 hosts + 2 spines: 126 nodes, 128 links.
sh "$TOP_SRCDIR/tests/mad/gen-fattree.sh" 4 30 2 >"$T/tree.net"
ibsim_start "$T/tree.net"
# fabj ARGS...: show fabric --json from h0_0, bounded so a hang fails instead of holding the suite.
fabj() { (cd "$RUN" && SIM_HOST=h0_0 timeout -k 2 60 env LD_PRELOAD="$FAB_PRELOAD" "$FABTOP" "$@" show fabric --json); }
fabt() { (cd "$RUN" && SIM_HOST=h0_0 timeout -k 2 60 env LD_PRELOAD="$FAB_PRELOAD" "$FABTOP" "$@" show fabric); }
S() { jq -r ".fabric.sweep$1" "$T/out"; }

run_rc fabj
assert_eq "the whole tree: exit 0, 126 nodes, not stopped" "0 126 false" "$rc $(jq '.fabric.nodes | length' "$T/out") $(S .truncated_memory)"
cp "$T/out" "$T/whole.json"
per=$(S .memory_per_1000_nodes_bytes)
check "the memory per 1,000 nodes is reported ($per bytes)" test "$per" -gt 100000
assert_eq "... the budget is the default 1024 MiB" 1073741824 "$(S .memory_budget_bytes)"

# ---- past the memory bound ----
run_rc fabj --fabric-mem 1
n=$(jq '.fabric.nodes | length' "$T/out")
assert_eq "--fabric-mem 1: exit 0, stopped at the bound" "0 true" "$rc $(S .truncated_memory)"
check "... part of the tree ($n of 126 nodes)" test "$n" -gt 1 -a "$n" -lt 126
check "... within 1 MiB ($(S .memory_bytes) bytes)" test "$(S .memory_bytes)" -le 1048576
run_rc fabt --fabric-mem 1
assert_match "... the text says so, and how to raise it" \
	'STOPPED at the memory bound: the subnet has more nodes than 1 MiB of tables hold \(--fabric-mem MB raises it\)' \
	"$(cat "$T/out")"
# The live core past the bound: the exporter keeps sampling and says once what it left out.
sysfs_hold h0_0
(cd "$RUN" && SIM_HOST=h0_0 timeout -k 2 60 env LD_PRELOAD="$FAB_PRELOAD" "$FABTOP" --sysfs "$HOLD_SYS" --fabric-mem 1 \
	export --fabric --fabric-interval 0.3 --interval 0.3 --count 8 --no-http --textfile "$T/x.prom") \
	>"$T/x.out" 2>"$T/x.err" && rc=0 || rc=$?
assert_eq "export --fabric past the bound: 8 samples, exit 0 (no stall)" 0 "$rc"
assert_eq "... the subnet is up, part of it" "fabtop_fabric_up 1 yes" \
	"$(grep '^fabtop_fabric_up ' "$T/x.prom") $(awk '/^fabtop_fabric_nodes\{/ { n += $2 } END { print (n > 1 && n < 126) ? "yes" : n }' "$T/x.prom")"
assert_eq "... and stderr says why, once" 1 \
	"$(grep -c 'fabtop export: the fabric: the subnet has more nodes than 1 MiB of tables hold (--fabric-mem): [0-9]* nodes shown' "$T/x.err")"
run_rc "$FABTOP" --fabric-mem 0 show fabric
assert_eq "--fabric-mem 0: a usage error" 2 "$rc"
assert_match "... that says what it wants" "--fabric-mem wants MiB from 1 to 1048576, not '0'" "$(cat "$T/err")"

# ---- a node GUID used twice: h3_29 takes h0_5's ----
g5=$(jq -r '.fabric.nodes[] | select(.node_desc == "h0_5") | .node_guid' "$T/whole.json" | tr -d :)
ibsim_cmd "Guid \"h3_29\" 0x$g5" "sim>"
run_rc fabj
assert_eq "a duplicate GUID: exit 0, one contradicting answer, named" "0 1 $(jq -r '.fabric.nodes[] | select(.node_desc == "h0_5") | .node_guid' "$T/whole.json")" \
	"$rc $(S .guid_conflicts) $(S .guid_conflict)"
assert_eq "... h0_5 is still found once, at its own leaf" 'leaf0 1' \
	"$(jq -r --arg g "$(S .guid_conflict)" '[.fabric.nodes[] | select(.node_guid == $g)] | "\(.[0].node_desc == "h0_5" | if . then "leaf0" else "?" end) \(length)"' "$T/out")"
assert_eq "... the rest is whole: 125 nodes" 125 "$(jq '.fabric.nodes | length' "$T/out")"
run_rc fabt
assert_match "... the text explains it" \
	"1 answer contradicts the sweep \\(node GUID [0-9a-f:]* first\\): a GUID used by more than one node, or the fabric changed" \
	"$(cat "$T/out")"
ibsim_cmd "Guid \"h3_29\" 0x$(jq -r '.fabric.nodes[] | select(.node_desc == "h3_29") | .node_guid' "$T/whole.json" | tr -d :)" "sim>"

# ---- the fabric changing under sweeps: spine cables unlinked and relinked ----
i=0
while [ $i -lt 8 ]; do
	fabj >"$T/chg$i.json" 2>"$T/chg$i.err" &
	p=$!
	echo 'Unlink "leaf1"[31]' >&7
	echo 'Unlink "leaf2"[32]' >&7
	echo 'ReLink "leaf1"[31]' >&7
	echo 'ReLink "leaf2"[32]' >&7
	wait $p && echo "$i 0" >>"$T/chg.rc" || echo "$i $?" >>"$T/chg.rc"
	i=$((i + 1))
done
assert_eq "eight sweeps while cables come and go: every one exits 0 (no crash, no hang)" \
	"0 0 0 0 0 0 0 0" "$(awk '{ print $2 }' "$T/chg.rc" | tr '\n' ' ' | sed 's/ $//')"
bad=""
for f in "$T"/chg*.json; do jq -e '.fabric.nodes | length > 0' "$f" >/dev/null 2>&1 || bad="$bad $f"; done
assert_eq "... and each is one JSON document with nodes" "" "$bad"
ibsim_cmd 'ReLink "leaf1"[31]' "sim>"
ibsim_cmd 'ReLink "leaf2"[32]' "sim>"
run_rc fabj
assert_eq "relinked: the whole tree again, nothing contradicts" "126 128 0" \
	"$(jq '.fabric.nodes | length' "$T/out") $(jq '.fabric.links | length' "$T/out") $(S .guid_conflicts)"
done_testing
