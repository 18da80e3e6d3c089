#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop counters and --counters netlink where there is no kernel to ask:
# usage errors, the demo, a recording and a --sysfs tree each get a clear
# message and the rest works (the real kernel: tests/vm/nlstat.sh).
. "$TOP_SRCDIR/tests/setup.sh"

run_rc "$FABTOP" counters
assert_eq "counters alone: usage error" 2 "$rc"
assert_match "counters alone: says what it wants" 'qp what' "$(cat "$T/err")"
run_rc "$FABTOP" counters qp enable
assert_eq "enable without a port: usage error" 2 "$rc"
assert_match "enable without a port: asks which" 'which port' "$(cat "$T/err")"
run_rc "$FABTOP" counters qp enable rxe0
assert_eq "a port without its number: usage error" 2 "$rc"
assert_match "names the form DEV/PORT" 'DEV/PORT' "$(cat "$T/err")"
run_rc "$FABTOP" counters qp frobnicate rxe0/1
assert_eq "an unknown action: usage error" 2 "$rc"
run_rc "$FABTOP" --demo counters qp enable rxe0/1
assert_eq "enable on the demo: refused" 2 "$rc"
assert_match "enable on the demo: says why" 'changes the kernel of this host' "$(cat "$T/err")"
run_rc "$FABTOP" --demo counters qp show
assert_eq "show on the demo: exit 1" 1 "$rc"
assert_match "show on the demo: no QP counters, and why" 'has no QP counters' "$(cat "$T/err")"
run_rc "$FABTOP" --counters bogus show counters
assert_eq "a bad --counters: usage error" 2 "$rc"
assert_match "a bad --counters: lists netlink" 'netlink' "$(cat "$T/err")"

run_rc "$FABTOP" --demo --counters netlink show counters
assert_eq "--counters netlink on the demo: works" 0 "$rc"
run_rc "$FABTOP" --sysfs "$DATA/trees/roce" --counters netlink show counters
assert_eq "--counters netlink on a tree: works" 0 "$rc"
assert_match "--counters netlink on a tree: says the files are read" 'not a tree under --sysfs' "$(cat "$T/err")"
assert_match "--counters netlink on a tree: hw_counters from the files" 'hw_counters' "$(cat "$T/out")"

# a recording made with --counters netlink replays; the QP counters are not in it
"$FABTOP" --demo record "$T/r.rec" --count 2 --interval 0.1 >/dev/null 2>&1
run_rc "$FABTOP" --replay "$T/r.rec" counters qp show
assert_eq "show on a recording: exit 1" 1 "$rc"
assert_match "show on a recording: no QP counters" 'has no QP counters' "$(cat "$T/err")"
done_testing
