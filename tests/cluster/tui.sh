#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Cluster pane against a fake Prometheus on 127.0.0.1: three hosts show;
# the server stopped, the pane says it cannot be reached and the monitor
# still answers keys; a server that never answers times out without
# freezing anything; the server back, the rows come back.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed (tools/debian-packages lists it)"
FAKE="$TOP_SRCDIR/tests/cluster/fake-prom.py"
SRV_PID=
# The fake exits by itself after --lifetime; the trap ends it sooner.
cleanup_add '[ -z "$SRV_PID" ] || kill $SRV_PID 2>/dev/null'

# fake_start [ARGS...]: a fake Prometheus for alpha, bravo and charlie; PORT is where it listens.
fake_start() {
	rm -f "$T/port"
	python3 "$FAKE" --names alpha,bravo,charlie --lifetime 120 --port "${PORT:-0}" \
		--port-file "$T/port" "$@" 2>"$T/fake.err" &
	SRV_PID=$!
	_d=$(( $(date +%s) + 10 ))
	until [ -s "$T/port" ]; do
		kill -0 "$SRV_PID" 2>/dev/null || return 1
		[ "$(date +%s)" -lt "$_d" ] || return 1
		sleep 0.05
	done
	PORT=$(cat "$T/port")
}
fake_stop() {
	kill "$SRV_PID" 2>/dev/null || :
	wait "$SRV_PID" 2>/dev/null || :
	SRV_PID=
}

fake_start || skip_all "the fake Prometheus does not start: $(cat "$T/fake.err")"
URL="http://127.0.0.1:$PORT"
# A proxy from the environment must not take loopback requests elsewhere.
tui_start 140 30 no_proxy=127.0.0.1 NO_PROXY=127.0.0.1 -- --demo --interval 1 --prometheus "$URL" --pane cluster
tui_expect "the Cluster pane shows alpha" "alpha:9879"
tui_expect "bravo" "bravo:9879"
tui_expect "and charlie" "charlie:9879"
tui_expect "the status line counts them" "3 hosts, 6 ports"
tui_expect "bravo's down port shows DOWN" "DOWN"
assert_match "with its error delta and findings" "bravo:9879 +mlx5_0 +2 DOWN .* 17 .* 2$" "$(tui_line "DOWN")"
assert_match "a far end from fabtop_link_partner_info" "leaf00 port 11" "$(tui_line "alpha:9879")"

tui_keys Enter
tui_expect "Enter: the port's series from Prometheus" "fabtop_port_rate_bytes_per_second"
tui_keys Escape
tui_expect_gone "Esc closes the details" "fabtop_port_rate_bytes_per_second"

fake_stop
tui_expect "the server stopped: the pane says so" "cannot be reached"
tui_expect "and keeps the earlier rows, marked" "The rows below are from"
tui_keys 1
tui_expect "the monitor still takes keys (1: Ports)" "PHYSICAL"
tui_keys 8
tui_expect "and back (8: Cluster)" "cannot be reached"

# Same port, never answering: the loop must keep running while the request waits.
fake_start --hang || { not_ok "the hanging fake restarts on port $PORT"; diag "$(cat "$T/fake.err")"; }
tui_keys r
tui_expect "r: asking now" "asking $URL now" 3
tui_keys 3
tui_expect "a request in flight to a silent server blocks no key (3: GIDs, within 3 s)" "IPV4" 3
tui_keys 8
tui_expect "the silent server times out (5 s)" "no answer within 5 s" 15
fake_stop

fake_start || { not_ok "the fake restarts on port $PORT"; diag "$(cat "$T/fake.err")"; }
tui_expect_gone "the server back: the error goes" "cannot be reached" 15
tui_expect "and the rows are fresh again" "3 hosts, 6 ports"
tui_expect "charlie included" "charlie:9879"
tui_quit >/dev/null || :
tui_expect_exit "clean exit" 0
done_testing
