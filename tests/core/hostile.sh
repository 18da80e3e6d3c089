#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile sysfs trees: fabtop prints what it can, marks the rest unknown,
# warns (boundedly) on stderr, and never crashes or hangs.
. "$TOP_SRCDIR/tests/setup.sh"

R="$T/sys"
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

for section in all ports counters gids; do
	for fmt in text json; do
		set -- show $section --sysfs "$R"
		[ $fmt = json ] && set -- "$@" --json
		set +e
		timeout 30 "$FABTOP" "$@" >"$T/out" 2>"$T/err"
		rc=$?
		set -e
		assert_eq "$section/$fmt: exits 0, no crash, no hang" 0 "$rc"
		if [ $fmt = json ]; then
			assert_json "$section/$fmt: output is one JSON document" "$T/out" 'type == "object"'
		fi
		n=$(wc -l <"$T/err")
		if [ "$n" -ge 1 ] && [ "$n" -le 41 ]; then ok "$section/$fmt: warned, boundedly ($n lines)"; else not_ok "$section/$fmt: warned, boundedly ($n lines)"; fi
		dups=$(sort "$T/err" | uniq -d | wc -l)
		assert_eq "$section/$fmt: each warning once" 0 "$dups"
	done
done

"$FABTOP" show all --json --sysfs "$R" 2>"$T/all.err" >"$T/all.json"
jq() { command jq -c "$@" "$T/all.json"; }
assert_eq "unparseable state is null, not invented" 'null' "$(jq '.devices[] | select(.name=="evil0") | .ports[0].state')"
assert_eq "negative phys_state is null" 'null' "$(jq '.devices[] | select(.name=="evil0") | .ports[0].phys_state')"
assert_eq "bad lid/sm_lid/lmc are null" '[null,null,null]' "$(jq '.devices[] | select(.name=="evil0") | .ports[0] | [.lid,.sm_lid,.lmc]')"
assert_eq "node_guid directory is null" 'null' "$(jq '.devices[] | select(.name=="evil0") | .node_guid')"
assert_eq "1 MiB attribute is null" 'null' "$(jq '.devices[] | select(.name=="evil0") | .sys_image_guid')"
assert_eq "control bytes are not passed to the terminal" '"???[31mred"' "$(jq '.devices[] | select(.name=="evil0") | .board_id')"
assert_eq "2^64 counter is unknown" 'null' "$(jq '.ports[] | select(.device=="evil0") | .counters[] | select(.name=="port_xmit_data") | .value')"
assert_eq "2^64-1 counter is saturated" 'true' "$(jq '.ports[] | select(.device=="evil0") | .counters[] | select(.name=="port_rcv_data") | .saturated')"
assert_eq "saturated data counter: bytes unknown" 'null' "$(jq '.ports[] | select(.device=="evil0") | .rcv_bytes')"
assert_eq "negative counter is unknown" 'null' "$(jq '.ports[] | select(.device=="evil0") | .counters[] | select(.name=="symbol_error") | .value')"
assert_eq "the good GID survives its bad neighbour" '["fe80:0000:0000:0000:0000:0000:0000:0001"]' "$(jq '[.gids[] | select(.device=="evil0") | .gid]')"
assert_eq "oversized ndev name is dropped" 'null' "$(jq '.gids[] | select(.device=="evil0") | .netdev')"
assert_eq "all 255 ports are listed" '255' "$(jq '.devices[] | select(.name=="wide0") | .ports | length')"
assert_eq "port 255 read" '[255,1020]' "$(jq '.ports[] | select(.device=="wide0" and .port==255) | [.port,.xmit_bytes]')"
assert_eq "vanished and looping devices are no devices" '0' "$(jq '[.devices[] | select(.name=="gone0" or .name=="loop1")] | length')"
assert_eq "but each is warned about by name" '2' "$(grep -c -e '^fabtop: warning: gone0: unreadable' -e '^fabtop: warning: loop1: unreadable' "$T/all.err")"
assert_match "non-UTF-8 name repaired in JSON" 'bad\\ufffdname' "$(cat "$T/all.json")"
# A FIFO and a link to a device where attributes should be: never opened.
# The proof is the syscall trace (a FIFO opened O_NONBLOCK reads empty and
# is reported the same way, and a writer on it only sometimes notices); the
# trace must show the neighbouring state file opened, or it proves nothing.
F="$T/fifo-tree"
mkdir -p "$F/class/infiniband/dev0/ports/1/counters"
printf '4: ACTIVE\n' >"$F/class/infiniband/dev0/ports/1/state"
mkfifo "$F/class/infiniband/dev0/fw_ver"
ln -s /dev/zero "$F/class/infiniband/dev0/board_id"
if command -v strace >/dev/null 2>&1 &&
	strace -f -qq -e trace=open,openat,openat2,creat -o "$T/fifo.strace" true 2>/dev/null; then
	strace -f -qq -e trace=open,openat,openat2,creat -o "$T/fifo.strace" \
		timeout 10 "$FABTOP" show ports --sysfs "$F" >"$T/fifo.out" 2>"$T/fifo.err" || :
	open_re='^[0-9]+ +(open|openat|openat2|creat)\([^"]*"([^"]*/)?'
	if grep -Eq "${open_re}state\"" "$T/fifo.strace"; then
		assert_eq "a FIFO in a tree is never opened (strace)" "" \
			"$(grep -E "${open_re}fw_ver\"" "$T/fifo.strace" || :)"
	else
		not_ok "a FIFO in a tree is never opened (strace)"
		diag "the trace does not show the port's state file opened:" "$(head -n 40 "$T/fifo.strace")"
	fi
else
	skip "a FIFO in a tree is never opened: strace cannot trace here (Debian package strace)"
	timeout 10 "$FABTOP" show ports --sysfs "$F" >"$T/fifo.out" 2>"$T/fifo.err" || :
fi
assert_match "it is reported, not read" 'dev0/fw_ver: unreadable' "$(cat "$T/fifo.err")"
assert_match "a link out of the tree to a device is not followed" 'dev0/board_id: unreadable' "$(cat "$T/fifo.err")"

# Text reports: no byte a terminal acts on, whatever the tree holds.
for cmd in "show all" "show counters" "doctor"; do
	# shellcheck disable=SC2086
	timeout 30 "$FABTOP" $cmd --sysfs "$R" >"$T/text" 2>/dev/null || :
	LC_ALL=C tr -d '\001-\010\013-\037\177\200-\237' <"$T/text" >"$T/clean"
	if cmp -s "$T/text" "$T/clean"; then
		ok "$cmd: no control byte in the text output"
	else
		not_ok "$cmd: control bytes in the text output"; diag "$(od -c "$T/text" | grep -E '033|007|233' | head -3)"
	fi
done
"$FABTOP" show counters --sysfs "$R" 2>/dev/null >"$T/text" || :
assert_match "the OSC in a counter name is shown escaped" 'evil\\x1b]0;pwned\\x07' "$(cat "$T/text")"
"$FABTOP" show ports --sysfs "$R" 2>/dev/null >"$T/text" || :
assert_match "a raw C1 CSI in a value is shown escaped" 'MT\\x9b0m' "$(cat "$T/text")"
assert_match "a UTF-8 C1 in a value is shown escaped" 'r\\xc2\\x9bx' "$(cat "$T/text")"
assert_match "warnings name the file" 'evil0/ports/1/counters/port_rcv_packets' "$("$FABTOP" show counters --sysfs "$R" 2>&1 >/dev/null)"
done_testing
