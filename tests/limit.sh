#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# limit.sh PROGRAM [ARG...]: run one test under a time limit, so a test that
# hangs fails on its own instead of holding the whole suite (and CI) until
# something outside kills everything. Every test goes through it (Makefile.am:
# LOG_COMPILER, SH_LOG_COMPILER).
#
# The test runs in a session of its own, so the limit reaches every process
# it started (a simulator, an SM, a server) and nothing else. When the limit
# is reached, what was still running is printed as TAP comments (with each
# process's wait channel: where a hang sits), then the group gets TERM (the
# test's own cleanup runs), KILL 10 s later, and a "Bail out!" line fails
# the test.
#
# FABTOP_TEST_LIMIT: the limit in seconds (default 900; the slowest test,
# a Soft-RoCE VM test, takes about 4 minutes under the sanitizers).
limit=${FABTOP_TEST_LIMIT:-900}
case $limit in
'' | *[!0-9]*) echo "Bail out! FABTOP_TEST_LIMIT=$limit is not a number of seconds"; exit 99 ;;
esac

# The test is a child of this shell and no group leader, so setsid(1)
# makes it one without forking: $! is its pid and its process group.
started=$(date +%s)
setsid "$@" &
test_pid=$!

# Which processes belong to the test's group, with where each waits.
group_ps() {
	ps -eo pgid=,pid=,ppid=,etimes=,stat=,wchan:24=,args= 2>/dev/null |
		awk -v g="$1" '$1 == g { $1 = ""; print "#  " substr($0, 2) }' | cut -c1-240
}

(
	waited=0
	while kill -0 "$test_pid" 2>/dev/null; do
		if [ "$waited" -ge "$limit" ]; then
			echo "# limit.sh: $* did not end within $limit s; its processes (pid ppid seconds state wait-channel command):"
			group_ps "$test_pid"
			kill -TERM "-$test_pid" 2>/dev/null	# dash takes no "--"
			n=0
			while kill -0 "$test_pid" 2>/dev/null && [ "$n" -lt 10 ]; do sleep 1; n=$((n + 1)); done
			kill -KILL "-$test_pid" 2>/dev/null || kill -KILL "$test_pid" 2>/dev/null
			echo "Bail out! $* did not end within $limit s (FABTOP_TEST_LIMIT); killed"
			exit 0
		fi
		sleep 1
		waited=$((waited + 1))
	done
) &
watch_pid=$!

wait "$test_pid"
rc=$?
# The watchdog ends within a second of the test; wait for it so its last
# lines (when it killed the test) come before the driver reads the end.
wait "$watch_pid"
# How long it ran: tools/bootstrap lists the slowest tests from these lines.
echo "# limit.sh: ran $(($(date +%s) - started)) s"
exit "$rc"
