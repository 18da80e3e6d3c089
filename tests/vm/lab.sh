#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop lab on real Soft-RoCE, one VM boot (guest/lab.sh does the work):
# up, the probe fails, doctor --apply, it works, down, nothing left; a second
# up refused; down after kill -9 of up.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/vm/lib.sh"
vm_require

start=$(date +%s)
vm_run lab 500 "$VM_HERE/guest/lab.sh" "$FABTOP"
vm_tap "$T/lab.out"
wall=$(( $(date +%s) - start ))
if [ "$vm_rc" = 0 ]; then
	ok "VM booted, ran every check and powered off (${wall}s)"
else
	not_ok "VM run ended with status $vm_rc (124 timeout, 125 VM failure) after ${wall}s"
	tail -30 "$T/run-lab/console.log" 2>/dev/null | sed 's/^/# console: /'
fi
echo "# wall time of this VM test: ${wall}s"
done_testing
