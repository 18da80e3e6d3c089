#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop --demo through `show`: the simulated host is deterministic by seed and simulated time.
. "$TOP_SRCDIR/tests/setup.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

EXP="$DATA/demo"
# Only the sections the demo fills; sections other areas add are checked by their own tests.
norm() { jq -S '{devices, ports, gids}' "$1"; }
norm_samples() { jq -S -s 'map({sample, interval_s, ports})' "$1"; }
# The JSON contract lets reports add keys: compare ACTUAL cut to the keys of
# EXPECTED (values, array lengths and missing keys still show in the diff).
cut_to() {
	jq -S --slurpfile e "$1" '
		def proj($e):
			if ($e|type) == "object" and type == "object" then
				. as $a | reduce ($e|keys[]) as $k ({};
					if ($a|has($k)) then .[$k] = ($a[$k] | proj($e[$k])) else . end)
			elif ($e|type) == "array" and type == "array" then
				. as $a | [range(0; $a|length) as $i | $a[$i] | proj($e[$i])]
			else . end;
		proj($e[0])' "$2"
}

plan 16

run_rc "$FABTOP" --demo --seed 7 show all --json
assert_eq "show all --json exits 0" 0 "$rc"
if json_true "$T/out" 'type == "object"' && norm "$T/out" >"$T/all.json" 2>"$T/jq.err"; then ok "show all --json is valid JSON"; else not_ok "show all --json is valid JSON"; diag "$(cat "$T/jq.err")"; fi
cut_to "$EXP/seed7-show-all.json" "$T/all.json" >"$T/all.cut"
assert_file_eq "seed 7: show all --json matches tests/data/demo/seed7-show-all.json" \
	"$EXP/seed7-show-all.json" "$T/all.cut"
assert_eq "no warnings on stderr" "" "$(cat "$T/err")"

"$FABTOP" --demo --seed 7 show all --json >"$T/again.raw"
norm "$T/again.raw" >"$T/again.json"
assert_file_eq "a second run is identical" "$T/all.json" "$T/again.json"

"$FABTOP" --demo --seed 8 show all --json >"$T/seed8.raw"
norm "$T/seed8.raw" >"$T/seed8.json"
if cmp -s "$T/all.json" "$T/seed8.json"; then not_ok "another seed gives other numbers"; else ok "another seed gives other numbers"; fi

# What a user checks: the demo's IB pair, the RoCE GIDs, the iWARP port without PMA.
assert_eq "ib0 and ib1 on the two ports of mlx5_0" "ib0 ib1" \
	"$(jq -r '[.devices[] | select(.name=="mlx5_0") | .ports[].netdevs[]] | join(" ")' "$T/all.json")"
assert_eq "RoCE v1 and v2 GIDs of 10.100.0.1 on the VLAN" "RoCE v1,RoCE v2" \
	"$(jq -r '[.gids[] | select(.ipv4=="10.100.0.1" and .netdev=="enp65s0f0.100") | .type] | join(",")' "$T/all.json")"
assert_eq "the iWARP port has no PMA and no byte counts" "false null null" \
	"$(jq -r '.ports[] | select(.device=="cxgb4_0") | "\(.pma) \(.xmit_bytes) \(.rcv_bytes)"' "$T/all.json")"
assert_eq "its counters read N/A (no PMA)" "N/A (no PMA)" \
	"$(jq -r '[.ports[] | select(.device=="cxgb4_0") | .counters[] | select(.source=="counters") | .raw] | unique | join("|")' "$T/all.json")"

# Repeated samples: simulated time moves one interval per sample, whatever the sleep's jitter
# (up to half an interval: 0.2 s leaves a loaded CI machine 100 ms).
run_rc "$FABTOP" --demo --seed 7 show counters --interval 0.2 --count 3 --json
assert_eq "show counters --count 3 exits 0" 0 "$rc"
norm_samples "$T/out" >"$T/c3.all"
cut_to "$EXP/seed7-counters-3x0.2.json" "$T/c3.all" >"$T/c3.json"
assert_file_eq "seed 7: three samples 0.2 s apart match tests/data/demo/seed7-counters-3x0.2.json" \
	"$EXP/seed7-counters-3x0.2.json" "$T/c3.json"
assert_eq "no rate above the link rate" "0" \
	"$(jq -s '[.[].ports[] | select((.xmit_gbps // 0) > 100 or (.rcv_gbps // 0) > 100)] | length' "$T/out")"

run_rc "$FABTOP" --demo --seed 7 show counters --interval 0.1 --count 2
assert_match "text rates on the demo" '^2 +mlx5_0 +1 +[0-9.]+ Gb/s' "$(cat "$T/out")"

# The demo is simulated: show fabric says there is no subnet, and never asks this host's.
run_rc "$FABTOP" --demo show fabric
assert_eq "show fabric on the demo exits 1" 1 "$rc"
assert_match "and says why" 'demo fabric is simulated: there is no subnet' "$(cat "$T/err")"

done_testing
