#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/limit.sh, the time limit every test runs under: a test that ends
# passes through untouched (its output, its status) but for a last line
# saying how long it ran; one that hangs is
# killed with everything it started, its own cleanup runs, what it waited
# on is printed, and a "Bail out!" fails it, soon after the limit.
. "$TOP_SRCDIR/tests/setup.sh"
LIMIT="$TOP_SRCDIR/tests/limit.sh"

# ---- a test that ends: untouched ----
printf '#!/bin/sh\necho "ok 1 - fine"\necho "1..1"\nexit 3\n' >"$T/ends.sh"
set +e
out=$(FABTOP_TEST_LIMIT=20 sh "$LIMIT" sh "$T/ends.sh" 2>&1)
rc=$?
set -e
assert_eq "a test that ends keeps its exit status" 3 "$rc"
assert_eq "... and its output" "ok 1 - fine
1..1" "$(echo "$out" | head -2)"
check "... with only how long it ran added: $(echo "$out" | sed -n 3,\$p)" \
	sh -c 'echo "$1" | sed -n "3,\$p" | grep -qx "# limit.sh: ran [0-9]* s"' - "$out"
assert_eq "... one line" 3 "$(echo "$out" | wc -l)"

# ---- a test that hangs, with a helper of its own in the background ----
cat >"$T/hangs.sh" <<EOF
#!/bin/sh
trap 'echo cleaned >"$T/cleanup-ran"; exit 130' TERM
sleep 1000 &
echo \$! >"$T/helper.pid"
echo "ok 1 - started"
while :; do sleep 1; done
EOF
start=$(date +%s)
set +e
FABTOP_TEST_LIMIT=2 sh "$LIMIT" sh "$T/hangs.sh" >"$T/hang.out" 2>&1
rc=$?
set -e
took=$(($(date +%s) - start))
assert_match "a hung test is failed with a Bail out! line naming the limit" \
	"Bail out! sh $T/hangs.sh did not end within 2 s" "$(cat "$T/hang.out")"
assert_match "... after listing its processes, the helper among them" "sleep 1000" "$(cat "$T/hang.out")"
check "... soon after the limit (took ${took} s)" test "$took" -le 14
check "... its own TERM trap ran (its cleanup)" test -s "$T/cleanup-ran"
helper=$(cat "$T/helper.pid")
# The helper may need a moment to be reaped by init after the KILL.
n=0
while kill -0 "$helper" 2>/dev/null && [ "$n" -lt 30 ]; do sleep 0.1; n=$((n + 1)); done
if kill -0 "$helper" 2>/dev/null; then
	not_ok "the helper it started is gone too"
	kill "$helper" 2>/dev/null || :
else
	ok "the helper it started is gone too"
fi

# ---- a test that ignores TERM is killed anyway ----
printf '#!/bin/sh\ntrap "" TERM\nwhile :; do sleep 1; done\n' >"$T/stubborn.sh"
start=$(date +%s)
set +e
FABTOP_TEST_LIMIT=1 sh "$LIMIT" sh "$T/stubborn.sh" >"$T/stubborn.out" 2>&1
set -e
took=$(($(date +%s) - start))
assert_match "a test that ignores TERM is killed too" "Bail out!" "$(cat "$T/stubborn.out")"
check "... within the 10 s grace after the limit (took ${took} s)" test "$took" -le 16

set +e
out=$(FABTOP_TEST_LIMIT=soon sh "$LIMIT" sh "$T/ends.sh" 2>&1)
set -e
assert_match "a limit that is not a number is refused, clearly" "is not a number of seconds" "$out"
done_testing
