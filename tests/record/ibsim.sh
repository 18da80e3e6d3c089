#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The MAD view in a recording, on the ibsim fabric simulator: `fabtop record`
# keeps each local port's partner, SM and both ends' PMA counters; a cable
# moved to another switch shows in the replay at the sample that has the
# recorded "link partner changed" event, and `show fabric --replay` reports
# the local ports as the live `show fabric` does. The monitor records its
# far ends, and the replay's Counters pane, far-end blocks included, is the
# live one line for line. The SM moved to another host while recording is
# an "SM moved" event in the replay, from the old SM's LID to the new one's.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/tui/lib.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
[ -x "$TOP_BUILDDIR/tests/mad/mad_sample" ] || skip_all "tests/mad/mad_sample not built"

ibsim_start "$DATA/ibsim/two-switch.net"
sysfs_hold HostA
opensm_start SmHost
port_active HostA

# The local ports' identity, SM and partner: what stays from one moment to the next.
ports_of() {
	jq -c '[.fabric.local_ports[] | {device, port, node_guid, lid, state, phys_state,
		sm: {lid: .sm.lid, guid: .sm.guid, state: .sm.state}, partner,
		pma: [.pma.state, .pma.lid, .pma.extended, [.pma.counters[].name]]}]' "$1"
}

# ---- fabtop record on hosta; the cable of port 1 moved from spine-a to spine-b ----
run_rc fab HostA show fabric --json
assert_eq "live show fabric on hosta" 0 "$rc"
cp "$T/out" "$T/live-fabric.json"
f=$T/rec.ftrec
(cd "$RUN" && SIM_HOST=HostA LD_PRELOAD="$FAB_PRELOAD" exec "$FABTOP" --sysfs "$HOLD_SYS" \
	record "$f" --interval 0.5 --duration 20s) >"$T/rec.out" 2>"$T/rec.err" &
REC_PID=$!
cleanup_add "stop_pid $REC_PID"
# the partners are asked again every 5 s: one query before the move, one with no link, one after
sleep 7
ibsim_cmd 'Unlink "HostA"[1]' 'sim>'
sleep 6
echo 'Link "HostA"[1] "SwB"[4]' >&7
wait "$REC_PID" || :
assert_match "fabtop record wrote the samples" "samples, [0-9]+ bytes in" "$(cat "$T/rec.err")"
diag "$(tail -n 1 "$T/rec.err")"

run_rc "$FABTOP" show fabric --json --replay "$f" --at '#2'
assert_eq "show fabric --replay reads the recorded MAD view" 0 "$rc"
cp "$T/out" "$T/replay-fabric.json"
assert_eq "show fabric --replay: the local ports, their SM and partners, as the live show fabric" \
	"$(ports_of "$T/live-fabric.json")" "$(ports_of "$T/replay-fabric.json")"
run_rc "$FABTOP" show fabric --replay "$f" --at '#2'
assert_match "show fabric --replay in text names the partner" 'spine-a' "$(cat "$T/out")"

run_rc "$FABTOP" show events --replay "$f" --json
assert_match "the recording holds the partner change, derived as the monitor does" \
	'link partner changed: now \\"spine-b\\" port 4' "$(cat "$T/out")"

# Sample by sample: port 1's partner, and the far-end events up to there.
n=$(sed -n 's/.*fabtop record: \([0-9]*\) samples.*/\1/p' "$T/rec.err")
i=0 seen_none=0 moved_at= event_at= prev_ev=0
: >"$T/seq"
while [ "$i" -lt "$n" ]; do
	p=$("$FABTOP" show fabric --json --replay "$f" --at "#$i" 2>/dev/null |
		jq -r '.fabric.local_ports[] | select(.port == 1) | (.partner.node_desc // "none")')
	ev=$("$FABTOP" show events --json --replay "$f" --at "#$i" 2>/dev/null |
		jq '[.events[] | select(.kind == "far-end")] | length')
	echo "#$i $p $ev" >>"$T/seq"
	[ "$p" = none ] && seen_none=1
	[ "$p" = spine-b ] && [ -z "$moved_at" ] && moved_at=$i
	[ "$ev" -gt "$prev_ev" ] && [ -z "$event_at" ] && event_at=$i
	prev_ev=$ev
	i=$((i + 1))
done
check "the replay shows port 1 without a partner while unlinked" test "$seen_none" = 1
check "the replay shows the new partner (spine-b) after the move" test -n "$moved_at"
assert_eq "the new partner appears at the sample of the recorded event" "${event_at:-none}" "${moved_at:-none}"
[ "${event_at:-x}" = "${moved_at:-y}" ] || diag "$(cat "$T/seq")"

