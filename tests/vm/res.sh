#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# RDMA resources on real Soft-RoCE, one VM boot: fabtop show res against
# iproute2's rdma res show with rping and a probe running, attribution to a
# docker scope and a Slurm job, the unprivileged report (guest/res.sh).
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/vm/lib.sh"
vm_require

REC="${TOP_BUILDDIR:-$(dirname "$FABTOP")/..}/tests/res/rdma_nl_record"
[ -x "$REC" ] || REC=""
start=$(date +%s)
vm_run res 600 "$VM_HERE/guest/res.sh" "$FABTOP" "$REC"
vm_tap "$T/res.out"
wall=$(( $(date +%s) - start ))
if [ "$vm_rc" = 0 ]; then
	ok "VM booted, ran every check and powered off (${wall}s)"
else
	not_ok "VM run ended with status $vm_rc (124 timeout, 125 VM failure) after ${wall}s"
	tail -30 "$T/run-res/console.log" 2>/dev/null | sed 's/^/# console: /'
fi
[ -z "${FABTOP_KEEP_REC:-}" ] || cp -r "$T/run-res/rec" "$FABTOP_KEEP_REC"
echo "# wall time of this VM test: ${wall}s"
done_testing
