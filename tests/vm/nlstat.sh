#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# RDMA netlink statistics on real Soft-RoCE, one VM boot: --counters netlink
# against rdma statistic and sysfs, QP counters turned on only when asked,
# without CAP_NET_ADMIN (guest/nlstat.sh).
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/vm/lib.sh"
vm_require

BENCH="${TOP_BUILDDIR:-$(dirname "$FABTOP")/..}/tests/bench/bench_nlstat"
REC="${TOP_BUILDDIR:-$(dirname "$FABTOP")/..}/tests/stat/rdma_stat_record"
start=$(date +%s)
vm_run nlstat 600 "$VM_HERE/guest/nlstat.sh" "$FABTOP" "$BENCH" "$REC"
vm_tap "$T/nlstat.out"
wall=$(( $(date +%s) - start ))
if [ "$vm_rc" = 0 ]; then
	ok "VM booted, ran every check and powered off (${wall}s)"
else
	not_ok "VM run ended with status $vm_rc (124 timeout, 125 VM failure) after ${wall}s"
	tail -30 "$T/run-nlstat/console.log" 2>/dev/null | sed 's/^/# console: /'
fi
# FABTOP_KEEP_REC=DIR keeps the recorded answers (tests/data/rdma-stat comes from there)
[ -z "${FABTOP_KEEP_REC:-}" ] || cp -r "$T/run-nlstat/rec" "$FABTOP_KEEP_REC"
done_testing
