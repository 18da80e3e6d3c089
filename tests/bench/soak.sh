#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: the soak. The monitor (in tmux, switching panes now and then)
# and `fabtop export` run together in a network namespace of their own for
# FABTOP_SOAK_S seconds (default 600), on a fixture tree whose devices and
# ports vanish and come back every 2 s while its counters move, with
# addresses, routes, rules and link states changing over rtnetlink every
# 200 ms and a scrape of the exporter every 100 ms. Goals: RSS and open fds
# of both processes at the end within 1% of their value after the first
# minute, every scrape answered, both processes alive to the end and exiting
# cleanly, and, in a sanitizer build (configure --enable-sanitizers), no
# ASan/UBSan/LSan report on their stderr. The first minute is a warm-up
# that fills the monitor's bounded event log (doc/monitor.md, "A long run:
# the soak"). Needs root (namespaces), tmux, python3 and curl; without them
# it fails with the reason.
. "$TOP_SRCDIR/tests/setup.sh"
[ "$(id -u)" = 0 ] || skip_all "needs root to create a network namespace (the rtnetlink churn runs in one)"
command -v ip >/dev/null 2>&1 || skip_all "iproute2 (ip) is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed (tools/debian-packages lists it)"
command -v curl >/dev/null 2>&1 || skip_all "curl is not installed (tools/debian-packages lists it)"
. "$TOP_SRCDIR/tests/tui/lib.sh"

S=${FABTOP_SOAK_S:-600}
case $S in '' | *[!0-9]*) skip_all "FABTOP_SOAK_S must be whole seconds, not '$S'" ;; esac
[ "$S" -ge 20 ] || skip_all "FABTOP_SOAK_S=$S is too short (at least 20 s)"
# The reference sample: after the first minute (half the run when shorter).
W=60
[ "$S" -ge 120 ] || W=$((S / 2))

NS="fabsoak$$"
ip netns add "$NS" 2>/dev/null || skip_all "cannot create a network namespace here (ip netns add $NS failed)"
cleanup_add "ip netns del $NS 2>/dev/null"
# Background loops stop when this file goes (or at exit).
touch "$T/run"
bg=""
cleanup_add 'rm -f "$T/run"; for p in $bg; do kill $p 2>/dev/null; done; wait 2>/dev/null'

san=no
if grep -aq __asan_init "$FABTOP"; then san=yes; fi
# Reports go to stderr (kept in a file per process); leaks are reported at
# exit. ASan keeps freed memory poisoned in a quarantine of up to 256 MB by
# default, which fills for minutes and would read as growth (the exporter:
# +45% in 10 minutes); with 1 MB the RSS is fabtop's own again, and every
# other check stays (ASAN_OPTIONS given here come after, and win).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:quarantine_size_mb=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

# The tree: five devices of the fixture trees (IB with two ports, RoCE and
# Soft-RoCE, iWARP, a switch) in one sysfs.
for t in ib-2port roce iwarp switch; do
	cp -R "$DATA/trees/$t/." "$T/sys/" 2>/dev/null || { mkdir -p "$T/sys"; cp -R "$DATA/trees/$t/." "$T/sys/"; }
done
chmod -R u+w "$T/sys"
mkdir -p "$T/stash"
ndev=$(ls "$T/sys/class/infiniband" | wc -l)
[ "$ndev" = 5 ] || skip_all "the soak tree has $ndev devices, not 5"
counters=$(find "$T/sys/" -path '*/counters/port_*_data' -o -path '*/counters/port_*_packets' -o -path '*/hw_counters/*' | grep -v /stash/)
[ -n "$counters" ] || skip_all "no counter file in the soak tree"
ib=$T/sys/class/infiniband
# What vanishes and comes back, in turn: whole devices (their class link)
# and single ports.
set -- "$ib/mlx5_0" "$ib/mlx4_0/ports/2" "$ib/rxe0" "$ib/iwp3s0/ports/1" "$ib/switch0" "$ib/mlx5_0/ports/1"
for v in "$@"; do [ -e "$v" ] || skip_all "the soak tree has no $v"; done
kinds=$#

# The namespace: loopback up, a veth pair for the churn, named as the
# tree's RoCE netdevs (mlx5_0's and rxe0's), so its changes are RDMA events.
ip -n "$NS" link set lo up
ip -n "$NS" link add enp65s0f0 type veth peer name eth1 || skip_all "cannot create a veth pair in $NS"
ip -n "$NS" link set enp65s0f0 up
ip -n "$NS" link set eth1 up
ip -n "$NS" addr add 10.200.0.1/24 dev enp65s0f0

