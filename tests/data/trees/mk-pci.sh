#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Make the PCI fixture trees (tests/data/trees/pci-*; README beside each):
#   sh tests/data/trees/mk-pci.sh tests/data/trees
# The trees are committed; run this again after changing it, and review the diff.
set -eu
OUT=${1:?usage: mk-pci.sh DIR}

put() {	# FILE VALUE...: one line, as sysfs writes it
	mkdir -p "$(dirname "$1")"
	f=$1
	shift
	printf '%s\n' "$*" >"$f"
}

# func TREE PATH SPEED WIDTH MAX_SPEED MAX_WIDTH: a PCI function's directory
# (PATH below devices/) with its link attributes; "-" leaves a file out.
func() {
	d="$1/devices/$2"
	mkdir -p "$d"
	[ "$3" = - ] || put "$d/current_link_speed" "$3"
	[ "$4" = - ] || put "$d/current_link_width" "$4"
	[ "$5" = - ] || put "$d/max_link_speed" "$5"
	[ "$6" = - ] || put "$d/max_link_width" "$6"
	mkdir -p "$1/bus/pci/devices"
	ln -sfn "../../../devices/$2" "$1/bus/pci/devices/$(basename "$2")"
}

# ids TREE PATH CLASS VENDOR DEVICE NUMA CPULIST
ids() {
	d="$1/devices/$2"
	put "$d/class" "$3"
	put "$d/vendor" "$4"
	put "$d/device" "$5"
	put "$d/numa_node" "$6"
	[ "$7" = - ] || put "$d/local_cpulist" "$7"
}

# aer TREE PATH COR NONFATAL FATAL: the three files as drivers/pci/pcie/aer.c prints them
aer() {
	d="$1/devices/$2"
	printf 'RxErr %s\nBadTLP 0\nBadDLLP 0\nRollover 0\nTimeout 0\nNonFatalErr 0\nCorrIntErr 0\nHeaderOF 0\nTOTAL_ERR_COR %s\n' \
		"$3" "$3" >"$d/aer_dev_correctable"
	printf 'Undefined 0\nDLP 0\nSDES 0\nTLP 0\nFCP 0\nCmpltTO %s\nCmpltAbrt 0\nUnxCmplt 0\nRxOF 0\nMalfTLP 0\nECRC 0\nUnsupReq 0\nACSViol 0\nUncorrIntErr 0\nBlockedTLP 0\nAtomicOpBlocked 0\nTLPBlockedErr 0\nPoisonTLPBlocked 0\nTOTAL_ERR_NONFATAL %s\n' \
		"$4" "$4" >"$d/aer_dev_nonfatal"
	printf 'Undefined 0\nDLP %s\nSDES 0\nTLP 0\nFCP 0\nCmpltTO 0\nCmpltAbrt 0\nUnxCmplt 0\nRxOF 0\nMalfTLP 0\nECRC 0\nUnsupReq 0\nACSViol 0\nUncorrIntErr 0\nBlockedTLP 0\nAtomicOpBlocked 0\nTLPBlockedErr 0\nPoisonTLPBlocked 0\nTOTAL_ERR_FATAL %s\n' \
		"$5" "$5" >"$d/aer_dev_fatal"
}

# hca TREE PATH DEV HCA_TYPE STATE RATE GUID: an RDMA device at function PATH, one InfiniBand port
hca() {
	d="$1/devices/$2/infiniband/$3"
	put "$d/node_type" "1: CA"
	put "$d/hca_type" "$4"
	put "$d/fw_ver" "20.39.1002"
	put "$d/board_id" "MT_0000000223"
	put "$d/node_guid" "$7"
	put "$d/sys_image_guid" "$7"
	# no device link back to the function: it points into its own parent, a loop that
	# make dist's tar -h cannot archive; the reader finds the function as the parent
	put "$d/ports/1/state" "$5"
	case $5 in 4:*) put "$d/ports/1/phys_state" "5: LinkUp" ;; *) put "$d/ports/1/phys_state" "2: Polling" ;; esac
	put "$d/ports/1/rate" "$6"
	put "$d/ports/1/link_layer" "InfiniBand"
	put "$d/ports/1/lid" "0x${8:-1}"
	put "$d/ports/1/sm_lid" "0x1"
	put "$d/ports/1/lid_mask_count" "0"
	mkdir -p "$1/class/infiniband"
	ln -sfn "../../devices/$2/infiniband/$3" "$1/class/infiniband/$3"
}

NEW=16.0\ GT/s\ PCIe G3=8.0\ GT/s\ PCIe

