#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# doctor --apply --yes: refused without root or without --yes; when a step
# fails (a sysctl on a read-only file), every change already made is undone
# and the routing is exactly what it was.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns
command -v unshare >/dev/null 2>&1 || skip_all "unshare (util-linux) is not installed"

rdma_fixture "$T/sys" rxe_A ib0 InfiniBand
rdma_fixture "$T/sys" rxe_B ib1 InfiniBand
build_seed_topology

# A proc tree whose conf files read like the kernel's but cannot be written.
for d in all default lo ib0 ib1; do
	mkdir -p "$T/proc/sys/net/ipv4/conf/$d"
	for k in rp_filter arp_ignore arp_announce arp_filter accept_local; do
		echo 0 >"$T/proc/sys/net/ipv4/conf/$d/$k"
	done
done
snapshot() { ip -n "$NS_MEM" rule show; ip -n "$NS_MEM" route show table all; }
snapshot >"$T/before"

# Non-root: refused, nothing changed (setpriv drops to nobody when it is there).
if command -v setpriv >/dev/null 2>&1; then
	run_rc in_ns "$NS_MEM" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$FABTOP" --sysfs "$T/sys" doctor --apply --yes
	assert_eq "--apply as non-root: exit 1" 1 "$rc"
	assert_match "--apply as non-root: says it needs root" 'needs root' "$(cat "$T/err")"
else
	skip "setpriv is not installed"; skip "setpriv is not installed"
fi

run_rc unshare -m sh -c '
	mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 77
	exec ip netns exec "$2" "$3" --sysfs "$4" --proc "$1" doctor --apply --yes' sh \
	"$T/proc" "$NS_MEM" "$FABTOP" "$T/sys"
if [ "$rc" = 77 ]; then
	skip "cannot make a read-only bind mount here"; skip "-"; skip "-"; skip "-"
else
	assert_eq "a failing step: exit 1" 1 "$rc"
	assert_match "the failure is named and the state restored" 'restored' "$(cat "$T/err")"
	assert_match "routes and rules were applied before the failing sysctl" \
		'^ip rule add from 172\.16\.34\.2 table [0-9]+ priority 1000$' "$(cat "$T/out")"
	snapshot >"$T/after"
	assert_file_eq "routing is exactly as before" "$T/before" "$T/after"
fi

done_testing
