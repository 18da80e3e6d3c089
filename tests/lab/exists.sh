#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop lab up never removes what it did not create: with one of its
# objects already there (a veth fl-a, the rule `pref 0 l3mdev`, the netns
# fl-switch) or a route into 172.16.0.0/16, it refuses before making
# anything, naming each, and leaves them be. Its state directory must be
# root's alone, and one up or down runs at a time (doc/lab.md). Runs in
# private network and mount namespaces (unshare), with the real ip(8);
# modprobe and rdma are stand-ins, since this host has no rdma_rxe: the
# refusals come before any RDMA step.
. "$TOP_SRCDIR/tests/setup.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root for network namespaces (uid $(id -u))"
command -v unshare >/dev/null || skip_all "unshare (util-linux) is not installed"
command -v ip >/dev/null || skip_all "ip (iproute2) is not installed"
if [ -z "${FABTOP_LAB_INNER:-}" ]; then
	unshare -n -m --propagation private true 2>/dev/null || skip_all "cannot unshare network and mount namespaces"
	# the same test inside: what it makes stays in namespaces that end with it
	FABTOP_LAB_INNER=1 exec unshare -n -m --propagation private sh "$0" "$@"
fi
mkdir -p /run/netns
mount -t tmpfs -o mode=0755 fabtop-lab-test /run/netns
ip link set lo up

mkdir -p "$T/bin"
printf '#!/bin/sh\necho "modprobe $*" >> "%s/calls"\nexit 0\n' "$T" > "$T/bin/modprobe"
printf '#!/bin/sh\necho "rdma $*" >> "%s/calls"\nexit 0\n' "$T" > "$T/bin/rdma"
chmod +x "$T/bin/"*
mkdir -m 0700 "$T/run"
export FABTOP_LAB_STATE="$T/run/lab.state"
lab() { PATH="$T/bin:$PATH" run_rc "$FABTOP" lab "$@"; }

# refused_with DESC LINE...: up exits 1 before any step (no modprobe, no state file) and lists each LINE
refused_with() {
	_d=$1; shift
	rm -f "$T/calls"
	lab up
	assert_rc "$_d: exit 1" 1
	for _l in "$@"; do
		assert_match "$_d: names '$_l'" "^  $_l\$" "$(cat "$T/err")"
	done
	assert_match "$_d: says nothing was done" '^fabtop lab: nothing done' "$(cat "$T/err")"
	assert_eq "$_d: nothing run (no modprobe)" "" "$(cat "$T/calls" 2>/dev/null)"
	check "$_d: no state file" test ! -e "$FABTOP_LAB_STATE"
}

# a veth fl-a with its peer, made by someone else
ip link add fl-a type veth peer name not-lab
refused_with "a veth fl-a" "link fl-a"
check "the veth fl-a is still there" ip link show fl-a
check "and its peer" ip link show not-lab
ip link del fl-a

# the rule pref 0 l3mdev
if ip rule add pref 0 l3mdev 2>/dev/null; then
	refused_with "a rule pref 0 l3mdev" "rule pref 0 l3mdev"
	assert_match "the rule is still there" 'l3mdev' "$(ip rule list pref 0)"
	ip rule del pref 0 l3mdev
else
	skip "this kernel has no l3mdev rules"
fi

# the namespace fl-switch
ip netns add fl-switch
refused_with "a netns fl-switch" "netns fl-switch"
check "the netns is still there" test -e /run/netns/fl-switch
ip netns del fl-switch

# routes: one that covers the subnet, its edges, and the lab's tables
ip link add t0 type veth peer name t1
ip addr add 10.9.0.1/24 dev t0
ip link set t0 up
ip link set t1 up
ip route add 172.16.0.0/12 via 10.9.0.2
refused_with "a route 172.16.0.0/12 via a gateway" "route 172.16.0.0/12 via 10.9.0.2 dev t0.*"
check "the route is still there" ip route show 172.16.0.0/12
ip route del 172.16.0.0/12
ip route add 172.16.255.0/24 dev t0 table 100
refused_with "a route inside the subnet, in another table" "route 172.16.255.0/24 dev t0 table 100.*"
ip route del 172.16.255.0/24 dev t0 table 100
ip route add 10.99.0.0/16 dev t0 table 4791
refused_with "a route in the lab's table 4791" "route 10.99.0.0/16 dev t0 table 4791.*"
ip route del 10.99.0.0/16 dev t0 table 4791
# just outside: 172.17.0.0/16 and 172.15.255.0/24 touch no address of it, nor does the default route
ip route add 172.17.0.0/16 via 10.9.0.2
ip route add 172.15.255.0/24 via 10.9.0.2
ip route add default via 10.9.0.2

# several at once: all named; what is outside the subnet is not
ip link add fl-peer type veth peer name not-lab2
ip netns add fl-switch
refused_with "a link and a netns" "link fl-peer" "netns fl-switch"
assert_eq "routes next to the subnet and the default route are not named" "" \
	"$(grep '^  route' "$T/err" || :)"
ip link del fl-peer
ip netns del fl-switch

# nothing in the way: up goes on to the RDMA step (the stand-in modprobe) and fails at the first object
# the kernel lacks here, removing only what it made
rm -f "$T/calls"
lab up
assert_match "nothing in the way: up goes past the checks" '^modprobe rdma_rxe' "$(cat "$T/calls" 2>/dev/null)"
check "and the routes next to the subnet are still there" ip route show 172.17.0.0/16
lab down
ip link del t0

# the state directory: another owner, or writable by others, is refused by up and down
chmod 0777 "$T/run"
rm -f "$T/calls"
lab up
assert_rc "a world-writable state directory: up exits 1" 1
assert_match "it says why" 'is not a directory owned by root that only root can write \(owner uid 0, mode 0777\)' \
	"$(cat "$T/err")"
assert_eq "nothing run" "" "$(cat "$T/calls" 2>/dev/null)"
printf '# fabtop lab state 1\nlink fl-b\n' > "$FABTOP_LAB_STATE"
ip link add fl-b type veth peer name not-lab3
lab down
assert_rc "a planted state file in it: down exits 1" 1
check "and removes nothing" ip link show fl-b
chmod 0720 "$T/run"
lab down
assert_rc "group-writable: down exits 1" 1
chmod 0700 "$T/run"
chown 65534 "$T/run"
lab down
assert_rc "owned by uid 65534: down exits 1" 1
check "and removes nothing" ip link show fl-b
chown 0 "$T/run"
rm -f "$FABTOP_LAB_STATE"
ip link del fl-b

# one up or down at a time
if command -v flock >/dev/null; then
	flock "$(dirname "$FABTOP_LAB_STATE")" sleep 30 &
	fl=$!
	cleanup_add "kill $fl 2>/dev/null"
	_i=0
	# until the background flock holds it
	while flock -n "$(dirname "$FABTOP_LAB_STATE")" true 2>/dev/null && [ $_i -lt 50 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
	printf '# fabtop lab state 1\nlink fl-b\n' > "$FABTOP_LAB_STATE"
	rm -f "$T/calls"
	lab down
	assert_rc "down while another holds the lock: exit 1" 1
	assert_match "it says so" 'another `fabtop lab up` or `down` is running' "$(cat "$T/err")"
	rm -f "$FABTOP_LAB_STATE"
	lab up
	assert_rc "up while another holds the lock: exit 1" 1
	assert_eq "nothing run" "" "$(cat "$T/calls" 2>/dev/null)"
	kill "$fl"
	wait "$fl" 2>/dev/null || :
else
	skip "flock (util-linux) is not installed"
fi
done_testing
