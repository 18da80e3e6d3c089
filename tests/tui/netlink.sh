#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Network changes reach the monitor through rtnetlink notifications, not
# polling: with a 60 s interval, a route added in a private network
# namespace must show on the Network pane within a couple of seconds.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "needs root for a network namespace"
command -v ip >/dev/null 2>&1 || skip_all "ip (iproute2) not installed"
NS="fabtop-tui-$$"
ip netns add "$NS" 2>/dev/null || skip_all "cannot create a network namespace"
cleanup_add "ip netns del $NS 2>/dev/null"
ip -n "$NS" link set lo up

mkdir -p "$T/empty"
TUI_WRAP="ip netns exec $NS"
tui_start 120 40 -- --sysfs "$T/empty" --interval 60 --pane net
tui_expect "the Network pane shows the namespace's routes" "Routes (all tables)"
start=$(date +%s)
ip -n "$NS" route add 10.98.0.0/24 dev lo
if tui_wait "10.98.0.0/24 dev lo" 3; then
	ok "a new route shows within $(( $(date +%s) - start )) s (interval 60 s: notified, not polled)"
else
	not_ok "a new route shows within 3 s"; diag "$(cat "$T/screen")"
fi
ip -n "$NS" route del 10.98.0.0/24 dev lo
tui_expect_gone "a removed route goes just as fast" "10.98.0.0/24 dev lo" 3
# Paused is frozen; the change shows when sampling resumes.
tui_keys p
tui_wait "PAUSED" || :
ip -n "$NS" route add 10.97.0.0/24 dev lo
# Unpaused it would show within a second (above): watch 2 s for it not to.
if tui_wait "10.97.0.0/24" 2; then
	not_ok "paused: a network change is not drawn"
else
	ok "paused: a network change is not drawn"
fi
tui_keys p
tui_expect "resumed: the change shows" "10.97.0.0/24 dev lo" 3
tui_quit >/dev/null || :
tui_expect_exit "clean exit" 0
done_testing
