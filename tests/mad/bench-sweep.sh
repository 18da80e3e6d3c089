#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: time of one fabric sweep and MADs sent, on the ibsim fabrics
# of tests/data/ibsim (min/median/max of 20 sweeps each).
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
SAMPLE="$TOP_BUILDDIR/tests/mad/mad_sample"

bench() {	# NETFILE SM_HOST FROM_HOST
	IBSIM_SOCKNAME="fabtop$$-$(basename "$1" .net)"
	export IBSIM_SOCKNAME
	ibsim_start "$1"
	opensm_start "$2"
	port_active "$3"
	for _ in $(seq 20); do
		fab_helper "$3" "$SAMPLE" sweep 4096 | sed -n 's/.*nodes=\([0-9]*\) links=\([0-9]*\).*sweep_ms=\([0-9.]*\) sweep_mads=\([0-9]*\).*/\1 \2 \3 \4/p'
	done | sort -n -k3 | awk -v f="$(basename "$1")" '
		{ ms[NR] = $3; n = $1; l = $2; m = $4 }
		END { printf "%s: %d nodes, %d links, %d MADs per sweep; sweep time min %.1f ms, median %.1f ms, max %.1f ms (%d runs)\n",
			f, n, l, m, ms[1], ms[int((NR + 1) / 2)], ms[NR], NR }'
	stop_pid "$OSM_PID"
	stop_pid "$IBSIM_PID"
	exec 7>&-
	rm -rf "$T/osm" "$T/ibsim.console" "$T/ibsim.log"
}

bench "$DATA/ibsim/two-switch.net" SmHost HostA
bench "$DATA/ibsim/fat-tree.net" h1 h0
trap - EXIT
rm -rf "$T"
