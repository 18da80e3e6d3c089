#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Probe pane's InfiniBand path (small-tree.net on ibsim under opensm):
# a peer whose ARP entry is an IPoIB neighbour (a --proc tree here) shows
# the path from h11 to h32 through a spine, hop by hop with each end's
# rates; errors set on a port of the path show on that hop; an Ethernet
# neighbour says there is no InfiniBand path.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/tui/lib.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
[ -x "$TOP_BUILDDIR/tests/mad/mad_sample" ] || skip_all "tests/mad/mad_sample not built"

ibsim_start "$DATA/ibsim/small-tree.net"
opensm_start h11
for h in h12 h21 h22 h31 h32; do port_active "$h"; done
sysfs_hold h11

# h32's port GUID in an ARP table, as the kernel's IPoIB neighbour entry holds it
PGUID=$(fab h11 trace "h32 mlx5_0" --no-counters --json | jq -r '.trace.hops[-1].port_guid' | tr -d ':')
HW=$(echo "$PGUID" | sed 's/\(..\)/\1:/g; s/:$//')
mkdir -p "$T/proc/net"
{
	printf 'IP address       HW type     Flags       HW address            Mask     Device\n'
	printf '10.9.0.32        0x20        0x2         80:00:00:48:fe:80:00:00:00:00:00:00:%s     *        ib0\n' "$HW"
	printf '192.0.2.1        0x1         0x2         02:fc:00:00:00:05     *        eth0\n'
} >"$T/proc/net/arp"
cat >"$T/mon.sh" <<EOS
#!/bin/sh
cd "$RUN" || exit 1
SIM_HOST=h11 LD_PRELOAD="$FAB_PRELOAD" exec "\$@"
EOS
chmod +x "$T/mon.sh"

TUI_WRAP="$T/mon.sh" tui_start 160 60 -- --sysfs "$HOLD_SYS" --proc "$T/proc" --pane probe --interval 0.5
tui_expect "the Probe pane" "RDMA CM probe" 10
tui_keys e
tui_keys -l '10.9.0.32'
tui_keys Enter
tui_expect_re "the path to the IPoIB peer: 5 nodes, complete" \
	'InfiniBand path to LID [0-9]+ from ibsim0 port 1: 5 nodes, complete' 30
tui_expect_re "... through leaf 1, a spine and leaf 3 to h32" '^ +4 +CA +h32 mlx5_0 ' 5
assert_match "... leaf 1 is hop 1" '^ +1 +Switch +leaf 1 ' "$(grep -E '^ +1 +Switch' "$T/screen")"
tui_expect_re "each end's rates once two samples are in" \
	'out port [34] +ACTIVE 4X +QDR +xmit [0-9]+\.[0-9]{3} rcv [0-9]+\.[0-9]{3} Gb/s  errors \+0' 15
# errors set on both of leaf 1's uplinks (the path leaves by one of them) move on that hop, live
(
	i=1
	while [ $i -le 60 ]; do
		echo "PerformanceSet \"L1\"[3] PortCounters.SymbolErrorCounter=$i" >&7 || exit 0
		echo "PerformanceSet \"L1\"[4] PortCounters.SymbolErrorCounter=$i" >&7 || exit 0
		i=$((i + 1)); sleep 0.25
	done
) &
BUMP=$!
cleanup_add "kill $BUMP 2>/dev/null"
tui_expect_re "symbol errors moving on leaf 1's uplink show on its out end" \
	'out port [34] +ACTIVE 4X +QDR +xmit .*errors \+[1-9]' 15
kill $BUMP 2>/dev/null || :
# away from the pane the path is kept, not sampled; back, it goes on
tui_keys 1
tui_expect "another pane" "DEVICE" 5
tui_keys 6
tui_expect_re "back in the Probe pane the path is there at once" \
	'InfiniBand path to LID [0-9]+ from ibsim0 port 1: 5 nodes, complete' 3

tui_quit >/dev/null || :
assert_match "a clean exit" "FABTOP-EXIT=0" "$(cat "$T/screen")"

# An Ethernet neighbour: no InfiniBand path, and why. A monitor of its own:
# libumad2sim's reader thread dies (SIGSEGV on a mutex at 0x30) when a umad
# port is closed while the process runs on, which a change of peer does.
TUI_WRAP="$T/mon.sh" tui_start 160 60 -- --sysfs "$HOLD_SYS" --proc "$T/proc" --pane probe --interval 0.5
tui_expect "the Probe pane again" "RDMA CM probe" 10
tui_keys e
tui_keys -l '192.0.2.1'
tui_keys Enter
tui_expect_re "an Ethernet neighbour: no InfiniBand path, and why" 'InfiniBand path: .*192\.0\.2\.1.*Ethernet' 10
tui_quit >/dev/null || :
done_testing
