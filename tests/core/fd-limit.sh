#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 54 RDMA ports (as NCCL nodes have) x 60 counters under a small fd limit:
# every counter is read at collection and at every refresh, none is
# reported unreadable (past the fd budget counters are reopened each time).
. "$TOP_SRCDIR/tests/setup.sh"

R="$T/sys"
d=0
while [ $d -lt 27 ]; do
	for p in 1 2; do
		P="$R/class/infiniband/mlx5_$d/ports/$p"
		mkdir -p "$P/counters" "$P/hw_counters"
		printf '4: ACTIVE\n' >"$P/state"
		printf '5: LinkUp\n' >"$P/phys_state"
		printf 'InfiniBand\n' >"$P/link_layer"
		printf '100 Gb/sec (4X EDR)\n' >"$P/rate"
		c=0
		while [ $c -lt 30 ]; do
			printf '%s\n' $((d * 1000 + c)) >"$P/counters/port_c$c"
			printf '%s\n' $((d * 1000 + c)) >"$P/hw_counters/hw_c$c"
			c=$((c + 1))
		done
	done
	d=$((d + 1))
done

known() { jq '[.ports[].counters[] | select(.value != null)] | length'; }
# The hard limit too, so fabtop cannot raise it: 256 descriptors for 3240 counter files.
run_rc sh -c 'ulimit -n 256 && exec "$@"' sh "$FABTOP" show counters --json --sysfs "$R"
assert_eq "show counters under ulimit -n 256: exit 0" 0 "$rc"
assert_eq "all 54 ports" 54 "$(jq '.ports | length' "$T/out")"
assert_eq "all 3240 counters read" 3240 "$(known <"$T/out")"
assert_eq "none reported unreadable" "" "$(grep -i unreadable "$T/err" | head -3)"

run_rc sh -c 'ulimit -n 256 && exec "$@"' sh "$FABTOP" show counters --json --sysfs "$R" --count 2 --interval 0.1
assert_eq "show counters --count 2 under ulimit -n 256: exit 0" 0 "$rc"
assert_eq "the last refresh read all 3240 counters too" 3240 "$(tail -1 "$T/out" | known)"
done_testing
