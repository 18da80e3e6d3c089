#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The probe on real Soft-RoCE, one VM boot: stock rping interop both ways,
# fabtop <-> fabtop in each mode, REJECTED/TIMEOUT/ADDR_ERROR decoded, bw and
# lat against perftest, a hostile client (guest/single.sh does the work).
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/vm/lib.sh"
vm_require

H="${TOP_BUILDDIR:-$(dirname "$FABTOP")/..}/tests/probe/hostile"
[ -x "$H" ] || H=""
start=$(date +%s)
vm_run single 600 "$VM_HERE/guest/single.sh" "$FABTOP" "$H"
vm_tap "$T/single.out"
wall=$(( $(date +%s) - start ))
if [ "$vm_rc" = 0 ]; then
	ok "VM booted, ran every check and powered off (${wall}s)"
else
	not_ok "VM run ended with status $vm_rc (124 timeout, 125 VM failure) after ${wall}s"
	tail -30 "$T/run-single/console.log" 2>/dev/null | sed 's/^/# console: /'
fi
echo "# wall time of this VM test: ${wall}s"
done_testing
