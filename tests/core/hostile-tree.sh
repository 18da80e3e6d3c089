# SPDX-License-Identifier: GPL-2.0-or-later
# The hostile sysfs tree the hostile tests share (sourced after
# tests/setup.sh): garbage values, FIFOs and loops where files should be,
# 255 ports, a 1 MiB attribute, and names that would drive a terminal.
#
# hostile_tree ROOT: the tree under ROOT (it replaces /sys).
# One device (HOSTILE_NAMES_DEV) carries the names every output path must neutralise:
# its name holds ESC, CR, LF and BS; its values and counter names hold OSC
# (window title, OSC 52 clipboard write), CSI, C1 controls both as UTF-8
# (C2 9B, C2 9D) and as raw bytes, and DEL.
HOSTILE_NAMES_DEV=$(printf 'nm\033[2J\r\n\bX')
hostile_tree() {
	R=$1
	D="$R/class/infiniband/evil0"
	P="$D/ports/1"
	mkdir -p "$P/counters" "$P/gids" "$P/gid_attrs/types" "$P/gid_attrs/ndevs" "$P/pkeys" "$R/class/net"
	printf 'garbage\n' >"$D/node_type"
	printf '\001\002\033[31mred\n' >"$D/board_id"
	mkdir "$D/node_guid"					# a directory where a file should be
	ln -s /nonexistent/target "$D/hca_type"			# dangling symlink
	ln -s loop_b "$D/node_desc"; ln -s "$D/node_desc" "$D/loop_b"	# symlink loop
	head -c 1048576 /dev/zero | tr '\0' 'A' >"$D/sys_image_guid"	# a 1 MiB attribute
	printf 'banana\n' >"$P/state"
	printf '%s\n' '-5: LinkUp' >"$P/phys_state"
	printf 'fast\n' >"$P/rate"
	printf 'InfiniBand\n' >"$P/link_layer"
	printf '0xZZ\n' >"$P/lid"
	printf '99999999999999999999999\n' >"$P/sm_lid"
	printf -- '-1\n' >"$P/lid_mask_count"
	printf '18446744073709551616\n' >"$P/counters/port_xmit_data"	# 2^64
	printf '18446744073709551615\n' >"$P/counters/port_rcv_data"	# 2^64-1: saturated
	printf -- '-7\n' >"$P/counters/symbol_error"
	printf '\n' >"$P/counters/link_downed"
	mkdir "$P/counters/port_xmit_packets"
	mkfifo "$P/counters/port_rcv_packets"			# would hang a naive read
	ln -s /nonexistent "$P/counters/VL15_dropped"
	printf 'not-a-gid\n' >"$P/gids/0"
	printf 'fe80:0000:0000:0000:0000:0000:0000:0001\n' >"$P/gids/1"
	printf 'RoCE v9\n' >"$P/gid_attrs/types/1"
	head -c 300 /dev/zero | tr '\0' 'x' >"$P/gid_attrs/ndevs/1"
	printf '0x1ffff\n' >"$P/pkeys/0"
	mkdir "$P/pkeys/1"
	# names and values that would drive a terminal: OSC (set the title) in a
	# counter's name, a raw C1 CSI (0x9b) and a UTF-8 C1 in values
	printf '7\n' >"$P/counters/$(printf 'evil\033]0;pwned\007')"
	printf 'MT\2330m\n' >"$D/hw_rev"
	printf 'r\302\233x\n' >"$D/fw_ver"
	# a device whose class entry dangles (vanished) and one that loops
	ln -s ../../devices/gone "$R/class/infiniband/gone0"
	ln -s loop1 "$R/class/infiniband/loop1"
	# a non-UTF-8 device name and port name
	N=$(printf 'bad\377name')
	mkdir -p "$R/class/infiniband/$N/ports/1"
	printf '4: ACTIVE\n' >"$R/class/infiniband/$N/ports/1/state"
	mkdir -p "$R/class/infiniband/$N/ports/$(printf 'p\376')"
	# 255 ports on one device (IB port numbers are 8-bit)
	W="$R/class/infiniband/wide0"
	i=1
	while [ $i -le 255 ]; do
		mkdir -p "$W/ports/$i/counters"
		printf '4: ACTIVE\n' >"$W/ports/$i/state"
		printf '%s\n' $i >"$W/ports/$i/counters/port_xmit_data"
		i=$((i + 1))
	done
	mkdir -p "$W/ports/256" "$W/ports/999999999999999999999"
	hostile_names "$R"
}

hostile_names() {
	_d="$1/class/infiniband/$HOSTILE_NAMES_DEV"
	_p="$_d/ports/1"
	mkdir -p "$_p/counters" "$_p/hw_counters" "$_p/gids" "$_p/gid_attrs/types" "$_p/gid_attrs/ndevs"
	printf '4: ACTIVE\n' >"$_p/state"
	printf '5: LinkUp\n' >"$_p/phys_state"
	printf '100 Gb/sec (4X EDR)\n' >"$_p/rate"
	printf 'InfiniBand\n' >"$_p/link_layer"
	printf '1: CA\n' >"$_d/node_type"
	printf 'osc\033]0;pwned\007\302\23552;c;cHduZWQ=\302\234\n' >"$_d/node_desc"
	printf 'fw\2330m\177\r\n' >"$_d/fw_ver"
	printf 'bd\302\233\0331m\b\n' >"$_d/board_id"
	printf '42\n' >"$_p/counters/$(printf 'clip\033]52;c;cHduZWQ=\007')"
	printf '7\n' >"$_p/counters/port_xmit_data"
	printf '9\n' >"$_p/hw_counters/$(printf 'c1\302\233hw\r')"
	printf 'fe80:0000:0000:0000:0002:c903:0000:0001\n' >"$_p/gids/0"
	printf 'IB\n' >"$_p/gid_attrs/types/0"
	printf 'nd\033[7m\302\235\n' >"$_p/gid_attrs/ndevs/0"
}
