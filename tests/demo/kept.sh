#!/bin/sh
# shellcheck disable=SC2154 # rc is set by run_rc (tests/setup.sh)
# SPDX-License-Identifier: GPL-2.0-or-later
# The demo keeps a student's fix between runs, as a real host keeps a runtime
# fix until it reboots (doc/lab.md, "Fixing from a shell"): applied in one
# process, the probe of the next connects; a state from another boot, a
# corrupt or unwritable state, --undo and its refusals.
. "$TOP_SRCDIR/tests/setup.sh"

S="$XDG_STATE_HOME/fabtop/demo"
probe() { run_rc timeout -k 5 20 "$FABTOP" --demo "$@" probe 172.16.16.1 --from 172.16.34.2 -C 3; }

probe two-nics
assert_eq "unfixed: the probe from the second address is REJECTED (exit 1)" 1 "$rc"

run_rc "$FABTOP" --demo two-nics doctor --apply --yes
assert_eq "doctor --apply --yes on the simulated host: exit 0" 0 "$rc"
assert_match "... it says how long the fix lasts" 'applied to the simulated host, until this machine reboots' \
	"$(cat "$T/out")"
assert_match "... and keeps it for the next run" \
	'^fabtop-demo-state 1 boot=[0-9a-f-]+ route=1 own=0$' "$(cat "$S/two-nics" 2>&1)"

probe two-nics
assert_eq "a new process: the probe from the second address connects (exit 0)" 0 "$rc"
assert_match "... as the fixed host does" 'result: ok: 3 pings' "$(cat "$T/out")"
probe
assert_eq "another scenario (the default demo) is not fixed by it" 1 "$rc"

# the kernel's boot id changes at every boot: a state from another is stale
sed 's/boot=[^ ]*/boot=00000000-0000-0000-0000-000000000000/' "$S/two-nics" >"$T/st" && cp "$T/st" "$S/two-nics"
probe two-nics
assert_eq "a fix kept before this machine's last boot is gone, as a real runtime fix is" 1 "$rc"

# --reset: every kept fix of the scenario gone, the scenario broken again
"$FABTOP" --demo two-nics doctor --apply --yes >/dev/null
run_rc "$FABTOP" --demo two-nics --reset
assert_eq "--demo two-nics --reset: exit 0" 0 "$rc"
assert_match "... it says the scenario is broken again, and where its fix was kept" \
	'^\[SIMULATED\] two-nics is back to broken: the fix kept in .*/fabtop/demo/two-nics is gone$' "$(cat "$T/out")"
assert_eq "... the kept state is gone" "no file" "$(test -e "$S/two-nics" && echo file || echo "no file")"
probe two-nics
assert_eq "... the probe from the second address is REJECTED again" 1 "$rc"
"$FABTOP" --demo two-nics doctor --apply --yes >/dev/null
run_rc "$FABTOP" --demo two-nics --reset probe 172.16.16.1 --from 172.16.34.2 -C 3
assert_eq "--reset before a command: the command runs on the broken scenario (REJECTED, exit 1)" 1 "$rc"
run_rc "$FABTOP" --reset
assert_eq "--reset without --demo: a usage error (exit 2)" 2 "$rc"
assert_match "... saying what it is for" 'reset puts a demo scenario back to broken' "$(cat "$T/err")"
run_rc "$FABTOP" --demo two-nics --reset
assert_eq "--reset with nothing kept: exit 0 all the same" 0 "$rc"

"$FABTOP" --demo two-nics doctor --apply --yes >/dev/null
run_rc "$FABTOP" --demo two-nics doctor --undo
assert_match "doctor --undo takes the routing back" 'routing is back as it was' "$(cat "$T/out")"
assert_eq "... and the kept state with it" "no file" "$(test -e "$S/two-nics" && echo file || echo "no file")"
probe two-nics
assert_eq "... the next probe is REJECTED again" 1 "$rc"
run_rc "$FABTOP" --demo two-nics doctor --undo
assert_eq "--undo with nothing applied: exit 0" 0 "$rc"
assert_match "... and says so" 'nothing to undo' "$(cat "$T/out")"

# the scenario's own fix (a new cable) is one way: it stays after --undo
"$FABTOP" --demo bad-cable doctor --apply --yes >/dev/null
run_rc "$FABTOP" --demo bad-cable doctor
assert_eq "bad-cable fixed in one run: the next run's doctor finds nothing (exit 0)" 0 "$rc"
run_rc "$FABTOP" --demo list
assert_eq "--demo list marks the fixed scenario, and only it" "bad-cable" \
	"$(sed -n 's/^  \([a-z0-9-]*\) *\[FIXED\] .*/\1/p' "$T/out" | tr '\n' ' ' | sed 's/ $//')"

printf 'garbage\n' >"$S/two-nics"
probe two-nics
assert_eq "a corrupt state: the demo starts unfixed (the probe is REJECTED, exit 1)" 1 "$rc"
assert_match "... and says which file it ignored" "$S/two-nics: not a fabtop demo state" "$(cat "$T/err")"

: >"$T/afile"	# a file where a folder must be: even root cannot make it
run_rc env XDG_STATE_HOME="$T/afile/x" "$FABTOP" --demo two-nics doctor --apply --yes
assert_eq "a state folder that cannot be made: the fix still applies (exit 0)" 0 "$rc"
assert_match "... for this run only, and it says why" \
	'holds for this run only: cannot keep it in .*/afile/x/fabtop/demo/two-nics: Not a directory' "$(cat "$T/out")"

run_rc env XDG_STATE_HOME=relative HOME="$T/home" "$FABTOP" --demo two-nics doctor --apply --yes
assert_eq "a relative XDG_STATE_HOME is ignored (XDG): the state goes under HOME" \
	"fabtop-demo-state" "$(cut -d' ' -f1 "$T/home/.local/state/fabtop/demo/two-nics" 2>&1)"

run_rc "$FABTOP" --sysfs "$DATA/trees/ib-2port" doctor --undo
assert_eq "--undo on a real host: a usage error (exit 2)" 2 "$rc"
assert_match "... that says how a real fix is undone" 'the commands that undo it, which --apply printed' \
	"$(cat "$T/err")"
run_rc "$FABTOP" --demo doctor --undo --apply --yes
assert_eq "--undo with --apply: a usage error (exit 2)" 2 "$rc"

done_testing