# pci-switch: a two-socket GPU server, current kernel formats.
T=$OUT/pci-switch
rm -rf "$T"
# socket 0, host bridge pci0000:00: a PCIe switch with mlx5_0 and two GPUs, and a second switch below it with a third
RP=pci0000:00/0000:00:01.0
US=$RP/0000:01:00.0
func "$T" $RP "$NEW" 16 "$NEW" 16
ids "$T" $RP 0x060400 0x8086 0x347a 0 0-15
aer "$T" $RP 0 0 0
func "$T" $US "$NEW" 16 "$NEW" 16
ids "$T" $US 0x060400 0x1000 0xc030 0 0-15
for p in 08 10 14 18; do
	func "$T" $US/0000:02:$p.0 "$NEW" 16 "$NEW" 16
	ids "$T" $US/0000:02:$p.0 0x060400 0x1000 0xc030 0 0-15
done
func "$T" $US/0000:02:08.0/0000:03:00.0 "$NEW" 16 "$NEW" 16
ids "$T" $US/0000:02:08.0/0000:03:00.0 0x020700 0x15b3 0x101b 0 0-15
aer "$T" $US/0000:02:08.0/0000:03:00.0 2 0 0
hca "$T" $US/0000:02:08.0/0000:03:00.0 mlx5_0 MT4123 "4: ACTIVE" "200 Gb/sec (4X HDR)" 0c42:a103:0001:0001 2
func "$T" $US/0000:02:10.0/0000:04:00.0 "$NEW" 16 "$NEW" 16
ids "$T" $US/0000:02:10.0/0000:04:00.0 0x030200 0x10de 0x20b2 0 0-15
# a GPU powered down (runtime D3cold): link Unknown, width 0
func "$T" $US/0000:02:14.0/0000:05:00.0 Unknown 0 "$NEW" 16
ids "$T" $US/0000:02:14.0/0000:05:00.0 0x030200 0x10de 0x20b2 0 0-15
SW2=$US/0000:02:18.0/0000:06:00.0
func "$T" $SW2 "$NEW" 16 "$NEW" 16
ids "$T" $SW2 0x060400 0x1000 0xc030 0 0-15
func "$T" $SW2/0000:07:00.0 "$NEW" 16 "$NEW" 16
ids "$T" $SW2/0000:07:00.0 0x060400 0x1000 0xc030 0 0-15
func "$T" $SW2/0000:07:00.0/0000:08:00.0 "$NEW" 16 "$NEW" 16
ids "$T" $SW2/0000:07:00.0/0000:08:00.0 0x030000 0x1002 0x740f 0 0-15
# mlx5_1 on another root port of the same host bridge: a Gen3 slot trained x8 of x16, with a non-fatal error
RP3=pci0000:00/0000:00:03.0
func "$T" $RP3 "$G3" 8 "$G3" 16
ids "$T" $RP3 0x060400 0x8086 0x347b 0 0-15
aer "$T" $RP3 0 1 0
func "$T" $RP3/0000:09:00.0 "$G3" 8 "$NEW" 16
ids "$T" $RP3/0000:09:00.0 0x020700 0x15b3 0x101b 0 0-15
aer "$T" $RP3/0000:09:00.0 0 0 0
hca "$T" $RP3/0000:09:00.0 mlx5_1 MT4123 "4: ACTIVE" "200 Gb/sec (4X HDR)" 0c42:a103:0002:0002 3
# mlx5_3 on another host bridge of socket 0: a healthy link, its port at 40 Gb/s beside three at 200
RP4=pci0000:40/0000:40:01.0
func "$T" $RP4 "$NEW" 16 "$NEW" 16
ids "$T" $RP4 0x060400 0x8086 0x347a 0 0-15
func "$T" $RP4/0000:41:00.0 "$NEW" 16 "$NEW" 16
ids "$T" $RP4/0000:41:00.0 0x020700 0x15b3 0x101b 0 0-15
hca "$T" $RP4/0000:41:00.0 mlx5_3 MT4123 "4: ACTIVE" "40 Gb/sec (4X QDR)" 0c42:a103:0004:0004 5
# socket 1, host bridge pci0000:80: mlx5_2, healthy
RP8=pci0000:80/0000:80:01.0
func "$T" $RP8 "$NEW" 16 "$NEW" 16
ids "$T" $RP8 0x060400 0x8086 0x347a 1 16-31
func "$T" $RP8/0000:81:00.0 "$NEW" 16 "$NEW" 16
ids "$T" $RP8/0000:81:00.0 0x020700 0x15b3 0x101b 1 16-31
hca "$T" $RP8/0000:81:00.0 mlx5_2 MT4123 "4: ACTIVE" "200 Gb/sec (4X HDR)" 0c42:a103:0003:0003 4
# functions that are neither GPUs nor bridges: listed in bus/pci/devices, never read past their class
func "$T" pci0000:00/0000:00:1f.0 - - - -
ids "$T" pci0000:00/0000:00:1f.0 0x060100 0x8086 0xa1c8 0 0-15
cat >"$T/README" <<'EOT'
pci-switch (made by ../mk-pci.sh): a two-socket GPU server, current kernel
formats ("16.0 GT/s PCIe").
- socket 0, host bridge pci0000:00, root port 00:01.0 -> PCIe switch
  01:00.0 with downstream ports 02:08.0 (mlx5_0, Gen4 x16, 2 correctable
  AER errors), 02:10.0 (GPU 04:00.0), 02:14.0 (GPU 05:00.0 powered down:
  link "Unknown", width 0), 02:18.0 -> a second switch 06:00.0/07:00.0 ->
  GPU 08:00.0 (a VGA controller).