# The exporter, collecting every 0.5 s.
ip netns exec "$NS" "$FABTOP" --sysfs "$T/sys" export --listen 127.0.0.1:0 --interval 0.5 \
	>"$T/export.out" 2>"$T/export.err" &
epid=$!
bg="$bg $epid"
i=0; while [ $i -lt 200 ] && ! grep -q 'listening on' "$T/export.out"; do sleep 0.05; i=$((i + 1)); done
eaddr=$(sed -n 's/^fabtop export: listening on \([0-9.:]*\) .*/\1/p' "$T/export.out")
[ -n "$eaddr" ] || skip_all "fabtop export did not start: $(cat "$T/export.out" "$T/export.err")"

# The monitor, refreshing every 0.5 s, in tmux at 120x40.
TUI_WRAP="ip netns exec $NS"
tui_start 120 40 "ASAN_OPTIONS=$ASAN_OPTIONS" "UBSAN_OPTIONS=$UBSAN_OPTIONS" -- \
	--sysfs "$T/sys" --interval 0.5 "2>$T/monitor.err"
tui_wait mlx4_0 20 || skip_all "the monitor did not show the tree: $(cat "$T/screen" "$T/monitor.err")"
mpid=$(tui_app_pid) || skip_all "the monitor's pid was not found"
[ "$(cat "/proc/$mpid/comm")" = fabtop ] || skip_all "pid $mpid is $(cat "/proc/$mpid/comm"), not fabtop"

# Churn in sysfs, every 2 s: the next device or port vanishes (moved out of
# the tree), the one gone before comes back; every counter moves.
(
	set +e
	n=0 gone=""
	while [ -e "$T/run" ]; do
		if [ -n "$gone" ]; then
			mv "$T/stash/x" "$gone"
			gone=""
		else
			k=$((n % $# + 1))
			eval "gone=\${$k}"
			mv "$gone" "$T/stash/x"
		fi
		n=$((n + 1))
		# Whole again: wait while the sampler holds the tree still.
		if [ -z "$gone" ]; then
			touch "$T/whole"
			while [ -e "$T/hold" ] && [ -e "$T/run" ]; do sleep 0.1; done
			rm -f "$T/whole"
		fi
		for f in $counters; do
			if [ -e "$f" ]; then echo $((n * 4099)) >"$f"; fi
		done
		sleep 2
	done
	[ -z "$gone" ] || mv "$T/stash/x" "$gone"
) &
bg="$bg $!"

# rtnetlink churn, every 200 ms: an address and a route come, the previous
# ones go; every 10th step a policy rule comes or goes and the veth flaps.
(
	set +e
	n=0
	while [ -e "$T/run" ]; do
		a=$((n % 200 + 1)) p=$(((n + 199) % 200 + 1))
		ip -n "$NS" addr add "10.201.$a.1/24" dev enp65s0f0
		ip -n "$NS" route add "10.202.$a.0/24" via "10.201.$a.2" dev enp65s0f0
		if [ $n -gt 0 ]; then
			ip -n "$NS" route del "10.202.$p.0/24" 2>/dev/null
			ip -n "$NS" addr del "10.201.$p.1/24" dev enp65s0f0
		fi
		case $((n % 20)) in
		0) ip -n "$NS" rule add from 10.200.0.1 table 100 priority 100; ip -n "$NS" link set eth1 down ;;
		10) ip -n "$NS" rule del priority 100; ip -n "$NS" link set eth1 up ;;
		esac
		n=$((n + 1))
		sleep 0.2
	done
	echo $n >"$T/netlink.steps"
) >"$T/netlink.log" 2>&1 &
bg="$bg $!"

# The warm-up, in the first 15 s: bursts of 250 addresses come and go
# (6 rounds, a second apart), so the monitor's event log (the last 4096
# events) is full before the reference sample: a bounded log still filling
# would read as growth. The Events pane is shown after it (key 7, at W-10 s)
# so its table too has every kept event when the reference is taken.
(
	set +e
	r=0
	while [ -e "$T/run" ] && [ $r -lt 6 ]; do
		i=1; : >"$T/burst.add"; : >"$T/burst.del"
		while [ $i -le 250 ]; do
			echo "addr add 10.203.$r.$i/32 dev enp65s0f0" >>"$T/burst.add"
			echo "addr del 10.203.$r.$i/32 dev enp65s0f0" >>"$T/burst.del"
			i=$((i + 1))
		done
		ip -n "$NS" -batch "$T/burst.add"; sleep 1
		ip -n "$NS" -batch "$T/burst.del"; sleep 1
		r=$((r + 1))
	done
) >"$T/burst.log" 2>&1 &
bg="$bg $!"

