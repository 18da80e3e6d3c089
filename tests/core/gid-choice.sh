#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# show gids --for over fixture trees: the index named for an address or an
# interface, VLAN-aware, and each warning (ports disagree, RoCE v1 only,
# link-local only, netdev in another namespace), text and JSON compared with
# tests/data/trees/gid-choice.expected.*; a peer's address by its route
# (the demo's model); exit codes for none and bad input.
. "$TOP_SRCDIR/tests/setup.sh"

# TREE FOR: the text and the sorted JSON of each, one after the other.
cases="roce-gids:bond0 roce-gids:10.1.0.5 roce-gids:2001:db8::5 roce-gids:eth5 roce-gids:eth6
roce:enp65s0f0 roce:10.100.0.1 roce:2001:db8::1 roce:eth1 container:192.168.50.7 ib-2port:ib0"
: >"$T/all.txt"; : >"$T/all.json"
for c in $cases; do
	tree=${c%%:*} for=${c#*:}
	run_rc "$FABTOP" --sysfs "$DATA/trees/$tree" show gids --for "$for"
	assert_eq "$tree --for $for: exit 0" 0 "$rc"
	{ echo "== $tree --for $for"; cat "$T/out"; } >>"$T/all.txt"
	"$FABTOP" --sysfs "$DATA/trees/$tree" show gids --for "$for" --json | jq -S . >>"$T/all.json"
done
assert_file_eq "text of every case" "$DATA/trees/gid-choice.expected.txt" "$T/all.txt"
assert_file_eq "JSON of every case" "$DATA/trees/gid-choice.expected.json" "$T/all.json"

j() { "$FABTOP" --sysfs "$DATA/trees/$1" show gids --for "$2" --json | jq -c "$3"; }
assert_eq "interface: the IPv4-mapped RoCE v2 entry" '3' "$(j roce enp65s0f0 '.gid_choice.index')"
assert_eq "VLAN address: the VLAN netdev's entry" '[5,"enp65s0f0.100","enp65s0f0"]' \
	"$(j roce 10.100.0.1 '.gid_choice | [.index, .ports[0].netdev, .ports[0].vlan_lower]')"
assert_eq "IPv6 address" '7' "$(j roce 2001:db8::1 '.gid_choice.index')"
assert_eq "ports disagree: no single index, both named" '[null,[3,5]]' \
	"$(j roce-gids bond0 '.gid_choice | [.index, [.ports[].index]]')"
assert_eq "RoCE v1 only is warned" '["roce_v1_only","may_move"]' "$(j roce-gids eth5 '[.gid_choice.warnings[].key]')"
assert_eq "link-local only is warned" '["link_local_only"]' "$(j roce-gids eth6 '[.gid_choice.warnings[].key]')"
assert_eq "container: netdev elsewhere is warned" '["netdev_not_in_netns","may_move"]' \
	"$(j container 192.168.50.7 '[.gid_choice.warnings[].key]')"
assert_eq "IPoIB: index 0 of the IB port" '{"device":"mlx4_0","port":1,"index":0}' \
	"$(j ib-2port ib0 '.gid_choice.infiniband_port')"

# A peer's address (the demo: its routes answered by the model, no root
# needed; tests/net/gid-route.sh asks the kernel): the route names the
# netdev, that netdev's entry of the peer's family is the answer.
dj() { "$FABTOP" --demo show gids --for "$1" --json | jq -c "$2"; }
run_rc "$FABTOP" --demo show gids --for 10.20.0.9
assert_rc "demo peer 10.20.0.9: exit 0" 0
assert_match "demo peer: the route in the text" \
	'^To reach 10\.20\.0\.9: leaves by enp65s0f0 \(route: on-link, source 10\.20\.0\.1, table main; asked of the model\)' \
	"$(cat "$T/out")"
assert_match "demo peer: the index to use" '^  NCCL_IB_GID_INDEX=3$' "$(cat "$T/out")"
assert_eq "demo peer: index 3 and the route's facts" '[3,"enp65s0f0","10.20.0.1",254,"model",false]' \
	"$(dj 10.20.0.9 '.gid_choice | [.index, .route.dev, .route.src, .route.table, .route.answered_by, .route.local]')"
assert_eq "demo peer on the VLAN's subnet: the VLAN's entry" '[7,"enp65s0f0.100","enp65s0f0"]' \
	"$(dj 10.100.0.7 '.gid_choice | [.index, .route.dev, .ports[0].vlan_lower]')"
run_rc "$FABTOP" --demo show gids --for 172.16.16.1
assert_rc "demo peer over IPoIB: exit 0" 0
assert_match "demo peer over IPoIB: index 0 of the IB port" \
	'^172\.16\.16\.1 is reached over ib0, an InfiniBand interface \(mlx5_0 port 1\)' "$(cat "$T/out")"
run_rc "$FABTOP" --demo show gids --for 8.8.8.8
assert_rc "demo peer by the default route (no RDMA netdev): exit 1" 1
assert_match "... and says by which netdev" \
	'^No RoCE GID entry for 8\.8\.8\.8: it is reached by enp49s0f1, and no RoCE port.s GID table has an IPv4 entry of enp49s0f1' \
	"$(cat "$T/out")"
assert_eq "... with the gateway in JSON" '[null,"10.208.130.254"]' "$(dj 8.8.8.8 '.gid_choice | [.index, .route.gateway]')"
run_rc "$FABTOP" --demo show gids --for 10.208.130.34
assert_rc "demo: a local address without GID: exit 1" 1
assert_eq "demo: a local address is no peer" 'true' "$(dj 10.208.130.34 '.gid_choice.route.local')"

run_rc "$FABTOP" --sysfs "$DATA/trees/roce-gids" show gids --for 10.9.9.9
assert_eq "no entry: exit 1" 1 "$rc"
assert_match "no entry: says why" "No RoCE GID entry for 10.9.9.9" "$(cat "$T/out")"
run_rc "$FABTOP" --sysfs "$DATA/trees/roce-gids" show gids --for 'a/b'
assert_eq "neither address nor name: exit 2" 2 "$rc"
assert_match "neither address nor name: says so" "neither an IPv4/IPv6 address nor an interface name" "$(cat "$T/err")"
run_rc "$FABTOP" --sysfs "$DATA/trees/roce-gids" show ports --for bond0
assert_eq "--for with another section: exit 2" 2 "$rc"
run_rc "$FABTOP" --sysfs "$DATA/trees/roce-gids" show gids --for 0123456789abcdefX
assert_eq "too long for an interface name: exit 2" 2 "$rc"
done_testing