- root port 00:03.0 (Gen3, x8 of x16 trained; one non-fatal AER error) ->
  mlx5_1 (Gen4 x16 card): degraded, 63 Gb/s under a 200 Gb/s port.
- host bridge pci0000:40 (NUMA 0) -> mlx5_3, its port at 40 Gb/s beside
  three at 200: port-slow-sibling.
- socket 1, host bridge pci0000:80 (NUMA 1) -> mlx5_2.
GPU 04:00.0 to mlx5_0 PIX, mlx5_1 PHB, mlx5_3 NODE, mlx5_2 SYS; 08:00.0 to
mlx5_0 PXB.
EOT

# pci-oldkernel: a one-socket host whose firmware gives no NUMA node, a kernel
# before 5.1 ("8 GT/s", "Unknown speed"), no AER files.
T=$OUT/pci-oldkernel
rm -rf "$T"
# a root port narrower than its card: an x16 card in a slot wired x8
RP=pci0000:00/0000:00:02.0
func "$T" $RP "8 GT/s" 8 "8 GT/s" 8
ids "$T" $RP 0x060400 0x8086 0x6f04 -1 -
func "$T" $RP/0000:03:00.0 "8 GT/s" 8 "8 GT/s" 16
ids "$T" $RP/0000:03:00.0 0x020700 0x15b3 0x1003 -1 0-7
hca "$T" $RP/0000:03:00.0 mlx4_0 MT4099 "4: ACTIVE" "56 Gb/sec (4X FDR)" 0002:c903:0031:78f0 2
# a second card whose link is down: "Unknown speed", width 0, its port down
RP3=pci0000:00/0000:00:03.0
func "$T" $RP3 "Unknown speed" 0 "8 GT/s" 8
ids "$T" $RP3 0x060400 0x8086 0x6f08 -1 -
func "$T" $RP3/0000:04:00.0 "Unknown speed" 0 "8 GT/s" 8
ids "$T" $RP3/0000:04:00.0 0x020700 0x15b3 0x1003 -1 0-7
hca "$T" $RP3/0000:04:00.0 mlx4_1 MT4099 "1: DOWN" "10 Gb/sec (4X SDR)" 0002:c903:0031:7900 0
# a VGA controller right under the host bridge (no root port), and one under another host bridge
func "$T" pci0000:00/0000:00:05.0 - - - -
ids "$T" pci0000:00/0000:00:05.0 0x030000 0x102b 0x0536 -1 -
func "$T" pci0000:40/0000:40:00.0 "8 GT/s" 16 "8 GT/s" 16
ids "$T" pci0000:40/0000:40:00.0 0x060400 0x8086 0x6f02 -1 -
func "$T" pci0000:40/0000:40:00.0/0000:41:00.0 "8 GT/s" 16 "8 GT/s" 16
ids "$T" pci0000:40/0000:40:00.0/0000:41:00.0 0x030200 0x10de 0x1db4 -1 0-7
cat >"$T/README" <<'EOT'
pci-oldkernel (made by ../mk-pci.sh): a one-socket host whose firmware gives
no NUMA node (numa_node -1), with a kernel before 5.1 ("8 GT/s", "Unknown
speed") and no AER files.
- root port 00:02.0 is x8, its card mlx4_0 can do x16: a bridge narrower
  than its device (not degraded: the slot is x8); 63 Gb/s carry a 56 Gb/s
  FDR port.
- root port 00:03.0 -> mlx4_1: the link is down ("Unknown speed", width 0),
  its port DOWN.
- a VGA controller 00:05.0 right under the host bridge (PHB to both cards),
  a 3D controller 41:00.0 under host bridge pci0000:40: no class (NUMA
  unknown).
EOT
