#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench (and make check-vm): the probe against perftest on Soft-RoCE as
# medians of 5 alternating runs in one VM boot: bw against ib_write_bw (goal
# >= 0.9x), lat's one-way p50 against ib_send_lat's typical (goal <= 1.1x).
# guest/perf.sh does the work; figures come out as "# MEASURE k=v".
. "$TOP_SRCDIR/tests/setup.sh"
# `make bench` asks for every benchmark: this one boots the VM unless told not to.
[ -z "${FABTOP_BENCH:-}" ] || FABTOP_VM_TESTS=${FABTOP_VM_TESTS:-1}
. "$TOP_SRCDIR/tests/vm/lib.sh"
vm_require

# The guest's clock source. Under TCG the guest kernel finds the vCPUs' TSCs
# unsynchronized and falls back to the emulated HPET, where every
# clock_gettime() is a system call of about 1 us (doc/probe.md); ib_send_lat
# reads the TSC itself and never pays that, and neither does any real host,
# whose clock source is the TSC. tsc=reliable keeps the TSC, for both tools
# alike; FABTOP_PERF_TSC=0 measures with the HPET.
[ "${FABTOP_PERF_TSC:-1}" = 0 ] || export KAPPEND="${KAPPEND:+$KAPPEND }tsc=reliable"

start=$(date +%s)
vm_run perf 900 "$VM_HERE/guest/perf.sh" "$FABTOP" "${FABTOP_PERF_ROUNDS:-5}"
vm_tap "$T/perf.out"
wall=$(( $(date +%s) - start ))
if [ "$vm_rc" = 0 ]; then
	ok "VM booted, ran the rounds and powered off (${wall}s)"
else
	not_ok "VM run ended with status $vm_rc (124 timeout, 125 VM failure) after ${wall}s"
	tail -30 "$T/run-perf/console.log" 2>/dev/null | sed 's/^/# console: /'
fi
done_testing
