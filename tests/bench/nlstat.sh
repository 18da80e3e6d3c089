#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: one port's driver counters by one RDMA netlink STAT_GET
# (--counters netlink) against reading its sysfs hw_counters files, opened
# each time or kept open (the sysfs source), on real Soft-RoCE in the VM
# (the host kernel has no RDMA). Figures as "# MEASURE k=v" (microseconds
# per port sample); no figures and a failure when it cannot run.
. "$TOP_SRCDIR/tests/setup.sh"
[ -z "${FABTOP_BENCH:-}" ] || FABTOP_VM_TESTS=${FABTOP_VM_TESTS:-1}
. "$TOP_SRCDIR/tests/vm/lib.sh"
vm_require

BENCH="${TOP_BUILDDIR:-$(dirname "$FABTOP")/..}/tests/bench/bench_nlstat"
[ -x "$BENCH" ] || { not_ok "$BENCH is not built (make bench builds it)"; done_testing; exit 1; }
vm_run nlbench 600 "$VM_HERE/guest/nlstat.sh" "$FABTOP" "$BENCH" - bench
vm_tap "$T/nlbench.out"
nl=$(vm_measure netlink_us) op=$(vm_measure sysfs_open_us) pr=$(vm_measure sysfs_pread_us)
if [ "$vm_rc" = 0 ] && [ -n "$nl" ] && [ -n "$pr" ] && [ -n "$op" ]; then
	ok "one port sample: STAT_GET ${nl} us, sysfs pread of every file ${pr} us, sysfs open+read+close ${op} us"
else
	not_ok "the benchmark gave no figures (VM status $vm_rc)"
fi
done_testing
