#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One client holding 10,000 loopback connections (tests/export/hoard.py)
# does not keep another address from scraping: the exporter limits
# connections per address and listens with a deep backlog.
. "$TOP_SRCDIR/tests/setup.sh"
. "$TOP_SRCDIR/tests/export/lib.sh"

slow_scenario
command -v python3 >/dev/null || skip_all "python3 is not installed"
# The hoarder's 10,000 sockets and the exporter's side of them.
ulimit -n 12000 2>/dev/null || true
[ "$(ulimit -n)" -ge 12000 ] || skip_all "the descriptor limit is $(ulimit -n) and cannot be raised to 12000"

start_exporter x --demo export --interval 0.3
# Not exec: the exporter is stopped by setup.sh's trap when this shell exits.
python3 "$TOP_SRCDIR/tests/export/hoard.py" "$x_addr" 10000
