#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: what one counter refresh of a local IB port costs.
# --counters sysfs: the pread()s of counters/ files per port (on a real HCA
# each is a PMA MAD the kernel sends to the firmware), on the mlx4 fixture
# tree. --counters pma: the MADs fabtop sends per port, on the ibsim
# simulator. Anchor: the MADs perfquery sends for the same port, for the
# PortCounters and the PortCountersExtended sets. Every figure is counted
# with strace in this run (MADs are the 288-byte umad writes).
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
command -v strace >/dev/null 2>&1 || { echo "bench-pma: strace is needed to count reads and MADs" >&2; exit 1; }
command -v perfquery >/dev/null 2>&1 || { echo "bench-pma: perfquery (infiniband-diags) is the anchor" >&2; exit 1; }

# calls FILE: the preads in an strace log; mads FILE: the umad writes.
preads() { grep -c 'pread64(' "$1" || :; }
mads() { grep -Ec 'write\(.*\) = 288$' "$1" || :; }

# ---- sysfs: reads per refresh, from the difference of 2 and 6 refreshes ----
TREE="$DATA/trees/ib-2port"
NPORTS=$(ls -d "$TREE"/class/infiniband/*/ports/* | wc -l)
for n in 2 6; do
	strace -f -e trace=pread64 -o "$T/sysfs$n" "$FABTOP" --sysfs "$TREE" --counters sysfs \
		--interval 0.1 --count $n show counters >/dev/null
done
SYSFS_READS=$(( ($(preads "$T/sysfs6") - $(preads "$T/sysfs2")) / 4 / NPORTS ))

# ---- pma: MADs per refresh on ibsim ----
ibsim_start "$DATA/ibsim/two-switch.net"
opensm_start SmHost
port_active HostB
sysfs_hold HostB
for n in 2 6; do
	(cd "$RUN" && SIM_HOST=HostB LD_PRELOAD="$FAB_PRELOAD" strace -f -e trace=write -o "$T/pma$n" \
		"$FABTOP" --sysfs "$HOLD_SYS" --counters pma --interval 0.1 --count $n show counters --json) >"$T/pma$n.json"
done
jq -e -s '[.[-1].ports[0].counters[].source] | unique == ["pma"]' "$T/pma6.json" >/dev/null ||
	{ echo "bench-pma: the counters did not come from the PMA" >&2; exit 1; }
PMA_MADS=$(( ($(mads "$T/pma6") - $(mads "$T/pma2")) / 4 ))
PMA_FIRST=$(( $(mads "$T/pma2") - 2 * PMA_MADS ))

# ---- the anchor: perfquery for the same port ----
(cd "$RUN" && SIM_HOST=HostB LD_PRELOAD="$UMAD2SIM" strace -f -e trace=write -o "$T/pq" perfquery) >/dev/null
(cd "$RUN" && SIM_HOST=HostB LD_PRELOAD="$UMAD2SIM" strace -f -e trace=write -o "$T/pqx" perfquery -x) >/dev/null
PQ=$(mads "$T/pq")
PQX=$(mads "$T/pqx")

for v in "$SYSFS_READS" "$PMA_MADS" "$PQ" "$PQX"; do
	[ "$v" -gt 0 ] || { echo "bench-pma: a count came out 0 (sysfs $SYSFS_READS, pma $PMA_MADS, perfquery $PQ/$PQX)" >&2; exit 1; }
done
printf 'counter refresh of one IB port: --counters sysfs %d reads of counters/ files (a firmware MAD each on an HCA); --counters pma %d MADs (after %d once at start: the port, its partner, ClassPortInfo); perfquery %d MADs for PortCounters, perfquery -x %d for PortCountersExtended (%d for both sets)\n' \
	"$SYSFS_READS" "$PMA_MADS" "$PMA_FIRST" "$PQ" "$PQX" $((PQ + PQX))
exit 0
