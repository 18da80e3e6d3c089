# SPDX-License-Identifier: GPL-2.0-or-later
# Shared setup for shell tests: strict mode, C locale, a temp dir removed on
# exit, and TAP helpers that print both values when an assertion fails.
set -eu
export LC_ALL=C
unset NO_COLOR

: "${FABTOP:?FABTOP must point at the fabtop binary (run through make check)}"
: "${TOP_SRCDIR:?TOP_SRCDIR must be set (run through make check)}"
DATA="$TOP_SRCDIR/tests/data"

T=$(mktemp -d "${TMPDIR:-/tmp}/fabtop-test.XXXXXX")
_cleanups=""
cleanup_add() { _cleanups="$1;$_cleanups"; }
_cleanup() {
	rc=$?
	set +e
	eval "$_cleanups"
	chmod -R u+w "$T" 2>/dev/null	# copies of distcheck's read-only tree
	rm -rf "$T"
	exit $rc
}
trap _cleanup EXIT
trap 'exit 130' INT TERM

_tap_n=0
_tap_fail=0
_tap_planned=""
plan() { _tap_planned=$1; echo "1..$1"; }
ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
not_ok() { _tap_n=$((_tap_n + 1)); _tap_fail=$((_tap_fail + 1)); echo "not ok $_tap_n - $*"; }
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # SKIP $*"; }
# skip_all REASON: the whole file cannot run here.
# Under `make bench` (FABTOP_BENCH) a benchmark that cannot run fails instead.
skip_all() {
	if [ -n "${FABTOP_BENCH:-}" ]; then
		echo "bench: cannot run: $*" >&2; trap - EXIT; rm -rf "$T"; exit 1
	fi
	echo "1..0 # SKIP $*"; trap - EXIT; rm -rf "$T"; exit 0
}
# slow_scenario: skip the whole file when FABTOP_SKIP_SLOW is set (distcheck).
slow_scenario() {
	[ -z "${FABTOP_SKIP_SLOW:-}" ] || skip_all "slow scenario skipped (FABTOP_SKIP_SLOW: covered by the main test run)"
}
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }

# check DESC CMD...: ok when CMD succeeds.
check() {
	desc=$1; shift
	if "$@" >"$T/.out" 2>&1; then ok "$desc"; else not_ok "$desc"; diag "command: $*"; diag "$(cat "$T/.out")"; fi
}
# assert_eq DESC EXPECTED ACTUAL
assert_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1"; diag "expected: $2" "actual:   $3"; fi
}
# assert_match DESC REGEX TEXT (grep -E)
assert_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then ok "$1"; else not_ok "$1"; diag "no match for: $2" "in:"; diag "$3"; fi
}
# assert_file_eq DESC EXPECTED_FILE ACTUAL_FILE: unified diff on failure.
assert_file_eq() {
	if diff -u "$2" "$3" >"$T/.diff" 2>&1; then ok "$1"; else not_ok "$1"; diag "$(cat "$T/.diff")"; fi
}
# run_rc CMD...: run, capture stdout/stderr in $T/out $T/err, rc in $rc.
run_rc() {
	set +e
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
}
done_testing() {
	[ -n "$_tap_planned" ] || echo "1..$_tap_n"
	[ "$_tap_fail" -eq 0 ]
}
