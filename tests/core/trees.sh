#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# show all (text and JSON) over fixture trees, compared with the expected
# output kept beside each tree; stderr (warnings) is compared too.
. "$TOP_SRCDIR/tests/setup.sh"

compare_tree() { # NAME SYSFS_DIR EXPECTED_PREFIX
	name=$1 dir=$2 exp=$3
	run_rc "$FABTOP" show all --sysfs "$dir"
	assert_eq "$name: show all exits 0" 0 "$rc"
	assert_file_eq "$name: text report" "$exp.expected.txt" "$T/out"
	assert_file_eq "$name: warnings" "$exp.expected.err" "$T/err"
	run_rc "$FABTOP" show all --json --sysfs "$dir"
	if json_true "$T/out" 'type == "object"' && jq -S . "$T/out" >"$T/out.json" 2>"$T/jq.err"; then
		ok "$name: JSON parses"
	else
		not_ok "$name: JSON parses"; diag "$(cat "$T/jq.err")"
	fi
	assert_file_eq "$name: JSON report" "$exp.expected.json" "$T/out.json"
}

for t in ib-2port ib-init roce iwarp switch container; do
	compare_tree "$t" "$DATA/trees/$t" "$DATA/trees/$t"
done

# Facts a user checks, spelled out (the expected files hold the rest).
j() { "$FABTOP" show "$1" --json --sysfs "$DATA/trees/$2" | jq -c "$3"; }
assert_eq "IB port 1 is ACTIVE with LID 2, SM LID 1" '["ACTIVE",2,1]' "$(j ports ib-2port '.devices[0].ports[0] | [.state,.lid,.sm_lid]')"
assert_eq "IB port 2 is INIT with LinkUp" '["INIT","LinkUp"]' "$(j ports ib-2port '.devices[0].ports[1] | [.state,.phys_state]')"
assert_eq "INIT ports: SM LIDs 0 and 1 read as numbers" '[0,1]' "$(j ports ib-init '[.devices[0:2][].ports[0].sm_lid]')"
assert_eq "a VF's all-zero node GUID is read, not taken for missing" '"0000:0000:0000:0000"' "$(j ports ib-init '.devices[] | select(.name=="mlx5_2") | .node_guid')"
assert_eq "IPoIB netdevs map to their ports" '[["ib0"],["ib1"]]' "$(j ports ib-2port '[.devices[0].ports[].netdevs]')"
assert_eq "rate_gbps is a number" '56' "$(j ports ib-2port '.devices[0].ports[0].rate_gbps')"
assert_eq "64-bit data counters: bytes are words x 4" '[12000000000,18000000000]' "$(j counters ib-2port '.ports[0] | [.xmit_bytes,.rcv_bytes]')"
assert_eq "32-bit port_xmit_wait at all-ones is saturated" '{"value":4294967295,"bits":32,"saturated":true}' \
	"$(j counters ib-2port '.ports[0].counters[] | select(.name=="port_xmit_wait") | {value,bits,saturated}')"
assert_eq "RoCE GID types alternate v1/v2" '["RoCE v1","RoCE v2","RoCE v1","RoCE v2"]' "$(j gids roce '[.gids[0:4][].type]')"
assert_eq "IPv4-mapped GID decodes" '"10.20.0.1"' "$(j gids roce '.gids[] | select(.index==3 and .device=="mlx5_0") | .ipv4')"
assert_eq "VLAN netdev of a GID" '"enp65s0f0.100"' "$(j gids roce '.gids[] | select(.index==5 and .device=="mlx5_0") | .netdev')"
assert_eq "IPv6 GID has no ipv4" 'null' "$(j gids roce '.gids[] | select(.index==7 and .device=="mlx5_0") | .ipv4')"
assert_eq "empty GID entries are left out" '12' "$(j gids roce '.gids | length')"
assert_eq "rxe netdev from its parent file" '["eth1"]' "$(j ports roce '.devices[] | select(.name=="rxe0") | .ports[0].netdevs')"
assert_eq "rxe has no PMA, bytes unknown" '[false,null]' "$(j counters roce '.ports[] | select(.device=="rxe0") | [.pma,.xmit_bytes]')"
assert_eq "hw_counters lifespan is not a counter" '[]' "$(j counters roce '[.ports[].counters[] | select(.name=="lifespan")]')"
assert_eq "iWARP without PMA" '[false,null,null]' "$(j counters iwarp '.ports[0] | [.pma,.xmit_bytes,.rcv_bytes]')"
assert_eq "iWARP node type" '"RNIC"' "$(j ports iwarp '.devices[0].node_type')"
assert_eq "switch: only port 0, no link_layer" '[0,null]' "$(j ports switch '.devices[0].ports[0] | [.port,.link_layer]')"
assert_eq "switch: values without newlines parse" '[5,1]' "$(j ports switch '.devices[0].ports[0] | [.lid,.sm_lid]')"
assert_eq "switch: 16-bit error counter saturated" 'true' "$(j counters switch '.ports[0].counters[] | select(.name=="port_rcv_errors") | .saturated')"
assert_eq "container: GID netdev not in this netns" '[false,false,false]' "$(j gids container '[.gids[].netdev_in_netns]')"

