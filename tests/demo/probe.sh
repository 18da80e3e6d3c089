#!/bin/sh
# shellcheck disable=SC2154 # rc is set by run_rc (tests/setup.sh)
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop --demo probe: the simulated CM exchange on the demo host (doc/demo.md,
# "The simulated probe"): the second address's REJECTED with the doctor's
# evidence, a connection from the first, the failures the real stack gives,
# SIMULATED on every line and in every JSON object, numbers within the link.
. "$TOP_SRCDIR/tests/setup.sh"

# every line of a simulated run says so
all_simulated() {
	if grep -v -e '\[SIMULATED\]' -e '^fabtop probe: SIMULATED ' "$T/out" | grep -q .; then
		not_ok "$1"; diag "lines without SIMULATED:"; diag "$(grep -v 'SIMULATED' "$T/out")"
	else
		ok "$1"
	fi
}

run_rc timeout -k 5 20 "$FABTOP" --demo probe 172.16.16.1 --from 172.16.34.2 -C 3
assert_eq "from the second address (ib1): the probe fails, exit 1" 1 "$rc"
assert_match "... the device is the one the route leaves by (ib0's port 1), the source ib1's address" \
	'ADDR_RESOLVED +mlx5_0 port 1, local 172\.16\.34\.2:' "$(cat "$T/out")"
assert_match "... ROUTE_RESOLVED, then REJECTED with reason 8, as the field notes saw it" \
	'ROUTE_RESOLVED.*
.*REJECTED +reason 8 \(invalid service ID\)' "$(grep -E 'ROUTE_RESOLVED|REJECTED' "$T/out")"
assert_match "... the why: the request left by ib0, not by ib1" \
	'why: cause: the request for 172\.16\.34\.2 left by ib0, not by ib1 which holds it' "$(cat "$T/out")"
assert_match "... the route, in the doctor's words" \
	'route: from 172\.16\.34\.2 to 172\.16\.16\.1 leaves by ib0, not by ib1 \(table main\) -> WRONG INTERFACE' \
	"$(cat "$T/out")"
assert_match "... and the doctor's finding 1" 'finding 1 \(same-subnet-route\)' "$(cat "$T/out")"
all_simulated "... every line says SIMULATED"

run_rc timeout -k 5 20 "$FABTOP" --demo probe 172.16.16.1 --from ib0 -C 10
assert_eq "from the first address (ib0): the probe succeeds, exit 0" 0 "$rc"
assert_match "... ESTABLISHED from 172.16.34.1" 'ESTABLISHED +connected 172\.16\.34\.1:[0-9]+ -> 172\.16\.16\.1:7174, rping mode' \
	"$(cat "$T/out")"
assert_match "... 10 pings, payload ok" 'result: ok: 10 pings, 1280 bytes in .*payload ok' "$(cat "$T/out")"
assert_match "... round trips of an IB rping (a few tens of us)" 'round trip \(us\): min [1-9][0-9]\.[0-9]' "$(cat "$T/out")"
all_simulated "... every line says SIMULATED"

# bw over RoCE: the RoCE v2 GID of the address, a rate within the 100 Gb/s link less the demo's load
run_rc timeout -k 5 20 "$FABTOP" --demo probe 10.20.0.2 --mode bw -C 2000 --json
assert_eq "bw to the RoCE peer succeeds (--json)" 0 "$rc"
if command -v jq >/dev/null 2>&1; then
	assert_eq "... \"simulated\": true at the top" true "$(jq -r .simulated "$T/out")"
	assert_eq "... and in every event object" 0 "$(jq '[.events[] | select(.simulated != true)] | length' "$T/out")"
	assert_eq "... the events as a real probe's" "ADDR_RESOLVED ROUTE_RESOLVED ESTABLISHED DISCONNECTED" \
		"$(jq -r '[.events[].event] | join(" ")' "$T/out")"
	assert_eq "... GID index 3, RoCE v2 (default_roce_mode)" "3 RoCE v2" "$(jq -r '"\(.gid_index) \(.gid_type)"' "$T/out")"
	assert_eq "... the source describes the simulation" "demo fabric (simulated, seed 1)" "$(jq -r .simulated_by "$T/out")"
	r=$(jq -r '.avg_gbps' "$T/out")
	if awk -v r="$r" 'BEGIN { exit !(r > 5 && r < 100) }'; then
		ok "... the rate ($r Gb/s) is below the 100 Gb/s link"
	else
		not_ok "... the rate ($r Gb/s) is below the 100 Gb/s link"
	fi
	assert_eq "... 2000 writes of 64 KiB" "2000 131072000" "$(jq -r '"\(.msgs) \(.bytes)"' "$T/out")"
else
	skip "jq not installed: the JSON checks"
fi

# the iWARP NIC is a quarter of the link: its share is too
run_rc timeout -k 5 20 "$FABTOP" --demo probe 10.30.0.2 --mode bw -C 500 --json
r=$(jq -r '.avg_gbps' "$T/out" 2>/dev/null || echo 0)
if [ "$rc" = 0 ] && awk -v r="$r" 'BEGIN { exit !(r > 1 && r < 25) }'; then
	ok "bw over the 25 Gb/s iWARP port stays below 25 Gb/s ($r)"
else
	not_ok "bw over the 25 Gb/s iWARP port stays below 25 Gb/s (rc=$rc, $r)"
fi

# without -C, the mode's count (--help: rping 10, bw 1000, lat 1000); -C 0 runs until a signal ends it
run_rc timeout -k 5 20 "$FABTOP" --demo probe 172.16.16.1
assert_eq "no -C: rping's 10 pings, exit 0" "0 10 pings" "$rc $(sed -n 's/.*result: ok: \([0-9]* pings\).*/\1/p' "$T/out")"
run_rc timeout -k 5 20 "$FABTOP" --demo probe 10.20.0.2 --mode lat --json
assert_eq "no -C: lat's 1000 round trips" "1000" "$(jq -r .msgs "$T/out" 2>/dev/null)"
start=$(date +%s)
run_rc timeout -k 5 --preserve-status -s TERM 2 "$FABTOP" --demo probe 10.20.0.2 -C 0
el=$(( $(date +%s) - start ))
assert_eq "-C 0 until SIGTERM: then a clean end, exit 0" 0 "$rc"
assert_match "... closed with DISCONNECTED and a result" 'DISCONNECTED +closed after [0-9]+ pings' "$(cat "$T/out")"
if [ "$el" -le 5 ]; then ok "... within 5 s of the start (${el}s)"; else not_ok "... took ${el}s"; fi
run_rc timeout -k 5 --preserve-status -s INT 1 "$FABTOP" --demo probe 172.16.99.9 --timeout-ms 8000
assert_eq "^C while resolving: STOPPED, exit 0 at once" "0" "$rc"
assert_match "... STOPPED while resolving address" 'STOPPED +stopped while resolving address' "$(cat "$T/out")"

# the real stack's other answers
run_rc timeout -k 5 20 "$FABTOP" --demo probe 172.16.16.1 -p 7999 -C 1
assert_match "a port nobody listens on: REJECTED, reason 8" \
	'REJECTED +reason 8 \(invalid service ID\): the peer.s CM found no listener for port 7999 of 172\.16\.16\.1' "$(cat "$T/out")"
run_rc timeout -k 5 20 "$FABTOP" --demo probe 172.16.99.99 --timeout-ms 300
assert_match "an address nobody holds: TIMEOUT of address resolution" \
	'TIMEOUT +no ADDR_RESOLVED within 300 ms: no neighbour answer for 172\.16\.99\.99' "$(cat "$T/out")"
run_rc timeout -k 5 20 "$FABTOP" --demo probe 8.8.8.8
assert_match "a peer behind the management NIC's gateway: ADDR_ERROR, no RDMA device" \
	'ADDR_ERROR +status -19 \(ENODEV\).*leaves by enp49s0f1, no RDMA netdev' "$(cat "$T/out")"
run_rc timeout -k 5 20 "$FABTOP" --demo probe 172.16.16.1 --from 192.0.2.7
assert_match "a source the host does not hold: ADDR_ERROR" 'ADDR_ERROR +status -99 \(EADDRNOTAVAIL\)' "$(cat "$T/out")"
run_rc timeout -k 5 20 "$FABTOP" --demo probe --listen
assert_eq "--listen on the demo fails, exit 1" 1 "$rc"
assert_match "... saying why" 'the demo fabric is simulated: no peer can connect to it' "$(cat "$T/out")"

# nothing simulated is exported: the exporter refuses a simulated probe
run_rc timeout -k 5 20 "$FABTOP" --demo export --probe 172.16.16.1 --textfile "$T/m.prom" --no-http --count 1
assert_eq "fabtop --demo export --probe is refused (exit 2)" 2 "$rc"
assert_match "... saying the demo has no devices to probe with" 'probe needs real RDMA devices' "$(cat "$T/err")"
run_rc timeout -k 5 20 "$FABTOP" --demo export --textfile "$T/m.prom" --no-http --count 1
if [ "$rc" = 0 ] && ! grep -q '^fabtop_probe' "$T/m.prom"; then
	ok "the demo's exposition holds no probe metric"
else
	not_ok "the demo's exposition holds no probe metric (rc=$rc)"; diag "$(grep '^fabtop_probe' "$T/m.prom")"
fi
done_testing
