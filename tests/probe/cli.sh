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
	    "10.0.0.1 10.0.0.2" "--from" "--once 10.0.0.1" "--listen --from eth0" "--op read 10.0.0.1" \
	    "-a 10.0.0.1" "-P" "-s -c" "-c" "-s -I 10.0.0.2" "-c -a 10.0.0.1 10.0.0.2" "-c -P -a 10.0.0.1" \
	    "-c --listen -a 10.0.0.1" "-I 10.0.0.2 --from 10.0.0.3 10.0.0.1" "-c -a" "-q -c -a 10.0.0.1"; do
	# shellcheck disable=SC2086
	run_rc "$FABTOP" probe $args
	if [ "$rc" = 2 ] && [ -s "$T/err" ] && ! grep -q . "$T/out"; then
		ok "usage error exits 2 with a message: probe $args"
	else
		not_ok "usage error exits 2 with a message: probe $args"
		diag "rc=$rc" "stderr: $(cat "$T/err")" "stdout: $(cat "$T/out")"
	fi
done

# rping's rules, each with a message that names the option (the loop above checks the exit status)
rping_rule() {
	run_rc "$FABTOP" probe "$@"
	if [ "$rc" = 2 ] && grep -Eq -- "$want" "$T/err"; then ok "rping rule: probe $* says why"
	else not_ok "rping rule: probe $* says why"; diag "rc=$rc, wanted: $want" "stderr: $(cat "$T/err")"; fi
}
want='-a needs -s \(server\) or -c \(client\)' rping_rule -a 10.0.0.1
want='-s \(server\) and -c \(client\) together' rping_rule -s -c
want='-c needs -a ADDR' rping_rule -c
want="-I is the client's source address" rping_rule -s -I 10.0.0.2
want='-P is for the server' rping_rule -c -P -a 10.0.0.1
want='-a 10.0.0.1 and .10.0.0.2.: one peer only' rping_rule -c -a 10.0.0.1 10.0.0.2

# -V is rping's validate inside probe, not the global --version; --version still is.
run_rc "$FABTOP" probe -V
assert_eq "probe -V is no --version: without a peer it is a usage error" 2 "$rc"
assert_eq "... and prints no version" "" "$(grep 'fabtop [0-9]' "$T/out" || :)"
run_rc "$FABTOP" probe --version
assert_match "probe --version prints the version" '^fabtop [0-9]' "$(cat "$T/out")"

# A howto's rping lines, on the simulated host: -c -a PEER -C N -v prints each ping's data as rping does.
run_rc timeout 10 "$FABTOP" --demo probe -c -a 172.16.16.1 -C 3 -v -V
assert_eq "rping -c -a -C -v -V: the simulated probe succeeds" 0 "$rc"
assert_eq "... -v prints the data of each of the 3 pings" 3 "$(grep -c '^\[SIMULATED\] ping data: rdma-ping-[0-9]*: ' "$T/out" || :)"
assert_match "... in rping's pattern" '^\[SIMULATED\] ping data: rdma-ping-2: CDEFGHIJKLMNOPQRSTUVWXYZ\[.\]\^_`abcdefghijklmnopqrst$' "$(cat "$T/out")"
run_rc timeout 10 "$FABTOP" --demo probe 172.16.16.1 -C 3
assert_eq "without -v no ping data" "" "$(grep 'ping data' "$T/out" || :)"

# -d: the settings in force. -c pings until ^C as rping does (no -C), -s serves one client (rping -s), -P until ^C.
run_rc timeout -s INT 2 "$FABTOP" --demo probe -c -a 172.16.16.1 -d
assert_match "rping -c without -C pings until ^C" '^\[SIMULATED\] debug: client, rping mode, port 7174, 64-byte messages, count 0 \(until \^C\), peer 172\.16\.16\.1$' "$(cat "$T/out")"
assert_match "... and the first line says so" '^\[SIMULATED\] fabtop probe: 172\.16\.16\.1 port 7174, rping mode, until \^C$' "$(cat "$T/out")"
run_rc timeout 10 "$FABTOP" --demo probe -c -a 172.16.16.1 -I 172.16.34.2 -p 7175 -C 4 -S 100 -d
assert_match "-I is the source, -p the port, -C the count, -S the size" \
	'debug: client, rping mode, port 7175, 100-byte messages, count 4, peer 172\.16\.16\.1, source 172\.16\.34\.2$' "$(cat "$T/out")"
