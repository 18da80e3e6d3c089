#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile sysfs trees: fabtop prints what it can, marks the rest unknown,
# warns (boundedly) on stderr, and never crashes or hangs.
. "$TOP_SRCDIR/tests/setup.sh"

. "$TOP_SRCDIR/tests/core/hostile-tree.sh"
R="$T/sys"
hostile_tree "$R"

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
assert_match "the OSC in a counter name is cleaned where it enters" 'evil\?]0;pwned\?' "$(cat "$T/text")"
"$FABTOP" show ports --sysfs "$R" 2>/dev/null >"$T/text" || :
assert_match "a raw C1 CSI in a value is cleaned where it enters" 'MT\?0m' "$(cat "$T/text")"
assert_match "a UTF-8 C1 in a value is cleaned where it enters" 'r\?\?x' "$(cat "$T/text")"
assert_match "warnings name the file" 'evil0/ports/1/counters/port_rcv_packets' "$("$FABTOP" show counters --sysfs "$R" 2>&1 >/dev/null)"
done_testing
