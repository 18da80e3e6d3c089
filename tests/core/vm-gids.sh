#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Real Soft-RoCE in a VM: the ibv_query_gid_table() fast path and the sysfs
# path give the same GIDs; ports/counters of rxe; the container (netns) case.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/vm/lib.sh"
vm_require
cp "$TOP_SRCDIR/tests/core/vm-gids.guest" "$T/guest.sh"
cp "$TOP_SRCDIR/tests/vm/guest/lib.inc" "$T/"	# travels with the script
vm_run gids 240 "$T/guest.sh" "$FABTOP"
vm_tap "$T/gids.out"
assert_eq "VM ran to the end" 0 "$vm_rc"
for k in gids_verbs_ms gids_sysfs_ms gids_verbs_syscalls gids_sysfs_syscalls gid_index_before_readd gid_index_after_readd; do
	diag "$k=$(vm_measure $k)"
done
done_testing
