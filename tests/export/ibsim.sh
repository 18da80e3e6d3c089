#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# fabtop export on the ibsim fabric simulator: the far end of the cable (a
# switch port with its NodeDescription), the partner's PMA counters in base
# units, the SM as SMInfo answers, and the local port going ACTIVE once
# opensm runs, all in the exposition and clean for promtool.
. "$TOP_SRCDIR/tests/setup.sh"
slow_scenario
. "$TOP_SRCDIR/tests/export/lib.sh"
. "$TOP_SRCDIR/tests/mad/ibsim-lib.sh"
ibsim_require
command -v curl >/dev/null || skip_all "curl is not installed"
[ -x "$TOP_BUILDDIR/tests/mad/mad_sample" ] || skip_all "tests/mad/mad_sample is not built"

ibsim_start "$DATA/ibsim/two-switch.net"
sysfs_hold HostA
opensm_start SmHost

(cd "$RUN" && SIM_HOST=HostA LD_PRELOAD="$FAB_PRELOAD" exec "$FABTOP" --sysfs "$HOLD_SYS" \
	export --listen 127.0.0.1:0 --interval 0.5) >"$T/exp.out" 2>"$T/exp.err" &
EXP_PID=$!
cleanup_add "stop_pid $EXP_PID"
wait_for 20 grep -q 'listening on' "$T/exp.out" || diag "$(cat "$T/exp.out" "$T/exp.err")"
addr=$(sed -n 's/^fabtop export: listening on \([0-9.:]*\) .*/\1/p' "$T/exp.out")

# Until the partner's PMA has been sampled twice (bounded).
i=0
while [ $i -lt 200 ]; do
	scrape "$addr" -o "$T/m.prom" 2>/dev/null || true
	grep -q '^fabtop_link_partner_data_bytes_total' "$T/m.prom" 2>/dev/null &&
		grep -q '^fabtop_port_sm_info' "$T/m.prom" && break
	sleep 0.1; i=$((i + 1))
done
grep 'partner\|sm_info\|port_state' "$T/m.prom" | grep -v '^#' | head -20 | while IFS= read -r l; do diag "$l"; done
assert_match "the far end of the cable: a switch port and its description" \
	'^fabtop_link_partner_info\{device="ibsim0",port="1",partner_guid="0x[0-9a-f]{16}",partner_port="1",partner_desc="spine-a",partner_type="Switch"\} 1$' \
	"$(cat "$T/m.prom")"
assert_match "the partner's error counters, labelled with the partner" \
	'^fabtop_link_partner_count_total\{device="ibsim0",port="1",partner_guid="0x[0-9a-f]{16}",partner_port="1",partner_desc="spine-a",counter="symbol_error",source="pma",kind="error",bits="16"\} [0-9]+$' \
	"$(cat "$T/m.prom")"
assert_match "the partner's data counters in bytes" \
	'^fabtop_link_partner_data_bytes_total\{device="ibsim0",port="1",partner_guid="0x[0-9a-f]{16}",partner_port="1",partner_desc="spine-a",counter="port_xmit_data",source="pma",bits="(32|64)"\} [0-9]+$' \
	"$(cat "$T/m.prom")"
assert_match "the SM as SMInfo answers" \
	'^fabtop_port_sm_info\{device="ibsim0",port="1",sm_lid="[1-9][0-9]*",sm_guid="0x[0-9a-f]{16}",sm_state="MASTER",sm_priority="[0-9]+"\} 1$' \
	"$(cat "$T/m.prom")"
check "promtool check metrics is clean with partners" sh -c "promtool check metrics <'$T/m.prom'"
done_testing
