#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Finding 5 on GID tables as pods, containers and old kernels show them
# (tests/data/trees/pod-sparse, container-empty, container, roce-oldkernel,
# host-a): nothing usable in this namespace while the port is ACTIVE,
# usable entries only past index 0 (the index to pin), entries without a
# type; each edge from both sides (first usable index 0 and 1, the table's
# last index, ACTIVE and DOWN). No root: the trees say which netdevs are here.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

# f5 TREE: finding 5's "code:device/port" of the doctor on TREE, one line (the JSON kept in $T/j).
f5() {
	"$FABTOP" --sysfs "$1" doctor --json >"$T/j" || :
	jq -r '[.findings[] | select(.id == 5) | "\(.code):\(.device)/\(.port)"] | join(" ")' "$T/j"
}
# ev CODE: that finding's evidence and fix lines, one per line.
ev() { jq -r --arg c "$1" '.findings[] | select(.code == $c) | .evidence[], .fix[]' "$T/j"; }
tree() { cp -R "$DATA/trees/$1" "$T/$2"; chmod -R u+w "$T/$2"; }
# unuse DIR DEV INDEX: entry INDEX empty again, as the kernel shows a freed one.
unuse() {
	echo "0000:0000:0000:0000:0000:0000:0000:0000" >"$1/class/infiniband/$2/ports/1/gids/$3"
	rm -f "$1/class/infiniband/$2/ports/1/gid_attrs/types/$3" "$1/class/infiniband/$2/ports/1/gid_attrs/ndevs/$3"
}

# A pod given net1 on a shared-mode device: the host's entries 0/1 are not
# usable here, 2 is empty, 3/4 are net1's: pin 4 (RoCE v2).
assert_eq "pod: the host's netdev elsewhere, and the index to pin" \
	"gid-netdev-not-in-netns:mlx5_2/1 gid-index-pin:mlx5_2/1" "$(f5 "$DATA/trees/pod-sparse")"
run_rc "$FABTOP" --sysfs "$DATA/trees/pod-sparse" doctor
assert_rc "pod: exit 1" 1
assert_eq "pod: a warning, about net1" '["warning","net1"]' \
	"$(jq -c '[.findings[] | select(.code == "gid-index-pin") | .severity, .interface]' "$T/j")"
assert_match "pod: the title names the first usable index and the one to pin" \
	'mlx5_2 port 1 has no usable GID before index 3: pin NCCL_IB_GID_INDEX=4' \
	"$(jq -r '.findings[] | select(.code == "gid-index-pin") | .title' "$T/j")"
assert_match "pod: the evidence lists what is usable and what is before it" \
	'usable from here: 3 \(10\.56\.0\.7 RoCE v1 on net1\), 4 \(10\.56\.0\.7 RoCE v2 on net1\).*before index 3: 0 \(ens1f0, not here\), 1 \(ens1f0, not here\); the others empty' \
	"$(ev gid-index-pin | tr '\n' ' ')"
assert_match "pod: the fix pins index 4 for NCCL, UCX and perftest" \
	'^NCCL_IB_GID_INDEX=4 UCX_IB_GID_INDEX=4 \(ib_write_bw -d mlx5_2 -i 1 -x 4\)$' "$(ev gid-index-pin)"

# Index 0 usable: nothing to pin; index 0 freed, 1 the first usable: pin.
assert_eq "host-a: usable from index 0: no GID finding" "" "$(f5 "$DATA/trees/host-a")"
tree host-a a1
unuse "$T/a1" rxe0 0
assert_eq "host-a without entry 0: first usable is 1: pin" "gid-index-pin:rxe0/1" "$(f5 "$T/a1")"
assert_match "... the IPv4 RoCE v2 entry, 3" 'no usable GID before index 1: pin NCCL_IB_GID_INDEX=3' \
	"$(jq -r '.findings[] | select(.code == "gid-index-pin") | .title' "$T/j")"

