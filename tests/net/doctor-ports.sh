#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Findings 4 (port states and rates) and 5 (RoCE GIDs: container case,
# default_roce_mode, an address without GID) on sysfs/configfs fixture trees;
# the address case also on the real kernel in a namespace when root.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

# port DIR DEV N STATE PHYS RATE LINK_LAYER
port() {
	p="$1/class/infiniband/$2/ports/$3"
	mkdir -p "$p"
	echo "1: CA" >"$1/class/infiniband/$2/node_type"
	echo "$4" >"$p/state"; echo "$5" >"$p/phys_state"; echo "$6" >"$p/rate"; echo "$7" >"$p/link_layer"
}
S="$T/ports"
port "$S" mlx4_0 1 "2: INIT" "5: LinkUp" "40 Gb/sec (4X QDR)" InfiniBand
port "$S" mlx4_0 2 "1: DOWN" "2: Polling" "10 Gb/sec (4X)" InfiniBand
port "$S" mlx5_0 1 "1: DOWN" "3: Disabled" "10 Gb/sec (4X)" InfiniBand
port "$S" mlx5_1 1 "4: ACTIVE" "5: LinkUp" "100 Gb/sec (4X EDR)" InfiniBand
port "$S" mlx5_1 2 "4: ACTIVE" "5: LinkUp" "25 Gb/sec (1X EDR)" InfiniBand
port "$S" mlx5_2 1 "4: ACTIVE" "5: LinkUp" "100 Gb/sec (4X EDR)" InfiniBand
codes() { "$FABTOP" --sysfs "$1" doctor --json | jq -r '[.findings[] | select(.id == '"$2"') | "\(.code):\(.device)/\(.port)"] | join(" ")'; }

run_rc "$FABTOP" --sysfs "$S" doctor
assert_eq "port problems: exit 1" 1 "$rc"
assert_eq "finding 4: no SM, polling, disabled, slow; the healthy port is not named" \
	"port-no-sm:mlx4_0/1 port-polling:mlx4_0/2 port-disabled:mlx5_0/1 port-slow:mlx5_1/2" "$(codes "$S" 4)"
assert_match "INIT with LinkUp is explained as a missing subnet manager" \
	'mlx4_0 port 1 is INIT with the link up: no subnet manager' "$(cat "$T/out")"
assert_match "the slow port's evidence names the faster one" \
	'rate 25 Gb/sec \(1X EDR\); another port of mlx5_1 runs at 100 Gb/sec' "$(cat "$T/out")"

# INIT with the link up, told apart by the evidence (tests/data/trees/ib-init):
# SM LID 0, SM LID 1, a VF whose node GUID is all zero, a VF whose GUID has
# only its last byte set (not zero: no SM, as any other port).
I="$DATA/trees/ib-init"
run_rc "$FABTOP" --sysfs "$I" doctor
assert_eq "INIT ports: exit 1" 1 "$rc"
assert_eq "finding 4: no SM, an SM that has not activated the port, a VF without GUID" \
	"port-no-sm:mlx5_0/1 port-sm-pending:mlx5_1/1 port-no-guid:mlx5_2/1 port-no-sm:mlx5_3/1" "$(codes "$I" 4)"
assert_match "SM LID 1: an SM reached the port" \
	'mlx5_1 port 1 is INIT with the link up: a subnet manager reached it but has not activated it' "$(cat "$T/out")"
assert_match "the zero node GUID is named as such" \
	'mlx5_2 port 1 is INIT with the link up and its node GUID is zero' "$(cat "$T/out")"
"$FABTOP" --sysfs "$I" doctor --json >"$T/init.json" || :
assert_json "SM LID 1: the evidence gives the LIDs and the fix asks the SM" "$T/init.json" \
	'[.findings[] | select(.code == "port-sm-pending")] | length == 1 and
	 (.[0].evidence | index("LID 7, SM LID 1") != null) and (.[0].fix | join(" ") | test("sminfo"))'
assert_json "no GUID: the evidence shows the zero GUID, the fix sets the VF's GUIDs and the SM's virtualization" "$T/init.json" \
	'[.findings[] | select(.code == "port-no-guid")] | length == 1 and
	 (.[0].evidence | index("node GUID 0000:0000:0000:0000") != null) and
	 (.[0].fix | join(" ") | test("vf N node_guid") and test("virt_enabled 2"))'
