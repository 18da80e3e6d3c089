#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The RoCE chain in a recording: a recording of each RoCE scenario of the
# demo, replayed, gives the doctor's findings of the live run (finding 8
# included) and the RoCE report of the live run: its configuration at the
# end, the whole of it (counters, their known flags) at the first sample.
# A recording made before the chain was kept says it holds none.
. "$TOP_SRCDIR/tests/setup.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed"

# What a finding is about; what the RoCE report says of the configuration (counters left out, their
# known flags kept: a known counter has a value).
FINDINGS='[.findings[] | {code, severity, device, port, interface}]'
CONFIG='.roce_ports |= map(del(.congestion) | .ethtool.priorities |= map(map_values(
	if type == "object" then (.value != null) else . end)) | .ethtool |= map_values(
	if type == "object" and has("value") then (.value != null) else . end))'

for scenario in roce-v1 pfc-off; do
	case $scenario in
	roce-v1) code=roce-v1-forced ;;
	pfc-off) code=roce-lossy ;;
	esac
	R="$T/$scenario.ftrec"
	# 6 s: the network, and with it the chain, is read again after 5 s
	run_rc "$FABTOP" --demo "$scenario" record "$R" --interval 0.2 --count 30
	assert_eq "$scenario: recorded" 0 "$rc"
	assert_eq "$scenario: in format 1.3" "fabtop recording 1.3" "$(head -n1 "$R")"

	"$FABTOP" --demo "$scenario" doctor --json >"$T/live-doctor.json" || :
	"$FABTOP" --replay "$R" doctor --json >"$T/replay-doctor.json" || :
	live=$(jq -c "$FINDINGS" "$T/live-doctor.json")
	assert_match "$scenario: the live doctor finds $code" "\"code\":\"$code\"" "$live"
	assert_eq "$scenario: the replay's doctor has the live findings" "$live" \
		"$(jq -c "$FINDINGS" "$T/replay-doctor.json")"

	"$FABTOP" --demo "$scenario" show roce --json >"$T/live-roce.json"
	run_rc "$FABTOP" --replay "$R" show roce --json
	assert_eq "$scenario: show roce --replay exits 0" 0 "$rc"
	assert_eq "$scenario: ... saying nothing on stderr" "" "$(cat "$T/err")"
	assert_eq "$scenario: ... with the live RoCE ports" "$(jq -c '[.roce_ports[] | [.device, .port, .netdev]]' \
		"$T/live-roce.json")" "$(jq -c '[.roce_ports[] | [.device, .port, .netdev]]' "$T/out")"
	assert_eq "$scenario: ... their configuration, which counters are known, and the findings" \
		"$(jq -cS "$CONFIG" "$T/live-roce.json")" "$(jq -cS "$CONFIG" "$T/out")"
	# the first sample's chain is the one read with the first look, at the demo's time 0, as the live run's
	"$FABTOP" --replay "$R" --at start show roce --json >"$T/start-roce.json"
	assert_eq "$scenario: at the first sample, every value of the live report" \
		"$(jq -cS . "$T/live-roce.json")" "$(jq -cS . "$T/start-roce.json")"
	a=$(jq '.roce_ports[0].ethtool.priorities[3].rx_ecn_marked.value' "$T/start-roce.json")
	b=$(jq '.roce_ports[0].ethtool.priorities[3].rx_ecn_marked.value' "$T/out")
	if [ "$b" -gt "$a" ]; then
		ok "$scenario: at the end, the chain read later: its counters moved ($a -> $b)"
	else
		not_ok "$scenario: at the end, the chain read later: its counters moved ($a -> $b)"
	fi
done

# Format 1.0 (before the chain was kept): no chain, and said so.
run_rc "$FABTOP" --replay "$DATA/record/demo-1.0.ftrec" show roce --json
assert_eq "a format 1.0 recording: show roce exits 0" 0 "$rc"
assert_eq "... with no RoCE port" 0 "$(jq '.roce_ports | length' "$T/out")"
assert_match "... saying the recording holds no chain" "the recording holds no RoCE chain" "$(cat "$T/err")"

done_testing
