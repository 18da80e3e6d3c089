#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile HTTP clients (tests/export/hostile-http.py) against fabtop export:
# it keeps serving and collecting. Loopback only; every loop is bounded.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/export/lib.sh"

slow_scenario
command -v python3 >/dev/null || skip_all "python3 is not installed"
# A thousand held connections need the descriptors for them, here and in the exporter.
ulimit -n 4096 2>/dev/null || true
[ "$(ulimit -n)" -ge 4096 ] || skip_all "the descriptor limit is $(ulimit -n) and cannot be raised to 4096"

start_exporter x --demo export --interval 0.3
# Not exec: the exporter is stopped by setup.sh's trap when this shell exits.
python3 "$TOP_SRCDIR/tests/export/hostile-http.py" "$x_addr"