# Real trees written by other projects (tests/data/external/README).
for s in node_exporter procfs; do
	compare_tree "external/$s" "$DATA/external/$s" "$DATA/external/$s"
done
e="$DATA/external"
assert_eq "1X EDR link still counts data x 4" '11523046035392' \
	"$("$FABTOP" show counters --json --sysfs "$e/procfs" 2>/dev/null | jq '.ports[] | select(.device=="mlx5_0") | .xmit_bytes')"
assert_eq "i40iw: N/A (no PMA) is null, not 0" '[false,null,"N/A (no PMA)"]' \
	"$("$FABTOP" show counters --json --sysfs "$e/node_exporter" | jq -c '.ports[] | select(.device=="i40iw0") | [.pma, .counters[0].value, .counters[0].raw]')"
assert_eq "mlx4 port_xmit_wait latched at 2^32-1 flagged" 'true' \
	"$("$FABTOP" show counters --json --sysfs "$e/node_exporter" | jq '.ports[] | select(.device=="mlx4_0" and .port==1) | .counters[] | select(.name=="port_xmit_wait") | .saturated')"

# Rates between samples: the tree changes under a running `show counters --count`.
cp -r "$DATA/trees/ib-2port" "$T/live"
chmod -R u+w "$T/live"	# distcheck's source tree is read-only
# through class/: make dist copies the symlink into devices/ as a directory
f="$T/live/class/infiniband/mlx4_0/ports/1/counters"
( exec "$FABTOP" show counters --json --interval 1 --count 2 --sysfs "$T/live" >"$T/rates" 2>&1 ) &
pid=$!
# Change the counters only once fabtop holds them open (its first sample is taken).
n=0
until ls -l "/proc/$pid/fd" 2>/dev/null | grep -q 'counters/port_xmit_data$'; do
	n=$((n + 1))
	[ $n -lt 200 ] || break
	sleep 0.05
done
printf '3125000000\n' >"$f/port_xmit_data"	# +125M words = +500 MB
printf '4\n' >"$f/symbol_error"
wait $pid
moved=$(jq -s -c '[.[] | .ports[0] | select(.xmit_gbps > 0)] | length' "$T/rates")
assert_eq "rates: exactly one interval sees the traffic" 1 "$moved"
gb=$(jq -s -c '[.[] | .ports[0].xmit_gbps] | add' "$T/rates")
# 500 MB over one interval of ~1 s: 4 Gb/s give or take the scheduling of a loaded machine
if awk -v g="$gb" 'BEGIN { exit !(g > 2 && g <= 4.01) }'; then ok "rates: 500 MB in ~1 s is ~4 Gb/s ($gb)"; else not_ok "rates: 500 MB in ~1 s is ~4 Gb/s ($gb)"; fi
d=$(jq -s -c '[.[] | .ports[0].counters[] | select(.name=="symbol_error") | .delta] | add' "$T/rates")
assert_eq "rates: the error counter's deltas add up to its change" 1 "$d"
r3=$(sed -n 1p "$T/rates" | jq -c '.ports[0].counters[] | select(.name=="port_xmit_wait") | .delta')
assert_eq "rates: saturated counter has no delta" 'null' "$r3"

run_rc "$FABTOP" show bogus
assert_eq "unknown section exits 2" 2 "$rc"
run_rc "$FABTOP" frobnicate
assert_eq "unknown command exits 2" 2 "$rc"
assert_match "unknown command says so" "unknown command 'frobnicate'" "$(cat "$T/err")"
run_rc "$FABTOP" show ports --sysfs "$T/nonexistent"
assert_eq "a --sysfs root that does not exist is a runtime failure" 1 "$rc"
assert_match "... said as such, not as a host without RDMA" "^fabtop: --sysfs $T/nonexistent: the path does not exist$" "$(cat "$T/err")"
mkdir -p "$T/bare/class"
run_rc "$FABTOP" show ports --sysfs "$T/bare"
assert_eq "a sysfs root without class/infiniband is not a crash" 0 "$rc"
assert_match "... explained" "no RDMA devices" "$(cat "$T/err")"
run_rc "$FABTOP" --version
assert_match "--version" '^fabtop [0-9]' "$(cat "$T/out")"
run_rc "$FABTOP" --help
assert_match "--help lists show" 'fabtop show' "$(cat "$T/out")"
run_rc "$FABTOP" --interval 0 show
assert_eq "bad interval is a usage error" 2 "$rc"
done_testing