assert_json "no SM: the evidence gives SM LID 0" "$T/init.json" \
	'[.findings[] | select(.code == "port-no-sm" and .device == "mlx5_0")] | length == 1 and
	 (.[0].evidence | index("LID 0, SM LID 0") != null)'

E="$DATA/external/procfs"
assert_match "a real tree (procfs fixture): the 1X EDR link of mlx5_0 is slow" \
	'port-slow:mlx5_0/1' "$(codes "$E" 4)"

# Finding 5 without root: GIDs of a netdev that is not in this namespace,
# and default_roce_mode against the GID types present.
R="$T/roce"
rdma_fixture "$R" rxe0 gone-veth0 Ethernet 10.20.0.1
# The container as its sysfs shows it: the GIDs name a netdev its class/net lacks.
rmdir "$R/class/net/gone-veth0"
mkdir -p "$T/configfs/rdma_cm/rxe0/ports/1"
echo "IB/RoCE v1" >"$T/configfs/rdma_cm/rxe0/ports/1/default_roce_mode"
run_rc "$FABTOP" --sysfs "$R" --configfs "$T/configfs" doctor --json
assert_eq "RoCE: exit 1" 1 "$rc"
assert_eq "finding 5: the container case (no entry usable here) and the RoCE mode" \
	"gid-netdev-not-in-netns:rxe0/1 roce-mode-mismatch:rxe0/1 roce-no-usable-gid:rxe0/1" \
	"$(jq -r '[.findings[] | select(.id == 5) | "\(.code):\(.device)/\(.port)"] | join(" ")' "$T/out")"
assert_match "the container finding names the missing netdev" 'gone-veth0' \
	"$(jq -r '.findings[] | select(.code == "gid-netdev-not-in-netns") | .evidence[]' "$T/out")"
echo "RoCE v2" >"$T/configfs/rdma_cm/rxe0/ports/1/default_roce_mode"
assert_eq "default_roce_mode RoCE v2 with RoCE v2 GIDs: no mode finding" \
	"gid-netdev-not-in-netns:rxe0/1 roce-no-usable-gid:rxe0/1" \
	"$("$FABTOP" --sysfs "$R" --configfs "$T/configfs" doctor --json | jq -r '[.findings[] | select(.id == 5) | "\(.code):\(.device)/\(.port)"] | join(" ")')"

# Under --sysfs the tree says which netdevs are here, for the doctor as for
# show gids: a netdev the tree has (and this namespace has not) is no finding.
H="$T/here"
rdma_fixture "$H" rxe0 "tree-only$$" Ethernet 10.20.0.1
ip link show "tree-only$$" >/dev/null 2>&1 && not_ok "tree-only$$ must not exist here" || ok "tree-only$$ is only in the tree"
assert_eq "show gids: the tree's netdev is in the namespace" '[true,true]' \
	"$("$FABTOP" --sysfs "$H" show gids --json | jq -c '[.gids[].netdev_in_netns]')"
assert_eq "doctor: no netns finding for a netdev the tree has" "" \
	"$("$FABTOP" --sysfs "$H" doctor --json | jq -r '[.findings[] | select(.id == 5) | .code] | join(" ")')"

# An address on a RoCE netdev without a GID entry: a real address in a namespace.
if [ "$(id -u)" != 0 ] || ! ip netns add "ftp$$" 2>/dev/null; then
	skip "needs root for a network namespace"; skip "-"; skip "-"
else
	cleanup_add "ip netns del ftp$$ 2>/dev/null || true"
	ip -n "ftp$$" link add roce0 type veth peer name roce1
	ip -n "ftp$$" addr add 10.20.0.1/24 dev roce0
	ip -n "ftp$$" addr add 10.20.0.7/24 dev roce0
	ip -n "ftp$$" link set roce0 up
	G="$T/gid"
	rdma_fixture "$G" rxe0 roce0 Ethernet 10.20.0.1
	run_rc ip netns exec "ftp$$" "$FABTOP" --sysfs "$G" doctor --json
	assert_eq "an address without GID: finding 5 for 10.20.0.7 only" "roce-no-gid:roce0:10.20.0.7" \
		"$(jq -r '[.findings[] | select(.id == 5) | "\(.code):\(.interface):\(.address)"] | join(" ")' "$T/out")"
	assert_eq "exit 1" 1 "$rc"
	ip -n "ftp$$" addr del 10.20.0.7/24 dev roce0
	run_rc ip netns exec "ftp$$" "$FABTOP" --sysfs "$G" doctor
	assert_eq "every address has its GID: clean" 0 "$rc"
fi

done_testing
