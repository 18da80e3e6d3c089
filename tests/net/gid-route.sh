#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# show gids --for PEER on the real kernel: two hosts (namespaces joined by a
# veth, each with its own GID table, tests/data/trees/host-a and host-b)
# ask for each other's address; the route the kernel picks names the
# netdev, and that netdev's entry of the peer's family is the answer (an
# index that differs between the two hosts). `ip route get` is the oracle
# for the route; a peer behind a gateway, an IPv6 peer, a peer reached by a
# netdev without GIDs, one with no route, and an old kernel's untyped,
# netdev-less table.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

A="fga$$" B="fgb$$"
cleanup_add "ip netns del $A 2>/dev/null || true; ip netns del $B 2>/dev/null || true"
ip netns add "$A"
ip netns add "$B"
ip link add roce0 netns "$A" type veth peer name roce0 netns "$B"
ip -n "$A" addr add 10.77.0.1/24 dev roce0
ip -n "$B" addr add 10.77.0.2/24 dev roce0
ip -n "$A" -6 addr add 2001:db8:77::1/64 dev roce0 nodad
ip -n "$B" -6 addr add 2001:db8:77::2/64 dev roce0 nodad
# a netdev without any GID entry, and a network behind host-b
ip link add mgmt0 netns "$A" type veth peer name mgmt1 netns "$B"
ip -n "$A" addr add 192.168.99.1/24 dev mgmt0
for ns in "$A" "$B"; do
	ip -n "$ns" link set lo up
	ip -n "$ns" link set roce0 up
done
ip -n "$A" link set mgmt0 up
ip -n "$A" route add 10.88.0.0/16 via 10.77.0.2 dev roce0

# gid NS TREE PEER: show gids --for PEER on TREE in NS (text in $T/out, status in $rc).
gid() { run_rc ip netns exec "$1" "$FABTOP" --sysfs "$DATA/trees/$2" show gids --for "$3"; }
# gidj NS TREE PEER JQ: the same in JSON, filtered by JQ.
gidj() { ip netns exec "$1" "$FABTOP" --sysfs "$DATA/trees/$2" show gids --for "$3" --json | jq -c "$4"; }
oracle_dev() { ip -n "$1" route get "$2" | sed -n 's/.* dev \([^ ]*\).*/\1/p' | head -1; }

# Each host, the other's address: the same question, a different index.
assert_eq "oracle: host-a reaches 10.77.0.2 by roce0" roce0 "$(oracle_dev "$A" 10.77.0.2)"
assert_eq "host-a -> 10.77.0.2: index 3 (its IPv4 RoCE v2 entry), the route's facts in JSON" \
	'[3,"roce0","10.77.0.1",null,false,"kernel"]' \
	"$(gidj "$A" host-a 10.77.0.2 '.gid_choice | [.index, .route.dev, .route.src, .route.gateway, .route.local, .route.answered_by]')"
gid "$A" host-a 10.77.0.2
assert_rc "host-a -> 10.77.0.2: exit 0" 0
assert_match "host-a -> 10.77.0.2: the text says which route was used" \
	'^To reach 10\.77\.0\.2: leaves by roce0 \(route: on-link, source 10\.77\.0\.1, table main; asked of the kernel\)' \
	"$(cat "$T/out")"
assert_match "host-a -> 10.77.0.2: NCCL_IB_GID_INDEX=3" '  NCCL_IB_GID_INDEX=3' "$(cat "$T/out")"
assert_eq "host-b -> 10.77.0.1: index 5 (IPv6 came first there)" '[5,"roce0","10.77.0.2"]' \
	"$(gidj "$B" host-b 10.77.0.1 '.gid_choice | [.index, .route.dev, .route.src]')"
gid "$B" host-b 10.77.0.1
assert_match "host-b -> 10.77.0.1: NCCL_IB_GID_INDEX=5" '  NCCL_IB_GID_INDEX=5' "$(cat "$T/out")"

