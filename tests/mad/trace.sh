#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop trace on the ibsim simulator with opensm's forwarding tables: the
# path from every host to every other host and to every switch agrees with
# ibtracert hop for hop (nodes, ports); counters belong to the right port;
# GUIDs and descriptions resolve; unrouted LIDs and bad input say why.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
command -v ibtracert >/dev/null 2>&1 || skip_all "ibtracert not installed (Debian: infiniband-diags)"

ibsim_start "$DATA/ibsim/small-tree.net"
# The SM on a host the traces with counters do not start from: after a trace
# with counters from the SM's own host, opensm under the simulator answered
# no SA request again (ibsim hands the SM's process what that port is asked
# and ibsim does not answer itself; the GUID lookups below need the SA).
opensm_start h12
HOSTS="h11 h12 h21 h22 h31 h32"
for h in $HOSTS; do port_active "$h"; done

# Every node's LID, from fabtop's own sweep (ibtracert checks the paths themselves).
fab h11 show fabric --json >"$T/fabric.json"
lid_of() { jq -r --arg d "$1" '.fabric.nodes[] | select(.node_desc == $d) | .lid' "$T/fabric.json"; }
LIDS=$(jq -r '.fabric.nodes[] | "\(.node_desc)=\(.lid)"' "$T/fabric.json" | sed 's/ mlx5_0//; s/ /_/g')
assert_eq "11 nodes swept, every one with a LID" 11 "$(jq '[.fabric.nodes[] | select(.lid > 0)] | length' "$T/fabric.json")"

# ibtracert's hops as "OUT PORTGUID IN" lines, its From and To as "GUID PORT".
norm_ibtracert() {
	sed -n -e 's/^From [a-z]* {0x\([0-9a-f]*\)} portnum \([0-9]*\) .*/from \1 \2/p' \
	       -e 's/^\[\([0-9]*\)\] -> [a-z]* port {0x\([0-9a-f]*\)}\[\([0-9]*\)\].*/\1 \2 \3/p' \
	       -e 's/^To [a-z]* {0x\([0-9a-f]*\)} portnum \([0-9]*\) .*/to \1 \2/p'
}
# fabtop's hops the same way (a switch is "portnum 0" in ibtracert's To line).
norm_fabtop() {
	jq -r 'def g: gsub(":"; "");
	       .trace.hops as $h
	       | "from \($h[0].node_guid | g) \($h[0].out.port // 0)",
	         ($h | to_entries[1:][] | "\($h[.key - 1].out.port) \(.value.port_guid | g) \(.value.in.port)"),
	         "to \($h[-1].node_guid | g) \(if $h[-1].node_type == "Switch" then 0 else $h[-1].in.port end)"' "$1"
}

