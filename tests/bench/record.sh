#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: a recording's size per hour and CPU per sample, on the demo
# fabric and on the 64-port bench tree with every counter moving, beside a
# CSV recorder of the same counters. Goal: <= 1 MB/hour for a 4-port host at 1 s.
set -eu
B="$TOP_BUILDDIR/tests/bench/bench_record"
[ -x "$B" ] || { echo "bench: $B is not built (make bench builds it)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/fabtop-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$B" demo "$T" | tee "$T/demo.out"
"$TOP_BUILDDIR/tests/bench/bench_collect" --generate "$T/sys"
"$B" "$T/sys" "$T" | tee "$T/tree.out"
grep -q "goal: .*met" "$T/demo.out" || { echo "bench: the demo recording misses its goal" >&2; exit 1; }
