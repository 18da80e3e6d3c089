#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: the monitor on the large generated tree (32 devices x 2 ports x
# 1024 GIDs) from its frame log: the first frame after exec and the CPU it
# took, keys answered while the rest is read, the worst frame of the periodic
# re-collection and of one after a port change. Goals: < 50 ms each. The
# anchor, measured in the same run: main's approach, a full collection
# before the first frame and at every re-collection (bench_collect), and
# the process start alone (fabtop --version: wall, CPU, libraries loaded).
# Stock tools (ibv_devinfo -v, rdma link) cannot read a tree, so they
# cannot be the anchor here.
. "$TOP_SRCDIR/tests/setup.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed (tools/debian-packages lists it)"
B="$TOP_BUILDDIR/tests/bench/bench_collect"
[ -x "$B" ] || skip_all "$B is not built (make bench builds it)"

"$B" --generate "$T/sys" >/dev/null
full=$("$B" "$T/sys" 0)
fw=$(echo "$full" | sed -n 's/.*: \([0-9.]*\) ms wall.*/\1/p')
fc=$(echo "$full" | sed -n 's/.*wall, \([0-9.]*\) ms CPU.*/\1/p')
[ -n "$fw" ] && [ -n "$fc" ] || skip_all "bench_collect gave no figure: $full"
v0=$(date +%s%N); "$FABTOP" --version >/dev/null; v1=$(date +%s%N)
# The process start alone, its CPU: the median of 11 runs of fabtop --version
# (the dynamic loader maps and relocates every library the binary needs).
start_cpu=$(python3 - "$FABTOP" <<'PY'
import resource, subprocess, sys
cpu = []
for _ in range(11):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.argv[1], "--version"], stdout=subprocess.DEVNULL, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append((r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1000)
print("%.1f" % sorted(cpu)[5])
PY
) || skip_all "fabtop --version failed"
libs=$(ldd "$FABTOP" 2>/dev/null | grep -c '=>' || :)
python3 "$TOP_SRCDIR/tests/bench/monitor-frames.py" "$FABTOP" "$T/sys" 60 > "$T/m" ||
	skip_all "the monitor could not be measured"
m() { sed -n "s/^$1 //p" "$T/m"; }

load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "tree: 64 ports, 65536 GID entries; load average $load (wall times grow with it, CPU times much less)"
echo "main's approach, a full collection (bench_collect): $fw ms wall, $fc ms CPU; process start alone (fabtop --version): $(( (v1 - v0) / 1000000 )) ms wall, $start_cpu ms CPU (median of 11), $libs shared libraries"
echo "first frame: $(m first_frame_ms) ms after exec, $(m first_frame_cpu_ms) ms CPU (main: a full collection first, $fw ms wall, $fc ms CPU)"
echo "  it says: $(m first_frame_text)"
echo "  all read: $(m all_read_ms) ms after exec, $(m all_read_cpu_ms) ms CPU; worst frame meanwhile $(m worst_frame_loading_ms) ms wall, $(m worst_frame_loading_cpu_ms) ms CPU"
echo "  $(m keys) keys while reading, answered within $(m key_worst_ms) ms at worst"
echo "periodic re-collection (at $(m periodic_after_s) s): its frame $(m periodic_rescan_frame_ms) ms wall, $(m periodic_rescan_frame_cpu_ms) ms CPU;" \
	"worst of $(m periodic_frames) frames $(m periodic_worst_ms) ms wall, $(m periodic_worst_cpu_ms) ms CPU; GID tables read again over $(m periodic_spread_ms) ms (main: $fw ms in one frame)"
echo "re-collection after a port change: its frame $(m change_rescan_frame_ms) ms wall, $(m change_rescan_frame_cpu_ms) ms CPU;" \
	"worst of $(m change_frames) frames $(m change_worst_ms) ms wall, $(m change_worst_cpu_ms) ms CPU (main: $fw ms)"

fail=0
for k in first_frame_ms periodic_worst_ms change_worst_ms key_worst_ms; do
	v=$(m $k)
	[ "$(echo "$v < 50" | bc -l)" = 1 ] || { echo "bench: FAILED: $k $v (goal < 50 ms)"; fail=1; }
done
exit $fail
