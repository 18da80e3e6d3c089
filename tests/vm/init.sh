#!/bb/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the fabtop test VM: mount host /usr, /etc, the kernel's modules and
# the run dir over 9p, run /share/cmd.sh as root, record its status, power off.
B=/bb/busybox
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb
$B mount -t proc proc /proc
$B mount -t sysfs sysfs /sys
$B mount -t devtmpfs devtmpfs /dev
for ko in $($B cat /bootmods/order); do $B insmod /bootmods/$ko || echo "insmod $ko failed"; done
o=trans=virtio,version=9p2000.L,msize=512000
$B mount -t 9p -o $o,ro,cache=loose hostusr /usr || { echo "FABTOP-VM: mount /usr failed"; $B poweroff -f; }
$B mount -t 9p -o $o,ro,cache=loose hostetc /etc
$B mount -t 9p -o $o,ro,cache=loose kmods /lib/modules
$B mount -t 9p -o $o,rw share /share
$B mkdir -p /dev/pts /dev/shm
$B mount -t devpts devpts /dev/pts
$B mount -t tmpfs tmpfs /dev/shm
$B mount -t tmpfs tmpfs /run
$B mount -t tmpfs tmpfs /tmp
$B mount -t tmpfs tmpfs /var/tmp
$B ln -sf /proc/self/fd /dev/fd
# the host's /lib is /usr/lib (merged /usr); here /lib holds the modules, so link what lives there
$B ln -sf /usr/lib/terminfo /lib/terminfo
# extra host dirs, each mounted at its host path (run-vm.sh EXTRA_RO / EXTRA_RW)
for t in $($B sed -n 's/.*fabvm_extra=\([^ ]*\).*/\1/p' /proc/cmdline | $B tr , ' '); do
	p=$($B cat /share/.extra_$t); $B mkdir -p "$p"
	case $t in
	xrw*) $B mount -t 9p -o $o,rw $t "$p";;
	*) $B mount -t 9p -o $o,ro,cache=loose $t "$p";;
	esac
done
$B hostname "$($B sed -n 's/.*fabvm_host=\([^ ]*\).*/\1/p' /proc/cmdline)"
ip link set lo up
echo "FABTOP-VM-READY uptime=$($B cut -d' ' -f1 /proc/uptime)"
cd /share || exit 1
( /bin/bash /share/cmd.sh; echo $? > /share/rc ) > /share/output.log 2>&1
echo "FABTOP-VM-EXIT=$($B cat /share/rc) uptime=$($B cut -d' ' -f1 /proc/uptime)"
$B sync
$B poweroff -f
