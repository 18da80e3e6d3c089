# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the exporter's tests (sourced after tests/setup.sh): start a
# `fabtop export` on a free loopback port, scrape it, stop it.

# start_exporter NAME ARGS...: fabtop [ARGS] export --listen 127.0.0.1:0 in
# the background; sets NAME_pid and NAME_addr (host:port) once it listens.
start_exporter() {
	_n=$1; shift
	"$FABTOP" "$@" --listen 127.0.0.1:0 >"$T/$_n.out" 2>"$T/$_n.err" &
	eval "${_n}_pid=$!"
	cleanup_add "stop_bounded $!"
	_i=0
	while [ $_i -lt 200 ]; do
		# The background shell may not have created the file yet: a
		# failing sed must not end the test under set -e.
		_a=$(sed -n 's/^fabtop export: listening on \([0-9.:]*\) .*/\1/p' "$T/$_n.out" 2>/dev/null || :)
		if [ -n "$_a" ]; then
			eval "${_n}_addr=$_a"
			return 0
		fi
		kill -0 "$(eval echo \$${_n}_pid)" 2>/dev/null || break
		sleep 0.05
		_i=$((_i + 1))
	done
	diag "exporter $_n did not start:" "$(cat "$T/$_n.out" "$T/$_n.err")"
	return 1
}

# stop_bounded PID: SIGTERM, up to 5 s to go, then SIGKILL: a test never hangs on a process.
stop_bounded() {
	kill "$1" 2>/dev/null || return 0
	_k=0
	while kill -0 "$1" 2>/dev/null && [ $_k -lt 50 ]; do sleep 0.1; _k=$((_k + 1)); done
	kill -9 "$1" 2>/dev/null || :
	wait "$1" 2>/dev/null || :
}

# scrape ADDR [CURL ARGS...]: the body of /metrics on stdout (bounded in time).
scrape() {
	_a=$1; shift
	curl -sS --max-time 10 "$@" "http://$_a/metrics"
}

# metric FILE SELECTOR: the value of the one sample whose line starts with SELECTOR.
metric() {
	awk -v s="$2" 'index($0, s) == 1 { print $NF; exit }' "$1"
}
