#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build (once) and cache the Soft-RoCE VM assets: Debian's kernel and a tiny initramfs.
#
# Everything comes from Debian packages: the kernel .deb is fetched with
# `apt-get download` and unpacked with dpkg -x (nothing is installed into the
# host's /boot or /lib/modules); the initramfs holds only a static busybox and
# the modules needed to mount 9p. Host /usr and /etc are shared read-only at
# boot (run-vm.sh), so every host binary, the fabtop under test included,
# runs in the guest unchanged.
#
# Assets live in $FABTOP_VM_DIR (default /var/tmp/fabtop-vm) and are reused by
# later runs; a stamp records the kernel version and the init script's hash so
# a change to either rebuilds only what changed.
# Exit status: 0 ready; 77 cannot be had here (reason on stdout, one line).
set -euo pipefail
D=${FABTOP_VM_DIR:-/var/tmp/fabtop-vm}
HERE=$(cd "$(dirname "$0")" && pwd)
cant() { echo "$*"; exit 77; }

command -v qemu-system-x86_64 >/dev/null || {
	# CI is root with apt: install what the harness needs (tools/debian-packages lists them too).
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && [ "${FABTOP_VM_NO_INSTALL:-0}" != 1 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			qemu-system-x86 busybox-static rdma-core ibverbs-utils ibverbs-providers \
			rdmacm-utils perftest cpio kmod bc >/dev/null 2>&1 || true
	fi
	command -v qemu-system-x86_64 >/dev/null || cant "qemu-system-x86_64 not installed"
}
for t in busybox cpio depmod modprobe dpkg apt-get apt-cache gzip rping ib_write_bw; do
	command -v "$t" >/dev/null || cant "$t not installed"
done
[ -x /bin/busybox ] || cant "/bin/busybox missing (busybox-static)"
[ "$(uname -m)" = x86_64 ] || cant "harness is written for x86_64 hosts"

mkdir -p "$D/debs" "$D/assets"
exec 9>"$D/.lock"
flock -w 600 9 || cant "could not lock $D"

KPKG=${FABTOP_VM_KPKG:-}
if [ -z "$KPKG" ]; then
	if [ -f "$D/assets/KPKG" ]; then
		KPKG=$(cat "$D/assets/KPKG")
	else
		KPKG=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
		if [ -z "$KPKG" ] && [ "$(id -u)" = 0 ]; then
			apt-get update -qq >/dev/null 2>&1 || true
			KPKG=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
		fi
	fi
fi
[ -n "$KPKG" ] || cant "cannot resolve Debian's linux-image-amd64 (apt lists missing?)"
KVER=${KPKG#linux-image-}

if [ ! -f "$D/assets/vmlinuz-$KVER" ] || [ ! -f "$D/kroot/lib/modules/$KVER/modules.dep" ]; then
	(cd "$D/debs" && ls ${KPKG}_*.deb >/dev/null 2>&1 || apt-get download "$KPKG" >/dev/null 2>&1) ||
		cant "apt-get download $KPKG failed (no network or no apt lists)"
	rm -rf "$D/kroot.new" && mkdir "$D/kroot.new"
	dpkg -x "$D"/debs/${KPKG}_*.deb "$D/kroot.new"
	depmod -b "$D/kroot.new" "$KVER"	# the .deb ships no modules.dep (postinst makes it)
	rm -rf "$D/kroot" && mv "$D/kroot.new" "$D/kroot"
	cp "$D/kroot/boot/vmlinuz-$KVER" "$D/assets/"
	echo "$KPKG" > "$D/assets/KPKG"
fi
[ -f "$D/kroot/lib/modules/$KVER/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko" ] ||
	cant "kernel $KVER has no rdma_rxe module"

stamp="$KVER $(sha256sum "$HERE/init.sh" | cut -c1-16)"
if [ ! -f "$D/assets/initrd.img" ] || [ "$(cat "$D/assets/STAMP" 2>/dev/null)" != "$stamp" ]; then
	I=$(mktemp -d)
	trap 'rm -rf "$I"' EXIT
	mkdir -p "$I"/{bb,bootmods,proc,sys,dev,run,tmp,usr,etc,share,root,lib/modules,var/tmp,mnt}
	ln -s usr/bin "$I/bin"; ln -s usr/sbin "$I/sbin"; ln -s usr/lib64 "$I/lib64"
	ln -s /usr/lib/x86_64-linux-gnu "$I/lib/x86_64-linux-gnu"
	ln -s /run "$I/var/run"
	cp /bin/busybox "$I/bb/busybox"
	for m in virtio_pci 9pnet_virtio 9p; do
		modprobe -d "$D/kroot" -S "$KVER" --show-depends "$m"
	done | awk '$1=="insmod"{print $2}' | awk '!seen[$0]++' | while read -r ko; do
		cp "$ko" "$I/bootmods/"; basename "$ko" >> "$I/bootmods/order"
	done
	cp "$HERE/init.sh" "$I/init"; chmod +x "$I/init"
	(cd "$I" && find . | cpio -o -H newc --quiet | gzip -1 > "$D/assets/initrd.img.new")
	mv "$D/assets/initrd.img.new" "$D/assets/initrd.img"
	echo "$KVER" > "$D/assets/KVER"
	echo "$stamp" > "$D/assets/STAMP"
fi
echo "ready: kernel $KVER in $D"
