# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the net area's namespace tests: the same-subnet two-host topology (doc/doctor.md)
# (doc/doctor.md, finding 1) on veths into one bridge, sysfs fixtures naming the veths as
# RDMA netdevs, TCP traffic from a chosen source, per-interface counters.
# Sourced after tests/setup.sh; every namespace made here is removed on exit.

# need_root_netns: skip the whole file unless namespaces can be made here.
need_root_netns() {
	slow_scenario
	[ "$(id -u)" = 0 ] || skip_all "needs root to create network namespaces (CI runs as root)"
	command -v ip >/dev/null 2>&1 || skip_all "iproute2 (ip) is not installed"
	_probe="fabtop-probe-$$"
	ip netns add "$_probe" 2>/dev/null || skip_all "cannot create network namespaces here"
	ip netns del "$_probe"
}

# Namespace names are unique per run: tests may run in parallel.
NS_SW="fts$$"
NS_MEM="ftm$$"
NS_CPU="ftc$$"

ns_cleanup() {
	for _ns in "$NS_MEM" "$NS_CPU" "$NS_SW"; do
		ip netns del "$_ns" 2>/dev/null || true
	done
}

# veth_into_bridge NS IFNAME BRPORT: IFNAME in NS, its peer BRPORT on the switch's br0.
veth_into_bridge() {
	ip link add "$2" netns "$1" type veth peer name "$3" netns "$NS_SW"
	# The switch side takes any frame the hosts send (MTU 2044 or 65520 in
	# tests): a smaller MTU here drops full-size segments that are not GSO.
	ip -n "$NS_SW" link set "$3" mtu 65535 master br0 up
}

# build_seed_topology: memory server 172.16.34.{1,2}/16 on ib0/ib1,
# cpu server 172.16.16.{1,2}/16 on ibs5f0/ibs5f1, all on one bridge.
build_seed_topology() {
	cleanup_add ns_cleanup
	ip netns add "$NS_SW"
	ip netns add "$NS_MEM"
	ip netns add "$NS_CPU"
	ip -n "$NS_SW" link add br0 type bridge
	ip -n "$NS_SW" link set br0 up
	for ns in "$NS_MEM" "$NS_CPU"; do
		ip -n "$ns" link set lo up
		# Deterministic starting point: the kernel defaults, whatever the host has.
		for k in rp_filter arp_ignore arp_announce arp_filter accept_local; do
			ip netns exec "$ns" sysctl -q -w "net.ipv4.conf.all.$k=0" "net.ipv4.conf.default.$k=0"
		done
	done
	veth_into_bridge "$NS_MEM" ib0 "m0$$"
	veth_into_bridge "$NS_MEM" ib1 "m1$$"
	veth_into_bridge "$NS_CPU" ibs5f0 "c0$$"
	veth_into_bridge "$NS_CPU" ibs5f1 "c1$$"
	ip -n "$NS_MEM" addr add 172.16.34.1/16 dev ib0
	ip -n "$NS_MEM" addr add 172.16.34.2/16 dev ib1
	ip -n "$NS_CPU" addr add 172.16.16.1/16 dev ibs5f0
	ip -n "$NS_CPU" addr add 172.16.16.2/16 dev ibs5f1
	for i in ib0 ib1; do ip -n "$NS_MEM" link set "$i" mtu 2044 up; done
	for i in ibs5f0 ibs5f1; do ip -n "$NS_CPU" link set "$i" mtu 2044 up; done
	# Two main-table routes per host now, as on the same-subnet host.
	ns_settle "$NS_MEM" ib0 ib1
	ns_settle "$NS_CPU" ibs5f0 ibs5f1
}

# ns_settle NS IFACE...: wait (at most 10 s) until each IFACE has its IPv6
# link-local address past duplicate address detection. The kernel adds that
# address's local route only then, a second or so after the link comes up:
# a test comparing routing tables before and after must start after it.
ns_settle() {
	_ns=$1; shift
	_end=$(( $(date +%s) + 10 ))
	for _i in "$@"; do
		until ip -n "$_ns" -6 addr show dev "$_i" scope link 2>/dev/null | grep -q 'inet6 fe80' &&
			[ -z "$(ip -n "$_ns" -6 addr show dev "$_i" tentative 2>/dev/null)" ]; do
			[ "$(date +%s)" -lt "$_end" ] || return 0	# no IPv6 here: nothing to wait for
			sleep 0.05
		done
	done
}

