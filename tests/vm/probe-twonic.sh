#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The same-subnet case (doc/doctor.md, finding 1) on real Soft-RoCE, two VMs: a host with two NICs in one subnet;
# the probe to and from the second address fails, fabtop doctor names the
# cause, its printed fix is applied, the probes then succeed.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/vm/lib.sh"
vm_require

start=$(date +%s)
vm_pair 400 "$VM_HERE/guest/twonic-server.sh" "$VM_HERE/guest/twonic-client.sh" "$FABTOP"
vm_tap "$T/pair.out"
wall=$(( $(date +%s) - start ))
if [ "$vm_rc" = 0 ]; then
	ok "both VMs ran every check and powered off (${wall}s)"
else
	not_ok "two-VM run ended with status $vm_rc (server*16+client; 124 timeout, 125 VM failure)"
fi
echo "# wall time of this VM test: ${wall}s"
done_testing