pairs=0 agree=0 bad=""
for src in $HOSTS; do
	for dst in $LIDS; do
		name=${dst%=*} lid=${dst#*=}
		[ "$name" != "$src" ] || continue
		src_lid=$(lid_of "$src mlx5_0")
		pairs=$((pairs + 1))
		sim "$src" ibtracert "$src_lid" "$lid" 2>&1 | norm_ibtracert >"$T/want"
		fab "$src" trace "$lid" --no-counters --json >"$T/trace.json" 2>"$T/err" || true
		norm_fabtop "$T/trace.json" >"$T/got" 2>>"$T/err" || true
		if [ -s "$T/want" ] && cmp -s "$T/want" "$T/got"; then
			agree=$((agree + 1))
		else
			bad="$bad $src->$name"
			[ -n "${shown:-}" ] || { diag "$src -> $name (LID $lid):" "ibtracert:" "$(cat "$T/want")" \
				"fabtop:" "$(cat "$T/got")" "$(cat "$T/err")"; shown=1; }
		fi
	done
done
assert_eq "trace agrees with ibtracert hop for hop on all $pairs host->node pairs" "$pairs" "$agree"
[ -z "$bad" ] || diag "disagree:$bad"
check "at least 50 pairs were compared ($pairs)" test "$pairs" -ge 50

# ---- the counters of each hop are its own port's ----
H32=$(lid_of "h32 mlx5_0")
ibsim_cmd 'PerformanceSet "L1"[3] PortCounters.SymbolErrorCounter=9' "SymbolErrorCounter has been set to 9"
ibsim_cmd 'PerformanceSet "L1"[4] PortCounters.SymbolErrorCounter=9' "SymbolErrorCounter has been set to 9"
ibsim_cmd 'PerformanceSet "L3"[2] PortCounters.PortXmitDiscards=4' "PortXmitDiscards has been set to 4"
run_rc fab h11 --interval 0.2 trace "$H32" --json
assert_eq "trace h11 -> h32 exits 0" 0 "$rc"
J="$T/out"
assert_eq "5 nodes, through a spine" "CA Switch Switch Switch CA" "$(jq -r '[.trace.hops[].node_type] | join(" ")' "$J")"
assert_eq "leaf 1's uplink (out of hop 1) has the symbol errors set on it" 9 \
	"$(jq -r '.trace.hops[1].out.counters.symbol_error' "$J")"
assert_eq "... and its in port (from h11) none" 0 "$(jq -r '.trace.hops[1].in.counters.symbol_error' "$J")"
assert_eq "leaf 3's port to h32 has the discards set on it" 4 \
	"$(jq -r '.trace.hops[3].out.counters.port_xmit_discards' "$J")"
assert_eq "two samples, rates known at every end" "0.2 true" \
	"$(jq -r '"\(.trace.interval_s) \([.trace.hops[] | .in, .out | select(. != null) | .xmit_bytes_per_s != null] | all)"' "$J")"

# ---- PortXmitWait: a share needs the PMA's tick; ibsim answers no PortSamplesControl ----
# (leaf 1's uplinks both: the path may leave by either spine)
assert_eq "idle ends wait a share of 0 (no tick needed for none)" "0" \
	"$(jq -r '.trace.hops[1].in.xmit_wait_share' "$J")"
(
	i=1
	while [ $i -le 40 ]; do
		echo "PerformanceSet \"L1\"[3] PortCounters.PortXmitWait=$((i * 1000000))" >&7 || exit 0
		echo "PerformanceSet \"L1\"[4] PortCounters.PortXmitWait=$((i * 1000000))" >&7 || exit 0
		i=$((i + 1)); sleep 0.1
	done
) &
WAITER=$!
cleanup_add "kill $WAITER 2>/dev/null"
run_rc fab h11 --interval 0.5 trace "$H32"
kill $WAITER 2>/dev/null || :
assert_match "text: leaf 1's uplink waits, in ticks/s, and why there is no share" \
	'out port [34] .* xmit wait [0-9]+ ticks/s \(no share: the PMA did not answer PortSamplesControl' "$(cat "$T/out")"

run_rc fab h31 trace "spine 1" --no-counters --json
assert_eq "h31 to spine 1: over leaf 3's 1X uplink, both ends 1X, the host's cable 4X" "4X 4X 1X 1X" \
	"$(jq -r '[.trace.hops[] | .in.width, .out.width | select(. != null)] | join(" ")' "$T/out")"

# ---- the text form ----
run_rc fab h11 --interval 0.1 trace "$H32"
assert_match "text: the path is complete" "^Trace from ibsim0 port 1 to LID $H32: 5 nodes, complete \\(walked in [0-9.]+ ms\\)" "$(cat "$T/out")"
assert_eq "text: every end says its errors; counters set before both samples are no deltas" "8 0" \
	"$(grep -c 'errors:' "$T/out") $(grep -c 'errors: [a-z_]* +' "$T/out")"

# ---- destinations by GUID and by description ----
GUID=$(jq -r '.fabric.nodes[] | select(.node_desc == "h32 mlx5_0") | .node_guid' "$T/fabric.json")
run_rc fab h11 trace "$GUID" --no-counters --json
assert_eq "a node GUID resolves to its LID, through the SA (a NodeRecord, no sweep)" "0 $H32 sa" \
	"$rc $(jq -r '.trace | "\(.dlid) \(.dlid_found_by)"' "$T/out")"
PG32=$(jq -r '.trace.hops[-1].port_guid' "$T/out")
run_rc fab h11 trace "$PG32" --no-counters --json
assert_eq "... its port GUID too" "0 $H32 sa" "$rc $(jq -r '.trace | "\(.dlid) \(.dlid_found_by)"' "$T/out")"
SG=$(jq -r '.fabric.nodes[] | select(.node_desc == "spine 2") | .node_guid' "$T/fabric.json")
run_rc fab h11 trace "$SG" --no-counters --json
assert_eq "... and a switch's GUID, to its port 0's LID" "0 $(lid_of "spine 2") sa Switch" \
	"$rc $(jq -r '.trace | "\(.dlid) \(.dlid_found_by) \(.hops[-1].node_type)"' "$T/out")"
run_rc fab h11 trace 0x0123456789abcdef --no-counters
assert_match "a GUID the SA does not know is looked for in a sweep, and not found" \
	"0x0123456789abcdef not found among the 11 nodes" "$(cat "$T/err")"
run_rc fab h11 trace "h32 mlx5_0" --no-counters --json
assert_eq "an exact node description resolves, by sweeping" "0 $H32 sweep" \
	"$rc $(jq -r '.trace | "\(.dlid) \(.dlid_found_by)"' "$T/out")"
run_rc fab h11 trace "spine 2" --no-counters --json
assert_eq "a switch by description: the path ends at it" "0 $(lid_of "spine 2") Switch" \
	"$rc $(jq -r .trace.dlid "$T/out") $(jq -r '.trace.hops[-1].node_type' "$T/out")"
run_rc fab h11 trace "spine" --no-counters
assert_eq "an ambiguous description exits 1" 1 "$rc"
assert_match "... and says how many nodes it names" "'spine' names 2 nodes" "$(cat "$T/err")"
run_rc fab h11 trace "nosuchnode" --no-counters
assert_match "an unknown description says it is not in the fabric" "nosuchnode not found among the 11 nodes" "$(cat "$T/err")"

# ---- LIDs no switch routes, bad input ----
run_rc fab h11 trace 999 --no-counters --json
assert_eq "an unassigned LID: exit 1, incomplete" "1 false" "$rc $(jq -r .trace.complete "$T/out")"
assert_match "... and the switch's table says why" "no route to LID 999: its forwarding table ends at LID" \
	"$(jq -r .trace.error "$T/out")"
run_rc fab h11 trace 0
assert_eq "LID 0: usage error" 2 "$rc"
run_rc fab h11 trace 49152
assert_match "a multicast LID: usage error with the range" "not a unicast LID \\(1-49151\\)" "$(cat "$T/err")"
# ---- an IPoIB peer by its IPv4 address: the port GUID from the ARP table (a --proc tree here) ----
PGUID=$(fab h11 trace "h32 mlx5_0" --no-counters --json | jq -r '.trace.hops[-1].port_guid' | tr -d ':')
HW=$(echo "$PGUID" | sed 's/\(..\)/\1:/g; s/:$//')
mkdir -p "$T/proc/net"
{
	printf 'IP address       HW type     Flags       HW address            Mask     Device\n'
	printf '10.9.0.32        0x20        0x2         80:00:00:48:fe:80:00:00:00:00:00:00:%s     *        ib0\n' "$HW"
	printf '10.9.0.33        0x20        0x0         00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00     *        ib0\n'
	printf '192.0.2.1        0x1         0x2         02:fc:00:00:00:05     *        eth0\n'
} >"$T/proc/net/arp"
run_rc fab h11 --proc "$T/proc" trace 10.9.0.32 --no-counters --json
assert_eq "an IPoIB address resolves through its port GUID ($PGUID) to h32's LID, by the SA" "0 $H32 sa" \
	"$rc $(jq -r '.trace | "\(.dlid) \(.dlid_found_by)"' "$T/out" 2>/dev/null)"
run_rc fab h11 --proc "$T/proc" trace 10.9.0.33 --no-counters
assert_match "an incomplete ARP entry: ping it first" "10.9.0.33 is not in the ARP table .*ping" "$(cat "$T/err")"
run_rc fab h11 --proc "$T/proc" trace 192.0.2.1 --no-counters
assert_match "an Ethernet neighbour: no InfiniBand path" "reached over Ethernet, not IPoIB" "$(cat "$T/err")"
run_rc fab h11 trace fe80::1
assert_match "IPv6: said plainly that it is not read yet" "IPv6 neighbours are not read yet" "$(cat "$T/err")"
run_rc fab h11 trace 5 --from nosuchca/1
assert_eq "--from a port that is not there: exit 2" 2 "$rc"
run_rc fab h11 trace 5 --from mlx5_0/x
assert_match "--from with a bad port number" "bad value 'mlx5_0/x' for --from" "$(cat "$T/err")"
run_rc fab h11 trace
assert_eq "no destination: exit 2" 2 "$rc"

# ---- no SM to ask: the SA's silence costs a timeout, then the sweep finds the GUID ----
kill "$OSM_PID" 2>/dev/null || :
wait_for 10 sh -c "! kill -0 $OSM_PID 2>/dev/null" || :
run_rc fab h11 trace "$GUID" --no-counters --json
assert_eq "with the SM gone, a node GUID is found by sweeping" "0 $H32 sweep true" \
	"$rc $(jq -r '.trace | "\(.dlid) \(.dlid_found_by) \(.complete)"' "$T/out")"

done_testing