# Behind a gateway: the gateway is named, the entry is still roce0's.
assert_eq "oracle: 10.88.0.5 via 10.77.0.2 dev roce0" "roce0" "$(oracle_dev "$A" 10.88.0.5)"
assert_eq "host-a -> 10.88.0.5 (routed): index 3, via 10.77.0.2" '[3,"10.77.0.2"]' \
	"$(gidj "$A" host-a 10.88.0.5 '.gid_choice | [.index, .route.gateway]')"
gid "$A" host-a 10.88.0.5
assert_match "routed: the text names the gateway" 'leaves by roce0 \(route: via 10\.77\.0\.2, source 10\.77\.0\.1' "$(cat "$T/out")"

# IPv6: host-b has a global IPv6 entry; host-a has only fe80:: ones, named with the warning.
assert_eq "host-b -> 2001:db8:77::1: the global IPv6 RoCE v2 entry (3)" '[3,[]]' \
	"$(gidj "$B" host-b 2001:db8:77::1 '.gid_choice | [.index, [.warnings[].key | select(startswith("link_local"))]]')"
assert_eq "host-a -> 2001:db8:77::2: only fe80:: on roce0: index 1, warned link-local" '[1,["link_local"]]' \
	"$(gidj "$A" host-a 2001:db8:77::2 '.gid_choice | [.index, [.warnings[].key | select(startswith("link_local"))]]')"
gid "$A" host-a 2001:db8:77::2
assert_match "the text says it is not routed beyond one layer-2 segment" \
	'warning: this GID is IPv6 link-local \(fe80::/10\): it is not routed beyond one layer-2 segment' "$(cat "$T/out")"

# No GID for the netdev the route leaves by; no route at all: exit 1, said plainly.
gid "$A" host-a 192.168.99.2
assert_rc "by a netdev without GIDs: exit 1" 1
assert_match "by a netdev without GIDs: says which netdev" \
	'^No RoCE GID entry for 192\.168\.99\.2: it is reached by mgmt0, and no RoCE port.s GID table has an IPv4 entry of mgmt0' \
	"$(cat "$T/out")"
gid "$A" host-a 10.123.0.1
assert_rc "no route: exit 1" 1
assert_match "no route: says so, with the kernel's reason" \
	'^No RoCE GID entry for 10\.123\.0\.1: it is not one of this host.s addresses, and there is no route to it \(Network is unreachable; asked of the kernel\)' \
	"$(cat "$T/out")"
assert_eq "no route: JSON says why" '["Network is unreachable",null,null]' \
	"$(gidj "$A" host-a 10.123.0.1 '.gid_choice | [.route.error, .route.dev, .index]')"
# Our own address with no GID is not a peer: the old answer, no route asked.
gid "$A" host-a 192.168.99.1
assert_rc "a local address without GID: exit 1" 1
assert_match "a local address without GID: said as before" \
	'^No RoCE GID entry for 192\.168\.99\.1: no RoCE port.s netdev has that address' "$(cat "$T/out")"
assert_eq "a local address: route.local in JSON" 'true' "$(gidj "$A" host-a 192.168.99.1 '.gid_choice.route.local')"

# An old kernel (tests/data/trees/roce-oldkernel): entries name no netdev and
# no type; the route's source address still finds its entry, said untyped.
ip -n "$A" link add eth2 type veth peer name eth2p
ip -n "$A" addr add 10.66.0.5/24 dev eth2
ip -n "$A" link set eth2 up
ip -n "$A" link set eth2p up
assert_eq "old kernel -> 10.66.0.9: the source address's entry (1), type unknown warned" \
	'[1,"unknown","type_unknown"]' \
	"$(gidj "$A" roce-oldkernel 10.66.0.9 '.gid_choice | [.index, .ports[0].type, (.warnings[].key | select(. == "type_unknown"))]')"
done_testing
