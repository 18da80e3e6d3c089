#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The RoCE pane over the roce-chain fixture tree (recorded DCB and ethtool
# answers): where RDMA lands, PFC, the details with the findings; the demo's
# RoCE port; key 0 selects the tenth pane only when there is one.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/tui/lib.sh"
TREE="$DATA/trees/roce-chain"

tui_start 160 30 -- --sysfs "$TREE" --configfs "$TREE/config" --pane roce --interval 0.5
tui_expect "the RoCE tab is there" "RoCE"
tui_expect "RDMA lands on priority 3 (DSCP 26) of mlx5_0" "DSCP 26"
assert_match "mlx5_0's RDMA priority 3 has PFC off" "mlx5_0/1 +enp1s0f0 +3 off DSCP 26" "$(tui_line "mlx5_0/1   enp1s0f0      3")"
assert_match "mlx5_1's priority 3 has PFC on" "mlx5_1/1 +enp2s0f0 +3 on +DSCP 26" "$(tui_line "mlx5_1/1")"
tui_expect "rates after the second sample" "0%/0%"
tui_keys Enter
tui_expect "details: the APP table" "APP DSCP 26 -> priority 3"
tui_expect "details: the finding and its fix" "dcb pfc set dev enp1s0f0 prio-pfc 3:on"
tui_keys Escape
tui_keys 1
tui_expect "1: the Ports pane" "STATE"
tui_keys 0
tui_expect "0: the tenth pane, back on the RoCE pane" "DSCP 26"
tui_quit >/dev/null || :

tui_start 160 30 -- --demo --pane roce
tui_expect "demo: its RoCE port, RDMA on priority 3 with PFC" "mlx5_1/1   enp65s0f0     3 on  DSCP 26"
tui_quit >/dev/null || :
done_testing