# The scraper stops by itself after the run.
ip netns exec "$NS" python3 "$TOP_SRCDIR/tests/bench/soak-scrape.py" "$eaddr" "$S" "$T/hold" \
	>"$T/scrape.out" 2>"$T/scrape.err" &
spid=$!
bg="$bg $spid"

# hold: the churn in sysfs pauses with the tree whole, and both processes
# have seen it whole (two collections), so that every sample finds the same
# files open; the scraper waits too, so no connection is open. release: the
# churn and the scrapes go on.
hold() {
	touch "$T/hold"
	_i=0; while [ $_i -lt 100 ] && ! [ -e "$T/whole" ]; do sleep 0.1; _i=$((_i + 1)); done
	sleep 1.2
}
release() { rm -f "$T/hold"; }
# sample PID: "RSS_KB FDS" of a live process, or nothing. The fds are the
# fewest of five counts 0.2 s apart: a collection in progress holds a file
# or a directory open for a moment, a leak holds it for good.
sample() {
	_r=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status" 2>/dev/null) || return 0
	_f="" _k=0
	while [ $_k -lt 5 ]; do
		_c=$(ls "/proc/$1/fd" 2>/dev/null | wc -l)
		if [ -z "$_f" ] || [ "$_c" -lt "$_f" ]; then _f=$_c; fi
		_k=$((_k + 1))
		[ $_k -lt 5 ] && sleep 0.2
	done
	[ -n "$_r" ] && echo "$_r $_f"
}
# events: how many events the exporter has derived so far (the monitor
# derives the same ones from the same tree and namespace into its own log).
events() {
	ip netns exec "$NS" curl -s -m 5 "http://$eaddr/metrics" 2>/dev/null |
		awk '/^fabtop_events_total[{ ]/ { n += $NF } END { print n + 0 }'
}
alive() { [ -d "/proc/$1" ] && [ "$(cat "/proc/$1/comm" 2>/dev/null)" = fabtop ]; }

# The run: a pane switch every 7 s, a row's details opened and closed
# every 30 s, a sample a minute (the trend) and at W and at the end.
t0=$(date +%s)
el=0 next_key=7 next_det=30 next_min=${FABTOP_SOAK_TREND_S:-60} died=""
: >"$T/trend"
while [ "$el" -lt "$S" ]; do
	sleep 1
	el=$(( $(date +%s) - t0 ))
	alive "$mpid" || { died="$died monitor"; break; }
	alive "$epid" || { died="$died export"; break; }
	if [ "$el" -ge "$next_key" ]; then tui_keys Tab; next_key=$((next_key + 7)); fi
	if [ -z "${shown_events:-}" ] && [ "$el" -ge $((W - 10)) ]; then
		tui_keys 7; shown_events=1; next_key=$((el + 7))
	fi
	if [ "$el" -ge "$next_det" ]; then
		tui_keys Down Enter; sleep 0.5; tui_keys Escape
		next_det=$((next_det + 30))
	fi
	if [ -z "${m1:-}" ] && [ "$el" -ge "$W" ]; then
		hold; m1=$(sample "$mpid"); e1=$(sample "$epid"); ev1=$(events); release
	fi
	if [ "$el" -ge "$next_min" ]; then
		hold; echo "$el $(sample "$mpid") $(sample "$epid")" >>"$T/trend"; release
		next_min=$((next_min + ${FABTOP_SOAK_TREND_S:-60}))
	fi
done
hold; m2=$(sample "$mpid"); e2=$(sample "$epid"); ev2=$(events); release
el=$(( $(date +%s) - t0 ))

