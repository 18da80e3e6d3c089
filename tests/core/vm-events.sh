#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Real Soft-RoCE in a VM: the rxe netdev down and up under `fabtop show
# events`: the device's notifications (ibv_get_async_event) and the derived
# flap appear in order; a flap shorter than the interval is still seen.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/vm/lib.sh"
vm_require
cp "$TOP_SRCDIR/tests/core/vm-events.guest" "$T/guest.sh"
cp "$TOP_SRCDIR/tests/vm/guest/lib.inc" "$T/"	# travels with the script
vm_run events 240 "$T/guest.sh" "$FABTOP"
vm_tap "$T/events.out"
assert_eq "VM ran to the end" 0 "$vm_rc"
done_testing