run_rc timeout 10 "$FABTOP" --demo probe -s -a 10.1.2.3 -p 7175 -d
assert_match "-s -a: a server bound to -a's address, for one client" '^\[SIMULATED\] debug: server, port 7175, bind 10\.1\.2\.3, one client$' "$(cat "$T/out")"
run_rc timeout 10 "$FABTOP" --demo probe -s -P -d
assert_match "-s -P: a server until ^C" '^\[SIMULATED\] debug: server, port 7174, bind any, clients until \^C$' "$(cat "$T/out")"

# A server says it serves only once it listens: the demo (no peer can reach it) and a host
# without RDMA fail before, and say why instead.
run_rc timeout 10 "$FABTOP" --demo probe -s
assert_eq "a server that cannot listen exits 1" 1 "$rc"
assert_eq "... and never says it serves" "" "$(grep 'serving on' "$T/out" || :)"
assert_match "... but that it is not serving, and why" 'result: FAILED: ERROR: the demo fabric is simulated.*\(not serving\)$' "$(cat "$T/out")"

# A failed connect prints the words rping prints, beside the decoded reason (text and JSON).
run_rc timeout 10 "$FABTOP" --demo two-nics probe -c -a 172.16.16.1 -I 172.16.34.2 -C 1
assert_eq "the two-NIC host's second address is REJECTED" 1 "$rc"
assert_match "... with the decoded reason" 'REJECTED +reason 8 \(invalid service ID\)' "$(cat "$T/out")"
assert_match "... and rping's own line" '^  \[SIMULATED\] +rping says: cma event RDMA_CM_EVENT_REJECTED, error 8$' "$(cat "$T/out")"
run_rc timeout 10 "$FABTOP" --demo two-nics --json probe -c -a 172.16.16.1 -I 172.16.34.2 -C 1
assert_json "--json: rping_error holds rping's line" "$T/out" '.rping_error == "cma event RDMA_CM_EVENT_REJECTED, error 8"'
run_rc timeout 10 "$FABTOP" --demo --json probe 172.16.16.1 -C 1
assert_json "--json: rping_error is null when the probe worked" "$T/out" '.ok == true and .rping_error == null'
run_rc timeout 10 "$FABTOP" --demo probe 10.0.0.99 -C 1
assert_match "ADDR_ERROR: rping's line with the event's status" 'rping says: cma event RDMA_CM_EVENT_ADDR_ERROR, error -19$' "$(cat "$T/out")"
run_rc timeout 10 "$FABTOP" --demo probe 172.16.16.1 -C 1 --from 10.9.9.9
assert_eq "a failure rping reports with other words (no event) has no rping line" "" "$(grep 'rping says' "$T/out" || :)"

# A link-local address's %IFACE that is no interface is named as such.
run_rc timeout 10 "$FABTOP" probe 'fe80::1%nosuchif' -C 1 --timeout-ms 300
assert_eq "probe fe80::1%nosuchif fails" 1 "$rc"
assert_match "... naming the unknown interface" "ADDR_ERROR +cannot resolve 'fe80::1%nosuchif': no interface 'nosuchif' on this host" "$(cat "$T/out")"

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

run_rc timeout 20 "$FABTOP" probe --listen 127.0.0.1 --once --timeout-ms 500
if [ "$rc" = 1 ]; then
	assert_eq "a server that cannot listen here never says it serves" "" "$(grep 'serving on' "$T/out" || :)"
else
	skip "this machine can listen over RDMA (rc=$rc): covered by tests/vm"
fi
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
