#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: time and syscalls of one full collection and of one counter
# refresh on the large generated tree. Goal: a refresh costs one pread per
# counter file and no allocations.
set -eu
B="$TOP_BUILDDIR/tests/bench/bench_collect"
[ -x "$B" ] || { echo "bench: $B is not built (make bench builds it)" >&2; exit 1; }
command -v strace >/dev/null 2>&1 || { echo "bench: strace is not installed (tools/debian-packages lists it)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/fabtop-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$B" --generate "$T/sys"
echo "tree: $(find "$T/sys" -type f | wc -l) files"
"$B" "$T/sys" 1000
# syscalls of a collection alone, then with 100 refreshes: the difference / 100 is one refresh
strace -f -c -o "$T/s0" "$B" "$T/sys" 0 >/dev/null
strace -f -c -o "$T/s1" "$B" "$T/sys" 100 >/dev/null
tot() { awk '$NF=="total"{print $4}' "$1"; }
cnt() { awk -v s="$2" '$NF==s{print $4 + 0}' "$1"; }
echo "full collection: $(tot "$T/s0") syscalls ($(cnt "$T/s0" openat) openat, $(cnt "$T/s0" pread64) pread64, $(cnt "$T/s0" getdents64) getdents64)"
c=$("$B" "$T/sys" 0 | sed -n 's/.* \([0-9]*\) counter files.*/\1/p')
echo "counter refresh: $(( ($(tot "$T/s1") - $(tot "$T/s0")) / 100 )) syscalls per refresh," \
	"$(( ($(cnt "$T/s1" pread64) - $(cnt "$T/s0" pread64)) / 100 )) pread64 for $c counter files"
