#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop record and --replay from the command line: a demo recording, its
# reports at chosen times, a recorder killed at random moments (every file
# reads up to its last whole sample), and files that are not recordings.
. "$TOP_SRCDIR/tests/setup.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"



R="$T/demo.ftrec"
run_rc "$FABTOP" --demo --seed 7 record "$R" --interval 0.1 --count 30
assert_eq "record --count 30 exits 0" 0 "$rc"
assert_match "and says what it wrote" "^fabtop record: 30 samples, [0-9]+ bytes in " "$(cat "$T/err")"
assert_eq "the file starts with the format line" "fabtop recording 1.3" "$(head -n1 "$R")"

run_rc "$FABTOP" show all --json --replay "$R"
assert_eq "show all --json --replay exits 0" 0 "$rc"
assert_eq "with the demo's 3 devices" 3 "$(jq '.devices | length' "$T/out")"
cp "$T/out" "$T/end.json"
run_rc "$FABTOP" show all --json --replay "$R" --at end
assert_file_eq "--at end is the default" "$T/end.json" "$T/out"
"$FABTOP" show counters --json --replay "$R" --at start >"$T/start.json"
"$FABTOP" show counters --json --replay "$R" --at '#0' >"$T/s0.json"
assert_file_eq "--at start is sample #0" "$T/start.json" "$T/s0.json"
"$FABTOP" show counters --json --replay "$R" --at '#15' >"$T/s15.json"
a=$(jq '[.ports[0].counters[] | select(.name == "port_xmit_data") | .value][0]' "$T/s0.json")
b=$(jq '[.ports[0].counters[] | select(.name == "port_xmit_data") | .value][0]' "$T/s15.json")
if [ "$b" -gt "$a" ]; then ok "the data counter moved between #0 and #15 ($a -> $b)"; else not_ok "the data counter moved ($a -> $b)"; fi
run_rc "$FABTOP" show ports --replay "$R" --at '#15'
assert_match "the text report says which sample it shows" "from the recording .* \(sample #15 of 30\)" "$(cat "$T/err")"

# --count plays the samples after --at, with no waiting: rates between recorded samples.
run_rc "$FABTOP" show counters --json --count 5 --replay "$R" --at '#10'
assert_eq "show counters --count 5 over a recording exits 0" 0 "$rc"
assert_eq "five samples" 5 "$(jq -s length "$T/out")"
assert_eq "at the recorded interval" "0.1" "$(jq -s '.[0].interval_s' "$T/out")"
r=$(jq -s '[.[].ports[] | select(.device == "mlx5_0" and .port == 1) | .xmit_gbps] | min' "$T/out")
if awk "BEGIN { exit !($r > 0 && $r <= 100) }"; then ok "with rates of the recorded traffic ($r Gb/s)"; else not_ok "rates of the recorded traffic ($r)"; fi

# Times people write.
run_rc "$FABTOP" show ports --replay "$R" --at '+1s'
assert_eq "--at +1s" 0 "$rc"
run_rc "$FABTOP" show ports --replay "$R" --at '-0.5s'
assert_eq "--at -0.5s" 0 "$rc"
run_rc "$FABTOP" show ports --replay "$R" --at 'yesterday'
assert_eq "--at yesterday is a usage error" 2 "$rc"
assert_match "that names the forms" "expected start, end, #N" "$(cat "$T/err")"
run_rc "$FABTOP" show ports --replay "$R" --at '#999'
assert_match "a sample past the end is named" "from 0 to 29" "$(cat "$T/err")"
run_rc "$FABTOP" show ports --at end
assert_eq "--at without --replay is a usage error" 2 "$rc"

# Not a recording, a future one, a corrupt one: exit 1 and where.
printf 'hello\n' >"$T/hello"
run_rc "$FABTOP" show ports --replay "$T/hello"
assert_eq "another file: exit 1" 1 "$rc"
assert_match "named as not a recording" "byte 0: expected .*not a fabtop recording" "$(cat "$T/err")"
printf 'fabtop recording 2.0\n' >"$T/future"
run_rc "$FABTOP" show ports --replay "$T/future"
assert_match "a newer format is named" "format 2.0 was written by a newer fabtop" "$(cat "$T/err")"
cp "$R" "$T/corrupt"
size=$(wc -c <"$R")
printf '\377\377\377\377\377\377\377\377' | dd of="$T/corrupt" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
run_rc "$FABTOP" show ports --replay "$T/corrupt"
assert_eq "a corrupt file: exit 1" 1 "$rc"
assert_match "with the place and what was expected" "byte [0-9]+.*expected" "$(cat "$T/err")"

# first_sample FILE: wait (up to 20 s) until the recording holds a sample.
first_sample() {
	_n=0
	while [ $_n -lt 200 ] && ! "$FABTOP" show ports --replay "$1" >/dev/null 2>&1; do
		sleep 0.1
		_n=$((_n + 1))
	done
}

# A recorder killed at random moments: every file reads up to its last whole sample.
bad=0 kills=0 partial=0
i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	K="$T/kill$i.ftrec"
	"$FABTOP" --demo record "$K" --interval 0.1 2>/dev/null &
	pid=$!
	# Past the first sample (however loaded the machine), then 0 .. 1.2 s
	# on: somewhere in the stream.
	first_sample "$K"
	sleep "$(awk -v s="$$$i" 'BEGIN { srand(s); printf "%.2f", rand() * 1.2 }')"
	kill -9 "$pid" 2>/dev/null || :
	wait "$pid" 2>/dev/null || :
	kills=$((kills + 1))
	if "$FABTOP" show counters --json --replay "$K" >"$T/k.json" 2>"$T/k.err" && json_true "$T/k.json" '.ports | length > 0'; then
		grep -q "not closed" "$T/k.err" && partial=$((partial + 1))
	else
		bad=$((bad + 1))
		diag "kill $i: $(cat "$T/k.err")"
	fi
done
assert_eq "20 recorders killed with SIGKILL: every file reads" "0/20" "$bad/$kills"
if [ "$partial" -gt 0 ]; then ok "and says it was not closed ($partial of 20)"; else not_ok "the unclosed files say so"; fi

# SIGTERM: a clean end.
"$FABTOP" --demo record "$T/term.ftrec" --interval 0.1 2>"$T/term.err" &
pid=$!
first_sample "$T/term.ftrec"	# its handlers are in place by then
sleep 0.2
kill -TERM "$pid"
wait "$pid" && rc=0 || rc=$?
assert_eq "SIGTERM ends the recorder with exit 0" 0 "$rc"

# Format 1.0 (before the MAD view and the probe were kept) still replays: no MAD view, said so.
run_rc "$FABTOP" show counters --json --replay "$DATA/record/demo-1.0.ftrec"
assert_eq "a format 1.0 recording replays" 0 "$rc"
run_rc "$FABTOP" show fabric --replay "$DATA/record/demo-1.0.ftrec"
assert_match "... and show fabric says it holds no MAD view" "holds no InfiniBand management view" "$(cat "$T/err")"
run_rc "$FABTOP" show fabric --count 2 --replay "$DATA/record/demo-1.0.ftrec"
assert_eq "show fabric --count over a recording is refused (it samples live)" 2 "$rc"
assert_match "... saying what to do instead" "show fabric --replay FILE --at T" "$(cat "$T/err")"

done_testing
