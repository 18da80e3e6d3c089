#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every --fix format: valid sh (sh -n, shellcheck), run twice per interface in
# a namespace (idempotent, the kernel then routes each address by its own
# interface); netplan output is valid YAML; hostile interface names are
# quoted so that running the scripts executes nothing of theirs.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

rdma_fixture "$T/sys" rxe_A ib0 InfiniBand
rdma_fixture "$T/sys" rxe_B ib1 InfiniBand
mem() { in_ns "$NS_MEM" "$FABTOP" --sysfs "$T/sys" "$@"; }

# run_format FORMAT IF1 IF2: run the script as its dispatcher would, twice per interface.
run_format() {
	case "$1" in
	ip) in_ns "$NS_MEM" sh -e "$T/$1" && in_ns "$NS_MEM" sh -e "$T/$1" ;;
	nm-dispatcher)
		for i in "$2" "$3" "$2" "$3"; do in_ns "$NS_MEM" sh "$T/$1" "$i" up || return 1; done
		in_ns "$NS_MEM" sh "$T/$1" "$2" down ;;
	*)
		for i in "$2" "$3" "$2" "$3"; do IFACE=$i in_ns "$NS_MEM" sh "$T/$1" || return 1; done ;;
	esac
}

# check_format FORMAT IF1 IF2 ADDR1 ADDR2
check_format() {
	f=$1
	mem doctor --fix "$f" >"$T/$f" || true
	check "$f: sh -n" sh -n "$T/$f"
	if command -v shellcheck >/dev/null 2>&1; then
		check "$f: shellcheck" shellcheck -s sh "$T/$f"
	else
		skip "$f: shellcheck is not installed"
	fi
	mkdir -p "$T/cwd-$f"
	if (cd "$T/cwd-$f" && run_format "$f" "$2" "$3") >"$T/.run" 2>&1; then ok "$f: runs twice per interface"; else not_ok "$f: runs twice per interface"; diag "$(cat "$T/.run")"; fi
	assert_eq "$f: nothing else ran (no files appeared)" "" "$(ls -A "$T/cwd-$f")"
	assert_eq "$f: one rule for $5 after two runs" 1 "$(ip -n "$NS_MEM" rule show | grep -c "from $5 ")"
	# before main (32766), after local (0): at 1000, where doc/doctor.md says
	assert_eq "$f: the kernel holds the rules for $4 and $5 at priority 1000" "1000 1000" \
		"$(ip -n "$NS_MEM" rule show | sed -n "s/^\([0-9]*\):.*from \($4\|$5\) .*/\1/p" | tr '\n' ' ' | sed 's/ $//')"
	assert_eq "$f: $5 leaves by $3" "$3" "$(route_dev "$NS_MEM" 172.16.16.1 "$5")"
	assert_eq "$f: $4 leaves by $2" "$2" "$(route_dev "$NS_MEM" 172.16.16.1 "$4")"
	run_rc mem doctor
	assert_eq "$f: doctor clean afterwards" 0 "$rc"
}

for f in ip networkd-dispatcher nm-dispatcher ifupdown; do
	build_seed_topology
	check_format "$f" ib0 ib1 172.16.34.1 172.16.34.2
	ns_cleanup
done

build_seed_topology
mem doctor --fix netplan >"$T/netplan.yaml" || true
if /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
	/usr/bin/python3 -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' "$T/netplan.yaml" >"$T/netplan.json"
	assert_eq "netplan: valid YAML with a routing policy for 172.16.34.2" "172.16.34.2" \
		"$(jq -r '.network.ethernets.ib1["routing-policy"][0].from' "$T/netplan.json")"
	assert_eq "netplan: the route is in the same table as the rule" \
		"$(jq -r '.network.ethernets.ib1["routing-policy"][0].table' "$T/netplan.json")" \
		"$(jq -r '.network.ethernets.ib1.routes[0].table' "$T/netplan.json")"
	assert_eq "netplan: the route's source is the address" "172.16.34.2" \
		"$(jq -r '.network.ethernets.ib1.routes[0].from' "$T/netplan.json")"
	assert_eq "netplan: the rule at priority 1000" 1000 \
		"$(jq -r '.network.ethernets.ib1["routing-policy"][0].priority' "$T/netplan.json")"
else
	skip "netplan: python3-yaml is not installed"; skip "netplan"; skip "netplan"; skip "netplan"
