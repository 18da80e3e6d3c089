#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop lab's refusals, without touching the host: ip, rdma, modprobe and
# sysctl are stand-ins that only log their calls, the state file is under $T
# (FABTOP_LAB_STATE). Not root; no rdma_rxe; a second up; down with corrupt,
# foreign or binary state files (doc/lab.md, "The real lab").
. "$TOP_SRCDIR/tests/setup.sh"

mkdir -p "$T/bin"
for t in ip rdma sysctl; do
	printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\n[ "$1 $2" = "rule list" ] && cat "%s/rules" 2>/dev/null\nexit 0\n' \
		"$t" "$T" "$T" > "$T/bin/$t"
done
printf '#!/bin/sh\necho "modprobe $*" >> "%s/calls"\necho "modprobe: FATAL: Module $1 not found in directory /lib/modules/test" >&2\nexit 1\n' \
	"$T" > "$T/bin/modprobe"
chmod +x "$T/bin/"*
export FABTOP_LAB_STATE="$T/state"
lab() { PATH="$T/bin:$PATH" run_rc "$FABTOP" lab "$@"; }

run_rc "$FABTOP" lab --help
assert_rc "lab --help: exit 0" 0
assert_match "lab --help: the usage on stdout" '^usage: fabtop lab up' "$(cat "$T/out")"
run_rc "$FABTOP" lab sideways
assert_rc "an unknown subcommand is a usage error" 2
lab up ib-only
assert_rc "an unknown scenario is a usage error" 2
assert_eq "... that lists the labs there are" "fabtop lab: no lab 'ib-only'; the labs: two-nics" "$(cat "$T/err")"
run_rc "$FABTOP" lab --help
assert_match "lab --help says NAME, as README does, and lists the names" \
	'^usage: fabtop lab up \[NAME\] \| fabtop lab down  +two-nics ' "$(tr '\n' ' ' <"$T/out")"

# not root
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	set +e
	PATH="$T/bin:$PATH" setpriv --reuid=65534 --regid=65534 --clear-groups "$FABTOP" lab up > "$T/out" 2> "$T/err"
	rc=$?
	set -e
else
	lab up
fi
if [ "$(id -u)" = 0 ] && ! command -v setpriv > /dev/null; then
	skip "not root: setpriv is not installed"
else
	assert_rc "not root: exit 1" 1
	assert_match "not root: says root only" '^fabtop lab: root only: ' "$(cat "$T/err")"
	assert_eq "not root: nothing run" "" "$(cat "$T/calls" 2>/dev/null)"
fi

if [ "$(id -u)" != 0 ]; then
	skip "the refusals past the root check need root (this run is uid $(id -u))"
	done_testing
	exit
fi

# no rdma_rxe
rm -f "$T/calls"
lab up
assert_rc "no rdma_rxe: exit 1" 1
assert_eq "no rdma_rxe: says so, with modprobe's words, and points to the demo" \
	'fabtop lab: rdma_rxe is not available (modprobe rdma_rxe failed: modprobe: FATAL: Module rdma_rxe not found in directory /lib/modules/test): try `fabtop --demo two-nics`' \
	"$(cat "$T/err")"
assert_eq "no rdma_rxe: only the checks' reads (tests/lab/exists.sh) and modprobe ran" \
	"$(printf 'ip rule list pref 0\nip -4 route show table all\nmodprobe rdma_rxe')" "$(cat "$T/calls")"
check "no rdma_rxe: no state file" test ! -e "$T/state"

# a second up
printf '# fabtop lab state 1\nnetns fl-switch\n' > "$T/state"
rm -f "$T/calls"
lab up
assert_rc "a second up: exit 1" 1
assert_match "a second up: refused, points to down" 'already up.*fabtop lab down. first' "$(cat "$T/err")"
assert_eq "a second up: nothing run" "" "$(cat "$T/calls" 2>/dev/null)"
assert_eq "a second up: the state file is untouched" "$(printf '# fabtop lab state 1\nnetns fl-switch')" "$(cat "$T/state")"

# down: no lab
rm -f "$T/state" "$T/calls"
lab down
assert_rc "down without a lab: exit 0" 0
assert_match "down without a lab: says so" 'no lab is up' "$(cat "$T/out")"

# down: a state file with foreign and malformed lines among the lab's own
sleep 60 & sl=$!
cleanup_add "kill $sl 2>/dev/null"
printf '# fabtop lab state 1\nlink eth0\nnetns default\nrxe mlx5_0\nrule-l3mdev\nrule-udp eth0\nrule-udp\nlocal-rule\nsysctl udp_l3mdev_accept 7\nlistener 1\nlistener %s\nlink fl-a;reboot\nli' "$sl" > "$T/state"
printf '0:\tfrom all lookup [l3mdev-table]\n0:\tfrom all lookup local\n' > "$T/rules"
rm -f "$T/calls"
lab down
assert_rc "corrupt state: exit 1" 1
assert_match "corrupt state: counts the foreign lines, names the first" '8 line\(s\) of .* are not the lab.s own objects \(first: line 2\)' "$(cat "$T/err")"
assert_eq "corrupt state: only the lab's own rules are removed, the one local rule is kept" \
	"$(printf 'ip rule list pref 0\nip rule del pref 0 from 172.16.34.10 iif lo table 4793\nip rule del pref 0 l3mdev')" \
	"$(cat "$T/calls")"
check "corrupt state: a process that is not the lab's listener is left alone" kill -0 "$sl"
check "corrupt state: the file is kept to be read" test -s "$T/state"

# down after an up killed between its two local-rule steps: the duplicate goes, once
printf '# fabtop lab state 1\nrule-udp\nrule-l3mdev\nlocal-rule\n' > "$T/state"
printf '0:\tfrom 172.16.34.10 iif lo lookup 4793\n0:\tfrom all lookup [l3mdev-table]\n0:\tfrom all lookup local\n0:\tfrom all lookup local\n' > "$T/rules"
rm -f "$T/calls"
lab down
assert_rc "two local rules: exit 0" 0
assert_eq "two local rules: one is deleted, then the lab's two rules" \
	"$(printf 'ip rule list pref 0\nip rule del pref 0 table local\nip rule del pref 0 l3mdev\nip rule del pref 0 from 172.16.34.10 iif lo table 4793')" \
	"$(cat "$T/calls")"
check "two local rules: the state file is gone" test ! -e "$T/state"

# down: a binary file
printf 'link fl-a\000\001\002' > "$T/state"
rm -f "$T/calls"
lab down
assert_rc "binary state: exit 1" 1
assert_match "binary state: says so" 'not a lab state file' "$(cat "$T/err")"
assert_eq "binary state: nothing run" "" "$(cat "$T/calls" 2>/dev/null)"
done_testing
