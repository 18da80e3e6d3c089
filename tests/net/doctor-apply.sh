#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# doctor --apply --yes: refused without root, without --yes, and with a tree
# (--sysfs/--proc/--configfs) for the state it changes; when a step fails (a
# sysctl made read-only), every change already made is undone and the routing
# is exactly what it was.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/net/nslib.sh"
need_root_netns
command -v unshare >/dev/null 2>&1 || skip_all "unshare (util-linux) is not installed"

build_seed_topology
# The live host's own state: the RDMA netdevs are named (no RDMA device here).
RDMA="--rdma-netdev ib0 --rdma-netdev ib1"
snapshot() { ip -n "$NS_MEM" rule show; ip -n "$NS_MEM" route show table all; }
snapshot >"$T/before"

# Non-root: refused, nothing changed (setpriv drops to nobody when it is there).
if command -v setpriv >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	run_rc in_ns "$NS_MEM" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$FABTOP" doctor --apply --yes $RDMA
	assert_eq "--apply as non-root: exit 1" 1 "$rc"
	assert_match "--apply as non-root: says it needs root" 'needs root' "$(cat "$T/err")"
else
	not_ok "setpriv is not installed (util-linux)"; not_ok "-"
fi

# A tree for the state it would change: refused before anything is read.
mkdir -p "$T/tree"
for opt in --sysfs --proc --configfs; do
	# shellcheck disable=SC2086
	run_rc in_ns "$NS_MEM" "$FABTOP" "$opt" "$T/tree" doctor --apply --yes $RDMA
	assert_eq "--apply with $opt: a usage error" 2 "$rc"
done
assert_match "... saying nothing was changed" 'not with --sysfs, --proc or --configfs; nothing was changed' "$(cat "$T/err")"
snapshot >"$T/after"
assert_file_eq "refused: routing untouched" "$T/before" "$T/after"

# ib0's arp_ignore made read-only in a private mount namespace: the routes and
# rules go in, the first sysctl fails, and everything is taken back.
run_rc in_ns "$NS_MEM" unshare -m sh -c '
	f=/proc/sys/net/ipv4/conf/ib0/arp_ignore
	mount --bind "$f" "$f" && mount -o remount,bind,ro "$f" "$f" || exit 77
	exec "$@"' sh "$FABTOP" doctor --apply --yes --rdma-netdev ib0 --rdma-netdev ib1
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

# An earlier attempt left table 3000 with a route by the wrong NIC, metric
# 100 and mtu 1400, and the rule to it: the fix replaces ib1's route there
# (metric 0, beside the other), a later step fails, and the rollback must
# leave table 3000 exactly as it was: no route added beside, mtu kept.
ip -n "$NS_MEM" rule add from 172.16.34.2 table 3000 priority 1000
ip -n "$NS_MEM" route add 172.16.0.0/16 dev ib0 table 3000 metric 100 mtu 1400
snapshot >"$T/before"
run_rc in_ns "$NS_MEM" unshare -m sh -c '
	f=/proc/sys/net/ipv4/conf/ib0/arp_ignore
	mount --bind "$f" "$f" && mount -o remount,bind,ro "$f" "$f" || exit 77
	exec "$@"' sh "$FABTOP" doctor --apply --yes --rdma-netdev ib0 --rdma-netdev ib1
if [ "$rc" = 77 ]; then
	skip "cannot make a read-only bind mount here"; skip "-"; skip "-"
else
	assert_match "the fix went into table 3000, beside the metric 100 route" \
		'^ip route replace 172\.16\.0\.0/16 dev ib1 src 172\.16\.34\.2 table 3000$' "$(cat "$T/out")"
	assert_eq "a failing step: exit 1" 1 "$rc"
	snapshot >"$T/after"
	assert_file_eq "table 3000 exactly as before: one route, metric 100, mtu 1400" "$T/before" "$T/after"
fi

# ^C in the middle of an apply (strace delivers SIGINT at the 8th sendto,
# past the 5 dumps, inside the route steps): rolled back, said so, exit 1.
ip -n "$NS_MEM" rule del from 172.16.34.2 table 3000 priority 1000
ip -n "$NS_MEM" route flush table 3000
snapshot >"$T/before"
run_rc in_ns "$NS_MEM" strace -f -o /dev/null -e trace=sendto -e inject=sendto:signal=SIGINT:when=8 \
	"$FABTOP" doctor --apply --yes --rdma-netdev ib0 --rdma-netdev ib1
assert_eq "interrupted apply: exit 1" 1 "$rc"
assert_match "interrupted apply: says so, and that it restored" 'was interrupted \(signal\); the previous state was restored' \
	"$(cat "$T/err")"
assert_match "interrupted apply: at least one step was undone" '^# undone ' "$(cat "$T/out")"
snapshot >"$T/after"
assert_file_eq "interrupted apply: routing exactly as before" "$T/before" "$T/after"

done_testing
