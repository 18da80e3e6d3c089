#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The doctor's sysctl rules at every boundary on the real kernel: the
# same-subnet host in namespaces, rp_filter (findings 3), arp_ignore and
# arp_announce alone and together (finding 2) and accept_local (finding 6)
# each set in conf.all and conf.IFACE at each value; the kernel combines
# them, the doctor reads them back and decides. The model's side of the
# same table is tests/demo/test_demo_net.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

rdma_fixture "$T/sys-mem" rxe_A ib0 InfiniBand "" datagram
rdma_fixture "$T/sys-mem" rxe_B ib1 InfiniBand "" datagram
build_seed_topology
mem() { in_ns "$NS_MEM" "$FABTOP" --sysfs "$T/sys-mem" "$@"; }
# set_all KEY ALL IFACE: net.ipv4.conf.all.KEY=ALL, and IFACE on ib0 and ib1.
set_all() {
	in_ns "$NS_MEM" sysctl -q -w "net.ipv4.conf.all.$1=$2" "net.ipv4.conf.ib0.$1=$3" "net.ipv4.conf.ib1.$1=$3"
}
# found ID [DOCTOR ARGS...]: the findings with ID, "code:interface ...", sorted.
found() {
	_id=$1; shift
	mem doctor "$@" --json >"$T/d.json" 2>"$T/d.err" || :
	if json_true "$T/d.json" '.findings | type == "array"'; then
		jq -r --argjson id "$_id" '[.findings[] | select(.id == $id) | "\(.code):\(.interface)"] | sort | join(" ")' "$T/d.json"
	else
		echo "no report: $(head -c 300 "$T/d.err")"
	fi
}

# Finding 3: strict (1) drops what arrives on the other NIC; loose (2) and
# off (0) do not. The effective value is the larger of all and IFACE.
for c in "0 0 -" "0 1 ib1" "1 0 ib1" "1 1 ib1" "0 2 -" "2 0 -" "1 2 -" "2 1 -" "2 2 -"; do
	# shellcheck disable=SC2086 # the case's words
	set -- $c
	set_all rp_filter "$1" "$2"
	want=""
	[ "$3" = - ] || want="strict-rp-filter:$3"
	assert_eq "kernel: rp_filter all=$1 iface=$2: finding 3 '$want'" "$want" "$(found 3)"
done
set_all rp_filter 0 0

# Finding 2: arp_ignore=0 or arp_announce=0 (effective: the larger of all
# and IFACE) is flux; both above 0 is none.
flux="arp-flux:ib0 arp-flux:ib1"
for c in "0 0 0 0 y" "0 1 0 2 n" "0 1 0 0 y" "0 0 0 2 y" "1 0 2 0 n" "1 0 0 0 y" "0 0 2 0 y" "0 2 0 1 n" "0 8 0 1 n"; do
	# shellcheck disable=SC2086 # the case's words
	set -- $c
	set_all arp_ignore "$1" "$2"
	set_all arp_announce "$3" "$4"
	want=""
	[ "$5" = n ] || want=$flux
	assert_eq "kernel: arp_ignore all=$1 iface=$2, arp_announce all=$3 iface=$4: finding 2 '$want'" "$want" "$(found 2)"
done

# Finding 6: a probe between two local ports needs accept_local (either of
# all and IFACE) on the receiving interface.
for c in "0 0 y" "1 0 n" "0 1 n" "1 1 n"; do
	# shellcheck disable=SC2086 # the case's words
	set -- $c
	set_all accept_local "$1" "$2"
	want=""
	[ "$3" = n ] || want="accept-local:ib1"
	assert_eq "kernel: accept_local all=$1 iface=$2, local peer: finding 6 '$want'" "$want" \
		"$(found 6 172.16.34.2 --from 172.16.34.1 | tr ' ' '\n' | grep '^accept-local' | tr '\n' ' ' | sed 's/ $//')"
done

done_testing
