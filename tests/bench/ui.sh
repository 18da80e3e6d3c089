#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: CPU time of the monitor per refresh at a 1 s interval on the
# large generated tree (32 devices x 2 ports x 1024 GIDs), measured from
# /proc/PID/stat while it runs in a private tmux server, plus its CPU while
# paused (idle must be near zero).
set -eu
command -v tmux >/dev/null 2>&1 || { echo "bench: tmux is not installed (tools/debian-packages lists it)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/fabtop-uibench.XXXXXX")
SOCK="fabtop-bench-$$"
trap 'tmux -L "$SOCK" kill-server >/dev/null 2>&1 || :; rm -rf "$T"' EXIT
SECS=${FABTOP_BENCH_SECS:-20}

sh "$TOP_SRCDIR/tests/bench/gen-tree.sh" "$T/sys" >/dev/null
TCK=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
wait_for() {	# wait_for TEXT: poll the screen with a deadline
	d=$(( $(date +%s) + 60 ))
	until tmux -L "$SOCK" capture-pane -p -t b | grep -Fq -- "$1"; do
		[ "$(date +%s)" -lt "$d" ] || { echo "bench: timed out waiting for '$1'"; exit 1; }
		sleep 0.1
	done
}

for pane in counters gids; do
	tmux -L "$SOCK" -f /dev/null new-session -d -s b -x 160 -y 50 \
		"env TERM=screen XDG_CONFIG_HOME=$T/cfg $FABTOP --sysfs $T/sys --interval 1 --pane $pane; sleep 600"
	start=$(date +%s.%N)
	wait_for "F10Quit"
	pp=$(tmux -L "$SOCK" list-panes -t b -F '#{pane_pid}')
	pid=
	for d in /proc/[0-9]*; do	# fabtop is the pane shell's child (no procps needed)
		[ "$(cut -d' ' -f4 "$d/stat" 2>/dev/null)" = "$pp" ] && pid=${d#/proc/} && break
	done
	[ -n "$pid" ] || { echo "bench: fabtop's pid not found"; exit 1; }
	startup=$(cpu_ticks "$pid")
	ready=$(date +%s.%N)
	sleep "$SECS"
	c1=$(cpu_ticks "$pid")
	tmux -L "$SOCK" send-keys -t b p
	wait_for "PAUSED"
	p0=$(cpu_ticks "$pid")
	sleep 5
	p1=$(cpu_ticks "$pid")
	awk -v s="$startup" -v c="$c1" -v n="$SECS" -v t="$TCK" -v p0="$p0" -v p1="$p1" \
	    -v w0="$start" -v w1="$ready" -v pane="$pane" 'BEGIN {
		printf "monitor (%s pane, 64 ports, 65536 GIDs, 1 s interval): %.0f ms CPU until it showed (%.1f s; monitor.sh times the frames)\n",
			pane, s * 1000 / t, w1 - w0
		printf "  %.1f ms CPU per refresh (mean over %d s; includes the 5 s structure checks)\n",
			(c - s) * 1000 / t / n, n
		printf "  paused: %.1f ms CPU per second\n", (p1 - p0) * 1000 / t / 5
	}'
	tmux -L "$SOCK" kill-server >/dev/null 2>&1 || :
	sleep 0.5
done
