#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot a "server" and a "client" VM, two NICs each, wired by qemu dgram unix
# sockets (no host network): server eth0 <-> client eth0, server eth1 <->
# client eth1. A client that bridges eth0+eth1 becomes the L2 switch, so both
# server NICs share one Ethernet segment with it (the same-subnet two-NIC host).
# Both scripts get a directory both VMs share read-write (for barriers, see
# guest/lib.inc), then ARGS.
# usage: two-vm.sh [-t TIMEOUT] SERVER_SCRIPT CLIENT_SCRIPT [ARGS...]
# Prints both outputs, server first; exit: server_rc*16 + client_rc.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TMO=600
[ "${1:-}" = -t ] && { TMO=$2; shift 2; }
SRV=$1 CLI=$2
shift 2
R=${RUN_BASE:-${FABTOP_VM_DIR:-/var/tmp/fabtop-vm}/runs/pair.$$}
N=$R/net S=$R/sync
rm -rf "$R"; mkdir -p "$N" "$S"
cp "$(dirname "$SRV")"/*.inc "$S"/ 2>/dev/null
nic() { # id local remote mac
	echo "-netdev dgram,id=$1,local.type=unix,local.path=$N/$2,remote.type=unix,remote.path=$N/$3 -device virtio-net-pci,netdev=$1,mac=$4"
}
export EXTRA_RW="$S" MEM=${MEM:-768} SMP=${SMP:-1}
QEMU_EXTRA="$(nic n0 s0 c0 52:54:00:12:00:0a) $(nic n1 s1 c1 52:54:00:12:00:0b)" RUN_DIR=$R/server \
	"$HERE/run-vm.sh" -n server -t "$TMO" "$SRV" "$S" "$@" > "$R/server.out" 2>&1 &
sp=$!
QEMU_EXTRA="$(nic n0 c0 s0 52:54:00:12:00:c0) $(nic n1 c1 s1 52:54:00:12:00:c1)" RUN_DIR=$R/client \
	"$HERE/run-vm.sh" -n client -t "$TMO" "$CLI" "$S" "$@" > "$R/client.out" 2>&1 &
cp=$!
wait $sp; src=$?
wait $cp; crc=$?
echo "================ SERVER VM (rc=$src)"; cat "$R/server.out"
echo "================ CLIENT VM (rc=$crc)"; cat "$R/client.out"
echo "[two-vm] server_rc=$src client_rc=$crc dir=$R"
exit $(( (src > 15 ? 15 : src) * 16 + (crc > 15 ? 15 : crc) ))