# The end: the scraper's count, the churn stopped, both processes asked to
# quit (q; SIGTERM) and their exit statuses and stderr read.
wait "$spid" 2>/dev/null || :
set -- $(cat "$T/scrape.out" 2>/dev/null) 0 0 0
answered=$1 scrapes=$2 worst=$3
rm -f "$T/run"
tui_keys q
tui_wait "FABTOP-EXIT=" 60 || :
mrc=$(tui_exit_status)
kill -TERM "$epid" 2>/dev/null || :
erc=0; wait "$epid" || erc=$?
sleep 2.5	# the churn loops see the run is over (their last step puts the tree back)
nl_steps=$(cat "$T/netlink.steps" 2>/dev/null || echo "?")

pct() { echo "$1 $2" | awk '{ if ($1 == 0) print "n/a"; else printf "%+.2f", ($2 - $1) * 100 / $1 }'; }
within() { echo "$1 $2" | awk '{ d = $2 - $1; if (d < 0) d = -d; exit !($1 > 0 && d * 100 <= $1) }'; }

fail=0
echo "soak: ${el} s (FABTOP_SOAK_S=$S), reference sample at ${W} s; sanitizers: $san; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "churn: a device or port vanished or came back every 2 s ($kinds places), $(echo "$counters" | wc -w) counters moved; rtnetlink: $nl_steps steps of 200 ms"
if [ -n "$died" ]; then
	echo "bench: FAILED:$died died during the run (at $el s)"
	fail=1
fi
printf '%-8s %12s %12s %9s %9s %9s\n' process "RSS@${W}s kB" "RSS@end kB" change "fds@${W}s" "fds@end"
for p in monitor export; do
	if [ $p = monitor ]; then a=${m1:-} b=${m2:-}; else a=${e1:-} b=${e2:-}; fi
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo "bench: FAILED: no sample of the $p (at ${W} s: '${a}', at the end: '${b}')"
		fail=1
		continue
	fi
	set -- $a $b
	printf '%-8s %12s %12s %8s%% %9s %9s\n' $p "$1" "$3" "$(pct "$1" "$3")" "$2" "$4"
	within "$1" "$3" || { echo "bench: FAILED: the $p's RSS went from $1 kB to $3 kB (goal: within 1%)"; fail=1; }
	within "$2" "$4" || { echo "bench: FAILED: the $p's open fds went from $2 to $4 (goal: within 1%)"; fail=1; }
done
echo "trend (s, monitor RSS kB fds, export RSS kB fds):" $(sed 's/$/;/' "$T/trend")
echo "events derived: ${ev1:-?} by ${W} s, ${ev2:-?} by the end (the monitor keeps the last 4096, the exporter 64)"
if [ "${ev1:-0}" -lt 4096 ]; then
	echo "bench: FAILED: the warm-up derived ${ev1:-no} events, fewer than the monitor's log keeps (4096): its growth would be read as a leak"
	fail=1
fi
echo "scrapes: $answered of $scrapes answered (every 100 ms), slowest ${worst} ms"
if [ "$scrapes" -lt $((S * 5)) ] || [ "$answered" != "$scrapes" ]; then
	echo "bench: FAILED: $answered of $scrapes scrapes answered (goal: all, about $((S * 10)))"
	sed 's/^/  /' "$T/scrape.err"
	fail=1
fi
echo "exit: monitor ${mrc:-none} (q), export $erc (SIGTERM)"
[ "$mrc" = 0 ] || { echo "bench: FAILED: the monitor exited ${mrc:-not at all} after q"; sed 's/^/  /' "$T/screen"; fail=1; }
[ "$erc" = 0 ] || { echo "bench: FAILED: the export exited $erc after SIGTERM"; fail=1; }
reports=$(grep -lE 'ERROR: (Address|Leak)Sanitizer|Sanitizer has encountered|runtime error:|SUMMARY: (Address|Leak|UndefinedBehavior)Sanitizer' \
	"$T/monitor.err" "$T/export.err" 2>/dev/null || :)
if [ $san = yes ]; then
	if [ -z "$reports" ]; then
		echo "sanitizers: no ASan/UBSan/LSan report from either process"
	else
		echo "bench: FAILED: sanitizer reports:"
		for f in $reports; do sed 's/^/  /' "$f" | head -n 60; done
		fail=1
	fi
else
	echo "sanitizers: not in this build (configure --enable-sanitizers for the sanitizer run)"
	[ -z "$reports" ] || { echo "bench: FAILED: sanitizer-like reports on stderr:"; cat $reports; fail=1; }
fi
[ $fail = 0 ] && echo "soak: PASS" || echo "soak: FAIL"
exit $fail