fi
run_rc mem doctor --json
assert_eq "finding 1's fix adds the rule at priority 1000" "ip rule add from 172.16.34.2 table $(
	mem doctor --fix ip | sed -n 's/^ip route replace .* dev ib1 .* table \([0-9]*\)$/\1/p') priority 1000" \
	"$(jq -r '.findings[] | select(.id == 1 and .interface == "ib1") | .fix[] | select(startswith("ip rule add"))' "$T/out")"
assert_eq "tables are stable: ip and netplan name the same one for ib1" \
	"$(mem doctor --fix ip | sed -n 's/^ip route replace .* dev ib1 .* table \([0-9]*\)$/\1/p')" \
	"$(jq -r '.network.ethernets.ib1.routes[0].table' "$T/netplan.json" 2>/dev/null)"
ns_cleanup

# Hostile interface names: legal for the kernel, dangerous in a script.
H1='x$(>pwn1)'
H2="y'>pwn2'"
cleanup_add ns_cleanup
ip netns add "$NS_SW"; ip netns add "$NS_MEM"; ip netns add "$NS_CPU"
ip -n "$NS_SW" link add br0 type bridge; ip -n "$NS_SW" link set br0 up
veth_into_bridge "$NS_MEM" "$H1" "h1$$"
veth_into_bridge "$NS_MEM" "$H2" "h2$$"
veth_into_bridge "$NS_CPU" c0 "hc$$"
ip -n "$NS_MEM" link set lo up
ip -n "$NS_MEM" addr add 172.16.34.1/16 dev "$H1"
ip -n "$NS_MEM" addr add 172.16.34.2/16 dev "$H2"
ip -n "$NS_MEM" link set "$H1" up; ip -n "$NS_MEM" link set "$H2" up
ip -n "$NS_CPU" addr add 172.16.16.1/16 dev c0; ip -n "$NS_CPU" link set c0 up
rm -rf "$T/sys"
rdma_fixture "$T/sys" rxe_A "$H1" InfiniBand
rdma_fixture "$T/sys" rxe_B "$H2" InfiniBand
run_rc mem doctor --json
assert_eq "hostile names: finding 1 names the second one" "$H2" \
	"$(jq -r '.findings[] | select(.id == 1) | .interface' "$T/out")"
assert_match "hostile names: the fix in the finding is quoted" "dev 'y'\\\\''>pwn2'\\\\''' scope" \
	"$(jq -r '.findings[] | select(.id == 1) | .fix[0]' "$T/out")"
for f in ip networkd-dispatcher nm-dispatcher ifupdown; do
	check_format "$f" "$H1" "$H2" 172.16.34.1 172.16.34.2
	# Undo for the next format: rules and the per-interface tables.
	for a in 172.16.34.1 172.16.34.2; do
		while ip -n "$NS_MEM" rule del from "$a" 2>/dev/null; do :; done
	done
	for t in $(ip -n "$NS_MEM" route show table all | sed -n 's/.* table \([0-9][0-9]*\) .*/\1/p' | sort -u); do
		ip -n "$NS_MEM" route flush table "$t"
	done
	for i in "$H1" "$H2"; do
		in_ns "$NS_MEM" sysctl -q -w "net.ipv4.conf.$i.arp_ignore=0" "net.ipv4.conf.$i.arp_announce=0"
	done
done

# A name fabtop refuses to put in a script at all (non-ASCII): nothing is
# written, nothing is applied, and the report still works.
H3=$(printf 'e\303\251x')
veth_into_bridge "$NS_MEM" "$H3" "h3$$"
ip -n "$NS_MEM" addr add 172.16.34.3/16 dev "$H3"
ip -n "$NS_MEM" link set "$H3" up
rdma_fixture "$T/sys" rxe_C "$H3" InfiniBand
run_rc mem doctor --fix ip
assert_eq "a non-ASCII name: --fix refuses (exit 1)" 1 "$rc"
assert_eq "and writes nothing" "" "$(cat "$T/out")"
assert_match "and says why" 'refusing to write a fix for interface' "$(cat "$T/err")"
rules_before=$(ip -n "$NS_MEM" rule show)
# --apply reads the live host only: the RDMA netdevs are named.
run_rc in_ns "$NS_MEM" "$FABTOP" doctor --apply --yes --rdma-netdev "$H1" --rdma-netdev "$H2" --rdma-netdev "$H3"
assert_eq "--apply refuses too (exit 1)" 1 "$rc"
assert_eq "and changes nothing" "$rules_before" "$(ip -n "$NS_MEM" rule show)"
run_rc mem doctor --json
assert_eq "the report still names it (finding 1)" 1 \
	"$(jq '[.findings[] | select(.id == 1 and .address == "172.16.34.3")] | length' "$T/out")"

done_testing