# The last index of a 16-entry table: usable there alone, then not even there.
tree pod-sparse last
unuse "$T/last" mlx5_2 3
unuse "$T/last" mlx5_2 4
gid_entry "$T/last" mlx5_2 15 0000:0000:0000:0000:0000:ffff:0a38:0007 "RoCE v2" net1
assert_eq "only the last entry (15 of 16) usable: pin 15" "gid-netdev-not-in-netns:mlx5_2/1 gid-index-pin:mlx5_2/1" \
	"$(f5 "$T/last")"
assert_match "... named" 'before index 15: pin NCCL_IB_GID_INDEX=15' \
	"$(jq -r '.findings[] | select(.code == "gid-index-pin") | .title' "$T/j")"
echo ens1f0 >"$T/last/class/infiniband/mlx5_2/ports/1/gid_attrs/ndevs/15"
assert_eq "the last entry of a netdev elsewhere too: nothing usable" \
	"gid-netdev-not-in-netns:mlx5_2/1 roce-no-usable-gid:mlx5_2/1" "$(f5 "$T/last")"

# A container whose network has no RoCE netdev: every entry empty.
assert_eq "container, all entries empty: nothing usable" "roce-no-usable-gid:mlx5_1/1" \
	"$(f5 "$DATA/trees/container-empty")"
run_rc "$FABTOP" --sysfs "$DATA/trees/container-empty" doctor
assert_rc "container, all entries empty: exit 1" 1
assert_eq "... an error" '"error"' "$(jq -c '.findings[] | select(.code == "roce-no-usable-gid") | .severity' "$T/j")"
assert_match "... says what applications see" "Failed to modify QP to RTR" \
	"$(jq -r '.findings[] | select(.code == "roce-no-usable-gid") | .cause' "$T/j")"
assert_match "... the evidence counts the table" '^mlx5_1/1: 16-entry GID table, 0 in use, none of a netdev here$' \
	"$(ev roce-no-usable-gid)"
run_rc "$FABTOP" --sysfs "$DATA/trees/container-empty" show gids --for eth0
assert_rc "container, all entries empty: show gids --for eth0 exits 1" 1
tree container-empty down
echo "1: DOWN" >"$T/down/class/infiniband/mlx5_1/ports/1/state"
echo "3: Disabled" >"$T/down/class/infiniband/mlx5_1/ports/1/phys_state"
assert_eq "the same port DOWN: finding 4 says it, not 5" "" "$(f5 "$T/down")"
# Entries there, all of a netdev elsewhere (tests/data/trees/container).
assert_match "container, entries of a netdev elsewhere: nothing usable" 'roce-no-usable-gid:mlx5_1/1' \
	"$(f5 "$DATA/trees/container")"
assert_match "... each entry in the evidence" 'entry 2: 192\.168\.50\.7 RoCE v2 on enp65s0f1, not here' "$(ev roce-no-usable-gid)"

# An old kernel: entries without types (or netdevs) are kept and said so, a note.
assert_eq "old kernel: the untyped entries, a note" "gid-type-unknown:mlx4_0/1" "$(f5 "$DATA/trees/roce-oldkernel")"
assert_eq "... info, not a problem" '["info",false]' \
	"$(jq -c '[(.findings[] | select(.code == "gid-type-unknown") | .severity), ([.findings[] | select(.id == 5 and .severity != "info")] | length > 0)]' "$T/j")"
assert_match "... names them" '^mlx4_0/1: entries without a type: 0, 1, 2$' "$(ev gid-type-unknown)"
assert_eq "show gids keeps them, type null in JSON" '[[0,null],[1,null],[2,null]]' \
	"$("$FABTOP" --sysfs "$DATA/trees/roce-oldkernel" show gids --json | jq -c '[.gids[] | [.index, .type]]')"
assert_match "show gids says why the type is unknown" \
	'^note: 3 entries without a type: the kernel has no gid_attrs/types \(before Linux 4.5' \
	"$("$FABTOP" --sysfs "$DATA/trees/roce-oldkernel" show gids)"
done_testing
