#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# show roce on a real kernel (Soft-RoCE VM): ethtool statistics through
# SIOCETHTOOL, dcbnl's "not supported", configfs default_roce_tos.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/vm/lib.sh"
vm_require
cp "$TOP_SRCDIR/tests/roce/vm.guest" "$T/guest.sh"
cp "$TOP_SRCDIR/tests/vm/guest/lib.inc" "$T/"	# travels with the script
vm_run roce 180 "$T/guest.sh" "$FABTOP"
vm_tap "$T/roce.out"
assert_eq "VM ran to the end" 0 "$vm_rc"
done_testing
