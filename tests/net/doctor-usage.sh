#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# doctor's command line and exit codes, without root: usage errors are 2,
# a host without RDMA netdevs is clean (0), fixes print even when empty.
. "$TOP_SRCDIR/tests/setup.sh"
mkdir -p "$T/empty"

run_rc "$FABTOP" --sysfs "$T/empty" doctor
assert_eq "no RDMA devices: exit 0" 0 "$rc"
assert_match "says there is nothing RDMA here" 'no RDMA devices' "$(cat "$T/out")"
run_rc "$FABTOP" --sysfs "$T/empty" doctor --json
assert_eq "--json: exit 0" 0 "$rc"
if command -v jq >/dev/null 2>&1; then
	assert_eq "--json: problems false, no findings" "false 0" "$(jq -r '"\(.problems) \(.findings | length)"' "$T/out")"
else
	skip "jq is not installed"
fi
run_rc "$FABTOP" --sysfs "$T/empty" doctor not-an-ip
assert_eq "a PEER that is not an address: exit 2" 2 "$rc"
run_rc "$FABTOP" --sysfs "$T/empty" doctor 127.0.0.1 --from no-such-if0
assert_eq "--from an unknown interface: exit 2" 2 "$rc"
run_rc "$FABTOP" --sysfs "$T/empty" doctor 127.0.0.1 --from 203.0.113.77
assert_eq "--from an address that is not local: exit 2" 2 "$rc"
run_rc "$FABTOP" --sysfs "$T/empty" doctor 1.2.3.4 5.6.7.8
assert_eq "two peers: exit 2" 2 "$rc"
run_rc "$FABTOP" --sysfs "$T/empty" doctor --bogus
assert_eq "unknown option: exit 2" 2 "$rc"
run_rc "$FABTOP" --sysfs "$T/empty" doctor --fix yaml
assert_eq "unknown --fix format: exit 2" 2 "$rc"
run_rc "$FABTOP" --sysfs "$T/empty" doctor --fix
assert_eq "--fix without a format: exit 2" 2 "$rc"
run_rc "$FABTOP" --sysfs "$T/empty" doctor --yes
assert_eq "--yes alone: exit 2" 2 "$rc"
run_rc "$FABTOP" --sysfs "$T/empty" doctor --apply
assert_eq "--apply without --yes: exit 2" 2 "$rc"
assert_match "--apply without --yes says nothing changed" 'nothing was changed' "$(cat "$T/err")"
run_rc "$FABTOP" --sysfs "$T/empty" doctor --apply --yes --fix netplan
assert_eq "--apply with a persistent format: exit 2" 2 "$rc"
run_rc "$FABTOP" --sysfs "$T/empty" doctor --rdma-netdev no-such-if0
assert_eq "--rdma-netdev of a missing interface: exit 2" 2 "$rc"
for f in ip networkd-dispatcher nm-dispatcher ifupdown netplan nmcli nm-keyfile; do
	run_rc "$FABTOP" --sysfs "$T/empty" doctor --fix "$f"
	assert_eq "--fix $f with nothing shared: exit 0, says so" "0 nothing to fix" \
		"$rc $(grep -o 'nothing to fix' "$T/out")"
done
run_rc "$FABTOP" doctor --help
assert_eq "--help: exit 0" 0 "$rc"
assert_match "--help names the formats" 'networkd-dispatcher' "$(cat "$T/out")"
run_rc "$FABTOP" --sysfs "$T/empty" doctor 127.0.0.1
assert_eq "a peer with no RDMA addresses: exit 0" 0 "$rc"
run_rc "$FABTOP" --sysfs "$T/empty" show net --json
assert_eq "show net --json: exit 0" 0 "$rc"
if command -v jq >/dev/null 2>&1; then
	assert_eq "show net --json: routes and rules of this namespace" "true true" \
		"$(jq -r '"\(.routes | length > 0) \(.rules | length >= 3)"' "$T/out")"
else
	skip "jq is not installed"
fi
done_testing