# ---- the monitor on hosta records its far ends; the replay shows the same pane ----
ibsim_cmd 'Unlink "HostA"[1]' 'sim>'
ibsim_cmd 'Link "HostA"[1] "SwA"[1]' 'sim>'
port_active HostA
cat >"$T/mon.sh" <<EOF
#!/bin/sh
cd "$RUN" || exit 1
SIM_HOST=HostA LD_PRELOAD="$FAB_PRELOAD" exec "\$@"
EOF
chmod +x "$T/mon.sh"
m=$T/mon.ftrec
# under 120 columns: no far-end history graph (a replay samples it at its own steps)
TUI_WRAP="$T/mon.sh" tui_start 118 45 -- --sysfs "$HOLD_SYS" --pane counters --interval 0.5 --record "$m"
tui_expect "the monitor records from the start" "| REC " 20
tui_expect "the far end is there" 'far end: Switch "spine-a" port 1' 20
tui_expect "the SM too" "MASTER" 20
sleep 6
# an error counter on the switch side: a delta in the far end's line
ibsim_cmd 'PerformanceSet "SwA"[1] PortCounters.SymbolErrorCounter=5' "SymbolErrorCounter has been set to 5"
tui_expect "the far end's error shows live" "symbol_error +5" 10
sleep 1
tui_keys p
tui_expect "paused" "PAUSED"
# MADs in flight when paused still land: wait for them (at most one PMA timeout)
sleep 2
# The whole pane, the local port's history too: live and replay both take
# the MAD view only once its batch is whole.
pane() {
	sed 's/  *[a-z][a-z :]*$//'
}
tui_screen | sed -n '2,$p' | pane >"$T/live-counters"
tui_quit >/dev/null || :

last=$("$FABTOP" show ports --replay "$m" 2>&1 >/dev/null | sed -n 's/.*(sample #\([0-9]*\) of.*/\1/p')
tui_start 118 46 -- --replay "$m" --pane counters
tui_expect "the monitor's recording replays" "REPLAY " 10
tui_expect "it plays to its end (#$last)" "#$last/$last " 60
tui_keys p
tui_expect "paused at the end" "PAUSED 20"
sleep 0.5
tui_screen | sed -n '3,$p' | pane >"$T/replay-counters"
assert_file_eq "the replay's Counters pane with its far-end blocks is the live one" \
	"$T/live-counters" "$T/replay-counters"
tui_keys Enter
tui_expect "the port details show the recorded far end" "MADs through libibumad, as recorded" 5
tui_expect "... with the partner" 'partner: Switch "spine-a"' 5
tui_keys Escape
tui_quit >/dev/null || :

# ---- the SM moves from smhost to hostb while fabtop records on hosta ----
f2=$T/sm.ftrec
(cd "$RUN" && SIM_HOST=HostA LD_PRELOAD="$FAB_PRELOAD" exec "$FABTOP" --sysfs "$HOLD_SYS" \
	record "$f2" --interval 0.5) >"$T/sm.out" 2>"$T/sm.err" &
REC_PID=$!
cleanup_add "stop_pid $REC_PID"
# The recording is read while it is written (a reader stops at the last
# whole sample): first the view with the first SM, then the moved event.
sm_seen() {
	"$FABTOP" show fabric --json --replay "$f2" --at end >"$T/sm-first.json" 2>/dev/null &&
		json_true "$T/sm-first.json" '[.fabric.local_ports[].sm.lid | select(. != null and . > 0)] | length > 0'
}
moved_seen() {
	"$FABTOP" show events --json --replay "$f2" 2>/dev/null |
		json_true - '[.events[] | select(.kind == "sm-moved")] | length > 0'
}
wait_for 20 sm_seen || diag "the recording has no SM yet"
stop_pid "$OSM_PID"
opensm_start HostB "$T/osm2"
# the new master sets every port's SM LID; the next query of the ports (every 5 s) sees it
wait_for 30 moved_seen || diag "no SM moved event within 30 s"
sleep 1
stop_pid "$REC_PID"
assert_match "fabtop record stopped cleanly on TERM" "samples, [0-9]+ bytes in" "$(cat "$T/sm.err")"
run_rc "$FABTOP" show events --replay "$f2" --json
assert_eq "show events --replay reads the recording" 0 "$rc"
jq -c '[.events[] | select(.kind == "sm-moved") | {port, what}]' "$T/out" >"$T/sm-moved"
sm_lids() {
	run_rc "$FABTOP" show fabric --json --replay "$f2" --at "$1"
	jq -c '[.fabric.local_ports[] | {port, lid: .sm.lid}]' "$T/out"
}
first=$(jq -c '[.fabric.local_ports[] | {port, lid: .sm.lid}]' "$T/sm-first.json")
last=$(sm_lids end)
diag "the SM of each local port, first: $first, last: $last"
check "the SM's LID changed in the recorded view" test "$first" != "$last"
# one event per local port, from its first SM LID to its last
want=$(jq -nc --argjson a "$first" --argjson b "$last" \
	'[range($a | length) as $i | {port: $a[$i].port,
	  what: "subnet manager moved: LID \($a[$i].lid) -> \($b[$i].lid)"}]')
assert_eq "the recording holds one \"SM moved\" event per local port, from where to where" \
	"$want" "$(cat "$T/sm-moved")"
done_testing
