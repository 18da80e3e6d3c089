#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The exporter's doctor follows a CM reject at once: the first scrape that
# shows a REJ counter moved also holds the CM finding, because the live
# core reads the network and runs the doctor again in the same step that
# sees the REJ counters move (not at the next rescan, seconds later).
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/export/lib.sh"

command -v curl >/dev/null || skip_all "curl is not installed"

cp -a "$TOP_SRCDIR/tests/data/trees/roce" "$T/tree"
chmod -R u+w "$T/tree"
rej="$T/tree/class/infiniband/mlx5_0/ports/1/cm_rx_msgs/rej"
sel='fabtop_port_count_total{device="mlx5_0",port="1",counter="cm_rx_msgs/rej"'

start_exporter ex --sysfs "$T/tree" export --interval 0.2
scrape "$ex_addr" -o "$T/before.prom"
assert_eq "the REJ counter as the tree has it" "1" "$(metric "$T/before.prom" "$sel")"
assert_eq "no reject since the start: no CM finding" "" \
	"$(grep '^fabtop_doctor_finding{code="cm-reject"' "$T/before.prom" || true)"

# In place, same length: the exporter keeps the counter file open.
printf '4\n' 1<>"$rej"
i=0
while [ $i -lt 100 ]; do
	scrape "$ex_addr" -o "$T/after.prom"
	[ "$(metric "$T/after.prom" "$sel")" = 4 ] && break
	sleep 0.05
	i=$((i + 1))
done
assert_eq "the scrape after the reject shows the counter moved" "4" "$(metric "$T/after.prom" "$sel")"
assert_match "and the same scrape holds the CM finding" \
	'^fabtop_doctor_finding\{code="cm-reject",severity="warning"' "$(cat "$T/after.prom")"
done_testing
