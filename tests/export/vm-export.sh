#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop export on real Soft-RoCE, one VM boot: the rxe port and its
# hw_counters as metrics, --probe results against a probe server and a port
# where nothing listens (tests/export/vm-export.guest does the work).
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/vm/lib.sh"
vm_require
cp "$TOP_SRCDIR/tests/export/vm-export.guest" "$T/guest.sh"
cp "$VM_HERE/guest/lib.inc" "$T/"	# travels with the script
vm_run export 240 "$T/guest.sh" "$FABTOP"
vm_tap "$T/export.out"
assert_eq "VM ran to the end" 0 "$vm_rc"
done_testing
