#!/bin/sh
# shellcheck disable=SC2154 # rc is set by run_rc (tests/setup.sh)
# SPDX-License-Identifier: GPL-2.0-or-later
# A failed probe is explained by its own cause (doc/probe.md, "The
# timeline"): a table of failures on the demo's simulated host, each with the
# cause it must give and the findings it must and must not cite.
. "$TOP_SRCDIR/tests/setup.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed (apt-get install jq)"

# why DESC CAUSE MUST MUSTNOT ARGS...: fabtop ARGS --json fails with "cause"
# CAUSE, cites every code of MUST (space-separated, "-" none) and none of MUSTNOT.
why() {
	_d=$1 _c=$2 _must=$3 _not=$4
	shift 4
	rm -rf "$XDG_STATE_HOME/fabtop/demo"
	run_rc timeout -k 5 30 "$FABTOP" "$@" -C 1 --json
	assert_eq "$_d: fails (exit 1)" 1 "$rc"
	assert_eq "$_d: cause $_c" "$_c" "$(jq -r '.cause // "none"' "$T/out")"
	_cited=" $(jq -r '.findings_cited | join(" ")' "$T/out") "
	for _f in $_must; do
		[ "$_f" = - ] && continue
		assert_match "$_d: cites $_f" " $_f " "$_cited"
	done
	for _f in $_not; do
		[ "$_f" = - ] && continue
		if echo "$_cited" | grep -q " $_f "; then not_ok "$_d: does not cite $_f"; diag "cited:$_cited"; else ok "$_d: does not cite $_f"; fi
	done
}

# a wrong port from the first NIC: nothing listens, and nothing about the second NIC is cited
why "wrong port, from the first NIC" no-listener - "same-subnet-route strict-rp-filter arp-flux" \
	--demo probe 172.16.16.1 --from 172.16.34.1 -p 9999
assert_match "... the cause line says nothing listens there, the path is right" \
	"cause: nothing listens on port 9999 of 172\.16\.16\.1 .*this host.s path is right" "$(jq -r '.evidence[0]' "$T/out")"
assert_eq "... and only that: no finding is cited" "0" "$(jq '.findings_cited | length' "$T/out")"
# the second NIC, by address and by interface: the wrong interface, with the two-NIC host's findings
why "the second NIC by address" wrong-interface "same-subnet-route strict-rp-filter arp-flux" - \
	--demo two-nics probe 172.16.16.1 --from 172.16.34.2
assert_match "... the cause line names both interfaces" \
	"cause: the request for 172\.16\.34\.2 left by ib0, not by ib1 which holds it" "$(jq -r '.evidence[0]' "$T/out")"
assert_match "... and the three symptoms of that one cause" \
	"REJECTED error 8 .*a timeout .*UNREACHABLE -110" "$(jq -r '.evidence[1]' "$T/out")"
assert_match "... the route line in the doctor's words" \
	"route: from 172\.16\.34\.2 to 172\.16\.16\.1 leaves by ib0, not by ib1 \(table main\) -> WRONG INTERFACE" \
	"$(jq -r '.evidence[] | select(startswith("route:"))' "$T/out")"
assert_eq "... the ARP flux cited is ib1's, not ib0's (finding 2 on the source's own interface)" "1" \
	"$(jq '[.findings_cited[] | select(. == "arp-flux")] | length' "$T/out")"
why "the second NIC by interface" wrong-interface "same-subnet-route strict-rp-filter" - \
	--demo two-nics probe 172.16.16.1 --from ib1
# both at once: the path is wrong, so nothing can be said of the port yet
why "the second NIC and a wrong port" wrong-interface "same-subnet-route" - \
	--demo two-nics probe 172.16.16.1 --from ib1 -p 9999
assert_match "... the why says to fix the path first" "fix the path first, then a REJECTED 8 means nothing listens on port 9999" \
	"$(jq -r '.evidence[1]' "$T/out")"
# after the fix, the second NIC to a wrong port: nothing listens, no finding
rm -rf "$XDG_STATE_HOME/fabtop/demo"
"$FABTOP" --demo two-nics doctor --apply --yes >/dev/null 2>&1
run_rc timeout -k 5 30 "$FABTOP" --demo two-nics probe 172.16.16.1 --from ib1 -p 9999 -C 1 --json
assert_eq "fixed, the second NIC to a wrong port: nothing listens" "no-listener 0" \
	"$(jq -r '"\(.cause) \(.findings_cited | length)"' "$T/out")"
# an unreachable peer: this host's side is right, what lies past it is not known
why "an address nobody holds" unknown-past-host - "same-subnet-route strict-rp-filter arp-flux port-no-sm" \
	--demo probe 172.16.99.99 --from 172.16.34.1 --timeout-ms 300
assert_match "... it says what was checked and what is not known" \
	"not known from this host: its side is right .*what lies past it is not checked" "$(jq -r '.evidence[0]' "$T/out")"
assert_match "... and that no neighbour answered" "neighbour: no entry for 172\.16\.99\.99 on ib0" \
	"$(jq -r '.evidence[] | select(startswith("neighbour:"))' "$T/out")"
# a container: the route leaves by a netdev with no RDMA port, the GID's netdev is elsewhere
why "a container without the GID's netdev" not-rdma-netdev "gid-netdev-not-in-netns" "same-subnet-route arp-flux" \
	--demo container probe 10.20.0.2
# no subnet manager: the port is INIT
why "no subnet manager" port-not-active "port-no-sm" "same-subnet-route strict-rp-filter arp-flux" \
	--demo no-sm probe 172.16.16.1 --timeout-ms 300
assert_match "... the cause names the port and its state" "cause: mlx5_0 port 1 is INIT" "$(jq -r '.evidence[0]' "$T/out")"
# a route by a netdev that is not RDMA's: the management NIC
why "a peer behind the management NIC" not-rdma-netdev - "same-subnet-route arp-flux" \
	--demo probe 8.8.8.8
done_testing
