#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: time of one fabric sweep and MADs sent, on the ibsim fabrics
# of tests/data/ibsim (min/median/max of 20 sweeps each).
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
SAMPLE="$TOP_BUILDDIR/tests/mad/mad_sample"
[ -x "$SAMPLE" ] || skip_all "$SAMPLE is not built (make bench builds it)"

bench() {	# NETFILE SM_HOST FROM_HOST
	IBSIM_SOCKNAME="fabtop$$-$(basename "$1" .net)"
	export IBSIM_SOCKNAME
	ibsim_start "$1"
	opensm_start "$2"
	port_active "$3"
	for _ in $(seq 20); do
		fab_helper "$3" "$SAMPLE" sweep 4096 | sed -n 's/.*nodes=\([0-9]*\) links=\([0-9]*\).*sweep_ms=\([0-9.]*\) sweep_mads=\([0-9]*\).*/\1 \2 \3 \4/p'
	done | sort -n -k3 >"$T/sweeps"
	# A sweep that found nothing is a broken run, not a figure.
	awk '$1 > 0 && $2 > 0 && $4 > 0' "$T/sweeps" >"$T/good"
	[ "$(wc -l <"$T/good")" -eq 20 ] || {
		echo "bench: $(basename "$1"): $(wc -l <"$T/good") of 20 sweeps found the fabric" >&2
		exit 1
	}
	awk -v f="$(basename "$1")" '
		{ ms[NR] = $3; n = $1; l = $2; m = $4 }
		END { printf "%s: %d nodes, %d links, %d MADs per sweep; sweep time min %.1f ms, median %.1f ms, max %.1f ms (%d runs)\n",
			f, n, l, m, ms[1], ms[int((NR + 1) / 2)], ms[NR], NR }' "$T/good"
	stop_pid "$OSM_PID"
	stop_pid "$IBSIM_PID"
	exec 7>&-
	rm -rf "$T/osm" "$T/ibsim.console" "$T/ibsim.log"
}

bench "$DATA/ibsim/two-switch.net" SmHost HostA
bench "$DATA/ibsim/fat-tree.net" h1 h0
trap - EXIT
rm -rf "$T"
