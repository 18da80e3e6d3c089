#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Without InfiniBand management devices: `show fabric` and the MAD probe say
# why and exit 1; usage errors exit 2; everything else keeps working.
. "$TOP_SRCDIR/tests/setup.sh"

# This test is about a machine without umad devices (CI, containers).
set -- /sys/class/infiniband_mad/umad*
if [ -e "$1" ]; then
	skip_all "this machine has /sys/class/infiniband_mad/umad* devices"
fi
unset LD_PRELOAD
plan 17

run_rc "$FABTOP" show fabric
assert_eq "show fabric: exit 1" 1 "$rc"
assert_match "show fabric: says there are no devices and why" \
	'fabtop: no (RDMA devices|InfiniBand management devices).*(absent|modprobe)' "$(cat "$T/err")"
assert_eq "show fabric: no made-up output on stdout" "" "$(grep -v '^$' "$T/out" | grep -v 'unavailable' || true)"

run_rc "$FABTOP" show fabric --json
assert_eq "show fabric --json: exit 1" 1 "$rc"
assert_eq "show fabric --json: the reason in .fabric.error" true \
	"$(json_true "$T/out" '.fabric.error | test("no (RDMA|InfiniBand)")' && echo true || echo false)"
assert_eq "show fabric --json: empty lists, never invented" "0 0 0" \
	"$(jq -r '.fabric | "\(.local_ports | length) \(.nodes | length) \(.links | length)"' "$T/out")"

run_rc "$FABTOP" --sysfs "$DATA" show fabric
assert_eq "show fabric with --sysfs: exit 1" 1 "$rc"
assert_match "show fabric with --sysfs: MADs need the live system" "need the live system" "$(cat "$T/err")"

run_rc "$FABTOP" probe --lid 1
assert_eq "probe --lid: exit 1" 1 "$rc"
assert_match "probe --lid: the reason" 'fabtop probe: no ' "$(cat "$T/err")"
run_rc "$FABTOP" probe --lid 0
assert_eq "probe --lid 0: usage error, exit 2" 2 "$rc"
run_rc "$FABTOP" probe --lid 1 --guid 0x1
assert_eq "probe --lid and --guid: usage error, exit 2" 2 "$rc"

# Everything else is untouched: show all does not include the fabric section.
run_rc "$FABTOP" show all
assert_eq "show all still works without umad devices" 0 "$rc"
run_rc "$FABTOP" show --help
assert_match "show --help lists the fabric section" 'fabric' "$(cat "$T/out")"

# The one-shot paths under valgrind: no invalid access, no leak.
if command -v valgrind >/dev/null 2>&1 && [ "${FABTOP_SANITIZERS:-no}" != yes ] && ! ldd "$FABTOP" | grep -q libasan; then
	for args in "show fabric" "show fabric --json" "probe --lid 1"; do
		# shellcheck disable=SC2086
		run_rc valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
			"$FABTOP" $args
		assert_eq "valgrind clean: fabtop $args (exit 1, not 99)" 1 "$rc"
	done
else
	for _ in 1 2 3; do skip "valgrind not installed, or an ASan build"; done
fi
done_testing
