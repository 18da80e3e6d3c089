#!/bin/sh
# shellcheck disable=SC2154 # rc is set by run_rc (tests/setup.sh)
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop probe from the command line, without RDMA: usage errors exit 2 with a
# message, a probe that cannot run exits 1 saying why (text and --json), no hang.
# The real thing runs in tests/vm/.
. "$TOP_SRCDIR/tests/setup.sh"

run_rc "$FABTOP" probe --help
assert_eq "--help exits 0" 0 "$rc"
assert_match "--help names the modes" 'mode rping.bw.lat' "$(cat "$T/out")"

for args in "" "--mode ping 10.0.0.1" "-p 0 10.0.0.1" "-p 70000 10.0.0.1" "-S 0 10.0.0.1" \
	    "-S x 10.0.0.1" "--timeout-ms 0 10.0.0.1" "-Q 65 10.0.0.1" "--bogus 10.0.0.1" \
	    "10.0.0.1 10.0.0.2" "--from" "--once 10.0.0.1" "--listen --from eth0" "--op read 10.0.0.1"; do
	# shellcheck disable=SC2086
	run_rc "$FABTOP" probe $args
	if [ "$rc" = 2 ] && [ -s "$T/err" ] && ! grep -q . "$T/out"; then
		ok "usage error exits 2 with a message: probe $args"
	else
		not_ok "usage error exits 2 with a message: probe $args"
		diag "rc=$rc" "stderr: $(cat "$T/err")" "stdout: $(cat "$T/out")"
	fi
done

# Option values the probe itself refuses: a failed probe (exit 1), not a usage error.
run_rc timeout 10 "$FABTOP" probe 10.0.0.1 -S 10
assert_eq "rping -S 10 is refused by the probe" 1 "$rc"
assert_match "... with rping's limits" 'rping size must be 26\.\.65535 bytes, not 10' "$(cat "$T/out")"

# Whatever this machine has (no RDMA in CI), a probe ends, with a reason, quickly.
start=$(date +%s)
run_rc timeout 20 "$FABTOP" probe 192.0.2.1 --timeout-ms 500
el=$(( $(date +%s) - start ))
assert_eq "probe to a TEST-NET address fails" 1 "$rc"
assert_match "... with a result line" '^result: FAILED: ' "$(cat "$T/out")"
if [ "$el" -le 5 ]; then ok "... within 5 s (${el}s)"; else not_ok "... took ${el}s"; fi

run_rc timeout 20 "$FABTOP" probe 192.0.2.1 --timeout-ms 500 --json
assert_eq "--json failure exits 1" 1 "$rc"
assert_json "--json failure: ok false, state, events, error, evidence" "$T/out" \
	'.ok == false and .state == "failed" and (.events | length) >= 1 and (.error | length) > 0 and (.evidence | type) == "array"'

run_rc timeout 20 "$FABTOP" --json probe --listen 127.0.0.1 --once --timeout-ms 500
if [ "$rc" = 1 ]; then
	assert_match "server that cannot listen says why" '"role":"server".*"ok":false' "$(cat "$T/out")"
else
	# an RDMA-capable machine: the listener ran until --once... which needs a client; timeout ended it
	skip "this machine can listen over RDMA (rc=$rc): covered by tests/vm"
fi

if command -v valgrind >/dev/null 2>&1 && [ "${FABTOP_SANITIZERS:-no}" != yes ] && ! nm "$FABTOP" 2>/dev/null | grep -q __asan_init; then
	run_rc valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$FABTOP" probe 192.0.2.1 --timeout-ms 300
	assert_eq "valgrind: the failing probe path has no errors or leaks" 1 "$rc"
	[ "$rc" = 1 ] || diag "$(cat "$T/err")"
else
	skip "valgrind not installed, or a sanitizer build"
fi
done_testing