# rdma_fixture DIR DEV NETDEV LINK_LAYER [IPV4] [MODE]: a sysfs tree where
# RDMA device DEV (one ACTIVE port) names NETDEV as its netdev, as rxe does
# with "parent". RoCE ports get an IPv4 RoCE v2 GID when IPV4 is given;
# MODE writes class/net/NETDEV/mode (IPoIB datagram/connected).
rdma_fixture() {
	_d="$1/class/infiniband/$2"
	mkdir -p "$_d/ports/1/gids" "$_d/ports/1/gid_attrs/ndevs" "$_d/ports/1/gid_attrs/types"
	echo "$3" >"$_d/parent"
	echo "1: CA" >"$_d/node_type"
	echo "4: ACTIVE" >"$_d/ports/1/state"
	echo "5: LinkUp" >"$_d/ports/1/phys_state"
	echo "$4" >"$_d/ports/1/link_layer"
	if [ "$4" = InfiniBand ]; then
		echo "100 Gb/sec (4X EDR)" >"$_d/ports/1/rate"
		echo "fe80:0000:0000:0000:0002:c903:0031:78f0" >"$_d/ports/1/gids/0"
		echo "IB/RoCE v1" >"$_d/ports/1/gid_attrs/types/0"
	else
		echo "10 Gb/sec (1X QDR)" >"$_d/ports/1/rate"
		echo "fe80:0000:0000:0000:5054:00ff:fe12:000a" >"$_d/ports/1/gids/0"
		echo "RoCE v2" >"$_d/ports/1/gid_attrs/types/0"
		echo "$3" >"$_d/ports/1/gid_attrs/ndevs/0"
	fi
	if [ -n "${5:-}" ]; then
		# ::ffff:a.b.c.d as sysfs prints it
		_g=$(printf '%s\n' "$5" | awk -F. '{printf "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x", $1, $2, $3, $4}')
		echo "$_g" >"$_d/ports/1/gids/1"
		echo "RoCE v2" >"$_d/ports/1/gid_attrs/types/1"
		echo "$3" >"$_d/ports/1/gid_attrs/ndevs/1"
	fi
	mkdir -p "$1/class/net/$3"
	[ -z "${6:-}" ] || echo "$6" >"$1/class/net/$3/mode"
}

# gid_table DIR DEV LEN: port 1's GID table of LEN entries, every one empty
# as the kernel shows an unused entry: all zeros, its gid_attrs/types/N and
# ndevs/N unreadable (EINVAL; absent in a tree, as in tests/data/trees).
gid_table() {
	_p="$1/class/infiniband/$2/ports/1"
	rm -rf "$_p/gids" "$_p/gid_attrs"
	mkdir -p "$_p/gids"
	_i=0
	while [ "$_i" -lt "$3" ]; do
		echo "0000:0000:0000:0000:0000:0000:0000:0000" >"$_p/gids/$_i"
		_i=$((_i + 1))
	done
}

# gid_entry DIR DEV INDEX GID [TYPE NETDEV]: entry INDEX of port 1's table;
# without TYPE no gid_attrs are written (kernels before 4.5 have none).
gid_entry() {
	_p="$1/class/infiniband/$2/ports/1"
	echo "$4" >"$_p/gids/$3"
	[ -n "${5:-}" ] || return 0
	mkdir -p "$_p/gid_attrs/types" "$_p/gid_attrs/ndevs"
	echo "$5" >"$_p/gid_attrs/types/$3"
	echo "$6" >"$_p/gid_attrs/ndevs/$3"
}

# in_ns NS CMD...: run in a namespace.
in_ns() { _n=$1; shift; ip netns exec "$_n" "$@"; }

# txb NS IFACE: transmitted bytes of an interface.
txb() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/tx_bytes"; }

# tcp_listen NS ADDR PORT: a listener that reads and discards until killed
# (bounded by timeout); waits until it accepts connections.
tcp_listen() {
	_ready="$T/listen.$3"
	ip netns exec "$1" timeout 60 python3 -c '
import socket, sys
fam = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
l = socket.socket(fam); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind((sys.argv[1], int(sys.argv[2]))); l.listen(8)
open(sys.argv[3], "w").close()
while True:
    c, _ = l.accept()
    while c.recv(65536):
        pass
    c.close()
' "$2" "$3" "$_ready" &
	_lpid=$!
	cleanup_add "kill $_lpid 2>/dev/null || true"
	_deadline=$(($(date +%s) + 10))
	while [ ! -e "$_ready" ]; do
		[ "$(date +%s)" -lt "$_deadline" ] || return 1
		sleep 0.1
	done
}

# tcp_send NS SRC DST PORT BYTES: connect from SRC, send BYTES and wait until
# the listener has read them all; 0 on success.
tcp_send() {
	ip netns exec "$1" timeout 20 python3 -c '
import socket, sys
s = socket.socket(); s.settimeout(8)
s.bind((sys.argv[1], 0)); s.connect((sys.argv[2], int(sys.argv[3])))
s.sendall(b"x" * int(sys.argv[4])); s.shutdown(socket.SHUT_WR)
# The listener closes after reading everything: then every byte has left.
while s.recv(65536):
    pass
s.close()
' "$2" "$3" "$4" "$5"
}

# route_dev NS PEER SRC: the interface `ip route get PEER from SRC` names.
route_dev() {
	ip -n "$1" route get "$2" from "$3" | sed -n 's/.* dev \([^ ]*\).*/\1/p' | head -n1
}
