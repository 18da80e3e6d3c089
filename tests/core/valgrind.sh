#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The one-shot paths under valgrind: no invalid access, no leak, on every
# fixture tree and on the hostile tree's worst parts.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
[ "${FABTOP_SANITIZERS:-no}" != yes ] || skip_all "built with sanitizers (valgrind cannot run ASan binaries; ASan covers this build)"
command -v valgrind >/dev/null 2>&1 || skip_all "valgrind not installed (apt-get install valgrind)"

vg() {
	valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect "$@"
}
for t in ib-2port roce iwarp switch container; do
	for fmt in "" --json; do
		set +e
		vg "$FABTOP" show all $fmt --sysfs "$DATA/trees/$t" >"$T/out" 2>"$T/err"
		rc=$?
		set -e
		if [ $rc -eq 0 ]; then ok "valgrind: show all $fmt on $t"; else not_ok "valgrind: show all $fmt on $t (rc $rc)"; diag "$(head -40 "$T/err")"; fi
	done
done
cp -r "$DATA/trees/ib-2port" "$T/live"
chmod -R u+w "$T/live"
set +e
vg "$FABTOP" show counters --interval 0.1 --count 3 --sysfs "$T/live" >"$T/out" 2>"$T/err"
rc=$?
set -e
if [ $rc -eq 0 ]; then ok "valgrind: repeated counter samples"; else not_ok "valgrind: repeated counter samples (rc $rc)"; diag "$(head -40 "$T/err")"; fi
done_testing
