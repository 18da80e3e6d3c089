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
# the demo's kept fixes (doc/lab.md): each test starts from an unfixed demo
export XDG_STATE_HOME="$T/state"
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
# json_true FILE EXPR [JQ_ARGS...]: FILE ("-": standard input) holds exactly
# one JSON document, and EXPR yields at least one value for it, every one of
# them true. Empty input, two documents, a parse error or a select() that
# matches nothing are all false. (`jq -e EXPR FILE` exits 0 on an empty file:
# a check built on it passes when the program printed nothing.)
json_true() {
	_jf=$1 _je=$2
	shift 2
	[ "$_jf" = - ] && _jf=
	# shellcheck disable=SC2086
	jq -s -e "$@" "length == 1 and ([.[0] | $_je] | length > 0 and all)" $_jf >/dev/null 2>&1
}
# assert_json DESC FILE EXPR [JQ_ARGS...]: json_true as a TAP result; on
# failure it says how many documents there were and what EXPR gave.
assert_json() {
	_jd=$1
	shift
	if json_true "$@"; then ok "$_jd"; else
		not_ok "$_jd"
		_jf=$1 _je=$2
		shift 2
		diag "wanted exactly one document where this is true: $_je" \
			"documents: $(jq -s length "$_jf" 2>&1)" \
			"it gives: $(jq -s -c "$@" "[.[0] | $_je]" "$_jf" 2>&1 | head -c 2000)" \
			"the file begins:"
		diag "$(head -c 2000 "$_jf")"
	fi
}
# assert_rc DESC WANT... : the exit status in $rc (run_rc sets it) is exactly
# one of WANT (whole numbers compared as strings, never a pattern: 1 does not
# match 130 or 143).
assert_rc() {
	_rd=$1
	shift
	for _rw in "$@"; do
		if [ "$rc" = "$_rw" ]; then ok "$_rd"; return 0; fi
	done
	not_ok "$_rd"
	diag "exit status: $rc, wanted one of: $*"
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
