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

# until_metric ERE [SECONDS]: scrape $addr into $T/m.prom until a line matches (20 s).
until_metric() {
	_end=$(( $(date +%s) + ${2:-20} ))
	while :; do
		scrape "$addr" -o "$T/m.prom" 2>/dev/null || :
		grep -Eq -- "$1" "$T/m.prom" 2>/dev/null && return 0
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.1
	done
}

# fabric_exporter NAME FABRIC_INTERVAL [SHIM]: `fabtop export --fabric` of h11
# under umad2sim (tests/mad/ibsim-lib.sh; SHIM: a library preloaded just
# before umad2sim, so an ASan runtime stays first); its output in
# $T/NAME.out and .err; sets EXP_PID and addr.
fabric_exporter() {
	_pre=$FAB_PRELOAD
	[ -z "${3:-}" ] || _pre=$(printf '%s' "$FAB_PRELOAD" | sed "s|$UMAD2SIM|$3:$UMAD2SIM|")
	(cd "$RUN" && SIM_HOST=h11 LD_PRELOAD="$_pre" exec "$FABTOP" --sysfs "$HOLD_SYS" \
		export --listen 127.0.0.1:0 --interval 0.5 --fabric --fabric-interval "$2") >"$T/$1.out" 2>"$T/$1.err" &
	EXP_PID=$!
	cleanup_add "stop_pid $EXP_PID"
	wait_for 20 grep -q 'listening on' "$T/$1.out" || diag "$(cat "$T/$1.out" "$T/$1.err")"
	addr=$(sed -n 's/^fabtop export: listening on \([0-9.:]*\) .*/\1/p' "$T/$1.out")
}

# metric FILE SELECTOR: the value of the one sample whose line starts with SELECTOR.
metric() {
	awk -v s="$2" 'index($0, s) == 1 { print $NF; exit }' "$1"
}

# rule_mutants RULES CASES: promtool's unit cases CASES (tests/export/) must
# fail against each mutant of the rule file RULES (data/), read from stdin
# as WHAT@FROM@TO lines: FROM, matched literally and exactly once (a
# backslash-n is a newline), replaced by TO; one check per line.
rule_mutants() {
	mkdir -p "$T/m/data" "$T/m/tests/export"
	cp "$2" "$T/m/tests/export/"
	while IFS='@' read -r _what _from _to; do
		python3 - "$1" "$T/m/data/$(basename "$1")" "$_from" "$_to" <<'PY'
import sys
src, dst, old, new = (a.replace("\\n", "\n") for a in sys.argv[1:])
text = open(src).read()
if text.count(old) != 1:
    sys.exit("mutation text %r found %d times" % (old, text.count(old)))
open(dst, "w").write(text.replace(old, new))
PY
		if (cd "$T/m/tests/export" && timeout 120 promtool test rules "$(basename "$2")") >"$T/mut.out" 2>&1; then
			not_ok "the cases catch a rule that $_what"; diag "$(cat "$T/mut.out")"
		else
			ok "the cases catch a rule that $_what"
		fi
	done
}

# Gzip'ed scrapes (tests/export/gzip-get.py) of $addr.
OM='application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5'
# gz_get NAME AE [ACCEPT]: the page into $T/NAME (decoded), "STATUS ENCODING VARY WHOLE" into $T/NAME.h.
gz_get() {
	python3 "$TOP_SRCDIR/tests/export/gzip-get.py" "$addr" "${3:--}" "$2" "$T/$1" >"$T/$1.h" 2>&1 ||
		echo "gzip-get.py failed: $(cat "$T/$1.h")" >"$T/$1.h"
}
# gz_strip FILE: the page without the exporter's count of scrapes (the one line a scrape changes).
gz_strip() { grep -v '^fabtop_exporter_scrapes_total' "$1"; }
# gz_same_page AE [ACCEPT]: a page asked with AE equals the plain one taken
# just before and just after (retried while a publish falls in between);
# the gzip'ed one's result in $T/z.h.
gz_same_page() {
	_i=0
	while [ $_i -lt 50 ]; do
		python3 "$TOP_SRCDIR/tests/export/gzip-get.py" "$addr" "${2:--}" - "$T/p1" "$1" "$T/z" - "$T/p2" >"$T/trio.h" 2>&1 || {
			diag "gzip-get.py failed: $(cat "$T/trio.h")"
			return 1
		}
		sed -n 2p "$T/trio.h" >"$T/z.h"
		if [ "$(gz_strip "$T/p1")" = "$(gz_strip "$T/p2")" ]; then
			[ "$(gz_strip "$T/p1")" = "$(gz_strip "$T/z")" ] && return 0
			diag "$(cat "$T/z.h"): differs from the plain page: $(diff "$T/p1" "$T/z" | head -5)"
			return 1
		fi
		_i=$((_i + 1))
	done
	diag "no two plain pages alike in 50 tries"
	return 1
}
# gz_until AE [ACCEPT]: ask until the page comes gzip'ed (10 s).
gz_until() {
	_i=0
	while [ $_i -lt 100 ]; do
		gz_get z "$1" "${2:-}"
		[ "$(cut -d' ' -f2 "$T/z.h")" = gzip ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
