#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The architecture holds, and doc/architecture.md says it truly: one live
# core steps a host, every write to the system is under src/change/, the
# folders and source ops the doc names exist, and every folder and op is
# in the doc.
. "$TOP_SRCDIR/tests/setup.sh"
cd "$TOP_SRCDIR"
doc=doc/architecture.md

# calls FUNCTION...: the .c files outside src/live/ and src/source/ that call one of them.
callers() {
	_re=$(echo "$*" | sed 's/ /\\|/g')
	grep -rl "\\($_re\\)(" src --include='*.c' | grep -v '^src/live/\|^src/source/' || :
}
assert_eq "only the live core steps a host (snapshot_host_sample/start/fill, source_refresh)" "" \
	"$(callers snapshot_host_sample snapshot_host_start snapshot_host_fill source_refresh)"
assert_eq "... and only the live core derives events from looks" "" \
	"$(grep -rl 'events_derive\(_far_end\)\?(' src --include='*.c' | grep -v '^src/live/\|^src/derive/events.c' || :)"

# One home per live fact (doc/architecture.md): the doctor runs in the live
# core and in a one-shot look (snapshot_doctor()), nowhere else; a pane reads
# the core and never the source or the kernel: resources, the RoCE chain,
# the network, a look of its own, the doctor of its own.
assert_eq "the doctor runs only in the live core and in snapshot_doctor()" "" \
	"$(grep -rl 'doctor_run(' src --include='*.c' | grep -v '^src/live/live.c$\|^src/source/snapshot.c$\|^src/derive/doctor.c$' || :)"
assert_eq "no pane reads a fact the core keeps (source_res, source_roce, snapshot_net, a snapshot, a doctor)" "" \
	"$(grep -rl '\(source_res\|source_roce\|source_net\|snapshot_net\|snapshot_take\|snapshot_doctor\|doctor_run\|explain_failure_src\)(' src/ui --include='*.c' || :)"
assert_eq "... nor includes a kernel reader" "" "$(grep -rl '#include "kernel/' src/ui || :)"
assert_match "the checks above see what they look for (the core calls source_res)" 'src/live/live.c' \
	"$(grep -rl 'source_res(' src --include='*.c')"

# Writes: route and rule changes, sysctl writes, STAT_SET, QPs of fabtop's own.
writes=$(grep -rln 'NLM_F_CREATE\|NLM_F_REPLACE\|RTM_DELROUTE\|RTM_DELRULE\|RDMA_NLDEV_CMD_STAT_SET\|ibv_create_qp\|ibv_create_cq\|sysctl_write_iface(' \
	src --include='*.c' | grep -v '^src/change/\|^src/probe/' || :)
assert_eq "every write to the system is under src/change/ (the probe's own connections aside)" "" "$writes"
assert_match "src/change/ does write (this test would see it)" 'net_apply.c' \
	"$(grep -rln 'NLM_F_CREATE\|RDMA_NLDEV_CMD_STAT_SET\|ibv_create_qp\|sysctl_write_iface(' src/change)"

# Every folder of src/ opens with a README and is in the doc.
for d in $(find src -mindepth 1 -type d | sort); do
	check "$d has a README saying what belongs there" test -s "$d/README"
	assert_match "$doc describes $d/" "\`$d/\`" "$(cat "$doc")"
done

# Every path the doc names exists.
missing=""
for p in $(grep -o '`src/[A-Za-z0-9_./-]*`' "$doc" | tr -d '`' | grep -v NAME | sort -u); do
	[ -e "$p" ] || missing="$missing $p"
done
assert_eq "every src/ path in $doc exists" "" "$missing"

# Every op of struct source_ops is in the doc.
ops=$(sed -n '/^struct source_ops {/,/^};/p' src/source/source.h |
	sed -n 's/.*(\*\([a-z_]*\))(.*/\1/p')
assert_match "source_ops has ops (the parse above works)" 'collect' "$ops"
for op in $ops; do
	assert_match "$doc names the source op $op" "\`$op\`" "$(cat "$doc")"
done

# No include circle inside src/ui/ (doc/architecture.md, "The monitor's
# layers"): X.c and X.h are one node, an #include "ui/Y.h" in either is an
# edge X -> Y; tsort names the files of a loop. A call needs its
# declaration, so with every header declaring only its own file's
# functions (the file's name is their prefix), no circle of includes is
# also no circle of calls between files.
ui_edges=$(for f in src/ui/*.[ch] src/ui/widget/*.[ch]; do
	m=${f%.[ch]}
	sed -n 's|^#include "\(ui/[^"]*\)\.h".*|src/\1|p' "$f" | while read -r h; do
		[ "$h" = "$m" ] || echo "$m $h"
	done
done)
assert_match "the include graph of src/ui/ was read (screen includes help)" 'src/ui/screen src/ui/help' "$ui_edges"
assert_eq "no include circle among src/ui/ files" "" "$(echo "$ui_edges" | tsort 2>&1 >/dev/null | sed 's/^tsort: //' | tr '\n' ' ' || :)"
foreign=""
for h in src/ui/*.h src/ui/widget/*.h; do
	p=$(basename "$h" .h)
	for fn in $(grep -E '^[a-z][^#(]*[ *][a-z_0-9]+\(' "$h" | sed -E 's/^[^(]*[ *]([a-z_0-9]+)\(.*/\1/'); do
		case $fn in "$p" | "$p"_*) ;; *) foreign="$foreign $h:$fn" ;; esac
	done
done
assert_eq "every src/ui/ header declares only its own file's functions" "" "$foreign"

# The struct ui stays small, and no function is over 150 lines.
n=$(sed -n '/^struct ui {/,/^};/p' src/ui/ui.h | grep -cE '^	[a-zA-Z].*;')
check "struct ui has at most 30 fields ($n)" test "$n" -le 30
done_testing
